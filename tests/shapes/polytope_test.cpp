// SPDX-License-Identifier: MIT
// Tests for polytope.hpp. Oracle: brute-force maximisation of d . p over the INPUT points (not the
// hull), so a wrong hull, a wrong scan or a hill climb stuck in a local maximum all show up.
#include "support_oracle.hpp"
#include "support/draws.hpp"

#include <bit>
#include <proxima/core/pose.hpp>
#include <proxima/shapes/polytope.hpp>

#ifdef PROXIMA_HAVE_CGAL
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/convex_hull_3.h>
#endif

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <set>

namespace proxima {
namespace {

static_assert(HintedSupportMap<Polytope> && !RoundedSupportMap<Polytope>);

double brute_max(const std::vector<Vec3>& points, const Vec3& d) {
  double best = -INFINITY;
  for (const Vec3& p : points) best = std::max(best, d.dot(p));
  return best;
}

double extent(const std::vector<Vec3>& points) {
  double r = 0;
  for (const Vec3& p : points) r = std::max(r, p.norm());
  return r;
}

/// Checks support(d), support(d, hint) from a random hint and from the previous answer, scan and
/// climb against brute force over `points` for `count` seeded random unit directions.
void expect_support_is_exact(const Polytope& poly, const std::vector<Vec3>& points, std::uint64_t seed, int count,
                             const std::string& label) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  std::uniform_int_distribution<int> vertex(0, poly.size() - 1);
  const double eps = 1e-12 * extent(points);
  int warm_hint = -1;
  for (int i = 0; i < count; ++i) {
    const Vec3 d = Vec3{normal(rng), normal(rng), normal(rng)}.normalized();
    const double expected = brute_max(points, d);
    int cold_hint = vertex(rng);
    const double cold = d.dot(poly.support(d, cold_hint));
    const double warm = d.dot(poly.support(d, warm_hint));
    ASSERT_NEAR(d.dot(poly.support(d)), expected, eps) << label << " seed " << seed << " case " << i;
    ASSERT_NEAR(cold, expected, eps) << label << " (random hint) seed " << seed << " case " << i;
    ASSERT_NEAR(warm, expected, eps) << label << " (warm hint) seed " << seed << " case " << i;
    ASSERT_EQ(poly.vertices()[static_cast<std::size_t>(cold_hint)], poly.support(d, cold_hint));
    ASSERT_NEAR(d.dot(poly.vertices()[static_cast<std::size_t>(poly.scan(d))]), expected, eps) << label << " scan";
    ASSERT_NEAR(d.dot(poly.vertices()[static_cast<std::size_t>(poly.climb(d, vertex(rng)))]), expected, eps)
        << label << " climb, seed " << seed << " case " << i;
  }
}

std::vector<Vec3> points_on_ellipsoid(int n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  std::vector<Vec3> out;
  for (int i = 0; i < n; ++i) out.push_back(Vec3{normal(rng), normal(rng), normal(rng)}.normalized().cwiseProduct(Vec3(3, 1, 0.5)));
  return out;
}

/// Every face is a supporting plane (all vertices on or below it), and a 3-D hull is a closed
/// triangulated sphere whose edges each border two faces.
/// `vertex_offset`: for a flat set (a polygon in its fitted plane), how far its points may lie
/// off that plane (its noise), which tilts the planes of its thin faces. A 3-D hull's faces pass
/// through its own vertices, so it needs none.
void expect_faces_are_a_hull(const Polytope& poly, const std::string& label, double vertex_offset = 0) {
  const auto& v = poly.vertices();
  const double eps = 1e-10 * poly.bounding_sphere().radius;
  double coordinate_max = 0;
  for (const Vec3& p : v) coordinate_max = std::max(coordinate_max, p.cwiseAbs().maxCoeff());
  std::map<std::pair<int, int>, int> directed;
  for (const auto& f : poly.faces()) {
    const Vec3 n = (v[size_t(f[1])] - v[size_t(f[0])]).cross(v[size_t(f[2])] - v[size_t(f[0])]);
    if (n.norm() < eps * eps) continue;  // a zero-area sliver from "Qt"; still part of the closed surface
    // A thin face's plane is known only roughly: its normal tilts by up to about
    // (u |e1| |e2| + delta (|e1| + |e2|)) / |n| radians, from the cross product's rounding (u the
    // unit roundoff) and from its vertices' own offsets delta off the true plane (rounding of the
    // input coordinates, or a flat set's noise), and that tilt shows over the hull's diameter.
    // Negligible on well-shaped faces; it covers the slivers of nearly flat sets, whose
    // deviations differ between clang -O1 and g++ -O3 (1.5e-10 and 2.4e-10 seen).
    const double e1 = (v[size_t(f[1])] - v[size_t(f[0])]).norm(), e2 = (v[size_t(f[2])] - v[size_t(f[0])]).norm();
    const double u = std::numeric_limits<double>::epsilon();
    const double tilt = (16 * u * e1 * e2 + (vertex_offset + 64 * u * coordinate_max) * (e1 + e2)) / n.norm();
    const double tol = eps + 2 * poly.bounding_sphere().radius * tilt;
    for (const Vec3& p : v) ASSERT_LE(n.normalized().dot(p - v[size_t(f[0])]), tol) << label;
    for (int k = 0; k < 3; ++k) ++directed[{f[size_t(k)], f[size_t((k + 1) % 3)]}];
  }
  if (poly.dimension() != 3) return;
  EXPECT_EQ(poly.size(), int(poly.faces().size() / 2 + 2)) << label << " Euler";
  for (const auto& [edge, count] : directed) {
    EXPECT_EQ(count, 1) << label;
    EXPECT_EQ(directed.count({edge.second, edge.first}), 1u) << label << " edge without a twin";
  }
}

TEST(Polytope, HillClimbEqualsBruteForceOnEllipsoidPoints) {
  int climbing = 0;
  for (int n = 8; n <= 4096; n *= 2) {
    const std::vector<Vec3> points = points_on_ellipsoid(n, 100 + std::uint64_t(n));
    const Polytope poly(points);
    EXPECT_EQ(poly.dimension(), 3);
    EXPECT_EQ(poly.size(), n) << "points on an ellipsoid are all hull vertices";
    if (poly.size() >= kPolytopeHillClimbMinVertices) ++climbing;
    const std::string label = "ellipsoid n=" + std::to_string(n);
    expect_support_is_exact(poly, points, 200 + std::uint64_t(n), 2000, label);
    if (n <= 1024) expect_faces_are_a_hull(poly, label);  // O(faces * vertices)
    test::expect_bounds_contain(poly, test::directions(300, 100), label);
  }
  EXPECT_GE(climbing, 5) << "most sizes must exercise the hill climb";
}

TEST(Polytope, InteriorPointsAreDropped) {
  std::vector<Vec3> points;
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> inside(-0.99, 0.99);
  for (int i = 0; i < 200; ++i) points.emplace_back(Vec3{inside(rng), inside(rng), inside(rng)});
  for (int c = 0; c < 8; ++c) points.emplace_back(c & 1 ? 1 : -1, c & 2 ? 1 : -1, c & 4 ? 1 : -1);
  for (int i = 0; i < 3; ++i) {  // face centres and edge midpoints lie on the hull but are not vertices
    points.push_back(Vec3::Unit(i));
    points.push_back(Vec3::Ones() - Vec3::Unit(i));
  }
  const Polytope cube(points);
  EXPECT_EQ(cube.size(), 8);
  EXPECT_EQ(cube.faces().size(), 12u);
  for (int k = 0; k < cube.size(); ++k) {
    EXPECT_EQ(cube.vertices()[size_t(k)], points[size_t(cube.input_indices()[size_t(k)])]);
    EXPECT_EQ(cube.vertices()[size_t(k)].cwiseAbs(), Vec3::Ones());
    EXPECT_GE(cube.neighbors(k).size(), 3u);
  }
  expect_support_is_exact(cube, points, 6, 500, "cube with interior points");
  expect_faces_are_a_hull(cube, "cube");
}

TEST(Polytope, FlatSetsUseThePolygonHull) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> uni(-1, 1);
  const Vec3 e1 = Vec3(1, 2, 3).normalized();
  const Vec3 e2 = e1.cross(Vec3(0, 0, 1)).normalized();
  for (const double noise : {0.0, 1e-14}) {  // exactly and nearly flat
    std::vector<Vec3> points;
    for (int i = 0; i < 3000; ++i) {
      const Vec3 c = proxima::test::draw_vec3(uni, rng);
      points.push_back(Vec3(5, -2, 1) + c.x() * e1 + c.y() * e2 + noise * c.z() * e1.cross(e2));
    }
    const Polytope poly(points);
    EXPECT_EQ(poly.dimension(), 2);
    EXPECT_GE(poly.size(), 3);
    for (int k = 0; k < poly.size(); ++k) EXPECT_EQ(poly.neighbors(k).size(), 2u);
    expect_support_is_exact(poly, points, 8, 2000, "flat square, noise " + std::to_string(noise));
    expect_faces_are_a_hull(poly, "flat square", noise);
  }
  // Thin but solid (thickness above kPolytopeFlatnessTolerance times the extent, down to just
  // above it): qhull's 3-D hull, slivers and all.
  for (const double thickness : {1e-8, 1e-9, 4e-10}) {
    std::vector<Vec3> slab;
    for (int i = 0; i < 2000; ++i) {
      const Vec3 c = proxima::test::draw_vec3(uni, rng);
      slab.push_back(c.x() * e1 + c.y() * e2 + thickness * c.z() * e1.cross(e2));
    }
    const Polytope thin(slab);
    const std::string label = "thin slab " + std::to_string(thickness);
    EXPECT_EQ(thin.dimension(), 3) << label;
    expect_support_is_exact(thin, slab, 18, 2000, label);
    expect_faces_are_a_hull(thin, label);
  }
  // A 4096-gon: every point a hull vertex, so the climb walks a long cycle.
  std::vector<Vec3> polygon;
  for (int i = 0; i < 4096; ++i) {
    const double t = 2 * std::numbers::pi * i / 4096;
    polygon.push_back(Vec3(1, 1, 1) + 2 * std::cos(t) * e1 + std::sin(t) * e2);
  }
  const Polytope disc(polygon);
  EXPECT_EQ(disc.dimension(), 2);
  EXPECT_EQ(disc.size(), 4096);
  expect_support_is_exact(disc, polygon, 9, 2000, "4096-gon");
  expect_faces_are_a_hull(disc, "4096-gon");
}

