// SPDX-License-Identifier: MIT
// Tests for gjk/box_box.hpp (gjk::distance on Box-Box pairs, GjkOptions::box_box):
//  - against a brute-force oracle written out here: for separated boxes the exact distance is the
//    smallest of the 8 + 8 vertex-to-box distances (a clamp in the box's frame) and the 144
//    edge-to-edge segment distances; the answer's certified bracket [distance - gap, distance]
//    must contain it (to rounding), its points lie in their boxes and |point_b - point_a| =
//    distance; an overlapping answer's common point must lie in both boxes;
//  - against plain GJK (box_box off): the same class and the same distance to tolerance;
//  - configurations: random rotations, scales 1e-3..1e5, translations to 1e5; random directions
//    at random distances, face-face parallel (separated, touching, overlapping), edge-edge,
//    vertex-face, nested, thin boxes (aspect 1e-6); the mix of classes and of pre-pass answers is
//    asserted so the sample is informative;
//  - the option off and a small iteration cap give GJK's answer bit for bit.
// Every random case prints its seed and index on failure.
#include <proxima/gjk/box_box.hpp>
#include <proxima/gjk/distance.hpp>
#include <proxima/shapes/box.hpp>

#include "support/case_divisor.hpp"
#include "support/draws.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <sstream>
#include <string>

