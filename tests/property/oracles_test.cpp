// SPDX-License-Identifier: MIT
// The oracles checked on cases with answers known by hand: two unit cubes at known offsets,
// tetrahedra, point-simplex projections against dense sampling, the re-derived smooth primitives
// against closed forms. An oracle that is wrong would make every property test meaningless.
//
// The CGAL oracles' implementation files are compiled in this translation unit (unity style), so
// that the exact-arithmetic code is built once and the tests' CMake needs no extra rule.
#include "oracles/cgal_polytope_distance.cpp"
#include "oracles/minkowski_penetration.cpp"

#include "oracles/brute_force.hpp"
#include "oracles/separating_plane.hpp"
#include "support/nasty_cases.hpp"
#include "support/random_shapes.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace proxima {
namespace {

using testgen::box_corners;
using testgen::Rng;

TEST(OracleBruteForce, SegmentTriangleTetrahedronMatchDenseSampling) {
  Rng rng(20261122);
  constexpr int kCases = 300;
  constexpr int kGrid = 400;
  int inside_tet = 0;
  int on_edge_or_vertex = 0;
  for (int k = 0; k < kCases; ++k) {
    const Vec3 a = testgen::random_unit_vector(rng);
    const Vec3 b = testgen::random_unit_vector(rng);
    const Vec3 c = testgen::random_unit_vector(rng);
    const Vec3 d = testgen::random_unit_vector(rng);
    const double reach = testgen::uniform(rng, 0, 2);
    const Vec3 p = reach * testgen::random_unit_vector(rng);
    // Triangle: exact projection never worse than sampling, and within the grid resolution.
    const Vec3 exact = oracles::closest_on_triangle(p, a, b, c);
    const Vec3 sampled = oracles::sampled_closest_on_triangle(p, a, b, c, kGrid);
    const double de = (exact - p).norm();
    const double ds = (sampled - p).norm();
    ASSERT_LE(de, ds + 1e-12) << "case " << k;
    ASSERT_LE(ds - de, 4.0 / kGrid) << "case " << k;
    // The exact point lies on the triangle: its residual to the plane is 0 and it is the closest
    // point of its own plane region (optimality: (p - q) . (x - q) <= 0 for the corners x).
    for (const Vec3& x : {a, b, c}) ASSERT_LE((p - exact).dot(x - exact), 1e-12) << "case " << k;
    const Vec3 n = (b - a).cross(c - a).normalized();
    ASSERT_NEAR(n.dot(exact - a), 0, 1e-12);
    // Segment: optimality against its two ends.
    const Vec3 s = oracles::closest_on_segment(p, a, b);
    ASSERT_LE((p - s).dot(a - s), 1e-12);
    ASSERT_LE((p - s).dot(b - s), 1e-12);
    // Tetrahedron: optimality against its four corners (a convex-hull optimality certificate).
    const Vec3 t = oracles::closest_on_tetrahedron(p, a, b, c, d);
    for (const Vec3& x : {a, b, c, d}) ASSERT_LE((p - t).dot(x - t), 1e-12) << "case " << k;
    inside_tet += (t == p);
    on_edge_or_vertex += ((exact - a).norm() < 1e-12 || (exact - b).norm() < 1e-12 ||
                          (exact - c).norm() < 1e-12 || (oracles::closest_on_segment(exact, a, b) - exact).norm() < 1e-12);
  }
  std::printf("[oracles] point-simplex: %d cases, %d inside the tetrahedron, %d triangle answers on a vertex/edge\n",
              kCases, inside_tet, on_edge_or_vertex);
  EXPECT_GT(inside_tet, kCases / 50);
  EXPECT_GT(on_edge_or_vertex, kCases / 10);
}

TEST(OracleBruteForce, SmoothSupportsAreMaximaOfTheirSurfaces) {
  // Each re-derived support point must (1) lie on its surface's sample range and (2) beat every
  // surface sample along its direction: support and surface are two independent descriptions.
  Rng rng(7);
  const oracles::OracleEllipsoid ellipsoid{Vec3(1, 0.7, 0.3)};
  const oracles::OracleCapsule capsule{0.4, 0.9};
  const oracles::OracleCylinder cylinder{0.6, 0.8};
  const oracles::OracleCone cone{0.7, 0.5};
  const oracles::OracleSuperquadric superquadric{Vec3(1, 0.6, 0.8), Vec3(2.0909, 3.4, 13.769)};
  constexpr int kDirections = 60;
  constexpr int kGrid = 120;
  const auto check = [&](const auto& shape, const char* name) {
    for (int k = 0; k < kDirections; ++k) {
      const Vec3 u = testgen::random_unit_vector(rng);
      const double h = u.dot(shape.support(u));
      double best = -1e300;
      for (int i = 0; i < kGrid; ++i) {
        for (int j = 0; j <= kGrid; ++j) best = std::max(best, u.dot(shape.surface(double(i) / kGrid, double(j) / kGrid)));
      }
      ASSERT_GE(h, best - 1e-12) << name << " direction " << k;
      ASSERT_LE(h - best, 0.02) << name << " direction " << k;  // grid resolution on a curved surface
    }
  };
  check(ellipsoid, "ellipsoid");
  check(capsule, "capsule");
  check(cylinder, "cylinder");
  check(cone, "cone");
  check(superquadric, "superquadric");
  // The superquadric support point is on the surface: sum |x_i/a_i|^{n_i} == 1.
  for (int k = 0; k < kDirections; ++k) {
    const Vec3 x = superquadric.support(testgen::random_unit_vector(rng));
    double g = 0;
    for (int i = 0; i < 3; ++i) g += std::pow(std::abs(x[i] / superquadric.semiaxes[i]), superquadric.exponents[i]);
    ASSERT_NEAR(g, 1, 1e-12);
  }
}

TEST(OracleBruteForce, SampledBoundsBracketClosedForms) {
  // Sphere/sphere, sphere/capsule (point-segment) and capsule/capsule (segment-segment) have
  // closed forms: the bounds must bracket them and be tight.
  Rng rng(11);
  constexpr int kCases = 12;
  for (int k = 0; k < kCases; ++k) {
    const double ra = testgen::uniform(rng, 0.2, 1);
    const double rb = testgen::uniform(rng, 0.2, 1);
    const testgen::PoseSpec pa{testgen::random_quaternion(rng), testgen::random_unit_vector(rng)};
    const Eigen::Vector4d qb = testgen::random_quaternion(rng);
    const double reach = testgen::uniform(rng, 2.5, 4);
    const testgen::PoseSpec pb{qb, Vec3(reach * testgen::random_unit_vector(rng))};
    const oracles::OracleEllipsoid sa{Vec3::Constant(ra)};
    const oracles::OracleCapsule cb{rb, 0.7};
    const oracles::OracleCapsule ca{ra, 0.5};
    // Sphere A vs capsule B.
    const Vec3 ca_centre = pa.pose().translation();
    const Vec3 b0 = pb.pose().apply(Vec3(0, 0, -0.7));
    const Vec3 b1 = pb.pose().apply(Vec3(0, 0, 0.7));
    const double exact_sc = (oracles::closest_on_segment(ca_centre, b0, b1) - ca_centre).norm() - ra - rb;
    const oracles::DistanceBounds bsc = oracles::sampled_distance_bounds(sa, pa.pose(), cb, pb.pose());
    ASSERT_LE(bsc.lower, exact_sc + 1e-9) << k;
    ASSERT_GE(bsc.upper, exact_sc - 1e-9) << k;
    ASSERT_LE(bsc.upper - bsc.lower, 1e-6) << k;
    // Capsule A vs capsule B: segment-segment distance by dense search on one segment plus exact
    // projection on the other (the function is convex in the parameter: ternary search).
    const Vec3 a0 = pa.pose().apply(Vec3(0, 0, -0.5));
    const Vec3 a1 = pa.pose().apply(Vec3(0, 0, 0.5));
    double lo = 0;
    double hi = 1;
    const auto f = [&](double s) {
      const Vec3 p = a0 + s * (a1 - a0);
      return (oracles::closest_on_segment(p, b0, b1) - p).norm();
    };
    for (int it = 0; it < 200; ++it) {
      const double m1 = lo + (hi - lo) / 3;
      const double m2 = hi - (hi - lo) / 3;
      (f(m1) < f(m2) ? hi : lo) = (f(m1) < f(m2) ? m2 : m1);
    }
    const double exact_cc = f((lo + hi) / 2) - ra - rb;
    const oracles::DistanceBounds bcc = oracles::sampled_distance_bounds(ca, pa.pose(), cb, pb.pose());
    ASSERT_LE(bcc.lower, exact_cc + 1e-9) << k;
    ASSERT_GE(bcc.upper, exact_cc - 1e-9) << k;
    ASSERT_LE(bcc.upper - bcc.lower, 1e-6) << k;
  }
}

#ifdef PROXIMA_HAVE_CGAL

TEST(OracleCgalDistance, UnitCubesAtKnownOffsets) {
  const Vec3 h(0.5, 0.5, 0.5);
  // Face-face: gap 0.25 along x.
  {
    const auto r = oracles::cgal_polytope_distance(box_corners(h), box_corners(h, Vec3(1.25, 0.5, 0)));
    EXPECT_EQ(r.squared_distance, 0.0625);
    EXPECT_EQ(r.distance, 0.25);
    EXPECT_FALSE(r.intersect);
    EXPECT_EQ(r.point_a.x(), 0.5);
    EXPECT_EQ(r.point_b.x(), 0.75);
    EXPECT_NEAR((r.point_b - r.point_a).norm(), 0.25, 1e-15);
  }
  // Vertex-vertex along the diagonal: gap (1,1,1) -> distance sqrt(3), unique closest points.
  {
    const auto r = oracles::cgal_polytope_distance(box_corners(h), box_corners(h, Vec3(2, 2, 2)));
    EXPECT_EQ(r.squared_distance, 3.0);
    EXPECT_EQ(r.distance, std::sqrt(3.0));
    EXPECT_EQ(r.point_a, Vec3(0.5, 0.5, 0.5));
    EXPECT_EQ(r.point_b, Vec3(1.5, 1.5, 1.5));
  }
  // Edge-edge: B offset (1.5, 1.5, 0.25): the edges x=y=0.5 and x=y=1 are sqrt(0.5) apart.
  {
    const auto r = oracles::cgal_polytope_distance(box_corners(h), box_corners(h, Vec3(1.5, 1.5, 0.25)));
    EXPECT_EQ(r.squared_distance, 0.5);
    EXPECT_EQ(r.point_a.head<2>(), Eigen::Vector2d(0.5, 0.5));
    EXPECT_EQ(r.point_b.head<2>(), Eigen::Vector2d(1.0, 1.0));
  }
  // Touching and overlapping: exactly 0.
  EXPECT_TRUE(oracles::cgal_polytope_distance(box_corners(h), box_corners(h, Vec3(1, 0.25, 0))).intersect);
  EXPECT_TRUE(oracles::cgal_polytope_distance(box_corners(h), box_corners(h, Vec3(0.5, 0.25, 0))).intersect);
  // A distance that is not a double: offset (1 + 2^-40) along x and 1 along y, vertex-edge.
  {
    const double e = std::ldexp(1.0, -40);
    const auto r = oracles::cgal_polytope_distance(box_corners(h), box_corners(h, Vec3(1 + e, 1 + e, 3)));
    // Closest features: edge x=y=0.5 of A (z in [-.5,.5]) and vertex (0.5+e,0.5+e,2.5) of B... the
    // z gap is 2, so the distance^2 is 2 e^2 + 4, correctly rounded.
    EXPECT_EQ(r.squared_distance, 4 + 2 * e * e);
  }
}

TEST(OracleCgalDistance, TetrahedraAgainstPointProjection) {
  // Point vs tetrahedron through the exact oracle and through closest_on_tetrahedron.
  Rng rng(3);
  constexpr int kCases = 100;
  int inside = 0;
  for (int k = 0; k < kCases; ++k) {
    std::vector<Vec3> tet;
    for (int i = 0; i < 4; ++i) tet.push_back(testgen::random_unit_vector(rng));
    const double reach = testgen::uniform(rng, 0, 1.5);
    const Vec3 p = reach * testgen::random_unit_vector(rng);
    const auto r = oracles::cgal_point_polytope_distance(p, tet);
    const Vec3 q = oracles::closest_on_tetrahedron(p, tet[0], tet[1], tet[2], tet[3]);
    ASSERT_NEAR(r.distance, (q - p).norm(), 1e-13) << "case " << k;
    ASSERT_LE((r.point_b - q).norm(), 1e-12) << "case " << k;
    inside += r.intersect;
  }
  std::printf("[oracles] point-tetrahedron: %d cases, %d inside\n", kCases, inside);
  EXPECT_GT(inside, 0);
  EXPECT_LT(inside, kCases);
}

TEST(OracleMinkowskiPenetration, UnitCubesAtKnownOffsets) {
  const Vec3 h(0.5, 0.5, 0.5);
  // Overlap 0.25 along x (y offset 0.125 is shallower in x): depth 0.25, normal +x, unique.
  {
    const auto r = oracles::minkowski_penetration(box_corners(h), box_corners(h, Vec3(0.75, 0.125, 0)));
    EXPECT_TRUE(r.intersect);
    EXPECT_FALSE(r.touching);
    EXPECT_EQ(r.depth, 0.25);
    EXPECT_EQ(r.normal, Vec3(1, 0, 0));
    EXPECT_TRUE(r.unique);
    EXPECT_NEAR(r.relative_gap, (0.875 - 0.25) / 0.25, 1e-12);
  }
  // B below A: normal -z.
  {
    const auto r = oracles::minkowski_penetration(box_corners(h), box_corners(h, Vec3(0.25, 0.125, -0.875)));
    EXPECT_EQ(r.depth, 0.125);
    EXPECT_EQ(r.normal, Vec3(0, 0, -1));
    EXPECT_TRUE(r.unique);
  }
  // Same centre: depth 1 along six tied directions: not unique.
  {
    const auto r = oracles::minkowski_penetration(box_corners(h), box_corners(h));
    EXPECT_EQ(r.depth, 1.0);
    EXPECT_FALSE(r.unique);
  }
  // Touching and separated.
  {
    const auto r = oracles::minkowski_penetration(box_corners(h), box_corners(h, Vec3(1, 0.25, 0)));
    EXPECT_TRUE(r.intersect);
    EXPECT_TRUE(r.touching);
    EXPECT_EQ(r.depth, 0.0);
    const auto s = oracles::minkowski_penetration(box_corners(h), box_corners(h, Vec3(1.5, 0.25, 0)));
    EXPECT_FALSE(s.intersect);
  }
  // Flat: two coplanar squares.
  {
    const std::vector<Vec3> sq = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 1, 0), Vec3(0, 1, 0)};
    std::vector<Vec3> sq2;
    for (const Vec3& v : sq) sq2.push_back(v + Vec3(0.5, 0.5, 0));
    const auto r = oracles::minkowski_penetration(sq, sq2);
    EXPECT_TRUE(r.flat);
    EXPECT_TRUE(r.intersect);
    EXPECT_EQ(r.depth, 0.0);
  }
}

