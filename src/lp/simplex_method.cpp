// SPDX-License-Identifier: MIT
// Revised simplex with an explicit dense basis inverse. Columns are numbered 0..N-1 (structural),
// N..N+m-1 (artificial: sign_i e_i for row i) and N+m (the warm-start repair column -B 1).
#include <proxima/lp/simplex_method.hpp>

#include "lp/common.hpp"

#include <proxima/core/error.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace proxima::lp {

void SimplexOptions::validate() const {
  const auto positive = [](const char* field, double value) {
    if (!(value > 0) || !std::isfinite(value)) {
      throw InvalidInput(field, "must be finite and > 0, got " + format_number(value));
    }
  };
  positive("feasibility_tolerance", feasibility_tolerance);
  positive("optimality_tolerance", optimality_tolerance);
  positive("pivot_tolerance", pivot_tolerance);
  positive("infeasibility_tolerance", infeasibility_tolerance);
  if (max_iterations < 1) throw InvalidInput("max_iterations", "must be >= 1, got " + std::to_string(max_iterations));
  if (refactor_interval < 1) {
    throw InvalidInput("refactor_interval", "must be >= 1, got " + std::to_string(refactor_interval));
  }
  if (degenerate_run_before_bland < 1) {
    throw InvalidInput("degenerate_run_before_bland",
                       "must be >= 1, got " + std::to_string(degenerate_run_before_bland));
  }
}

void SimplexWorkspace::reserve(int rows, int cols) {
  if (binv_.rows() < rows) {
    binv_.resize(rows, rows);
    scratch_.resize(rows, rows);
    xb_.resize(rows);
    y_.resize(rows);
    alpha_.resize(rows);
    cb_.resize(rows);
    sign_.resize(rows);
    extra_.resize(rows);
    basis_.resize(static_cast<std::size_t>(rows));
  }
  if (x_.size() < cols) {
    x_.resize(cols);
    reduced_.resize(cols);
  }
  const auto columns = static_cast<std::size_t>(rows) + static_cast<std::size_t>(cols) + 1;
  if (is_basic_.size() < columns) is_basic_.resize(columns);
  // A^T and the equilibrated copies (solve() grows them the same way).
  if (at_.rows() < cols || at_.cols() < rows) {
    at_.resize(std::max<Eigen::Index>(cols, at_.rows()), std::max<Eigen::Index>(rows, at_.cols()));
  }
  if (scaled_a_.rows() < rows || scaled_a_.cols() < cols) {
    scaled_a_.resize(std::max<Eigen::Index>(rows, scaled_a_.rows()), std::max<Eigen::Index>(cols, scaled_a_.cols()));
  }
  if (row_scale_.size() < rows) {
    row_scale_.resize(rows);
    scaled_b_.resize(rows);
  }
  if (col_scale_.size() < cols) {
    col_scale_.resize(cols);
    scaled_c_.resize(cols);
  }
}

namespace {
/// Columns priced per matrix-vector product under Bland's rule: large enough to vectorise, small
/// enough that the scan still stops early. A speed knob only (no effect on the answer).
constexpr int kBlandPricingBlock = 64;
/// On the retry after a numerical breakdown (see SimplexSolver::run), the ratio test's pivot
/// tolerance is this many times SimplexOptions::pivot_tolerance. On a touching pair
/// (docs/reliability.md, finding 4) the one row at the minimum ratio had a pivot of 2e-8 beside
/// a largest entry of 9.8, above the default relative tolerance of 1e-9; the basis it made was
/// singular at the next refactorisation. Treating such entries as zero lets the basic variable
/// drift below 0 by at most the step times the entry (within the feasibility tolerance here).
constexpr double kRetryPivotToleranceFactor = 1e3;

bool all_finite(const Eigen::Ref<const Eigen::MatrixXd>& m) { return m.allFinite(); }
}  // namespace

