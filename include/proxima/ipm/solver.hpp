// SPDX-License-Identifier: MIT
// The primal-dual interior-point solver behind every ipm query (seed 001, sections V-VII):
//
//   minimise  f0(z) = |J z + e|^2 + g . z      over z in R^N (N = 4 ... 8)
//   subject to c_k(z) = f_k(W_k z + b_k) + l_k . z + h_k <= 0,   k = 1 ... m
//
// where f_k is an implicit primitive (or absent, for purely linear constraints). Distance is
// N = 6 (the two points), the translating-objects query N = 7 (points and time), time of first
// contact N = 4 (common point and time), and the object set-up uses N = 4 (phase one) and N = 3
// (the box), or N = 12 for both on the epigraph reformulation of low exponents (object.cpp).
//
// Method. Slacks s = -c(z) and multipliers lambda > 0 satisfy the perturbed KKT system
//   grad f0 + sum lambda_k grad c_k = 0,   s_k lambda_k = mu.
// Every iterate is strictly feasible (c(z) < 0: the points stay inside the objects, as in the
// paper's KNITRO set-up), so the slacks are the constraint values themselves. Eliminating
// the slack and multiplier steps leaves the N x N Schur complement (seed 001, eq. 16)
//   G = H0 + sum lambda_k Hess c_k + sum (lambda_k / s_k) grad c_k grad c_k^T,
// built and factorised (Cholesky) in O(m) per iteration: the Newton step costs O(m), with
// fixed-size matrices and no allocation beyond the workspace's m-sized buffers.
//
// Centering is Mehrotra's predictor-corrector (sigma = (mu_aff / mu)^3 and the second-order
// correction), steps are cut by fraction-to-boundary on slacks and multipliers, and the primal
// step is accepted by Armijo backtracking on the barrier merit f0 - sigma mu sum log s. When the
// corrector is not a descent direction of that merit, the pure centred Newton step is used,
// which always is (its slope is -dz^T G dz < 0), so the line search cannot stall on a bad model.
//
// Exponents in [1, 2). The Hessian of |w|^n is unbounded at w = 0. The solver uses exact values
// and gradients everywhere, so the KKT point it converges to is the true one; only the matrix G
// uses the curvature of |w|^n frozen at |w| = kIpmPowerCurvatureFloor. G stays symmetric positive
// definite, the step stays a descent direction of the merit, and the Armijo search then gives
// global convergence for each barrier value (the standard argument needs only a uniformly
// bounded, uniformly positive definite G, not the exact Hessian). What it does not give is a
// fast final rate: for exponents near 1 the optimal point of a sharp tip has |w| ~ 1e-7 or less
// and the Newton model is poor there. Worse, the slope n |w|^(n-1) at the rounding level of w
// (~1e-16) is still ~1e-2 for n = 15/13, so at a sharp tip the KKT stationarity cannot be
// certified in floating point at all. About 1% of the diamond's queries (4/3, 7/5, 15/13) end
// so. The distance query (distance.hpp) then certifies the answer by a separating plane
// (support_lower_bound: the conjugate of each power term, free of that cancellation), and
// otherwise re-solves with each power term on an epigraph variable r >= |w| (Constraint::powers)
// so no Newton model crosses w = 0. The sweep test certifies every query of every preset pair.
#pragma once

#include <proxima/core/status.hpp>
#include <proxima/core/tolerance.hpp>
#include <proxima/ipm/primitives.hpp>

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <span>
#include <vector>

