// SPDX-License-Identifier: MIT
#include "lp/dense_kernels.hpp"

#include <algorithm>
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
/// Two doubles as one value, for the last rows of a column after the Quads (m = n + 2 is often
/// 2 mod 4).
typedef double Pair __attribute__((vector_size(16)));

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
  for (; r + 2 <= rows; r += 2) {
    Pair acc;
    std::memcpy(&acc, out + r, sizeof acc);
    const double* col = m + r;
    for (int c = 0; c < cols; ++c, col += ld) {
      Pair x;
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
    for (; r + 2 <= rows; r += 2) {
      Pair x;
      Pair a;
      std::memcpy(&x, col + r, sizeof x);
      std::memcpy(&a, alpha + r, sizeof a);
      x -= fc * a;
      std::memcpy(col + r, &x, sizeof x);
    }
    for (; r < rows; ++r) col[r] -= fc * alpha[r];
  }
}

/// Running maximum of four lanes: the best value of each lane and the row where it first
/// occurred (as a double: exact for any row count an LP here can have).
__attribute__((always_inline)) inline void keep_larger(const Quad& value, const Quad& row, Quad& best, Quad& best_row) {
  const auto larger = value > best;  // false for NaN: a NaN value never wins
  best = larger ? value : best;
  best_row = larger ? row : best_row;
}

/// Rows from which the pricing pass at n = 3 takes its unrolled build: -10% instructions at
/// 2 x 1024 points, but +3% time at 2 x 8 points (measured, driver of 64 cold pairs).
constexpr int kUnrolledMinRows = 64;

/// FixedCols > 0: compiled for that many columns (the loop over them unrolled, the multipliers
/// kept in registers across the rows); 0: `cols` at run time.
template <int FixedCols>
__attribute__((always_inline)) inline ArgMax argmax(const double* m, std::ptrdiff_t ld, int rows, int split,
                                                    int runtime_cols, const double* d, double shift_a,
                                                    double shift_b, int* lanes) {
  const int cols = FixedCols > 0 ? FixedCols : runtime_cols;
  constexpr double kNone = -__builtin_inf();
  const Quad none = {kNone, kNone, kNone, kNone};
  const Quad first = {shift_a, shift_a, shift_a, shift_a};
  const Quad second = {shift_b, shift_b, shift_b, shift_b};
  const double cut = split;
  Quad best_lo = none;
  Quad best_hi = none;
  Quad row_lo = {-1, -1, -1, -1};
  Quad row_hi = row_lo;
  Quad at_lo = {0, 1, 2, 3};
  Quad at_hi = {4, 5, 6, 7};
  constexpr double kBlock = 8;
  int r = 0;
  for (; r + 8 <= rows; r += 8) {
    Quad lo = at_lo < cut ? first : second;
    Quad hi = at_hi < cut ? first : second;
    const double* col = m + r;
    for (int c = 0; c < cols; ++c, col += ld) {
      Quad x;
      Quad z;
      std::memcpy(&x, col, sizeof x);
      std::memcpy(&z, col + 4, sizeof z);
      lo += d[c] * x;
      hi += d[c] * z;
    }
    keep_larger(lo, at_lo, best_lo, row_lo);
    keep_larger(hi, at_hi, best_hi, row_hi);
    at_lo += kBlock;
    at_hi += kBlock;
  }
  // Each lane holds the first row of its residue class with the lane's largest value. Lanes k
  // and k + 4 merge first (the larger value; on a tie the smaller row, with -1 for "none"
  // carrying value -inf), then the four survivors; the overall first row of the largest value
  // is the smallest row among the lanes holding it.
  if (lanes != nullptr) {
    for (int k = 0; k < 4; ++k) {
      lanes[k] = static_cast<int>(row_lo[k]);
      lanes[k + 4] = static_cast<int>(row_hi[k]);
    }
  }
  const auto from_hi = (best_hi > best_lo) | ((best_hi == best_lo) & (row_hi < row_lo) & (row_hi >= 0));
  const Quad best4 = from_hi ? best_hi : best_lo;
  const Quad row4 = from_hi ? row_hi : row_lo;
  ArgMax out{-1, kNone};
  double out_row = -1;
  for (int k = 0; k < 4; ++k) {
    if (row4[k] < 0) continue;
    if (best4[k] > out.value || (best4[k] == out.value && row4[k] < out_row)) {
      out.value = best4[k];
      out_row = row4[k];
    }
  }
  out.index = static_cast<int>(out_row);
  // The last rows (fewer than eight) in order: a later row wins only when strictly larger.
  for (; r < rows; ++r) {
    double acc = r < split ? shift_a : shift_b;
    for (int c = 0; c < cols; ++c) acc += d[c] * m[c * ld + r];
    if (acc > out.value) {
      out.value = acc;
      out.index = r;
    }
  }
  return out;
}

