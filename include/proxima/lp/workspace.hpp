// SPDX-License-Identifier: MIT
// Shared vocabulary of the lp queries: point sets as Eigen matrices (one point per column, any
// dimension n >= 1), the options struct, and the caller-owned workspace that makes repeated
// queries allocation-free in the solver and warm-started.
#pragma once

#include <proxima/core/tolerance.hpp>
#include <proxima/lp/simplex_method.hpp>

#include <Eigen/Core>

namespace proxima::lp {

/// A finite point set in R^n: an n x N matrix whose columns are the points. N = 0 is the empty
/// set; a 0 x 0 matrix is accepted as an empty set of whatever dimension the other argument has.
using PointsRef = Eigen::Ref<const Eigen::MatrixXd>;

/// Options of every lp query.
struct LpOptions {
  /// The solver's tolerances, cap and pricing rule (see simplex_method.hpp).
  SimplexOptions simplex;
  /// Touching band of intersect/contains/point_inside, relative to the half-extent of the two
  /// sets (see kLpContactTolerance).
  double contact_tolerance = kLpContactTolerance;

  /// Throws InvalidInput naming the field unless every value is valid.
  void validate() const;
};

/// Storage reused across queries: the LP matrix, right-hand side and costs, and the solver
/// workspace (which keeps the last basis for warm starts). One workspace per thread; a workspace
/// kept for one pair of sets makes the next query on that pair (e.g. after a small motion) start
/// from the previous basis. Reusing it for another pair of the same sizes is correct too: the
/// old basis is only a starting point.
class LpWorkspace {
 public:
  LpWorkspace() = default;

  /// The solver workspace (basis, multipliers) of the last solve.
  const SimplexWorkspace& simplex() const { return simplex_; }
  /// Drops the stored basis: the next query starts cold.
  void forget_basis() { simplex_.forget_basis(); }

  /// For the implementation: the LP data of the next solve, sized rows x cols (grows only).
  Eigen::Block<Eigen::MatrixXd> matrix(int rows, int cols);
  Eigen::VectorXd::SegmentReturnType rhs(int rows);
  Eigen::VectorXd::SegmentReturnType costs(int cols);
  SimplexWorkspace& simplex_mut() { return simplex_; }

 private:
  SimplexWorkspace simplex_;
  Eigen::MatrixXd a_;
  Eigen::VectorXd b_;
  Eigen::VectorXd c_;
};

}  // namespace proxima::lp