namespace proxima::ipm {

/// Direct-solve iteration cap of a distance query before its fallbacks (IpmOptions): at 60 the
/// diamond's uncertified iterates were still improving (separating-plane gaps 1e-9 .. 1e-2);
/// after 200 they reach ~1e-14, so the fallbacks start from the final iterate. A third of
/// kIpmMaxIterations, the query's total budget, so the epigraph fallback keeps the rest.
inline constexpr int kIpmFastPathIterations = 200;

/// Backtracking after a trial point refused by a curved constraint (solve()'s line search). The
/// linearised fraction-to-boundary rule cannot see a convex constraint's curvature, so a full
/// step toward a curved boundary often lands outside; halving it then left the next iterate
/// half-way and forced heavy centring (steps alternated 1, 1/2, 1, 1/2 over the middle phase).
/// The first backtrack of an iteration instead places the trial where a quadratic model of the
/// refused slack (fitted to the refused point) keeps 1 - kIpmCurvedBacktrackShare of it, within
/// [kIpmCurvedBacktrackMin, kIpmCurvedBacktrackMax] of the refused step; later backtracks halve.
/// Measured (2000 cold queries of each of the bench's eight preset pairs; share 0.9, 0.95, 0.98,
/// 0.995 and upper clamps 0.9 / 0.99 tried): at 0.98 / 0.99 cuboid-mouse 19,661 -> 16,630
/// iterations and can-mouse 19,725 -> 16,735. The lower clamp is 0.5, never below halving: at
/// 0.1 a near-touching rounded_cuboid / soda_can query (distance 3.5e-6, clang -O1) took 89
/// iterations and ended with a certificate too weak to exclude contact. Applying the model to
/// every backtrack gained ~2% more but left two mouse/mouse queries of IpmSweep (20,000 per pair)
/// at no_progress: a model that keeps refusing shrinks the step by 0.99 per try. Distance
/// queries turn it off for objects with exponents below 2 (their curvature is floored near 0, so
/// the model is wrong there; on the diamond it sent epigraph fallbacks to the 600-iteration cap).
inline constexpr double kIpmCurvedBacktrackShare = 0.98;
inline constexpr double kIpmCurvedBacktrackMin = 0.5;
inline constexpr double kIpmCurvedBacktrackMax = 0.99;
static_assert(kIpmFastPathIterations < kIpmMaxIterations, "the fallbacks need a share of the budget");

/// Tunables of the interior-point solver; defaults from core/tolerance.hpp (ipm section).
struct IpmOptions {
  /// Newton iterations of one query in all: a distance query's direct solve and its epigraph
  /// fallback share it, and the reported iterations never exceed it.
  int max_iterations = kIpmMaxIterations;
  double gap_relative_tolerance = kIpmGapRelativeTolerance;
  double gap_absolute_tolerance = kIpmGapAbsoluteTolerance;
  double stationarity_relative_tolerance = kIpmStationarityRelativeTolerance;
  double stationarity_absolute_tolerance = kIpmStationarityAbsoluteTolerance;
  double fraction_to_boundary = kIpmFractionToBoundary;
  double armijo = kIpmArmijo;
  double merit_noise = kIpmMeritNoise;
  double gap_rounding_floor = kIpmGapRoundingFloor;
  int max_backtracks = kIpmMaxBacktracks;
  double initial_barrier = kIpmInitialBarrier;
  double regularization = kIpmRegularization;
  double dual_safeguard = kIpmDualSafeguard;
  double curvature_floor = kIpmPowerCurvatureFloor;
  double warm_start_pullback = kIpmWarmStartPullback;
  double warm_start_barrier_fraction = kIpmWarmStartBarrierFraction;
  /// Warm-started distance queries first try Newton's method on the KKT equations of the
  /// previous active set (DistanceSolver::distance_warm); false = interior-point warm start only.
  bool polish = true;
  double overlap_check_ratio = kIpmOverlapCheckRatio;
  /// Mehrotra predictor-corrector (true) or a fixed centring sigma = fixed_centering (slower,
  /// conservative path-following).
  bool predictor_corrector = true;
  double fixed_centering = kIpmFixedCentering;
  double unbounded_ratio = kIpmUnboundedRatio;
  /// Distance queries: iteration cap of the direct solve before the fallbacks (separating-plane
  /// certificate, then the epigraph reformulation; see DistanceSolver); 0 = always reformulate
  /// pairs with power terms, negative = no fallbacks (direct solve only).
  int fast_path_iterations = kIpmFastPathIterations;
  /// After a trial point refused by a curved constraint, place the next trial by a quadratic
  /// model of that slack (kIpmCurvedBacktrackShare) instead of halving the step. Off in the
  /// epigraph reformulation, whose power terms r^p with p < 2 have no bounded curvature at 0.
  bool curvature_backtracking = true;
  /// Iterations at which solve() asks its `checkpoint` callback whether the iterate is already
  /// an answer (the distance query's separating-plane certificate): from checkpoint_from on,
  /// every checkpoint_every iterations; 0 = never.
  int checkpoint_from = 0;
  int checkpoint_every = 0;
};

/// One inequality c(z) = f(W z + b) + l . z + h + sum_{i in powers} z_i^(p_i) <= 0: f is the
/// primitive without the power terms in `skip` (f absent when primitive == nullptr); the last
/// sum carries those terms on epigraph variables z_i = r_i >= |w_i| (bit i of `powers`, exponent
/// exponents[i]; see distance.cpp, power-term reformulation).
template <int N>
struct Constraint {
  const Primitive* primitive = nullptr;
  Eigen::Matrix<double, 3, N> map = Eigen::Matrix<double, 3, N>::Zero();
  Vec3 offset = Vec3::Zero();
  Eigen::Matrix<double, N, 1> linear = Eigen::Matrix<double, N, 1>::Zero();
  double constant = 0;
  unsigned skip = 0;
  unsigned powers = 0;
  const double* exponents = nullptr;

