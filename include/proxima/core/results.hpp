// SPDX-License-Identifier: MIT
// Result structs returned by value by every query. All points and vectors are in the WORLD frame.
// Fields a query did not set stay NaN (see kNaN) so that reading one by mistake is visible.
#pragma once

#include <proxima/core/status.hpp>
#include <proxima/core/types.hpp>

namespace proxima {

/// Distance between two convex shapes.
struct DistanceResult {
  /// Euclidean distance between the shapes, >= 0. It is 0 when they intersect or touch (use a
  /// penetration query for how deep).
  double distance = kNaN;
  /// True when the shapes overlap or touch (distance within tolerance of 0).
  bool intersect = false;
  /// Closest point on A and on B (world). When intersecting: a common point (point_a == point_b).
  Vec3 point_a = nan_vec3();
  Vec3 point_b = nan_vec3();
  /// Unit vector from A towards B: (point_b - point_a) / distance when separated; when
  /// intersecting, NaN (a penetration query gives the meaningful one).
  Vec3 normal = nan_vec3();
  /// Certificate: an upper bound on (distance - true distance) from the Frank-Wolfe duality gap
  /// (GJK) or the primal-dual gap (IPM), in length units. 0 when the answer is exact.
  double gap = kNaN;
  int iterations = 0;
  Status status = Status::converged;
  Detail detail = Detail::none;
};

/// Boolean overlap test with its certificate.
struct IntersectResult {
  bool intersect = false;
  /// When !intersect: a unit axis (world) along which A and B are separated: max over A of
  /// axis.x < min over B of axis.x. NaN when intersecting.
  Vec3 separating_axis = nan_vec3();
  int iterations = 0;
  Status status = Status::converged;
  Detail detail = Detail::none;
};

/// Penetration depth of two overlapping convex shapes (EPA).
struct PenetrationResult {
  /// True when the shapes overlap or touch. False: depth 0 and the remaining fields as in a
  /// distance query's separation (normal from A to B, closest points).
  bool intersect = false;
  /// Minimal translation length: translating B by depth * normal brings the shapes into touching
  /// contact. >= 0.
  double depth = kNaN;
  /// Unit direction (world) of that translation: it points from A towards B.
  Vec3 normal = nan_vec3();
  /// Witness points (world): point_b - point_a == -depth * normal (the deepest points of B in A
  /// and of A in B).
  Vec3 point_a = nan_vec3();
  Vec3 point_b = nan_vec3();
  /// Upper bound on (true depth - reported depth), in length units: EPA's reported depth is a
  /// lower bound (its nearest face) and the smallest support distance it saw an upper bound.
  /// When separated or within the margins without EPA, the distance query's gap. +inf when no
  /// upper bound was found.
  double gap = kNaN;
  int iterations = 0;
  Status status = Status::converged;
  Detail detail = Detail::none;
};

/// First time of contact of two moving shapes over [0, t_max].
struct ToiResult {
  bool contact = false;
  /// First contact time in [0, t_max]; NaN when there is none.
  double toi = kNaN;
  /// Contact point and unit normal (from A towards B) at time toi, world frame.
  Vec3 point = nan_vec3();
  Vec3 normal = nan_vec3();
  int iterations = 0;
  Status status = Status::converged;
  Detail detail = Detail::none;
};

}  // namespace proxima
