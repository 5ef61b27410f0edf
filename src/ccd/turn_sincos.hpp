// SPDX-License-Identifier: MIT
// Private: sin and cos of one angle together, for the screw turns of the ccd module (half turns
// s theta / 2 in (-pi/2, pi/2), whole turns theta in (-pi, pi)), cheaper than the C library's
// sincos (glibc's __sincos_fma: about 66 instructions a call with a rounding-mode save, 5% of the
// cube's raster query; ours about 51 with the call, session 36). Same style as azimuth_atan2.hpp.
#pragma once

#include <cmath>

namespace proxima::ccd::detail {

struct SinCos {
  double sin, cos;
};

/// sin(x) and cos(x) within 1 ulp of std::sin / std::cos for |x| <= kTurnSinCosReach (asserted by
/// tests/ccd/turn_sincos_test.cpp: a dense sweep and seeded random arguments; mostly equal), exact
/// at 0 (sin(+-0) = +-0, cos(0) = 1), odd in sin and even in cos bit for bit; the C library's own
/// results beyond (large, infinite, NaN).
///
/// Our method: for |x| <= pi/4 the Taylor polynomials of sin to x^17 and of cos to x^16 (the
/// first terms left out are below 1.2e-19 and 2.9e-18 of the value at pi/4, a few hundredths of an
/// ulp; the coefficients are +-1/n! rounded to double, bench/tools/turn_sincos_coefficients.py
/// prints them), each in two independent chains (Estrin's scheme in z = x^2), with 1 - z/2 split so
/// that its rounding error is added back and the result's leading term carries one rounding only.
/// Beyond pi/4, x = k pi/2 + r with k = round(x 2/pi) in [-3, 3] and r carried as hi + lo
/// (Cody-Waite: pi/2 in three parts of 33, 33 and 53 bits, the same script; k times the first two
/// is exact, so r's error is k times the third part's rounding, below 1e-36), the low part entering
/// to first order, then the quadrant swap. The test of |x| <= pi/4 (every turn of the bench's
/// motions) is in line; the polynomials and the reduction are calls. Measured against glibc 2.36:
/// 1 ulp at most, and equal in most arguments (the test prints the shares).
inline constexpr double kTurnSinCosReach = 4.0;

namespace turn_sincos_kernel {

// (sin(x) - x) / x^3 and (cos(x) - 1 + x^2 / 2) / x^4 as polynomials in z = x^2 (Taylor, +-1/n!).
inline double sin_tail(double z, double w) {
  constexpr double S1 = -0.16666666666666666, S2 = 0.008333333333333333, S3 = -0.0001984126984126984,
                   S4 = 2.7557319223985893e-06, S5 = -2.505210838544172e-08, S6 = 1.6059043836821613e-10,
                   S7 = -7.647163731819816e-13, S8 = 2.8114572543455206e-15;
  return (S1 + z * S2) + w * (S3 + z * S4) + (w * w) * ((S5 + z * S6) + w * (S7 + z * S8));
}
inline double cos_tail(double z, double w) {
  constexpr double C1 = 0.041666666666666664, C2 = -0.001388888888888889, C3 = 2.48015873015873e-05,
                   C4 = -2.755731922398589e-07, C5 = 2.08767569878681e-09, C6 = -1.1470745597729725e-11,
                   C7 = 4.779477332387385e-14;
  return (C1 + z * C2) + w * (C3 + z * C4) + (w * w) * ((C5 + z * C6) + w * C7);
}

// sin(x + y) and cos(x + y), |x| <= pi/4 + 1e-15, |y| <= ulp(x) / 2: sin x + y cos x and
// cos x - y sin x, y's terms to first order in y and to second order in x (their dropped parts
// are below 1e-17 of y).
inline SinCos kernel(double x, double y) {
  const double z = x * x, w = z * z;
  const double hz = 0.5 * z;
  const double one_minus = 1.0 - hz;
  const double sin_x = x + ((z * x) * sin_tail(z, w) + y * one_minus);
  const double cos_x = one_minus + (((1.0 - one_minus) - hz) + (w * cos_tail(z, w) - x * y));
  return {sin_x, cos_x};
}

// sin(x) and cos(x), |x| <= pi/4: the kernel with y == 0 written out (0 - a is not -a for
// a == +0, so the compiler may not fold it). Out of line: in line at every call it cost the
// exact mode's first contact 1-3% by the clock for fewer instructions (docs/benchmarks.md, session 36).
[[gnu::noinline]] inline SinCos direct(double x) {
  const double z = x * x, w = z * z;
  const double hz = 0.5 * z;
  const double one_minus = 1.0 - hz;
  // copysign: x's sign is sin's on [-pi/4, pi/4]; it only keeps -0 (-0 + +0 is +0).
  return {std::copysign(x + (z * x) * sin_tail(z, w), x), one_minus + (((1.0 - one_minus) - hz) + w * cos_tail(z, w))};
}

// pi/4 < |x|: the reduction and the quadrant swap (out of line: the half turns mostly stay within
// pi/4), or the C library beyond the reach.
[[gnu::noinline]] inline SinCos reduced(double x) {
  if (!(std::abs(x) <= kTurnSinCosReach)) return {std::sin(x), std::cos(x)};
  // pi/2 = P1 + P2 + P3 (P1 and P2 of 33 bits; bench/tools/turn_sincos_coefficients.py).
  constexpr double kTwoOverPi = 0.6366197723675814;
  constexpr double P1 = 1.5707963267341256, P2 = 6.077100506303966e-11, P3 = 2.0222662487959506e-21;
  // k = round(x 2/pi) by truncation of +-(|.| + 1/2) (std::nearbyint is a call without SSE4.1;
  // a tie may go either way: both quadrants leave |r| <= pi/4 + 1e-15).
  const double q = x * kTwoOverPi;
  const double k = static_cast<double>(static_cast<int>(q + (q < 0 ? -0.5 : 0.5)));
  const double t = x - k * P1;  // exact: |k| <= 3, P1 has 33 bits, t within a factor 2 of x's size or smaller
  const double kp2 = k * P2;    // exact
  // r = t - kp2 - k P3 as hi + lo (two-sum of t and -kp2, then the third part in the low word).
  const double hi = t - kp2;
  const double bv = hi - t;
  const double lo = ((t - (hi - bv)) - (kp2 + bv)) - k * P3;
  const double r = hi + lo;
  const double r_lo = lo - (r - hi);
  const SinCos sc = kernel(r, r_lo);
  switch (static_cast<int>(k) & 3) {
    case 0: return sc;
    case 1: return {sc.cos, -sc.sin};
    case 2: return {-sc.sin, -sc.cos};
    default: return {-sc.cos, sc.sin};
  }
}

}  // namespace turn_sincos_kernel

inline SinCos turn_sincos(double x) {
  constexpr double kPi4 = 0.78539816339744830962;
  if (std::abs(x) <= kPi4) return turn_sincos_kernel::direct(x);
  return turn_sincos_kernel::reduced(x);
}

}  // namespace proxima::ccd::detail