/// One solve; holds references to the data and the workspace. Internal to this file.
class SimplexSolver {
 public:
  SimplexSolver(const Eigen::Ref<const Eigen::MatrixXd>& a, const Eigen::Ref<const Eigen::VectorXd>& b,
                const Eigen::Ref<const Eigen::VectorXd>& c, SimplexWorkspace& ws, const SimplexOptions& options)
      : a_(a), b_(b), c_(c), ws_(ws), opt_(options), m_(static_cast<int>(a.rows())), n_(static_cast<int>(a.cols())) {
    // A^T, column-major: pricing computes A^T y as m contiguous axpys (vectorised), which is
    // several times faster than N short dot products when N >> m.
    if (ws.at_.rows() < n_ || ws.at_.cols() < m_) {
      ws.at_.resize(std::max<Eigen::Index>(n_, ws.at_.rows()), std::max<Eigen::Index>(m_, ws.at_.cols()));
    }
    ws.at_.topLeftCorner(n_, m_) = a.transpose();
    const double b_scale = std::max(1.0, m_ > 0 ? b.lpNorm<Eigen::Infinity>() : 0.0);
    const double c_scale = std::max(1.0, c.size() > 0 ? c.lpNorm<Eigen::Infinity>() : 0.0);
    feas_ = options.feasibility_tolerance * b_scale;
    infeas_ = options.infeasibility_tolerance * b_scale;
    dual_tol_phase2_ = options.optimality_tolerance * c_scale;
    pivot_tolerance_ = options.pivot_tolerance;
  }

  /// Solves; after a numerical breakdown (a basis singular at refactorisation, or a phase-one
  /// ratio test with no row), solves once more from the all-artificial basis with a larger
  /// pivot tolerance in the ratio test (kRetryPivotToleranceFactor). The first attempt is
  /// unchanged by the retry.
  SimplexResult run();

 private:
  SimplexResult attempt(bool allow_warm);

  int extra_index() const { return n_ + m_; }
  bool is_artificial(int j) const { return j >= n_; }

  auto binv() { return ws_.binv_.topLeftCorner(m_, m_); }
  auto xb() { return ws_.xb_.head(m_); }
  auto y() { return ws_.y_.head(m_); }
  auto alpha() { return ws_.alpha_.head(m_); }

  double cost(int j) const {
    if (phase_one_) return is_artificial(j) ? 1.0 : 0.0;
    return (j < n_ && c_.size() > 0) ? c_[j] : 0.0;
  }
  /// y . (column j)
  double dot_column(int j) {
    if (j < n_) return ws_.y_.head(m_).dot(a_.col(j));
    if (j < extra_index()) return ws_.sign_[j - n_] * ws_.y_[j - n_];
    return ws_.y_.head(m_).dot(ws_.extra_.head(m_));
  }
  /// alpha = B^-1 (column j)
  void compute_alpha(int j) {
    if (j < n_) {
      alpha().noalias() = binv() * a_.col(j);
    } else if (j < extra_index()) {
      alpha() = ws_.sign_[j - n_] * binv().col(j - n_);
    } else {
      alpha().noalias() = binv() * ws_.extra_.head(m_);
    }
  }
  void write_column(int j, Eigen::Ref<Eigen::VectorXd> out) const {
    if (j < n_) {
      out = a_.col(j);
    } else if (j < extra_index()) {
      out.setZero();
      out[j - n_] = ws_.sign_[j - n_];
    } else {
      out = ws_.extra_.head(m_);
    }
  }
  void compute_duals() {
    for (int r = 0; r < m_; ++r) ws_.cb_[r] = cost(ws_.basis_[static_cast<std::size_t>(r)]);
    y().noalias() = binv().transpose() * ws_.cb_.head(m_);
  }
  double basic_artificial_sum() {
    double sum = 0;
    for (int r = 0; r < m_; ++r) {
      if (is_artificial(ws_.basis_[static_cast<std::size_t>(r)])) sum += std::max(ws_.xb_[r], 0.0);
    }
    return sum;
  }
  /// The current phase's objective at the basic solution (kLpStallPivots' progress measure).
  double phase_objective() {
    if (phase_one_) return basic_artificial_sum();
    double sum = 0;
    for (int r = 0; r < m_; ++r) sum += cost(ws_.basis_[static_cast<std::size_t>(r)]) * ws_.xb_[r];
    return sum;
  }

