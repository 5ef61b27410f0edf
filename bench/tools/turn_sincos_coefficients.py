#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The constants of src/ccd/turn_sincos.hpp, from mpmath at 200 bits (Debian's python3-mpmath):
# the Taylor coefficients of sin and cos as +-1/n! rounded to double, the first terms the
# polynomials leave out (relative to the value at pi/4), and pi/2 split in 33 + 33 + 53 bits for
# the Cody-Waite reduction. usage: python3 bench/tools/turn_sincos_coefficients.py
import mpmath

mpmath.mp.prec = 200
for k in range(1, 9):  # sin x = x + x^3 (S1 + S2 z + ... + S8 z^7), z = x^2
    print("S%d = %r" % (k, float(mpmath.mpf(-1) ** k / mpmath.factorial(2 * k + 1))))
for k in range(1, 8):  # cos x = 1 - z/2 + z^2 (C1 + C2 z + ... + C7 z^6)
    print("C%d = %r" % (k, float(mpmath.mpf(-1) ** (k + 1) / mpmath.factorial(2 * k + 2))))
quarter = mpmath.pi / 4
print("left out at pi/4: sin x^19/19! %.3g, cos x^18/18! %.3g (relative)" %
      (quarter ** 19 / mpmath.factorial(19) / mpmath.sin(quarter),
       quarter ** 18 / mpmath.factorial(18) / mpmath.cos(quarter)))


def round_bits(x, bits):
    m, e = mpmath.frexp(x)
    return mpmath.ldexp(mpmath.nint(m * 2 ** bits), e - bits)


half_pi = mpmath.pi / 2
p1 = round_bits(half_pi, 33)
p2 = round_bits(half_pi - p1, 33)
print("P1 = %r, P2 = %r, P3 = %r" % (float(p1), float(p2), float(half_pi - p1 - p2)))
print("2/pi = %r, pi/4 = %r" % (float(2 / mpmath.pi), float(quarter)))
