// SPDX-License-Identifier: MIT
// Seeded generators of point-set pairs for the lp tests: random clouds, pairs separated (or
// overlapping) by 1e-7 of their size across a shared facet plane, lower-dimensional sets in higher
// space, duplicates, single points and sets with fewer points than dimensions, at scales 2^-10
// (about 1e-3) to 2^17 (about 1e5). Coordinates are multiples of 2^-30 times the scale, so the
// axis-aligned touching cases are exactly touching in double precision.
#pragma once

#include <Eigen/Core>
#include <Eigen/QR>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

namespace proxima::lp::testing {

struct PairCase {
  Eigen::MatrixXd a;
  Eigen::MatrixXd b;
  std::string kind;
  double scale = 1;
};

class CaseGenerator {
 public:
  explicit CaseGenerator(unsigned seed) : rng_(seed) {}

  static constexpr int kKinds = 8;
  static constexpr double kGrid = 1.0 / (1 << 30);

  double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng_); }
  int integer(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  double snap(double x) const { return std::round(x / kGrid) * kGrid; }

  Eigen::MatrixXd cloud(int n, int count, double radius) {
    Eigen::MatrixXd p(n, count);
    for (int j = 0; j < count; ++j)
      for (int i = 0; i < n; ++i) p(i, j) = snap(uniform(-radius, radius));
    return p;
  }

  /// A random orthogonal matrix (QR of a Gaussian matrix).
  Eigen::MatrixXd rotation(int n) {
    std::normal_distribution<double> g;
    Eigen::MatrixXd m(n, n);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) m(i, j) = g(rng_);
    Eigen::HouseholderQR<Eigen::MatrixXd> qr(m);
    return qr.householderQ() * Eigen::MatrixXd::Identity(n, n);
  }

  /// Exact signed permutation of the coordinates (keeps the 2^-30 grid).
  void permute(PairCase& c) {
    const int n = static_cast<int>(c.a.rows());
    std::vector<int> order(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
    std::shuffle(order.begin(), order.end(), rng_);
    Eigen::MatrixXd a(c.a.rows(), c.a.cols());
    Eigen::MatrixXd b(c.b.rows(), c.b.cols());
    for (int i = 0; i < n; ++i) {
      const double sign = integer(0, 1) == 0 ? 1.0 : -1.0;
      a.row(i) = sign * c.a.row(order[static_cast<std::size_t>(i)]);
      b.row(i) = sign * c.b.row(order[static_cast<std::size_t>(i)]);
    }
    c.a = a;
    c.b = b;
  }

  /// A and B on either side of the plane x0 = 0, A touching it with a facet of coplanar points,
  /// B at x0 = gap (gap < 0 overlaps).
  PairCase facet_pair(int n, double gap) {
    PairCase c;
    const int na = integer(2, 2 * n + 4);
    const int nb = integer(1, 2 * n + 4);
    c.a = cloud(n, na, 1);
    c.b = cloud(n, nb, 1);
    for (int j = 0; j < na; ++j) c.a(0, j) = -std::abs(c.a(0, j));
    for (int j = 0; j < nb; ++j) c.b(0, j) = std::abs(c.b(0, j)) + snap(gap);
    // Coplanar points of A on x0 = 0; A holds the segment (-1, y)..(0, y) and B the point
    // (gap, y): for gap <= 0 they meet on that segment, for gap > 0 the slab 0 < x0 < gap is empty.
    for (int j = 0; j < std::max(1, na / 2); ++j) c.a(0, j) = 0;
    c.a.col(1).tail(n - 1) = c.a.col(0).tail(n - 1);
    c.a(0, 1) = -1;
    const int jb = integer(0, nb - 1);
    c.b.col(jb).tail(n - 1) = c.a.col(0).tail(n - 1);
    c.b(0, jb) = snap(gap);
    return c;
  }

  PairCase make(int n, int kind) {
    PairCase c;
    switch (kind) {
      case 0: {  // random clouds at a random offset: hits and misses
        c.kind = "random";
        c.a = cloud(n, integer(1, 3 * n + 6), 1);
        c.b = cloud(n, integer(1, 3 * n + 6), 1);
        const Eigen::VectorXd shift = cloud(n, 1, 1).col(0).normalized() * snap(uniform(0, 3));
        c.b.colwise() += Eigen::VectorXd(shift.unaryExpr([this](double x) { return snap(x); }));
        break;
      }
      case 1: {  // exactly axis-aligned facet pair separated / overlapping by 1e-7 or touching
        const int which = integer(0, 2);
        const double gap = which == 0 ? 1e-7 : which == 1 ? -1e-7 : 0.0;
        c = facet_pair(n, gap);
        c.kind = which == 0 ? "near_touching_sep" : which == 1 ? "near_touching_overlap" : "touching";
        permute(c);
        break;
      }
      case 2: {  // rotated facet pair at +-1e-7 (not exact after rotation; the oracle decides)
        const bool sep = integer(0, 1) == 0;
        c = facet_pair(n, sep ? 1e-7 : -1e-7);
        const Eigen::MatrixXd r = rotation(n);
        c.a = r * c.a;
        c.b = r * c.b;
        c.kind = sep ? "rotated_sep_1e-7" : "rotated_overlap_1e-7";
        break;
      }
      case 3: {  // lower-dimensional sets (affine dimension k < n) in R^n
        c.kind = "lower_dim";
        const int k = integer(0, std::max(0, n - 1));
        c.a = cloud(n, integer(1, 2 * n + 4), 1);
        c.b = cloud(n, integer(1, 2 * n + 4), 1);
        for (int i = k; i < n; ++i) {
          c.a.row(i).setConstant(snap(uniform(-0.1, 0.1)));
          if (integer(0, 1) == 0) c.b.row(i).setConstant(snap(uniform(-0.1, 0.1)));
        }
        permute(c);
        break;
      }
      case 4: {  // duplicates and sets whose points all coincide
        c.kind = "duplicates";
        const Eigen::MatrixXd base_a = cloud(n, integer(1, n + 2), 1);
        const Eigen::MatrixXd base_b = cloud(n, integer(1, n + 2), 1);
        const int na = integer(1, 3 * n + 3);
        const int nb = integer(1, 3 * n + 3);
        c.a.resize(n, na);
        c.b.resize(n, nb);
        const bool all_same = integer(0, 3) == 0;
        for (int j = 0; j < na; ++j) c.a.col(j) = base_a.col(all_same ? 0 : integer(0, static_cast<int>(base_a.cols()) - 1));
        for (int j = 0; j < nb; ++j) c.b.col(j) = base_b.col(integer(0, static_cast<int>(base_b.cols()) - 1));
        c.b.colwise() += cloud(n, 1, 0.8).col(0);
        break;
      }
      case 5: {  // single points (point in polytope, point vs point)
        c.kind = "single_point";
        c.a = cloud(n, 1, 1);
        c.b = integer(0, 4) == 0 ? Eigen::MatrixXd(c.a) : cloud(n, integer(1, 3 * n + 3), 1);
        break;
      }
      case 6: {  // fewer points than dimensions
        c.kind = "few_points";
        c.a = cloud(n, integer(1, std::max(1, n / 2)), 1);
        c.b = cloud(n, integer(1, std::max(1, n / 2)), 1);
        // Make an intersection likely half of the time: B contains a point of A's hull.
        if (integer(0, 1) == 0) {
          Eigen::VectorXd w = Eigen::VectorXd::Constant(c.a.cols(), 1.0 / static_cast<double>(c.a.cols()));
          c.b.col(0) = c.a * w;
          if (c.b.cols() > 1) c.b.col(1) = 2 * c.b.col(0) - c.b.col(1);  // B's segment through it
        }
        break;
      }
      default: {  // one set nested inside the other, or just outside a facet
        c.kind = "nested";
        c.b = cloud(n, integer(n + 1, 3 * n + 6), 1);
        const Eigen::VectorXd centre = c.b.rowwise().mean();
        c.a = ((cloud(n, integer(1, n + 3), 1) * 0.05).colwise() + centre);
        break;
      }
    }
    // Scale by 2^k, k in [-10, 17], and translate by a grid offset: exact in double precision.
    const int k = integer(-10, 17);
    c.scale = std::ldexp(1.0, k);
    const Eigen::VectorXd offset = cloud(n, 1, 4).col(0);
    c.a = ((c.a.colwise() + offset) * c.scale).eval();
    c.b = ((c.b.colwise() + offset) * c.scale).eval();
    return c;
  }

 private:
  std::mt19937 rng_;
};

}  // namespace proxima::lp::testing
