// SPDX-License-Identifier: MIT
// The arithmetic behind Pose::inverse and Pose composition (operator*), on the raw column-major
// storage of the rotation (9 doubles) and the translation (3 doubles): a portable form (Eigen's
// expressions) and an AVX2 form with the same products and sums in the same order (no FMA), so
// the same bits. Why AVX2: gjk::distance forms the relative pose pose_a.inverse() * pose_b on
// every query, about 150 instructions out of line of the 1,500-2,400 a polytope N=8 / N=32 query
// takes (docs/benchmarks.md, session 28); four lanes hold a whole column. Kept out of pose.hpp so
// only pose.cpp and the test that pins the two forms together include it.
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

}  // namespace proxima::detail
