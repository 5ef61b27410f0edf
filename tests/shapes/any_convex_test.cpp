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

/// A random runtime tree (affine images, Minkowski sums and hulls over polyhedral leaves) with the
/// finite point set whose hull it is: the brute-force oracle of its support.
struct Tree {
  AnyConvex shape;
  std::vector<Vec3> points;
};

Tree random_tree(std::mt19937_64& rng, int depth) {
  std::uniform_int_distribution<int> pick(0, depth > 0 ? 7 : 3);
  std::uniform_real_distribution<double> uni(-1, 1);
  const auto random_vec = [&] { return Vec3{uni(rng), uni(rng), uni(rng)}; };
  switch (pick(rng)) {
    case 0: {
      const Vec3 h = random_vec().cwiseAbs() + Vec3::Constant(0.1);
      std::vector<Vec3> corners;
      for (int k = 0; k < 8; ++k) corners.push_back(h.cwiseProduct(Vec3(k & 1 ? 1 : -1, k & 2 ? 1 : -1, k & 4 ? 1 : -1)));
      return {Box(h), corners};
    }
    case 1: {
      std::vector<Vec3> points;
      for (int i = 0; i < 12; ++i) points.push_back(random_vec());
      return {Polytope(points), points};
    }
    case 2: {
      const Vec3 a = random_vec(), b = random_vec();
      return {Segment(a, b), {a, b}};
    }
    case 3: {
      const Vec3 a = random_vec(), b = random_vec(), c = random_vec();
      return {Triangle(a, b, c), {a, b, c}};
    }
    case 4:
    case 5: {  // affine image
      Tree child = random_tree(rng, depth - 1);
      Mat3 m;
      for (int i = 0; i < 9; ++i) m(i / 3, i % 3) = uni(rng);
      m += Mat3::Identity() * 1.5;  // keeps it comfortably invertible
      const Vec3 c = random_vec();
      std::vector<Vec3> mapped;
      for (const Vec3& p : child.points) mapped.push_back(m * p + c);
      return {AnyConvex::affine(child.shape, m, c), mapped};
    }
    case 6: {  // Minkowski sum
      Tree a = random_tree(rng, depth - 1);
      Tree b = random_tree(rng, depth - 1);
      std::vector<Vec3> sums;
      for (const Vec3& p : a.points)
        for (const Vec3& q : b.points) sums.push_back(p + q);
      return {AnyConvex::minkowski(a.shape, b.shape), sums};
    }
    default: {  // hull of 2-3 members
      std::vector<AnyConvex> members;
      std::vector<Vec3> all;
      const int count = 2 + int(rng() % 2);
      for (int k = 0; k < count; ++k) {
        Tree t = random_tree(rng, depth - 1);
        members.push_back(t.shape);
        all.insert(all.end(), t.points.begin(), t.points.end());
      }
      return {AnyConvex::hull(members), all};
    }
  }
}

TEST(AnyConvex, RandomCompoundTreesMatchBruteForce) {
  std::mt19937_64 rng(65);
  std::set<std::string_view> roots;
  for (int trial = 0; trial < 200; ++trial) {
    const Tree tree = random_tree(rng, 3);
    roots.insert(tree.shape.kind());
    double size = 0;
    for (const Vec3& p : tree.points) size = std::max(size, p.norm());
    for (const Vec3& d : test::directions(66 + std::uint64_t(trial), 40)) {
      double best = -INFINITY;
      for (const Vec3& p : tree.points) best = std::max(best, d.dot(p));
      ASSERT_NEAR(d.dot(tree.shape.support(d)), best, 1e-12 * size * d.norm())
          << "seed 65 trial " << trial << " root " << tree.shape.kind();
    }
    const Aabb box = tree.shape.local_aabb();
    const BoundingSphere ball = tree.shape.bounding_sphere();
    for (const Vec3& p : tree.points) {  // bounds contain the generating points
      ASSERT_TRUE(((p.array() >= box.min.array() - 1e-12 * size) && (p.array() <= box.max.array() + 1e-12 * size)).all());
      ASSERT_LE((p - ball.center).norm(), ball.radius * (1 + 1e-12)) << "trial " << trial;
    }
  }
  EXPECT_EQ(roots.size(), 7u) << "every leaf and compound kind must appear at the root";
}

TEST(AnyConvex, PolytopeHintIsUsedAndUpdated) {
  std::vector<Vec3> points;
  for (const Vec3& u : test::fibonacci_sphere(1000)) points.push_back(u);
  const AnyConvex any = Polytope(points);
  const AnyConvex rounded = AnyConvex::rounded(Polytope(points), 0.1);
  const Polytope& poly = *any.get_if<Polytope>();
  const Pose pose = Pose::from_euler_xyz(0.1, 0.2, 0.3, Vec3(1, 2, 3));
  const AnyConvex placed = AnyConvex::transformed(any, pose);
  int hint = -1;
  any.support(Vec3(1, 0.2, 0.1), hint);
  EXPECT_EQ(hint, poly.scan(Vec3(1, 0.2, 0.1)));
  for (const Vec3& d : test::directions(63, 300)) {
    int h = -1;
    const Vec3 p = core_support(any, d, h);
    ASSERT_EQ(p, poly.vertices()[size_t(h)]);
    ASSERT_NEAR(d.dot(p), d.dot(poly.vertices()[size_t(poly.scan(d))]), 1e-12 * d.norm());
    // A rounded runtime polytope takes the hint through to its core, and stays exact.
    int through = 7;
    ASSERT_NEAR(d.dot(rounded.support(d, through)), d.dot(poly.vertices()[size_t(poly.scan(d))]) + 0.1 * d.norm(),
                1e-12 * d.norm());
    ASSERT_EQ(rounded.core_support(d), poly.vertices()[size_t(through)]);
    // So does an affine image (a placed polytope): support = R p + t with p the hinted vertex.
    int placed_hint = -1;
    const Vec3 q = placed.support(d, placed_hint);
    ASSERT_LT((q - (pose.rotation() * poly.vertices()[size_t(placed_hint)] + pose.translation())).norm(), 1e-12);
    ASSERT_NEAR(d.dot(q), d.dot(placed.support(d)), 1e-12 * (1 + d.norm()));
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