  bool refactor();
  void cold_start();
  void pivot(int row, int entering);
  int price(bool bland);
  int ratio_test(bool& degenerate);
  void drive_out_artificials();
  /// Runs the pivot loop of the current phase. Returns false when the cap was hit.
  bool iterate(SimplexResult& result, LpOutcome& phase_outcome);
  void extract_primal();

  const Eigen::Ref<const Eigen::MatrixXd>& a_;
  const Eigen::Ref<const Eigen::VectorXd>& b_;
  const Eigen::Ref<const Eigen::VectorXd>& c_;
  SimplexWorkspace& ws_;
  const SimplexOptions& opt_;
  int m_;
  int n_;
  double feas_ = 0;
  double infeas_ = 0;
  double dual_tol_phase2_ = 0;
  bool phase_one_ = true;
  int since_refactor_ = 0;
  int degenerate_run_ = 0;
  bool numerical_trouble_ = false;
  bool reached_optimum_ = false;
  double pivot_tolerance_ = 0;  // the ratio test's (raised on the retry, see run())
  /// kLpStallPivots' count for the current phase (restarted by a new attempt or phase).
  detail::StallCounter stall_;
};

bool SimplexSolver::refactor() {
  // Gauss-Jordan with partial pivoting on the basis matrix B (columns of the basic variables).
  auto bm = ws_.scratch_.topLeftCorner(m_, m_);
  for (int r = 0; r < m_; ++r) write_column(ws_.basis_[static_cast<std::size_t>(r)], bm.col(r));
  auto inv = binv();
  inv.setIdentity();
  const double scale = std::max(1.0, bm.cwiseAbs().maxCoeff());
  for (int k = 0; k < m_; ++k) {
    int p = k;
    double best = std::abs(bm(k, k));
    for (int i = k + 1; i < m_; ++i) {
      if (std::abs(bm(i, k)) > best) {
        best = std::abs(bm(i, k));
        p = i;
      }
    }
    if (!(best > opt_.pivot_tolerance * scale)) return false;
    if (p != k) {
      bm.row(p).swap(bm.row(k));
      inv.row(p).swap(inv.row(k));
    }
    const double inv_pivot = 1.0 / bm(k, k);
    bm.row(k) *= inv_pivot;
    inv.row(k) *= inv_pivot;
    for (int i = 0; i < m_; ++i) {
      if (i == k) continue;
      const double f = bm(i, k);
      if (f == 0) continue;
      bm.row(i) -= f * bm.row(k);
      inv.row(i) -= f * inv.row(k);
    }
  }
  xb().noalias() = inv * b_;
  since_refactor_ = 0;
  return true;
}

void SimplexSolver::cold_start() {
  for (int i = 0; i < m_; ++i) {
    const int j = n_ + i;
    ws_.basis_[static_cast<std::size_t>(i)] = j;
    ws_.is_basic_[static_cast<std::size_t>(j)] = 1;
  }
  binv().setZero();
  for (int i = 0; i < m_; ++i) {
    binv()(i, i) = ws_.sign_[i];
    ws_.xb_[i] = std::abs(b_[i]);
  }
  since_refactor_ = 0;
}

void SimplexSolver::pivot(int row, int entering) {
  auto al = alpha();
  const double ar = al[row];
  const double theta = (is_artificial(ws_.basis_[static_cast<std::size_t>(row)]) && !phase_one_)
                           ? 0.0
                           : std::max(ws_.xb_[row], 0.0) / ar;
  xb() -= theta * al;
  ws_.xb_[row] = theta;
  auto inv = binv();
  inv.row(row) /= ar;
  for (int i = 0; i < m_; ++i) {
    if (i == row || al[i] == 0) continue;
    inv.row(i) -= al[i] * inv.row(row);
  }
  const int leaving = ws_.basis_[static_cast<std::size_t>(row)];
  ws_.is_basic_[static_cast<std::size_t>(leaving)] = 0;
  ws_.is_basic_[static_cast<std::size_t>(entering)] = 1;
  ws_.basis_[static_cast<std::size_t>(row)] = entering;
  ++since_refactor_;
}

