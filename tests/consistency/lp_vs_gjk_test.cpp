// SPDX-License-Identifier: MIT
// Consistency: GJK intersect (query::intersect, default options, "intersect" in a scene) against
// the LP test (lp::intersect on the world vertex lists, "lp_intersect" in a scene) on polytopes:
// random hulls of 4..40 points placed at 0.5..1.5 times the touching distance (scales 1e-3..1e5,
// translations to 1e5), the same pairs moved into touching contact along GJK's own normal
// (exact contact to GJK's accuracy), and the nasty cases of tests/support/nasty_cases.hpp
// (exact face-face, vertex-face and edge-edge contact, face-parallel, duplicate and coplanar
// vertices, flat and needle shapes), each as built and randomly moved. Both certificates are
// verified on the world vertices; the answers may differ only inside the touching band.
#include "consistency/sweep_common.hpp"
#include "support/nasty_cases.hpp"
#include "support/shape_builder.hpp"

#include <proxima/gjk/distance.hpp>
#include <proxima/lp/intersect.hpp>
#include <proxima/query/query.hpp>
#include <proxima/shapes/polytope.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

namespace proxima::consistency {
namespace {

using property::Mix;
using testgen::PairCase;

// The two may disagree only when the separated side's verified gap (its own separating axis /
// hyperplane, evaluated on the world vertices) is below this fraction of the pair's size: then
// the sets are within that distance of touching and both answers are right to rounding. The
// LP's own touching band is kLpContactTolerance = 1e-9 of the half-extent; GJK's contact test
// is |v|^2 below kGjkAbsoluteTolerance * scale^2, i.e. |v| below 1e-12 of the size.
constexpr double kBand = 1e-8;
// A certificate must hold to rounding: a small multiple of eps times the reach (property_common).

Eigen::MatrixXd to_matrix(const std::vector<Vec3>& v) {
  Eigen::MatrixXd m(3, static_cast<Eigen::Index>(v.size()));
  for (std::size_t j = 0; j < v.size(); ++j) m.col(static_cast<Eigen::Index>(j)) = v[j];
  return m;
}

Scene scene_of(const PairCase& c) {
  Scene s;
  s.shape("a", shape_json(c.a));
  s.shape("b", shape_json(c.b));
  s.pair_query("gjk", "intersect", "a", c.pose_a, "b", c.pose_b);
  s.pair_query("lp", "lp_intersect", "a", c.pose_a, "b", c.pose_b);
  return s;
}

struct Sweep {
  Sweep(std::string name, std::uint64_t s) : log(std::move(name), s), seed(s) {}
  Disagreements log;
  std::uint64_t seed;
  Mix mix;
  int index = 0;
  lp::LpWorkspace ws;
};

void compare(Sweep& sweep, const PairCase& c) {
  const int index = sweep.index++;
  const AnyConvex a = testgen::to_any_convex(c.a);
  const AnyConvex b = testgen::to_any_convex(c.b);
  const IntersectResult g = query::intersect(a, c.pose_a.pose(), b, c.pose_b.pose());
  const Eigen::MatrixXd wa = to_matrix(c.world_vertices_a());
  const Eigen::MatrixXd wb = to_matrix(c.world_vertices_b());
  const lp::LpIntersectResult l = lp::intersect(wa, wb, sweep.ws);
  const double size = property::pair_size(c);
  const double floor = property::rounding_floor(c);
  std::ostringstream what;
  what.precision(17);
  what << "gjk intersect " << g.intersect << " (" << to_string(g.status) << "/" << to_string(g.detail) << ", "
       << g.iterations << " it), lp intersect " << l.intersect << " (" << to_string(l.status) << "/"
       << to_string(l.detail) << ", " << l.iterations << " it)";
  sweep.mix.add(l.intersect ? "hit" : "miss");
  sweep.mix.add(std::string("decade") + std::to_string(testgen::decade(c.scale)));
  if (g.status != Status::converged || !l.converged) {
    // The LP may decline (degenerate_input) only inside the touching band, which GJK measures:
    // its distance when separated, its EPA depth when overlapping. Its own "inside its band, the
    // Farkas plane failed the check" (detail touching) is the documented case; a simplex that
    // lost progress on a touching pair (detail no_progress) is noted as a non-answer.
    if (!(l.status == Status::degenerate_input && g.status == Status::converged)) {
      sweep.log.report(index, c.label, "a solver did not converge: " + what.str(), scene_of(c));
      return;
    }
    const double off_contact = g.intersect ? query::penetration(a, c.pose_a.pose(), b, c.pose_b.pose()).depth
                                           : query::distance(a, c.pose_a.pose(), b, c.pose_b.pose()).distance;
    what << "; gjk's distance or depth " << off_contact;
    if (!(off_contact <= kBand * size + floor)) {
      sweep.log.report(index, c.label, "LP declined outside the touching band: " + what.str(), scene_of(c));
      return;
    }
    if (l.detail == Detail::touching) {
      sweep.mix.add("lp_band_uncertified");
    } else {
      sweep.mix.add("lp_declined_in_band");
      sweep.log.note(index, c.label, "LP declined inside the touching band: " + what.str(), scene_of(c));
      return;
    }
  }
  // Certificates on the world vertices.
  double gjk_gap = 0;
  if (!g.intersect) {
    const Eigen::VectorXd axis = g.separating_axis;
    gjk_gap = lp::check_separation(wa, wb, axis, (axis.dot(wa.col(0)) + axis.dot(wb.col(0))) / 2).value;
    if (!(gjk_gap > -floor)) {
      what << "; gjk axis gap " << gjk_gap;
      sweep.log.report(index, c.label, "GJK's separating axis does not separate: " + what.str(), scene_of(c));
    }
  }
  double lp_gap = 0;
  if (l.converged && l.intersect) {
    const double tol = 2 * kLpContactTolerance * size + floor;
    if (!lp::check_common_point(wa, wb, l.common_point, l.weights_a, l.weights_b, tol).valid) {
      sweep.log.report(index, c.label, "LP common point fails its check: " + what.str(), scene_of(c));
    }
  } else if (l.converged) {
    const lp::CertificateCheck check = lp::check_separation(wa, wb, l.separating_normal, l.separating_offset);
    lp_gap = check.value;
    if (!check.valid) sweep.log.report(index, c.label, "LP hyperplane fails its check: " + what.str(), scene_of(c));
  }
  if (l.intersect != g.intersect && l.converged) {
    const double gap = l.intersect ? gjk_gap : lp_gap;
    sweep.mix.add("differs_in_band");
    if (!(gap <= kBand * size + floor)) {
      what << "; separated side's gap " << gap << " > band " << kBand * size;
      sweep.log.report(index, c.label, "intersect differs outside the touching band: " + what.str(), scene_of(c));
    }
  }
}

/// B moved along -normal by GJK's distance (touching to GJK's accuracy); empty label when the
/// pair overlaps.
PairCase touching_variant(const PairCase& c) {
  const Polytope a(std::span<const Vec3>(c.a.vertices));
  const Polytope b(std::span<const Vec3>(c.b.vertices));
  const DistanceResult d = gjk::distance(a, c.pose_a.pose(), b, c.pose_b.pose());
  PairCase t = c;
  t.label.clear();
  if (d.intersect || d.status != Status::converged) return t;
  t.label = c.label + "_touching";
  t.pose_b.translation -= d.distance * d.normal;
  return t;
}

TEST(ConsistencyLpGjk, RandomHullsPlacedAndTouching) {
  Sweep sweep("lp_gjk_random", seed(8011));
  Rng rng(sweep.seed);
  const int n = cases(300);
  for (int k = 0; k < n; ++k) {
    const int na = std::uniform_int_distribution<int>(4, 40)(rng);
    const int nb = std::uniform_int_distribution<int>(4, 40)(rng);
    const auto sa = testgen::polytope_spec(testgen::ellipsoid_points(rng, na));
    const auto sb = testgen::polytope_spec(testgen::ellipsoid_points(rng, nb));
    const PairCase c = testgen::place_pair(rng, "random_hulls", sa, sb);
    compare(sweep, c);
    if (k % 3 == 0) {
      const PairCase t = touching_variant(c);
      if (!t.label.empty()) {
        sweep.mix.add("touching");
        compare(sweep, t);
      }
    }
  }
  sweep.mix.print("lp vs gjk, random");
  std::printf("[lp vs gjk, random] %d cases (seed %llu, scale %d), %d disagreements, %d LP non-answers in the band\n",
              sweep.index, static_cast<unsigned long long>(sweep.seed), sweep_scale(), sweep.log.count(),
              sweep.log.notes());
  EXPECT_EQ(sweep.log.count(), 0);
  EXPECT_LE(sweep.log.notes(), sweep.index / kNonAnswerRarity) << "LP non-answers in the touching band";
  EXPECT_GE(sweep.mix["hit"], sweep.index / 4);
  EXPECT_GE(sweep.mix["miss"], sweep.index / 4);
  EXPECT_GE(sweep.mix["touching"], n / 10);
  for (int d = -3; d <= 4; ++d) EXPECT_GT(sweep.mix[std::string("decade") + std::to_string(d)], 0) << "decade " << d;
}

TEST(ConsistencyLpGjk, NastyCasesAsBuiltAndMoved) {
  Sweep sweep("lp_gjk_nasty", seed(8012));
  Rng rng(sweep.seed);
  const int moves = 4 * sweep_scale();
  int touching = 0;
  for (const testgen::NastyCase& nasty : testgen::nasty_polytope_cases(rng)) {
    compare(sweep, nasty.pair);
    for (int m = 0; m < moves; ++m) compare(sweep, testgen::randomly_moved(rng, nasty.pair));
    touching += nasty.contact == testgen::Contact::touching;
  }
  sweep.mix.print("lp vs gjk, nasty");
  std::printf("[lp vs gjk, nasty] %d cases (seed %llu), %d disagreements\n", sweep.index,
              static_cast<unsigned long long>(sweep.seed), sweep.log.count());
  EXPECT_EQ(sweep.log.count(), 0);
  EXPECT_LE(sweep.log.notes(), sweep.index / kNonAnswerRarity) << "LP non-answers in the touching band";
  EXPECT_GE(touching, 3);
  EXPECT_GT(sweep.mix["hit"], 0);
  EXPECT_GT(sweep.mix["miss"], 0);
}

}  // namespace
}  // namespace proxima::consistency
