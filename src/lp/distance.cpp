// SPDX-License-Identifier: MIT
#include <proxima/lp/distance.hpp>

#include "lp/common.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace proxima::lp {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

double norm_of(const Eigen::VectorXd& v, DistanceNorm norm) {
  return norm == DistanceNorm::l1 ? v.lpNorm<1>() : v.lpNorm<Eigen::Infinity>();
}
double dual_norm_of(const Eigen::VectorXd& v, DistanceNorm norm) {
  return norm == DistanceNorm::l1 ? v.lpNorm<Eigen::Infinity>() : v.lpNorm<1>();
}

LpDistanceResult unsolved(int n, Eigen::Index na, Eigen::Index nb) {
  LpDistanceResult r;
  r.point_a = Eigen::VectorXd::Constant(n, kNaN);
  r.point_b = Eigen::VectorXd::Constant(n, kNaN);
  r.weights_a = Eigen::VectorXd::Constant(na, kNaN);
  r.weights_b = Eigen::VectorXd::Constant(nb, kNaN);
  r.dual_direction = Eigen::VectorXd::Constant(n, kNaN);
  return r;
}

}  // namespace

LpDistanceResult distance(const PointsRef& a, const PointsRef& b, DistanceNorm norm, LpWorkspace& ws,
                          const LpOptions& options) {
  const int n = detail::validate_pair(a, "points_a", b, "points_b");
  options.validate();
  const int na = static_cast<int>(a.cols());
  const int nb = static_cast<int>(b.cols());
  LpDistanceResult r = unsolved(n, na, nb);
  if (na == 0 || nb == 0) {
    r.distance = kInf;
    r.lower_bound = kInf;
    r.converged = true;
    return r;
  }
  const detail::Frame frame = detail::common_frame(a, b);
  if (!(frame.half_extent > 0)) {
    r.distance = 0;
    r.lower_bound = 0;
    r.point_a = a.col(0);
    r.point_b = a.col(0);
    r.weights_a = Eigen::VectorXd::Unit(na, 0);
    r.weights_b = Eigen::VectorXd::Unit(nb, 0);
    r.converged = true;
    return r;
  }

  // Rows 0..n-1 (and n..2n-1 for linf) hold d = A' l - B' m in normalised coordinates; the last
  // two rows are the weight sums.
  const bool l1 = norm == DistanceNorm::l1;
  const int rows = l1 ? n + 2 : 2 * n + 2;
  const int cols = na + nb + (l1 ? 2 * n : 2 * n + 1);
  if (static_cast<double>(rows) * cols > options.max_matrix_entries) {
    r.status = Status::capacity_exceeded;
    return r;
  }
  const int sum_row = rows - 2;
  auto lp = ws.matrix(rows, cols);
  lp.setZero();
  detail::write_normalised(a, frame, false, lp.block(0, 0, n, na));
  detail::write_normalised(b, frame, true, lp.block(0, na, n, nb));
  lp.row(sum_row).head(na).setOnes();
  lp.row(sum_row + 1).segment(na, nb).setOnes();
  auto cost = ws.costs(cols);
  cost.setZero();
  const int extra = na + nb;
  if (l1) {
    // d_k - u_k + v_k = 0; minimise sum u + v.
    for (int k = 0; k < n; ++k) {
      lp(k, extra + 2 * k) = -1;
      lp(k, extra + 2 * k + 1) = 1;
    }
    cost.tail(2 * n).setOnes();
  } else {
    // d_k - r + s+_k = 0 and -d_k - r + s-_k = 0; minimise r.
    lp.block(n, 0, n, na + nb) = -lp.block(0, 0, n, na + nb);
    lp.col(extra).head(2 * n).setConstant(-1);
    for (int k = 0; k < 2 * n; ++k) lp(k, extra + 1 + k) = 1;
    cost[extra] = 1;
  }
  auto rhs = ws.rhs(rows);
  rhs.setZero();
  rhs[sum_row] = 1;
  rhs[sum_row + 1] = 1;

  const SimplexResult s = solve(lp, rhs, cost, ws.simplex_mut(), detail::unscaled(options.simplex));
  r.iterations = s.iterations;
  r.warm_started = s.warm_started;
  r.status = s.status;
  r.detail = s.detail;
  if (s.outcome != LpOutcome::optimal) {
    if (r.status == Status::converged) r.status = Status::degenerate_input;
    return r;
  }
  const Eigen::VectorXd x = ws.simplex().primal();
  r.weights_a = x.head(na);
  r.weights_b = x.segment(na, nb);
  if (!detail::make_convex(r.weights_a) || !detail::make_convex(r.weights_b)) {
    r.status = Status::degenerate_input;
    r.detail = Detail::no_progress;
    return r;
  }
  r.point_a = a * r.weights_a;
  r.point_b = b * r.weights_b;
  r.distance = norm_of(r.point_b - r.point_a, norm);

  // The dual direction: l1: w = y_0..n-1 with |w|_inf <= 1; linf: w = y+ - y- with |w|_1 <= 1.
  // Both satisfy max w.a' <= -alpha and min w.b' >= beta with alpha + beta the optimum.
  const Eigen::VectorXd y = ws.simplex().dual();
  Eigen::VectorXd w = l1 ? Eigen::VectorXd(y.head(n)) : Eigen::VectorXd(y.head(n) - y.segment(n, n));
  const double wn = dual_norm_of(w, norm);
  if (wn > 0) {
    r.dual_direction = w / wn;
    r.lower_bound = std::max(0.0, detail::min_dot(b, r.dual_direction) - detail::max_dot(a, r.dual_direction));
  } else {
    r.lower_bound = 0;  // the sets intersect: the zero direction certifies distance >= 0
  }
  r.converged = r.status == Status::converged;
  return r;
}

