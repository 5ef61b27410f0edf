// SPDX-License-Identifier: MIT
#include <proxima/core/pose.hpp>

#include <proxima/core/error.hpp>
#include <proxima/core/tolerance.hpp>
#include "core/pose_kernels.hpp"

#include <Eigen/SVD>
#include <algorithm>
#include <cmath>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define PROXIMA_POSE_X86 1
#endif

namespace proxima {

Pose Pose::from_quaternion(double w, double x, double y, double z, const Vec3& translation) {
  // The field names are built (std::string) only on the failing path: these factories run once
  // per element of a batch and once per advancement step of a time of impact.
  if (!(std::isfinite(w) && std::isfinite(x) && std::isfinite(y) && std::isfinite(z) && translation.allFinite())) {
    require_finite("quaternion.w", w);
    require_finite("quaternion.x", x);
    require_finite("quaternion.y", y);
    require_finite("quaternion.z", z);
    require_finite("translation", translation);
  }
  const double largest = std::max({std::abs(w), std::abs(x), std::abs(y), std::abs(z)});
  if (largest > kHugeQuaternionEntry) [[unlikely]] {
    // Entries whose squares could overflow: divide by the largest magnitude first, so that the
    // norm is finite, no FE_OVERFLOW is raised and the rotation is the one asked for (an infinite
    // norm would give the identity). Only such quaternions take this path: others keep their bits.
    w /= largest;
    x /= largest;
    y /= largest;
    z /= largest;
  }
  const double norm = std::sqrt(w * w + x * x + y * y + z * z);
  if (!(norm >= kMinQuaternionNorm)) {
    throw InvalidInput("quaternion", "must not be zero, got norm " + format_number(norm));
  }
  const Eigen::Quaterniond q(w / norm, x / norm, y / norm, z / norm);
  return Pose(q.toRotationMatrix(), translation);
}

Pose Pose::from_matrix(const Mat3& rotation, const Vec3& translation) {
  // As in from_quaternion, the field names are built only on the failing path (the raster ccd
  // makes several poses per query; the strings cost more than the rest of this function).
  if (!(rotation.allFinite() && translation.allFinite())) {
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) {
        require_finite("matrix[" + std::to_string(r) + "][" + std::to_string(c) + "]", rotation(r, c));
      }
    }
    require_finite("translation", translation);
  }
  const double orthonormality_error = (rotation.transpose() * rotation - Mat3::Identity()).cwiseAbs().maxCoeff();
  if (orthonormality_error > kRotationOrthonormalityTolerance) {
    throw InvalidInput("matrix", "must be a rotation (orthonormal), |R^T R - I| = " +
                                     format_number(orthonormality_error));
  }
  const double det = rotation.determinant();
  if (std::abs(det - 1) > kRotationOrthonormalityTolerance) {
    throw InvalidInput("matrix", "must be a proper rotation (det +1), got det " + format_number(det));
  }
  // A matrix that is already a rotation to double precision (what rotation() of any Pose returns)
  // is kept bit for bit, so from_matrix(p.rotation(), p.translation()) == p exactly: a pose that
  // travels as a matrix (pickling, scene files, other processes) gives the same answers.
  if (orthonormality_error <= kRotationExactTolerance && std::abs(det - 1) <= kRotationExactTolerance) {
    return Pose(rotation, translation);
  }
  // Otherwise re-orthonormalise (nearest rotation in Frobenius norm) so downstream code can rely
  // on R^T == R^-1 to double precision.
  const Eigen::JacobiSVD<Mat3> svd(rotation, Eigen::ComputeFullU | Eigen::ComputeFullV);
  return Pose(svd.matrixU() * svd.matrixV().transpose(), translation);
}

Pose Pose::from_isometry(const Eigen::Isometry3d& isometry) {
  return from_matrix(isometry.linear(), isometry.translation());
}

