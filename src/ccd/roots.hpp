// SPDX-License-Identifier: MIT
// Private: isolation of the sign changes of a smooth scalar function on an interval, given bounds
// on |f'| and |f''| over any sub-interval, and refinement of a bracketed root. Used by the exact
// screw collision mode.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <type_traits>

namespace proxima::ccd::detail {

/// A query's interval budget: this many intervals to start with, and this many more with every
/// search (sign-change isolation of one feature pair on one time window). Each search also stops
/// at RootLimits::max_intervals, but a query runs thousands of searches, so without a shared
/// budget the worst case is their product: fuzzed motions that translate a unit tetrahedron by
/// 1e150 leave every search unable to exclude anything and ran 2.1 million intervals (9 s under
/// ASan). Measured use on the random motions of tests/ccd/raster_test.cpp: at most about 6
/// intervals and evaluations per search (torus-torus: 41,438 for 8,290 searches), so the budget
/// leaves a 10x margin and any deeper subdivision of a few hard pairs fits in the base.
inline constexpr long kRootIntervalBudgetBase = 1L << 16;
inline constexpr long kRootIntervalBudgetPerSearch = 64;

/// Counters shared by all root searches of a query.
struct RootStats {
  int intervals = 0;
  int evaluations = 0;  ///< refinement evaluations
  bool capped = false;  ///< some search hit its interval or iteration cap, or the query's budget
  long budget = kRootIntervalBudgetBase;  ///< intervals the query may still start (see above)
};

/// Limits of one search.
struct RootLimits {
  double time_tolerance;    ///< final bracket width
  double coarse_tolerance;  ///< width of the brackets handed to the caller for a cheap first check
  int max_root_iterations;
  int max_intervals;
  double slack;  ///< absolute evaluation error allowance on f (keeps rounding from excluding a root)
};

/// Calls on_bracket(lo, hi, direction) for each sign change of f in (s0, s1], in increasing s, with
/// hi - lo <= coarse_tolerance (direction -1: f goes from > 0 to <= 0, +1: from < 0 to >= 0), or
/// on_bracket(lo, hi, direction, f(lo), f(hi)) when it takes them (the values it evaluated, so a
/// refinement need not evaluate them again).
/// `f(s)` and `df(s)` evaluate f and f'; `bounds(a, b, l1, l2)` sets upper bounds of |f'| and
/// |f''| on [a, b]. Branch and bound: an interval is dropped when |f(mid)| > l1 * half_width +
/// slack (no zero possible), bisected down to the coarse width when |f'(mid)| > l2 * half_width
/// (f monotone there) or when it is narrower than the time tolerance, and split otherwise. A
/// function found within the slack at 9 evenly spaced times after 32 intervals is taken as
/// identically zero (a vertex sliding in a face plane, two edges sliding in a common plane): it
/// has no crossing. A fixed stack of 128 entries suffices (depth <= log2(1 / tol) + 1). Stops
/// (stats.capped) at lim.max_intervals or when the query's interval budget is spent.
template <class F, class DF, class Bounds, class OnBracket>
void find_sign_changes(const F& f, const DF& df, const Bounds& bounds, double s0, double s1, const RootLimits& lim,
                       RootStats& stats, const OnBracket& on_bracket) {
  struct Range {
    double a, b;
  };
  constexpr int kFlatCheckAfter = 32;
  constexpr int kProbes = 9;
  std::array<Range, 128> stack;
  int top = 0;
  stack[top++] = {s0, s1};
  int intervals = 0;
  stats.budget += kRootIntervalBudgetPerSearch;
  while (top > 0) {
    if (intervals >= lim.max_intervals || stats.intervals + intervals >= stats.budget) {
      stats.capped = true;
      break;
    }
    if (++intervals == kFlatCheckAfter) {
      bool flat = true;
      for (int i = 0; i < kProbes && flat; ++i) flat = std::abs(f(s0 + (s1 - s0) * i / (kProbes - 1))) <= lim.slack;
      if (flat) break;
    }
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
    double lo = r.a, hi = r.b, flo = fa, fhi = fb;
    int it = 0;
    while (hi - lo > lim.coarse_tolerance && it < lim.max_root_iterations) {
      ++it;
      const double mid = (lo + hi) / 2;
      const double fmid = f(mid);
      if ((direction < 0 && fmid > 0) || (direction > 0 && fmid < 0)) {
        lo = mid;
        flo = fmid;
      } else {
        hi = mid;
        fhi = fmid;
      }
    }
    stats.evaluations += it;
    if constexpr (std::is_invocable_v<const OnBracket&, double, double, int, double, double>) {
      on_bracket(lo, hi, direction, flo, fhi);
    } else {
      on_bracket(lo, hi, direction);
    }
  }
  stats.intervals += intervals;
}

/// Refines a bracket [lo, hi] of a sign change of f (direction as above) to width <=
/// time_tolerance, or until |f| <= slack at the estimate, by the Illinois variant of regula falsi
/// with a bisection step whenever the bracket failed to halve (so it is never slower than
/// bisection). One iterate per step(), so that a caller can advance it alongside another
/// independent chain of evaluations (the out-of-order core then overlaps the two chains); run to
/// done() it is refine_root below, bit for bit.
template <class F>
class RootRefiner {
 public:
  RootRefiner(const F& f, double lo, double hi, int direction, const RootLimits& lim)
      : RootRefiner(f, lo, hi, f(lo), f(hi), direction, lim) {}
  /// With flo = f(lo) and fhi = f(hi) already evaluated (counted as two evaluations all the same).
  RootRefiner(const F& f, double lo, double hi, double flo, double fhi, int direction, const RootLimits& lim)
      : f_(f), lim_(lim), lo_(lo), hi_(hi), flo_(flo), fhi_(fhi), last_width_(hi - lo), direction_(direction) {}

