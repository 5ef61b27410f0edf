// SPDX-License-Identifier: MIT
// Polytope::strictly_contains (the interior test on the hull triangles' planes) against a
// brute-force oracle, and the first support pair's common point of gjk::distance /
// gjk::intersect (gjk/first_support_overlap.hpp) on polytope pairs and on mixed pairs of
// polytopes, boxes, ellipsoids, cylinders and cones against GJK without it.
#include "support/nasty_cases.hpp"
#include "support/random_shapes.hpp"

#include <proxima/gjk/distance.hpp>
#include <proxima/gjk/intersect.hpp>
#include <proxima/shapes/box.hpp>
#include <proxima/shapes/cone.hpp>
#include <proxima/shapes/cylinder.hpp>
#include <proxima/shapes/ellipsoid.hpp>
#include <proxima/shapes/point.hpp>
#include <proxima/shapes/polytope.hpp>
#include <proxima/shapes/sphere.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace proxima::gjk {
namespace {

using testgen::Rng;

/// The hull's facet planes by brute force, in long double, independent of qhull's triangles: the
/// plane of every vertex triple with all vertices on one side (relative 1e-14 of the extent,
/// which accepts exactly coplanar vertices and no near-miss of points in general position).
struct BruteHull {
  struct Plane {
    long double nx, ny, nz, offset;  // unit outward normal, offset = n . vertex
  };
  std::vector<Plane> planes;

  explicit BruteHull(const std::vector<Vec3>& v) {
    long double extent = 0;
    for (const Vec3& p : v) extent = std::max<long double>(extent, p.norm());
    const std::size_t n = v.size();
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = i + 1; j < n; ++j) {
        for (std::size_t k = j + 1; k < n; ++k) {
          const long double ux = (long double)v[j].x() - v[i].x(), uy = (long double)v[j].y() - v[i].y(),
                            uz = (long double)v[j].z() - v[i].z();
          const long double wx = (long double)v[k].x() - v[i].x(), wy = (long double)v[k].y() - v[i].y(),
                            wz = (long double)v[k].z() - v[i].z();
          long double nx = uy * wz - uz * wy, ny = uz * wx - ux * wz, nz = ux * wy - uy * wx;
          const long double len = std::sqrt(nx * nx + ny * ny + nz * nz);
          if (!(len > 1e-24L * extent * extent)) continue;  // collinear triple
          nx /= len, ny /= len, nz /= len;
          const long double offset = nx * v[i].x() + ny * v[i].y() + nz * v[i].z();
          bool above = false, below = false;
          for (const Vec3& p : v) {
            const long double s = nx * p.x() + ny * p.y() + nz * p.z() - offset;
            above = above || s > 1e-14L * extent;
            below = below || s < -1e-14L * extent;
          }
          if (above && below) continue;
          if (above) planes.push_back({-nx, -ny, -nz, -offset});
          else planes.push_back({nx, ny, nz, offset});
        }
      }
    }
  }
  /// min over the facets of offset - n . x: positive inside, negative outside (a distance).
  long double slack(const Vec3& x) const {
    long double s = std::numeric_limits<long double>::infinity();
    for (const Plane& p : planes) s = std::min(s, p.offset - (p.nx * x.x() + p.ny * x.y() + p.nz * x.z()));
    return s;
  }
};

double extent_of(const std::vector<Vec3>& v) {
  double e = 0;
  for (const Vec3& p : v) e = std::max(e, p.norm());
  return e;
}

/// Vertex sets of the interior test: ellipsoid points, boxes (coplanar facets split into
/// triangles), boxes with face grids, a thin needle; scaled 1e-3..1e5 and moved off the local
/// origin by up to 1e3 times their size.
std::vector<Vec3> draw_hull_points(Rng& rng, int i) {
  std::vector<Vec3> v;
  switch (i % 4) {
    case 0: v = testgen::ellipsoid_points(rng, 4 + i % 29); break;
    case 1: v = testgen::box_corners(Vec3(1, 0.5, 0.25)); break;
    case 2: v = testgen::box_with_face_grids(Vec3(1, 0.75, 0.5), 2); break;
    default: v = testgen::ellipsoid_points(rng, 12, Vec3(2, 1e-3, 1e-3)); break;
  }
  const double scale = testgen::log_uniform(rng, 1e-3, 1e5);
  const double reach = testgen::log_uniform(rng, 1e-3, 1e3);
  const Vec3 offset = reach * scale * testgen::random_unit_vector(rng);
  for (Vec3& p : v) p = scale * p + (i % 3 == 0 ? Vec3::Zero() : offset);
  return v;
}

