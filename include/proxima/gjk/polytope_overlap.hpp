// SPDX-License-Identifier: MIT
// A common point of two overlapping polytopes found in GJK's first support pair, before the loop:
// gjk::distance and gjk::intersect answer such a pair with it and skip GJK (option
// GjkOptions::polytope_overlap, cold starts only).
//
// Why: GJK proves an overlap only by enclosing the origin in a tetrahedron of support points, 3-6
// iterations (a support call and a sub-distance step each), while on overlapping pairs one of the
// first two support points usually lies inside the other body: A's farthest vertex towards B
// inside B, or B's farthest vertex towards A inside A. On the benchmark's polytope rows that is 80
// of 142 overlapping pairs at N = 8, 116 of 135 at N = 32, 133 of 140 at N = 128
// (docs/benchmarks.md, session 19).
//
// The test: the cold run's first support point w = a - b is made in the run's first direction d
// (first_direction: from A's bounding-sphere centre towards B's), as the run would make it. When
// d . w <= 0 the support plane already shows the pair apart (or touching): no test. Otherwise b
// (A's frame) is tested inside A, then a (B's frame) inside B, by Polytope::strictly_contains,
// which answers true only for points inside the hull by a margin that covers its planes'
// rounding. So a true answer is a point of both bodies: the pair overlaps, and that point is
// distance()'s common point. A false answer concludes nothing: the run then starts from that
// support point, which is the point it would have made first, so the run is the one without the
// test, bit for bit. Touching pairs (no interior point in common) are always left to GJK's
// contact band.
//
// Cost on a pair it does not answer: at most two passes over the hulls' planes (each leaves at
// the first block of 8 planes the point is outside of; a point inside reads them all); nothing
// when the first support plane shows the pair apart.
#pragma once

#include <proxima/core/pose.hpp>
#include <proxima/core/types.hpp>
#include <proxima/gjk/minkowski_difference.hpp>
#include <proxima/shapes/polytope.hpp>

#include <type_traits>

namespace proxima::gjk {

/// True for the pairs the first-support-pair test runs on: two Polytopes.
template <class A, class B>
inline constexpr bool has_polytope_overlap = std::is_same_v<A, Polytope> && std::is_same_v<B, Polytope>;

namespace detail {

/// Is one of GJK's first support points `s` (made in direction d, A's frame; b_in_a: B's pose in
/// A's frame) strictly inside the other polytope? True with that point (A's frame) in `common`.
inline bool first_support_common_point(const Polytope& a, const Polytope& b, const Pose& b_in_a, const Vec3& d,
                                       const SupportPoint& s, Vec3& common) {
  // d . w <= 0: the plane through w normal to d has all of A - B on or behind it, so the origin
  // is not inside A - B (apart or touching): no common interior point, no test. False on NaN too.
  if (!(d.dot(s.w) > 0)) return false;
  if (a.strictly_contains(s.b)) {
    common = s.b;
    return true;
  }
  if (b.strictly_contains(b_in_a.apply_inverse(s.a))) {
    common = s.a;
    return true;
  }
  return false;
}

}  // namespace detail

}  // namespace proxima::gjk