TEST(Polytope, CollinearDuplicateAndTwoPointSets) {
  std::mt19937_64 rng(10);
  std::uniform_real_distribution<double> uni(-3, 2);
  std::vector<Vec3> line;
  for (int i = 0; i < 500; ++i) line.push_back(Vec3(1, 0, 0) + uni(rng) * Vec3(0.3, -1, 2));
  const Polytope seg(line);
  EXPECT_EQ(seg.dimension(), 1);
  EXPECT_EQ(seg.size(), 2);
  EXPECT_TRUE(seg.faces().empty());
  expect_support_is_exact(seg, line, 11, 500, "collinear");

  const std::vector<Vec3> two = {Vec3(1, 2, 3), Vec3(1, 2, 3), Vec3(-1, 0, 4), Vec3(1, 2, 3)};
  const Polytope pair(two);
  EXPECT_EQ(pair.size(), 2);
  expect_support_is_exact(pair, two, 12, 200, "two distinct points");

  std::vector<Vec3> dup;  // a tetrahedron, each vertex given five times
  for (int r = 0; r < 5; ++r) dup.insert(dup.end(), {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)});
  const Polytope tet(dup);
  EXPECT_EQ(tet.size(), 4);
  EXPECT_EQ(tet.faces().size(), 4u);
  EXPECT_EQ(std::set<int>(tet.input_indices().begin(), tet.input_indices().end()), (std::set<int>{0, 1, 2, 3}));
  expect_support_is_exact(tet, dup, 13, 200, "duplicated tetrahedron");
}

