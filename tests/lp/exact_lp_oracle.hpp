// SPDX-License-Identifier: MIT
// Exact oracle for the lp tests: the same geometric questions posed to CGAL's exact LP solver
// (CGAL::solve_linear_program with Gmpzf, exact on the double input), formulated independently
// of src/lp (original coordinates, inequality rows where natural, no normalisation).
// Implemented in exact_lp_oracle_test.cpp (the test glob compiles *_test.cpp only).
#pragma once

#include <Eigen/Core>

namespace proxima::lp::oracle {

/// Is conv(a) meet conv(b), decided exactly on the double input?
bool exact_intersect(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b);
/// Exact min |p - q|_1 over p in conv(a), q in conv(b), rounded to double at the end.
double exact_distance_l1(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b);
/// Exact min |p - q|_inf.
double exact_distance_linf(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b);
/// Exact optimum of the seed's problem P2: min e^T (b - A x) s.t. A x <= b, x >= 0, with A the
/// columns a_i and -b_j stacked over the two weight-sum rows.
double exact_seed_residual(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b);

}  // namespace proxima::lp::oracle
