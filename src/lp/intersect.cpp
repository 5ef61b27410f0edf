// SPDX-License-Identifier: MIT
#include <proxima/lp/intersect.hpp>

#include "lp/common.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace proxima::lp {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

LpIntersectResult empty_answer(const PointsRef& a, const PointsRef& b, int n) {
  // Nothing to meet: any hyperplane with the non-empty set on its side is a (vacuous) separator.
  LpIntersectResult r;
  r.intersect = false;
  r.common_point = Eigen::VectorXd::Constant(n, kNaN);
  r.weights_a = Eigen::VectorXd::Constant(a.cols(), kNaN);
  r.weights_b = Eigen::VectorXd::Constant(b.cols(), kNaN);
  r.separating_normal = Eigen::VectorXd::Unit(n, 0);
  if (b.cols() > 0) {
    r.separating_offset = b.row(0).minCoeff();
  } else if (a.cols() > 0) {
    r.separating_offset = a.row(0).maxCoeff();
  } else {
    r.separating_offset = 0;
  }
  r.margin = kInf;
  r.converged = true;
  return r;
}

}  // namespace

LpIntersectResult intersect(const PointsRef& a, const PointsRef& b, LpWorkspace& ws, const LpOptions& options) {
  const int n = detail::validate_pair(a, "points_a", b, "points_b");
  if (a.cols() == 0 || b.cols() == 0) return empty_answer(a, b, n);
  const int na = static_cast<int>(a.cols());
  const int nb = static_cast<int>(b.cols());

  LpIntersectResult r;
  r.separating_normal = Eigen::VectorXd::Constant(n, kNaN);
  const detail::Frame frame = detail::common_frame(a, b);
  if (!(frame.half_extent > 0)) {
    // Every point is the same point.
    r.intersect = true;
    r.common_point = a.col(0);
    r.weights_a = Eigen::VectorXd::Unit(na, 0);
    r.weights_b = Eigen::VectorXd::Unit(nb, 0);
    r.residual = 0;
    r.converged = true;
    return r;
  }

  // The LP of the file comment, in normalised coordinates: rows 0..n-1 say A l = B m, row n
  // sums l, row n+1 sums m.
  const int m = n + 2;
  auto lp = ws.matrix(m, na + nb);
  lp.setZero();
  detail::write_normalised(a, frame, false, lp.block(0, 0, n, na));
  detail::write_normalised(b, frame, true, lp.block(0, na, n, nb));
  lp.row(n).head(na).setOnes();
  lp.row(n + 1).tail(nb).setOnes();
  auto rhs = ws.rhs(m);
  rhs.setZero();
  rhs[n] = 1;
  rhs[n + 1] = 1;

  const SimplexResult s = solve(lp, rhs, Eigen::VectorXd(), ws.simplex_mut(), detail::unscaled(options.simplex));
  r.iterations = s.iterations;
  r.warm_started = s.warm_started;
  r.status = s.status;
  r.detail = s.detail;

  if (s.outcome == LpOutcome::optimal) {
    const auto x = ws.simplex().primal();
    r.weights_a = x.head(na);
    r.weights_b = x.tail(nb);
    const bool ok = detail::make_convex(r.weights_a) && detail::make_convex(r.weights_b);
    // Residual in normalised coordinates (free of the translation's rounding), then in length.
    const double residual =
        ok ? (lp.block(0, 0, n, na) * r.weights_a + lp.block(0, na, n, nb) * r.weights_b).lpNorm<Eigen::Infinity>()
           : kInf;
    if (ok && residual <= options.contact_tolerance) {
      r.intersect = true;
      r.common_point = (a * r.weights_a + b * r.weights_b) / 2;
      r.residual = residual * frame.half_extent;
      r.converged = r.status == Status::converged;
      return r;
    }
    // A feasible basis whose weights do not reproduce a common point: numerical breakdown.
    r.intersect = false;
    r.common_point = Eigen::VectorXd::Constant(n, kNaN);
    r.status = Status::degenerate_input;
    r.detail = Detail::no_progress;
    r.converged = false;
    return r;
  }

  r.common_point = Eigen::VectorXd::Constant(n, kNaN);
  r.weights_a = Eigen::VectorXd::Constant(na, kNaN);
  r.weights_b = Eigen::VectorXd::Constant(nb, kNaN);
  if (s.outcome != LpOutcome::infeasible) {
    r.converged = false;
    if (r.status == Status::converged) r.status = Status::degenerate_input;
    return r;
  }

  // Farkas: y = (w, alpha, beta) with w.a' + alpha <= 0 and -w.b' + beta <= 0 for the normalised
  // points and alpha + beta > 0, so max w.a' <= -alpha < beta <= min w.b'. The direction w is
  // the same in input coordinates (translation and uniform scaling keep directions).
  Eigen::VectorXd normal = ws.simplex().dual().head(n);
  const double norm = normal.norm();
  if (!(norm > 0)) {
    r.status = Status::degenerate_input;
    r.detail = Detail::no_progress;
    return r;
  }
  normal /= norm;
  const double hi_a = detail::max_dot(a, normal);
  const double lo_b = detail::min_dot(b, normal);
  r.separating_normal = normal;
  r.separating_offset = (hi_a + lo_b) / 2;
  r.margin = lo_b - hi_a;
  if (!(r.margin > 0)) {
    r.status = Status::degenerate_input;
    r.detail = Detail::touching;
    r.converged = false;
    return r;
  }
  r.converged = r.status == Status::converged;
  return r;
}

