// SPDX-License-Identifier: MIT
// Tests for any_convex.hpp: every alternative answers through the variant exactly as the concrete
// shape does, kind() names, compound runtime shapes against brute force, hints, bad input.
#include "support_oracle.hpp"

#include <proxima/shapes/any_convex.hpp>

#include <set>

namespace proxima {
namespace {

static_assert(SupportMap<AnyConvex>);
static_assert(RoundedSupportMap<AnyConvex>);
static_assert(HintedSupportMap<AnyConvex>);
static_assert(HintedCoreSupportMap<AnyConvex>);

std::vector<AnyConvex> one_of_each() {
  std::vector<Vec3> many;
  for (const Vec3& u : test::fibonacci_sphere(200)) many.push_back(u.cwiseProduct(Vec3(2, 1, 1)));
  return {Point(Vec3(1, 2, 3)),
          Segment(Vec3(0, 0, 0), Vec3(1, 1, 1)),
          Triangle(Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)),
          Sphere(1.5),
          Box(Vec3(1, 2, 3)),
          Capsule(0.5, 1),
          Cylinder(1, 2),
          Cone(1, 2),
          Ellipsoid(Vec3(1, 2, 3)),
          Polytope(many),
          Superquadric(Vec3(1, 1, 1.7), Vec3(2.0909, 2.2, 13.769)),
          AnyConvex::rounded(Box(Vec3(1, 1, 1)), 0.25),
          AnyConvex::affine(Sphere(1), Mat3(Eigen::Vector3d(1, 2, 3).asDiagonal()), Vec3(1, 0, 0)),
          AnyConvex::minkowski(Sphere(1), Box(Vec3(1, 1, 1))),
          AnyConvex::hull({Sphere(1), Point(Vec3(3, 0, 0))})};
}

TEST(AnyConvex, KindsAreTheSceneNamesAndAllDistinct) {
  std::set<std::string_view> kinds;
  for (const AnyConvex& s : one_of_each()) kinds.insert(s.kind());
  EXPECT_EQ(kinds.size(), std::variant_size_v<AnyConvex::Variant>) << "one of each alternative, each named";
  for (const char* name : {"sphere", "box", "capsule", "cylinder", "cone", "ellipsoid", "polytope", "superquadric",
                           "minkowski", "hull", "affine", "rounded", "point", "segment", "triangle"}) {
    EXPECT_EQ(kinds.count(name), 1u) << name;
  }
}

TEST(AnyConvex, ForwardsExactlyToTheConcreteShape) {
  const std::vector<Vec3> dirs = test::directions(61, 200);
  for (const AnyConvex& any : one_of_each()) {
    const std::string label(any.kind());
    any.visit([&](const auto& s) {
      for (const Vec3& d : dirs) {
        ASSERT_EQ(any.support(d), s.support(d)) << label;
        ASSERT_EQ(any.core_support(d), core_support(s, d)) << label;
        int hint = -1;
        ASSERT_NEAR(d.dot(any.support(d, hint)), d.dot(s.support(d)), 1e-12 * d.norm() * (1 + s.bounding_sphere().radius)) << label;
        // Rounded identity: support == core + margin * d / |d|.
        const Vec3 rebuilt = any.core_support(d) + any.margin() * d.normalized();
        ASSERT_LT((any.support(d) - rebuilt).norm(), 1e-12 * (1 + rebuilt.norm())) << label;
      }
      EXPECT_EQ(any.margin(), margin(s)) << label;
      EXPECT_EQ(any.bounding_sphere().radius, s.bounding_sphere().radius) << label;
      EXPECT_EQ(any.local_aabb().max, s.local_aabb().max) << label;
    });
    test::expect_bounds_contain(any, dirs, label, /*tight_box=*/any.kind() != "affine");
    const Vec3 zero_a = any.support(Vec3::Zero());
    EXPECT_TRUE(zero_a.allFinite()) << label;
    EXPECT_EQ(zero_a, any.support(Vec3::Zero())) << label;
  }
  EXPECT_GT(Sphere(1).margin(), 0);
  EXPECT_EQ(AnyConvex(Sphere(2)).margin(), 2);
  EXPECT_EQ(AnyConvex(Box(Vec3(1, 1, 1))).margin(), 0);
}

TEST(AnyConvex, CompoundsMatchBruteForce) {
  // minkowski(sphere 1, cube 1) == rounded cube: value h . |d|_1 + |d|.
  const AnyConvex sum = AnyConvex::minkowski(Sphere(1), Box(Vec3(1, 2, 3)));
  const AnyConvex rounded = AnyConvex::rounded(Box(Vec3(1, 2, 3)), 1);
  // hull(cube at -2, cube at +2) == box from -3 to 3 in x.
  const AnyConvex hull = AnyConvex::hull({AnyConvex::affine(Box(Vec3(1, 1, 1)), Mat3::Identity(), Vec3(-2, 0, 0)),
                                          AnyConvex::affine(Box(Vec3(1, 1, 1)), Mat3::Identity(), Vec3(2, 0, 0))});
  const Box long_box(Vec3(3, 1, 1));
  for (const Vec3& d : test::directions(62, 500)) {
    const double expected = Vec3(1, 2, 3).dot(d.cwiseAbs()) + d.norm();
    EXPECT_NEAR(d.dot(sum.support(d)), expected, 1e-12 * expected);
    EXPECT_NEAR(d.dot(rounded.support(d)), expected, 1e-12 * expected);
    EXPECT_NEAR(d.dot(hull.support(d)), d.dot(long_box.support(d)), 1e-12 * d.norm());
  }
  EXPECT_EQ(sum.margin(), 1);
  EXPECT_EQ(rounded.margin(), 1);
  EXPECT_EQ(hull.margin(), 0);
}

TEST(AnyConvex, PolytopeHintIsUsedAndUpdated) {
  std::vector<Vec3> points;
  for (const Vec3& u : test::fibonacci_sphere(1000)) points.push_back(u);
  const AnyConvex any = Polytope(points);
  const AnyConvex rounded = AnyConvex::rounded(Polytope(points), 0.1);
  const Polytope& poly = *any.get_if<Polytope>();
  int hint = -1;
  any.support(Vec3(1, 0.2, 0.1), hint);
  EXPECT_EQ(hint, poly.scan(Vec3(1, 0.2, 0.1)));
  for (const Vec3& d : test::directions(63, 300)) {
    int h = -1;
    const Vec3 p = core_support(any, d, h);
    ASSERT_EQ(p, poly.vertices()[size_t(h)]);
    ASSERT_NEAR(d.dot(p), d.dot(poly.vertices()[size_t(poly.scan(d))]), 1e-12 * d.norm());
    // A rounded runtime polytope: hint unused, answer still exact.
    int unused = 7;
    ASSERT_NEAR(d.dot(rounded.support(d, unused)), d.dot(poly.vertices()[size_t(poly.scan(d))]) + 0.1 * d.norm(),
                1e-12 * d.norm());
  }
}

TEST(AnyConvex, TransformedIsTheRigidPlacement) {
  const Pose pose = Pose::from_euler_xyz(0.3, -0.2, 1.1, Vec3(1, 2, 3));
  const AnyConvex placed = AnyConvex::transformed(Box(Vec3(1, 2, 3)), pose);
  const Box box(Vec3(1, 2, 3));
  for (const Vec3& d : test::directions(64, 200)) {
    EXPECT_LT((placed.support(d) - pose.apply(box.support(pose.rotate_inverse(d)))).norm(), 1e-12);
  }
  EXPECT_EQ(placed.kind(), "affine");
}

TEST(AnyConvex, CopiesShareChildrenAndBadInputNamesTheField) {
  const AnyConvex sum = AnyConvex::minkowski(Sphere(1), Sphere(2));
  const AnyConvex copy = sum;  // NOLINT
  EXPECT_EQ(&copy.get_if<AnyMinkowskiSum>()->a().get(), &sum.get_if<AnyMinkowskiSum>()->a().get());
  try {
    (void)AnyConvex::hull({});
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.field(), "of");
  }
  try {
    AnyConvexHull h({std::make_shared<const AnyConvex>(Sphere(1)), nullptr});
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.field(), "of[1]");
  }
  try {
    (void)AnyConvex::affine(Sphere(1), Mat3::Zero());
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.field(), "linear");
  }
  try {
    (void)AnyConvex::rounded(Sphere(1), -1);
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.field(), "radius");
  }
}

}  // namespace
}  // namespace proxima