TEST(PolytopeInterior, StrictlyContainsAgreesWithABruteForceHull) {
  const std::uint64_t seed = 2026112819;
  Rng rng(seed);
  int accepted = 0, refused_inside = 0, refused_outside = 0, near_surface = 0, hulls_with_test = 0;
  for (int i = 0; i < 160; ++i) {
    const std::vector<Vec3> points = draw_hull_points(rng, i);
    const Polytope p(points);
    const BruteHull oracle(p.vertices());
    const double extent = extent_of(p.vertices());
    const std::string where = "seed " + std::to_string(seed) + " hull " + std::to_string(i);
    ASSERT_FALSE(oracle.planes.empty()) << where;
    if (!p.has_interior_test()) {
      // Only a sliver may go without the test here (the needles): then it refuses everything.
      EXPECT_EQ(i % 4, 3) << where;
      EXPECT_FALSE(p.strictly_contains(p.vertices()[0] * 0.5 + p.vertices()[1] * 0.5)) << where;
      continue;
    }
    ++hulls_with_test;
    EXPECT_GT(p.interior_margin(), 0) << where;
    EXPECT_LE(p.interior_margin(), kPolytopeInteriorTestMaxMargin * extent) << where;
    const Aabb box = p.local_aabb();
    const Vec3 size = box.max - box.min;
    for (int k = 0; k < 300; ++k) {
      Vec3 x;
      if (k % 3 == 0) {  // anywhere in the box, 20% larger
        for (int c = 0; c < 3; ++c) x[c] = box.min[c] + size[c] * testgen::uniform(rng, -0.2, 1.2);
      } else if (k % 3 == 1) {  // on a hull triangle, pushed in or out by 1e-16..1e-2 of the extent
        const auto& f = p.faces()[static_cast<std::size_t>(k) % p.faces().size()];
        double u = testgen::uniform(rng, 0, 1), w = testgen::uniform(rng, 0, 1);
        if (u + w > 1) u = 1 - u, w = 1 - w;
        const Vec3& a = p.vertices()[static_cast<std::size_t>(f[0])];
        const Vec3& b = p.vertices()[static_cast<std::size_t>(f[1])];
        const Vec3& c = p.vertices()[static_cast<std::size_t>(f[2])];
        const Vec3 n = (b - a).cross(c - a).normalized();
        const double push = testgen::log_uniform(rng, 1e-16, 1e-2) * extent * (k % 2 == 0 ? 1 : -1);
        x = a + u * (b - a) + w * (c - a) + push * n;
        ++near_surface;
      } else {  // a vertex, or between two vertices (on the surface or inside)
        const auto& v = p.vertices();
        x = k % 6 == 2 ? v[static_cast<std::size_t>(k) % v.size()]
                       : 0.5 * (v[static_cast<std::size_t>(k) % v.size()] + v[static_cast<std::size_t>(k * 7) % v.size()]);
      }
      const long double slack = oracle.slack(x);
      const bool inside = p.strictly_contains(x);
      // Sound: an accepted point is inside the hull.
      if (inside) {
        ++accepted;
        EXPECT_GT(slack, 0) << where << " point " << k << " accepted, oracle slack " << static_cast<double>(slack);
      } else if (slack > 0) {
        ++refused_inside;
        // Complete up to the margin: a point deeper than twice the margin is accepted.
        EXPECT_LE(slack, 2 * p.interior_margin()) << where << " point " << k << " refused, oracle slack "
                                                  << static_cast<double>(slack) << ", margin " << p.interior_margin();
      } else {
        ++refused_outside;
      }
    }
    // NaN is refused.
    EXPECT_FALSE(p.strictly_contains(Vec3(kNaN, 0, 0))) << where;
  }
  std::printf("hulls with the test %d; points accepted %d, refused inside (within the margin) %d, outside %d; "
              "near the surface %d\n",
              hulls_with_test, accepted, refused_inside, refused_outside, near_surface);
  // An informative sample: every kind of answer in numbers.
  EXPECT_GE(hulls_with_test, 120);
  EXPECT_GT(accepted, 5000);
  EXPECT_GT(refused_outside, 5000);
  EXPECT_GT(refused_inside, 1000);  // the vertices, midpoints on the surface, and points pushed in by < margin
}

