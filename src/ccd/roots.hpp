// SPDX-License-Identifier: MIT
// Private: isolation of the sign changes of a smooth scalar function on an interval, given bounds
// on |f'| and |f''| over any sub-interval. Used by the exact screw collision mode.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>

namespace proxima::ccd::detail {

/// Counters shared by all root searches of a query.
struct RootStats {
  int intervals = 0;
  int bisections = 0;
  bool capped = false;  ///< some search hit its interval or bisection cap
};

/// Limits of one search.
struct RootLimits {
  double time_tolerance;  ///< final bracket width
  int max_root_iterations;
  int max_intervals;
  double slack;  ///< absolute evaluation error allowance on f (keeps rounding from excluding a root)
};

/// Calls on_root(s, direction) for each sign change of f in (s0, s1] (direction -1: from > 0 to
/// <= 0, +1: from < 0 to >= 0), in increasing s. `f(s)` and `df(s)` evaluate f and f'; `bounds(a,
/// b, &l1, &l2)` returns upper bounds of |f'| and |f''| on [a, b]. Branch and bound: an interval is
/// dropped when |f(mid)| > l1 * half_width + slack (no zero possible), bisected for its root when
/// |f'(mid)| > l2 * half_width (f monotone there) or when it is narrower than the tolerance, and
/// split otherwise. A fixed stack of 128 entries suffices: the depth is at most log2(1 / tol) + 1.
template <class F, class DF, class Bounds, class OnRoot>
void find_sign_changes(const F& f, const DF& df, const Bounds& bounds, double s0, double s1, const RootLimits& lim,
                       RootStats& stats, const OnRoot& on_root) {
  struct Range {
    double a, b;
  };
  // A function that stays within the evaluation slack at kProbes evenly spaced times is taken as
  // identically zero (a vertex sliding in a face plane, two edges sliding in a common plane): it
  // has no crossing, and subdividing it would only burn the interval cap. The functions handled
  // here are short trigonometric-linear sums with far fewer zeros than kProbes on a step.
  constexpr int kProbes = 9;
  bool flat = true;
  for (int i = 0; i < kProbes && flat; ++i) {
    flat = std::abs(f(s0 + (s1 - s0) * i / (kProbes - 1))) <= lim.slack;
  }
  if (flat) return;
  std::array<Range, 128> stack;
  int top = 0;
  stack[top++] = {s0, s1};
  int intervals = 0;
  while (top > 0) {
    if (intervals >= lim.max_intervals) {
      stats.capped = true;
      break;
    }
    ++intervals;
    const Range r = stack[--top];
    const double m = (r.a + r.b) / 2;
    const double h = (r.b - r.a) / 2;
    double l1 = 0, l2 = 0;
    bounds(r.a, r.b, l1, l2);
    const double fm = f(m);
    if (std::abs(fm) > l1 * h + lim.slack) continue;
    const bool tiny = 2 * h <= lim.time_tolerance || top + 2 > static_cast<int>(stack.size());
    if (!tiny && !(std::abs(df(m)) > l2 * h)) {
      stack[top++] = {m, r.b};  // right half first so the left half is examined first
      stack[top++] = {r.a, m};
      continue;
    }
    const double fa = f(r.a), fb = f(r.b);
    int direction = 0;
    if (fa > 0 && fb <= 0) direction = -1;
    if (fa < 0 && fb >= 0) direction = 1;
    // A sign change that never leaves the rounding band is noise, not a crossing.
    if (direction == 0 || std::max(std::abs(fa), std::abs(fb)) <= lim.slack) continue;
    double lo = r.a, hi = r.b;
    int it = 0;
    while (hi - lo > lim.time_tolerance && it < lim.max_root_iterations) {
      ++it;
      const double mid = (lo + hi) / 2;
      const double fmid = f(mid);
      if ((direction < 0 && fmid > 0) || (direction > 0 && fmid < 0)) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    if (hi - lo > lim.time_tolerance) stats.capped = true;
    stats.bisections += it;
    on_root((lo + hi) / 2, direction);
  }
  stats.intervals += intervals;
}

}  // namespace proxima::ccd::detail