Pose Pose::from_euler_xyz(double ax, double ay, double az, const Vec3& translation) {
  require_finite("euler_xyz[0]", ax);
  require_finite("euler_xyz[1]", ay);
  require_finite("euler_xyz[2]", az);
  require_finite("translation", translation);
  const Mat3 r = (Eigen::AngleAxisd(ax, Vec3::UnitX()) * Eigen::AngleAxisd(ay, Vec3::UnitY()) *
                  Eigen::AngleAxisd(az, Vec3::UnitZ()))
                     .toRotationMatrix();
  return Pose(r, translation);
}

Pose Pose::from_translation(const Vec3& translation) {
  if (!translation.allFinite()) require_finite("translation", translation);
  return Pose(Mat3::Identity(), translation);
}

Eigen::Isometry3d Pose::isometry() const {
  Eigen::Isometry3d iso = Eigen::Isometry3d::Identity();
  iso.linear() = rotation_;
  iso.translation() = translation_;
  return iso;
}

Pose Pose::inverse() const {
  Pose r;
  if (detail::kPoseHaveAvx2) {
    detail::pose_invert_avx2(rotation_.data(), translation_.data(), r.rotation_.data(), r.translation_.data());
  } else {
    detail::pose_invert_portable(rotation_.data(), translation_.data(), r.rotation_.data(), r.translation_.data());
  }
  return r;
}

Pose operator*(const Pose& a, const Pose& b) {
  Pose r;
  if (detail::kPoseHaveAvx2) {
    detail::pose_compose_avx2(a.rotation_.data(), a.translation_.data(), b.rotation_.data(), b.translation_.data(),
                              r.rotation_.data(), r.translation_.data());
  } else {
    detail::pose_compose_portable(a.rotation_.data(), a.translation_.data(), b.rotation_.data(),
                                  b.translation_.data(), r.rotation_.data(), r.translation_.data());
  }
  return r;
}

Pose relative_pose(const Pose& a, const Pose& b) {
  Pose r;
  if (detail::kPoseHaveAvx2) {
    detail::pose_relative_avx2(a.rotation_.data(), a.translation_.data(), b.rotation_.data(), b.translation_.data(),
                               r.rotation_.data(), r.translation_.data());
  } else {
    detail::pose_relative_portable(a.rotation_.data(), a.translation_.data(), b.rotation_.data(),
                                   b.translation_.data(), r.rotation_.data(), r.translation_.data());
  }
  return r;
}

