// SPDX-License-Identifier: MIT
// Private to src/query: the one dispatch per query from two runtime shapes (AnyConvex) to the
// templated kernels. The kernels for every pair of shape kinds are instantiated in
// <kernel>_<group>.cpp, one file per group of A kinds, so a 2-core build compiles them in
// parallel and no single file holds all N^2 instantiations of a kernel.
#pragma once

#include <proxima/core/results.hpp>
#include <proxima/gjk/options.hpp>
#include <proxima/shapes/any_convex.hpp>

#include <cstddef>
#include <variant>

namespace proxima::query::detail {

/// Number of runtime shape kinds (alternatives of AnyConvex::Variant).
inline constexpr std::size_t kShapeKinds = std::variant_size_v<AnyConvex::Variant>;

/// Number of source files each kernel's instantiations are split over. Changing it means adding
/// or removing src/query/<kernel>_<g>.cpp files (each instantiates its group).
inline constexpr std::size_t kDispatchGroups = 3;

/// First A kind (variant index) of group g; group g covers [group_begin(g), group_begin(g + 1)).
constexpr std::size_t group_begin(std::size_t g) { return g * kShapeKinds / kDispatchGroups; }

/// The group holding A kind `index`.
constexpr std::size_t group_of(std::size_t index) {
  std::size_t g = 0;
  while (g + 1 < kDispatchGroups && index >= group_begin(g + 1)) ++g;
  return g;
}

/// The kernels on the pairs whose A kind lies in group G (defined in kernels.hpp, instantiated in
/// <kernel>_<G>.cpp).
template <std::size_t G>
DistanceResult distance_group(const AnyConvex& a, const Pose& pose_a, const AnyConvex& b, const Pose& pose_b,
                              const gjk::GjkOptions& options, gjk::WarmStart& warm);
template <std::size_t G>
IntersectResult intersect_group(const AnyConvex& a, const Pose& pose_a, const AnyConvex& b, const Pose& pose_b,
                                const gjk::GjkOptions& options);
template <std::size_t G>
PenetrationResult penetration_group(const AnyConvex& a, const Pose& pose_a, const AnyConvex& b, const Pose& pose_b,
                                    const gjk::EpaOptions& options);

}  // namespace proxima::query::detail