/// Points on a regular grid over each face of the cube [-1, 1]^3, edges and corners included:
/// massively coplanar input, the classic trap for floating-point hulls.
std::vector<Vec3> cube_surface_grid(int n) {
  std::vector<Vec3> out;
  for (int axis = 0; axis < 3; ++axis) {
    for (const double side : {-1.0, 1.0}) {
      for (int i = 0; i <= n; ++i) {
        for (int j = 0; j <= n; ++j) {
          Vec3 p;
          p[axis] = side;
          p[(axis + 1) % 3] = -1 + 2.0 * i / n;
          p[(axis + 2) % 3] = -1 + 2.0 * j / n;
          out.push_back(p);
        }
      }
    }
  }
  return out;
}

TEST(Polytope, CoplanarGridsOnCubeFaces) {
  const std::vector<Vec3> grid = cube_surface_grid(10);
  const Polytope cube(grid);
  EXPECT_EQ(cube.size(), 8) << "only the corners are vertices";
  expect_support_is_exact(cube, grid, 19, 1000, "cube grid");
  expect_faces_are_a_hull(cube, "cube grid");
  // Rotated and shifted: the faces are no longer axis-aligned, so coplanarity holds only up to
  // rounding. The hull may keep a few near-coplanar points as vertices; the support must stay exact.
  const Mat3 r = Pose::from_euler_xyz(0.3, 0.7, -1.1).rotation();
  std::vector<Vec3> rotated;
  for (const Vec3& p : grid) rotated.push_back(r * p + Vec3(10, -20, 5));
  const Polytope tilted(rotated);
  EXPECT_GE(tilted.size(), 8);
  EXPECT_LE(tilted.size(), int(rotated.size()) / 4) << "most face points must be dropped";
  expect_support_is_exact(tilted, rotated, 20, 1000, "rotated cube grid");
  expect_faces_are_a_hull(tilted, "rotated cube grid");
}