int SimplexSolver::price(bool bland) {
  // Only structural columns enter: artificial columns that left stay out (they are fixed at 0,
  // which keeps phase one a valid test and phase two a valid optimisation).
  const double tol = phase_one_ ? opt_.optimality_tolerance : dual_tol_phase2_;
  int best_j = -1;
  double best_d = -tol;
  if (bland) {
    // Bland: the first eligible column. Price a block of columns with one matrix-vector product
    // (vectorised), scan it, and stop at the first block that holds a candidate.
    for (int j0 = 0; j0 < n_; j0 += kBlandPricingBlock) {
      const int len = std::min(kBlandPricingBlock, n_ - j0);
      auto d = ws_.reduced_.segment(j0, len);
      d.noalias() = ws_.at_.block(j0, 0, len, m_) * ws_.y_.head(m_);
      for (int j = j0; j < j0 + len; ++j) {
        if (ws_.is_basic_[static_cast<std::size_t>(j)]) continue;
        if (cost(j) - ws_.reduced_[j] < best_d) return j;
      }
    }
    return -1;
  }
  // Dantzig: every reduced cost is needed; one matrix-vector product prices them all.
  auto d = ws_.reduced_.head(n_);
  d.noalias() = ws_.at_.topLeftCorner(n_, m_) * ws_.y_.head(m_);
  for (int j = 0; j < n_; ++j) {
    if (ws_.is_basic_[static_cast<std::size_t>(j)]) continue;
    const double dj = cost(j) - d[j];
    if (dj < best_d) {
      best_j = j;
      best_d = dj;
    }
  }
  return best_j;
}

int SimplexSolver::ratio_test(bool& degenerate) {
  // Harris two-pass test. Pass 1: the largest step that keeps every basic variable above -feas.
  // Pass 2: among the rows whose exact ratio is within that step, the largest pivot.
  // If that step is degenerate (its variable is already at its bound), Bland's leaving rule picks
  // the lowest-index variable among the degenerate candidates instead: together with Bland
  // pricing this is Bland's rule on every degenerate pivot, hence no cycling; nondegenerate
  // pivots strictly decrease the objective.
  auto al = alpha();
  const double max_alpha = al.cwiseAbs().maxCoeff();
  const double piv = pivot_tolerance_ * std::max(1.0, max_alpha);
  double theta_max = std::numeric_limits<double>::infinity();
  for (int i = 0; i < m_; ++i) {
    const bool fixed = !phase_one_ && is_artificial(ws_.basis_[static_cast<std::size_t>(i)]);
    const double ai = fixed ? std::abs(al[i]) : al[i];
    if (ai > piv) {
      const double xi = fixed ? 0.0 : std::max(ws_.xb_[i], 0.0);
      theta_max = std::min(theta_max, (xi + feas_) / ai);
    }
  }
  if (!std::isfinite(theta_max)) return -1;
  int row = -1;
  double row_alpha = 0;
  for (int i = 0; i < m_; ++i) {
    const bool fixed = !phase_one_ && is_artificial(ws_.basis_[static_cast<std::size_t>(i)]);
    const double ai = fixed ? std::abs(al[i]) : al[i];
    if (ai > piv) {
      const double xi = fixed ? 0.0 : std::max(ws_.xb_[i], 0.0);
      if (xi / ai <= theta_max && ai > row_alpha) {
        row = i;
        row_alpha = ai;
      }
    }
  }
  const bool fixed_row = !phase_one_ && is_artificial(ws_.basis_[static_cast<std::size_t>(row)]);
  degenerate = fixed_row || ws_.xb_[row] <= feas_;
  if (!degenerate) return row;
  int bland_row = -1;
  int bland_index = 0;
  for (int i = 0; i < m_; ++i) {
    const bool fixed = !phase_one_ && is_artificial(ws_.basis_[static_cast<std::size_t>(i)]);
    const double ai = fixed ? std::abs(al[i]) : al[i];
    const double xi = fixed ? 0.0 : ws_.xb_[i];
    if (ai > piv && xi <= feas_ && xi / ai <= theta_max) {
      const int index = ws_.basis_[static_cast<std::size_t>(i)];
      if (bland_row < 0 || index < bland_index) {
        bland_row = i;
        bland_index = index;
      }
    }
  }
  return bland_row >= 0 ? bland_row : row;
}

