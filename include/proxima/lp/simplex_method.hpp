// SPDX-License-Identifier: MIT
// The simplex method behind every query of the lp layer (seed 000, "Simplex Method"): a revised
// simplex on the standard form
//
//     minimise c^T x   subject to   A x = b,  x >= 0,        A: m x N, dense, column-major,
//
// with a phase one on artificial variables, Bland's anti-cycling rule (alone, or as the fallback of
// Dantzig's rule on degenerate runs), a Harris two-pass ratio
// test, a dense explicit basis inverse that is refactorised every few dozen pivots, an iteration
// cap that is reported (never silently answered), a caller-owned workspace (no allocation per
// pivot, none at all once the workspace has seen the largest size) and a warm start from the
// basis of the previous solve.
//
// The seed uses a dense tableau and phase one only; here phase two exists too, because the exact
// 1-norm and infinity-norm distances (lp/distance.hpp) are genuine optimisations.
#pragma once

#include <proxima/core/status.hpp>
#include <proxima/core/tolerance.hpp>
#include <proxima/core/types.hpp>

#include <Eigen/Core>

#include <cstdint>
#include <span>
#include <vector>

namespace proxima::lp {

/// How the entering column is chosen. Both are provably finite (no cycling in exact arithmetic).
enum class PricingRule : std::uint8_t {
  /// Bland's rule: the lowest-index column with a negative reduced cost enters; on a degenerate
  /// step the lowest-index blocking variable leaves. Cannot cycle (Bland 1977). Scans blocks of
  /// columns and stops at the first candidate, but takes several times more pivots.
  bland,
  /// The default. Dantzig's rule (most negative reduced cost, all columns priced by one
  /// matrix-vector product), falling back to Bland's rule after
  /// SimplexOptions::degenerate_run_before_bland consecutive degenerate pivots, until the
  /// objective strictly decreases. Finite: a cycle would be a run of degenerate pivots, and any
  /// such run longer than the threshold is priced by Bland's rule, which cannot cycle.
  /// Measured (proxima_bench --suite=lp, lp::intersect's structured path): 2-9 pivots per cold
  /// 3-D intersection query for N = 8..4096 points per set against Bland's 5-21, and 1.3-7x
  /// faster (docs/benchmarks.md, LP).
  dantzig_bland_fallback,
};

/// Tunables of one solve. Defaults come from core/tolerance.hpp (section "lp"); see there for
/// what each bounds and what breaks when it changes.
struct SimplexOptions {
  /// Pivot cap over both phases; reaching it gives Status::iteration_limit.
  int max_iterations = kLpMaxIterations;
  double feasibility_tolerance = kLpFeasibilityTolerance;
  double optimality_tolerance = kLpOptimalityTolerance;
  double pivot_tolerance = kLpPivotTolerance;
  double infeasibility_tolerance = kLpInfeasibilityTolerance;
  int refactor_interval = kLpRefactorInterval;
  int degenerate_run_before_bland = kLpDegenerateRunBeforeBland;
  PricingRule pricing = PricingRule::dantzig_bland_fallback;
  /// Start from the previous solve's final basis when the workspace holds one of the same shape
  /// (m, N). Any basis is accepted: an infeasible or singular one only costs the repair.
  bool warm_start = true;
  /// Equilibrate rows and columns of A by powers of two before solving (see solve()). The lp
  /// queries normalise their point sets to [-1, 1]^n themselves and turn this off, so that their
  /// tolerances stay relative to the sets' extent in every direction (and save its O(m N) cost).
  bool equilibrate = true;