TEST(Polytope, NeedlesAndSlivers) {
  std::mt19937_64 rng(21);
  std::uniform_real_distribution<double> uni(-1, 1);
  for (const double width : {1e-6, 1e-9}) {  // solid needles of shrinking width (above the flatness tolerance)
    std::vector<Vec3> needle;
    for (int i = 0; i < 1000; ++i) needle.push_back(Vec3{uni(rng) * 5, width * uni(rng), width * uni(rng)});
    const Polytope poly(needle);
    EXPECT_EQ(poly.dimension(), 3) << "width " << width;
    expect_support_is_exact(poly, needle, 22, 1000, "needle width " + std::to_string(width));
  }
  // Collinear up to the flatness tolerance: treated as a segment, support exact to that tolerance.
  std::vector<Vec3> hair;
  for (int i = 0; i < 1000; ++i) hair.push_back(Vec3{uni(rng), 1e-12 * uni(rng), 1e-12 * uni(rng)});
  const Polytope segment(hair);
  EXPECT_EQ(segment.dimension(), 1);
  for (const Vec3& d : test::directions(23, 500)) {
    ASSERT_NEAR(d.dot(segment.support(d)), brute_max(hair, d), 2 * kPolytopeFlatnessTolerance * 2 * d.norm());
  }
}

#ifdef PROXIMA_HAVE_CGAL
/// CGAL's extreme points with exact predicates: the vertex set of the true hull.
std::set<std::array<double, 3>> cgal_extreme_points(const std::vector<Vec3>& points) {
  using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;
  std::vector<Kernel::Point_3> in;
  for (const Vec3& p : points) in.emplace_back(p.x(), p.y(), p.z());
  std::vector<Kernel::Point_3> out;
  CGAL::extreme_points_3(in, std::back_inserter(out));
  std::set<std::array<double, 3>> result;
  for (const auto& p : out) result.insert({p.x(), p.y(), p.z()});
  return result;
}

TEST(Polytope, VerticesAreCgalsExactExtremePoints) {
  std::mt19937_64 rng(24);
  std::uniform_real_distribution<double> shrink(0, 0.999);
  for (int trial = 0; trial < 5; ++trial) {
    std::vector<Vec3> points = points_on_ellipsoid(300, 25 + std::uint64_t(trial));
    for (int i = 0; i < 300; ++i) points.push_back(shrink(rng) * points[std::size_t(i)]);  // interior
    std::shuffle(points.begin(), points.end(), rng);
    const Polytope poly(points);
    std::set<std::array<double, 3>> ours;
    for (const Vec3& v : poly.vertices()) ours.insert({v.x(), v.y(), v.z()});
    EXPECT_EQ(ours, cgal_extreme_points(points)) << "seed 24, trial " << trial;
    EXPECT_EQ(poly.size(), 300);
  }
  const std::vector<Vec3> grid = cube_surface_grid(6);
  EXPECT_EQ(cgal_extreme_points(grid).size(), 8u);
  std::set<std::array<double, 3>> ours;
  const Polytope cube(grid);
  for (const Vec3& v : cube.vertices()) ours.insert({v.x(), v.y(), v.z()});
  EXPECT_EQ(ours, cgal_extreme_points(grid));
}
#endif

