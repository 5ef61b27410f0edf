// SPDX-License-Identifier: MIT
// The scale range GJK, EPA, the closed forms and the batch kernels answer (tolerance.hpp,
// kGjkMinScale / kGjkMaxScale, says why): a query whose scale (both bounding radii plus the
// centres' distance) lies outside it gets status degenerate_input, detail scale_out_of_range
// and no values, instead of an answer that squared lengths underflowing or overflowing made wrong.
#pragma once

#include <proxima/core/status.hpp>
#include <proxima/core/tolerance.hpp>
#include <proxima/shapes/point.hpp>

#include <type_traits>

namespace proxima::gjk::detail {

/// True when kGjkMinScale <= scale <= kGjkMaxScale; false for NaN.
inline bool scale_in_range(double scale) { return scale >= kGjkMinScale && scale <= kGjkMaxScale; }

/// True when GJK and EPA answer a query of this scale on A and B: in range, or two Points at one
/// place (scale exactly 0; for other shapes a scale of 0 means the radii underflowed).
template <class A, class B>
bool scale_answered(double scale) {
  if constexpr (std::is_same_v<A, Point> && std::is_same_v<B, Point>) {
    if (scale == 0) return true;
  }
  return scale_in_range(scale);
}

/// The answer of a query whose scale is out of range: no values (NaN, intersect false), status
/// degenerate_input, detail scale_out_of_range.
template <class Result>
Result out_of_range_result() {
  Result r;
  r.status = Status::degenerate_input;
  r.detail = Detail::scale_out_of_range;
  return r;
}

}  // namespace proxima::gjk::detail
