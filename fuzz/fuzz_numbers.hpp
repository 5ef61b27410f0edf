// SPDX-License-Identifier: MIT
// Numbers for the fuzz targets, drawn from fuzzer bytes so that libFuzzer's mutations reach the
// interesting regions: a coarse grid (coincident points, coplanar faces, exact touching), small
// uniform values, values spread over many orders of magnitude (huge and tiny scales), and raw
// IEEE bit patterns (NaN, infinities, subnormals).
//
// Finite values are clamped to |x| <= kMaxMagnitude = 1e150, so that a product of two coordinates
// (a dot product, a squared norm) stays finite. Beyond that range dot products overflow and some
// answers are non-finite while their status says converged: a known, open limitation (reproducer
// in fuzz/open/, docs/reliability.md), not re-found on every run. NaN and infinities are kept: they
// must be refused with InvalidInput.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdint>
#include <cstring>

namespace proxima::fuzz {

inline constexpr double kMaxMagnitude = 1e150;

inline double clamp_finite(double x) {
  if (std::isfinite(x) && std::fabs(x) > kMaxMagnitude) return std::copysign(kMaxMagnitude, x);
  return x;
}

inline double number(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange<int>(0, 4)) {
    case 0:
      return in.ConsumeIntegralInRange<int>(-8, 8) / 4.0;
    case 1:
      return in.ConsumeFloatingPointInRange<double>(-4.0, 4.0);
    case 2:
      return in.ConsumeFloatingPointInRange<double>(-1.0, 1.0) * std::ldexp(1.0, in.ConsumeIntegralInRange<int>(-60, 60));
    case 3:
      return clamp_finite(in.ConsumeFloatingPoint<double>());
    default: {
      const std::uint64_t bits = in.ConsumeIntegral<std::uint64_t>();
      double x;
      std::memcpy(&x, &bits, sizeof x);
      return clamp_finite(x);
    }
  }
}

/// A positive-leaning number for sizes (radii, half extents): mostly in (0, 4], sometimes any.
inline double size(FuzzedDataProvider& in) {
  if (in.ConsumeBool()) return in.ConsumeIntegralInRange<int>(1, 16) / 4.0;
  return number(in);
}

}  // namespace proxima::fuzz
