// SPDX-License-Identifier: MIT
// The public runtime entry points: pick the dispatch group of A's kind, which visits B and runs
// the concrete kernel (dispatch.hpp, kernels.hpp). Nothing here is instantiated per pair.
#include <proxima/query/query.hpp>

#include "query/dispatch.hpp"

namespace proxima::query {
namespace {

static_assert(detail::kDispatchGroups == 3, "one case per group below and one <kernel>_<g>.cpp per group");

}  // namespace

DistanceResult distance(const AnyConvex& a, const Pose& pose_a, const AnyConvex& b, const Pose& pose_b,
                        const gjk::GjkOptions& options, gjk::WarmStart& warm) {
  switch (detail::group_of(a.variant().index())) {
    case 0:
      return detail::distance_group<0>(a, pose_a, b, pose_b, options, warm);
    case 1:
      return detail::distance_group<1>(a, pose_a, b, pose_b, options, warm);
    default:
      return detail::distance_group<2>(a, pose_a, b, pose_b, options, warm);
  }
}

DistanceResult distance(const AnyConvex& a, const Pose& pose_a, const AnyConvex& b, const Pose& pose_b,
                        const gjk::GjkOptions& options) {
  gjk::WarmStart warm;
  return distance(a, pose_a, b, pose_b, options, warm);
}

IntersectResult intersect(const AnyConvex& a, const Pose& pose_a, const AnyConvex& b, const Pose& pose_b,
                          const gjk::GjkOptions& options) {
  switch (detail::group_of(a.variant().index())) {
    case 0:
      return detail::intersect_group<0>(a, pose_a, b, pose_b, options);
    case 1:
      return detail::intersect_group<1>(a, pose_a, b, pose_b, options);
    default:
      return detail::intersect_group<2>(a, pose_a, b, pose_b, options);
  }
}

PenetrationResult penetration(const AnyConvex& a, const Pose& pose_a, const AnyConvex& b, const Pose& pose_b,
                              const gjk::EpaOptions& options) {
  switch (detail::group_of(a.variant().index())) {
    case 0:
      return detail::penetration_group<0>(a, pose_a, b, pose_b, options);
    case 1:
      return detail::penetration_group<1>(a, pose_a, b, pose_b, options);
    default:
      return detail::penetration_group<2>(a, pose_a, b, pose_b, options);
  }
}

}  // namespace proxima::query