// strictly_crossed_by against dense sampling of the segment by strictly_contains (the second
// algorithm): a found point is strictly inside (and on the segment); a segment with a sampled
// point strictly inside is found.
TEST(PolytopeInterior, StrictlyCrossedByAgreesWithSamplingTheSegment) {
  const std::uint64_t seed = 2026112925;
  Rng rng(seed);
  int found = 0, missed_by_both = 0;
  for (int i = 0; i < 80; ++i) {
    const std::vector<Vec3> points = draw_hull_points(rng, i);
    const Polytope p(points);
    if (!p.has_interior_test()) continue;
    const Aabb box = p.local_aabb();
    const Vec3 size = box.max - box.min;
    for (int k = 0; k < 60; ++k) {
      const std::string where = "seed " + std::to_string(seed) + " hull " + std::to_string(i) + " segment " +
                                std::to_string(k);
      Vec3 from, to;
      for (int c = 0; c < 3; ++c) {
        from[c] = box.min[c] + size[c] * testgen::uniform(rng, -0.6, 1.6);
        to[c] = box.min[c] + size[c] * testgen::uniform(rng, -0.6, 1.6);
      }
      if (k % 4 == 0) to = p.vertices()[static_cast<std::size_t>(k) % p.vertices().size()];  // from a vertex
      const Vec3 e = to - from;
      bool sampled_inside = false;
      for (int s = 0; s <= 400 && !sampled_inside; ++s) sampled_inside = p.strictly_contains(from + (s / 400.0) * e);
      Vec3 x;
      const bool crossed = p.strictly_crossed_by(from, e, x);
      if (crossed) {
        ++found;
        EXPECT_TRUE(p.strictly_contains(x)) << where;
        // x on the segment: its offset from `from` is along e, within [0, 1] of it.
        const double t = (x - from).dot(e) / e.squaredNorm();
        EXPECT_GE(t, -1e-12) << where;
        EXPECT_LE(t, 1 + 1e-12) << where;
        EXPECT_LE((from + t * e - x).norm(), 1e-12 * (from.norm() + to.norm() + size.norm())) << where;
      } else {
        missed_by_both += !sampled_inside;
      }
      if (sampled_inside) {
        EXPECT_TRUE(crossed) << where;
      }
    }
    Vec3 x;
    EXPECT_FALSE(p.strictly_crossed_by(Vec3(kNaN, 0, 0), Vec3(1, 0, 0), x)) << i;
    EXPECT_FALSE(p.strictly_crossed_by(Vec3::Zero(), Vec3(0, kNaN, 0), x)) << i;
  }
  std::printf("segments crossing %d, missing %d\n", found, missed_by_both);
  EXPECT_GT(found, 500);
  EXPECT_GT(missed_by_both, 500);
  // A cube: through the middle, along a face (not strictly inside), outside, and with no interior test.
  const Polytope cube(testgen::box_corners(Vec3(1, 1, 1)));
  Vec3 x;
  EXPECT_TRUE(cube.strictly_crossed_by(Vec3(-3, 0.2, 0.1), Vec3(6, 0, 0), x));
  EXPECT_TRUE(cube.strictly_contains(x));
  EXPECT_FALSE(cube.strictly_crossed_by(Vec3(-3, 1, 0.1), Vec3(6, 0, 0), x));  // in the plane y = 1
  EXPECT_FALSE(cube.strictly_crossed_by(Vec3(-3, 2, 0), Vec3(6, 0, 0), x));
  EXPECT_FALSE(cube.strictly_crossed_by(Vec3(2, 0, 0), Vec3(1, 0, 0), x));  // the line crosses, not the segment
  const Polytope square({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 1, 0), Vec3(0, 1, 0)});
  EXPECT_FALSE(square.strictly_crossed_by(Vec3(0.5, 0.5, -1), Vec3(0, 0, 2), x));
}

// The AVX2 clip (detail::segment_inside_planes_avx2, what strictly_crossed_by runs on this CPU)
// against the portable loop, bit for bit: the same answer and the same t_lo, t_hi on random
// segments against the triangle planes of random hulls (plane counts 4 to ~200, so blocks of 8
// with and without a tail of 4), segments from a vertex, along a face's plane (n . e == 0 exactly:
// axis-aligned segments on a box), of zero length, and with NaN. The portable loop is the oracle
// the sampling test above checks on machines without AVX2.
TEST(PolytopeInterior, SegmentClipAvx2MatchesThePortableLoopBitForBit) {
  if (!proxima::detail::kPolytopeHaveAvx2) GTEST_SKIP() << "no AVX2 on this CPU";
  const std::uint64_t seed = 2026112926;
  Rng rng(seed);
  int compared = 0, inside = 0, parallel_cases = 0;
  for (int i = 0; i < 100; ++i) {
    const std::vector<Vec3> points = i % 10 == 0 ? testgen::box_corners(Vec3(1, 2, 3)) : draw_hull_points(rng, i);
    const Polytope p(points);
    if (p.dimension() != 3) continue;
    // The triangles' planes as the interior test lays them out: nx | ny | nz | offset, each padded
    // to a multiple of 4 with copies of plane 0.
    const auto& f = p.faces();
    const std::size_t padded = (f.size() + 3) / 4 * 4;
    std::vector<double> planes(4 * padded);
    for (std::size_t k = 0; k < padded; ++k) {
      const auto& t = f[k < f.size() ? k : 0];
      const Vec3& a = p.vertices()[static_cast<std::size_t>(t[0])];
      const Vec3 n = (p.vertices()[static_cast<std::size_t>(t[1])] - a)
                         .cross(p.vertices()[static_cast<std::size_t>(t[2])] - a)
                         .normalized();
      planes[k] = n.x();
      planes[padded + k] = n.y();
      planes[2 * padded + k] = n.z();
      planes[3 * padded + k] = n.dot(a);
    }
    const Aabb box = p.local_aabb();
    const Vec3 size = box.max - box.min;
    const double margin = i % 3 == 0 ? 0.0 : 1e-9 * size.norm();
    for (int k = 0; k < 200; ++k) {
      Vec3 from, to;
      for (int c = 0; c < 3; ++c) {
        from[c] = box.min[c] + size[c] * testgen::uniform(rng, -0.6, 1.6);
        to[c] = box.min[c] + size[c] * testgen::uniform(rng, -0.6, 1.6);
      }
      if (k % 5 == 0) from = p.vertices()[static_cast<std::size_t>(k) % p.vertices().size()];
      if (k % 7 == 0) to = from;  // zero length: n . e == 0 on every plane
      if (k % 11 == 0) {
        to = from;
        to[k % 3] += size[k % 3];  // axis-aligned: parallel to the box's faces
        ++parallel_cases;
      }
      if (k == 13) from.y() = kNaN;
      if (k == 17) to.z() = kNaN;
      const Vec3 e = to - from;
      double lo_p = -7, hi_p = -7, lo_v = -7, hi_v = -7;
      const bool portable =
          proxima::detail::segment_inside_planes_portable(planes.data(), padded, from, e, margin, lo_p, hi_p);
      const bool avx2 = proxima::detail::segment_inside_planes_avx2(planes.data(), padded, from, e, margin, lo_v, hi_v);
      const std::string where = "seed " + std::to_string(seed) + " hull " + std::to_string(i) + " segment " +
                                std::to_string(k);
      ASSERT_EQ(portable, avx2) << where;
      ++compared;
      if (portable) {
        ++inside;
        EXPECT_EQ(std::memcmp(&lo_p, &lo_v, sizeof lo_p), 0) << where << " lo " << lo_p << " " << lo_v;
        EXPECT_EQ(std::memcmp(&hi_p, &hi_v, sizeof hi_p), 0) << where << " hi " << hi_p << " " << hi_v;
      }
    }
  }
  std::printf("segments compared %d, with a part inside %d, axis-aligned %d\n", compared, inside, parallel_cases);
  EXPECT_GT(compared, 15000);
  EXPECT_GT(inside, 3000);
  EXPECT_GT(compared - inside, 3000);
}