// The two input passes at n = 3 over contiguous points (x y z x y z ...), four points per step
// as three Quads whose lanes hold the coordinates in the repeating pattern
//   first = (x0 y0 z0 x1), second = (y1 z1 x2 y2), third = (z2 x3 y3 z3).

__attribute__((always_inline)) inline double box(const double* p, std::ptrdiff_t count, double* lo, double* hi) {
  constexpr double kInf = __builtin_inf();
  Quad low[3] = {{kInf, kInf, kInf, kInf}, {kInf, kInf, kInf, kInf}, {kInf, kInf, kInf, kInf}};
  Quad high[3] = {-low[0], -low[0], -low[0]};
  Quad probe[3] = {{0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}};
  std::ptrdiff_t j = 0;
  for (; j + 4 <= count; j += 4) {
    for (int k = 0; k < 3; ++k) {
      Quad x;
      std::memcpy(&x, p + 3 * j + 4 * k, sizeof x);
      probe[k] += x - x;
      low[k] = x < low[k] ? x : low[k];     // std::min(low, x)
      high[k] = high[k] < x ? x : high[k];  // std::max(high, x)
    }
  }
  // Lane (k, l) holds coordinate (4 k + l) mod 3.
  double lo3[3] = {kInf, kInf, kInf};
  double hi3[3] = {-kInf, -kInf, -kInf};
  double sum = 0;
  for (int k = 0; k < 3; ++k) {
    for (int l = 0; l < 4; ++l) {
      const int i = (4 * k + l) % 3;
      lo3[i] = std::min(lo3[i], low[k][l]);
      hi3[i] = std::max(hi3[i], high[k][l]);
      sum += probe[k][l];
    }
  }
  for (; j < count; ++j) {
    for (int i = 0; i < 3; ++i) {
      const double x = p[3 * j + i];
      sum += x - x;
      lo3[i] = std::min(lo3[i], x);
      hi3[i] = std::max(hi3[i], x);
    }
  }
  for (int i = 0; i < 3; ++i) {
    lo[i] = lo3[i];
    hi[i] = hi3[i];
  }
  return sum;
}

__attribute__((always_inline)) inline ArgMax store(const double* p, std::ptrdiff_t count, const double* centre,
                                                   double scale, bool negate, double* out, std::ptrdiff_t ld,
                                                   const double* d) {
  const Quad c0 = {centre[0], centre[1], centre[2], centre[0]};
  const Quad c1 = {centre[1], centre[2], centre[0], centre[1]};
  const Quad c2 = {centre[2], centre[0], centre[1], centre[2]};
  constexpr double kNone = -__builtin_inf();
  Quad best = {kNone, kNone, kNone, kNone};
  Quad best_row = {-1, -1, -1, -1};
  Quad at = {0, 1, 2, 3};
  constexpr double kStep = 4;
  std::ptrdiff_t j = 0;
  for (; j + 4 <= count; j += 4) {
    Quad a;
    Quad b;
    Quad c;
    std::memcpy(&a, p + 3 * j, sizeof a);
    std::memcpy(&b, p + 3 * j + 4, sizeof b);
    std::memcpy(&c, p + 3 * j + 8, sizeof c);
    a = (negate ? c0 - a : a - c0) * scale;
    b = (negate ? c1 - b : b - c1) * scale;
    c = (negate ? c2 - c : c - c2) * scale;
    const Quad x = {a[0], a[3], b[2], c[1]};
    const Quad y = {a[1], b[0], b[3], c[2]};
    const Quad z = {a[2], b[1], c[0], c[3]};
    std::memcpy(out + j, &x, sizeof x);
    std::memcpy(out + ld + j, &y, sizeof y);
    std::memcpy(out + 2 * ld + j, &z, sizeof z);
    if (d != nullptr) {
      Quad v = {0, 0, 0, 0};
      v += d[0] * x;
      v += d[1] * y;
      v += d[2] * z;
      keep_larger(v, at, best, best_row);
      at += kStep;
    }
  }
  ArgMax out_max{-1, kNone};
  double out_row = -1;
  for (int k = 0; k < 4; ++k) {
    if (best_row[k] < 0) continue;
    if (best[k] > out_max.value || (best[k] == out_max.value && best_row[k] < out_row)) {
      out_max.value = best[k];
      out_row = best_row[k];
    }
  }
  out_max.index = static_cast<int>(out_row);
  for (; j < count; ++j) {
    double v = 0;
    for (int i = 0; i < 3; ++i) {
      const double x = p[3 * j + i];
      out[i * ld + j] = negate ? (centre[i] - x) * scale : (x - centre[i]) * scale;
      if (d != nullptr) v += d[i] * out[i * ld + j];
    }
    if (d != nullptr && v > out_max.value) {
      out_max.value = v;
      out_max.index = static_cast<int>(j);
    }
  }
  return out_max;
}

