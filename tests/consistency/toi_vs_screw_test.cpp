// SPDX-License-Identifier: MIT
// Consistency: the convex time of impact by conservative advancement on GJK (ccd::toi_translate,
// ccd::toi_screw) against the exact screw-motion collision algorithm (ccd::screw_collisions,
// seed 004's glide rotations with analytic root isolation) on convex polyhedra: the first contact
// time of the step. Random convex polyhedra (affine images of a tetrahedron, cube, octahedron and
// prism; scales 1e-3..1e5) start separated (1.2..3 times the touching distance) and move over one
// step by a translation (block 1, also replayable as a "toi_translate" and a "screw" query) or by
// rotations of up to 0.6 rad (A) and 1.2 rad (B) with translations (block 2). Aimed at each other
// or past each other, so the step holds hits and misses. Tolerances: docs/reliability.md.
#include "consistency/sweep_common.hpp"
#include "support/nasty_cases.hpp"

#include <proxima/ccd/screw.hpp>
#include <proxima/ccd/screw_collisions.hpp>
#include <proxima/ccd/toi.hpp>
#include <proxima/gjk/epa.hpp>
#include <proxima/mesh/mesh.hpp>
#include <proxima/shapes/polytope.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <sstream>

namespace proxima::consistency {
namespace {

using property::Mix;
using testgen::PairCase;

// Conservative advancement stops at the first time the GJK distance is below
// kCcdToiDistanceTolerance (1e-9) times its scale, so it reports contact up to
// (that distance) / (normal approach speed) early, never late. The glide algorithm brackets each
// root to kCcdTimeTolerance (1e-13). So: toi_ca - toi_glide <= kLate, and
// toi_glide - toi_ca <= kEarlyFactor * 1e-9 * scale / approach speed + kLate.
constexpr double kLate = 1e-9;
constexpr double kEarlyFactor = 4;
// Contact reported by advancement only (the glide algorithm reports crossings, not tangential
// touches) is allowed when the pair only grazes: the deepest overlap sampled over the rest of the
// step stays below this fraction of the scale.
constexpr double kGrazeBand = 1e-7;
constexpr int kGrazeSamples = 64;

struct Motion {
  PoseSpec a_start, a_end, b_start, b_end;
  bool translation = true;
};

struct Case {
  std::string label;
  Polyhedron a, b;  // local frames
  Motion m;
  double scale = 1;
};

PoseSpec moved(const PoseSpec& p, const Vec3& d, const Eigen::Vector4d& turn) {
  return {testgen::quaternion_product(turn, p.quaternion), p.translation + d};
}

Eigen::Vector4d turn_quaternion(Rng& rng, double max_angle) {
  const double angle = testgen::uniform(rng, 0, max_angle);
  const Vec3 axis = testgen::random_unit_vector(rng);
  return {std::cos(angle / 2), std::sin(angle / 2) * axis.x(), std::sin(angle / 2) * axis.y(), std::sin(angle / 2) * axis.z()};
}

Case random_case(Rng& rng, bool translation) {
  Case c;
  c.label = translation ? "translation" : "screw";
  const double s = testgen::log_uniform(rng, 1e-3, 1e5);
  c.scale = s;
  c.a = random_polyhedron(rng, std::uniform_int_distribution<int>(0, 3)(rng), 1);
  c.b = random_polyhedron(rng, std::uniform_int_distribution<int>(0, 3)(rng), 1);
  testgen::PlacementOptions placement;
  placement.min_factor = 1.2;
  placement.max_factor = 3;
  placement.min_scale = placement.max_scale = s;
  placement.max_translation = 1e3 * s;
  const PairCase p = testgen::place_pair(rng, c.label, testgen::polytope_spec(c.a.vertices), testgen::polytope_spec(c.b.vertices), placement);
  for (Vec3& v : c.a.vertices) v *= s;
  for (Vec3& v : c.b.vertices) v *= s;
  // B aimed at A's centre (0.6..2.5 times the centre distance) plus a sideways miss of up to 0.8 of
  // it; A drifts by up to 0.3 of it.
  const Vec3 ab = p.pose_b.translation - p.pose_a.translation;
  const double dist = ab.norm();
  const Vec3 u = ab / dist;
  Vec3 side = testgen::random_unit_vector(rng);
  side = (side - side.dot(u) * u).normalized();
  const double approach = testgen::uniform(rng, 0.6, 2.5);
  const Vec3 db = -u * dist * approach + side * dist * testgen::uniform(rng, 0, 0.8);
  const Vec3 a_dir = testgen::random_unit_vector(rng);
  const Vec3 da = a_dir * dist * testgen::uniform(rng, 0, 0.3);
  const Eigen::Vector4d none(1, 0, 0, 0);
  c.m.translation = translation;
  c.m.a_start = p.pose_a;
  c.m.b_start = p.pose_b;
  c.m.a_end = moved(p.pose_a, da, translation ? none : turn_quaternion(rng, 0.6));
  c.m.b_end = moved(p.pose_b, db, translation ? none : turn_quaternion(rng, 1.2));
  return c;
}

Scene scene_of(const Case& c) {
  Scene s;
  s.shape("a", shape_json(testgen::polytope_spec(c.a.vertices)));
  s.shape("b", shape_json(testgen::polytope_spec(c.b.vertices)));
  s.shape("a_mesh", mesh_json(c.a.vertices, c.a.faces));
  s.shape("b_mesh", mesh_json(c.b.vertices, c.b.faces));
  if (c.m.translation) {
    s.pair_query("advance", "toi_translate", "a", c.m.a_start, "b", c.m.b_start,
                 ",\"velocity_a\":" + vec(c.m.a_end.translation - c.m.a_start.translation) + ",\"velocity_b\":" +
                     vec(c.m.b_end.translation - c.m.b_start.translation) + ",\"t_max\":1");
  }
  s.pair_query("glide", "screw", "a_mesh", c.m.a_start, "b_mesh", c.m.b_start,
               ",\"pose_a_end\":" + pose_json(c.m.a_end) + ",\"pose_b_end\":" + pose_json(c.m.b_end));
  return s;
}

/// The advancement answer of a case (translation or screw).
ToiResult advancement(const Case& c, const Polytope& a, const Polytope& b) {
  if (c.m.translation) {
    return ccd::toi_translate(a, c.m.a_start.pose(), c.m.a_end.translation - c.m.a_start.translation, b,
                              c.m.b_start.pose(), c.m.b_end.translation - c.m.b_start.translation, 1.0);
  }
  return ccd::toi_screw(a, c.m.a_start.pose(), c.m.a_end.pose(), b, c.m.b_start.pose(), c.m.b_end.pose());
}

struct Sweep {
  Sweep(std::string name, std::uint64_t s) : log(std::move(name), s), seed(s) {}
  Disagreements log;
  std::uint64_t seed;
  Mix mix;
  int index = 0;
  double worst = 0;  // worst |toi_ca - toi_glide| / tolerance
};

void compare(Sweep& sweep, const Case& c) {
  const int index = sweep.index++;
  const Polytope a(std::span<const Vec3>(c.a.vertices));
  const Polytope b(std::span<const Vec3>(c.b.vertices));
  const mesh::Mesh ma = mesh::Mesh::from_faces(c.a.vertices, c.a.faces);
  const mesh::Mesh mb = mesh::Mesh::from_faces(c.b.vertices, c.b.faces);
  const Pose a0 = c.m.a_start.pose(), a1 = c.m.a_end.pose(), b0 = c.m.b_start.pose(), b1 = c.m.b_end.pose();
  const ToiResult ca = advancement(c, a, b);
  const ccd::ScrewResult glide = ccd::screw_collisions(ma, a0, a1, mb, b0, b1);
  const double ca_scale = ccd::detail::toi_scale(a, a0, b, b0);
  std::ostringstream what;
  what.precision(17);
  what << "advancement contact " << ca.contact << " toi " << ca.toi << " (" << to_string(ca.status) << ", "
       << ca.iterations << " it), glide contact " << glide.contact << " toi " << glide.toi << " ("
       << to_string(glide.status) << ", " << glide.collisions.size() << " collisions)";
  sweep.mix.add(glide.contact ? "hit" : "miss");
  sweep.mix.add(std::string("decade") + std::to_string(testgen::decade(c.scale)));
  if (ca.status == Status::iteration_limit && !ca.contact && glide.status == Status::converged) {
    // Advancement's closing-rate bound for a screw does not use the normal, so a nearly tangential
    // approach takes many short steps and can reach the step cap: reported honestly (no contact
    // claimed, iteration_limit), noted as a non-answer, bounded per run.
    sweep.mix.add("advancement_capped");
    sweep.log.note(index, c.label, "advancement reached its step cap: " + what.str(), scene_of(c));
    return;
  }
  if (ca.status != Status::converged || glide.status != Status::converged) {
    sweep.log.report(index, c.label, "a method did not converge: " + what.str(), scene_of(c));
    return;
  }
  if (ca.contact && glide.contact) {
    // Approach speed along the contact normal at the glide's contact (A's frame at that time).
    const ccd::Screw a_motion = ccd::decompose(a1 * a0.inverse());
    const Pose a_at = a_motion.pose(glide.toi) * a0;
    const Vec3 p = a_at.inverse().apply(glide.point);
    const Vec3 n = a_at.inverse().rotate(glide.normal);
    const ccd::Screw& sc = glide.screw;
    const Vec3 velocity = sc.angle * sc.axis.cross(p - sc.axis_point) + sc.glide * sc.axis;
    const double approach = std::abs(velocity.dot(n));
    const double early = kEarlyFactor * kCcdToiDistanceTolerance * ca_scale / approach + kLate;
    const double dt = glide.toi - ca.toi;
    what << "; approach speed " << approach << ", allowed early " << early;
    sweep.worst = std::max(sweep.worst, std::abs(dt) / early);
    if (!(dt >= -kLate) || !(dt <= early)) sweep.log.report(index, c.label, "first contact times differ: " + what.str(), scene_of(c));
    return;
  }
  if (glide.contact && !ca.contact) {
    sweep.log.report(index, c.label, "advancement missed a contact: " + what.str(), scene_of(c));
    return;
  }
  if (ca.contact && !glide.contact) {
    // A graze: the deepest overlap over the rest of the step must stay in the band.
    double deepest = 0;
    const ccd::Screw rel = ccd::decompose(ccd::relative_motion(a0, a1, b0, b1));
    const Pose b_in_a = a0.inverse() * b0;
    for (int k = 0; k <= kGrazeSamples; ++k) {
      const double t = ca.toi + (1 - ca.toi) * k / kGrazeSamples;
      const PenetrationResult pen = gjk::penetration(a, Pose(), b, rel.pose(t) * b_in_a);
      if (pen.intersect) deepest = std::max(deepest, pen.depth);
    }
    sweep.mix.add("graze");
    what << "; deepest overlap after it " << deepest;
    if (!(deepest <= kGrazeBand * ca_scale)) sweep.log.report(index, c.label, "glide missed a contact: " + what.str(), scene_of(c));
  }
}

void run(const char* name, std::uint64_t base_seed, bool translation, int base_cases) {
  Sweep sweep(name, seed(base_seed));
  Rng rng(sweep.seed);
  const int n = cases(base_cases);
  for (int k = 0; k < n; ++k) compare(sweep, random_case(rng, translation));
  sweep.mix.print(name);
  std::printf("[%s] %d cases (seed %llu, scale %d), %d disagreements, %d advancement non-answers, worst |dt| / tolerance %.3g\n",
              name, sweep.index, static_cast<unsigned long long>(sweep.seed), sweep_scale(), sweep.log.count(),
              sweep.log.notes(), sweep.worst);
  EXPECT_EQ(sweep.log.count(), 0);
  EXPECT_LE(sweep.log.notes(), sweep.index / kNonAnswerRarity) << "advancement non-answers";
  EXPECT_GE(sweep.mix["hit"], sweep.index / 4);
  EXPECT_GE(sweep.mix["miss"], sweep.index / 10);
  for (int d = -3; d <= 4; ++d) EXPECT_GT(sweep.mix[std::string("decade") + std::to_string(d)], 0) << "decade " << d;
}

TEST(ConsistencyToiGlide, TranslationFirstContact) { run("toi_glide_translation", 8031, true, 160); }

TEST(ConsistencyToiGlide, ScrewFirstContact) { run("toi_glide_screw", 8032, false, 160); }

}  // namespace
}  // namespace proxima::consistency
