// SPDX-License-Identifier: MIT
// Small helpers shared by the standalone programs of bench/tools: a bench Placement as a Pose, and
// a monotonic clock in nanoseconds, the A/B alternation of header_ab and prim_ab.
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

/// The warm time of `call` as the bench's harness takes it (bench/harness.cpp): one untimed call,
/// then the median of 5 batches of 16 calls, in ns per call.
template <class F>
double warm_ns(F&& call) {
  call();
  std::vector<double> batches;
  for (int k = 0; k < 5; ++k) {
    const double t0 = now_ns();
    for (int c = 0; c < 16; ++c) call();
    batches.push_back((now_ns() - t0) / 16);
  }
  return median(batches);
}

/// Medians of an A/B timing: of the base side, of the new side, and of their per-sample ratio.
struct AbMedians {
  double base = 0;
  double next = 0;
  double ratio = 0;  ///< median of next / base over the samples
};

/// Times the two sides of an A/B comparison sample by sample in alternating order (base first on
/// even r + i, new first on odd), so the load of a shared machine falls on both alike.
/// `time_one(next, i)` returns one sample (ns per call) of side `next` (false: base) on case i of
/// `count`; `repeat` passes over the cases.
template <class TimeOne>
AbMedians alternate_ab(std::size_t count, int repeat, TimeOne time_one) {
  std::vector<double> base, next, ratio;
  for (int r = 0; r < repeat; ++r) {
    for (std::size_t i = 0; i < count; ++i) {
      double tb = 0;
      double tn = 0;
      if ((static_cast<std::size_t>(r) + i) % 2 == 0) {
        tb = time_one(false, i);
        tn = time_one(true, i);
      } else {
        tn = time_one(true, i);
        tb = time_one(false, i);
      }
      base.push_back(tb);
      next.push_back(tn);
      ratio.push_back(tn / tb);
    }
  }
  return {median(base), median(next), median(ratio)};
}

}  // namespace proxima::bench::tools