__attribute__((always_inline)) inline void extremes(const double* p, std::ptrdiff_t count, const double* normal,
                                                    double* low, double* high) {
  constexpr double kInf = __builtin_inf();
  Quad lo = {kInf, kInf, kInf, kInf};
  Quad hi = -lo;
  std::ptrdiff_t j = 0;
  for (; j + 4 <= count; j += 4) {
    Quad a;
    Quad b;
    Quad c;
    std::memcpy(&a, p + 3 * j, sizeof a);
    std::memcpy(&b, p + 3 * j + 4, sizeof b);
    std::memcpy(&c, p + 3 * j + 8, sizeof c);
    const Quad x = {a[0], a[3], b[2], c[1]};
    const Quad y = {a[1], b[0], b[3], c[2]};
    const Quad z = {a[2], b[1], c[0], c[3]};
    Quad dot = {0, 0, 0, 0};
    dot += normal[0] * x;
    dot += normal[1] * y;
    dot += normal[2] * z;
    lo = dot < lo ? dot : lo;  // std::min(lo, dot)
    hi = hi < dot ? dot : hi;  // std::max(hi, dot)
  }
  double l = kInf;
  double h = -kInf;
  for (int k = 0; k < 4; ++k) {
    l = std::min(l, lo[k]);
    h = std::max(h, hi[k]);
  }
  for (; j < count; ++j) {
    double dot = 0;
    for (int i = 0; i < 3; ++i) dot += normal[i] * p[3 * j + i];
    l = std::min(l, dot);
    h = std::max(h, dot);
  }
  *low = l;
  *high = h;
}

void extremes_portable(const double* p, std::ptrdiff_t count, const double* normal, double* low, double* high) {
  extremes(p, count, normal, low, high);
}

double box_portable(const double* p, std::ptrdiff_t count, double* lo, double* hi) { return box(p, count, lo, hi); }
ArgMax store_portable(const double* p, std::ptrdiff_t count, const double* centre, double scale, bool negate,
                      double* out, std::ptrdiff_t ld, const double* d) {
  return store(p, count, centre, scale, negate, out, ld, d);
}

ArgMax argmax_portable(const double* m, std::ptrdiff_t ld, int rows, int split, int cols, const double* d,
                       double shift_a, double shift_b, int* lanes) {
  if (cols == 3 && rows >= kUnrolledMinRows) return argmax<3>(m, ld, rows, split, cols, d, shift_a, shift_b, lanes);
  return argmax<0>(m, ld, rows, split, cols, d, shift_a, shift_b, lanes);
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
__attribute__((target("avx2"))) ArgMax argmax_avx2(const double* m, std::ptrdiff_t ld, int rows, int split,
                                                    int cols, const double* d, double shift_a, double shift_b,
                                                    int* lanes) {
  if (cols == 3 && rows >= kUnrolledMinRows) return argmax<3>(m, ld, rows, split, cols, d, shift_a, shift_b, lanes);
  return argmax<0>(m, ld, rows, split, cols, d, shift_a, shift_b, lanes);
}
__attribute__((target("avx2"))) double box_avx2(const double* p, std::ptrdiff_t count, double* lo, double* hi) {
  return box(p, count, lo, hi);
}
__attribute__((target("avx2"))) ArgMax store_avx2(const double* p, std::ptrdiff_t count, const double* centre,
                                                  double scale, bool negate, double* out, std::ptrdiff_t ld,
                                                  const double* d) {
  return store(p, count, centre, scale, negate, out, ld, d);
}
__attribute__((target("avx2"))) void extremes_avx2(const double* p, std::ptrdiff_t count, const double* normal,
                                                   double* low, double* high) {
  extremes(p, count, normal, low, high);
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

ArgMax largest_column_combination(const double* m, std::ptrdiff_t ld, int rows, int split, int cols, const double* d,
                                  double shift_a, double shift_b, int* lanes) {
#ifdef PROXIMA_LP_X86
  if (kHaveAvx2) return argmax_avx2(m, ld, rows, split, cols, d, shift_a, shift_b, lanes);
#endif
  return argmax_portable(m, ld, rows, split, cols, d, shift_a, shift_b, lanes);
}

double box3(const double* p, std::ptrdiff_t count, double* lo, double* hi) {
#ifdef PROXIMA_LP_X86
  if (kHaveAvx2) return box_avx2(p, count, lo, hi);
#endif
  return box_portable(p, count, lo, hi);
}

ArgMax store3(const double* p, std::ptrdiff_t count, const double* centre, double scale, bool negate, double* out,
              std::ptrdiff_t ld, const double* d) {
#ifdef PROXIMA_LP_X86
  if (kHaveAvx2) return store_avx2(p, count, centre, scale, negate, out, ld, d);
#endif
  return store_portable(p, count, centre, scale, negate, out, ld, d);
}

void extremes3(const double* p, std::ptrdiff_t count, const double* normal, double* low, double* high) {
#ifdef PROXIMA_LP_X86
  if (kHaveAvx2) {
    extremes_avx2(p, count, normal, low, high);
    return;
  }
#endif
  extremes_portable(p, count, normal, low, high);
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