// The support-edge test's fused AVX2 loops (support_edges_crossing_avx2, used by
// detail::support_edges_common_point) against its portable loops written out here as the header
// has them: the same side (A's edge, B's edge, none) and the same bits of the point, on every
// vertex of A with a random vertex of B, over pairs of hulls placed to overlap partly.
TEST(PolytopeInterior, SupportEdgesCrossingAvx2MatchesThePortableLoopsBitForBit) {
  if (!proxima::detail::kPolytopeHaveAvx2) GTEST_SKIP() << "no AVX2 on this CPU";
  const std::uint64_t seed = 2026113031;
  Rng rng(seed);
  const auto portable = [](const Polytope& a, const Polytope& b, const Pose& b_in_a, int ia, int ib, Vec3& x) {
    const std::vector<Vec3>& va = a.vertices();
    const std::vector<Vec3>& vb = b.vertices();
    const Vec3& pa = va[static_cast<std::size_t>(ia)];
    const Vec3 pa_in_b = b_in_a.apply_inverse(pa);
    for (const int j : a.neighbors(ia)) {
      if (b.strictly_crossed_by(pa_in_b, b_in_a.rotate_inverse(va[static_cast<std::size_t>(j)] - pa), x)) return 1;
    }
    const Vec3& pb = vb[static_cast<std::size_t>(ib)];
    const Vec3 pb_in_a = b_in_a.apply(pb);
    for (const int j : b.neighbors(ib)) {
      if (a.strictly_crossed_by(pb_in_a, b_in_a.rotate(vb[static_cast<std::size_t>(j)] - pb), x)) return 2;
    }
    return 0;
  };
  int compared = 0;
  int sides[3] = {0, 0, 0};
  for (int i = 0; i < 200; ++i) {
    const int na = 4 + i % 37;
    const int nb = 4 + (i * 7) % 41;
    const std::vector<Vec3> pa = testgen::ellipsoid_points(rng, na);
    const std::vector<Vec3> pb = i % 5 == 0 ? testgen::box_corners(Vec3(0.6, 0.4, 0.3)) : testgen::ellipsoid_points(rng, nb);
    const Polytope a(pa);
    const Polytope b(pb);
    if (!a.has_interior_test() || !b.has_interior_test()) continue;
    const Eigen::Vector4d q = testgen::random_quaternion(rng);
    const double reach = testgen::uniform(rng, 0.2, 2.0);
    const Vec3 dir = testgen::random_unit_vector(rng);
    const double scale = i % 4 == 0 ? testgen::log_uniform(rng, 1e-3, 1e4) : 1.0;
    const Pose b_in_a = Pose::from_quaternion(q[0], q[1], q[2], q[3], scale * reach * dir);
    // Scaled pairs: both hulls scaled alike keep the same overlap picture.
    const Polytope as = scale == 1.0 ? a : Polytope([&] {
      std::vector<Vec3> v = pa;
      for (Vec3& p : v) p *= scale;
      return v;
    }());
    const Polytope bs = scale == 1.0 ? b : Polytope([&] {
      std::vector<Vec3> v = pb;
      for (Vec3& p : v) p *= scale;
      return v;
    }());
    if (!as.has_interior_test() || !bs.has_interior_test()) continue;
    for (int ia = 0; ia < as.size(); ++ia) {
      const int ib = static_cast<int>(testgen::uniform(rng, 0, bs.size() - 0.5));
      Vec3 x_p = Vec3::Constant(-7), x_v = Vec3::Constant(-7);
      const int side_p = portable(as, bs, b_in_a, ia, ib, x_p);
      const int side_v = proxima::detail::support_edges_crossing_avx2(as, bs, b_in_a, ia, ib, x_v);
      const std::string where =
          "seed " + std::to_string(seed) + " pair " + std::to_string(i) + " vertices " + std::to_string(ia) + ", " + std::to_string(ib);
      ASSERT_EQ(side_p, side_v) << where;
      if (side_p != 0) {
        EXPECT_EQ(std::memcmp(x_p.data(), x_v.data(), sizeof(double) * 3), 0) << where;
      }
      ++compared;
      ++sides[side_p];
    }
  }
  std::printf("vertex pairs compared %d: none %d, A's edge %d, B's edge %d\n", compared, sides[0], sides[1], sides[2]);
  EXPECT_GT(compared, 3000);
  EXPECT_GT(sides[1], 300);
  EXPECT_GT(sides[2], 100);
  EXPECT_GT(sides[0], 300);
}

