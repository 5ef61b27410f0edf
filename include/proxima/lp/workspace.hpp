// SPDX-License-Identifier: MIT
// Shared vocabulary of the lp queries: point sets as Eigen matrices (one point per column, any
// dimension n >= 1), the options struct, and the caller-owned workspace that makes repeated
// queries allocation-free in the solver and warm-started.
#pragma once

#include <proxima/core/tolerance.hpp>
#include <proxima/lp/simplex_method.hpp>

#include <Eigen/Core>

#include <vector>

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
  /// Largest LP matrix (rows x columns) one query may build in the workspace: a query that would
  /// need more returns status capacity_exceeded (and no answer) instead of allocating it. The
  /// structured intersection's storage, (|A| + |B|) x n, is within the same bound. > 0; +inf for
  /// no bound. See kLpMaxMatrixEntries.
  double max_matrix_entries = kLpMaxMatrixEntries;

  /// Throws InvalidInput naming the field unless every value is valid.
  void validate() const;
};

namespace detail {
/// Storage of the structured intersection solver (src/lp/intersect_fast.cpp), kept in the
/// workspace so that a query allocates nothing once the workspace has seen its sizes. Opaque to
/// callers.
struct IntersectStorage {
  Eigen::MatrixXd points;  // (|A| + |B|) x n, one normalised point per row, B's rows negated
  Eigen::MatrixXd binv;    // m x m basis inverse, m = n + 2
  Eigen::MatrixXd factor;  // m x m basis matrix during refactorisation
  Eigen::VectorXd values;  // pricing values per column (|A| + |B|)
  Eigen::VectorXd xb;      // basic values (m)
  Eigen::VectorXd y;       // phase-one multipliers (m)
  Eigen::VectorXd alpha;   // entering column in basis coordinates (m)
  Eigen::VectorXd coords;  // the entering point's coordinates, gathered (n)
  Eigen::VectorXd sign;    // artificial column i is sign_i e_i (n)
  Eigen::VectorXd box;     // 5 n: min and max of A, of B, centre of both
  std::vector<int> basis;        // basic column per row (m); >= |A| + |B| means artificial
  std::vector<char> is_basic;    // per structural column
  int crash_a = -1;              // the crash's support points, found while storing (n = 3); -1: not
  int crash_b = -1;              // found (intersect_fast.cpp, FastSolver::crash)
  int n = -1;                    // shape (n, |A|, |B|) of the stored basis; -1: none
  int count_a = -1;
  int count_b = -1;
  long fallbacks = 0;            // queries the general solver had to decide (see intersect.hpp)
};
}  // namespace detail

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
  void forget_basis() {
    simplex_.forget_basis();
    fast_.n = -1;
  }

  /// For the implementation: the LP data of the next solve, sized rows x cols (grows only).
  Eigen::Block<Eigen::MatrixXd> matrix(int rows, int cols);
  Eigen::VectorXd::SegmentReturnType rhs(int rows);
  Eigen::VectorXd::SegmentReturnType costs(int cols);
  SimplexWorkspace& simplex_mut() { return simplex_; }
  detail::IntersectStorage& intersect_storage() { return fast_; }
  /// Queries of lp::intersect on this workspace whose answer came from the general solver
  /// because the structured one could not certify it (tests and benchmarks watch this).
  long intersect_fallbacks() const { return fast_.fallbacks; }

 private:
  SimplexWorkspace simplex_;
  detail::IntersectStorage fast_;
  Eigen::MatrixXd a_;
  Eigen::VectorXd b_;
  Eigen::VectorXd c_;
};

}  // namespace proxima::lp
