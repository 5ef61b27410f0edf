// SPDX-License-Identifier: MIT
// The CGAL exact LP oracle (see exact_lp_oracle.hpp) and its self-tests on closed-form cases.
#include "lp/exact_lp_oracle.hpp"

#include <gtest/gtest.h>

#ifdef PROXIMA_HAVE_CGAL
#include <CGAL/Gmpzf.h>
#include <CGAL/QP_functions.h>
#include <CGAL/QP_models.h>
#endif

#include <stdexcept>

namespace proxima::lp::oracle {

#ifdef PROXIMA_HAVE_CGAL
namespace {

using Program = CGAL::Quadratic_program<double>;
using Solution = CGAL::Quadratic_program_solution<CGAL::Gmpzf>;

// Columns 0..|a|-1 weigh a, the next |b| weigh b; rows 0..n-1 hold d = A l - B m (plus extra
// columns added by the caller), row n and n+1 the two weight sums.
void add_mixture(Program& lp, const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  const int n = static_cast<int>(a.rows());
  const int na = static_cast<int>(a.cols());
  for (int j = 0; j < na; ++j) {
    for (int i = 0; i < n; ++i) lp.set_a(j, i, a(i, j));
    lp.set_a(j, n, 1);
  }
  for (int j = 0; j < b.cols(); ++j) {
    for (int i = 0; i < n; ++i) lp.set_a(na + j, i, -b(i, j));
    lp.set_a(na + j, n + 1, 1);
  }
  lp.set_b(n, 1);
  lp.set_b(n + 1, 1);
}

double value(const Solution& s) {
  if (!s.is_optimal()) throw std::runtime_error("exact oracle: LP not optimal");
  return CGAL::to_double(s.objective_value());
}

}  // namespace

bool exact_intersect(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  if (a.cols() == 0 || b.cols() == 0) return false;
  Program lp(CGAL::EQUAL, true, 0, false, 0);
  add_mixture(lp, a, b);
  const Solution s = CGAL::solve_linear_program(lp, CGAL::Gmpzf());
  return !s.is_infeasible();
}

double exact_distance_l1(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  // d_i - u_i + v_i = 0, minimise sum u + v.
  Program lp(CGAL::EQUAL, true, 0, false, 0);
  add_mixture(lp, a, b);
  const int n = static_cast<int>(a.rows());
  const int base = static_cast<int>(a.cols() + b.cols());
  for (int i = 0; i < n; ++i) {
    lp.set_a(base + 2 * i, i, -1);
    lp.set_a(base + 2 * i + 1, i, 1);
    lp.set_c(base + 2 * i, 1);
    lp.set_c(base + 2 * i + 1, 1);
  }
  return value(CGAL::solve_linear_program(lp, CGAL::Gmpzf()));
}

double exact_distance_linf(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  // d_i - r <= 0 and -d_i - r <= 0 as two inequality rows per coordinate; minimise r.
  Program lp(CGAL::EQUAL, true, 0, false, 0);
  const int n = static_cast<int>(a.rows());
  const int na = static_cast<int>(a.cols());
  const int nb = static_cast<int>(b.cols());
  const int r = na + nb;
  for (int i = 0; i < n; ++i) {
    const int up = i;
    const int down = n + 2 + i;
    lp.set_r(up, CGAL::SMALLER);
    lp.set_r(down, CGAL::SMALLER);
    for (int j = 0; j < na; ++j) {
      lp.set_a(j, up, a(i, j));
      lp.set_a(j, down, -a(i, j));
    }
    for (int j = 0; j < nb; ++j) {
      lp.set_a(na + j, up, -b(i, j));
      lp.set_a(na + j, down, b(i, j));
    }
    lp.set_a(r, up, -1);
    lp.set_a(r, down, -1);
  }
  for (int j = 0; j < na; ++j) lp.set_a(j, n, 1);
  for (int j = 0; j < nb; ++j) lp.set_a(na + j, n + 1, 1);
  lp.set_b(n, 1);
  lp.set_b(n + 1, 1);
  lp.set_c(r, 1);
  return value(CGAL::solve_linear_program(lp, CGAL::Gmpzf()));
}

double exact_seed_residual(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  // e^T (b - A x) = e^T s with exact slacks s = b - A x >= 0 (costs 1: no rounded coefficients).
  Program lp(CGAL::EQUAL, true, 0, false, 0);
  add_mixture(lp, a, b);
  const int rows = static_cast<int>(a.rows()) + 2;
  const int base = static_cast<int>(a.cols() + b.cols());
  for (int i = 0; i < rows; ++i) {
    lp.set_a(base + i, i, 1);
    lp.set_c(base + i, 1);
  }
  return value(CGAL::solve_linear_program(lp, CGAL::Gmpzf()));
}

namespace {

TEST(ExactLpOracle, ClosedForms) {
  // Unit squares [0,1]^2 and [2,3] x [0.5,1.5]: l1 and linf distance 1, disjoint.
  const Eigen::MatrixXd sq{{0, 1, 1, 0}, {0, 0, 1, 1}};
  Eigen::MatrixXd moved = sq;
  moved.row(0).array() += 2;
  moved.row(1).array() += 0.5;
  EXPECT_FALSE(exact_intersect(sq, moved));
  EXPECT_DOUBLE_EQ(exact_distance_l1(sq, moved), 1.0);
  EXPECT_DOUBLE_EQ(exact_distance_linf(sq, moved), 1.0);
  // Diagonal offset to [2,3] x [3,4]: corner (1,1) to corner (2,3): l1 = 1 + 2, linf = 2.
  Eigen::MatrixXd diag = sq;
  diag.row(0).array() += 2;
  diag.row(1).array() += 3;
  EXPECT_DOUBLE_EQ(exact_distance_l1(sq, diag), 3.0);
  EXPECT_DOUBLE_EQ(exact_distance_linf(sq, diag), 2.0);
  // Touching at a corner intersects; distance 0.
  Eigen::MatrixXd touch = sq;
  touch.array() += 1;
  EXPECT_TRUE(exact_intersect(sq, touch));
  EXPECT_DOUBLE_EQ(exact_distance_l1(sq, touch), 0.0);
  // Empty set.
  EXPECT_FALSE(exact_intersect(sq, Eigen::MatrixXd(2, 0)));
  // Seed quantity, 1-D: S = {-0.5}, T = {0}: 0.5; S = {0.5}, T = {0}: 1 (see distance_test.cpp).
  EXPECT_DOUBLE_EQ(exact_seed_residual(Eigen::MatrixXd{{-0.5}}, Eigen::MatrixXd{{0}}), 0.5);
  EXPECT_DOUBLE_EQ(exact_seed_residual(Eigen::MatrixXd{{0.5}}, Eigen::MatrixXd{{0}}), 1.0);
}

}  // namespace

#else

bool exact_intersect(const Eigen::MatrixXd&, const Eigen::MatrixXd&) { throw std::logic_error("no CGAL"); }
double exact_distance_l1(const Eigen::MatrixXd&, const Eigen::MatrixXd&) { throw std::logic_error("no CGAL"); }
double exact_distance_linf(const Eigen::MatrixXd&, const Eigen::MatrixXd&) { throw std::logic_error("no CGAL"); }
double exact_seed_residual(const Eigen::MatrixXd&, const Eigen::MatrixXd&) { throw std::logic_error("no CGAL"); }

TEST(ExactLpOracle, ClosedForms) { GTEST_SKIP() << "CGAL not found: the exact oracle is unavailable"; }

#endif

}  // namespace proxima::lp::oracle