TEST(PolytopeInterior, NotOfferedForFlatCollinearOrLargeHulls) {
  const Polytope square({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 1, 0), Vec3(0, 1, 0)});
  const Polytope segment({Vec3(0, 0, 0), Vec3(1, 2, 3)});
  Rng rng(5);
  const Polytope large(testgen::ellipsoid_points(rng, 600));  // about 1,200 triangles
  for (const Polytope* p : {&square, &segment, &large}) {
    EXPECT_FALSE(p->has_interior_test());
    EXPECT_FALSE(p->strictly_contains(Vec3(0.5, 0.5, 0)));
    EXPECT_FALSE(p->strictly_contains(Vec3::Zero()));
  }
  EXPECT_GT(static_cast<int>(large.faces().size()), kPolytopeInteriorTestMaxPlanes);
  // A solid within the limit has it, and its centre is inside.
  const Polytope cube(testgen::box_corners(Vec3(1, 1, 1)));
  EXPECT_TRUE(cube.has_interior_test());
  EXPECT_TRUE(cube.strictly_contains(Vec3::Zero()));
  EXPECT_TRUE(cube.strictly_contains(Vec3(0.999999, -0.999999, 0.5)));
  EXPECT_FALSE(cube.strictly_contains(Vec3(1, 0, 0)));  // on a face
  EXPECT_FALSE(cube.strictly_contains(Vec3(1.000001, 0, 0)));
}

// The planes live in the shared block after the vertex coordinates and are read through the
// Polytope's own coordinate pointer: copies and moves (also through a vector's reallocation) must
// keep both the interior test and the supports of the original.
TEST(PolytopeInterior, CopiesAndMovesKeepTheTestAndTheSupports) {
  Rng rng(7);
  const Polytope original(testgen::ellipsoid_points(rng, 40));
  ASSERT_TRUE(original.has_interior_test());
  Polytope copy = original;
  std::vector<Polytope> moved;
  moved.push_back(std::move(copy));
  for (int i = 0; i < 8; ++i) moved.push_back(original);  // reallocations move the elements
  int inside = 0;
  for (int k = 0; k < 2000; ++k) {
    const Vec3 x{testgen::uniform(rng, -1.2, 1.2), testgen::uniform(rng, -1.2, 1.2), testgen::uniform(rng, -1.2, 1.2)};
    const Vec3 d = testgen::random_unit_vector(rng);
    const bool expected = original.strictly_contains(x);
    inside += expected ? 1 : 0;
    for (const Polytope& p : moved) {
      ASSERT_EQ(p.strictly_contains(x), expected) << k;
      ASSERT_EQ(p.support_index(d), original.support_index(d)) << k;
      ASSERT_EQ(p.support(d), original.vertices()[static_cast<std::size_t>(original.scan(d))]) << k;
    }
  }
  EXPECT_GT(inside, 100);  // both answers occur
  EXPECT_LT(inside, 1900);
}

bool same_bits(double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; }
bool same_bits(const Vec3& x, const Vec3& y) { return std::memcmp(x.data(), y.data(), 3 * sizeof(double)) == 0; }

/// Every field of two distance answers, bit for bit ("" when equal).
std::string difference(const DistanceResult& x, const DistanceResult& y) {
  if (!same_bits(x.distance, y.distance)) return "distance";
  if (x.intersect != y.intersect) return "intersect";
  if (!same_bits(x.point_a, y.point_a) || !same_bits(x.point_b, y.point_b)) return "witness points";
  if (!same_bits(x.normal, y.normal)) return "normal";
  if (!same_bits(x.gap, y.gap)) return "gap";
  if (x.iterations != y.iterations) return "iterations";
  if (x.status != y.status || x.detail != y.detail) return "status";
  return "";
}
std::string difference(const IntersectResult& x, const IntersectResult& y) {
  if (x.intersect != y.intersect) return "intersect";
  if (!same_bits(x.separating_axis, y.separating_axis)) return "separating axis";
  if (x.iterations != y.iterations) return "iterations";
  if (x.status != y.status || x.detail != y.detail) return "status";
  return "";
}


