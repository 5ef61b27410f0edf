// SPDX-License-Identifier: MIT
// Tests for gjk/simplex.hpp (the sub-distance routine): against an exact subset enumerator
// (least-squares projection on every face, tests/gjk/test_shapes.hpp) and the optimality
// certificate v.(w_i - v) >= 0 for every input point, on random, degenerate (collinear, coplanar,
// repeated) and far-from-origin simplices.
#include "support/draws.hpp"

#include <proxima/gjk/simplex.hpp>

#include "test_shapes.hpp"

#include <gtest/gtest.h>

#include <array>
#include <random>
#include <string>
#include <vector>

namespace proxima::gjk {
namespace {

using test::brute_force_distance_to_hull;

/// Checks one simplex: the answer equals the enumerator's distance, lies in the hull (weights
/// >= 0 summing to 1 reproduce it) and satisfies the optimality certificate.
void check_simplex(const std::vector<Vec3>& pts, const std::string& label) {
  const SubDistance r = closest_point_to_origin(pts.data(), static_cast<int>(pts.size()));
  double size = 0;
  for (const Vec3& p : pts) size = std::max(size, p.norm());
  const double tol = 1e-12 * std::max(size, 1e-300);
  const double exact = brute_force_distance_to_hull(pts);
  ASSERT_NEAR(r.point.norm(), exact, tol) << label;
  Vec3 recombined = Vec3::Zero();
  double sum = 0;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    EXPECT_GE(r.lambda[i], 0) << label;
    EXPECT_EQ(r.lambda[i] > 0, ((r.mask >> i) & 1U) == 1U) << label;
    recombined += r.lambda[i] * pts[i];
    sum += r.lambda[i];
  }
  EXPECT_NEAR(sum, 1, 1e-12) << label;
  EXPECT_LE((recombined - r.point).norm(), tol) << label;
  for (const Vec3& p : pts) EXPECT_GE(r.point.dot(p - r.point), -tol * size) << label;
}

TEST(Simplex, RandomSimplicesMatchEnumeration) {
  const unsigned seed = 20261122;
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> n;
  std::uniform_real_distribution<double> u(-1, 1);
  int dims[5] = {0, 0, 0, 0, 0};  // support-set sizes seen
  int inside = 0;
  for (int c = 0; c < 4000; ++c) {
    const int count = 1 + c % 4;
    const double offset = (c % 3 == 0) ? 0.0 : std::pow(10.0, u(rng) * 2);
    const Vec3 centre = test::random_unit(rng) * offset * 0.5;
    std::vector<Vec3> pts;
    for (int i = 0; i < count; ++i) pts.emplace_back(centre + Vec3{n(rng), n(rng), n(rng)});
    const SubDistance r = closest_point_to_origin(pts.data(), count);
    dims[__builtin_popcount(r.mask)]++;
    if (r.point.squaredNorm() == 0) ++inside;
    check_simplex(pts, "seed " + std::to_string(seed) + " case " + std::to_string(c));
  }
  // The sample must exercise every region type.
  EXPECT_GT(dims[1], 400);
  EXPECT_GT(dims[2], 400);
  EXPECT_GT(dims[3], 200);
  EXPECT_GT(inside, 50);
}

TEST(Simplex, DegenerateSimplices) {
  const unsigned seed = 77;
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> n;
  for (int c = 0; c < 1500; ++c) {
    const Vec3 a{n(rng), n(rng), n(rng)};
    const Vec3 b{n(rng), n(rng), n(rng)};
    const Vec3 e{n(rng), n(rng), n(rng)};
    const double s = n(rng), t = n(rng);
    std::vector<Vec3> pts;
    switch (c % 6) {
      case 0: pts = {a, a}; break;                                  // repeated pair
      case 1: pts = {a, b, a + s * (b - a)}; break;                 // collinear triangle
      case 2: pts = {a, a, b}; break;                               // repeated in a triangle
      case 3: pts = {a, b, e, a + s * (b - a) + t * (e - a)}; break;  // coplanar tetrahedron
      case 4: pts = {a, b, a + s * (b - a), a + t * (b - a)}; break;  // collinear tetrahedron
      default: pts = {a, a, a, a}; break;                           // all equal
    }
    check_simplex(pts, "seed 77 degenerate case " + std::to_string(c));
  }
}

TEST(Simplex, OriginInsideTetrahedronGivesZero) {
  const std::vector<Vec3> pts = {{1, 0, -1}, {-1, 1, -1}, {-1, -1, -1}, {0, 0, 2}};
  const SubDistance r = closest_point_to_origin(pts.data(), 4);
  EXPECT_EQ(r.point.norm(), 0);
  EXPECT_EQ(r.mask, 15U);
}

// A tiny, almost flat tetrahedron 1e5 away from the origin: determinants formed from absolute
// coordinates would be rounding noise here and could claim the origin is inside.
TEST(Simplex, FlatTetrahedronFarFromOrigin) {
  std::mt19937_64 rng(5);
  std::normal_distribution<double> n;
  for (int c = 0; c < 500; ++c) {
    const Vec3 far = test::random_unit(rng) * 1e5;
    const double size = 1e-3;
    const Vec3 e1 = test::random_unit(rng), e2 = test::random_unit(rng);
    const Vec3 normal = e1.cross(e2).normalized();
    std::vector<Vec3> pts;
    for (int i = 0; i < 4; ++i) {
      const Vec3 c3 = proxima::test::draw_vec3(n, rng);
      pts.push_back(far + size * (c3.x() * e1 + c3.y() * e2) + (c % 2 ? 1e-15 : 1e-6) * size * c3.z() * normal);
    }
    const SubDistance r = closest_point_to_origin(pts.data(), 4);
    ASSERT_GT(r.point.norm(), 0.9e5) << "seed 5 case " << c;
    for (const Vec3& p : pts) ASSERT_GE(r.point.dot(p - r.point), -1e-5) << "seed 5 case " << c;
  }
}

TEST(Simplex, ReduceKeepsSupportSetInOrder) {
  Simplex s;
  const Vec3 w[3] = {{1, -1, 5}, {1, 1, 5}, {3, 0, 5}};
  for (int i = 0; i < 3; ++i) s.points[static_cast<std::size_t>(i)] = {w[i], w[i], Vec3::Zero()};
  s.size = 3;
  const Vec3 v = reduce_simplex(s);
  EXPECT_NEAR((v - Vec3(1, 0, 5)).norm(), 0, 1e-15);
  ASSERT_EQ(s.size, 2);
  EXPECT_EQ(s.points[0].w, w[0]);
  EXPECT_EQ(s.points[1].w, w[1]);
  EXPECT_NEAR(s.lambda[0], 0.5, 1e-15);
  const Witnesses wit = simplex_witnesses(s);
  EXPECT_NEAR((wit.a - Vec3(1, 0, 5)).norm(), 0, 1e-15);
}


// The GJK loop runs the routine on the w members of its support points in place
// (detail::SupportPointWs); the answer must be the public routine's, bit for bit.
TEST(Simplex, InPlaceSupportPointsGiveTheSameAnswer) {
  const unsigned seed = 424242;
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> n;
  for (int c = 0; c < 4000; ++c) {
    const int count = 1 + c % 4;
    std::array<SupportPoint, 4> sp{};
    std::vector<Vec3> pts;
    const Vec3 centre = (c % 5 == 0) ? Vec3::Zero() : Vec3{n(rng), n(rng), n(rng)};
    for (int i = 0; i < count; ++i) {
      // Every third case repeats a point or makes the simplex flat.
      Vec3 p = centre + Vec3{n(rng), n(rng), n(rng)};
      if (c % 3 == 0 && i == 3) p = pts[0] + 0.5 * (pts[1] - pts[0]) + 0.25 * (pts[2] - pts[0]);
      if (c % 3 == 1 && i == 1) p = pts[0];
      pts.push_back(p);
      sp[static_cast<std::size_t>(i)] = {p, p, Vec3::Zero()};
    }
    const SubDistance a = closest_point_to_origin(pts.data(), count);
    const SubDistance b = detail::closest_point_to_origin(detail::SupportPointWs{sp.data()}, count);
    const std::string where = "seed 424242 case " + std::to_string(c);
    ASSERT_EQ(a.mask, b.mask) << where;
    ASSERT_TRUE(a.point == b.point || (a.point != a.point && b.point != b.point)) << where;
    for (std::size_t i = 0; i < 4; ++i) ASSERT_EQ(a.lambda[i], b.lambda[i]) << where;
    ASSERT_TRUE(a.distance_squared == b.distance_squared || (a.distance_squared != a.distance_squared && b.distance_squared != b.distance_squared)) << where;
  }
}

}  // namespace
}  // namespace proxima::gjk
