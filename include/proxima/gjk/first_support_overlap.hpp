// SPDX-License-Identifier: MIT
// A common point of two overlapping solids found in GJK's first support pair, before the loop:
// gjk::distance and gjk::intersect answer such a pair with it and skip GJK (option
// GjkOptions::first_support_overlap, cold starts only). For the pairs of solids with an interior
// test below (Polytope, Box, Ellipsoid, Cylinder, Cone, in any combination) but the cylinder / cone
// pairs, whose own search (gjk/revolution_overlap.hpp) tests their support pair the same way after
// the axes; not for rounded shapes (Sphere, Capsule, Rounded: GJK runs on their cores).
//
// Why: GJK proves an overlap only by enclosing the origin in a tetrahedron of support points, 3-6
// iterations (a support call and a sub-distance step each), while on overlapping pairs one of the
// first two support points usually lies inside the other body: A's farthest point towards B
// inside B, or B's farthest point towards A inside A. On the benchmark's polytope rows that is 80
// of 142 overlapping pairs at N = 8, 116 of 135 at N = 32, 133 of 140 at N = 128
// (docs/benchmarks.md, session 19).
//
// The test: the cold run's first support point w = a - b is made in the run's first direction d
// (first_direction: from A's bounding-sphere centre towards B's), as the run would make it. When
// d . w <= 0 the support plane already shows the pair apart (or touching): no test. Otherwise b
// (A's frame) is tested strictly inside A, then a (B's frame) strictly inside B. A true answer is
// a point of both solids (up to the rounding of its coordinates, far inside GJK's contact band):
// the pair overlaps, and that point is distance()'s common point. A false answer concludes
// nothing: the run then starts from that support point, which is the point it would have made
// first, so the run is the one without the test, bit for bit. Touching pairs (no interior point in
// common) are left to GJK's contact band.
//
// Cost on a pair it does not answer: two point-in-solid tests (for a Polytope, one pass over its
// triangles' planes that leaves at the first block of 8 planes the point is outside of); nothing
// when the first support plane shows the pair apart.
#pragma once

#include <proxima/core/pose.hpp>
#include <proxima/core/types.hpp>
#include <proxima/gjk/minkowski_difference.hpp>
#include <proxima/gjk/revolution_polish.hpp>
#include <proxima/shapes/box.hpp>
#include <proxima/shapes/cone.hpp>
#include <proxima/shapes/cylinder.hpp>
#include <proxima/shapes/ellipsoid.hpp>
#include <proxima/shapes/polytope.hpp>

#include <cmath>
#include <concepts>
#include <limits>
#include <vector>

