// SPDX-License-Identifier: MIT
// Checks a "no intersection" certificate (tests only): an axis u separates A and B when
// max over A of u.x < min over B of u.x. Computed from world vertex lists, or from world support
// points given by the caller (e.g. oracles::world_support of a re-derived primitive), never from
// the algorithm under test.
#pragma once

#include <proxima/core/types.hpp>

#include <algorithm>
#include <limits>
#include <span>

namespace proxima::oracles {

/// The separation along an axis: gap = min_B u.x - max_A u.x (> 0 means separated).
struct AxisSeparation {
  double max_a = kNaN;
  double min_b = kNaN;
  double gap = kNaN;
  /// The axis was finite and of unit length within 1e-9 (a certificate must be a direction).
  bool unit_axis = false;
};

/// Separation of two world vertex lists along `axis` (used as given, not normalised).
inline AxisSeparation separation_along(const Vec3& axis, std::span<const Vec3> world_a,
                                       std::span<const Vec3> world_b) {
  AxisSeparation out;
  constexpr double kUnitTolerance = 1e-9;
  out.unit_axis = axis.allFinite() && std::abs(axis.norm() - 1) <= kUnitTolerance;
  double max_a = -std::numeric_limits<double>::infinity();
  double min_b = std::numeric_limits<double>::infinity();
  for (const Vec3& p : world_a) max_a = std::max(max_a, axis.dot(p));
  for (const Vec3& p : world_b) min_b = std::min(min_b, axis.dot(p));
  out.max_a = max_a;
  out.min_b = min_b;
  out.gap = min_b - max_a;
  return out;
}

/// Separation along `axis` from world support callables: support_a(u) is A's farthest point
/// along u, support_b(-u) B's farthest along -u.
template <class SupportA, class SupportB>
AxisSeparation separation_along_supports(const Vec3& axis, const SupportA& support_a, const SupportB& support_b) {
  AxisSeparation out;
  constexpr double kUnitTolerance = 1e-9;
  out.unit_axis = axis.allFinite() && std::abs(axis.norm() - 1) <= kUnitTolerance;
  out.max_a = axis.dot(support_a(axis));
  out.min_b = axis.dot(support_b(Vec3(-axis)));
  out.gap = out.min_b - out.max_a;
  return out;
}

}  // namespace proxima::oracles