LpDistanceResult distance(const PointsRef& a, const PointsRef& b, DistanceNorm norm, const LpOptions& options) {
  LpWorkspace ws;
  return distance(a, b, norm, ws, options);
}

SeedResidualResult seed_residual(const PointsRef& a, const PointsRef& b, LpWorkspace& ws, const LpOptions& options) {
  const int n = detail::validate_pair(a, "points_a", b, "points_b");
  options.validate();
  const int na = static_cast<int>(a.cols());
  const int nb = static_cast<int>(b.cols());
  // [A I] (x; s) = b with slacks s = b - A x >= 0; the seed's objective e^T (b - A x) is e^T s.
  const int rows = n + 2;
  const int cols = na + nb + rows;
  if (static_cast<double>(rows) * cols > options.max_matrix_entries) {
    SeedResidualResult r;
    r.status = Status::capacity_exceeded;
    return r;
  }
  auto lp = ws.matrix(rows, cols);
  lp.setZero();
  if (na > 0) {
    lp.block(0, 0, n, na) = a;
    lp.row(n).head(na).setOnes();
  }
  if (nb > 0) {
    lp.block(0, na, n, nb) = -b;
    lp.row(n + 1).segment(na, nb).setOnes();
  }
  lp.block(0, na + nb, rows, rows).setIdentity();
  auto cost = ws.costs(cols);
  cost.setZero();
  cost.tail(rows).setOnes();
  auto rhs = ws.rhs(rows);
  rhs.setZero();
  rhs[n] = 1;
  rhs[n + 1] = 1;
  const SimplexResult s = solve(lp, rhs, cost, ws.simplex_mut(), options.simplex);
  SeedResidualResult r;
  r.iterations = s.iterations;
  r.status = s.status;
  r.detail = s.detail;
  if (s.outcome != LpOutcome::optimal) {
    if (r.status == Status::converged) r.status = Status::degenerate_input;
    return r;
  }
  r.value = std::max(0.0, s.objective);
  r.intersect = r.value <= options.simplex.infeasibility_tolerance;
  r.converged = r.status == Status::converged;
  return r;
}

}  // namespace proxima::lp
