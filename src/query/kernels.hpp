// SPDX-License-Identifier: MIT
// Private to src/query: definitions of the per-group dispatch functions of dispatch.hpp. Included
// only by the <kernel>_<group>.cpp files, each of which instantiates one group of one kernel.
#pragma once

#include "query/dispatch.hpp"

#include <proxima/gjk/distance.hpp>
#include <proxima/gjk/epa.hpp>
#include <proxima/gjk/intersect.hpp>

#include <variant>

namespace proxima::query::detail {

/// Calls kernel(concrete A, concrete B) for the alternative of `a` with index in [I, End): a
/// chain of index comparisons for A, one std::visit for B. The concrete shapes reach the kernel
/// by const reference, so rounded types keep their margin and polytopes their hints.
template <class Result, std::size_t I, std::size_t End, class Kernel>
Result visit_pair(const AnyConvex& a, const AnyConvex& b, const Kernel& kernel) {
  if constexpr (I + 1 < End) {
    if (a.variant().index() != I) return visit_pair<Result, I + 1, End>(a, b, kernel);
  }
  const auto& concrete_a = std::get<I>(a.variant());
  return std::visit([&](const auto& concrete_b) -> Result { return kernel(concrete_a, concrete_b); }, b.variant());
}

template <std::size_t G>
DistanceResult distance_group(const AnyConvex& a, const Pose& pose_a, const AnyConvex& b, const Pose& pose_b,
                              const gjk::GjkOptions& options, gjk::WarmStart& warm) {
  const auto kernel = [&](const auto& sa, const auto& sb) { return gjk::distance(sa, pose_a, sb, pose_b, options, warm); };
  return visit_pair<DistanceResult, group_begin(G), group_begin(G + 1)>(a, b, kernel);
}

template <std::size_t G>
IntersectResult intersect_group(const AnyConvex& a, const Pose& pose_a, const AnyConvex& b, const Pose& pose_b,
                                const gjk::GjkOptions& options) {
  const auto kernel = [&](const auto& sa, const auto& sb) { return gjk::intersect(sa, pose_a, sb, pose_b, options); };
  return visit_pair<IntersectResult, group_begin(G), group_begin(G + 1)>(a, b, kernel);
}

template <std::size_t G>
PenetrationResult penetration_group(const AnyConvex& a, const Pose& pose_a, const AnyConvex& b, const Pose& pose_b,
                                    const gjk::EpaOptions& options) {
  const auto kernel = [&](const auto& sa, const auto& sb) { return gjk::penetration(sa, pose_a, sb, pose_b, options); };
  return visit_pair<PenetrationResult, group_begin(G), group_begin(G + 1)>(a, b, kernel);
}

}  // namespace proxima::query::detail
