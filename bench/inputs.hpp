// SPDX-License-Identifier: MIT
// Seeded inputs of the benchmark (issue 2, "Speed"): random polytopes sampled on an ellipsoid,
// primitive pairs, random rotations, and B placed at 0.5..1.5 times the touching distance along a
// random direction so that about half of the pairs intersect. Every implementation answers the
// same pair list with the same poses. References are attached by reference/reference.hpp.
#pragma once

#include "common.hpp"

#include <cstdint>
#include <random>

namespace proxima::bench {

/// A small deterministic generator (the standard distributions are not portable across
/// standard libraries; these conversions are).
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : engine_(seed) {}
  /// Uniform in [0, 1).
  double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  /// Standard normal (Box-Muller, one value per call).
  double normal();
  /// Uniform on the unit sphere.
  Vec3 unit_vector();
  /// Uniform random rotation (normalised Gaussian quaternion).
  Eigen::Quaterniond rotation();

 private:
  std::mt19937_64 engine_;
};

/// Convex hull of a point set (qhull, triangulated). Points that are not hull vertices are dropped.
Hull convex_hull(const std::vector<Vec3>& points);

/// Factor range of the placement: B's origin is put at (factor * touching distance) from A's
/// origin along a random direction, factor uniform in [kPlacementLow, kPlacementHigh].
inline constexpr double kPlacementLow = 0.5;
inline constexpr double kPlacementHigh = 1.5;

/// Semiaxes of the ellipsoid the polytope vertices are sampled on (issue 2).
inline const Vec3 kPolytopeEllipsoid{1.0, 0.7, 0.5};

/// `pairs` pairs of polytopes with `vertices` vertices each (points uniform in direction, on the
/// ellipsoid), random rotations, A's origin uniform in [-1, 1]^3.
CaseSet make_polytope_set(int vertices, int pairs, std::uint64_t seed);

/// The primitive rows: "box-box", "sphere-box", "capsule-capsule", "cylinder-cone",
/// "ellipsoid-ellipsoid", with random sizes in [0.3, 1] and the same placement rule.
std::vector<std::string> primitive_rows();
CaseSet make_primitive_set(const std::string& row, int pairs, std::uint64_t seed);

}  // namespace proxima::bench
