// SPDX-License-Identifier: MIT
// Exact distance oracle for convex polytopes given by their points (tests only).
//
// The distance between conv(A) and conv(B) of two finite 3-D point sets, solved as a quadratic
// program (convex weights of the points, minimise the squared difference) in exact arithmetic by
// CGAL's QP solver (Gmpzf number type): no hull is built, duplicate, coplanar and interior points
// are fine. The input doubles are taken as exact
// values, so the answer is the exact distance of the polytopes whose vertices are those doubles;
// only the final conversion to double rounds (to nearest, through MPFR).
//
// Cost: an exact QP, roughly milliseconds for tens of points and tens of milliseconds for a
// thousand; do not call it in a hot loop. Shares no code with proxima (it is the independent
// check of gjk::distance).
#pragma once

#ifdef PROXIMA_HAVE_CGAL

#include <proxima/core/types.hpp>

#include <span>

namespace proxima::oracles {

/// The exact answer, rounded to double at the very end.
struct ExactDistance {
  /// Squared distance, correctly rounded from the exact rational.
  double squared_distance = kNaN;
  /// Distance, correctly rounded from the square root of the exact rational.
  double distance = kNaN;
  /// One pair of realizing points (each rounded to nearest per coordinate): |point_b - point_a|
  /// equals the distance. Not unique when the closest features are parallel.
  Vec3 point_a = nan_vec3();
  Vec3 point_b = nan_vec3();
  /// Exact: the hulls share a point (the squared distance is exactly 0).
  bool intersect = false;
};

/// Exact distance between conv(points_a) and conv(points_b). Both spans must be non-empty and
/// finite (the oracle is for tests: it asserts via std::invalid_argument otherwise).
ExactDistance cgal_polytope_distance(std::span<const Vec3> points_a, std::span<const Vec3> points_b);

/// Exact distance from one point to conv(points): a convenience for membership checks (0 means
/// the point lies in the hull, exactly).
ExactDistance cgal_point_polytope_distance(const Vec3& point, std::span<const Vec3> points);

}  // namespace proxima::oracles

#endif  // PROXIMA_HAVE_CGAL
