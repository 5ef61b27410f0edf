// SPDX-License-Identifier: MIT
// Tests for the pose arithmetic behind gjk::distance's relative pose pose_a.inverse() * pose_b
// (src/core/pose_kernels.hpp): the AVX2 kernels give the portable kernels' bits (any NaN for a
// NaN), entry for entry, on random and special inputs (signed zeros, NaN, infinities, scales
// 1e-300..1e300); Pose::inverse / operator* give the portable kernels' bits; the portable kernels
// agree with Eigen's transpose and products (an independent oracle) to the rounding of a
// three-term sum, and their summation order is the one pose_kernels.hpp states (entries written
// out by hand: rows 0 and 1 (x + y) + z, row 2 x + (y + z)).
#include <proxima/core/pose.hpp>
#include "core/pose_kernels.hpp"
#include "support/draws.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

namespace proxima {
namespace {

constexpr unsigned kSeed = 2026113028;

struct Raw {
  std::array<double, 9> r{};
  std::array<double, 3> t{};
};

/// The same bits, or both NaN: which NaN an operation returns (sign, payload) depends on its
/// operands' order, which C++ leaves to the compiler for a commutative sum or product.
bool same_value(double x, double y) {
  if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
  return std::memcmp(&x, &y, sizeof(double)) == 0;
}

bool same_bits(const Raw& x, const Raw& y) {
  for (std::size_t i = 0; i < 9; ++i) {
    if (!same_value(x.r[i], y.r[i])) return false;
  }
  for (std::size_t i = 0; i < 3; ++i) {
    if (!same_value(x.t[i], y.t[i])) return false;
  }
  return true;
}

/// Entry i of m v (m column-major) in Eigen's order for row i.
double row_times(const double* m, const double* v, int i) {
  const double x = m[i] * v[0];
  const double y = m[3 + i] * v[1];
  const double z = m[6 + i] * v[2];
  return i < 2 ? (x + y) + z : x + (y + z);
}

Raw compose_by_hand(const Raw& a, const Raw& b) {
  Raw out;
  for (int j = 0; j < 3; ++j) {
    for (int i = 0; i < 3; ++i) {
      out.r[static_cast<std::size_t>(3 * j + i)] = row_times(a.r.data(), b.r.data() + 3 * j, i);
    }
  }
  for (int i = 0; i < 3; ++i) {
    out.t[static_cast<std::size_t>(i)] = row_times(a.r.data(), b.t.data(), i) + a.t[static_cast<std::size_t>(i)];
  }
  return out;
}

Raw invert_by_hand(const Raw& a) {
  Raw out;
  for (int j = 0; j < 3; ++j) {
    for (int i = 0; i < 3; ++i) {
      out.r[static_cast<std::size_t>(3 * j + i)] = a.r[static_cast<std::size_t>(3 * i + j)];
    }
  }
  for (int i = 0; i < 3; ++i) out.t[static_cast<std::size_t>(i)] = -row_times(out.r.data(), a.t.data(), i);
  return out;
}

Raw compose(bool avx2, const Raw& a, const Raw& b) {
  Raw out;
  if (avx2) {
    detail::pose_compose_avx2(a.r.data(), a.t.data(), b.r.data(), b.t.data(), out.r.data(), out.t.data());
  } else {
    detail::pose_compose_portable(a.r.data(), a.t.data(), b.r.data(), b.t.data(), out.r.data(), out.t.data());
  }
  return out;
}

Raw invert(bool avx2, const Raw& a) {
  Raw out;
  if (avx2) {
    detail::pose_invert_avx2(a.r.data(), a.t.data(), out.r.data(), out.t.data());
  } else {
    detail::pose_invert_portable(a.r.data(), a.t.data(), out.r.data(), out.t.data());
  }
  return out;
}

/// A random entry: mostly finite at a random scale, sometimes a special value.
double draw(std::mt19937_64& rng) {
  std::uniform_int_distribution<int> kind(0, 39);
  std::uniform_real_distribution<double> u(-1, 1);
  std::uniform_int_distribution<int> exponent(-300, 300);
  switch (kind(rng)) {
    case 0: return 0.0;
    case 1: return -0.0;
    case 2: return std::numeric_limits<double>::quiet_NaN();
    case 3: return std::numeric_limits<double>::infinity();
    case 4: return -std::numeric_limits<double>::infinity();
    case 5: {
      const double mantissa = u(rng);
      return mantissa * std::pow(10.0, exponent(rng));
    }
    default: return u(rng) * 10;
  }
}

Raw random_raw(std::mt19937_64& rng) {
  Raw x;
  for (double& v : x.r) v = draw(rng);
  for (double& v : x.t) v = draw(rng);
  return x;
}

Raw raw_of(const Pose& p) {
  Raw x;
  std::memcpy(x.r.data(), p.rotation().data(), sizeof(x.r));
  std::memcpy(x.t.data(), p.translation().data(), sizeof(x.t));
  return x;
}

TEST(PoseKernels, PortableKernelsMatchTheEntriesWrittenOut) {
  std::mt19937_64 rng(kSeed);
  for (int k = 0; k < 20000; ++k) {
    const Raw a = random_raw(rng);
    const Raw b = random_raw(rng);
    ASSERT_TRUE(same_bits(compose(false, a, b), compose_by_hand(a, b))) << "seed " << kSeed << " case " << k;
    ASSERT_TRUE(same_bits(invert(false, a), invert_by_hand(a))) << "seed " << kSeed << " case " << k;
  }
}

/// Eigen's products as the oracle: |kernel - Eigen| within 4 ulps of the terms' magnitude.
void expect_near_eigen(const Raw& got, const Mat3& r, const Vec3& t, const Mat3& r_terms, const Vec3& t_terms,
                       int k) {
  const double eps = std::numeric_limits<double>::epsilon();
  for (int j = 0; j < 3; ++j) {
    for (int i = 0; i < 3; ++i) {
      ASSERT_LE(std::abs(got.r[static_cast<std::size_t>(3 * j + i)] - r(i, j)), 4 * eps * r_terms(i, j))
          << "seed " << kSeed + 3 << " case " << k << " entry " << i << "," << j;
    }
  }
  for (int i = 0; i < 3; ++i) {
    ASSERT_LE(std::abs(got.t[static_cast<std::size_t>(i)] - t(i)), 4 * eps * t_terms(i))
        << "seed " << kSeed + 3 << " case " << k << " translation " << i;
  }
}

TEST(PoseKernels, PortableKernelsAgreeWithEigensProducts) {
  std::mt19937_64 rng(kSeed + 3);
  std::uniform_real_distribution<double> u(-1, 1);
  std::uniform_int_distribution<int> exponent(-100, 100);
  for (int k = 0; k < 20000; ++k) {
    Raw a, b;
    const double scale = std::pow(10.0, exponent(rng));
    for (double& v : a.r) v = u(rng);
    for (double& v : b.r) v = u(rng);
    for (double& v : a.t) v = u(rng) * scale;
    for (double& v : b.t) v = u(rng) * scale;
    const Eigen::Map<const Mat3> ra(a.r.data()), rb(b.r.data());
    const Eigen::Map<const Vec3> ta(a.t.data()), tb(b.t.data());
    const Mat3 abs_a = ra.cwiseAbs();
    expect_near_eigen(compose(false, a, b), ra * rb, ra * tb + ta, abs_a * rb.cwiseAbs(),
                      abs_a * tb.cwiseAbs() + ta.cwiseAbs(), k);
    const Mat3 rt = ra.transpose();
    expect_near_eigen(invert(false, a), rt, -(rt * ta), Mat3::Zero(), abs_a.transpose() * ta.cwiseAbs(), k);
  }
}

TEST(PoseKernels, Avx2KernelsMatchThePortableOnesBitForBit) {
  if (!detail::kPoseHaveAvx2) GTEST_SKIP() << "no AVX2 on this CPU (or the library is built for AVX)";
  std::mt19937_64 rng(kSeed + 1);
  for (int k = 0; k < 20000; ++k) {
    const Raw a = random_raw(rng);
    const Raw b = random_raw(rng);
    ASSERT_TRUE(same_bits(compose(true, a, b), compose(false, a, b))) << "seed " << kSeed + 1 << " case " << k;
    ASSERT_TRUE(same_bits(invert(true, a), invert(false, a))) << "seed " << kSeed + 1 << " case " << k;
  }
}

Raw relative(bool avx2, const Raw& a, const Raw& b) {
  Raw out;
  if (avx2) {
    detail::pose_relative_avx2(a.r.data(), a.t.data(), b.r.data(), b.t.data(), out.r.data(), out.t.data());
  } else {
    detail::pose_relative_portable(a.r.data(), a.t.data(), b.r.data(), b.t.data(), out.r.data(), out.t.data());
  }
  return out;
}

// The fused kernels are the inverse then the product, bit for bit, in both forms (special values
// included), and relative_pose is a.inverse() * b.
TEST(PoseKernels, RelativePoseIsTheInverseThenTheProductBitForBit) {
  std::mt19937_64 rng(kSeed + 4);
  for (int k = 0; k < 20000; ++k) {
    const Raw a = random_raw(rng);
    const Raw b = random_raw(rng);
    const Raw two_steps = compose(false, invert(false, a), b);
    ASSERT_TRUE(same_bits(relative(false, a, b), two_steps)) << "seed " << kSeed + 4 << " case " << k;
    if (detail::kPoseHaveAvx2) {
      ASSERT_TRUE(same_bits(relative(true, a, b), two_steps)) << "seed " << kSeed + 4 << " case " << k;
    }
  }
  std::uniform_real_distribution<double> u(-1, 1);
  for (int k = 0; k < 2000; ++k) {
    const Eigen::Vector4d qa = test::draw_quaternion(u, rng);
    const Vec3 ta = test::draw_vec3(u, rng);
    const Eigen::Vector4d qb = test::draw_quaternion(u, rng);
    const Vec3 tb = test::draw_vec3(u, rng);
    const Pose a = Pose::from_quaternion(qa[0], qa[1], qa[2], qa[3] + 1e-3, ta * 10);
    const Pose b = Pose::from_quaternion(qb[0] + 1e-3, qb[1], qb[2], qb[3], tb * 10);
    ASSERT_TRUE(same_bits(raw_of(relative_pose(a, b)), raw_of(a.inverse() * b))) << "seed " << kSeed + 4 << " pose " << k;
  }
}

TEST(PoseKernels, PoseInverseAndProductAreThePortableKernels) {
  std::mt19937_64 rng(kSeed + 2);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int k = 0; k < 5000; ++k) {
    const double scale = std::pow(10.0, 6 * u(rng));
    const Eigen::Vector4d qa = test::draw_quaternion(u, rng);
    const Vec3 ta = test::draw_vec3(u, rng);
    const Eigen::Vector4d qb = test::draw_quaternion(u, rng);
    const Vec3 tb = test::draw_vec3(u, rng);
    const Pose a = Pose::from_quaternion(qa[0], qa[1], qa[2], qa[3] + 1e-3, ta * scale);
    const Pose b = Pose::from_quaternion(qb[0] + 1e-3, qb[1], qb[2], qb[3], tb * scale);
    const Raw inverse = invert(false, raw_of(a));
    ASSERT_TRUE(same_bits(raw_of(a.inverse()), inverse)) << "seed " << kSeed + 2 << " case " << k;
    ASSERT_TRUE(same_bits(raw_of(a.inverse() * b), compose(false, inverse, raw_of(b))))
        << "seed " << kSeed + 2 << " case " << k;
    // And what it means: the relative pose maps B's points as A's inverse after B's pose.
    const Vec3 p{u(rng), u(rng), u(rng)};
    const Vec3 expected = a.apply_inverse(b.apply(p));
    EXPECT_LE(((a.inverse() * b).apply(p) - expected).norm(), 1e-12 * (scale + 1)) << "seed " << kSeed + 2;
  }
}

}  // namespace
}  // namespace proxima