namespace proxima::gjk {
namespace {

using Rng = std::mt19937_64;
using test::draw_vec3;

const GjkOptions kPlainGjk{.box_box = false};

/// A placed box.
struct Placed {
  Vec3 h;
  Pose pose;
};

/// The 8 corners (world) of a placed box.
std::array<Vec3, 8> corners(const Placed& b) {
  std::array<Vec3, 8> out;
  for (int k = 0; k < 8; ++k) {
    const Vec3 local((k & 1) ? b.h.x() : -b.h.x(), (k & 2) ? b.h.y() : -b.h.y(), (k & 4) ? b.h.z() : -b.h.z());
    out[static_cast<std::size_t>(k)] = b.pose.apply(local);
  }
  return out;
}

/// Distance from world point p to a placed box (clamp in its frame).
double point_box_distance(const Placed& b, const Vec3& p) {
  const Vec3 u = b.pose.rotation().transpose() * (p - b.pose.translation());
  return (u - u.cwiseMax(-b.h).cwiseMin(b.h)).norm();
}

/// How far p lies outside the placed box (0 inside), in length units.
double outside_by(const Placed& b, const Vec3& p) { return point_box_distance(b, p); }

/// Distance of segments [p0, p1] and [q0, q1] by ternary search on the convex function of s
/// (the inner minimum over t is a clamp): independent of the library's segment routine.
double segment_distance(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1) {
  const Vec3 dq = q1 - q0;
  const double ee = dq.squaredNorm();
  const auto at = [&](double s) {
    const Vec3 p = p0 + s * (p1 - p0);
    const double t = ee > 0 ? std::clamp((p - q0).dot(dq) / ee, 0.0, 1.0) : 0.0;
    return (p - (q0 + t * dq)).norm();
  };
  double lo = 0, hi = 1;
  for (int k = 0; k < 200; ++k) {
    const double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
    if (at(m1) < at(m2)) {
      hi = m2;
    } else {
      lo = m1;
    }
  }
  return std::min({at(0.5 * (lo + hi)), at(0), at(1)});
}

/// Brute force: for separated boxes, the exact distance (see the file comment); the feature kind
/// attaining it: 0 vertex of A to B, 1 vertex of B to A, 2 edge-edge.
double brute_force_distance(const Placed& a, const Placed& b, int& feature) {
  const auto ca = corners(a);
  const auto cb = corners(b);
  double best = std::numeric_limits<double>::infinity();
  for (const Vec3& v : ca) {
    const double d = point_box_distance(b, v);
    if (d < best) best = d, feature = 0;
  }
  for (const Vec3& v : cb) {
    const double d = point_box_distance(a, v);
    if (d < best) best = d, feature = 1;
  }
  // Edges join corners differing in one bit.
  for (int i = 0; i < 8; ++i) {
    for (int bit_a = 1; bit_a < 8; bit_a <<= 1) {
      if (i & bit_a) continue;
      for (int j = 0; j < 8; ++j) {
        for (int bit_b = 1; bit_b < 8; bit_b <<= 1) {
          if (j & bit_b) continue;
          const double d = segment_distance(ca[static_cast<std::size_t>(i)], ca[static_cast<std::size_t>(i | bit_a)],
                                            cb[static_cast<std::size_t>(j)], cb[static_cast<std::size_t>(j | bit_b)]);
          // Edge-edge only when strictly better: ties go to the vertex kinds.
          if (d < best * (1 - 1e-9)) best = d, feature = 2;
        }
      }
    }
  }
  return best;
}

struct Tally {
  int cases = 0;
  int separated = 0;
  int overlapping = 0;
  int prepass = 0;  // answered by the pre-pass itself
  int prepass_overlap = 0;
  std::array<int, 3> feature{};
};

/// Checks one pair; `where` names it in failures.
void check_pair(const Placed& a, const Placed& b, const std::string& where, Tally& tally) {
  SCOPED_TRACE(where);
  const Box box_a(a.h);
  const Box box_b(b.h);
  const DistanceResult r = distance(box_a, a.pose, box_b, b.pose);
  const DistanceResult g = distance(box_a, a.pose, box_b, b.pose, kPlainGjk);
  DistanceResult pre;
  Vec3 seed;
  const bool answered = box_box_distance(box_a, a.pose, box_b, b.pose, GjkOptions{}, pre, seed);
  ++tally.cases;
  if (answered) {
    ++tally.prepass;
    if (pre.intersect) ++tally.prepass_overlap;
  }
  ASSERT_EQ(r.status, Status::converged);
  ASSERT_EQ(g.status, Status::converged);
  const double size = a.h.norm() + b.h.norm();
  const double scale = size + (b.pose.translation() - a.pose.translation()).norm();
  // Rounding of world coordinates (which carry the translations) through a few dozen operations.
  const double allow = 1e-13 * (scale + a.pose.translation().norm() + b.pose.translation().norm());
  int feature = 0;
  const double exact = brute_force_distance(a, b, feature);
  if (r.intersect) {
    ++tally.overlapping;
    EXPECT_EQ(r.distance, 0);
    EXPECT_EQ(r.point_a, r.point_b);
    EXPECT_LE(outside_by(a, r.point_a), allow);
    EXPECT_LE(outside_by(b, r.point_a), allow);
    // GJK: overlapping too, or within its contact band.
    EXPECT_TRUE(g.intersect || g.distance <= 1e-10 * scale) << "gjk distance " << g.distance;
    return;
  }
  ++tally.separated;
  ++tally.feature[static_cast<std::size_t>(feature)];
  EXPECT_TRUE(std::isfinite(r.distance));
  EXPECT_GE(r.gap, 0);
  EXPECT_LE(outside_by(a, r.point_a), allow);
  EXPECT_LE(outside_by(b, r.point_b), allow);
  EXPECT_NEAR((r.point_b - r.point_a).norm(), r.distance, allow);
  EXPECT_NEAR(r.normal.norm(), 1, 1e-12);
  EXPECT_NEAR(r.normal.dot(r.point_b - r.point_a), r.distance, allow);
  // The certified bracket holds the brute-force distance.
  EXPECT_GE(r.distance, exact - allow);
  EXPECT_LE(r.distance - r.gap, exact + allow);
  EXPECT_LE(r.distance, exact + 1e-11 * exact + allow) << "exact " << exact;
  // Plain GJK agrees (or called it touching, within its contact band).
  if (g.intersect) {
    EXPECT_LE(r.distance, 1e-10 * scale);
  } else {
    EXPECT_NEAR(r.distance, g.distance, 1e-11 * g.distance + allow);
  }
}

Vec3 draw_half_extents(Rng& rng, double size) {
  std::uniform_real_distribution<double> u(0.2, 1.0);
  return size * draw_vec3(u, rng);
}

Pose random_pose(Rng& rng, const Vec3& translation) {
  std::normal_distribution<double> q(0, 1);
  return test::draw_quaternion_pose(q, rng, translation);
}

TEST(BoxBoxDistance, RandomPairsAgreeWithBruteForceAndGjk) {
  constexpr std::uint64_t kSeed = 20261125;
  Rng rng(kSeed);
  std::uniform_real_distribution<double> unit(0, 1);
  std::normal_distribution<double> normal(0, 1);
  Tally tally;
  const int n = test::cases(3000);  // a quarter under the sanitizers (support/case_divisor.hpp)
  for (int i = 0; i < n; ++i) {
    const double size = std::pow(10.0, -3 + 8 * unit(rng));
    const double offset_length = std::pow(10.0, 5 * unit(rng));
    const Vec3 offset = offset_length * draw_vec3(normal, rng).normalized();
    Placed a{draw_half_extents(rng, size), random_pose(rng, offset)};
    Placed b{draw_half_extents(rng, size * std::pow(10.0, unit(rng) - 0.5)), random_pose(rng, Vec3::Zero())};
    const Vec3 u = draw_vec3(normal, rng).normalized();
    const double reach = a.h.norm() + b.h.norm();
    b.pose = Pose::from_matrix(b.pose.rotation(), offset + 1.5 * reach * unit(rng) * u);
    std::ostringstream where;
    where << "seed " << kSeed << " case " << i;
    check_pair(a, b, where.str(), tally);
    if (::testing::Test::HasFatalFailure()) return;
  }
  // The sample covers both classes, all three closest-feature kinds, and the pre-pass answers
  // most pairs itself.
  EXPECT_GE(tally.separated, n / 4);
  EXPECT_GE(tally.overlapping, n / 10);
  EXPECT_GE(tally.feature[0], n / 50);
  EXPECT_GE(tally.feature[1], n / 50);
  EXPECT_GE(tally.feature[2], n / 50);
  EXPECT_GE(tally.prepass, n / 2);
  std::printf("box-box random: %d cases, %d separated (vertex of A %d, vertex of B %d, edge-edge %d), %d overlapping; "
              "pre-pass answered %d (%d overlapping)\n",
              tally.cases, tally.separated, tally.feature[0], tally.feature[1], tally.feature[2], tally.overlapping,
              tally.prepass, tally.prepass_overlap);
}

/// B = A's rotation composed with `rel`, at A's frame offset `local_t` (both in A's frame).
Placed placed_in_a(const Placed& a, const Vec3& hb, const Mat3& rel, const Vec3& local_t) {
  return {hb, Pose::from_matrix(a.pose.rotation() * rel, a.pose.apply(local_t))};
}

TEST(BoxBoxDistance, StructuredConfigurations) {
  constexpr std::uint64_t kSeed = 7;
  Rng rng(kSeed);
  std::uniform_real_distribution<double> unit(0, 1);
  std::normal_distribution<double> normal(0, 1);
  Tally tally;
  int index = 0;
  const int rounds = test::cases(200);  // a quarter under the sanitizers (support/case_divisor.hpp)
  const auto run = [&](const Placed& a, const Placed& b, const char* what) {
    std::ostringstream where;
    where << "seed " << kSeed << " case " << index++ << " (" << what << ")";
    check_pair(a, b, where.str(), tally);
  };
  for (int i = 0; i < rounds; ++i) {
    const double size = std::pow(10.0, -3 + 8 * unit(rng));
    const double offset_length = std::pow(10.0, 5 * unit(rng));
    const Vec3 offset = offset_length * draw_vec3(normal, rng).normalized();
    Placed a{draw_half_extents(rng, size), random_pose(rng, offset)};
    const Vec3 hb = draw_half_extents(rng, size);
    const Mat3 id = Mat3::Identity();
    const double lateral = (unit(rng) - 0.5) * size;
    // Face-face parallel: separated by a gap, touching, overlapping.
    const double gap = size * std::pow(10.0, -6 + 6 * unit(rng));
    run(a, placed_in_a(a, hb, id, Vec3(a.h.x() + hb.x() + gap, lateral, 0)), "face-face separated");
    run(a, placed_in_a(a, hb, id, Vec3(0, a.h.y() + hb.y(), lateral)), "face-face touching");
    run(a, placed_in_a(a, hb, id, Vec3(lateral, 0, a.h.z() + hb.z() - 0.1 * size)), "face-face overlapping");
    // Vertex-face: B turned so that a vertex points at A's +z face.
    const Mat3 tilt =
        (Eigen::AngleAxisd(0.6, Vec3::UnitX()) * Eigen::AngleAxisd(0.7, Vec3::UnitY())).toRotationMatrix();
    run(a, placed_in_a(a, hb, tilt, Vec3(0.1 * lateral, 0, a.h.z() + hb.norm() + gap)), "vertex-face");
    // Edge-edge (mostly): B turned about z and about its own x, placed off A's edge along x at
    // (+y, +z); the random test asserts the edge-edge count.
    const Mat3 cross =
        (Eigen::AngleAxisd(0.9, Vec3::UnitZ()) * Eigen::AngleAxisd(0.785398, Vec3::UnitX())).toRotationMatrix();
    const double off = 0.8 * hb.norm();
    run(a, placed_in_a(a, hb, cross, Vec3(0, a.h.y() + off, a.h.z() + off + gap)), "edge-edge");
    // Nested: B well inside A, and A inside B.
    run(a, placed_in_a(a, 0.1 * a.h.minCoeff() * Vec3::Ones(), random_pose(rng, Vec3::Zero()).rotation(), Vec3::Zero()),
        "nested");
    run(placed_in_a(a, 0.1 * a.h.minCoeff() * Vec3::Ones(), id, 0.2 * a.h), a, "nested reversed");
    // Thin boxes (aspect 1e-6), random placement near touching.
    const Vec3 thin(size, size, 1e-6 * size);
    Placed ta{thin, a.pose};
    const Vec3 u = draw_vec3(normal, rng).normalized();
    run(ta, {Vec3(size, 1e-6 * size, size), random_pose(rng, a.pose.translation() + 1.2 * size * u)}, "thin");
    // Random direction at a small distance factor: near touching.
    Placed b{hb, random_pose(rng, a.pose.translation() + (a.h.norm() + hb.norm()) * (0.5 + unit(rng)) * u)};
    run(a, b, "random near");
    if (::testing::Test::HasFatalFailure()) return;
  }
  EXPECT_GE(tally.separated, 2 * rounds);
  EXPECT_GE(tally.overlapping, 2 * rounds);
  std::printf("box-box structured: %d cases, %d separated, %d overlapping; pre-pass answered %d (%d overlapping)\n",
              tally.cases, tally.separated, tally.overlapping, tally.prepass, tally.prepass_overlap);
}

TEST(BoxBoxDistance, OptionOffAndSmallCapAreGjkBitForBit) {
  Rng rng(11);
  std::normal_distribution<double> normal(0, 1);
  std::uniform_real_distribution<double> unit(0, 1);
  for (int i = 0; i < 200; ++i) {
    const Box a(draw_half_extents(rng, 1));
    const Box b(draw_half_extents(rng, 1));
    const Pose pa = random_pose(rng, draw_vec3(normal, rng));
    const double gap = 2.5 * unit(rng);
    const Vec3 dir = draw_vec3(normal, rng).normalized();
    const Pose pb = random_pose(rng, pa.translation() + gap * dir);
    for (const int cap : {1, 3, kBoxBoxMinIterations - 1}) {
      const DistanceResult on = distance(a, pa, b, pb, GjkOptions{.max_iterations = cap});
      const DistanceResult off = distance(a, pa, b, pb, GjkOptions{.max_iterations = cap, .box_box = false});
      EXPECT_EQ(on.iterations, off.iterations) << "case " << i << " cap " << cap;
      EXPECT_TRUE((on.distance == off.distance) || (std::isnan(on.distance) && std::isnan(off.distance)));
      EXPECT_EQ(on.status, off.status);
    }
  }
}

TEST(BoxBoxDistance, WarmStartReceivesTheNormal) {
  const Box a(Vec3(1, 1, 1));
  const Box b(Vec3(0.5, 0.5, 0.5));
  const Pose pa = Pose();
  const Pose pb = Pose::from_matrix(Mat3::Identity(), Vec3(3, 0, 0));
  WarmStart warm;
  const DistanceResult r = distance(a, pa, b, pb, GjkOptions{}, warm);
  EXPECT_FALSE(r.intersect);
  EXPECT_NEAR(r.distance, 1.5, 1e-15);
  EXPECT_EQ(r.iterations, 0);
  EXPECT_EQ(warm.direction, r.normal);
}

TEST(BoxBoxDistance, OutOfRangeScaleIsRefused) {
  const Box a(Vec3(1e31, 1, 1));
  const Box b(Vec3(1, 1, 1));
  const DistanceResult r = distance(a, Pose(), b, Pose());
  EXPECT_EQ(r.status, Status::degenerate_input);
  EXPECT_EQ(r.detail, Detail::scale_out_of_range);
}

}  // namespace
}  // namespace proxima::gjk