TEST(Polytope, ScalesAndFarFromOrigin) {
  for (const double scale : {1e-200, 1e-3, 1.0, 1e5, 1e200}) {  // 1e+-200: squares over- or underflow
    for (const double offset : {0.0, 1e4}) {
      std::vector<Vec3> points = points_on_ellipsoid(300, 14);
      for (Vec3& p : points) p = scale * p + Vec3::Constant(offset * scale);
      const Polytope poly(points);
      EXPECT_EQ(poly.dimension(), 3);
      const std::string label = "scale " + std::to_string(scale) + " offset " + std::to_string(offset);
      std::mt19937_64 rng(15);
      std::normal_distribution<double> normal;
      for (int i = 0; i < 500; ++i) {
        const Vec3 d = Vec3{normal(rng), normal(rng), normal(rng)}.normalized();
        int hint = -1;
        // Relative to the size of the set (its far placement costs digits in d . p, not in the hull).
        ASSERT_NEAR(d.dot(poly.support(d, hint)), brute_max(points, d), 1e-12 * scale * (3 + 2 * offset)) << label << " case " << i;
      }
    }
  }
}

/// The scan's contract, bit for bit: the FIRST index maximising dx * x + dy * y + dz * z (that
/// operation order), vertex 0 when no value exceeds -inf (NaN direction).
int sequential_first_maximum(const Polytope& poly, const Vec3& d) {
  int best = 0;
  double best_value = -std::numeric_limits<double>::infinity();
  for (int i = 0; i < poly.size(); ++i) {
    const Vec3& p = poly.vertices()[static_cast<std::size_t>(i)];
    const double v = d.x() * p.x() + d.y() * p.y() + d.z() * p.z();
    if (v > best_value) best_value = v, best = i;
  }
  return best;
}

// The vectorised scan (4 lanes, two accumulators, blocks of 8 with a tail of 4) must pick the same
// vertex as the sequential loop, including on exact ties (lattice points: axis and diagonal
// directions hit whole faces), signed zeros, NaN and overflowing directions, for every hull size
// the scan serves (4 .. kPolytopeHillClimbMinVertices - 1: tails of 0 and 4 both occur).
TEST(Polytope, ScanIsTheSequentialFirstMaximum) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int> coord(-3, 3);
  std::normal_distribution<double> normal;
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::set<int> sizes;
  for (int trial = 0; trial < 400; ++trial) {
    // Lattice points in [-3, 3]^3 (ties everywhere), then points on a sphere (all on the hull:
    // every size 4 .. 47 in turn).
    const bool sphere = trial >= 300;
    const int count = sphere ? 4 + (trial - 300) % 44 : 4 + trial % 60;
    std::vector<Vec3> points;
    for (int i = 0; i < count; ++i) {
      if (sphere) {
        points.push_back(Vec3{normal(rng), normal(rng), normal(rng)}.normalized());
      } else {
        points.emplace_back(Vec3{double(coord(rng)), double(coord(rng)), double(coord(rng))});
      }
    }
    const Polytope poly(points);
    if (poly.size() >= kPolytopeHillClimbMinVertices) continue;
    sizes.insert(poly.size());
    std::vector<Vec3> dirs = {Vec3::Zero(), Vec3(-0.0, 0.0, -0.0), Vec3(nan, 0, 0), Vec3(0, 0, nan),
                              Vec3(inf, 0, 0), Vec3(-inf, 1, 0), Vec3(1e308, 1e308, 1e308), Vec3(-1e308, 1e308, 0)};
    for (int x = -1; x <= 1; ++x) {
      for (int y = -1; y <= 1; ++y) {
        for (int z = -1; z <= 1; ++z) dirs.emplace_back(x, y, z);
      }
    }
    for (int k = 0; k < 20; ++k) dirs.emplace_back(Vec3{normal(rng), normal(rng), normal(rng)});
    for (const Vec3& d : dirs) {
      ASSERT_EQ(poly.scan(d), sequential_first_maximum(poly, d))
          << "trial " << trial << " size " << poly.size() << " d " << d.transpose();
    }
  }
  // Both tails (padded size a multiple of 8, and 8k + 4) and the smallest hulls were exercised.
  EXPECT_TRUE(sizes.count(4) && sizes.count(8) && sizes.count(12) && sizes.count(40) && sizes.count(44))
      << "sizes seen: " << sizes.size();
}

