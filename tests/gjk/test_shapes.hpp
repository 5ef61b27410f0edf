// SPDX-License-Identifier: MIT
// Test-only shapes and oracles for the gjk tests: a brute-force vertex-list hull, a capsule built
// on a segment core, random rotations, and an exact closest-point enumerator for small point sets.
#pragma once

#include "support/draws.hpp"

#include <proxima/core/bounds.hpp>
#include <proxima/core/pose.hpp>

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace proxima::test {

/// Convex hull of a vertex list, support by linear scan (the oracle-grade polytope).
class VertexHull {
 public:
  explicit VertexHull(std::vector<Vec3> vertices) : v_(std::move(vertices)) {}
  Vec3 support(const Vec3& d) const {
    std::size_t best = 0;
    double best_dot = d.dot(v_[0]);
    for (std::size_t i = 1; i < v_.size(); ++i) {
      const double x = d.dot(v_[i]);
      if (x > best_dot) {
        best_dot = x;
        best = i;
      }
    }
    return v_[best];
  }
  BoundingSphere bounding_sphere() const {
    Vec3 c = Vec3::Zero();
    for (const Vec3& p : v_) c += p;
    c /= static_cast<double>(v_.size());
    double r = 0;
    for (const Vec3& p : v_) r = std::max(r, (p - c).norm());
    return {c, r};
  }
  Aabb local_aabb() const {
    Aabb b{v_[0], v_[0]};
    for (const Vec3& p : v_) {
      b.min = b.min.cwiseMin(p);
      b.max = b.max.cwiseMax(p);
    }
    return b;
  }
  const std::vector<Vec3>& vertices() const { return v_; }

 private:
  std::vector<Vec3> v_;
};

/// Capsule along z: the segment [-h, h] e_z swollen by radius r (a RoundedSupportMap).
class TestCapsule {
 public:
  TestCapsule(double radius, double half_length) : r_(radius), h_(half_length) {}
  Vec3 core_support(const Vec3& d) const { return {0, 0, d.z() < 0 ? -h_ : h_}; }
  Vec3 support(const Vec3& d) const {
    const double n = d.norm();
    return core_support(d) + (n > 0 ? Vec3(d * (r_ / n)) : Vec3::Zero());
  }
  double margin() const { return r_; }
  BoundingSphere bounding_sphere() const { return {Vec3::Zero(), r_ + h_}; }
  Aabb local_aabb() const { return {Vec3(-r_, -r_, -h_ - r_), Vec3(r_, r_, h_ + r_)}; }
  double radius() const { return r_; }
  double half_length() const { return h_; }

 private:
  double r_;
  double h_;
};

inline Vec3 random_unit(std::mt19937_64& rng) {
  std::normal_distribution<double> n;
  Vec3 v{n(rng), n(rng), n(rng)};
  while (v.squaredNorm() < 1e-8) v = Vec3{n(rng), n(rng), n(rng)};
  return v.normalized();
}

inline Pose random_pose(std::mt19937_64& rng, double translation_scale) {
  std::normal_distribution<double> n;
  const Eigen::Vector4d q = proxima::test::draw_quaternion(n, rng);
  Pose p = Pose::from_quaternion(q[0], q[1], q[2], q[3], proxima::test::draw_vec3(n, rng) * translation_scale);
  return p;
}

/// Exact distance from the origin to conv(points): 0 if the origin lies in a tetrahedron of input
/// points, else the minimum over every subset of at most three points (the closest point lies on
/// a face of dimension <= 2) of the origin's projection on its affine hull (rank-revealing
/// least-squares solve; infeasible projections are skipped).
/// O(n^3) solves: for small sets only. Independent of gjk/simplex.hpp.
inline double brute_force_distance_to_hull(const std::vector<Vec3>& pts) {
  double best = std::numeric_limits<double>::infinity();
  const std::size_t n = pts.size();
  auto try_subset = [&](const std::vector<std::size_t>& s) {
    // Minimise |p0 + sum_k mu_k (p_k - p0)| over mu; lambda_0 = 1 - sum mu.
    const std::size_t m = s.size() - 1;
    Vec3 p = pts[s[0]];
    if (m > 0) {
      Eigen::MatrixXd e(3, static_cast<Eigen::Index>(m));
      for (std::size_t k = 0; k < m; ++k) e.col(static_cast<Eigen::Index>(k)) = pts[s[k + 1]] - pts[s[0]];
      const Eigen::VectorXd mu = e.completeOrthogonalDecomposition().solve(-pts[s[0]]);
      double sum = 0;
      for (Eigen::Index k = 0; k < mu.size(); ++k) {
        if (mu[k] < -1e-12) return;
        sum += mu[k];
      }
      if (sum > 1 + 1e-12) return;
      p = pts[s[0]] + e * mu;
    }
    best = std::min(best, p.norm());
  };
  // Origin inside: every point of the hull lies in a tetrahedron (p0, T) for a triple T (the ray
  // from p0 through it leaves the hull through a triangle of input points).
  for (std::size_t j = 1; j < n; ++j)
    for (std::size_t k = j + 1; k < n; ++k)
      for (std::size_t l = k + 1; l < n; ++l) try_subset({0, j, k, l});
  if (best == 0) return 0;
  for (std::size_t i = 0; i < n; ++i) {
    try_subset({i});
    for (std::size_t j = i + 1; j < n; ++j) {
      try_subset({i, j});
      for (std::size_t k = j + 1; k < n; ++k) try_subset({i, j, k});
    }
  }
  return best;
}

/// Exact distance between two segments [p0,p1], [q0,q1] (closed form: interior critical point
/// or the minimum over the four clamped edges of the parameter square).
inline double segment_segment_distance(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1) {
  const Vec3 u = p1 - p0;
  const Vec3 v = q1 - q0;
  const Vec3 w = p0 - q0;
  auto f = [&](double s, double t) { return (w + s * u - t * v).norm(); };
  auto clamp01 = [](double x) { return std::clamp(x, 0.0, 1.0); };
  double best = std::numeric_limits<double>::infinity();
  const double a = u.dot(u), b = u.dot(v), c = v.dot(v), d = u.dot(w), e = v.dot(w);
  const double den = a * c - b * b;
  if (den > 1e-14 * a * c) {
    const double s = (b * e - c * d) / den;
    const double t = (a * e - b * d) / den;
    if (s >= 0 && s <= 1 && t >= 0 && t <= 1) best = f(s, t);
  }
  // Edges: s fixed at 0/1 (minimise over t), t fixed at 0/1 (minimise over s).
  for (double s : {0.0, 1.0}) {
    const double t = c > 0 ? clamp01((e + s * b) / c) : 0.0;
    best = std::min(best, f(s, t));
  }
  for (double t : {0.0, 1.0}) {
    const double s = a > 0 ? clamp01((t * b - d) / a) : 0.0;
    best = std::min(best, f(s, t));
  }
  return best;
}

/// Distance from a point to an axis-aligned box of half extents h (closed form).
inline double point_box_distance(const Vec3& p, const Vec3& h) {
  return (p.cwiseAbs() - h).cwiseMax(0.0).norm();
}

}  // namespace proxima::test
