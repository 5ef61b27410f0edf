// SPDX-License-Identifier: MIT
// Private: atan2 for the raster's azimuths (branch_phi), cheaper than the C library's and within
// about one ulp of it. Drawing a body projects every corner and every halving midpoint of its part
// boundaries, each with one atan2; the C library's spent about 140 instructions per call there
// (std::atan2 is correctly rounded or nearly so and checks its own error). The azimuths only place
// pixel records, which choose candidates; the collisions themselves are resolved analytically.
#pragma once

#include <cmath>
#include <limits>

namespace proxima::ccd::detail {

/// atan2(y, x) in [-pi, pi], for the raster's azimuths: within 2 ulp of std::atan2 (asserted by
/// tests/ccd/azimuth_atan2_test.cpp; mostly equal), its sign always y's (+-0 included: a point on
/// a cut keeps its branch), |result| <= pi rounded, and the C library's own results for the
/// cases it leaves (both zero, infinite, NaN, or |y| + |x| overflowing).
///
/// Our method: one division reduces the angle to within pi/8 of a base of 0, pi/4 or pi/2 (for
/// |y| <= tan(pi/8) |x|: u = |y| / |x|; for |x| <= tan(pi/8) |y|: u = -|x| / |y|, base pi/2;
/// between: u = (|y| - |x|) / (|y| + |x|) = tan(angle - pi/4)); atan(u) = u + u z P(z), z = u^2
/// <= 3 - 2 sqrt(2), P a Chebyshev fit of degree 10 (mpmath chebyfit, absolute error 3e-17 of
/// z P, so below 0.1 ulp of the result); x < 0 mirrors the angle to pi - angle. The bases carry
/// their rounding error (lo) so that the sum rounds once more only.
inline double azimuth_atan2(double y, double x) {
  const double a = std::abs(y), b = std::abs(x);
  const double sum = a + b;
  if (!(sum > 0 && sum <= std::numeric_limits<double>::max())) return std::atan2(y, x);
  constexpr double kTanPi8 = 0.41421356237309503;  // tan(pi / 8) = sqrt(2) - 1
  // Bases pi/4, pi/2, and their mirrors 3pi/4, pi/2, pi, as hi + lo (lo: the rounding error of hi).
  constexpr double kPi4Hi = 0.7853981633974483, kPi4Lo = 3.061616997868383e-17;
  constexpr double kPi2Hi = 1.5707963267948966, kPi2Lo = 6.123233995736766e-17;
  constexpr double k3Pi4Hi = 2.356194490192345, k3Pi4Lo = 9.184850993605148e-17;
  constexpr double kPiHi = 3.141592653589793, kPiLo = 1.2246467991473532e-16;
  double u, hi, lo;
  const bool mirror = x < 0;
  if (a <= kTanPi8 * b) {
    u = a / b;
    hi = mirror ? kPiHi : 0.0;
    lo = mirror ? kPiLo : 0.0;
  } else if (b <= kTanPi8 * a) {
    u = -b / a;
    hi = kPi2Hi;
    lo = kPi2Lo;
  } else {
    u = (a - b) / sum;
    hi = mirror ? k3Pi4Hi : kPi4Hi;
    lo = mirror ? k3Pi4Lo : kPi4Lo;
  }
  const double z = u * u, w = z * z;
  // P(z) in two chains of w = z^2 (even and odd powers): half the latency of one Horner chain.
  // (Estrin's scheme, and the case chosen by table lookups instead of branches, measured no
  // faster: docs/benchmarks.md, session 20.)
  const double even = -0.3333333333333333 +
                      w * (-0.14285714284665682 +
                           w * (-0.0909090457530649 +
                                w * (-0.06664510525508936 + w * (-0.050854078345894844 + w * -0.019175404711104935))));
  const double odd =
      0.19999999999995516 +
      w * (0.11111111015187018 + w * (0.07692183125376892 + w * (0.05858140904866328 + w * 0.03923044778479309)));
  const double atan_u = u + u * (z * (even + z * odd));
  // pi - (base + atan(u)) for x < 0: the mirrored base above, atan(u) subtracted.
  const double angle = hi + (lo + (mirror ? -atan_u : atan_u));
  return std::copysign(angle, y);
}

}  // namespace proxima::ccd::detail