// The fused pair support GJK uses for two scanned polytopes (gjk::MinkowskiDifference) must pick
// the vertices the separate scans pick, on the same tie-heavy lattice hulls and odd directions.
TEST(Polytope, FusedPairSupportIsTheTwoScans) {
  if (!detail::kPolytopeHaveAvx2) GTEST_SKIP() << "no AVX2: the fused path is never taken";
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<int> coord(-3, 3);
  std::normal_distribution<double> normal;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<Vec3> pa, pb;
    for (int i = 0; i < 4 + trial % 40; ++i) pa.push_back(Vec3{double(coord(rng)), double(coord(rng)), double(coord(rng))});
    for (int i = 0; i < 4 + (trial * 7) % 40; ++i) pb.push_back(Vec3{double(coord(rng)), double(coord(rng)), double(coord(rng))});
    const Polytope a(pa);
    const Polytope b(pb);
    if (a.size() >= kPolytopeHillClimbMinVertices || b.size() >= kPolytopeHillClimbMinVertices) continue;
    // Quarter turns about z keep lattice ties exact in B's frame; random turns mix them.
    const Pose b_in_a = trial % 2 == 0 ? Pose::from_quaternion(std::sqrt(0.5), 0, 0, std::sqrt(0.5), Vec3(1, 0, 0))
                                       : test::draw_quaternion_pose(normal, normal, rng);
    std::vector<Vec3> dirs = {Vec3::Zero(), Vec3(-0.0, 0.0, -0.0), Vec3(nan, 0, 0), Vec3(1e308, 1e308, 1e308)};
    for (int x = -1; x <= 1; ++x) {
      for (int y = -1; y <= 1; ++y) {
        for (int z = -1; z <= 1; ++z) dirs.emplace_back(x, y, z);
      }
    }
    for (int k = 0; k < 10; ++k) dirs.push_back(Vec3{normal(rng), normal(rng), normal(rng)});
    for (const Vec3& d : dirs) {
      const detail::PolytopePairSupport s = detail::polytope_pair_support_avx2(a, b, b_in_a, d);
      ASSERT_EQ(s.index_a, a.scan(d)) << "trial " << trial << " d " << d.transpose();
      ASSERT_EQ(s.index_b, b.scan(b_in_a.rotate_inverse(-d))) << "trial " << trial << " d " << d.transpose();
    }
  }
}