  /// Throws InvalidInput naming the field unless every tolerance is finite and > 0 and every
  /// count is >= 1.
  void validate() const;
};

/// What the solve established.
enum class LpOutcome : std::uint8_t {
  optimal,     ///< x is optimal (phase one only: x is feasible)
  infeasible,  ///< no x >= 0 with A x = b; dual() is a Farkas ray
  unbounded,   ///< feasible, but c^T x is unbounded below
  not_solved,  ///< stopped by the iteration cap or a numerical breakdown (see status)
};

/// Result of one solve. The solution vectors live in the workspace (primal(), dual()).
struct SimplexResult {
  LpOutcome outcome = LpOutcome::not_solved;
  /// c^T x at the returned basis (optimal: the optimum). Infeasible: the phase-one optimum, the
  /// 1-norm of the smallest residual b - A x over the artificial variables (> 0).
  double objective = kNaN;
  /// Pivots performed, both phases (warm-start repair included).
  int iterations = 0;
  /// Of which in phase one.
  int phase_one_iterations = 0;
  /// True when the previous basis was reused as the starting basis.
  bool warm_started = false;
  Status status = Status::converged;
  Detail detail = Detail::none;
};

class SimplexWorkspace;

/// Solves min c^T x s.t. A x = b, x >= 0. Pass an empty `c` (size 0) for a pure feasibility
/// problem (phase one only).
///
/// After the call, `workspace.primal()` holds x (size N; entries may be negative by up to the
/// feasibility tolerance) when the outcome is optimal, and `workspace.dual()` holds y (size m):
///  - optimal with c: the simplex multipliers, c_j - y^T A_j >= -tol for every column j, and
///    y^T b = c^T x (strong duality);
///  - infeasible: a Farkas ray, y^T A_j <= tol for every column j and y^T b = objective > 0, which
///    proves that no x >= 0 solves A x = b.
/// Scaling (options.equilibrate): rows, then columns, of A are equilibrated by powers of two (exact),
/// so that every row and column has its largest entry in [1, 2); x and y are scaled back.
/// Tolerances apply to the equilibrated problem: primal ones scaled by max(1, |b|_inf), dual
/// ones by max(1, |c|_inf).
/// Status: converged; iteration_limit at options.max_iterations; degenerate_input / no_progress
/// after a numerical breakdown that the one retry (larger ratio-test pivot tolerance) did not
/// cure: a basis singular at refactorisation, or kLpStallPivots pivots in a row without the
/// objective improving (cycling through rounding at extreme dynamic ranges).
/// Cost: O(m^2 + m N) per pivot (Bland's rule usually stops pricing early), O(m^3) per
/// refactorisation; no allocation once the workspace holds capacity for (m, N).
/// Throws InvalidInput when sizes disagree (field "b" or "c") or A, b, c hold NaN/Inf.
SimplexResult solve(const Eigen::Ref<const Eigen::MatrixXd>& a, const Eigen::Ref<const Eigen::VectorXd>& b,
                    const Eigen::Ref<const Eigen::VectorXd>& c, SimplexWorkspace& workspace,
                    const SimplexOptions& options = {});

/// Caller-owned storage of the solver: basis inverse, basis, primal and dual vectors, and the last
/// basis for warm starts. Sized on first use (or by reserve()); it only grows.
class SimplexWorkspace {
 public:
  SimplexWorkspace() = default;
  /// Pre-sizes for problems with up to `rows` constraints and `cols` columns.
  SimplexWorkspace(int rows, int cols) { reserve(rows, cols); }

  /// Makes room for m = rows, N = cols. Allocates only when growing.
  void reserve(int rows, int cols);
  /// Drops the stored basis: the next solve starts cold.
  void forget_basis() { basis_rows_ = -1; }
  /// True when a basis for an (m, N) problem is stored.
  bool has_basis(int rows, int cols) const { return basis_rows_ == rows && basis_cols_ == cols; }

  /// x of the last solve (size N).
  Eigen::Map<const Eigen::VectorXd> primal() const { return {x_.data(), cols_}; }
  /// y of the last solve (size m): simplex multipliers or Farkas ray (see solve()).
  Eigen::Map<const Eigen::VectorXd> dual() const { return {y_.data(), rows_}; }
  /// Basic column of each row after the last solve; indices >= N are artificial columns.
  std::span<const int> basis() const { return {basis_.data(), static_cast<std::size_t>(rows_)}; }

 private:
  friend class SimplexSolver;
  friend SimplexResult solve(const Eigen::Ref<const Eigen::MatrixXd>&, const Eigen::Ref<const Eigen::VectorXd>&,
                             const Eigen::Ref<const Eigen::VectorXd>&, SimplexWorkspace&, const SimplexOptions&);

  int rows_ = 0;  // m of the last solve
  int cols_ = 0;  // N of the last solve
  int basis_rows_ = -1;
  int basis_cols_ = -1;
  Eigen::MatrixXd binv_;     // capacity >= m x m: the basis inverse
  Eigen::MatrixXd scratch_;  // capacity >= m x m: the basis matrix during refactorisation
  Eigen::VectorXd xb_;       // basic values (m)
  Eigen::VectorXd y_;        // multipliers (m)
  Eigen::VectorXd alpha_;    // entering column in basis coordinates (m)
  Eigen::VectorXd cb_;       // costs of the basic variables (m)
  Eigen::VectorXd sign_;     // artificial column i is sign_i e_i (m)
  Eigen::VectorXd extra_;    // warm-start repair column -B 1 (m)
  Eigen::VectorXd x_;        // primal solution (N)
  Eigen::VectorXd reduced_;  // A^T y during Dantzig pricing (N)
  Eigen::MatrixXd at_;         // capacity >= N x m: A^T (as solved), for pricing
  Eigen::MatrixXd scaled_a_;   // capacity >= m x N: R A S, equilibrated by powers of two
  Eigen::VectorXd scaled_b_;   // R b
  Eigen::VectorXd scaled_c_;   // S c
  Eigen::VectorXd row_scale_;  // R (m)
  Eigen::VectorXd col_scale_;  // S (N)
  std::vector<int> basis_;   // basic column per row (m)
  std::vector<char> is_basic_;  // per column, structural + artificial + repair (N + m + 1)
};

}  // namespace proxima::lp
