// SPDX-License-Identifier: MIT
// The arithmetic behind Pose::inverse and Pose composition (operator*), on the raw column-major
// storage of the rotation (9 doubles) and the translation (3 doubles): a portable form (scalar
// code with a fixed summation order, the one GCC's Eigen products had here: the answers did not
// move) and an AVX2 form with the same products and sums in the same order (no FMA), so the same
// bits on any compiler. Why AVX2: gjk::distance forms the relative pose pose_a.inverse() * pose_b on
// every query, about 150 instructions out of line of the 1,500-2,400 a polytope N=8 / N=32 query
// takes (docs/benchmarks.md, session 28); four lanes hold a whole column. Private (src/core): only
// pose.cpp and the test that pins the two forms together include it.
//
// Summation order of an entry i of m v, with x, y, z = m(i, 0) v0, m(i, 1) v1, m(i, 2) v2:
// (x + y) + z for rows 0 and 1, x + (y + z) for row 2 (GCC 12's SSE2 code for Eigen's 3x3
// product: rows 0-1 in one packet, row 2 alone; measured entry by entry in session 28).
#pragma once

namespace proxima::detail {

/// True when the CPU runs AVX2 (checked once at start-up); the pose_*_avx2 kernels may be called
/// only then.
extern const bool kPoseHaveAvx2;

/// r = ra^T, t = -(ra^T ta): the inverse of the pose (ra, ta). r (9) and t (3) must not overlap
/// the inputs.
void pose_invert_portable(const double* ra, const double* ta, double* r, double* t);
void pose_invert_avx2(const double* ra, const double* ta, double* r, double* t);

/// r = ra rb, t = ra tb + ta: the pose (ra, ta) after (rb, tb). r (9) and t (3) must not overlap
/// the inputs.
void pose_compose_portable(const double* ra, const double* ta, const double* rb, const double* tb, double* r,
                           double* t);
void pose_compose_avx2(const double* ra, const double* ta, const double* rb, const double* tb, double* r, double* t);

/// r, t = the pose (rb, tb) seen from (ra, ta): ra^T rb and ra^T tb + (-(ra^T ta)), with the
/// operations of pose_invert followed by pose_compose (the same bits in one pass).
void pose_relative_portable(const double* ra, const double* ta, const double* rb, const double* tb, double* r,
                            double* t);
void pose_relative_avx2(const double* ra, const double* ta, const double* rb, const double* tb, double* r,
                        double* t);

}  // namespace proxima::detail
