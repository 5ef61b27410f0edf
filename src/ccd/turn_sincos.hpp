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
/// Our method: for |x| <= pi/4 the kernels below (|r| <= pi/4 + a little); beyond, x = k pi/2 + r
/// with k = round(x 2/pi) in [-3, 3] and r carried as hi + lo (Cody-Waite: pi/2 in three parts of
/// 33, 33 and 53 bits; k times the first two is exact, so r's error is k times the third part's
/// truncation, below 1e-36), then the quadrant swap. The kernels are musl's __sin / __cos (MIT,
/// from fdlibm's k_sin.c / k_cos.c: minimax polynomials of degree 13 and 14 on [-pi/4, pi/4],
/// |error| below 2^-58 relative, the low part of r entering to first order), evaluated in two
/// independent chains (Estrin's scheme in x^2 on the direct path). The test of |x| <= pi/4 (every
/// turn of the bench's motions) is in line; the polynomials and the reduction are calls. Measured
/// against glibc 2.36: 1 ulp at most, and equal in most arguments (the test prints the shares).
inline constexpr double kTurnSinCosReach = 4.0;

namespace turn_sincos_kernel {

// sin(x + y), |x| <= pi/4 + 1e-15, |y| <= ulp(x) / 2 (y == 0 on the direct path).
inline double sin_k(double x, double y) {
  constexpr double S1 = -1.66666666666666324348e-01, S2 = 8.33333333332248946124e-03,
                   S3 = -1.98412698298579493134e-04, S4 = 2.75573137070700676789e-06,
                   S5 = -2.50507602534068634195e-08, S6 = 1.58969099521155010221e-10;
  const double z = x * x, w = z * z;
  const double r = S2 + z * (S3 + z * S4) + z * w * (S5 + z * S6);
  const double v = z * x;
  return x - ((z * (0.5 * y - v * r) - y) - v * S1);
}

// cos(x + y), same ranges. 1 - z/2 is split so that its rounding error is added back (w + ((1 -
// w) - hz)): the result's leading term carries one rounding only.
inline double cos_k(double x, double y) {
  constexpr double C1 = 4.16666666666666019037e-02, C2 = -1.38888888888741095749e-03,
                   C3 = 2.48015872894767294178e-05, C4 = -2.75573143513906633035e-07,
                   C5 = 2.08757232129817482790e-09, C6 = -1.13596475577881948265e-11;
  const double z = x * x, w = z * z;
  const double r = z * (C1 + z * (C2 + z * C3)) + w * w * (C4 + z * (C5 + z * C6));
  const double hz = 0.5 * z;
  const double one_minus = 1.0 - hz;
  return one_minus + (((1.0 - one_minus) - hz) + (z * r - x * y));
}

// sin(x) and cos(x), |x| <= pi/4: the kernels above with y == 0 (written out: 0 - a is not -a
// for a == +0, so the compiler may not fold it). Out of line: in line at every call it cost the
// exact mode's first contact 1-3% by the clock for fewer instructions (docs/benchmarks.md, session 36).
[[gnu::noinline]] inline SinCos direct(double x) {
  constexpr double S1 = -1.66666666666666324348e-01, S2 = 8.33333333332248946124e-03,
                   S3 = -1.98412698298579493134e-04, S4 = 2.75573137070700676789e-06,
                   S5 = -2.50507602534068634195e-08, S6 = 1.58969099521155010221e-10;
  constexpr double C1 = 4.16666666666666019037e-02, C2 = -1.38888888888741095749e-03,
                   C3 = 2.48015872894767294178e-05, C4 = -2.75573143513906633035e-07,
                   C5 = 2.08757232129817482790e-09, C6 = -1.13596475577881948265e-11;
  // Estrin's scheme in z (three pairs, then w = z^2): a shorter dependent chain than Horner's,
  // which the exact mode's root searches wait on.
  const double z = x * x, w = z * z;
  const double ps = (S1 + z * S2) + w * ((S3 + z * S4) + w * (S5 + z * S6));
  const double pc = (C1 + z * C2) + w * ((C3 + z * C4) + w * (C5 + z * C6));
  const double hz = 0.5 * z;
  const double one_minus = 1.0 - hz;
  // copysign: x's sign is sin's on [-pi/4, pi/4]; it only keeps -0 (-0 + +0 is +0).
  return {std::copysign(x + (z * x) * ps, x), one_minus + (((1.0 - one_minus) - hz) + w * pc)};
}

// pi/4 < |x|: the reduction and the quadrant swap (out of line: the half turns mostly stay within
// pi/4), or the C library beyond the reach.
[[gnu::noinline]] inline SinCos reduced(double x) {
  if (!(std::abs(x) <= kTurnSinCosReach)) return {std::sin(x), std::cos(x)};
  // pi/2 = P1 + P2 + P3 (fdlibm's pio2_1, pio2_2, pio2_2t: P1 and P2 of 33 bits).
  constexpr double kTwoOverPi = 6.36619772367581382433e-01;
  constexpr double P1 = 1.57079632673412561417e+00, P2 = 6.07710050630396597660e-11,
                   P3 = 2.02226624879595063154e-21;
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
  const double s = sin_k(r, r_lo), c = cos_k(r, r_lo);
  switch (static_cast<int>(k) & 3) {
    case 0: return {s, c};
    case 1: return {c, -s};
    case 2: return {-s, -c};
    default: return {-c, s};
  }
}

}  // namespace turn_sincos_kernel

inline SinCos turn_sincos(double x) {
  constexpr double kPi4 = 0.78539816339744830962;
  if (std::abs(x) <= kPi4) return turn_sincos_kernel::direct(x);
  return turn_sincos_kernel::reduced(x);
}

}  // namespace proxima::ccd::detail