void SimplexSolver::drive_out_artificials() {
  // After a feasible phase one, an artificial variable may stay basic at level ~0. Replace it by
  // any structural column with a usable entry in its row; if there is none, the row is redundant
  // (a linear combination of the others) and the artificial stays, fixed at 0.
  for (int r = 0; r < m_; ++r) {
    if (!is_artificial(ws_.basis_[static_cast<std::size_t>(r)])) continue;
    int best_j = -1;
    double best = opt_.pivot_tolerance;
    auto row_r = ws_.reduced_.head(n_);
    row_r.noalias() = ws_.at_.topLeftCorner(n_, m_) * binv().row(r).transpose();
    for (int j = 0; j < n_; ++j) {
      if (ws_.is_basic_[static_cast<std::size_t>(j)]) continue;
      const double v = std::abs(row_r[j]);
      if (v > best) {
        best = v;
        best_j = j;
      }
    }
    if (best_j < 0) continue;
    compute_alpha(best_j);
    pivot(r, best_j);
  }
}

bool SimplexSolver::iterate(SimplexResult& result, LpOutcome& phase_outcome) {
  bool bland = opt_.pricing == PricingRule::bland;
  // The stall count carries over between the calls of one phase (attempt() may call again after
  // a refactorisation re-decides feasibility): a cycle through those calls is still a cycle.
  if (!stall_.active()) (void)stall_.stalled(phase_objective());
  while (result.iterations < opt_.max_iterations) {
    if (phase_one_ && basic_artificial_sum() <= infeas_) {
      phase_outcome = LpOutcome::optimal;  // feasible: no need to reach the phase-one optimum
      return true;
    }
    if (since_refactor_ >= opt_.refactor_interval && !refactor()) {
      numerical_trouble_ = true;
      return true;
    }
    compute_duals();
    const int q = price(bland || degenerate_run_ >= opt_.degenerate_run_before_bland);
    if (q < 0) {
      reached_optimum_ = true;
      phase_outcome = LpOutcome::optimal;
      return true;
    }
    compute_alpha(q);
    bool degenerate = false;
    const int r = ratio_test(degenerate);
    if (r < 0) {
      phase_outcome = LpOutcome::unbounded;
      return true;
    }
    degenerate_run_ = degenerate ? degenerate_run_ + 1 : 0;
    pivot(r, q);
    ++result.iterations;
    if (phase_one_) ++result.phase_one_iterations;
    if (stall_.stalled(phase_objective())) {
      numerical_trouble_ = true;  // cycling through rounding (kLpStallPivots)
      return true;
    }
  }
  return false;
}

void SimplexSolver::extract_primal() {
  auto x = ws_.x_.head(n_);
  x.setZero();
  for (int r = 0; r < m_; ++r) {
    const int j = ws_.basis_[static_cast<std::size_t>(r)];
    if (j < n_) x[j] = ws_.xb_[r];
  }
}

SimplexResult SimplexSolver::run() {
  SimplexResult first = attempt(true);
  if (!(first.status == Status::degenerate_input && first.detail == Detail::no_progress)) return first;
  phase_one_ = true;
  since_refactor_ = 0;
  degenerate_run_ = 0;
  numerical_trouble_ = false;
  reached_optimum_ = false;
  pivot_tolerance_ = kRetryPivotToleranceFactor * opt_.pivot_tolerance;
  SimplexResult retry = attempt(false);
  retry.iterations += first.iterations;
  retry.phase_one_iterations += first.phase_one_iterations;
  return retry;
}

