// SPDX-License-Identifier: MIT
// Rounding of exact GMP rationals to double, to nearest (tests only). Private helper of the
// CGAL oracles in this folder.
#pragma once

#ifdef PROXIMA_HAVE_CGAL

#include <gmp.h>
#include <mpfr.h>

namespace proxima::oracles::detail {

/// Owns an mpq_t (RAII); the rational the oracles convert at the end.
class Rational {
 public:
  Rational() { mpq_init(q_); }
  ~Rational() { mpq_clear(q_); }
  Rational(const Rational&) = delete;
  Rational& operator=(const Rational&) = delete;
  mpq_ptr get() { return q_; }
  mpq_srcptr get() const { return q_; }

 private:
  mpq_t q_;
};

/// Sets q = mantissa * 2^exponent exactly.
inline void set_scaled(Rational& q, mpz_srcptr mantissa, long exponent) {
  mpq_set_z(q.get(), mantissa);
  if (exponent > 0) {
    mpq_mul_2exp(q.get(), q.get(), static_cast<mp_bitcnt_t>(exponent));
  } else if (exponent < 0) {
    mpq_div_2exp(q.get(), q.get(), static_cast<mp_bitcnt_t>(-exponent));
  }
}

/// The double nearest to q (ties to even), via a 53-bit MPFR rounding.
inline double round_to_double(const Rational& q) {
  mpfr_t x;
  mpfr_init2(x, 53);
  mpfr_set_q(x, q.get(), MPFR_RNDN);
  const double d = mpfr_get_d(x, MPFR_RNDN);
  mpfr_clear(x);
  return d;
}

/// The double nearest to sqrt(q), q >= 0: the rational is first carried at 256 bits (error
/// 2^-256 relative, far below half an ulp except in astronomically rare ties), then the root is
/// rounded once to 53 bits.
inline double round_sqrt_to_double(const Rational& q) {
  constexpr mpfr_prec_t kWidePrecision = 256;
  mpfr_t wide;
  mpfr_t root;
  mpfr_init2(wide, kWidePrecision);
  mpfr_init2(root, 53);
  mpfr_set_q(wide, q.get(), MPFR_RNDN);
  mpfr_sqrt(root, wide, MPFR_RNDN);
  const double d = mpfr_get_d(root, MPFR_RNDN);
  mpfr_clear(wide);
  mpfr_clear(root);
  return d;
}

}  // namespace proxima::oracles::detail

#endif  // PROXIMA_HAVE_CGAL