  /// c is affine in z: no primitive, or a halfspace, and no power terms.
  bool is_affine() const {
    return powers == 0 && (primitive == nullptr || std::holds_alternative<Halfspace>(primitive->variant()));
  }
};

/// c(z) of one constraint (NaN when a power variable is not positive). O(1).
template <int N>
double constraint_value(const Constraint<N>& c, const Eigen::Matrix<double, N, 1>& z) {
  double value = c.linear.dot(z) + c.constant;
  if (c.primitive != nullptr) value += c.primitive->value(c.map * z + c.offset, c.skip);
  for (int i = 0; c.powers >> i != 0; ++i) {
    if ((c.powers >> i & 1U) == 0) continue;
    if (!(z(i) > 0)) return kNaN;
    value += std::pow(z(i), c.exponents[i]);
  }
  return value;
}

namespace detail {

/// constraint_value(c, z) < 0, skipping the powers when the primitive's slab test already
/// puts z outside (Primitive::surely_not_negative: with a non-negative linear part and
/// non-negative power terms the value is then >= 0). The stop check of every distance query
/// and the cold start ask this of points far outside the other object, where the slab test
/// decides most calls.
template <int N>
bool strictly_inside(const Constraint<N>& c, const Eigen::Matrix<double, N, 1>& z) {
  if (c.primitive != nullptr && c.linear.dot(z) + c.constant >= 0 &&
      c.primitive->surely_not_negative(c.map * z + c.offset, c.skip)) {
    return false;
  }
  return constraint_value(c, z) < 0;
}
}  // namespace detail

/// The objective |J z + e|^2 + g . z and the constraints (referenced, not owned).
template <int N>
struct Problem {
  Eigen::Matrix<double, 3, N> j = Eigen::Matrix<double, 3, N>::Zero();
  Vec3 e = Vec3::Zero();
  Eigen::Matrix<double, N, 1> g = Eigen::Matrix<double, N, 1>::Zero();
  std::span<const Constraint<N>> constraints;
};

/// Why the solver stopped.
enum class Termination {
  converged,           ///< gap and stationarity below tolerance
  stopped,             ///< the caller's check accepted the iterate (e.g. a common point)
  checkpoint,          ///< the caller's checkpoint certified the iterate (IpmOptions::checkpoint_every)
  iteration_limit,     ///< options.max_iterations reached
  no_progress,         ///< the line search found no acceptable step
  unbounded,           ///< |z| exceeded options.unbounded_ratio (normalised units)
  infeasible_start,    ///< the start point is not strictly inside every constraint
  non_finite,          ///< a NaN appeared in the Newton system
};

/// The solver's per-constraint buffers, sized to m once and reused across solves.
template <int N>
struct Workspace {
  using VecN = Eigen::Matrix<double, N, 1>;
  using MatN = Eigen::Matrix<double, N, N>;
  std::vector<double> s, lambda, s_trial, dlambda, ds_aff, dlambda_aff, w, adz;
  /// lambda_k / s_k of the current iterate and w_k / s_k of the current direction: each quotient
  /// is formed once and read where the formulas need it (same bits as forming it there).
  std::vector<double> ratio, w_over_s;
  std::vector<VecN> grad, grad_trial;
  std::vector<MatN> hess, hess_trial;
  std::vector<unsigned char> curved, curved_trial;
  /// Per constraint: the first column b of a 3-column block outside which its map and linear
  /// part are zero (detail::constraint_block), or -1. Its gradient and Hessian then live in
  /// that block, and the solver works on 3 x 3 blocks instead of N x N matrices.
  std::vector<int> block;
  /// Evaluation order: the curved constraints, then the affine ones (see prepare()); empty =
  /// the natural order.
  std::vector<std::size_t> order;
  /// Per constraint: its halfspace when it is one with a block (else nullptr), and then its
  /// gradient in z, which is constant (computed once per solve by the same expression the
  /// general path would evaluate, so the values and gradients are the same bits).
  std::vector<const Halfspace*> halfspace;
  std::vector<VecN> affine_grad;

  void resize(std::size_t m) {
    block.resize(m);
    for (auto* v : {&s, &lambda, &s_trial, &dlambda, &ds_aff, &dlambda_aff, &w, &adz, &ratio, &w_over_s}) {
      v->resize(m);
    }
    grad.resize(m);
    grad_trial.resize(m);
    hess.resize(m);
    hess_trial.resize(m);
    curved.resize(m);
    curved_trial.resize(m);
    halfspace.resize(m);
    affine_grad.resize(m);
  }

  /// Sizes the buffers to the constraints and fills block, order, halfspace and affine_grad.
  /// With many constraints the curved ones are evaluated first: a trial point outside the set is
  /// nearly always outside a curved one (the fraction-to-boundary rule is exact for affine ones),
  /// so a polytope's hundreds of halfspaces are not evaluated for a point that is then refused.
  /// Up to 8 constraints (every preset pair) the natural order is kept: the permutation's own
  /// cost was measurable there (1-2% of a query) and there is little to skip.
  void prepare(std::span<const Constraint<N>> constraints);
};

/// What the solver returns; the multipliers stay in the workspace (ws.lambda, ws.s).
template <int N>
struct SolverOutput {
  Eigen::Matrix<double, N, 1> z;
  double objective = kNaN;
  double gap = kNaN;           ///< s^T lambda at z (bounds objective - optimum when stationary)
  double stationarity = kNaN;  ///< |grad f0 + sum lambda_k grad c_k|_inf at z
  int iterations = 0;
  Termination termination = Termination::iteration_limit;
};

namespace detail {

/// Cholesky factorisation G = L L^T of a small symmetric matrix of compile-time size, written
/// out so the compiler unrolls it: the Newton system is solved two or three times per iteration
/// and Eigen's generic LLT spent a quarter of a distance query in its triangular solves. `ok` is
/// false when a pivot is not positive (or NaN), as Eigen's LLT reports NumericalIssue.
template <int N>
struct SmallCholesky {
  Eigen::Matrix<double, N, N> l;    // lower triangle used
  Eigen::Matrix<double, N, 1> inv;  // 1 / l(i, i)
  bool ok = true;