TEST(OracleMinkowskiPenetration, TetrahedronInCubeMatchesTranslationSearch) {
  // Independent check of the depth: translating B by depth * normal must make the shapes touch
  // (exact distance 0 but any further push separates), and no shorter translation along 80
  // random directions separates them.
  Rng rng(5);
  constexpr int kCases = 20;
  constexpr int kDirections = 80;
  int unique = 0;
  for (int k = 0; k < kCases; ++k) {
    const std::vector<Vec3> a = testgen::ellipsoid_points(rng, 8);
    std::vector<Vec3> b;
    const double reach = testgen::uniform(rng, 0, 0.6);
    const Vec3 off = reach * testgen::random_unit_vector(rng);
    for (int i = 0; i < 4; ++i) b.push_back(0.5 * testgen::random_unit_vector(rng) + off);
    const auto r = oracles::minkowski_penetration(a, b);
    if (!r.intersect) continue;
    unique += r.unique;
    const auto moved = [&](const Vec3& t) {
      std::vector<Vec3> out;
      for (const Vec3& v : b) out.push_back(v + t);
      return out;
    };
    const double scale = 1.0;
    const auto push = oracles::cgal_polytope_distance(a, moved((r.depth + 1e-9 * scale) * r.normal));
    ASSERT_FALSE(push.intersect) << "case " << k;
    ASSERT_LE(push.distance, 2e-9) << "case " << k;
    ASSERT_TRUE(oracles::cgal_polytope_distance(a, moved((r.depth - 1e-9) * r.normal)).intersect) << "case " << k;
    for (int j = 0; j < kDirections; ++j) {
      const Vec3 u = testgen::random_unit_vector(rng);
      ASSERT_TRUE(oracles::cgal_polytope_distance(a, moved((r.depth * (1 - 1e-9)) * u)).intersect)
          << "case " << k << " direction " << j;
    }
  }
  EXPECT_GT(unique, 0);
}