// B's scan block placed in A's frame (detail::polytope_place_coords_avx2, used by penetration)
// must be Pose::apply of each vertex bit for bit (padding included: copies of vertex 0), and the
// placed pair support must give A's scan, B's placed vertex, and a B vertex that is the first
// maximum of -d over the placed block and a maximum of B's own scan to rounding. The dispatching
// overload with a null block must be the unplaced support.
TEST(Polytope, PlacedPairSupportIsPoseApplyBitForBit) {
  if (!detail::kPolytopeHaveAvx2) GTEST_SKIP() << "no AVX2: the placed path is never taken";
  const std::uint64_t seed = 20261130;
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  std::uniform_int_distribution<int> coord(-3, 3);
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<Vec3> pa, pb;
    const bool lattice = trial % 3 == 0;
    const double scale = std::ldexp(1.0, trial % 41 - 20);
    for (int i = 0; i < 4 + trial % 44; ++i) {
      if (lattice) {
        pa.push_back(Vec3{double(coord(rng)), double(coord(rng)), double(coord(rng))});
      } else {
        pa.push_back(Vec3{normal(rng), normal(rng), normal(rng)} * scale);
      }
    }
    for (int i = 0; i < 4 + (trial * 7) % 44; ++i) {
      if (lattice) {
        pb.push_back(Vec3{double(coord(rng)), double(coord(rng)), double(coord(rng))});
      } else {
        pb.push_back(Vec3{normal(rng), normal(rng), normal(rng)} * scale);
      }
    }
    const Polytope a(pa);
    const Polytope b(pb);
    if (a.size() >= kPolytopeHillClimbMinVertices || b.size() >= kPolytopeHillClimbMinVertices) continue;
    const double qw = normal(rng);
    const double qx = normal(rng);
    const double qy = normal(rng);
    const double qz = normal(rng);
    const Vec3 t = Vec3{normal(rng), normal(rng), normal(rng)} * scale;
    const Pose b_in_a = Pose::from_quaternion(qw, qx, qy, qz, t);
    alignas(32) std::array<double, 3 * detail::kPolytopeScanMaxPadded> placed;
    detail::polytope_place_coords_avx2(b, b_in_a, placed.data());
    const std::size_t p = (static_cast<std::size_t>(b.size()) + 3) / 4 * 4;
    for (std::size_t k = 0; k < p; ++k) {
      const Vec3 q = b_in_a.apply(b.vertices()[k < static_cast<std::size_t>(b.size()) ? k : 0]);
      ASSERT_EQ(std::bit_cast<std::uint64_t>(q.x()), std::bit_cast<std::uint64_t>(placed[k]))
          << "seed " << seed << " trial " << trial << " vertex " << k;
      ASSERT_EQ(std::bit_cast<std::uint64_t>(q.y()), std::bit_cast<std::uint64_t>(placed[p + k]))
          << "seed " << seed << " trial " << trial << " vertex " << k;
      ASSERT_EQ(std::bit_cast<std::uint64_t>(q.z()), std::bit_cast<std::uint64_t>(placed[2 * p + k]))
          << "seed " << seed << " trial " << trial << " vertex " << k;
    }
    for (int k = 0; k < 20; ++k) {
      const Vec3 d{normal(rng), normal(rng), normal(rng)};
      const detail::PolytopePairSupport s = detail::polytope_pair_support_avx2(a, b, b_in_a, d, placed.data());
      ASSERT_EQ(s.index_a, a.scan(d)) << "seed " << seed << " trial " << trial;
      ASSERT_TRUE(s.b == b_in_a.apply(b.vertices()[s.index_b])) << "seed " << seed << " trial " << trial;
      ASSERT_TRUE(s.w == s.a - s.b) << "seed " << seed << " trial " << trial;
      // The first maximum of -d over the placed block, in the scan's order of operations.
      int first = 0;
      double best = -std::numeric_limits<double>::infinity();
      for (std::size_t i = 0; i < p; ++i) {
        const double v = (-d.x() * placed[i] + -d.y() * placed[p + i]) + -d.z() * placed[2 * p + i];
        if (v > best) {
          best = v;
          first = static_cast<int>(i);
        }
      }
      ASSERT_EQ(s.index_b, first) << "seed " << seed << " trial " << trial;
      // A maximum of B's own scan to rounding (the two frames round the products differently).
      const Vec3 db = b_in_a.rotate_inverse(-d);
      const int own = b.scan(db);
      const double gap = db.dot(b.vertices()[own]) - db.dot(b.vertices()[s.index_b]);
      double rmax = 0;
      for (const Vec3& v : b.vertices()) rmax = std::max(rmax, v.norm());
      ASSERT_LE(gap, 1e-12 * d.norm() * (rmax + b_in_a.translation().norm()))
          << "seed " << seed << " trial " << trial;
      const detail::PolytopePairSupport u = detail::polytope_pair_support_avx2(a, b, b_in_a, d, nullptr);
      const detail::PolytopePairSupport v = detail::polytope_pair_support_avx2(a, b, b_in_a, d);
      ASSERT_TRUE(u.w == v.w && u.index_a == v.index_a && u.index_b == v.index_b) << "seed " << seed << " trial " << trial;
    }
  }
}