/// Distance from the world point to the placed shape (GJK on a Point: a second algorithm).
template <class S>
double distance_to(const S& shape, const Pose& pose, const Vec3& world) {
  return distance(Point(world), Pose(), shape, pose).distance;
}

/// What the first support pair did on the pairs checked so far.
struct Tally {
  int answered = 0, left_to_gjk = 0, separated = 0, climbing_answered = 0;
  int neighbour_answered = 0;  // by the second / third farthest vertices (two polytopes, distance())
  int edge_answered = 0;       // by the edges at the support vertices (two polytopes, distance())
};

int vertex_count(const Polytope& p) { return p.size(); }
template <class S>
int vertex_count(const S&) {
  return 0;
}

/// distance() and intersect() with the test and without it on one placed pair: a pair it answers
/// has a common point within rounding of both solids and GJK finds the overlap too; any other
/// pair gets the answers without the test, bit for bit.
template <class A, class B>
void check_pair(const A& a, const Pose& pa, const B& b, const Pose& pb, double scale, const std::string& where,
                Tally& tally) {
  const GjkOptions off{.first_support_overlap = false};
  // The first support pair alone here; the next farthest vertices (two polytopes) at the end.
  const GjkOptions first_only{.neighbour_support_overlap = false, .support_edge_overlap = false};
  const DistanceResult on = distance(a, pa, b, pb, first_only);
  const DistanceResult without = distance(a, pa, b, pb, off);
  const IntersectResult on_i = intersect(a, pa, b, pb);
  const IntersectResult without_i = intersect(a, pa, b, pb, off);
  // World coordinates round to about an ulp of the translations (up to 1e5 here, with bodies
  // down to 1e-3): the common point's checks allow for that.
  const double allowance =
      1e-12 * scale + 64 * std::numeric_limits<double>::epsilon() * (pa.translation().norm() + pb.translation().norm());
  if (on.intersect && on.iterations == 0) {
    ++tally.answered;
    tally.climbing_answered += vertex_count(a) >= kPolytopeHillClimbMinVertices ||
                               vertex_count(b) >= kPolytopeHillClimbMinVertices;
    // The common point is in both solids (to rounding), and GJK alone finds the overlap.
    EXPECT_TRUE(same_bits(on.point_a, on.point_b)) << where;
    EXPECT_LE(distance_to(a, pa, on.point_a), allowance) << where;
    EXPECT_LE(distance_to(b, pb, on.point_a), allowance) << where;
    EXPECT_TRUE(without.intersect) << where << " gjk distance " << without.distance;
    EXPECT_EQ(on.distance, 0) << where;
    EXPECT_EQ(on.detail, Detail::origin_enclosed) << where;
    // intersect() makes the same test on the same support pair.
    EXPECT_TRUE(on_i.intersect) << where;
    EXPECT_EQ(on_i.iterations, 0) << where;
    EXPECT_TRUE(without_i.intersect) << where;
  } else {
    // Not answered: the run starts from that support point, which is GJK's own first one.
    (on.intersect ? tally.left_to_gjk : tally.separated) += 1;
    EXPECT_EQ(difference(on, without), "") << where;
    EXPECT_EQ(difference(on_i, without_i), "") << where;
  }
  EXPECT_EQ(on_i.intersect, on.intersect) << where;
  // The warm overload on a cold WarmStart takes the same test.
  WarmStart warm;
  EXPECT_EQ(difference(distance(a, pa, b, pb, first_only, warm), on), "") << where;
  // distance() without the edge test: on two polytopes the second and third farthest vertices are
  // tested too when the first pair found nothing. A pair they answer has a common point within
  // rounding of both solids and GJK finds the overlap; any other pair gets the first pair's
  // answer, bit for bit (and intersect() keeps the first pair alone).
  const DistanceResult vertices = distance(a, pa, b, pb, GjkOptions{.support_edge_overlap = false});
  const auto check_common_point = [&](const DistanceResult& r) {
    EXPECT_TRUE((std::is_same_v<A, Polytope> && std::is_same_v<B, Polytope>)) << where;
    EXPECT_TRUE(same_bits(r.point_a, r.point_b)) << where;
    EXPECT_LE(distance_to(a, pa, r.point_a), allowance) << where;
    EXPECT_LE(distance_to(b, pb, r.point_a), allowance) << where;
    EXPECT_TRUE(without.intersect) << where << " gjk distance " << without.distance;
    EXPECT_EQ(r.distance, 0) << where;
    EXPECT_EQ(r.gap, 0) << where;
    EXPECT_EQ(r.detail, Detail::origin_enclosed) << where;
    EXPECT_TRUE(on.intersect) << where;
  };
  const bool first_answered = on.intersect && on.iterations == 0;
  const bool vertices_answered = vertices.intersect && vertices.iterations == 0;
  if (vertices_answered && !first_answered) {
    ++tally.neighbour_answered;
    check_common_point(vertices);
  } else {
    EXPECT_EQ(difference(vertices, on), "") << where;
  }
  // distance() with the defaults: then the edges at the two support vertices, clipped against the
  // other body. Same checks on the pairs they answer; the others keep the answer above, bit for bit.
  const DistanceResult both = distance(a, pa, b, pb);
  if (both.intersect && both.iterations == 0 && !vertices_answered) {
    ++tally.edge_answered;
    check_common_point(both);
  } else {
    EXPECT_EQ(difference(both, vertices), "") << where;
  }
  WarmStart warm_both;
  EXPECT_EQ(difference(distance(a, pa, b, pb, GjkOptions{}, warm_both), both), "") << where;
}

