// SPDX-License-Identifier: MIT
// Exact penetration-depth oracle for two small convex polytopes (tests only).
//
// The Minkowski difference M = conv(A) - conv(B) is the hull of all pairwise differences
// a_i - b_j. It is built by CGAL's convex_hull_3 over an exact kernel (the differences themselves
// are formed exactly), and each hull facet gives an outward normal n and offset h with
// n.x <= h on M. The shapes overlap iff the origin is in M; then the penetration depth is the
// smallest facet offset min h / |n| and its facet's unit normal is the direction along which
// translating B by depth * n brings the shapes into touching contact (proxima's convention: from
// A towards B). All comparisons are exact; only the reported numbers are rounded.
//
// Cost: each set is first reduced to its hull vertices (conv A - conv B = conv(ext A - ext B)),
// then |ext A| * |ext B| points go into an exact hull: fine up to a few thousand differences,
// slow beyond (use |A|, |B| <= 32 in sweeps). Shares no code with proxima (it is the independent
// check of gjk::penetration).
#pragma once

#ifdef PROXIMA_HAVE_CGAL

#include <proxima/core/types.hpp>

#include <span>

namespace proxima::oracles {

struct ExactPenetration {
  /// Exact: the origin is in M (the shapes overlap or touch).
  bool intersect = false;
  /// Exact: the origin is on the boundary of M (touching contact, depth exactly 0).
  bool touching = false;
  /// Exact: M has no interior (all differences coplanar, e.g. two coplanar flat shapes). Then
  /// there is no facet structure; depth is reported 0 when the origin is in M.
  bool flat = false;
  /// Distance from the origin to the nearest facet plane of M (correctly rounded from the exact
  /// value); 0 when touching or not intersecting.
  double depth = kNaN;
  /// Unit outward normal of that facet (world), NaN when flat or not intersecting.
  Vec3 normal = nan_vec3();
  /// True when not touching and every other facet plane is deeper by more than `tie_tolerance`
  /// times the depth: the normal is then determined and worth comparing.
  bool unique = false;
  /// Relative gap between the smallest and the second-smallest distinct facet depth (infinite
  /// when there is only one plane): how well-posed the normal is.
  double relative_gap = kNaN;
  /// Number of facets (triangles) of the hull of M.
  int facets = 0;
};

/// Penetration depth of conv(points_a) and conv(points_b) (world coordinates). Two facet planes
/// count as ties when their depths differ by less than tie_tolerance times the depth; touching
/// contact is never called unique.
ExactPenetration minkowski_penetration(std::span<const Vec3> points_a, std::span<const Vec3> points_b,
                                       double tie_tolerance = 1e-6);

}  // namespace proxima::oracles

#endif  // PROXIMA_HAVE_CGAL