  explicit SmallCholesky(const Eigen::Matrix<double, N, N>& a) {
    #pragma GCC unroll 8
    for (int j = 0; j < N; ++j) {
      double d = a(j, j);
      #pragma GCC unroll 8
      for (int k = 0; k < j; ++k) d -= l(j, k) * l(j, k);
      if (!(d > 0)) {
        ok = false;
        return;
      }
      l(j, j) = std::sqrt(d);
      inv(j) = 1 / l(j, j);
      #pragma GCC unroll 8
      for (int i = j + 1; i < N; ++i) {
        double v = a(i, j);
        #pragma GCC unroll 8
        for (int k = 0; k < j; ++k) v -= l(i, k) * l(j, k);
        l(i, j) = v * inv(j);
      }
    }
  }

  /// x with L L^T x = b.
  Eigen::Matrix<double, N, 1> solve(const Eigen::Matrix<double, N, 1>& b) const {
    Eigen::Matrix<double, N, 1> y;
    #pragma GCC unroll 8
    for (int i = 0; i < N; ++i) {
      double v = b(i);
      #pragma GCC unroll 8
      for (int k = 0; k < i; ++k) v -= l(i, k) * y(k);
      y(i) = v * inv(i);
    }
    #pragma GCC unroll 8
    for (int i = N - 1; i >= 0; --i) {
      double v = y(i);
      #pragma GCC unroll 8
      for (int k = i + 1; k < N; ++k) v -= l(k, i) * y(k);
      y(i) = v * inv(i);
    }
    return y;
  }
};

/// The block of constraint c (see Workspace::block): the first column b such that every column
/// of c.map and every entry of c.linear outside [b, b + 3) is exactly zero, with a primitive and
/// no power terms; -1 otherwise. In a distance problem each part constrains one of the two
/// points only, so its 6 x 6 Hessian has one non-zero 3 x 3 block.
template <int N>
int constraint_block(const Constraint<N>& c) {
  if (N < 3 || c.primitive == nullptr || c.powers != 0) return -1;
  for (int b = 0; b + 3 <= N; ++b) {
    bool outside_zero = true;
    for (int j = 0; j < N && outside_zero; ++j) {
      if (j >= b && j < b + 3) continue;
      outside_zero = c.linear(j) == 0 && c.map.col(j).isZero(0);
    }
    if (outside_zero) return b;
  }
  return -1;
}

/// out = M^T diag(d) M, as Eigen forms M^T (H M) for a diagonal H (the products H M are
/// d_i M_ij exactly, the sums run i = 0, 1, 2 in order: the same bits, checked on 1e5 random
/// cases when written), with 36 multiplications instead of 54.
template <class Block>
void congruence_of_diagonal(const Mat3& m, const Vec3& d, Block&& out) {
  Mat3 p;
  for (int j = 0; j < 3; ++j) {
    for (int i = 0; i < 3; ++i) p(i, j) = d(i) * m(i, j);
  }
  for (int col = 0; col < 3; ++col) {
    for (int row = 0; row < 3; ++row) {
      out(row, col) = (m(0, row) * p(0, col) + m(1, row) * p(1, col)) + m(2, row) * p(2, col);
    }
  }
}

/// Evaluates every constraint at z; false as soon as one is not strictly negative (or NaN).
/// `layout` (optional, a Workspace after prepare()) gives each constraint's block, where the
/// evaluation works on the 3 x 3 block (the values are those of the full products: the skipped
/// terms are exact zeros) and only that block of hess[k] is written; halfspaces with a block
/// take their constant gradient from it; and the order of evaluation (the values stored are
/// the same in any order, only a refused point is refused sooner or later). With
/// `require_inside` false every constraint is evaluated wherever z is (slacks of any sign) and
/// the result says only whether the values are finite.
template <int N>
bool evaluate(const Problem<N>& p, const Eigen::Matrix<double, N, 1>& z, double floor, std::vector<double>& s,
              std::vector<Eigen::Matrix<double, N, 1>>& grad, std::vector<Eigen::Matrix<double, N, N>>& hess,
              std::vector<unsigned char>& curved, const Workspace<N>* layout = nullptr, bool require_inside = true,
              std::size_t* refused = nullptr) {
  LocalEval local;
  const std::size_t m = p.constraints.size();
  const bool ordered = layout != nullptr && !layout->order.empty();
  for (std::size_t position = 0; position < m; ++position) {
    const std::size_t k = ordered ? layout->order[position] : position;
    const Constraint<N>& c = p.constraints[k];
    double value = c.linear.dot(z) + c.constant;
    curved[k] = 0;
    const int b = layout != nullptr ? layout->block[k] : -1;
    if (b >= 0) {
      const Mat3 m3 = c.map.template middleCols<3>(b);
      const Vec3 u = m3 * z.template segment<3>(b) + c.offset;
      if (const Halfspace* h = layout->halfspace[k]) {
        value += h->value(u);  // what Halfspace::evaluate gives; gradient constant, Hessian 0
        grad[k] = layout->affine_grad[k];
      } else {
        c.primitive->evaluate(u, floor, local, c.skip);
        value += local.value;
        grad[k] = c.linear;
        grad[k].template segment<3>(b).noalias() += m3.transpose() * local.gradient;
        if (local.diagonal) {
          if (!local.hessian.diagonal().isZero(0)) {
            congruence_of_diagonal(m3, local.hessian.diagonal(), hess[k].template block<3, 3>(b, b));
            curved[k] = 1;
          }
        } else if (!local.hessian.isZero(0)) {
          hess[k].template block<3, 3>(b, b).noalias() = m3.transpose() * (local.hessian * m3);
          curved[k] = 1;
        }
      }
    } else {
      grad[k] = c.linear;
      if (c.primitive != nullptr) {
        c.primitive->evaluate(c.map * z + c.offset, floor, local, c.skip);
        value += local.value;
        grad[k].noalias() += c.map.transpose() * local.gradient;
        if (!local.hessian.isZero(0)) {
          hess[k].noalias() = c.map.transpose() * (local.hessian * c.map);
          curved[k] = 1;
        }
      }
    }
    // Power terms r^p on epigraph variables r > 0: exact derivatives. The curvature
    // p (p - 1) r^(p-2) is unbounded as r -> 0 for p < 2, but r only approaches 0 from above
    // (r >= |w| > 0 inside) where the barrier's own curvature dominates; no zero crossing.
    for (int i = 0; c.powers >> i != 0; ++i) {
      if ((c.powers >> i & 1U) == 0) continue;
      const double r = z(i);
      if (!(r > 0)) {
        if (refused != nullptr) *refused = k;
        return false;
      }
      const double pw = c.exponents[i];
      const double power = std::pow(r, pw);
      value += power;
      grad[k](i) += pw * power / r;
      if (!curved[k]) hess[k].setZero();
      hess[k](i, i) += pw * (pw - 1) * power / (r * r);
      curved[k] = 1;
    }
    s[k] = -value;
    if (require_inside ? !(s[k] > 0) : !std::isfinite(s[k])) {
      if (refused != nullptr) *refused = k;
      return false;
    }
  }
  return true;
}

/// Largest alpha in (0, 1] keeping v + alpha dv >= (1 - tau) v componentwise.
inline double fraction_to_boundary(const std::vector<double>& v, const std::vector<double>& dv, double tau) {
  double alpha = 1;
  for (std::size_t k = 0; k < v.size(); ++k) {
    if (dv[k] < 0) alpha = std::min(alpha, -tau * v[k] / dv[k]);
  }
  return alpha;
}

}  // namespace detail

template <int N>
void Workspace<N>::prepare(std::span<const Constraint<N>> constraints) {
  const std::size_t m = constraints.size();
  resize(m);
  order.clear();
  for (std::size_t k = 0; k < m; ++k) {
    const Constraint<N>& c = constraints[k];
    block[k] = detail::constraint_block(c);
    halfspace[k] = block[k] >= 0 ? std::get_if<Halfspace>(&c.primitive->variant()) : nullptr;
    if (halfspace[k] != nullptr) {
      const Mat3 m3 = c.map.template middleCols<3>(block[k]);
      affine_grad[k] = c.linear;
      affine_grad[k].template segment<3>(block[k]).noalias() += m3.transpose() * halfspace[k]->normal();
    }
  }
  for (int pass = 0; pass < 2 && m > 8; ++pass) {
    for (std::size_t k = 0; k < m; ++k) {
      const Constraint<N>& c = constraints[k];
      if (c.is_affine() == (pass == 1)) order.push_back(k);
    }
  }
}

/// Strictly feasible: every constraint is < 0 at z. O(m) value evaluations.
template <int N>
bool strictly_feasible(const Problem<N>& p, const Eigen::Matrix<double, N, 1>& z) {
  for (const auto& c : p.constraints) {
    if (!(constraint_value(c, z) < 0)) return false;
  }
  return true;
}

/// Runs the interior-point method from the strictly feasible z0. `lambda0` (size m, or empty)
/// and `mu0` give the starting multipliers: lambda_k = max(lambda0_k, mu0 / s_k). `stop(z)` is
/// asked, while the objective is within options.overlap_check_ratio of the gap, whether z is
/// already an answer (the distance query tests for a common point); pass a lambda returning
/// false otherwise. `checkpoint(z)` is asked at the iterations IpmOptions::checkpoint_from and
/// checkpoint_every name (with ws.lambda the iterate's multipliers); true ends the solve with
/// Termination::checkpoint. Cost: O(m) per iteration, typically 10-30 iterations.
template <int N, class StopCheck, class Checkpoint>
SolverOutput<N> solve(const Problem<N>& p, const Eigen::Matrix<double, N, 1>& z0, std::span<const double> lambda0,
                      double mu0, const IpmOptions& o, Workspace<N>& ws, StopCheck&& stop, Checkpoint&& checkpoint) {
  using VecN = Eigen::Matrix<double, N, 1>;
  using MatN = Eigen::Matrix<double, N, N>;
  const std::size_t m = p.constraints.size();
  ws.prepare(p.constraints);
  SolverOutput<N> out;
  out.z = z0;
  VecN z = z0;
  if (!detail::evaluate(p, z, o.curvature_floor, ws.s, ws.grad, ws.hess, ws.curved, &ws)) {
    out.termination = Termination::infeasible_start;
    return out;
  }
  for (std::size_t k = 0; k < m; ++k) {
    const double floor_value = mu0 / ws.s[k];
    ws.lambda[k] = lambda0.size() == m ? std::max(lambda0[k], floor_value) : floor_value;
  }
  const MatN h0 = 2 * p.j.transpose() * p.j;
  const double count = static_cast<double>(std::max<std::size_t>(m, 1));

  auto objective = [&](const VecN& x) { return (p.j * x + p.e).squaredNorm() + p.g.dot(x); };
  auto objective_gradient = [&](const VecN& x) -> VecN { return 2 * p.j.transpose() * (p.j * x + p.e) + p.g; };
  auto log_sum = [](const std::vector<double>& s) {
    double sum = 0;
    for (double v : s) sum += std::log(v);
    return sum;
  };
  // sum log s of the current iterate: computed for the trial that became it, not again.
  double current_log_sum = log_sum(ws.s);

  double last_alpha = 1;
  for (int it = 0; it <= o.max_iterations; ++it) {
    out.iterations = it;
    out.z = z;
    const VecN grad0 = objective_gradient(z);
    VecN residual = grad0;
    double gap = 0;
    double lambda_sum = 0;
    for (std::size_t k = 0; k < m; ++k) {
      residual += ws.lambda[k] * ws.grad[k];
      gap += ws.s[k] * ws.lambda[k];
      lambda_sum += ws.lambda[k];
    }
    const double f0 = objective(z);
    out.objective = f0;
    out.gap = gap;
    out.stationarity = residual.cwiseAbs().maxCoeff();
    // The caller's check first: overlapping objects can also meet the convergence test (objective
    // and gap both at rounding level), and the answer is then the common point, not a distance.
    if (f0 <= o.overlap_check_ratio * gap && stop(z)) {
      out.termination = Termination::stopped;
      return out;
    }
    if (gap <= o.gap_relative_tolerance * std::abs(f0) + o.gap_absolute_tolerance + o.gap_rounding_floor * lambda_sum &&
        out.stationarity <= o.stationarity_relative_tolerance * grad0.cwiseAbs().maxCoeff() +
                                o.stationarity_absolute_tolerance) {
      out.termination = Termination::converged;
      return out;
    }
    if (o.checkpoint_every > 0 && it >= o.checkpoint_from && (it - o.checkpoint_from) % o.checkpoint_every == 0 &&
        checkpoint(z)) {
      out.termination = Termination::checkpoint;
      return out;
    }
    if (it == o.max_iterations) break;
    if (!(z.cwiseAbs().maxCoeff() <= o.unbounded_ratio)) {
      out.termination = Termination::unbounded;
      return out;
    }

    // Schur complement G (seed 001, eq. 16), O(m).
    // One expression (evaluated packet by packet) rather than a copy of h0 and a diagonal update:
    // the copy of 36 doubles became a `rep movs`, ~1% of a query.
    MatN g = h0 + o.regularization * MatN::Identity();
    for (std::size_t k = 0; k < m; ++k) {
      const int b = ws.block[k];
      ws.ratio[k] = ws.lambda[k] / ws.s[k];
      if (b >= 0) {  // the same sums without the exact zeros outside the block
        const Vec3 gb = ws.grad[k].template segment<3>(b);
        auto gbb = g.template block<3, 3>(b, b);
        if (ws.curved[k]) gbb.noalias() += ws.lambda[k] * ws.hess[k].template block<3, 3>(b, b);
        gbb.noalias() += ws.ratio[k] * (gb * gb.transpose());
        continue;
      }
      if (ws.curved[k]) g.noalias() += ws.lambda[k] * ws.hess[k];
      g.noalias() += ws.ratio[k] * (ws.grad[k] * ws.grad[k].transpose());
    }
    detail::SmallCholesky<N> llt(g);
    // Near the solution lambda / s reaches 1e11 and more: G's diagonal is then ~1e14 while its
    // smallest eigenvalue may be of order 1, and a pivot can come out non-positive by rounding.
    // Shift the diagonal by a growing share of its largest entry (at most kShifts tries; G stays
    // positive definite, so the step stays a descent direction) before giving up.
    constexpr int kShifts = 4;
    for (int shift = 0; shift < kShifts && !llt.ok && g.allFinite(); ++shift) {
      MatN shifted = g;
      shifted.diagonal().array() += g.diagonal().cwiseAbs().maxCoeff() * std::pow(1e-2, 7 - 2 * shift);
      llt = detail::SmallCholesky<N>(shifted);
    }
    if (!llt.ok) {
      out.termination = Termination::non_finite;
      return out;
    }
    const double mu = gap / count;

    // Step for complementarity targets w: G dz = -(grad f0 + sum (w_k / s_k) grad c_k). The
    // predictor's w = 0 (`affine`) drops the w / s terms, which are exact zeros.
    auto direction = [&](const std::vector<double>& w, VecN& dz, bool affine = false) {
      VecN rhs = -grad0;
      if (!affine) {
        for (std::size_t k = 0; k < m; ++k) {
          ws.w_over_s[k] = w[k] / ws.s[k];
          rhs -= ws.w_over_s[k] * ws.grad[k];
        }
      }
      dz = llt.solve(rhs);
      for (std::size_t k = 0; k < m; ++k) {
        ws.adz[k] = ws.grad[k].dot(dz);
        ws.dlambda[k] = (affine ? 0.0 : ws.w_over_s[k]) - ws.lambda[k] + ws.ratio[k] * ws.adz[k];
      }
    };

    // Predictor (affine scaling, w = 0).
    VecN dz;
    direction(ws.w, dz, true);
    for (std::size_t k = 0; k < m; ++k) {
      ws.ds_aff[k] = -ws.adz[k];
      ws.dlambda_aff[k] = ws.dlambda[k];
    }
    const double alpha_p_aff = detail::fraction_to_boundary(ws.s, ws.ds_aff, 1);
    const double alpha_d_aff = detail::fraction_to_boundary(ws.lambda, ws.dlambda_aff, 1);
    double mu_aff = 0;
    for (std::size_t k = 0; k < m; ++k) {
      mu_aff += (ws.s[k] + alpha_p_aff * ws.ds_aff[k]) * (ws.lambda[k] + alpha_d_aff * ws.dlambda_aff[k]);
    }
    mu_aff /= count;
    const double ratio = mu > 0 ? std::clamp(mu_aff / mu, 0.0, 1.0) : 0;
    // Mehrotra's sigma, but never below (1 - last step)^2: the affine predictor is linear and
    // cannot see curved boundaries, so after a step shortened by the line search it would keep
    // aiming at mu = 0 and keep being cut; centring more restores long steps.
    const double shortfall = 1 - last_alpha;
    const double sigma = o.predictor_corrector ? ratio * ratio * ratio : o.fixed_centering;
    const double tau = std::max(sigma, shortfall * shortfall) * mu;

    // Corrector; falls back to the centred step when it is not a descent direction.
    auto slope_of = [&](const VecN& d) {
      double slope = grad0.dot(d);
      for (std::size_t k = 0; k < m; ++k) slope += tau * ws.adz[k] / ws.s[k];
      return slope;
    };
    for (std::size_t k = 0; k < m; ++k) {
      ws.w[k] = o.predictor_corrector ? tau - ws.ds_aff[k] * ws.dlambda_aff[k] : tau;
    }
    direction(ws.w, dz);
    double slope = slope_of(dz);
    if (!(slope < 0)) {
      std::fill(ws.w.begin(), ws.w.end(), tau);
      direction(ws.w, dz);
      slope = slope_of(dz);
    }
    if (!dz.allFinite()) {
      out.termination = Termination::non_finite;
      return out;
    }
    for (std::size_t k = 0; k < m; ++k) ws.ds_aff[k] = -ws.adz[k];  // reuse as the slack step
    const double boundary = o.fraction_to_boundary;
    // One step length for primal and dual: the multiplier step assumes the full primal step
    // (stationarity couples them through the constraint gradients).
    double alpha = std::min(detail::fraction_to_boundary(ws.s, ws.ds_aff, boundary),
                            detail::fraction_to_boundary(ws.lambda, ws.dlambda, boundary));

    // Armijo backtracking on the barrier merit; the trial must also keep half the fraction-to-
    // boundary share of each slack (half: the linearised rule is exact for linear constraints
    // and rounding must not reject its own step).
    const double merit = f0 - tau * current_log_sum;
    bool accepted = false;
    VecN trial;
    double trial_log_sum = 0;
    // The next trial after backtrack `bt` was refused by constraint k (outside, or below its
    // share of the slack). On the first one: the slack along the step modelled as
    // s(a) = s_k - a adz_k - q a^2 / 2, exact at 0 in value and slope and at the refused alpha
    // (q > 0 is the constraint's curvature along dz), and the step where the model keeps
    // 1 - kIpmCurvedBacktrackShare of s_k, clamped to [kIpmCurvedBacktrackMin,
    // kIpmCurvedBacktrackMax] * alpha. Otherwise, or when the model is not usable (q <= 0 or NaN:
    // not a curvature refusal), alpha / 2.
    auto next_alpha = [&](std::size_t k, int bt) {
      if (!o.curvature_backtracking || bt > 0 || k >= m || !std::isfinite(ws.s_trial[k])) return alpha / 2;
      const double s0 = ws.s[k];
      const double a = ws.adz[k];
      const double q = 2 * (s0 - alpha * a - ws.s_trial[k]) / (alpha * alpha);
      if (!(q > 0)) return alpha / 2;
      const double share = kIpmCurvedBacktrackShare;
      const double root = 2 * share * s0 / (a + std::sqrt(a * a + 2 * q * share * s0));
      return std::clamp(root, kIpmCurvedBacktrackMin * alpha, kIpmCurvedBacktrackMax * alpha);
    };
    for (int bt = 0; bt < o.max_backtracks; ++bt) {
      trial = z + alpha * dz;
      std::size_t refused = m;
      if (!detail::evaluate(p, trial, o.curvature_floor, ws.s_trial, ws.grad_trial, ws.hess_trial, ws.curved_trial,
                            &ws, true, &refused)) {
        alpha = next_alpha(refused, bt);
        continue;
      }
      for (std::size_t k = 0; k < m && refused == m; ++k) {
        if (!(ws.s_trial[k] >= (1 - boundary) * ws.s[k] / 2)) refused = k;
      }
      if (refused < m) {
        alpha = next_alpha(refused, bt);
        continue;
      }
      trial_log_sum = log_sum(ws.s_trial);
      const double trial_merit = objective(trial) - tau * trial_log_sum;
      // The relaxation by merit_noise * |merit| lets rounding noise pass once the decrease
      // predicted by the slope falls below the merit's last digits.
      if (trial_merit <= merit + o.armijo * alpha * slope + o.merit_noise * std::abs(merit)) {
        accepted = true;
        break;
      }
      alpha /= 2;
    }
    if (!accepted) {
      out.termination = Termination::no_progress;
      return out;
    }
    z = trial;
    current_log_sum = trial_log_sum;
    last_alpha = alpha;
    std::swap(ws.s, ws.s_trial);
    std::swap(ws.grad, ws.grad_trial);
    std::swap(ws.hess, ws.hess_trial);
    std::swap(ws.curved, ws.curved_trial);
    double new_gap = 0;
    for (std::size_t k = 0; k < m; ++k) {
      ws.lambda[k] += alpha * ws.dlambda[k];
      new_gap += ws.s[k] * ws.lambda[k];
    }
    // Keep every multiplier within a factor dual_safeguard of its centred value.
    const double mu_new = new_gap / count;
    for (std::size_t k = 0; k < m; ++k) {
      ws.lambda[k] = std::clamp(ws.lambda[k], mu_new / (o.dual_safeguard * ws.s[k]), o.dual_safeguard * mu_new / ws.s[k]);
    }
  }
  out.termination = Termination::iteration_limit;
  return out;
}

/// solve() without a checkpoint.
template <int N, class StopCheck>
SolverOutput<N> solve(const Problem<N>& p, const Eigen::Matrix<double, N, 1>& z0, std::span<const double> lambda0,
                      double mu0, const IpmOptions& o, Workspace<N>& ws, StopCheck&& stop) {
  return solve(p, z0, lambda0, mu0, o, ws, stop, [](const Eigen::Matrix<double, N, 1>&) { return false; });
}

/// Maps a termination to the public status and detail.
inline std::pair<Status, Detail> to_status(Termination t) {
  switch (t) {
    case Termination::converged: return {Status::converged, Detail::duality_gap};
    case Termination::stopped: return {Status::converged, Detail::origin_enclosed};
    case Termination::checkpoint: return {Status::converged, Detail::duality_gap};
    case Termination::iteration_limit: return {Status::iteration_limit, Detail::none};
    case Termination::no_progress: return {Status::degenerate_input, Detail::no_progress};
    case Termination::unbounded: return {Status::degenerate_input, Detail::no_progress};
    case Termination::infeasible_start: return {Status::degenerate_input, Detail::none};
    case Termination::non_finite: return {Status::degenerate_input, Detail::non_finite};
  }
  return {Status::degenerate_input, Detail::none};
}

}  // namespace proxima::ipm