SimplexResult SimplexSolver::attempt(bool allow_warm) {
  stall_.restart();
  SimplexResult result;
  ws_.reserve(m_, n_);
  ws_.rows_ = m_;
  ws_.cols_ = n_;
  std::fill(ws_.is_basic_.begin(), ws_.is_basic_.begin() + (n_ + m_ + 1), 0);
  for (int i = 0; i < m_; ++i) ws_.sign_[i] = b_[i] < 0 ? -1.0 : 1.0;

  bool warm = allow_warm && opt_.warm_start && ws_.has_basis(m_, n_);
  // A basis that kept the repair column cannot be reused: the column is rebuilt per solve.
  for (int r = 0; warm && r < m_; ++r) warm = ws_.basis_[static_cast<std::size_t>(r)] != extra_index();
  if (warm) {
    for (int r = 0; r < m_; ++r) ws_.is_basic_[static_cast<std::size_t>(ws_.basis_[static_cast<std::size_t>(r)])] = 1;
    if (!refactor()) {
      std::fill(ws_.is_basic_.begin(), ws_.is_basic_.begin() + (n_ + m_ + 1), 0);
      warm = false;
    }
  }
  if (!warm) cold_start();
  result.warm_started = warm;

  // Warm start on an infeasible basis: one repair column -B 1 enters at the most negative row;
  // every basic value rises by the same step and the basis becomes feasible for the augmented
  // problem, whose phase one then minimises the repair variable (Chvatal, ch. 8).
  phase_one_ = true;
  if (m_ > 0 && xb().minCoeff() < -feas_) {
    ws_.extra_.head(m_).setZero();
    for (int r = 0; r < m_; ++r) {
      const int j = ws_.basis_[static_cast<std::size_t>(r)];
      if (j < n_) {
        ws_.extra_.head(m_) -= a_.col(j);
      } else {
        ws_.extra_[j - n_] -= ws_.sign_[j - n_];
      }
    }
    int row = 0;
    xb().minCoeff(&row);
    compute_alpha(extra_index());
    // pivot() steps by max(x_r, 0) / alpha_r, which is 0 here; the repair step is explicit.
    const double step = -ws_.xb_[row];
    xb().array() += step;
    ws_.xb_[row] = 0;
    const double keep = step;
    pivot(row, extra_index());
    ws_.xb_[row] = keep;
    ++result.iterations;
    ++result.phase_one_iterations;
  }

  // Phase one. The loop may stop early once the artificial sum is below tolerance; the decision is
  // re-taken on a fresh inverse, and the loop resumes if rounding had hidden a positive residual.
  LpOutcome phase = LpOutcome::not_solved;
  bool feasible = false;
  for (int round = 0; round < opt_.max_iterations && !feasible; ++round) {
    reached_optimum_ = false;
    if (!iterate(result, phase)) {
      result.status = Status::iteration_limit;
      ws_.forget_basis();
      return result;
    }
    if (numerical_trouble_ || !refactor() || phase == LpOutcome::unbounded) {
      result.status = Status::degenerate_input;
      result.detail = Detail::no_progress;
      ws_.forget_basis();
      return result;
    }
    if (basic_artificial_sum() <= infeas_) {
      feasible = true;
    } else if (reached_optimum_) {
      compute_duals();
      result.outcome = LpOutcome::infeasible;
      result.objective = ws_.y_.head(m_).dot(b_);
      ws_.basis_rows_ = m_;
      ws_.basis_cols_ = n_;
      return result;
    }
  }
  if (!feasible) {
    result.status = Status::iteration_limit;
    ws_.forget_basis();
    return result;
  }

  phase_one_ = false;
  if (c_.size() > 0) drive_out_artificials();  // a feasibility problem keeps them at level 0
  degenerate_run_ = 0;
  stall_.restart();
  if (c_.size() > 0) {
    phase = LpOutcome::not_solved;
    if (!iterate(result, phase)) {
      result.status = Status::iteration_limit;
      extract_primal();
      ws_.forget_basis();
      return result;
    }
    if (numerical_trouble_ || !refactor()) {
      result.status = Status::degenerate_input;
      result.detail = Detail::no_progress;
      ws_.forget_basis();
      return result;
    }
    result.outcome = phase;
  } else {
    result.outcome = LpOutcome::optimal;
  }
  compute_duals();
  extract_primal();
  result.objective = c_.size() > 0 ? c_.dot(ws_.x_.head(n_)) : 0.0;
  ws_.basis_rows_ = m_;
  ws_.basis_cols_ = n_;
  return result;
}

