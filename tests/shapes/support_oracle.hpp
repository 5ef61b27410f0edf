// SPDX-License-Identifier: MIT
// Test oracles shared by the shapes tests: seeded directions, brute-force maximisation of d . x
// over dense samples of a shape, and the bound checks every shape must pass.
#pragma once

#include <proxima/shapes/concepts.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <numbers>
#include <random>
#include <string>
#include <vector>

namespace proxima::test {

/// n seeded random directions of random length (1e-3 .. 1e3), plus the 6 axis directions and the
/// 8 box diagonals (the tie cases).
inline std::vector<Vec3> directions(std::uint64_t seed, int n) {
  std::vector<Vec3> out;
  for (int i = 0; i < 3; ++i) {
    out.push_back(Vec3::Unit(i));
    out.push_back(-Vec3::Unit(i));
  }
  for (int c = 0; c < 8; ++c) out.emplace_back(c & 1 ? 1 : -1, c & 2 ? 1 : -1, c & 4 ? 1 : -1);
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> exponent(-3, 3);
  for (int i = 0; i < n; ++i) {
    const Vec3 d{normal(rng), normal(rng), normal(rng)};
    out.push_back(d.normalized() * std::pow(10.0, exponent(rng)));
  }
  return out;
}

/// n nearly uniform unit vectors (Fibonacci sphere): deterministic dense samples.
inline std::vector<Vec3> fibonacci_sphere(int n) {
  std::vector<Vec3> out;
  const double golden = std::numbers::pi * (3 - std::sqrt(5.0));
  for (int i = 0; i < n; ++i) {
    const double z = 1 - (2 * i + 1.0) / n;
    const double r = std::sqrt(1 - z * z);
    out.emplace_back(r * std::cos(golden * i), r * std::sin(golden * i), z);
  }
  return out;
}

/// Checks s(d) against brute force over `samples` (points of the shape) for every direction:
///  - s(d) is a point of the shape (`contains(p)` with the shape's own tolerance),
///  - d . s(d) >= max over samples of d . x (minus rounding),
///  - d . s(d) <= max over samples + `sampling_gap` * |d| (the samples' covering radius).
template <SupportMap S>
void expect_support_matches_samples(const S& shape, const std::vector<Vec3>& samples,
                                    const std::function<bool(const Vec3&)>& contains,
                                    const std::vector<Vec3>& dirs, double sampling_gap,
                                    const std::string& label) {
  const double scale = shape.bounding_sphere().radius + shape.bounding_sphere().center.norm();
  for (std::size_t i = 0; i < dirs.size(); ++i) {
    const Vec3& d = dirs[i];
    const Vec3 s = shape.support(d);
    double best = -INFINITY;
    for (const Vec3& x : samples) best = std::max(best, d.dot(x));
    const double value = d.dot(s);
    const double eps = 1e-12 * scale * d.norm();
    ASSERT_TRUE(contains(s)) << label << ": support outside the shape, case " << i << " d=" << d.transpose()
                             << " s=" << s.transpose();
    ASSERT_GE(value, best - eps) << label << ": a sample beats the support, case " << i << " d=" << d.transpose();
    ASSERT_LE(value, best + sampling_gap * d.norm() + eps) << label << ": case " << i << " d=" << d.transpose();
  }
}

/// Bounds: supports in the 6 axis directions lie inside local_aabb() (so the box is tight where it
/// should be, and the shape inside it), and every support lies in bounding_sphere().
template <SupportMap S>
void expect_bounds_contain(const S& shape, const std::vector<Vec3>& dirs, const std::string& label,
                           bool tight_box = true) {
  const Aabb box = shape.local_aabb();
  const BoundingSphere ball = shape.bounding_sphere();
  const double eps = 1e-12 * (ball.radius + ball.center.norm());
  for (int i = 0; i < 3; ++i) {
    EXPECT_LE(shape.support(Vec3::Unit(i))[i], box.max[i] + eps) << label << " axis " << i;
    EXPECT_GE(shape.support(-Vec3::Unit(i))[i], box.min[i] - eps) << label << " axis " << i;
    // The box is tight: the extreme point along each axis reaches its face.
    if (!tight_box) continue;
    EXPECT_NEAR(shape.support(Vec3::Unit(i))[i], box.max[i], 1e-9 * ball.radius) << label << " axis " << i;
    EXPECT_NEAR(shape.support(-Vec3::Unit(i))[i], box.min[i], 1e-9 * ball.radius) << label << " axis " << i;
  }
  for (std::size_t i = 0; i < dirs.size(); ++i) {
    const Vec3 s = shape.support(dirs[i]);
    EXPECT_LE((s - ball.center).norm(), ball.radius + eps) << label << " case " << i;
    EXPECT_TRUE(((s.array() >= box.min.array() - eps) && (s.array() <= box.max.array() + eps)).all())
        << label << " case " << i;
  }
}

/// d == 0 is answered deterministically with a point of the shape.
template <SupportMap S>
void expect_zero_direction_deterministic(const S& shape, const std::function<bool(const Vec3&)>& contains,
                                         const std::string& label) {
  const Vec3 a = shape.support(Vec3::Zero());
  const Vec3 b = shape.support(Vec3::Zero());
  EXPECT_TRUE(a.allFinite()) << label;
  EXPECT_EQ(a, b) << label;
  EXPECT_TRUE(contains(a)) << label;
}

}  // namespace proxima::test
