// SPDX-License-Identifier: MIT
// Tests include/proxima/query/query.hpp: the one-dispatch-per-query entry points.
//  1. Routing: for every ordered pair of shape kinds (all alternatives of AnyConvex) and several
//     poses, the dispatched answer equals the answer of the same kernel run directly with
//     AnyConvex as the shape type (which resolves the type inside every support call instead).
//     A pair routed to the wrong alternative would throw or answer differently.
//  2. Direct templated calls: for a chain of concrete pairs covering every kind as A and as B, the
//     dispatched answer is bit-identical to gjk::<kernel> on the concrete types.
//  3. Margins survive the dispatch: closed forms for spheres and capsules.
#include "support/draws.hpp"

#include <proxima/gjk/distance.hpp>
#include <proxima/gjk/epa.hpp>
#include <proxima/gjk/intersect.hpp>
#include <proxima/query/query.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

namespace proxima {
namespace {

// One example of every alternative of AnyConvex::Variant, in variant order.
std::vector<AnyConvex> one_of_each_kind() {
  std::vector<AnyConvex> s;
  s.emplace_back(Point(Vec3(0.1, -0.2, 0.3)));
  s.emplace_back(Segment(Vec3(-0.5, 0, 0), Vec3(0.5, 0.2, 0.1)));
  s.emplace_back(Triangle(Vec3(-0.5, -0.4, 0), Vec3(0.6, -0.3, 0.1), Vec3(0, 0.7, -0.1)));
  s.emplace_back(Sphere(0.6));
  s.emplace_back(Box(Vec3(0.5, 0.3, 0.4)));
  s.emplace_back(Capsule(0.3, 0.5));
  s.emplace_back(Cylinder(0.4, 0.5));
  s.emplace_back(Cone(0.5, 0.6));
  s.emplace_back(Ellipsoid(Vec3(0.7, 0.4, 0.3)));
  s.emplace_back(Polytope({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1), Vec3(0.4, 0.4, -0.3)}));
  s.emplace_back(Superquadric(Vec3(0.5, 0.6, 0.7), Vec3(2.5, 3, 4)));
  s.push_back(AnyConvex::rounded(Box(Vec3(0.3, 0.2, 0.1)), 0.2));
  s.push_back(AnyConvex::affine(Cylinder(0.3, 0.4), (Mat3() << 1.2, 0.1, 0, 0, 0.8, 0.2, 0, 0, 1).finished(),
                                Vec3(0.1, 0, 0)));
  s.push_back(AnyConvex::minkowski(Box(Vec3(0.2, 0.3, 0.1)), Sphere(0.2)));
  s.push_back(AnyConvex::hull({Sphere(0.3), AnyConvex::transformed(Box(Vec3(0.2, 0.2, 0.2)), Pose::from_translation(Vec3(0.6, 0, 0)))}));
  return s;
}

std::vector<std::pair<Pose, Pose>> test_poses() {
  // Separated, overlapping and deeply overlapping placements, with rotations on both sides.
  return {
      {Pose(), Pose::from_euler_xyz(0.3, -0.2, 0.7, Vec3(2.5, 0.4, -0.3))},
      {Pose::from_quaternion(0.9, 0.1, 0.3, -0.2, Vec3(0.2, 0.1, 0)), Pose::from_euler_xyz(-0.5, 0.4, 0.1, Vec3(0.6, 0.3, 0.2))},
      {Pose::from_translation(Vec3(1, 1, 1)), Pose::from_euler_xyz(1.1, 0.2, -0.4, Vec3(1.05, 0.95, 1.02))},
  };
}

// Bitwise equality where both are NaN counts as equal.
bool same(double x, double y) { return (std::isnan(x) && std::isnan(y)) || x == y; }
bool same(const Vec3& x, const Vec3& y) { return same(x.x(), y.x()) && same(x.y(), y.y()) && same(x.z(), y.z()); }

::testing::AssertionResult equal(const DistanceResult& x, const DistanceResult& y) {
  if (same(x.distance, y.distance) && x.intersect == y.intersect && same(x.point_a, y.point_a) && same(x.point_b, y.point_b) &&
      same(x.normal, y.normal) && same(x.gap, y.gap) && x.iterations == y.iterations && x.status == y.status &&
      x.detail == y.detail) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "distance " << x.distance << " vs " << y.distance << ", iterations " << x.iterations
                                       << " vs " << y.iterations << ", point_a " << x.point_a.transpose() << " vs "
                                       << y.point_a.transpose();
}

::testing::AssertionResult equal(const IntersectResult& x, const IntersectResult& y) {
  if (x.intersect == y.intersect && same(x.separating_axis, y.separating_axis) && x.iterations == y.iterations &&
      x.status == y.status && x.detail == y.detail) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "intersect " << x.intersect << " vs " << y.intersect << ", iterations "
                                       << x.iterations << " vs " << y.iterations;
}

::testing::AssertionResult equal(const PenetrationResult& x, const PenetrationResult& y) {
  if (x.intersect == y.intersect && same(x.depth, y.depth) && same(x.normal, y.normal) && same(x.point_a, y.point_a) &&
      same(x.point_b, y.point_b) && x.iterations == y.iterations && x.status == y.status && x.detail == y.detail) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "depth " << x.depth << " vs " << y.depth << ", normal " << x.normal.transpose()
                                       << " vs " << y.normal.transpose() << ", iterations " << x.iterations << " vs "
                                       << y.iterations;
}

TEST(QueryDispatch, ExamplesCoverEveryKindInVariantOrder) {
  const auto shapes = one_of_each_kind();
  ASSERT_EQ(shapes.size(), std::variant_size_v<AnyConvex::Variant>);
  for (std::size_t i = 0; i < shapes.size(); ++i) EXPECT_EQ(shapes[i].variant().index(), i) << shapes[i].kind();
}

// Routing check against the per-support-call visit (gjk kernels instantiated once on AnyConvex).
TEST(QueryDispatch, EveryKindPairMatchesTheRuntimeSupportPath) {
  const auto shapes = one_of_each_kind();
  int hits = 0;
  int misses = 0;
  for (const auto& [pose_a, pose_b] : test_poses()) {
    for (const AnyConvex& a : shapes) {
      for (const AnyConvex& b : shapes) {
        SCOPED_TRACE(std::string(a.kind()) + " vs " + std::string(b.kind()) + " at b = " +
                     ::testing::PrintToString(pose_b.translation().transpose()));
        // Bit-for-bit routing check on the GJK path; sphere/box/capsule pairs take exact closed
        // forms by default (gjk/closed_form.hpp), ellipsoid pairs Newton's method
        // (gjk/ellipsoid_newton.hpp), box pairs the separating-axis pre-pass (gjk/box_box.hpp)
        // and cylinder / cone pairs the common point between the axes (gjk/revolution_overlap.hpp,
        // then a GJK start between the axes), the Newton polish (gjk/revolution_polish.hpp) and
        // polytope pairs the first support pair's common point (gjk/first_support_overlap.hpp), which
        // must agree with GJK to its tolerance.
        gjk::GjkOptions gjk_only;
        gjk_only.closed_forms = false;
        gjk_only.ellipsoid_newton = false;
        gjk_only.box_box = false;
        gjk_only.revolution_polish = false;
        gjk_only.revolution_overlap = false;
        gjk_only.first_support_overlap = false;
        const DistanceResult d = query::distance(a, pose_a, b, pose_b, gjk_only);
        EXPECT_TRUE(equal(d, gjk::distance(a, pose_a, b, pose_b, gjk_only)));
        EXPECT_NEAR(query::distance(a, pose_a, b, pose_b).distance, d.distance, 1e-9 * (1 + d.distance));
        EXPECT_TRUE(equal(query::intersect(a, pose_a, b, pose_b, gjk_only), gjk::intersect(a, pose_a, b, pose_b, gjk_only)));
        EXPECT_EQ(query::intersect(a, pose_a, b, pose_b).intersect, d.intersect);
        EXPECT_TRUE(equal(query::penetration(a, pose_a, b, pose_b), gjk::penetration(a, pose_a, b, pose_b)));
        (d.intersect ? hits : misses)++;
      }
    }
  }
  // The poses must give both answers in quantity, or the comparison proves little.
  EXPECT_GT(hits, 100);
  EXPECT_GT(misses, 100);
}

// Direct templated calls on concrete types, for the chain of pairs (kind i, kind i+1): every kind
// appears once as A and once as B.
template <std::size_t I>
void check_chain_pair(const std::vector<AnyConvex>& shapes) {
  constexpr std::size_t kN = std::variant_size_v<AnyConvex::Variant>;
  constexpr std::size_t kJ = (I + 1) % kN;
  const auto& a = std::get<I>(shapes[I].variant());
  const auto& b = std::get<kJ>(shapes[kJ].variant());
  for (const auto& [pose_a, pose_b] : test_poses()) {
    SCOPED_TRACE(std::string(shapes[I].kind()) + " vs " + std::string(shapes[kJ].kind()));
    EXPECT_TRUE(equal(query::distance(shapes[I], pose_a, shapes[kJ], pose_b), gjk::distance(a, pose_a, b, pose_b)));
    EXPECT_TRUE(equal(query::intersect(shapes[I], pose_a, shapes[kJ], pose_b), gjk::intersect(a, pose_a, b, pose_b)));
    EXPECT_TRUE(equal(query::penetration(shapes[I], pose_a, shapes[kJ], pose_b), gjk::penetration(a, pose_a, b, pose_b)));
  }
}

template <std::size_t... I>
void check_chain(const std::vector<AnyConvex>& shapes, std::index_sequence<I...>) {
  (check_chain_pair<I>(shapes), ...);
}

TEST(QueryDispatch, MatchesDirectTemplatedCallsOnConcreteTypes) {
  const auto shapes = one_of_each_kind();
  check_chain(shapes, std::make_index_sequence<std::variant_size_v<AnyConvex::Variant>>());
}

// The cold query::distance answers the closed-form pairs (sphere, capsule, box x sphere) before
// it builds a WarmStart: the same answer, bit for bit, as the warm overload (which reaches the
// same closed form through the group dispatch) and as gjk::distance on the concrete types; with
// closed forms off, the shortcut is not taken.
template <class A, class B>
int check_cold_closed_form(const AnyConvex& a, const AnyConvex& b) {
  int checked = 0;
  for (const auto& [pose_a, pose_b] : test_poses()) {
    SCOPED_TRACE(std::string(a.kind()) + " vs " + std::string(b.kind()));
    gjk::WarmStart warm;
    const DistanceResult cold = query::distance(a, pose_a, b, pose_b);
    EXPECT_TRUE(equal(cold, query::distance(a, pose_a, b, pose_b, gjk::GjkOptions{}, warm)));
    EXPECT_TRUE(equal(cold, gjk::distance(std::get<A>(a.variant()), pose_a, std::get<B>(b.variant()), pose_b)));
    EXPECT_EQ(cold.iterations, 0);  // a closed form, not GJK
    gjk::GjkOptions no_closed_forms;
    no_closed_forms.closed_forms = false;
    const DistanceResult by_gjk = query::distance(a, pose_a, b, pose_b, no_closed_forms);
    EXPECT_GT(by_gjk.iterations, 0);
    EXPECT_NEAR(by_gjk.distance, cold.distance, 1e-9 * (1 + cold.distance));
    ++checked;
  }
  return checked;
}

TEST(QueryDispatch, ColdClosedFormShortcutGivesTheDispatchedAnswer) {
  const auto shapes = one_of_each_kind();
  const AnyConvex& sphere = shapes[3];
  const AnyConvex& box = shapes[4];
  const AnyConvex& capsule = shapes[5];
  int checked = check_cold_closed_form<Sphere, Sphere>(sphere, sphere);
  checked += check_cold_closed_form<Sphere, Capsule>(sphere, capsule);
  checked += check_cold_closed_form<Capsule, Sphere>(capsule, sphere);
  checked += check_cold_closed_form<Capsule, Capsule>(capsule, capsule);
  checked += check_cold_closed_form<Sphere, Box>(sphere, box);
  checked += check_cold_closed_form<Box, Sphere>(box, sphere);
  EXPECT_EQ(checked, 18);
}

// Closed forms: two spheres at centre distance c have distance c - r1 - r2 (or depth
// r1 + r2 - c along the centre line); two parallel capsules likewise with their axes' distance.
TEST(QueryDispatch, RoundedShapesKeepTheirMarginsThroughTheDispatch) {
  std::mt19937 rng(20261122);
  std::uniform_real_distribution<double> u(-1, 1);
  std::uniform_real_distribution<double> radius(0.1, 2);
  int separated = 0;
  int overlapping = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const double r1 = radius(rng);
    const double r2 = radius(rng);
    const Vec3 c1{u(rng), u(rng), u(rng)};
    const Vec3 c2 = c1 + Vec3{u(rng), u(rng), u(rng)} * 3;
    SCOPED_TRACE("seed 20261122 trial " + std::to_string(trial));
    const AnyConvex a = Sphere(r1);
    const AnyConvex b = Sphere(r2);
    const Pose pa = proxima::test::draw_euler_pose(u, rng, c1);
    const Pose pb = Pose::from_translation(c2);
    const double c = (c2 - c1).norm();
    const Vec3 n = (c2 - c1) / c;
    const double scale = r1 + r2 + c;
    if (c > r1 + r2) {
      ++separated;
      const DistanceResult d = query::distance(a, pa, b, pb);
      EXPECT_NEAR(d.distance, c - r1 - r2, 1e-12 * scale);
      EXPECT_LT((d.point_a - (c1 + r1 * n)).norm(), 1e-12 * scale);
      EXPECT_LT((d.point_b - (c2 - r2 * n)).norm(), 1e-12 * scale);
      EXPECT_LT((d.normal - n).norm(), 1e-12);
      EXPECT_FALSE(query::intersect(a, pa, b, pb).intersect);
    } else {
      ++overlapping;
      const PenetrationResult p = query::penetration(a, pa, b, pb);
      EXPECT_TRUE(p.intersect);
      EXPECT_NEAR(p.depth, r1 + r2 - c, 1e-12 * scale);
      EXPECT_LT((p.normal - n).norm(), 1e-9);
      EXPECT_TRUE(query::intersect(a, pa, b, pb).intersect);
      EXPECT_EQ(query::distance(a, pa, b, pb).distance, 0.0);
    }
  }
  EXPECT_GT(separated, 40);
  EXPECT_GT(overlapping, 40);

  // Two parallel capsules along z, axes 1.5 apart in x and overlapping in z: distance 1.5 - r1 - r2.
  const AnyConvex cap1 = Capsule(0.3, 1.0);
  const AnyConvex cap2 = Capsule(0.4, 0.5);
  const DistanceResult d = query::distance(cap1, Pose(), cap2, Pose::from_translation(Vec3(1.5, 0, 0.2)));
  EXPECT_NEAR(d.distance, 1.5 - 0.3 - 0.4, 1e-12);
  EXPECT_NEAR(d.normal.x(), 1.0, 1e-12);
  // Axes 0.5 apart: overlap depth 0.3 + 0.4 - 0.5 along x.
  const PenetrationResult p = query::penetration(cap1, Pose(), cap2, Pose::from_translation(Vec3(0.5, 0, 0.2)));
  EXPECT_NEAR(p.depth, 0.2, 1e-12);
  EXPECT_NEAR(std::abs(p.normal.x()), 1.0, 1e-9);
}

}  // namespace
}  // namespace proxima