  bool done() const { return finished_ || !(hi_ - lo_ > lim_.time_tolerance && it_ < lim_.max_root_iterations); }

  /// The last iterate (the root itself once it met |f| <= slack): an end of the current bracket,
  /// or the returned root. The root finish() returns lies in every bracket the refinement has
  /// held (they are nested), so it is within width() of last().
  double last() const { return last_; }
  /// The current bracket's width.
  double width() const { return hi_ - lo_; }
  /// Evaluations of f so far.
  int evaluations() const { return it_ + 2; }

  /// One iterate; call only while !done().
  void step() {
    ++it_;
    double c = (lo_ * fhi_ - hi_ * flo_) / (fhi_ - flo_);
    const bool halved = (hi_ - lo_) <= last_width_ / 2;
    if (it_ % 2 == 0 && !halved) c = (lo_ + hi_) / 2;
    if (!(c > lo_ && c < hi_)) c = (lo_ + hi_) / 2;
    if (it_ % 2 == 0) last_width_ = hi_ - lo_;
    const double fc = f_(c);
    last_ = c;
    if (std::abs(fc) <= lim_.slack) {
      finished_ = true;
      root_ = c;
      return;
    }
    const bool before_root = (direction_ < 0) == (fc > 0);
    if (before_root) {
      lo_ = c;
      flo_ = fc;
      if (side_ == -1) fhi_ /= 2;
      side_ = -1;
    } else {
      hi_ = c;
      fhi_ = fc;
      if (side_ == 1) flo_ /= 2;
      side_ = 1;
    }
  }

  /// Runs to done() and returns the root estimate, counting the evaluations in `stats`.
  double finish(RootStats& stats) {
    while (!done()) step();
    stats.evaluations += evaluations();
    if (finished_) return root_;
    if (hi_ - lo_ > lim_.time_tolerance) stats.capped = true;
    return (lo_ + hi_) / 2;
  }

 private:
  const F& f_;
  const RootLimits& lim_;
  double lo_, hi_, flo_, fhi_, last_width_;
  int direction_;
  int side_ = 0;
  int it_ = 0;
  bool finished_ = false;
  double root_ = 0;
  double last_ = 0;
};

/// RootRefiner run to the end. Returns the root estimate.
template <class F>
double refine_root(const F& f, double lo, double hi, int direction, const RootLimits& lim, RootStats& stats) {
  return RootRefiner<F>(f, lo, hi, direction, lim).finish(stats);
}

}  // namespace proxima::ccd::detail
