// SPDX-License-Identifier: MIT
// The LP's bounded workspace (issue 8): a query whose LP matrix would exceed
// LpOptions::max_matrix_entries answers Status::capacity_exceeded, unconverged and without an
// answer, instead of allocating; the same query under the default bound is answered; bad input
// and bad options are still refused by name.
#include <proxima/core/error.hpp>
#include <proxima/lp/contains.hpp>
#include <proxima/lp/distance.hpp>
#include <proxima/lp/intersect.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

namespace proxima::lp {
namespace {

Eigen::MatrixXd cloud(int n, int count, double shift, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> g(0, 1);
  Eigen::MatrixXd m(n, count);
  for (int j = 0; j < count; ++j) {
    for (int i = 0; i < n; ++i) m(i, j) = g(rng);
    m(0, j) += shift;
  }
  return m;
}

LpOptions tiny_bound() {
  LpOptions o;
  o.max_matrix_entries = 16;  // far below (n + 2) x (|A| + |B|) = 5 x 20
  return o;
}

TEST(LpWorkspaceBound, IntersectBeyondTheBoundIsCapacityExceeded) {
  const Eigen::MatrixXd a = cloud(3, 10, 0, 1), b = cloud(3, 10, 0.5, 2);
  const LpIntersectResult capped = intersect(a, b, tiny_bound());
  EXPECT_EQ(capped.status, Status::capacity_exceeded);
  EXPECT_FALSE(capped.converged);
  EXPECT_FALSE(capped.intersect);
  EXPECT_TRUE(capped.common_point.array().isNaN().all());
  EXPECT_TRUE(capped.separating_normal.array().isNaN().all());
  const LpIntersectResult answered = intersect(a, b);
  EXPECT_EQ(answered.status, Status::converged);
  EXPECT_TRUE(answered.converged);
  // The bound is inclusive: exactly (n + 2) x (|A| + |B|) entries are allowed.
  LpOptions exact;
  exact.max_matrix_entries = 5.0 * 20;
  EXPECT_EQ(intersect(a, b, exact).status, Status::converged);
}

TEST(LpWorkspaceBound, DistanceAndSeedResidualBeyondTheBoundAreCapacityExceeded) {
  const Eigen::MatrixXd a = cloud(4, 12, 0, 3), b = cloud(4, 12, 6, 4);
  for (const DistanceNorm norm : {DistanceNorm::l1, DistanceNorm::linf}) {
    const LpDistanceResult capped = distance(a, b, norm, tiny_bound());
    EXPECT_EQ(capped.status, Status::capacity_exceeded);
    EXPECT_FALSE(capped.converged);
    const LpDistanceResult answered = distance(a, b, norm);
    EXPECT_EQ(answered.status, Status::converged);
    EXPECT_GT(answered.distance, 0);
  }
  LpWorkspace ws;
  const SeedResidualResult capped = seed_residual(a, b, ws, tiny_bound());
  EXPECT_EQ(capped.status, Status::capacity_exceeded);
  EXPECT_FALSE(capped.converged);
  EXPECT_EQ(seed_residual(a, b, ws).status, Status::converged);
}

TEST(LpWorkspaceBound, ContainsReportsTheCapacityOfItsPointTests) {
  const Eigen::MatrixXd a = cloud(3, 6, 0, 5), b = cloud(3, 30, 0, 6);
  const LpContainsResult capped = contains(a, b, tiny_bound());
  EXPECT_EQ(capped.status, Status::capacity_exceeded);
  EXPECT_EQ(contains(a, b).status, Status::converged);
}

TEST(LpWorkspaceBound, BadInputAndBadBoundsAreRefusedByName) {
  Eigen::MatrixXd a = cloud(3, 10, 0, 7);
  const Eigen::MatrixXd b = cloud(3, 10, 0, 8);
  a(1, 4) = std::numeric_limits<double>::quiet_NaN();
  try {
    (void)intersect(a, b, tiny_bound());
    ADD_FAILURE() << "a NaN point under a tiny bound must still be refused";
  } catch (const InvalidInput& e) {
    EXPECT_NE(std::string(e.what()).find("points_a"), std::string::npos) << e.what();
  }
  for (const double bad : {0.0, -1.0, std::numeric_limits<double>::quiet_NaN()}) {
    LpOptions o;
    o.max_matrix_entries = bad;
    try {
      (void)intersect(b, b, o);
      ADD_FAILURE() << "max_matrix_entries = " << bad << " must be refused";
    } catch (const InvalidInput& e) {
      EXPECT_NE(std::string(e.what()).find("max_matrix_entries"), std::string::npos) << e.what();
    }
    EXPECT_THROW((void)distance(b, b, DistanceNorm::l1, o), InvalidInput);
  }
  LpOptions unbounded;
  unbounded.max_matrix_entries = std::numeric_limits<double>::infinity();
  EXPECT_EQ(intersect(a.rightCols(3), b, unbounded).status, Status::converged);
}

}  // namespace
}  // namespace proxima::lp