SimplexResult solve(const Eigen::Ref<const Eigen::MatrixXd>& a, const Eigen::Ref<const Eigen::VectorXd>& b,
                    const Eigen::Ref<const Eigen::VectorXd>& c, SimplexWorkspace& workspace,
                    const SimplexOptions& options) {
  if (b.size() != a.rows()) {
    throw InvalidInput("b", "size " + std::to_string(b.size()) + " differs from the rows of A (" +
                                std::to_string(a.rows()) + ")");
  }
  if (c.size() != 0 && c.size() != a.cols()) {
    throw InvalidInput("c", "size " + std::to_string(c.size()) + " differs from the columns of A (" +
                                std::to_string(a.cols()) + ")");
  }
  if (!all_finite(a)) throw InvalidInput("A", "holds a NaN or infinite entry");
  if (!b.allFinite()) throw InvalidInput("b", "holds a NaN or infinite entry");
  if (!c.allFinite()) throw InvalidInput("c", "holds a NaN or infinite entry");
  options.validate();
  // Equilibrate by powers of two (exact): each row, then each column, gets largest entry in
  // [1, 2). The solver's tolerances then mean the same on any data scale. x = S x~, y = R y~.
  const int m = static_cast<int>(a.rows());
  const int n = static_cast<int>(a.cols());
  workspace.reserve(m, n);
  auto& ws = workspace;
  if (ws.scaled_a_.rows() < m || ws.scaled_a_.cols() < n) {
    ws.scaled_a_.resize(std::max<Eigen::Index>(m, ws.scaled_a_.rows()), std::max<Eigen::Index>(n, ws.scaled_a_.cols()));
  }
  if (ws.col_scale_.size() < n) {
    ws.col_scale_.resize(n);
    ws.scaled_c_.resize(n);
  }
  if (ws.row_scale_.size() < m) {
    ws.row_scale_.resize(m);
    ws.scaled_b_.resize(m);
  }
  const auto power_of_two_inverse = [](double largest) { return largest > 0 ? std::ldexp(1.0, -std::ilogb(largest)) : 1.0; };
  auto sa = ws.scaled_a_.topLeftCorner(m, n);
  auto rs = ws.row_scale_.head(m);
  auto cs = ws.col_scale_.head(n);
  if (!options.equilibrate) {
    // The caller's data is already of unit scale: solve it as given.
    SimplexSolver solver(a, b, c, workspace, options);
    return solver.run();
  }
  if (n > 0 && m > 0) {
    rs = a.cwiseAbs().rowwise().maxCoeff().unaryExpr(power_of_two_inverse);
    sa = rs.asDiagonal() * a;
    cs = sa.cwiseAbs().colwise().maxCoeff().transpose().unaryExpr(power_of_two_inverse);
    sa = sa * cs.asDiagonal();
  } else {
    rs.setOnes();
    cs.setOnes();
  }
  auto sb = ws.scaled_b_.head(m);
  sb = rs.cwiseProduct(b);
  auto sc = ws.scaled_c_.head(c.size());
  if (c.size() > 0) sc = cs.cwiseProduct(c);
  const Eigen::Ref<const Eigen::MatrixXd> sa_ref(sa);
  const Eigen::Ref<const Eigen::VectorXd> sb_ref(sb);
  const Eigen::Ref<const Eigen::VectorXd> sc_ref(sc);
  SimplexSolver solver(sa_ref, sb_ref, sc_ref, workspace, options);
  const SimplexResult result = solver.run();
  ws.x_.head(n).array() *= cs.array();
  ws.y_.head(m).array() *= rs.array();
  return result;
}

}  // namespace proxima::lp
