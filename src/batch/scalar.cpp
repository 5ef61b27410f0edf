// SPDX-License-Identifier: MIT
// The scalar reference queries of the batch layer: the query layer's runtime dispatch (one visit
// per pair, then the templated gjk kernels on the concrete shapes), cold-started.
#include <proxima/batch/batch.hpp>
#include <proxima/query/query.hpp>

namespace proxima::batch {

IntersectResult scalar_intersect(const AnyConvex& a, const Pose& pose_a, const AnyConvex& b, const Pose& pose_b,
                                 const gjk::GjkOptions& options) {
  return query::intersect(a, pose_a, b, pose_b, options);
}

DistanceResult scalar_distance(const AnyConvex& a, const Pose& pose_a, const AnyConvex& b, const Pose& pose_b,
                               const gjk::GjkOptions& options) {
  return query::distance(a, pose_a, b, pose_b, options);
}

PenetrationResult scalar_penetration(const AnyConvex& a, const Pose& pose_a, const AnyConvex& b,
                                     const Pose& pose_b, const gjk::EpaOptions& options) {
  return query::penetration(a, pose_a, b, pose_b, options);
}

}  // namespace proxima::batch
