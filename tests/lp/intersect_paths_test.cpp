// SPDX-License-Identifier: MIT
// The two solvers behind lp::intersect on the same cases: the structured path (intersect_fast:
// pricing as support scans, crash basis; what lp::intersect runs first), the general revised
// simplex (lp::solve on the LP written out densely here, in input coordinates with its own
// equilibration) and CGAL's exact LP, for every n = 1..20 and every case kind of lp_cases.hpp.
// Also: the structured path answers nearly every case itself (the general fallback is rare and
// counted), and a warm re-query of the same pair needs almost no pivot.
#include <proxima/lp/intersect.hpp>
#include <proxima/lp/simplex_method.hpp>

#include "lp/exact_lp_oracle.hpp"
#include "lp/lp_cases.hpp"
#include "support/case_divisor.hpp"

#include <gtest/gtest.h>

#include <map>
#include <random>

namespace proxima::lp {
namespace {

/// lp::solve on A l - B m = 0, sum l = 1, sum m = 1 (general path, independent set-up).
LpOutcome general_outcome(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, SimplexWorkspace& ws) {
  const Eigen::Index n = a.rows();
  Eigen::MatrixXd lp = Eigen::MatrixXd::Zero(n + 2, a.cols() + b.cols());
  lp.topLeftCorner(n, a.cols()) = a;
  lp.topRightCorner(n, b.cols()) = -b;
  lp.row(n).head(a.cols()).setOnes();
  lp.row(n + 1).tail(b.cols()).setOnes();
  Eigen::VectorXd rhs = Eigen::VectorXd::Zero(n + 2);
  rhs.tail(2).setOnes();
  ws.forget_basis();
  return solve(lp, rhs, Eigen::VectorXd(), ws).outcome;
}

double half_extent(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  const Eigen::VectorXd lo = a.rowwise().minCoeff().cwiseMin(b.rowwise().minCoeff());
  const Eigen::VectorXd hi = a.rowwise().maxCoeff().cwiseMax(b.rowwise().maxCoeff());
  return ((hi - lo) / 2).maxCoeff();
}

TEST(LpIntersectPaths, StructuredGeneralAndExactAgreeForEveryDimension) {
#ifndef PROXIMA_HAVE_CGAL
  GTEST_SKIP() << "CGAL not found: no exact oracle";
#endif
  const unsigned seed = 2026;
  testing::CaseGenerator gen(seed);
  LpWorkspace ws;
  SimplexWorkspace general_ws;
  int total = 0;
  int in_band = 0;
  int hits = 0;
  long fallbacks_outside_band = 0;
  long requery_pivots = 0;  // warm re-queries of the same pair: the refactorised final basis
  long cold_pivots = 0;     // may still price a column in a near-touching pair, rarely
  std::map<std::string, int> kinds;
  for (int n = 1; n <= 20; ++n) {
    // A quarter under the sanitizers (support/case_divisor.hpp): 12 and 6, every kind label still.
    const int cases = test::cases(n <= 6 ? 48 : 24);
    for (int t = 0; t < cases; ++t) {
      const testing::PairCase c = gen.make(n, t % testing::CaseGenerator::kKinds);
      SCOPED_TRACE("seed " + std::to_string(seed) + " n " + std::to_string(n) + " case " + std::to_string(t) +
                   " kind " + c.kind);
      ++kinds[c.kind];
      ++total;
      const bool truth = oracle::exact_intersect(c.a, c.b);
      const double band = 1e-9 * half_extent(c.a, c.b);
      const bool touching = !truth && oracle::exact_distance_linf(c.a, c.b) <= band;
      if (touching) {
        ++in_band;
        continue;
      }
      hits += truth ? 1 : 0;
      const long before = ws.intersect_fallbacks();
      ws.forget_basis();
      const LpIntersectResult fast = intersect(c.a, c.b, ws);
      fallbacks_outside_band += ws.intersect_fallbacks() - before;
      EXPECT_TRUE(fast.converged);
      EXPECT_EQ(fast.intersect, truth);
      if (fast.intersect) {
        EXPECT_TRUE(check_common_point(c.a, c.b, fast.common_point, fast.weights_a, fast.weights_b,
                                       1e-8 * std::max(1.0, c.a.cwiseAbs().maxCoeff() + c.b.cwiseAbs().maxCoeff()))
                        .valid);
      } else {
        EXPECT_TRUE(check_separation(c.a, c.b, fast.separating_normal, fast.separating_offset).valid);
      }
      EXPECT_EQ(general_outcome(c.a, c.b, general_ws), truth ? LpOutcome::optimal : LpOutcome::infeasible);
      // The same pair again on the kept workspace: warm, from the final basis, no pivot.
      const LpIntersectResult again = intersect(c.a, c.b, ws);
      EXPECT_EQ(again.intersect, fast.intersect);
      if (fast.iterations > 0 && ws.intersect_fallbacks() == before) {
        EXPECT_TRUE(again.warm_started);
        requery_pivots += again.iterations;
        cold_pivots += fast.iterations;
      }
    }
  }
  EXPECT_GT(total, test::cases(600));
  EXPECT_LT(requery_pivots * 20, cold_pivots) << "re-query " << requery_pivots << " cold " << cold_pivots;
  EXPECT_GT(hits, total / 5);
  EXPECT_LT(hits, total * 4 / 5);
  EXPECT_LT(in_band, total / 10);
  EXPECT_GE(static_cast<int>(kinds.size()), 10);
  // The structured path must answer nearly everything itself (else the test would be testing the
  // fallback): at most 2% of the cases outside the touching band go to the general solver.
  EXPECT_LE(fallbacks_outside_band * 50, total) << fallbacks_outside_band << " fallbacks in " << total;
}

TEST(LpIntersectPaths, LargeSetsWithMultiplePricingAgreeWithFullPricingAndTheGeneralSolver) {
  // From 512 columns the structured path prices a few candidates between full passes
  // (intersect_fast.cpp, kMultiplePricingColumns). Clouds on the unit sphere (every point a
  // vertex), B shifted by a distance around the touching one, at n = 3 (the vectorised input
  // passes) and n = 4: every answer certified on the input, equal to Bland's full pricing and to
  // the general solver (and to CGAL's exact LP where it is built).
  const unsigned seed = 20261125;
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> g;
  std::uniform_real_distribution<double> u(0, 1);
  const auto cloud = [&](int n, int count) {
    Eigen::MatrixXd p(n, count);
    for (int j = 0; j < count; ++j) {
      for (int i = 0; i < n; ++i) p(i, j) = g(rng);
      p.col(j).normalize();
    }
    return p;
  };
  LpWorkspace ws;
  LpWorkspace bland_ws;
  SimplexWorkspace general_ws;
  LpOptions bland;
  bland.simplex.pricing = PricingRule::bland;
  int hits = 0;
  int total = 0;
  for (const int n : {3, 4}) {
    for (const int count : {256, 300, 700, 1500}) {
      for (int t = 0; t < 6; ++t) {
        SCOPED_TRACE("seed " + std::to_string(seed) + " n " + std::to_string(n) + " count " + std::to_string(count) +
                     " case " + std::to_string(t));
        const Eigen::MatrixXd a = cloud(n, count);
        Eigen::MatrixXd b = cloud(n, count);
        const Eigen::VectorXd shift = cloud(n, 1).col(0) * (1.6 + 0.8 * u(rng));
        b.colwise() += shift;
        ws.forget_basis();
        const LpIntersectResult r = intersect(a, b, ws);
        ASSERT_TRUE(r.converged);
        if (r.intersect) {
          EXPECT_TRUE(check_common_point(a, b, r.common_point, r.weights_a, r.weights_b, 1e-9).valid);
        } else {
          EXPECT_TRUE(check_separation(a, b, r.separating_normal, r.separating_offset).valid);
        }
        bland_ws.forget_basis();
        EXPECT_EQ(intersect(a, b, bland_ws, bland).intersect, r.intersect);
        EXPECT_EQ(general_outcome(a, b, general_ws) == LpOutcome::optimal, r.intersect);
#ifdef PROXIMA_HAVE_CGAL
        if (count <= 300) {
          EXPECT_EQ(oracle::exact_intersect(a, b), r.intersect);
        }
#endif
        hits += r.intersect ? 1 : 0;
        ++total;
      }
    }
  }
  EXPECT_EQ(ws.intersect_fallbacks(), 0);
  // Both answers are well represented.
  EXPECT_GE(hits * 5, total) << hits << " of " << total;
  EXPECT_GE((total - hits) * 5, total) << hits << " of " << total;
}

TEST(LpIntersectPaths, PairsSeparatedAlongTheCentreLineNeedNoPivot) {
  // The crash's direction (between the two boxes' centres) is taken as the Farkas ray without a
  // pivot when it separates the sets by a clear margin (intersect_fast.cpp, crash_separates).
  // Clouds pulled apart along a random direction: every answer is separated, certified on the
  // input points, agrees with CGAL's exact LP, and costs no pivot; the fixed-dimension solver
  // (n = 3) and the general one (other n) both take the shortcut.
  const unsigned seed = 4242;
  testing::CaseGenerator gen(seed);
  int shortcuts = 0;
  int total = 0;
  for (const int n : {2, 3, 5, 10}) {
    for (int t = 0; t < 20; ++t) {
      SCOPED_TRACE("seed " + std::to_string(seed) + " n " + std::to_string(n) + " case " + std::to_string(t));
      const Eigen::MatrixXd a = gen.cloud(n, 8 + 3 * t, 1);
      Eigen::MatrixXd b = gen.cloud(n, 5 + 2 * t, 1);
      const Eigen::VectorXd dir = gen.cloud(n, 1, 1).col(0).normalized();
      b.colwise() += (2.5 + 0.1 * t) * dir;  // the unit balls' hulls are apart by >= 0.5
      ASSERT_FALSE(oracle::exact_intersect(a, b));
      LpWorkspace ws;
      const LpIntersectResult r = intersect(a, b, ws);
      ++total;
      EXPECT_TRUE(r.converged);
      EXPECT_FALSE(r.intersect);
      EXPECT_TRUE(check_separation(a, b, r.separating_normal, r.separating_offset).valid);
      shortcuts += r.iterations == 0 ? 1 : 0;
    }
  }
  // Points on the unit sphere shifted by more than 2.5: the box centres' line separates them
  // whenever the boxes' centres are near the balls' centres, which is nearly always.
  EXPECT_GE(shortcuts * 10, total * 9) << shortcuts << " of " << total;
}

TEST(LpIntersectPaths, PairsNotSeparatedAlongTheCentreLinePivot) {
  // Two parallel segments 0.1 apart, the second shifted along them: the centre line (1, 0.1)
  // does not separate them (A's end at x = 10 is beyond B's start along it), the plane y = 0.05
  // does. The shortcut must not answer; the pivots find a separating plane.
  for (const int n : {2, 3, 4}) {
    SCOPED_TRACE("n " + std::to_string(n));
    Eigen::MatrixXd a = Eigen::MatrixXd::Zero(n, 2);
    Eigen::MatrixXd b = Eigen::MatrixXd::Zero(n, 2);
    a(0, 1) = 10;
    b(0, 0) = 1;
    b(0, 1) = 11;
    b(1, 0) = 0.1;
    b(1, 1) = 0.1;
    const LpIntersectResult r = intersect(a, b);
    EXPECT_TRUE(r.converged);
    EXPECT_FALSE(r.intersect);
    EXPECT_GT(r.iterations, 0);
    EXPECT_TRUE(check_separation(a, b, r.separating_normal, r.separating_offset).valid);
    // Every separating plane is y = const (tilted only along the unused coordinates, which
    // shrinks its margin): the margin is positive and at most the gap 0.1.
    EXPECT_GT(r.margin, 0);
    EXPECT_LE(r.margin, 0.1 + 1e-12);
    EXPECT_GT(r.separating_normal[1], 0);
  }
}

}  // namespace
}  // namespace proxima::lp
