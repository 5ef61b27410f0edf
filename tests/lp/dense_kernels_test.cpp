// SPDX-License-Identifier: MIT
// The structured simplex's dense kernels (src/lp/dense_kernels.hpp) against plain scalar loops
// that form each sum in the documented order: the path chosen at run time (AVX2 on a CPU that
// has it) must return the same bits, so pivots and certificates do not depend on the machine.
#include "lp/dense_kernels.hpp"

#include <Eigen/Dense>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

namespace proxima::lp::detail {
namespace {

bool same_bits(double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; }

TEST(LpDenseKernels, ColumnCombinationMatchesTheScalarOrder) {
  std::mt19937_64 rng(20261124);
  std::normal_distribution<double> g;
  for (const int rows : {1, 3, 4, 7, 8, 9, 16, 22, 129}) {
    for (const int cols : {1, 3, 10, 20}) {
      const Eigen::Index ld = rows + 3;  // a store taller than the rows used
      Eigen::MatrixXd m(ld, cols);
      for (Eigen::Index k = 0; k < m.size(); ++k) m.data()[k] = g(rng) * std::ldexp(1.0, static_cast<int>(k % 40) - 20);
      Eigen::VectorXd d(cols);
      for (int c = 0; c < cols; ++c) d[c] = g(rng);
      Eigen::VectorXd out(rows);
      for (int r = 0; r < rows; ++r) out[r] = g(rng);
      Eigen::VectorXd expected = out;
      for (int r = 0; r < rows; ++r) {
        double acc = expected[r];
        for (int c = 0; c < cols; ++c) {
          const double product = d[c] * m(r, c);
          acc = acc + product;
        }
        expected[r] = acc;
      }
      add_column_combination(m.data(), ld, rows, cols, d.data(), out.data());
      for (int r = 0; r < rows; ++r) {
        ASSERT_TRUE(same_bits(out[r], expected[r])) << "rows " << rows << " cols " << cols << " row " << r;
      }
    }
  }
}

TEST(LpDenseKernels, LargestColumnCombinationIsTheFirstLargestOfTheScalarValues) {
  // The fused pricing pass against the values of add_column_combination's order, with ties
  // planted (repeated rows) so that "first row of the largest value" is tested across lanes,
  // blocks and the scalar tail; split moves the shift boundary through all of them.
  std::mt19937_64 rng(20261126);
  std::normal_distribution<double> g;
  int ties = 0;
  for (const int rows : {1, 3, 7, 8, 9, 16, 17, 22, 64, 129}) {
    for (const int cols : {1, 3, 10, 20}) {
      for (int trial = 0; trial < 8; ++trial) {
        const Eigen::Index ld = rows + 2;
        Eigen::MatrixXd m(ld, cols);
        for (Eigen::Index k = 0; k < m.size(); ++k) m.data()[k] = g(rng);
        const bool repeated = trial % 2 == 1;  // rows repeat with period 3: the maximum is tied
        if (repeated) {
          for (int r = 3; r < rows; ++r) m.row(r) = m.row(r % 3);
        }
        Eigen::VectorXd d(cols);
        for (int c = 0; c < cols; ++c) d[c] = g(rng);
        const int split = static_cast<int>(rng() % static_cast<unsigned>(rows + 1));
        const double shift_a = trial % 4 < 2 ? g(rng) : 0.0;
        const double shift_b = repeated ? shift_a : (trial % 4 < 2 ? g(rng) : 0.0);
        int expected = -1;
        double expected_value = 0;
        int equal = 0;
        for (int r = 0; r < rows; ++r) {
          double acc = r < split ? shift_a : shift_b;
          for (int c = 0; c < cols; ++c) {
            const double product = d[c] * m(r, c);
            acc = acc + product;
          }
          if (expected >= 0 && acc == expected_value) ++equal;
          if (expected < 0 || acc > expected_value) {
            expected = r;
            expected_value = acc;
            equal = 0;
          }
        }
        ties += equal > 0 ? 1 : 0;
        int lanes[kLargestLanes];
        const ArgMax got =
            largest_column_combination(m.data(), ld, rows, split, cols, d.data(), shift_a, shift_b, lanes);
        // Each lane: the first row of its residue class (below the last full block of eight)
        // with the class's largest value, -1 for an empty class.
        for (int k = 0; k < kLargestLanes; ++k) {
          int lane_expected = -1;
          double lane_value = 0;
          for (int r = k; r < rows - rows % kLargestLanes; r += kLargestLanes) {
            double acc = r < split ? shift_a : shift_b;
            for (int c = 0; c < cols; ++c) acc = acc + d[c] * m(r, c);
            if (lane_expected < 0 || acc > lane_value) {
              lane_expected = r;
              lane_value = acc;
            }
          }
          ASSERT_EQ(lanes[k], lane_expected) << "rows " << rows << " cols " << cols << " lane " << k;
        }
        ASSERT_EQ(got.index, expected) << "rows " << rows << " cols " << cols << " trial " << trial;
        ASSERT_TRUE(same_bits(got.value, expected_value)) << "rows " << rows << " cols " << cols << " trial " << trial;
      }
    }
  }
  EXPECT_GT(ties, 100);  // the repeated rows do produce ties at the maximum
}

TEST(LpDenseKernels, ThreeDimensionalInputPassesMatchTheScalarLoops) {
  // box3 / store3 / extremes3 (four points per step, lanes in the x y z x | y z x y | z x y z
  // pattern) against the plain loops, for counts around the step, and the finiteness probe.
  std::mt19937_64 rng(20261127);
  std::normal_distribution<double> g;
  for (const int count : {1, 2, 3, 4, 5, 7, 8, 13, 64, 1027}) {
    Eigen::Matrix3Xd p(3, count);
    for (Eigen::Index k = 0; k < p.size(); ++k) p.data()[k] = g(rng) * std::ldexp(1.0, static_cast<int>(k % 30) - 15);
    double lo[3];
    double hi[3];
    ASSERT_EQ(box3(p.data(), count, lo, hi), 0.0);
    for (int i = 0; i < 3; ++i) {
      ASSERT_EQ(lo[i], p.row(i).minCoeff()) << count;
      ASSERT_EQ(hi[i], p.row(i).maxCoeff()) << count;
    }
    const double centre[3] = {g(rng), g(rng), g(rng)};
    const double scale = 1 / 3.0;
    const Eigen::Index ld = count + 5;
    for (const bool negate : {false, true}) {
      Eigen::MatrixXd out = Eigen::MatrixXd::Zero(ld, 3);
      const double d[3] = {g(rng), g(rng), g(rng)};
      const ArgMax support = store3(p.data(), count, centre, scale, negate, out.data(), ld, d);
      const ArgMax expected_support = largest_column_combination(out.data(), ld, count, count, 3, d, 0.0, 0.0);
      ASSERT_EQ(support.index, expected_support.index) << count;
      ASSERT_TRUE(same_bits(support.value, expected_support.value)) << count;
      for (int j = 0; j < count; ++j) {
        for (int i = 0; i < 3; ++i) {
          const double expected = negate ? (centre[i] - p(i, j)) * scale : (p(i, j) - centre[i]) * scale;
          ASSERT_TRUE(same_bits(out(j, i), expected)) << count << " " << j << " " << i;
        }
      }
    }
    const double normal[3] = {g(rng), g(rng), g(rng)};
    double low = 0;
    double high = 0;
    extremes3(p.data(), count, normal, &low, &high);
    double expected_low = std::numeric_limits<double>::infinity();
    double expected_high = -expected_low;
    for (int j = 0; j < count; ++j) {
      double dot = 0;
      for (int i = 0; i < 3; ++i) dot += normal[i] * p(i, j);
      expected_low = std::min(expected_low, dot);
      expected_high = std::max(expected_high, dot);
    }
    ASSERT_TRUE(same_bits(low, expected_low)) << count;
    ASSERT_TRUE(same_bits(high, expected_high)) << count;
    // One non-finite coordinate anywhere makes the probe NaN.
    for (const double bad : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
      Eigen::Matrix3Xd q = p;
      q.data()[rng() % static_cast<unsigned>(q.size())] = bad;
      ASSERT_TRUE(std::isnan(box3(q.data(), count, lo, hi))) << count;
    }
  }
}

TEST(LpDenseKernels, OuterProductUpdateMatchesTheScalarOrder) {
  std::mt19937_64 rng(20261125);
  std::normal_distribution<double> g;
  for (const int rows : {1, 5, 8, 9, 22, 33}) {
    const Eigen::Index ld = rows + 1;
    Eigen::MatrixXd m(ld, rows);
    for (Eigen::Index k = 0; k < m.size(); ++k) m.data()[k] = g(rng);
    Eigen::VectorXd alpha(rows);
    Eigen::VectorXd f(rows);
    for (int r = 0; r < rows; ++r) {
      alpha[r] = g(rng) * 1e3;
      f[r] = g(rng) * 1e-3;
    }
    Eigen::MatrixXd expected = m;
    for (int c = 0; c < rows; ++c) {
      for (int r = 0; r < rows; ++r) {
        const double product = f[c] * alpha[r];
        expected(r, c) = expected(r, c) - product;
      }
    }
    subtract_outer_product(m.data(), ld, rows, rows, alpha.data(), f.data());
    for (int c = 0; c < rows; ++c) {
      for (int r = 0; r < rows; ++r) {
        ASSERT_TRUE(same_bits(m(r, c), expected(r, c))) << "rows " << rows << " at " << r << ", " << c;
      }
    }
  }
}

}  // namespace
}  // namespace proxima::lp::detail
