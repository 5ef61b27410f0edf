// SPDX-License-Identifier: MIT
// Private: point-in-face and segment distance tests shared by both screw_collisions modes.
#pragma once

#include <proxima/core/types.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <vector>

namespace proxima::ccd::detail {

/// 2-D coordinates in the plane of a normal whose dominant axis is `axis`, dropping that axis.
inline Eigen::Vector2d drop_axis(const Vec3& p, int axis) { return {p[(axis + 1) % 3], p[(axis + 2) % 3]}; }

/// Distance from p to the segment [a, b] in the plane.
inline double segment_distance_2d(const Eigen::Vector2d& p, const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
  const Eigen::Vector2d ab = b - a;
  const double len2 = ab.squaredNorm();
  const double t = len2 > 0 ? std::clamp((p - a).dot(ab) / len2, 0.0, 1.0) : 0.0;
  return (a + t * ab - p).norm();
}

/// Is q (on or near the plane of the polygon points[ids[0..k)], unit normal n) inside the polygon,
/// or within tol of its boundary? Crossing-number test in the projection that drops the normal's
/// dominant axis (non-convex polygons work). The boundary distance is measured in that projection,
/// which shrinks distances by at most |n[axis]|: with `coarse` the projected distance is compared
/// with tol (never rejects a point within tol in 3-D), otherwise with tol |n[axis]| (never accepts
/// one farther than tol in 3-D).
inline bool inside_polygon(const std::vector<Vec3>& points, std::span<const int> ids, const Vec3& n, const Vec3& q,
                           double tol, bool coarse) {
  int axis = 0;
  n.cwiseAbs().maxCoeff(&axis);
  const Eigen::Vector2d p = drop_axis(q, axis);
  bool inside = false;
  double boundary = std::numeric_limits<double>::infinity();
  const std::size_t k = ids.size();
  for (std::size_t i = 0, j = k - 1; i < k; j = i++) {
    const Eigen::Vector2d a = drop_axis(points[ids[i]], axis), b = drop_axis(points[ids[j]], axis);
    if ((a.y() > p.y()) != (b.y() > p.y()) && p.x() < (b.x() - a.x()) * (p.y() - a.y()) / (b.y() - a.y()) + a.x()) {
      inside = !inside;
    }
    boundary = std::min(boundary, segment_distance_2d(p, a, b));
  }
  return inside || boundary <= (coarse ? tol : tol * std::abs(n[axis]));
}

/// inside_polygon's answer (bit for bit the same decision), cheaper when the point is inside: the
/// crossing parity first, then the boundary distances only when it is outside, stopping at the
/// first edge within the tolerance (the smallest distance is within it exactly when some edge's
/// is). The exact mode's; the raster keeps inside_polygon, whose cost its tuning was measured with.
inline bool inside_polygon_parity_first(const std::vector<Vec3>& points, std::span<const int> ids, const Vec3& n,
                                        const Vec3& q, double tol, bool coarse) {
  int axis = 0;
  n.cwiseAbs().maxCoeff(&axis);
  const Eigen::Vector2d p = drop_axis(q, axis);
  bool inside = false;
  const std::size_t k = ids.size();
  for (std::size_t i = 0, j = k - 1; i < k; j = i++) {
    const Eigen::Vector2d a = drop_axis(points[ids[i]], axis), b = drop_axis(points[ids[j]], axis);
    if ((a.y() > p.y()) != (b.y() > p.y()) && p.x() < (b.x() - a.x()) * (p.y() - a.y()) / (b.y() - a.y()) + a.x()) {
      inside = !inside;
    }
  }
  if (inside) return true;
  const double limit = coarse ? tol : tol * std::abs(n[axis]);
  for (std::size_t i = 0, j = k - 1; i < k; j = i++) {
    if (segment_distance_2d(p, drop_axis(points[ids[i]], axis), drop_axis(points[ids[j]], axis)) <= limit) return true;
  }
  return false;
}

/// Squared distance from m to the segment p + [0,1] d, given inv_d2 = 1 / |d|^2 (the exact mode's
/// edge-edge pre-test; rounded like any distance: callers allow a margin).
inline double point_segment_distance2(const Vec3& m, const Vec3& p, const Vec3& d, double inv_d2) {
  const Vec3 u = m - p;
  const double t = std::clamp(u.dot(d) * inv_d2, 0.0, 1.0);
  return (u - t * d).squaredNorm();
}

/// Distance between segments p + [0,1] d and q + [0,1] e (closest points clamped to both).
inline double segment_distance(const Vec3& p, const Vec3& d, const Vec3& q, const Vec3& e) {
  const Vec3 r = p - q;
  const double a = d.squaredNorm(), ee = e.squaredNorm(), f = e.dot(r), c = d.dot(r), b = d.dot(e);
  const double denom = a * ee - b * b;
  double s = denom > 0 ? std::clamp((b * f - c * ee) / denom, 0.0, 1.0) : 0.0;
  double t = (b * s + f) / ee;
  if (t < 0) {
    t = 0;
    s = std::clamp(-c / a, 0.0, 1.0);
  } else if (t > 1) {
    t = 1;
    s = std::clamp((b - c) / a, 0.0, 1.0);
  }
  return (p + s * d - q - t * e).norm();
}

}  // namespace proxima::ccd::detail