namespace detail {

// Not when this file is itself compiled for AVX (PROXIMA_NATIVE): the compiler may then fuse the
// portable kernels' multiply-adds, which the AVX2 kernels below do not.
#if defined(PROXIMA_POSE_X86) && !defined(__AVX__)
const bool kPoseHaveAvx2 = __builtin_cpu_supports("avx2") != 0;
#else
const bool kPoseHaveAvx2 = false;
#endif

namespace {

/// Entry i of m v (m column-major 3x3) in the order of pose_kernels.hpp.
inline double row_times(const double* m, const double* v, int i) {
  const double x = m[i] * v[0];
  const double y = m[3 + i] * v[1];
  const double z = m[6 + i] * v[2];
  return i < 2 ? (x + y) + z : x + (y + z);
}

}  // namespace

void pose_invert_portable(const double* ra, const double* ta, double* r, double* t) {
  for (int j = 0; j < 3; ++j) {
    for (int i = 0; i < 3; ++i) {
      r[3 * j + i] = ra[3 * i + j];
    }
  }
  for (int i = 0; i < 3; ++i) {
    t[i] = -row_times(r, ta, i);
  }
}

void pose_compose_portable(const double* ra, const double* ta, const double* rb, const double* tb, double* r,
                           double* t) {
  for (int j = 0; j < 3; ++j) {
    for (int i = 0; i < 3; ++i) {
      r[3 * j + i] = row_times(ra, rb + 3 * j, i);
    }
  }
  for (int i = 0; i < 3; ++i) {
    t[i] = row_times(ra, tb, i) + ta[i];
  }
}

void pose_relative_portable(const double* ra, const double* ta, const double* rb, const double* tb, double* r,
                            double* t) {
  double inverse_r[9], inverse_t[3];
  pose_invert_portable(ra, ta, inverse_r, inverse_t);
  pose_compose_portable(inverse_r, inverse_t, rb, tb, r, t);
}

#ifdef PROXIMA_POSE_X86
// The AVX2 forms hold one column (3 doubles) per register. Columns 0 and 1 of a rotation are
// read 4 wide (the fourth lane is the next column's first entry, unused); column 2 and the
// translations, which end their arrays, with a 3-lane mask. Every result column is stored as
// 2 + 1 doubles (store3), not with a mask. An entry's three terms x, y, z (the
// products with v[0], v[1], v[2]) are summed as (x + y) + z in rows 0 and 1 and as x + (y + z) in
// row 2 (pose_kernels.hpp); combine() adds them in those orders, and multiply and add are kept
// separate (no "fma" target), so every entry has the portable form's bits.
namespace {

__attribute__((target("avx2"))) inline __m256i three_lanes() { return _mm256_setr_epi64x(-1, -1, -1, 0); }

/// A column of the product of the matrix (c0, c1, c2) with v, in pose_kernels.hpp's orders: with x, y, z
/// the lanes of c0 v[0], c1 v[1], c2 v[2], (x + y) + z in lanes 0 and 1, (z + y) + x (the bits of
/// x + (y + z)) in lane 2: x and z trade places in lane 2 (blend mask 0b0100) before the sums.
__attribute__((target("avx2"))) inline __m256d combine(__m256d c0, __m256d c1, __m256d c2, const double* v) {
  const __m256d x = _mm256_mul_pd(c0, _mm256_broadcast_sd(v));
  const __m256d y = _mm256_mul_pd(c1, _mm256_broadcast_sd(v + 1));
  const __m256d z = _mm256_mul_pd(c2, _mm256_broadcast_sd(v + 2));
  const __m256d first = _mm256_blend_pd(x, z, 0x4);
  const __m256d last = _mm256_blend_pd(z, x, 0x4);
  return _mm256_add_pd(_mm256_add_pd(first, y), last);
}

/// Lanes 0..2 of c into r[0..2], as a pair and a single: no masked store, and no store wider than
/// the column. Why: the caller reads the pose back at once (gjk::distance's support and centres
/// read b_in_a right after relative_pose), and on this AMD EPYC those loads waited for the masked
/// (and the overlapping 4-wide) stores to reach the cache instead of taking their data from them:
/// the old stores cost the N = 8 distance pairs ~8 ns a query (docs/benchmarks.md, session 32).
/// Same values, so the same bits.
__attribute__((target("avx2"))) inline void store3(double* r, __m256d c) {
  _mm_storeu_pd(r, _mm256_castpd256_pd128(c));
  _mm_store_sd(r + 2, _mm256_extractf128_pd(c, 1));
}
/// Stores three columns into r (9 doubles), each by store3.
__attribute__((target("avx2"))) inline void store_columns(double* r, __m256d c0, __m256d c1, __m256d c2) {
  store3(r, c0);
  store3(r + 3, c1);
  store3(r + 6, c2);
}

/// The pose (r, t) = the matrix (c0, c1, c2) times the pose (rb, tb), its translation moved by
/// `shift` (fourth lane unused): the three columns of the product stored, then the matrix times tb
/// plus shift. Written once for pose_compose_avx2 (shift: ta) and pose_relative_avx2 (shift: the
/// inverse's translation), which end alike.
__attribute__((target("avx2"))) inline void store_product(__m256d c0, __m256d c1, __m256d c2, const double* rb,
                                                          const double* tb, __m256d shift, double* r, double* t) {
  store_columns(r, combine(c0, c1, c2, rb), combine(c0, c1, c2, rb + 3), combine(c0, c1, c2, rb + 6));
  store3(t, _mm256_add_pd(combine(c0, c1, c2, tb), shift));
}

/// The columns of ra^T (the rows of ra: (a0 a3 a6), (a1 a4 a7), (a2 a5 a8)), fourth lanes zero.
__attribute__((target("avx2"))) inline void transposed_columns(const double* ra, __m256d& row0, __m256d& row1,
                                                               __m256d& row2) {
  const __m256d c0 = _mm256_loadu_pd(ra);                        // a0 a1 a2 (a3)
  const __m256d c1 = _mm256_loadu_pd(ra + 3);                    // a3 a4 a5 (a6)
  const __m256d c2 = _mm256_maskload_pd(ra + 6, three_lanes());  // a6 a7 a8 0
  const __m256d zero = _mm256_setzero_pd();
  const __m256d lo01 = _mm256_unpacklo_pd(c0, c1);  // a0 a3 | a2 a5
  const __m256d hi01 = _mm256_unpackhi_pd(c0, c1);  // a1 a4 | a3 a6
  const __m256d lo2 = _mm256_unpacklo_pd(c2, zero);  // a6 0 | a8 0
  const __m256d hi2 = _mm256_unpackhi_pd(c2, zero);  // a7 0 | 0 0
  row0 = _mm256_permute2f128_pd(lo01, lo2, 0x20);
  row1 = _mm256_permute2f128_pd(hi01, hi2, 0x20);
  row2 = _mm256_permute2f128_pd(lo01, lo2, 0x31);
}

/// -(ra^T ta) from the columns of ra^T: the sign flipped exactly, as unary minus does.
__attribute__((target("avx2"))) inline __m256d inverse_translation(__m256d row0, __m256d row1, __m256d row2,
                                                                   const double* ta) {
  return _mm256_xor_pd(combine(row0, row1, row2, ta), _mm256_set1_pd(-0.0));
}

}  // namespace

__attribute__((target("avx2"))) void pose_invert_avx2(const double* ra, const double* ta, double* r, double* t) {
  __m256d row0, row1, row2;
  transposed_columns(ra, row0, row1, row2);
  store_columns(r, row0, row1, row2);
  store3(t, inverse_translation(row0, row1, row2, ta));
}

__attribute__((target("avx2"))) void pose_compose_avx2(const double* ra, const double* ta, const double* rb,
                                                       const double* tb, double* r, double* t) {
  const __m256d c0 = _mm256_loadu_pd(ra);
  const __m256d c1 = _mm256_loadu_pd(ra + 3);
  const __m256d c2 = _mm256_maskload_pd(ra + 6, three_lanes());
  store_product(c0, c1, c2, rb, tb, _mm256_maskload_pd(ta, three_lanes()), r, t);
}

// pose_invert_avx2 then pose_compose_avx2 without storing the inverse: the same lanes (the
// inverse's columns and translation are the registers the two would store and reload).
__attribute__((target("avx2"))) void pose_relative_avx2(const double* ra, const double* ta, const double* rb,
                                                        const double* tb, double* r, double* t) {
  __m256d row0, row1, row2;
  transposed_columns(ra, row0, row1, row2);
  store_product(row0, row1, row2, rb, tb, inverse_translation(row0, row1, row2, ta), r, t);
}
#else
void pose_invert_avx2(const double* ra, const double* ta, double* r, double* t) { pose_invert_portable(ra, ta, r, t); }
void pose_relative_avx2(const double* ra, const double* ta, const double* rb, const double* tb, double* r, double* t) {
  pose_relative_portable(ra, ta, rb, tb, r, t);
}
void pose_compose_avx2(const double* ra, const double* ta, const double* rb, const double* tb, double* r, double* t) {
  pose_compose_portable(ra, ta, rb, tb, r, t);
}
#endif

}  // namespace detail

}  // namespace proxima
