// SPDX-License-Identifier: MIT
// Cross-check: lp::intersect (simplex method on the vertex lists, seed 000) against
// gjk::intersect (support mappings, seeds 002/003) on 3-D polytopes at scales 2^-10..2^17: random
// clouds overlapping or separated by 5..50% of their size, and pairs built to touch (gap 0),
// overlap by 1e-7 or be separated by 1e-7 of their size, under random rigid placements.
//
// Both answers carry certificates and both are verified on the world vertices: the LP's common
// point or hyperplane (lp::check_common_point / check_separation) and GJK's separating axis.
// Documented band around touching: the two may disagree only when the "separated" side's verified
// gap along its own axis is below kBand times the pair's size (then both are right up to
// rounding: the sets are within that distance of touching). Everywhere else they must agree.
#include <proxima/core/pose.hpp>
#include <proxima/gjk/intersect.hpp>
#include <proxima/lp/intersect.hpp>
#include <proxima/shapes/polytope.hpp>

#include "lp/lp_cases.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

namespace proxima {
namespace {

constexpr double kBand = 1e-8;

Eigen::MatrixXd to_matrix(const std::vector<Vec3>& v) {
  Eigen::MatrixXd m(3, static_cast<Eigen::Index>(v.size()));
  for (std::size_t j = 0; j < v.size(); ++j) m.col(static_cast<Eigen::Index>(j)) = v[j];
  return m;
}

TEST(LpVsGjk, IntersectAgreesOutsideTheTouchingBand) {
  const unsigned seed = 8675309;
  lp::testing::CaseGenerator gen(seed);
  lp::LpWorkspace ws;
  int hits = 0;
  int misses = 0;
  int near = 0;
  int disagreements = 0;
  int lp_touch_gjk_sep = 0;
  int lp_sep_gjk_touch = 0;
  const int cases = 600;
  for (int t = 0; t < cases; ++t) {
    const double scale = std::ldexp(1.0, gen.integer(-10, 17));
    const double size = 4 * scale;
    const int kind = t % 5;
    std::vector<Vec3> local_a;
    std::vector<Vec3> local_b;
    Pose pose_a;
    Pose pose_b;
    if (kind < 2) {
      // Random clouds, B rotated, with a gap of -0.5..-0.05 (kind 0) or 0.05..0.5 (kind 1) of
      // the size along a random direction u.
      const int na = gen.integer(4, 30);
      const int nb = gen.integer(4, 30);
      const Eigen::MatrixXd ca = gen.cloud(3, na, 1) * scale;
      const Eigen::MatrixXd cb = gen.cloud(3, nb, 1) * scale;
      for (int j = 0; j < na; ++j) local_a.push_back(ca.col(j));
      for (int j = 0; j < nb; ++j) local_b.push_back(cb.col(j));
      const double rel = kind == 0 ? -gen.uniform(0.05, 0.5) : gen.uniform(0.05, 0.5);
      const Vec3 u = Vec3(gen.uniform(-1, 1), gen.uniform(-1, 1), gen.uniform(-1, 1)).normalized();
      const Pose rot = Pose::from_euler_xyz(gen.uniform(-3, 3), gen.uniform(-3, 3), gen.uniform(-3, 3));
      double max_a = -std::numeric_limits<double>::infinity();
      double min_b = std::numeric_limits<double>::infinity();
      for (const Vec3& p : local_a) max_a = std::max(max_a, u.dot(p));
      for (const Vec3& p : local_b) min_b = std::min(min_b, u.dot(rot.apply(p)));
      pose_b = Pose::from_matrix(rot.rotation(), u * (rel * size - (min_b - max_a)));
    } else {
      // Near touching by construction (lp_cases.hpp facet_pair): A has a facet on x0 = 0 and the
      // segment (-1, y)..(0, y), B the point (gap, y) and x0 >= gap elsewhere; gap = +1e-7 of the
      // size (separated by exactly that), -1e-7 (overlapping) or 0 (touching). Both placed by one
      // random rotation and translation.
      const double gap = kind == 2 ? 1e-7 : kind == 3 ? -1e-7 : 0.0;
      const lp::testing::PairCase c = gen.facet_pair(3, gap);
      for (Eigen::Index j = 0; j < c.a.cols(); ++j) local_a.push_back(c.a.col(j) * scale);
      for (Eigen::Index j = 0; j < c.b.cols(); ++j) local_b.push_back(c.b.col(j) * scale);
      // Polytope needs two distinct points: extend a single point of B away from A (+x0).
      if (local_b.size() == 1) local_b.push_back(local_b[0] + Vec3(scale, 0, 0));
      const Pose rot = Pose::from_euler_xyz(gen.uniform(-3, 3), gen.uniform(-3, 3), gen.uniform(-3, 3));
      const Vec3 shift = Vec3(gen.uniform(-1, 1), gen.uniform(-1, 1), gen.uniform(-1, 1)) * size;
      pose_a = Pose::from_matrix(rot.rotation(), shift);
      pose_b = pose_a;
    }

    const Polytope a(local_a);
    const Polytope b(local_b);
    std::vector<Vec3> world_a;
    std::vector<Vec3> world_b;
    for (const Vec3& p : local_a) world_a.push_back(pose_a.apply(p));
    for (const Vec3& p : local_b) world_b.push_back(pose_b.apply(p));
    const Eigen::MatrixXd ma = to_matrix(world_a);
    const Eigen::MatrixXd mb = to_matrix(world_b);

    const IntersectResult g = gjk::intersect(a, pose_a, b, pose_b);
    const lp::LpIntersectResult l = lp::intersect(ma, mb, ws);
    SCOPED_TRACE("seed " + std::to_string(seed) + " case " + std::to_string(t) + " kind " + std::to_string(kind) +
                 " scale " + std::to_string(scale));
    ASSERT_TRUE(l.converged);

    // Verify both certificates on the world vertices.
    double lp_gap = 0;
    if (l.intersect) {
      const double tol = 2 * kLpContactTolerance * size + 64 * std::numeric_limits<double>::epsilon() * size;
      EXPECT_TRUE(lp::check_common_point(ma, mb, l.common_point, l.weights_a, l.weights_b, tol).valid);
    } else {
      const lp::CertificateCheck c = lp::check_separation(ma, mb, l.separating_normal, l.separating_offset);
      EXPECT_TRUE(c.valid);
      lp_gap = c.value;
    }
    double gjk_gap = 0;
    if (!g.intersect) {
      const Eigen::VectorXd axis = g.separating_axis;
      gjk_gap = lp::check_separation(ma, mb, axis, (axis.dot(ma.col(0)) + axis.dot(mb.col(0))) / 2).value;
      // The axis must separate up to rounding (GJK's own test is on its local-frame supports).
      EXPECT_GT(gjk_gap, -64 * std::numeric_limits<double>::epsilon() * size);
    }
    if (l.intersect != g.intersect) {
      ++disagreements;
      ++(l.intersect ? lp_touch_gjk_sep : lp_sep_gjk_touch);
      const double gap = l.intersect ? gjk_gap : lp_gap;
      EXPECT_LE(gap, kBand * size) << "LP says " << l.intersect << ", GJK says " << g.intersect
                                   << ", separated side's gap " << gap;
    }
    l.intersect ? ++hits : ++misses;
    if (kind >= 2) ++near;
  }
  std::printf("[LpVsGjk] cases=%d hits=%d misses=%d near_touching=%d disagreements_in_band=%d (lp intersect: %d, "
              "gjk intersect: %d)\n",
              cases, hits, misses, near, disagreements, lp_touch_gjk_sep, lp_sep_gjk_touch);
  EXPECT_GT(hits, cases * 3 / 10);
  EXPECT_GT(misses, cases * 3 / 10);
  EXPECT_GE(near, cases / 2);
  EXPECT_LE(disagreements, cases / 10) << "the band must stay a band";
}

}  // namespace
}  // namespace proxima
