// SPDX-License-Identifier: MIT
// The dense kernels of the structured simplex (intersect_fast.cpp), each compiled twice and
// picked at run time (AVX2 where the CPU has it, the portable build otherwise):
//  - out += M d for a column-major M: its pricing pass (every point's value under the
//    multipliers) and its entering column (the basis inverse times a point);
//  - the first row of shift + M d with the largest value, without storing the values: Dantzig
//    pricing as one pass (each set's support point under the multipliers);
//  - M -= alpha f^T: the product-form update of the basis inverse after a pivot.
#pragma once

#include <cstddef>

namespace proxima::lp::detail {

/// out[r] = (((out[r] + d[0] M[0][r]) + d[1] M[1][r]) + ...) + d[cols-1] M[cols-1][r] for
/// r < rows, where column c of M starts at m + c * ld. The sums are formed in exactly this order,
/// each product rounded before it is added (no fused multiply-add), so the AVX2 path taken at run
/// time where the CPU has it returns the same bits as the portable one: the pricing choice and
/// the certificates do not depend on the machine.
void add_column_combination(const double* m, std::ptrdiff_t ld, int rows, int cols, const double* d, double* out);

/// A row and its value.
struct ArgMax {
  int index = -1;
  double value = 0;
};

/// Number of rows largest_column_combination reports in `lanes`.
inline constexpr int kLargestLanes = 8;

/// The smallest r < rows at which v[r] = (((s_r + d[0] M[0][r]) + d[1] M[1][r]) + ...) is
/// largest, and that value, where s_r = shift_a for r < split and shift_b from there: the values
/// of add_column_combination with out[r] = s_r, bit for bit on every path, never stored. NaN
/// values never win; index -1 (value -inf) when rows = 0 or every value is NaN.
/// When `lanes` is not null it receives kLargestLanes rows: for k < kLargestLanes, the first row
/// r = k (mod kLargestLanes) below rows - rows % kLargestLanes with the largest value of its
/// class (-1 when the class is empty): runners-up that the caller may price again cheaply.
ArgMax largest_column_combination(const double* m, std::ptrdiff_t ld, int rows, int split, int cols, const double* d,
                                  double shift_a, double shift_b, int* lanes = nullptr);

/// The input passes of lp::intersect at n = 3 for contiguous points p (x y z x y z ..., count
/// points): box3 writes the smallest and largest coordinate i of the points to lo[i], hi[i]
/// (std::min / std::max) and returns the sum of x - x over every coordinate (0 when all are
/// finite, NaN otherwise); store3 writes out[i ld + j] = (p_j[i] - centre[i]) * scale, or
/// (centre[i] - p_j[i]) * scale when `negate`, the same operations as the scalar loops. When d
/// is not null, store3 also returns the first j at which ((0 + d[0] o_j0) + d[1] o_j1) + d[2] o_j2
/// over the stored values o is largest, and that value (largest_column_combination's values
/// with shift 0: the crash basis's support point, found without another pass).
double box3(const double* p, std::ptrdiff_t count, double* lo, double* hi);
ArgMax store3(const double* p, std::ptrdiff_t count, const double* centre, double scale, bool negate, double* out,
              std::ptrdiff_t ld, const double* d = nullptr);
/// The smallest and largest of ((0 + normal[0] x) + normal[1] y) + normal[2] z over the same
/// contiguous points (a separating plane's check on the input), as the scalar loop computes it.
void extremes3(const double* p, std::ptrdiff_t count, const double* normal, double* low, double* high);

/// M[c][r] = M[c][r] - f[c] * alpha[r] for r < rows, c < cols (column c of M at m + c * ld): the
/// product rounded before it is subtracted, on every path.
void subtract_outer_product(double* m, std::ptrdiff_t ld, int rows, int cols, const double* alpha, const double* f);

}  // namespace proxima::lp::detail
