// SPDX-License-Identifier: MIT
// Tests of lp/simplex_method.hpp on small LPs with known optima (closed forms, Beale's cycling
// example), on the iteration cap and on warm starts. The polytope queries built on it are checked
// against exact arithmetic in exact_oracle_test.cpp.
#include <proxima/core/error.hpp>
#include <proxima/lp/simplex_method.hpp>

#include <gtest/gtest.h>

#include <random>

namespace proxima::lp {
namespace {

// Beale's example: Dantzig's rule with lowest-index leaving cycles on it forever. Optimum -5/4 at
// x4 = 1, x6 = 1, x1 = 3/4 (x1..x3 are the slacks).
struct Beale {
  Eigen::MatrixXd a{{1, 0, 0, 0.25, -8, -1, 9}, {0, 1, 0, 0.5, -12, -0.5, 3}, {0, 0, 1, 0, 0, 1, 0}};
  Eigen::VectorXd b{{0, 0, 1}};
  Eigen::VectorXd c{{0, 0, 0, -0.75, 20, -0.5, 6}};
};

TEST(SimplexMethod, BealeDoesNotCycleUnderEitherRule) {
  for (const PricingRule rule : {PricingRule::bland, PricingRule::dantzig_bland_fallback}) {
    Beale lp;
    SimplexWorkspace ws;
    SimplexOptions options;
    options.pricing = rule;
    const SimplexResult r = solve(lp.a, lp.b, lp.c, ws, options);
    ASSERT_EQ(r.outcome, LpOutcome::optimal) << "rule " << static_cast<int>(rule);
    EXPECT_EQ(r.status, Status::converged);
    EXPECT_NEAR(r.objective, -1.25, 1e-12);
    const Eigen::VectorXd x = ws.primal();
    EXPECT_NEAR(x[0], 0.75, 1e-12);
    EXPECT_NEAR(x[3], 1.0, 1e-12);
    EXPECT_NEAR(x[5], 1.0, 1e-12);
    EXPECT_LT((lp.a * x - lp.b).norm(), 1e-12);
    // Strong duality and dual feasibility.
    const Eigen::VectorXd y = ws.dual();
    EXPECT_NEAR(y.dot(lp.b), r.objective, 1e-12);
    EXPECT_GE((lp.c - lp.a.transpose() * y).minCoeff(), -1e-12);
  }
}

TEST(SimplexMethod, InfeasibleGivesFarkasRay) {
  // x1 + x2 = 1 and x1 + x2 = 2 (and a row with a negative right-hand side).
  const Eigen::MatrixXd a{{1, 1, 0}, {1, 1, 0}, {0, 1, -1}};
  const Eigen::VectorXd b{{1, 2, -3}};
  SimplexWorkspace ws;
  const SimplexResult r = solve(a, b, Eigen::VectorXd(), ws);
  ASSERT_EQ(r.outcome, LpOutcome::infeasible);
  const Eigen::VectorXd y = ws.dual();
  EXPECT_GT(y.dot(b), 1e-6);
  EXPECT_LE((a.transpose() * y).maxCoeff(), 1e-12);
  EXPECT_NEAR(r.objective, y.dot(b), 1e-12);
}

TEST(SimplexMethod, UnboundedIsReported) {
  // min -x1 s.t. x1 - x2 = 1.
  const Eigen::MatrixXd a{{1, -1}};
  SimplexWorkspace ws;
  const SimplexResult r = solve(a, Eigen::VectorXd{{1}}, Eigen::VectorXd{{-1, 0}}, ws);
  EXPECT_EQ(r.outcome, LpOutcome::unbounded);
}

TEST(SimplexMethod, RedundantAndZeroRowsAreHandled) {
  // Row 2 = row 0 + row 1, row 3 is all zero; min x0 + 2 x1 + 3 x2 s.t. x0 + x1 = 1, x1 + x2 = 1.
  const Eigen::MatrixXd a{{1, 1, 0}, {0, 1, 1}, {1, 2, 1}, {0, 0, 0}};
  const Eigen::VectorXd b{{1, 1, 2, 0}};
  const Eigen::VectorXd c{{1, 2, 3}};
  SimplexWorkspace ws;
  const SimplexResult r = solve(a, b, c, ws);
  ASSERT_EQ(r.outcome, LpOutcome::optimal);
  EXPECT_NEAR(r.objective, 2.0, 1e-12);  // x1 = 1 (cost 2) beats x0 = x2 = 1 (cost 4)
  EXPECT_LT((a * Eigen::VectorXd(ws.primal()) - b).norm(), 1e-12);
}

// Random feasible LPs: b = A x0 for a random x0 >= 0, so the LP is feasible; bounded because the
// costs are positive. The optimum is checked by its own certificate: primal feasibility, dual
// feasibility (reduced costs >= 0) and equal objectives. A cold and a warm solve must agree.
TEST(SimplexMethod, RandomLpsSatisfyOptimalityCertificate) {
  const unsigned seed = 20261122;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  SimplexWorkspace ws;
  int warm_used = 0;
  int cases = 0;
  for (int t = 0; t < 300; ++t) {
    const int m = 1 + static_cast<int>(rng() % 8);
    const int n = m + static_cast<int>(rng() % 20);
    Eigen::MatrixXd a(m, n);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i) a(i, j) = u(rng);
    Eigen::VectorXd x0(n);
    for (int j = 0; j < n; ++j) x0[j] = rng() % 3 == 0 ? 0.0 : (u(rng) + 1) / 2;
    const Eigen::VectorXd b = a * x0;
    Eigen::VectorXd c(n);
    for (int j = 0; j < n; ++j) c[j] = (u(rng) + 1) / 2 + 0.01;
    for (const PricingRule rule : {PricingRule::bland, PricingRule::dantzig_bland_fallback}) {
      SimplexOptions options;
      options.pricing = rule;
      for (int pass = 0; pass < 2; ++pass) {
        const SimplexResult r = solve(a, b, c, ws, options);
        SCOPED_TRACE("seed " + std::to_string(seed) + " case " + std::to_string(t) + " pass " + std::to_string(pass));
        ASSERT_EQ(r.outcome, LpOutcome::optimal);
        warm_used += r.warm_started ? 1 : 0;
        const Eigen::VectorXd x = ws.primal();
        const Eigen::VectorXd y = ws.dual();
        EXPECT_GE(x.minCoeff(), -1e-9);
        EXPECT_LT((a * x - b).lpNorm<Eigen::Infinity>(), 1e-9);
        EXPECT_GE((c - a.transpose() * y).minCoeff(), -1e-9);
        EXPECT_NEAR(c.dot(x), y.dot(b), 1e-9 * (1 + std::abs(c.dot(x))));
        if (pass == 1) {
          EXPECT_EQ(r.iterations, 0) << "a warm start from the optimal basis needs no pivot";
        }
        ++cases;
      }
    }
  }
  EXPECT_GT(warm_used, cases / 3);
}

// Warm start from a basis that the new right-hand side makes infeasible: the repair column path.
// Each new b = A x1 is feasible; the answer is checked by its optimality certificate.
TEST(SimplexMethod, WarmStartFromInfeasibleBasisRepairs) {
  const unsigned seed = 77;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  SimplexWorkspace ws;
  int repaired = 0;
  for (int t = 0; t < 200; ++t) {
    const int m = 2 + static_cast<int>(rng() % 6);
    const int n = m + 4 + static_cast<int>(rng() % 10);
    Eigen::MatrixXd a = Eigen::MatrixXd::NullaryExpr(m, n, [&] { return 2 * u(rng) - 1; });
    const Eigen::VectorXd c = Eigen::VectorXd::NullaryExpr(n, [&] { return u(rng) + 0.1; });
    ws.forget_basis();
    for (int step = 0; step < 4; ++step) {
      const Eigen::VectorXd x1 = Eigen::VectorXd::NullaryExpr(n, [&] { return u(rng); });
      const Eigen::VectorXd b = a * x1;
      const SimplexResult r = solve(a, b, c, ws);
      SCOPED_TRACE("seed " + std::to_string(seed) + " case " + std::to_string(t) + " step " + std::to_string(step));
      ASSERT_EQ(r.outcome, LpOutcome::optimal);
      if (step > 0) {
        EXPECT_TRUE(r.warm_started);
      }
      repaired += (r.warm_started && r.phase_one_iterations > 0) ? 1 : 0;
      const Eigen::VectorXd x = ws.primal();
      const Eigen::VectorXd y = ws.dual();
      EXPECT_GE(x.minCoeff(), -1e-9);
      EXPECT_LT((a * x - b).lpNorm<Eigen::Infinity>(), 1e-9);
      EXPECT_GE((c - a.transpose() * y).minCoeff(), -1e-9);
      EXPECT_NEAR(c.dot(x), y.dot(b), 1e-9 * (1 + std::abs(c.dot(x))));
    }
  }
  EXPECT_GT(repaired, 100) << "the repair path must actually be exercised";
}

TEST(SimplexMethod, IterationCapIsReportedNotAnswered) {
  Beale lp;
  SimplexWorkspace ws;
  SimplexOptions options;
  options.max_iterations = 1;
  const SimplexResult r = solve(lp.a, lp.b, lp.c, ws, options);
  EXPECT_EQ(r.outcome, LpOutcome::not_solved);
  EXPECT_EQ(r.status, Status::iteration_limit);
  EXPECT_EQ(r.iterations, 1);
}

TEST(SimplexMethod, BadInputIsRefusedNamingTheArgument) {
  SimplexWorkspace ws;
  const Eigen::MatrixXd a{{1, 2}};
  try {
    solve(a, Eigen::VectorXd{{1, 2}}, Eigen::VectorXd(), ws);
    FAIL() << "no throw";
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.field(), "b");
  }
  try {
    solve(a, Eigen::VectorXd{{1}}, Eigen::VectorXd{{1}}, ws);
    FAIL() << "no throw";
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.field(), "c");
  }
  const Eigen::MatrixXd bad{{1, std::numeric_limits<double>::quiet_NaN()}};
  EXPECT_THROW(solve(bad, Eigen::VectorXd{{1}}, Eigen::VectorXd(), ws), InvalidInput);
  SimplexOptions options;
  options.pivot_tolerance = -1;
  try {
    options.validate();
    FAIL() << "no throw";
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.field(), "pivot_tolerance");
  }
}

}  // namespace
}  // namespace proxima::lp
