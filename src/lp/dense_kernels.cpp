// SPDX-License-Identifier: MIT
#include "lp/dense_kernels.hpp"

#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#define PROXIMA_LP_X86 1
#endif

namespace proxima::lp::detail {
namespace {

/// Four doubles as one value: AVX2 holds it in one register, SSE2 in two; the compiler lowers it
/// for any other target. Moved with memcpy (no alignment is assumed), written out in place
/// because a helper returning a Quad would change its ABI between the two compilations.
typedef double Quad __attribute__((vector_size(32)));

// Written once, compiled twice (portable and AVX2) by inlining into the two entry points. Eight
// rows per block: their partial sums stay in registers across all columns, so each matrix
// element is loaded once and `out` read and written once (not once per column as with one axpy
// per column).
__attribute__((always_inline)) inline void combine(const double* m, std::ptrdiff_t ld, int rows, int cols,
                                                   const double* d, double* out) {
  int r = 0;
  for (; r + 8 <= rows; r += 8) {
    Quad lo;
    Quad hi;
    std::memcpy(&lo, out + r, sizeof lo);
    std::memcpy(&hi, out + r + 4, sizeof hi);
    const double* col = m + r;
    for (int c = 0; c < cols; ++c, col += ld) {
      Quad x;
      Quad z;
      std::memcpy(&x, col, sizeof x);
      std::memcpy(&z, col + 4, sizeof z);
      lo += d[c] * x;
      hi += d[c] * z;
    }
    std::memcpy(out + r, &lo, sizeof lo);
    std::memcpy(out + r + 4, &hi, sizeof hi);
  }
  for (; r + 4 <= rows; r += 4) {
    Quad acc;
    std::memcpy(&acc, out + r, sizeof acc);
    const double* col = m + r;
    for (int c = 0; c < cols; ++c, col += ld) {
      Quad x;
      std::memcpy(&x, col, sizeof x);
      acc += d[c] * x;
    }
    std::memcpy(out + r, &acc, sizeof acc);
  }
  for (; r < rows; ++r) {
    double acc = out[r];
    for (int c = 0; c < cols; ++c) acc += d[c] * m[c * ld + r];
    out[r] = acc;
  }
}

__attribute__((always_inline)) inline void outer(double* m, std::ptrdiff_t ld, int rows, int cols, const double* alpha,
                                                 const double* f) {
  for (int c = 0; c < cols; ++c) {
    double* col = m + c * ld;
    const double fc = f[c];
    int r = 0;
    for (; r + 4 <= rows; r += 4) {
      Quad x;
      Quad a;
      std::memcpy(&x, col + r, sizeof x);
      std::memcpy(&a, alpha + r, sizeof a);
      x -= fc * a;
      std::memcpy(col + r, &x, sizeof x);
    }
    for (; r < rows; ++r) col[r] -= fc * alpha[r];
  }
}

void outer_portable(double* m, std::ptrdiff_t ld, int rows, int cols, const double* alpha, const double* f) {
  outer(m, ld, rows, cols, alpha, f);
}

void combine_portable(const double* m, std::ptrdiff_t ld, int rows, int cols, const double* d, double* out) {
  combine(m, ld, rows, cols, d, out);
}

#ifdef PROXIMA_LP_X86
// "avx2" without "fma": a fused multiply-add would round differently from the portable loop.
__attribute__((target("avx2"))) void combine_avx2(const double* m, std::ptrdiff_t ld, int rows, int cols,
                                                  const double* d, double* out) {
  combine(m, ld, rows, cols, d, out);
}
__attribute__((target("avx2"))) void outer_avx2(double* m, std::ptrdiff_t ld, int rows, int cols, const double* alpha,
                                                const double* f) {
  outer(m, ld, rows, cols, alpha, f);
}
const bool kHaveAvx2 = __builtin_cpu_supports("avx2") != 0;
#endif

}  // namespace

void add_column_combination(const double* m, std::ptrdiff_t ld, int rows, int cols, const double* d, double* out) {
#ifdef PROXIMA_LP_X86
  if (kHaveAvx2) {
    combine_avx2(m, ld, rows, cols, d, out);
    return;
  }
#endif
  combine_portable(m, ld, rows, cols, d, out);
}

void subtract_outer_product(double* m, std::ptrdiff_t ld, int rows, int cols, const double* alpha, const double* f) {
#ifdef PROXIMA_LP_X86
  if (kHaveAvx2) {
    outer_avx2(m, ld, rows, cols, alpha, f);
    return;
  }
#endif
  outer_portable(m, ld, rows, cols, alpha, f);
}

}  // namespace proxima::lp::detail