void check_polytopes(const testgen::PairCase& c, const std::string& where, Tally& tally) {
  const double scale = c.a.bounding_radius() + c.b.bounding_radius() +
                       (c.pose_a.translation - c.pose_b.translation).norm();
  check_pair(Polytope(c.a.vertices), c.pose_a.pose(), Polytope(c.b.vertices), c.pose_b.pose(), scale, where, tally);
}

TEST(PolytopeOverlap, FirstSupportPairCommonPointsLieInBothAndElseGjkIsUnchanged) {
  const std::uint64_t seed = 20261128;
  Rng rng(seed);
  Tally tally;
  for (int i = 0; i < 1500; ++i) {
    static constexpr int kSizes[] = {4, 8, 16, 32, 64, 120};
    const int na = kSizes[i % 6], nb = kSizes[(i / 6) % 6];
    const testgen::ShapeSpec spec_a = testgen::polytope_spec(testgen::ellipsoid_points(rng, na));
    const testgen::ShapeSpec spec_b = testgen::polytope_spec(testgen::ellipsoid_points(rng, nb, Vec3(0.6, 0.9, 0.4)));
    const testgen::PairCase c = testgen::place_pair(rng, "pair", spec_a, spec_b);
    check_polytopes(c, "seed " + std::to_string(seed) + " pair " + std::to_string(i), tally);
  }
  // The nasty cases (touching exactly, coplanar, flat, needles, nested, duplicates), each moved
  // at random several times.
  for (const testgen::NastyCase& n : testgen::nasty_polytope_cases(rng)) {
    for (int k = 0; k < 20; ++k) {
      check_polytopes(testgen::randomly_moved(rng, n.pair),
                      "seed " + std::to_string(seed) + " " + n.pair.label + " move " + std::to_string(k), tally);
    }
  }
  std::printf("answered by the first support pair %d (%d with a climbing hull), overlapping left to GJK %d "
              "(of them answered by the next farthest vertices %d, by the support vertices' edges %d), separated %d\n",
              tally.answered, tally.climbing_answered, tally.left_to_gjk, tally.neighbour_answered, tally.edge_answered,
              tally.separated);
  EXPECT_GT(tally.answered, 400);
  EXPECT_GT(tally.climbing_answered, 50);
  EXPECT_GT(tally.left_to_gjk, 80);
  EXPECT_GT(tally.separated, 600);
  EXPECT_GT(tally.neighbour_answered, 10);
  EXPECT_GT(tally.edge_answered, 10);
}

TEST(PolytopeOverlap, NextFarthestVerticesAreTheSecondAndThirdByProjection) {
  // detail::next_farthest walks the hull's edges from the farthest vertex: on random hulls and
  // directions its two vertices have the second and third largest projections (brute force).
  const std::uint64_t seed = 20261129;
  Rng rng(seed);
  int checked = 0;
  for (int i = 0; i < 400; ++i) {
    const Polytope p(testgen::ellipsoid_points(rng, 4 + static_cast<int>(rng() % 60)));
    const Vec3 d{testgen::uniform(rng, -1, 1), testgen::uniform(rng, -1, 1), testgen::uniform(rng, -1, 1)};
    const std::vector<Vec3>& v = p.vertices();
    std::vector<double> proj;
    int top = 0;
    for (std::size_t k = 0; k < v.size(); ++k) {
      proj.push_back(d.dot(v[k]));
      if (proj.back() > proj[static_cast<std::size_t>(top)]) top = static_cast<int>(k);
    }
    const detail::NextFarthest nf = detail::next_farthest(p, top, d);
    std::vector<double> sorted = proj;
    std::sort(sorted.begin(), sorted.end(), std::greater<>());
    const std::string where = "seed " + std::to_string(seed) + " hull " + std::to_string(i);
    ASSERT_GE(nf.second, 0) << where;
    EXPECT_NE(nf.second, top) << where;
    EXPECT_EQ(proj[static_cast<std::size_t>(nf.second)], sorted[1]) << where;
    if (v.size() >= 3) {
      ASSERT_GE(nf.third, 0) << where;
      EXPECT_NE(nf.third, top) << where;
      EXPECT_NE(nf.third, nf.second) << where;
      EXPECT_EQ(proj[static_cast<std::size_t>(nf.third)], sorted[2]) << where;
    }
    ++checked;
  }
  EXPECT_EQ(checked, 400);
}

