// SPDX-License-Identifier: MIT
// Scaling by powers of two, for code that moves a query to unit scale and back (the mesh's
// scale-free validation, ccd's rescaled queries): exact while the values stay normal doubles.
#pragma once

#include <proxima/core/types.hpp>

#include <cmath>

namespace proxima::detail {

/// p times 2^exponent, coordinate by coordinate. ldexp rather than a product with 2^exponent:
/// that factor itself overflows or underflows for exponents beyond the double range (a subnormal
/// extent needs 2^1074), while the product p * 2^exponent can still be a normal double.
inline Vec3 times_power_of_two(const Vec3& p, int exponent) {
  return {std::ldexp(p.x(), exponent), std::ldexp(p.y(), exponent), std::ldexp(p.z(), exponent)};
}

}  // namespace proxima::detail
