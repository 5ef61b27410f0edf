// SPDX-License-Identifier: MIT
// Exact reference of the lp suite: is A l - B m = 0, sum l = 1, sum m = 1, l, m >= 0 feasible?
// Decided by CGAL's exact LP solver with Gmpzf (exact on the double input). Its own static
// library: CGAL adds -frounding-math, which must not reach the timed code.
#include "suites/lp.hpp"

#include <CGAL/Gmpzf.h>
#include <CGAL/QP_functions.h>
#include <CGAL/QP_models.h>

namespace proxima::bench {

bool have_exact_lp() { return true; }

bool exact_lp_intersect(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  if (a.cols() == 0 || b.cols() == 0) return false;
  const int n = static_cast<int>(a.rows());
  const int na = static_cast<int>(a.cols());
  CGAL::Quadratic_program<double> lp(CGAL::EQUAL, true, 0, false, 0);
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
  return !CGAL::solve_linear_program(lp, CGAL::Gmpzf()).is_infeasible();
}

}  // namespace proxima::bench
