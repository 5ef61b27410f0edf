// SPDX-License-Identifier: MIT
// Conversion of a computed count or index (a double) to int, defined for every double.
// Why: static_cast<int> of a NaN, an infinity or a value beyond int's range is undefined
// behaviour (UBSan's float-cast-overflow), and std::clamp does not help with NaN (every
// comparison is false, so clamp returns the NaN). Counts derived from geometry (slabs per step,
// samples per sweep, grid cells) meet NaN and infinities on degenerate or huge input long before
// the input is refused elsewhere.
#pragma once

#include <cmath>

namespace proxima::detail {

/// x truncated towards zero and clamped to [lo, hi]; `nan_value` (lo unless given) for NaN.
/// +inf gives hi and -inf gives lo. Requires lo <= hi.
inline int clamped_int(double x, int lo, int hi, int nan_value) {
  if (!(x == x)) return nan_value;
  if (!(x > lo)) return lo;  // also -inf
  if (!(x < hi)) return hi;  // also +inf
  return static_cast<int>(x);
}

inline int clamped_int(double x, int lo, int hi) { return clamped_int(x, lo, hi, lo); }

}  // namespace proxima::detail