#endif  // PROXIMA_HAVE_CGAL

TEST(OracleSeparatingPlane, DetectsSeparationAndOverlap) {
  const Vec3 h(0.5, 0.5, 0.5);
  const auto a = box_corners(h);
  const auto b = box_corners(h, Vec3(1.25, 0.25, 0));
  EXPECT_NEAR(oracles::separation_along(Vec3(1, 0, 0), a, b).gap, 0.25, 1e-15);
  EXPECT_TRUE(oracles::separation_along(Vec3(1, 0, 0), a, b).unit_axis);
  EXPECT_LT(oracles::separation_along(Vec3(0, 1, 0), a, b).gap, 0);
  EXPECT_FALSE(oracles::separation_along(Vec3(2, 0, 0), a, b).unit_axis);
  const oracles::OracleEllipsoid ball{Vec3::Constant(1)};
  const auto sup_a = [&](const Vec3& u) { return ball.support(u); };
  const auto sup_b = [&](const Vec3& u) { return Vec3(ball.support(u) + Vec3(3, 0, 0)); };
  EXPECT_NEAR(oracles::separation_along_supports(Vec3(1, 0, 0), sup_a, sup_b).gap, 1, 1e-15);
}

TEST(Generators, MixOfPlacedPairsAndUniformRotations) {
  // The placement puts about half the pairs in contact (checked exactly with CGAL when present,
  // else by the support-function lower bound), and the quaternions are unit and spread.
  Rng rng(99);
  constexpr int kPairs = 200;
  int overlapping = 0;
  Vec3 mean_axis = Vec3::Zero();
  for (int k = 0; k < kPairs; ++k) {
    const testgen::ShapeSpec a = testgen::polytope_spec(testgen::ellipsoid_points(rng, 16));
    const testgen::ShapeSpec b = testgen::polytope_spec(testgen::ellipsoid_points(rng, 16));
    const testgen::PairCase c = testgen::place_pair(rng, "gen", a, b);
    ASSERT_NEAR(c.pose_a.quaternion.norm(), 1, 1e-15);
    mean_axis += c.pose_a.pose().rotation().col(2);
#ifdef PROXIMA_HAVE_CGAL
    overlapping += oracles::cgal_polytope_distance(c.world_vertices_a(), c.world_vertices_b()).intersect;
#else
    overlapping += c.factor < 1;
#endif
  }
  std::printf("[generators] %d placed pairs, %d overlapping\n", kPairs, overlapping);
  EXPECT_GT(overlapping, 0.3 * kPairs);
  EXPECT_LT(overlapping, 0.7 * kPairs);
  EXPECT_LT((mean_axis / kPairs).norm(), 0.2);  // uniform rotations: the z axes average out
}

TEST(Generators, SceneJsonNamesShapesAndPoses) {
  Rng rng(1);
  const auto cases = testgen::nasty_polytope_cases(rng);
  ASSERT_FALSE(cases.empty());
  const std::string line = testgen::scene_json(cases.front().pair, "distance", "nasty0");
  EXPECT_NE(line.find(R"("type":"polytope")"), std::string::npos);
  EXPECT_NE(line.find(R"("kind":"distance")"), std::string::npos);
  EXPECT_NE(line.find(R"("quaternion":[1,0,0,0])"), std::string::npos);
  EXPECT_EQ(line.find('\n'), std::string::npos);
}

}  // namespace
}  // namespace proxima