namespace proxima::gjk {

namespace detail {

/// Is the local point strictly inside the solid? False on the surface and for NaN. Polytope:
/// Polytope::strictly_contains (inside every hull triangle's plane by a margin that covers the
/// planes' rounding; false for flat or large hulls). The others by their equations, exact up to the
/// rounding of the point itself.
inline bool strictly_inside(const Polytope& p, const Vec3& x) { return p.strictly_contains(x); }
inline bool strictly_inside(const Box& b, const Vec3& x) {
  const Vec3& h = b.half_extents();
  return std::abs(x.x()) < h.x() && std::abs(x.y()) < h.y() && std::abs(x.z()) < h.z();
}
inline bool strictly_inside(const Ellipsoid& e, const Vec3& x) {
  const Vec3& a = e.semiaxes();
  const double u = x.x() / a.x(), v = x.y() / a.y(), w = x.z() / a.z();
  return u * u + v * v + w * w < 1;
}
inline bool strictly_inside(const Cylinder& c, const Vec3& p) {
  return std::abs(p.z()) < c.half_height() && p.x() * p.x() + p.y() * p.y() < c.radius() * c.radius();
}
inline bool strictly_inside(const Cone& c, const Vec3& p) {
  // Below the apex and above the base, and nearer the axis than the side's radius at height z,
  // R (h - z) / (2 h), squared and multiplied out (no division).
  const double h = c.half_height();
  const double above = h - p.z();
  const double r = c.radius() * above;
  return p.z() > -h && above > 0 && (p.x() * p.x() + p.y() * p.y()) * (4 * h * h) < r * r;
}

/// Shapes with an interior test above.
template <class S>
inline constexpr bool has_interior_test = requires(const S& s, const Vec3& x) {
  { strictly_inside(s, x) } -> std::same_as<bool>;
};

}  // namespace detail

/// True for the pairs distance() and intersect() test GJK's first support pair on: both shapes
/// have an interior test, and the pair is not a cylinder / cone pair (their own search,
/// gjk/revolution_overlap.hpp, makes the same test).
template <class A, class B>
inline constexpr bool has_first_support_overlap =
    detail::has_interior_test<A> && detail::has_interior_test<B> && !has_revolution_polish<A, B>;

namespace detail {

/// GJK's first support point of a cold run (A's frame), made before the loop to be tested for a
/// common point (first_support_common_point here; support_pair_common_point for cylinder / cone
/// pairs, revolution_overlap_search), and the direction it was taken in. When the test finds none,
/// the run starts from it.
struct FirstSupport {
  SupportPoint point{};
  Vec3 direction = nan_vec3();
  bool made = false;
};

/// Is one of GJK's first support points `s` (made in direction d, A's frame; b_in_a: B's pose in
/// A's frame: a Pose, or anything with an apply_inverse member of Pose's arithmetic, such as an
/// element of the batch kernels' pose groups) strictly inside the other solid? True with that point
/// (A's frame) in `common`.
template <class A, class B, class Frame>
bool first_support_common_point(const A& a, const B& b, const Frame& b_in_a, const Vec3& d, const SupportPoint& s,
                                Vec3& common) {
  // d . w <= 0: the plane through w normal to d has all of A - B on or behind it, so the origin
  // is not inside A - B (apart or touching): no common interior point, no test. False on NaN too.
  if (!(d.dot(s.w) > 0)) return false;
  if (strictly_inside(a, s.b)) {
    common = s.b;
    return true;
  }
  if (strictly_inside(b, b_in_a.apply_inverse(s.a))) {
    common = s.a;
    return true;
  }
  return false;
}

/// Hulls with fewer vertices than this (either body) skip neighbour_support_common_point: at 8
/// vertices the test cost the separated pairs 6-8% and moved no row median (the bench's N = 8
/// distance row read 1.05x slower), from 12 up the rows' medians fell (N = 12 0.85x, 16 0.52x,
/// 32 0.57x) for 1-5% on the separated pairs (docs/benchmarks.md, session 24).
inline constexpr int kNeighbourSupportMinVertices = 12;

/// The second and third farthest vertices of p along d (p's frame) after vertex `top`, the
/// farthest: on a convex hull the vertices above any level along d form a connected part of the
/// hull's edge graph, so the second is the best neighbour of `top` and the third the best
/// neighbour of either (ties aside). -1 where there is none or no product is a number above -inf.
struct NextFarthest {
  int second = -1;
  int third = -1;
};
inline NextFarthest next_farthest(const Polytope& p, int top, const Vec3& d) {
  constexpr double kMinusInf = -std::numeric_limits<double>::infinity();
  const std::vector<Vec3>& v = p.vertices();
  NextFarthest r;
  double first = kMinusInf;
  double runner_up = kMinusInf;
  for (const int j : p.neighbors(top)) {
    const double x = d.dot(v[static_cast<std::size_t>(j)]);
    if (x > first) {
      runner_up = first;
      r.third = r.second;
      first = x;
      r.second = j;
    } else if (x > runner_up) {
      runner_up = x;
      r.third = j;
    }
  }
  if (r.second < 0) return r;
  for (const int j : p.neighbors(r.second)) {
    if (j == top) continue;
    const double x = d.dot(v[static_cast<std::size_t>(j)]);
    if (x > runner_up) {
      runner_up = x;
      r.third = j;
    }
  }
  return r;
}

/// Two polytopes whose first support pair (first_support_common_point, made in direction d, A's
/// frame; `index_a`, `index_b` its two vertices, `s` the support point) had no common point: the
/// second, then the third farthest vertex of each along the same direction (next_farthest: B's
/// towards A, then A's towards B) tested strictly inside the other body, as the support pair was.
/// True with that point (A's frame) in `common`. Nothing when the support plane shows the pair
/// apart (d . w <= 0), a body has no interior test or fewer than kNeighbourSupportMinVertices
/// vertices. Why: on the overlapping pairs the first pair
/// leaves, one of these vertices is often inside the other body (docs/benchmarks.md, session 24:
/// 12 of the 19 such pairs at N = 32; 22 of 62 at N = 8, below the size limit), for a few products
/// and at most four point-in-hull passes, against GJK's 3-5 iterations.
inline bool neighbour_support_common_point(const Polytope& a, const Polytope& b, const Pose& b_in_a, const Vec3& d,
                                           const SupportPoint& s, int index_a, int index_b, Vec3& common) {
  if (a.size() < kNeighbourSupportMinVertices || b.size() < kNeighbourSupportMinVertices || !(d.dot(s.w) > 0) ||
      index_a < 0 || index_b < 0 || !a.has_interior_test() || !b.has_interior_test()) {
    return false;
  }
  const NextFarthest nb = next_farthest(b, index_b, b_in_a.rotate_inverse(-d));
  const NextFarthest na = next_farthest(a, index_a, d);
  const std::vector<Vec3>& vb = b.vertices();
  const std::vector<Vec3>& va = a.vertices();
  for (int k = 0; k < 2; ++k) {
    const int jb = k == 0 ? nb.second : nb.third;
    if (jb >= 0) {
      const Vec3 x = b_in_a.apply(vb[static_cast<std::size_t>(jb)]);
      if (a.strictly_contains(x)) {
        common = x;
        return true;
      }
    }
    const int ja = k == 0 ? na.second : na.third;
    if (ja >= 0) {
      const Vec3& x = va[static_cast<std::size_t>(ja)];
      if (b.strictly_contains(b_in_a.apply_inverse(x))) {
        common = x;
        return true;
      }
    }
  }
  return false;
}

/// Two polytopes whose first support pair (made in direction d, A's frame; `index_a`, `index_b`
/// its vertices, `s` the support point) and its next farthest vertices had no common point: the
/// hull edges at A's support vertex, clipped against B's triangle planes, then B's edges at its
/// support vertex against A's (Polytope::strictly_crossed_by). A point of an edge strictly inside
/// the other body is a common point (on one body's boundary, inside the other by the interior
/// test's margin, which covers the rounding of the change of frame): true with it (A's frame) in
/// `common`. Nothing when the support plane shows the pair apart (d . w <= 0) or a body has no
/// interior test. Why: the overlaps these tests leave to GJK are shallow edge crossings near the
/// support vertices, and on the bench's sets the support vertices' own edges reach every one of
/// them (docs/benchmarks.md, session 25: 62 of 62 at N = 8, 7 of 7 at N = 32, 1 of 1 at N = 128,
/// no false answer), for one pass over the planes per edge against GJK's 3-5 iterations.
inline bool support_edges_common_point(const Polytope& a, const Polytope& b, const Pose& b_in_a, const Vec3& d,
                                       const SupportPoint& s, int index_a, int index_b, Vec3& common) {
  if (!(d.dot(s.w) > 0) || index_a < 0 || index_b < 0 || !a.has_interior_test() || !b.has_interior_test()) {
    return false;
  }
  Vec3 x;
  if (proxima::detail::kPolytopeHaveAvx2) {
    // The same loops in one call (the same bits): shapes/polytope.hpp.
    const int side = proxima::detail::support_edges_crossing_avx2(a, b, b_in_a, index_a, index_b, x);
    if (side == 0) return false;
    common = side == 1 ? b_in_a.apply(x) : x;
    return true;
  }
  const std::vector<Vec3>& va = a.vertices();
  const std::vector<Vec3>& vb = b.vertices();
  const Vec3& pa = va[static_cast<std::size_t>(index_a)];
  const Vec3 pa_in_b = b_in_a.apply_inverse(pa);
  for (const int j : a.neighbors(index_a)) {
    if (b.strictly_crossed_by(pa_in_b, b_in_a.rotate_inverse(va[static_cast<std::size_t>(j)] - pa), x)) {
      common = b_in_a.apply(x);
      return true;
    }
  }
  const Vec3& pb = vb[static_cast<std::size_t>(index_b)];
  const Vec3 pb_in_a = b_in_a.apply(pb);
  for (const int j : b.neighbors(index_b)) {
    if (a.strictly_crossed_by(pb_in_a, b_in_a.rotate(vb[static_cast<std::size_t>(j)] - pb), x)) {
      common = x;
      return true;
    }
  }
  return false;
}

}  // namespace detail

}  // namespace proxima::gjk