LpIntersectResult intersect(const PointsRef& a, const PointsRef& b, const LpOptions& options) {
  LpWorkspace ws;
  return intersect(a, b, ws, options);
}

LpIntersectResult point_inside(const Eigen::Ref<const Eigen::VectorXd>& p, const PointsRef& b, LpWorkspace& workspace,
                               const LpOptions& options) {
  return intersect(Eigen::Map<const Eigen::MatrixXd>(p.data(), p.size(), 1), b, workspace, options);
}

CertificateCheck check_common_point(const PointsRef& a, const PointsRef& b, const Eigen::VectorXd& point,
                                    const Eigen::VectorXd& weights_a, const Eigen::VectorXd& weights_b,
                                    double tolerance) {
  CertificateCheck c;
  if (weights_a.size() != a.cols() || weights_b.size() != b.cols() || point.size() != a.rows() ||
      a.cols() == 0 || b.cols() == 0 || !point.allFinite() || !weights_a.allFinite() || !weights_b.allFinite()) {
    return c;
  }
  const detail::Frame frame = detail::common_frame(a, b);
  const double extent = std::max(frame.half_extent, frame.center.lpNorm<Eigen::Infinity>());
  const double sum_error = std::max(std::abs(weights_a.sum() - 1) / static_cast<double>(a.cols()),
                                    std::abs(weights_b.sum() - 1) / static_cast<double>(b.cols()));
  const double negative = std::max(0.0, -std::min(weights_a.minCoeff(), weights_b.minCoeff()));
  const double err_a = (a * weights_a - point).lpNorm<Eigen::Infinity>();
  const double err_b = (b * weights_b - point).lpNorm<Eigen::Infinity>();
  c.value = std::max({err_a, err_b, (sum_error + negative) * extent});
  c.valid = negative == 0 && sum_error <= kLpCertificateWeightSlack && err_a <= tolerance && err_b <= tolerance;
  return c;
}

CertificateCheck check_separation(const PointsRef& a, const PointsRef& b, const Eigen::VectorXd& normal,
                                  double offset) {
  CertificateCheck c;
  if (normal.size() != a.rows() || normal.size() != b.rows() || !normal.allFinite() || !std::isfinite(offset)) {
    return c;
  }
  const double hi_a = detail::max_dot(a, normal);
  const double lo_b = detail::min_dot(b, normal);
  c.value = lo_b - hi_a;
  c.valid = std::abs(normal.norm() - 1) <= kLpCertificateWeightSlack && hi_a <= offset && offset <= lo_b && c.value > 0;
  return c;
}

}  // namespace proxima::lp