/// A proxima shape from its generator spec (the kinds with an interior test).
template <class S>
S make(const testgen::ShapeSpec& s);
template <>
Polytope make<Polytope>(const testgen::ShapeSpec& s) { return Polytope(s.vertices); }
template <>
Box make<Box>(const testgen::ShapeSpec& s) { return Box(s.semiaxes); }
template <>
Ellipsoid make<Ellipsoid>(const testgen::ShapeSpec& s) { return Ellipsoid(s.semiaxes); }
template <>
Cylinder make<Cylinder>(const testgen::ShapeSpec& s) { return Cylinder(s.radius, s.half_length); }
template <>
Cone make<Cone>(const testgen::ShapeSpec& s) { return Cone(s.radius, s.half_length); }

template <class S>
testgen::ShapeSpec draw_spec(Rng& rng);
template <>
testgen::ShapeSpec draw_spec<Polytope>(Rng& rng) {
  return testgen::polytope_spec(testgen::ellipsoid_points(rng, 4 + static_cast<int>(rng() % 40)));
}
template <>
testgen::ShapeSpec draw_spec<Box>(Rng& rng) {
  return testgen::box_spec(Vec3{testgen::uniform(rng, 0.2, 1), testgen::uniform(rng, 0.2, 1), testgen::uniform(rng, 0.2, 1)});
}
template <>
testgen::ShapeSpec draw_spec<Ellipsoid>(Rng& rng) {
  return testgen::ellipsoid_spec(Vec3{testgen::uniform(rng, 0.2, 1), testgen::uniform(rng, 0.2, 1), testgen::uniform(rng, 0.2, 1)});
}
template <>
testgen::ShapeSpec draw_spec<Cylinder>(Rng& rng) {
  return testgen::random_smooth_spec(rng, testgen::ShapeKind::cylinder);
}
template <>
testgen::ShapeSpec draw_spec<Cone>(Rng& rng) {
  return testgen::random_smooth_spec(rng, testgen::ShapeKind::cone);
}

template <class A, class B>
Tally check_mixed(Rng& rng, std::uint64_t seed, const char* name, int pairs) {
  static_assert(has_first_support_overlap<A, B>);
  Tally tally;
  for (int i = 0; i < pairs; ++i) {
    const testgen::ShapeSpec spec_a = draw_spec<A>(rng);
    const testgen::ShapeSpec spec_b = draw_spec<B>(rng);
    const testgen::PairCase c = testgen::place_pair(rng, name, spec_a, spec_b);
    const double scale = c.a.bounding_radius() + c.b.bounding_radius() +
                         (c.pose_a.translation - c.pose_b.translation).norm();
    check_pair(make<A>(c.a), c.pose_a.pose(), make<B>(c.b), c.pose_b.pose(), scale,
               "seed " + std::to_string(seed) + " " + name + " pair " + std::to_string(i), tally);
  }
  std::printf("%-20s answered %d, overlapping left to GJK %d, separated %d\n", name, tally.answered,
              tally.left_to_gjk, tally.separated);
  // Every kind of pair gets answers of both kinds in numbers, so each shape's interior test and
  // the run from the support point are exercised.
  EXPECT_GT(tally.answered, pairs / 10) << name;
  EXPECT_GT(tally.separated, pairs / 5) << name;
  return tally;
}

TEST(FirstSupportOverlap, MixedSolidsCommonPointsLieInBothAndElseGjkIsUnchanged) {
  const std::uint64_t seed = 2026112820;
  Rng rng(seed);
  // Cylinder / cone pairs have their own search (RevolutionOverlap tests); the box and ellipsoid
  // pairs keep it behind their pre-passes (Box-Box's separating axes, Ellipsoid-Ellipsoid's
  // Newton), so they are not drawn here.
  static_assert(!has_first_support_overlap<Cylinder, Cone>);
  static_assert(!has_first_support_overlap<Sphere, Polytope>);  // rounded: GJK on the core
  Tally left;
  const auto add = [&](const Tally& t) { left.left_to_gjk += t.left_to_gjk; };
  add(check_mixed<Polytope, Box>(rng, seed, "polytope-box", 400));
  add(check_mixed<Box, Polytope>(rng, seed, "box-polytope", 400));
  add(check_mixed<Polytope, Ellipsoid>(rng, seed, "polytope-ellipsoid", 400));
  add(check_mixed<Ellipsoid, Box>(rng, seed, "ellipsoid-box", 400));
  add(check_mixed<Box, Cylinder>(rng, seed, "box-cylinder", 400));
  add(check_mixed<Cone, Polytope>(rng, seed, "cone-polytope", 400));
  add(check_mixed<Ellipsoid, Cone>(rng, seed, "ellipsoid-cone", 400));
  add(check_mixed<Cylinder, Ellipsoid>(rng, seed, "cylinder-ellipsoid", 400));
  EXPECT_GT(left.left_to_gjk, 100);  // shallow overlaps the test leaves to GJK, in numbers
}

}  // namespace
}  // namespace proxima::gjk
