// SPDX-License-Identifier: MIT
// The `lp` suite of proxima_bench: lp::intersect (the simplex-method collision test of seed 000)
// in n dimensions against GLPK's simplex on the same LP and, on the 3-D rows, against proxima's
// GJK intersect on the same pairs. Its own case sets (point clouds on the unit sphere in R^n,
// every point a vertex), its own table columns (pivots per query) and JSON lines of the same
// shape as the other suites' plus the LP fields (see lp.cpp).
#pragma once

#include <Eigen/Core>

#include <cstdint>
#include <ostream>
#include <string>

namespace proxima::bench {

struct LpSuiteConfig {
  std::uint64_t seed = 1;
  int repeat = 30;
  bool quick = false;
  int pairs = 0;  // 0 = per-row default
  std::string impl_filter;
  std::string label;
  std::ostream* json = nullptr;  // JSON lines go here when set
};

/// Runs the suite, prints its table, writes JSON lines. Returns the wrong proxima answers.
int run_lp_suite(const LpSuiteConfig& config);

/// GLPK peer (peers/glpk.cpp, compiled when libglpk is found): conv(a) meets conv(b)? The LP
/// of lp::intersect (input coordinates), built per call, glp_simplex with presolve off and
/// messages off. `ok` is false when GLPK did not reach a definite status.
bool have_glpk();
bool glpk_intersect(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, bool& ok);

/// Exact reference (suites/lp_exact.cpp, compiled when CGAL is found): the same feasibility
/// question decided by CGAL's exact LP solver (Gmpzf) on the double input.
bool have_exact_lp();
bool exact_lp_intersect(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b);

}  // namespace proxima::bench
