// SPDX-License-Identifier: MIT
// The public runtime entry points: pick the dispatch group of A's kind, which visits B and runs
// the concrete kernel (dispatch.hpp, kernels.hpp). Nothing here is instantiated per pair.
#include <proxima/query/query.hpp>

#include "query/dispatch.hpp"

#include <proxima/gjk/closed_form.hpp>

#include <variant>

namespace proxima::query {
namespace {

static_assert(detail::kDispatchGroups == 3, "one case per group below and one <kernel>_<g>.cpp per group");

/// gjk::closed_form_distance for the pairs it answers (spheres, capsules and boxes as in
/// gjk::has_closed_form_distance); false for every other pair.
bool closed_form_distance(const AnyConvex& a, const Pose& pose_a, const AnyConvex& b, const Pose& pose_b,
                          DistanceResult& r) {
  const auto answer = [&](const auto* sa, const auto* sb) {
    if (sa == nullptr || sb == nullptr) return false;
    r = gjk::closed_form_distance(*sa, pose_a, *sb, pose_b);
    return true;
  };
  const auto& va = a.variant();
  const auto& vb = b.variant();
  const Sphere* sphere_a = std::get_if<Sphere>(&va);
  const Sphere* sphere_b = std::get_if<Sphere>(&vb);
  const Capsule* capsule_a = std::get_if<Capsule>(&va);
  const Capsule* capsule_b = std::get_if<Capsule>(&vb);
  return answer(capsule_a, capsule_b) || answer(sphere_a, sphere_b) || answer(sphere_a, capsule_b) ||
         answer(capsule_a, sphere_b) || answer(sphere_a, std::get_if<Box>(&vb)) ||
         answer(std::get_if<Box>(&va), sphere_b);
}

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
  // As gjk::distance's cold overload: the closed-form pairs are answered before a WarmStart is
  // built and the group dispatch entered (the same answer, which the warm path gives from the
  // same closed form; measured in the bench's proxima_query row, docs/benchmarks.md session 15).
  if (options.closed_forms) {
    DistanceResult r;
    if (closed_form_distance(a, pose_a, b, pose_b, r)) return r;
  }
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