// The climb-start cube map (detail::start_cell): every cell's centre direction maps back to the
// cell at any scale; a random direction lands in the cell of its major axis whose centre lies
// within half a cell of the direction's projection on that face (an independent computation:
// the projection d / |d_a| compared with the cell's centre coordinates); zero, infinite and NaN
// directions give an index inside the table.
TEST(Polytope, StartCellMapIsTheCubeMapOfTheDirection) {
  for (const int r : {1, 2, 8, 16, 32}) {
    const int cells = 6 * r * r;
    for (int c = 0; c < cells; ++c) {
      for (const double scale : {1.0, 1e-300, 3e300, 0.7}) {
        ASSERT_EQ(detail::start_cell(detail::start_cell_direction(c, r) * scale, r), c)
            << "r " << r << " cell " << c << " scale " << scale;
      }
    }
    std::mt19937_64 rng(20261126 + std::uint64_t(r));
    std::normal_distribution<double> normal;
    for (int k = 0; k < 4000; ++k) {
      const Vec3 d{normal(rng), normal(rng), normal(rng)};
      const int c = detail::start_cell(d, r);
      ASSERT_GE(c, 0);
      ASSERT_LT(c, cells);
      const Vec3 centre = detail::start_cell_direction(c, r);
      int axis = 0;
      for (int i = 1; i < 3; ++i) axis = std::abs(d[i]) > std::abs(d[axis]) ? i : axis;
      ASSERT_EQ(centre[axis], d[axis] > 0 ? 1.0 : -1.0) << "seed " << 20261126 + r << " case " << k;
      const Vec3 projected = d / std::abs(d[axis]);
      for (int i = 0; i < 3; ++i) {
        ASSERT_LE(std::abs(projected[i] - centre[i]), 1.0 / r + 1e-12) << "seed " << 20261126 + r << " case " << k;
      }
    }
    const double inf = std::numeric_limits<double>::infinity();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (const Vec3& d : {Vec3(0, 0, 0), Vec3(inf, 0, 0), Vec3(-inf, inf, 1), Vec3(nan, 1, 0), Vec3(nan, nan, nan),
                          Vec3(1, 1, 1), Vec3(-1, -1, -1), Vec3(0, -0.0, 1e-320)}) {
      const int c = detail::start_cell(d, r);
      EXPECT_GE(c, 0) << d.transpose();
      EXPECT_LT(c, cells) << d.transpose();
    }
  }
}

// The climb from the cube map's start is exact on every hull size that climbs, flat sets
// included, and every direction of the table's own cells (the centres, where neighbouring
// cells' answers meet) gives the scan's maximum.
TEST(Polytope, CubeMapStartsClimbToTheMaximum) {
  int checked = 0;
  for (const int n : {48, 127, 128, 511, 512, 2000}) {
    const std::vector<Vec3> points = points_on_ellipsoid(n, 300 + std::uint64_t(n));
    std::vector<Vec3> flat = points;
    for (Vec3& p : flat) p.z() = 0.25 * p.x() - 0.5 * p.y();  // a tilted plane: dimension 2
    for (const std::vector<Vec3>* set : std::array<const std::vector<Vec3>*, 2>{&points, &flat}) {
      const Polytope poly(*set);
      if (poly.size() < kPolytopeHillClimbMinVertices) continue;
      for (const int r : {8, 16, 32}) {
        for (int c = 0; c < 6 * r * r; c += 7) {
          const Vec3 d = detail::start_cell_direction(c, r);
          const double expected = d.dot(poly.vertices()[static_cast<std::size_t>(poly.scan(d))]);
          ASSERT_EQ(d.dot(poly.vertices()[static_cast<std::size_t>(poly.support_index(d))]), expected)
              << "n " << n << " dimension " << poly.dimension() << " r " << r << " cell " << c;
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 10000);
}

TEST(Polytope, ZeroDirectionCopyAndBounds) {
  const std::vector<Vec3> points = points_on_ellipsoid(100, 16);
  const Polytope poly(points);
  const auto contains_vertex = [&](const Vec3& p) {
    return std::find(poly.vertices().begin(), poly.vertices().end(), p) != poly.vertices().end();
  };
  test::expect_zero_direction_deterministic(poly, contains_vertex, "polytope");
  const Polytope copy = poly;  // NOLINT: the copy is the point
  EXPECT_EQ(&copy.vertices(), &poly.vertices()) << "copies share the hull data";
  const Polytope small({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)});
  EXPECT_EQ(small.support(Vec3::Zero()), small.vertices()[0]);
  test::expect_bounds_contain(small, test::directions(17, 100), "tetrahedron");
}

TEST(Polytope, BadInputNamesTheField) {
  try {
    Polytope p(std::vector<Vec3>{});
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.field(), "vertices");
    EXPECT_NE(std::string(e.what()).find("empty"), std::string::npos);
  }
  try {
    Polytope p({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, NAN, 1)});
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.field(), "vertices[3].y");
    EXPECT_NE(std::string(e.what()).find("nan"), std::string::npos);
  }
  try {
    Polytope p({Vec3(2, 2, 2), Vec3(2, 2, 2), Vec3(2, 2, 2)});
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.field(), "vertices");
    EXPECT_NE(std::string(e.what()).find("identical"), std::string::npos);
  }
  EXPECT_THROW(Polytope({Vec3(INFINITY, 0, 0)}), InvalidInput);
}

}  // namespace
}  // namespace proxima
