// SPDX-License-Identifier: MIT
// The cold intersect() without momentum runs detail::run_gjk_intersect_lean (w points only);
// every other intersect() runs the general loop. The two must give the same answer, field by field
// and bit for bit: the warm-start overload with a fresh WarmStart runs the general loop from the
// same (cold) start, so it is the reference. Seeded random pairs of small polytopes (the fused AVX2
// support), large ones (hill climbing), boxes, spheres and capsules (margins), and the edge cases:
// touching faces, nested bodies, flat and collinear hulls, duplicate vertices, a needle, and
// iteration caps that stop the loop early.
#include <proxima/gjk/intersect.hpp>
#include <proxima/shapes/box.hpp>
#include <proxima/shapes/capsule.hpp>
#include <proxima/shapes/cone.hpp>
#include <proxima/shapes/cylinder.hpp>
#include <proxima/shapes/polytope.hpp>
#include <proxima/shapes/sphere.hpp>

#include "support/draws.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <utility>
#include <random>
#include <string>
#include <vector>

namespace proxima::gjk {
namespace {

/// (status, detail) of every lean answer compared, so the tests can check which exits they reach.
std::map<std::pair<Status, Detail>, int>& exits() {
  static std::map<std::pair<Status, Detail>, int> seen;
  return seen;
}

bool same_bits(const Vec3& x, const Vec3& y) { return std::memcmp(x.data(), y.data(), sizeof(double) * 3) == 0; }

/// Lean (cold overload) against the general loop (warm overload, fresh WarmStart).
template <class A, class B>
void expect_same(const A& a, const Pose& pa, const B& b, const Pose& pb, const GjkOptions& options,
                 const std::string& label) {
  const IntersectResult lean = intersect(a, pa, b, pb, options);
  exits()[{lean.status, lean.detail}]++;
  WarmStart warm;
  const IntersectResult general = intersect(a, pa, b, pb, options, warm);
  EXPECT_EQ(lean.intersect, general.intersect) << label;
  EXPECT_TRUE(same_bits(lean.separating_axis, general.separating_axis))
      << label << " lean " << lean.separating_axis.transpose() << " general " << general.separating_axis.transpose();
  EXPECT_EQ(lean.iterations, general.iterations) << label;
  EXPECT_EQ(lean.status, general.status) << label;
  EXPECT_EQ(lean.detail, general.detail) << label;
}

Pose random_pose(std::mt19937_64& rng, double spread) {
  std::normal_distribution<double> g;
  std::uniform_real_distribution<double> u(-spread, spread);
  return test::draw_quaternion_pose(g, u, rng);
}

std::vector<Vec3> random_points(std::mt19937_64& rng, int n, double radius) {
  std::normal_distribution<double> g;
  std::vector<Vec3> p;
  for (int i = 0; i < n; ++i) {
    const Vec3 x{g(rng), g(rng), g(rng)};
    p.push_back(radius * x.normalized());
  }
  return p;
}

Polytope polytope(const std::vector<Vec3>& v) { return Polytope(std::span<const Vec3>(v.data(), v.size())); }

TEST(IntersectLean, SameAnswerAsTheGeneralLoopOnRandomPolytopes) {
  std::mt19937_64 rng(20261126);
  std::uniform_real_distribution<double> size(0.2, 2.0);
  int separated = 0;
  int overlapping = 0;
  for (int n : {4, 8, 16, 32, 47, 64, 200}) {
    for (int trial = 0; trial < 150; ++trial) {
      const Polytope a = polytope(random_points(rng, n, size(rng)));
      const Polytope b = polytope(random_points(rng, n, size(rng)));
      const Pose pa = random_pose(rng, 1.5);
      const Pose pb = random_pose(rng, 1.5);
      const std::string label = "n " + std::to_string(n) + " trial " + std::to_string(trial);
      expect_same(a, pa, b, pb, {}, label);
      (intersect(a, pa, b, pb).intersect ? overlapping : separated)++;
      for (int cap : {1, 2, 3}) expect_same(a, pa, b, pb, {.max_iterations = cap}, label + " cap " + std::to_string(cap));
    }
  }
  // Both answers occur often enough for the comparison to mean something.
  EXPECT_GT(separated, 200);
  EXPECT_GT(overlapping, 200);
}

TEST(IntersectLean, SameAnswerOnEdgeCases) {
  std::mt19937_64 rng(7);
  const std::vector<Vec3> cube = {{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {1, 1, -1},
                                  {-1, -1, 1},  {1, -1, 1},  {-1, 1, 1},  {1, 1, 1}};
  const Polytope c = polytope(cube);
  // Touching faces, edges and corners, exactly and within a hair on either side.
  for (double gap : {-1e-9, -1e-15, 0.0, 1e-15, 1e-9, 1e-6}) {
    for (const Vec3& dir : {Vec3(1, 0, 0), Vec3(1, 1, 0).normalized(), Vec3(1, 1, 1).normalized()}) {
      const double reach = std::abs(dir.x()) + std::abs(dir.y()) + std::abs(dir.z());  // support of the cube
      const Pose pb = Pose::from_translation(dir * (2 * reach + gap));
      expect_same(c, Pose(), c, pb, {}, "touching gap " + std::to_string(gap));
    }
  }
  // Nested: a small body deep inside a large one, either order.
  const Polytope small = polytope(random_points(rng, 12, 0.1));
  const Polytope large = polytope(random_points(rng, 40, 3.0));
  for (int trial = 0; trial < 50; ++trial) {
    const Pose p = random_pose(rng, 0.5);
    expect_same(small, p, large, Pose(), {}, "nested");
    expect_same(large, Pose(), small, p, {}, "nested swapped");
  }
  // Flat (a square), collinear (a segment), a needle, and duplicate vertices.
  const std::vector<Vec3> square = {{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}};
  const std::vector<Vec3> segment = {{-1, 0, 0}, {1, 0, 0}, {0.5, 0, 0}};
  // (a single point is rejected by Polytope: the nearest is a needle)
  const std::vector<Vec3> point = {{0.25, -0.5, 0.125}, {0.25 + 1e-9, -0.5, 0.125}};
  std::vector<Vec3> duplicated = cube;
  duplicated.insert(duplicated.end(), cube.begin(), cube.end());
  const Polytope shapes[] = {polytope(square), polytope(segment), polytope(point), polytope(duplicated), c};
  for (int trial = 0; trial < 60; ++trial) {
    for (const Polytope& x : shapes) {
      for (const Polytope& y : shapes) {
        const Pose px = random_pose(rng, 1.0);
        const Pose py = random_pose(rng, 1.0);
        expect_same(x, px, y, py, {}, "degenerate shapes");
        // The same pose: coincident bodies, the origin on every flat difference.
        expect_same(x, px, y, px, {}, "coincident");
      }
    }
  }
}

TEST(IntersectLean, SameAnswerWithMarginsAndOtherShapes) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> size(0.1, 1.5);
  for (int trial = 0; trial < 300; ++trial) {
    const Box box(Vec3{size(rng), size(rng), size(rng)});
    const Sphere sphere(size(rng));
    const Capsule capsule{size(rng), size(rng)};
    const Polytope poly = polytope(random_points(rng, 20, size(rng)));
    const Cylinder cylinder{size(rng), size(rng)};
    const Cone cone{size(rng), size(rng)};
    const Pose p1 = random_pose(rng, 2.0);
    const Pose p2 = random_pose(rng, 2.0);
    expect_same(box, p1, box, p2, {}, "box-box");
    expect_same(sphere, p1, box, p2, {}, "sphere-box");
    expect_same(capsule, p1, capsule, p2, {}, "capsule-capsule");
    expect_same(capsule, p1, poly, p2, {}, "capsule-polytope");
    expect_same(poly, p1, sphere, p2, {}, "polytope-sphere");
    expect_same(poly, p1, box, p2, {.max_iterations = 2}, "polytope-box capped");
    // Cold runs started from the support pair between the axes (gjk/revolution_overlap.hpp).
    expect_same(cylinder, p1, cone, p2, {}, "cylinder-cone");
    expect_same(cone, p1, cone, p2, {}, "cone-cone");
    expect_same(cylinder, p1, cylinder, p2, {}, "cylinder-cylinder");
  }
}

TEST(IntersectLean, SameAnswerWithinTheContactBand) {
  // Rounded shapes whose surfaces are a hair apart: within the contact band (about 1e-12 * scale)
  // the loop ends on the duality gap rather than on a separating axis or contact.
  exits().clear();
  std::mt19937_64 rng(5);
  const Sphere ball(0.5);
  const Capsule capsule(0.25, 0.75);
  for (double gap : {-1e-9, -1e-12, 0.0, 2.5e-13, 5e-13, 1e-12, 1.5e-12, 2e-12, 3e-12, 1e-11, 1e-9}) {
    for (int trial = 0; trial < 20; ++trial) {
      std::normal_distribution<double> g;
      const Vec3 u = Vec3{g(rng), g(rng), g(rng)}.normalized();
      const Pose pa = Pose::from_translation(Vec3{g(rng), g(rng), g(rng)});
      const Pose pb = Pose::from_translation(pa.translation() + u * (1.0 + gap));
      expect_same(ball, pa, ball, pb, {}, "spheres gap " + std::to_string(gap));
      // Parallel capsules side by side (axes along z, offset across it).
      const Vec3 across = Vec3(u.x(), u.y(), 0).normalized();
      const Pose pc = Pose::from_translation(pa.translation() + across * (0.5 + gap));
      expect_same(capsule, pa, capsule, pc, {}, "capsules gap " + std::to_string(gap));
    }
  }
  EXPECT_GT((exits()[{Status::converged, Detail::duality_gap}]), 0);
  EXPECT_GT((exits()[{Status::converged, Detail::origin_enclosed}]), 0);
  EXPECT_GT((exits()[{Status::converged, Detail::separating_axis}]), 0);
}

TEST(IntersectLean, MomentumAndWarmStartsStillTakeTheGeneralLoop) {
  // Momentum: the cold overload with nesterov must equal the warm overload with nesterov (both
  // the general loop), and a warm start must keep the simplex it stores.
  std::mt19937_64 rng(3);
  const Polytope a = polytope(random_points(rng, 24, 1.0));
  const Polytope b = polytope(random_points(rng, 24, 1.0));
  for (int trial = 0; trial < 100; ++trial) {
    const Pose pa = random_pose(rng, 1.5);
    const Pose pb = random_pose(rng, 1.5);
    expect_same(a, pa, b, pb, {.nesterov = true}, "nesterov");
    // Without the first support pair's test every warm query runs GJK and stores its simplex.
    WarmStart warm;
    const IntersectResult first = intersect(a, pa, b, pb, {.first_support_overlap = false}, warm);
    const IntersectResult cold = intersect(a, pa, b, pb);
    EXPECT_EQ(first.intersect, cold.intersect);
    EXPECT_GE(warm.size, 1);
    // With it (the default), a pair it answers (0 iterations) leaves the WarmStart cold; any other
    // runs GJK from that support point and stores the simplex.
    WarmStart tested;
    const IntersectResult answered = intersect(a, pa, b, pb, {}, tested);
    EXPECT_EQ(answered.intersect, cold.intersect);
    if (answered.iterations == 0) {
      EXPECT_TRUE(answered.intersect);
      EXPECT_EQ(tested.size, 0);
    } else {
      EXPECT_GE(tested.size, 1);
    }
  }
}

}  // namespace
}  // namespace proxima::gjk
