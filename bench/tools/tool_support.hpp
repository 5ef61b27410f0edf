// SPDX-License-Identifier: MIT
// Small helpers shared by the standalone programs of bench/tools: a bench Placement as a Pose, and
// a monotonic clock in nanoseconds.
#pragma once

#include "common.hpp"

#include <proxima/core/pose.hpp>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <vector>

namespace proxima::bench::tools {

inline Pose to_pose(const Placement& p) {
  const auto& q = p.quaternion;
  return Pose::from_quaternion(q.w(), q.x(), q.y(), q.z(), p.translation);
}

/// The median (upper middle for an even count) of the samples, taken by value.
inline double median(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

inline double now_ns() {
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace proxima::bench::tools
