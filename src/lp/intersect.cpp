// SPDX-License-Identifier: MIT
#include <proxima/lp/intersect.hpp>

#include "lp/common.hpp"
#include "lp/dense_kernels.hpp"
#include "lp/intersect_fast.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace proxima::lp {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
/// Points per set from which the separating plane's check at n = 3 goes through the vectorised
/// pass (dense_kernels.hpp, extremes3); below it the call costs more than it saves (+15 ns a
/// query at 8 points).
constexpr Eigen::Index kVectorExtremesPoints = 32;

/// Sets `out` to "nothing found yet": every number NaN, vectors sized and NaN (their storage is
/// reused when the sizes repeat, so a result object kept across queries allocates nothing).
void reset(LpIntersectResult& out, int n, Eigen::Index na, Eigen::Index nb) {
  out.intersect = false;
  out.common_point.setConstant(n, kNaN);
  out.weights_a.setConstant(na, kNaN);
  out.weights_b.setConstant(nb, kNaN);
  out.residual = kNaN;
  out.separating_normal.setConstant(n, kNaN);
  out.separating_offset = kNaN;
  out.margin = kNaN;
  out.iterations = 0;
  out.converged = false;
  out.warm_started = false;
  out.status = Status::converged;
  out.detail = Detail::none;
}

void empty_answer(const PointsRef& a, const PointsRef& b, LpIntersectResult& r) {
  // Nothing to meet: any hyperplane with the non-empty set on its side is a (vacuous) separator.
  r.separating_normal.setZero();
  r.separating_normal[0] = 1;
  if (b.cols() > 0) {
    r.separating_offset = b.row(0).minCoeff();
  } else if (a.cols() > 0) {
    r.separating_offset = a.row(0).maxCoeff();
  } else {
    r.separating_offset = 0;
  }
  r.margin = kInf;
  r.converged = true;
}

/// The general path: the LP written out densely and solved by lp::solve (simplex_method.hpp).
/// Used when the structured solver (intersect_fast.hpp) fails or its certificate does not hold.
void general_intersect(const PointsRef& a, const PointsRef& b, int n, LpWorkspace& ws, const LpOptions& options,
                       LpIntersectResult& r) {
  const int na = static_cast<int>(a.cols());
  const int nb = static_cast<int>(b.cols());
  const detail::Frame frame = detail::common_frame(a, b);
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
  r.iterations += s.iterations;
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
      // Halved before adding: the two points may each be near DBL_MAX (fuzz_lp).
      r.common_point = (a * r.weights_a) / 2 + (b * r.weights_b) / 2;
      r.residual = residual * frame.half_extent;
      r.converged = r.status == Status::converged;
      return;
    }
    // A feasible basis whose weights do not reproduce a common point: numerical breakdown.
    r.weights_a.setConstant(kNaN);
    r.weights_b.setConstant(kNaN);
    r.status = Status::degenerate_input;
    r.detail = Detail::no_progress;
    r.converged = false;
    return;
  }

  if (s.outcome != LpOutcome::infeasible) {
    r.converged = false;
    if (r.status == Status::converged) r.status = Status::degenerate_input;
    return;
  }

  // Farkas: y = (w, alpha, beta) with w.a' + alpha <= 0 and -w.b' + beta <= 0 for the normalised
  // points and alpha + beta > 0, so max w.a' <= -alpha < beta <= min w.b'. The direction w is
  // the same in input coordinates (translation and uniform scaling keep directions).
  Eigen::VectorXd normal = ws.simplex().dual().head(n);
  if (!detail::normalise_direction(normal)) {
    r.status = Status::degenerate_input;
    r.detail = Detail::no_progress;
    return;
  }
  const double hi_a = detail::max_dot(a, normal);
  const double lo_b = detail::min_dot(b, normal);
  r.separating_normal = normal;
  // Halved before adding: both may be near DBL_MAX.
  r.separating_offset = hi_a / 2 + lo_b / 2;
  r.margin = lo_b - hi_a;
  if (!std::isfinite(hi_a) || !std::isfinite(lo_b) || !std::isfinite(r.margin)) {
    // Coordinates near DBL_MAX: normal . p, or the gap between the sets along the normal,
    // overflows, and the plane cannot be stated (nor checked) in double precision. Not
    // certified rather than an infinite offset or margin called converged (fuzz finding 4).
    r.status = Status::degenerate_input;
    r.detail = Detail::non_finite;
    r.converged = false;
    return;
  }
  if (!(r.margin > 0)) {
    r.status = Status::degenerate_input;
    r.detail = Detail::touching;
    r.converged = false;
    return;
  }
  r.converged = r.status == Status::converged;
}

/// The structured path's answer with its certificate checked; false when the certificate does
/// not hold (then the general path decides).
bool fast_answer(const PointsRef& a, const PointsRef& b, int n, double half_extent, const detail::FastResult& f,
                 detail::IntersectStorage& s, const LpOptions& options, LpIntersectResult& r) {
  const int na = static_cast<int>(a.cols());
  const int nb = static_cast<int>(b.cols());
  const int m = n + 2;
  const int cols = na + nb;
  if (f.outcome == detail::FastOutcome::feasible) {
    // The weights are zero off the basis: clamped and rescaled to sum 1 per set over the basic
    // entries only (in basis order), not over all |A| + |B| entries. Raw loops over the m basic
    // columns: at n = 3 and 8 points per set, Eigen's per-expression set-up on these dynamic
    // vectors cost about a tenth of the query.
    double* wa = r.weights_a.data();
    double* wb = r.weights_b.data();
    std::fill(wa, wa + na, 0.0);
    std::fill(wb, wb + nb, 0.0);
    double sum_a = 0;
    double sum_b = 0;
    for (int row = 0; row < m; ++row) {
      const int j = s.basis[static_cast<std::size_t>(row)];
      if (j >= cols) continue;
      const double w = std::max(s.xb[row], 0.0);
      (j < na ? wa[j] : wb[j - na]) = w;
      (j < na ? sum_a : sum_b) += w;
    }
    if (!(sum_a > 0) || !(sum_b > 0)) return false;
    // Residual A' l - B' m over the basic columns, in normalised coordinates; then the common
    // point over the same columns in input coordinates (each sum in basis order).
    double* res = s.y.data();  // free after the solve
    double* point = r.common_point.data();
    std::fill(res, res + n, 0.0);
    std::fill(point, point + n, 0.0);
    const double* stored = s.points.data();
    const Eigen::Index ld_stored = s.points.outerStride();
    for (int row = 0; row < m; ++row) {
      const int j = s.basis[static_cast<std::size_t>(row)];
      if (j >= cols) continue;
      double& wj = j < na ? wa[j] : wb[j - na];
      wj /= j < na ? sum_a : sum_b;
      const double w = wj;
      // Half of each point, so that A's and B's halves cannot overflow when added (fuzz_lp).
      const double half = w / 2;
      const double* in = j < na ? a.data() + j * a.outerStride() : b.data() + (j - na) * b.outerStride();
      for (int i = 0; i < n; ++i) {
        res[i] += w * stored[i * ld_stored + j];
        point[i] += half * in[i];
      }
    }
    double residual = 0;
    for (int i = 0; i < n; ++i) {
      const double e = std::abs(res[i]);
      if (std::isnan(e)) return false;  // fails the certificate (impossible from finite points)
      residual = std::max(residual, e);
    }
    if (!(residual <= options.contact_tolerance)) return false;
    r.intersect = true;
    r.residual = residual * half_extent;
    r.converged = true;
    return true;
  }
  if (f.outcome != detail::FastOutcome::infeasible) return false;
  // Farkas ray, as in general_intersect; the margin is measured on the input points.
  Eigen::VectorXd& normal = r.separating_normal;
  normal = s.y.head(n);
  if (!detail::normalise_direction(normal)) return false;
  // normal . p for every input point: short dot products, written out (n is small and runtime).
  // Four running extremes over the points in turn (each waits on one comparison per four
  // points); the extreme of exact comparisons does not depend on the order.
  const auto extreme = [&](const PointsRef& p, bool largest) {
    if (n == 3 && p.outerStride() == 3 && p.cols() >= kVectorExtremesPoints) {
      double low = 0;
      double high = 0;
      detail::extremes3(p.data(), p.cols(), normal.data(), &low, &high);
      return largest ? high : low;
    }
    // Four points per step: their dot products are four independent chains (at n = 20 one
    // chain is 20 dependent additions), each summed in the order of the one-point loop.
    const double start = largest ? -kInf : kInf;
    double best[4] = {start, start, start, start};
    const Eigen::Index stride = p.outerStride();
    Eigen::Index j = 0;
    for (; j + 4 <= p.cols(); j += 4) {
      const double* col = p.data() + j * stride;
      double dot[4] = {0, 0, 0, 0};
      for (int i = 0; i < n; ++i) {
        for (int k = 0; k < 4; ++k) dot[k] += normal[i] * col[k * stride + i];
      }
      for (int k = 0; k < 4; ++k) best[k] = largest ? std::max(best[k], dot[k]) : std::min(best[k], dot[k]);
    }
    for (; j < p.cols(); ++j) {
      const double* col = p.data() + j * stride;
      double dot = 0;
      for (int i = 0; i < n; ++i) dot += normal[i] * col[i];
      double& run = best[j % 4];
      run = largest ? std::max(run, dot) : std::min(run, dot);
    }
    return largest ? std::max(std::max(best[0], best[1]), std::max(best[2], best[3]))
                   : std::min(std::min(best[0], best[1]), std::min(best[2], best[3]));
  };
  const double hi_a = extreme(a, true);
  const double lo_b = extreme(b, false);
  // An overflowed extreme or gap (coordinates near DBL_MAX) goes to the general path, which
  // reports it as not certified.
  if (!(lo_b - hi_a > 0) || !std::isfinite(lo_b - hi_a)) return false;
  r.separating_offset = hi_a / 2 + lo_b / 2;
  r.margin = lo_b - hi_a;
  r.converged = true;
  return true;
}

}  // namespace

void intersect_into(const PointsRef& a, const PointsRef& b, LpWorkspace& ws, LpIntersectResult& r,
                    const LpOptions& options) {
  const int n = detail::pair_dimension(a, "points_a", b, "points_b");
  options.validate();
  if (a.cols() == 0 || b.cols() == 0) {
    detail::validate_pair(a, "points_a", b, "points_b");  // finiteness of the other set
    reset(r, n, a.cols(), b.cols());
    empty_answer(a, b, r);
    return;
  }
  const int na = static_cast<int>(a.cols());
  const int nb = static_cast<int>(b.cols());
  // The general solver's matrix, (n + 2) x (|A| + |B|), bounds the structured storage too.
  if (static_cast<double>(n + 2) * (static_cast<double>(na) + nb) > options.max_matrix_entries) {
    detail::validate_pair(a, "points_a", b, "points_b");  // bad input is still refused first
    reset(r, n, na, nb);
    r.status = Status::capacity_exceeded;
    return;
  }
  detail::IntersectStorage& s = ws.intersect_storage();
  // Throws, naming the argument, on a NaN or infinite coordinate (and passes on the rare false
  // alarm of load_points' overflowing sum).
  if (!detail::load_points(a, b, s)) detail::validate_pair(a, "points_a", b, "points_b");
  reset(r, n, na, nb);
  const double half_extent = detail::normalise_points(a, b, s);
  if (!(half_extent > 0)) {
    // Every point is the same point.
    r.intersect = true;
    r.common_point = a.col(0);
    r.weights_a.setZero();
    r.weights_a[0] = 1;
    r.weights_b.setZero();
    r.weights_b[0] = 1;
    r.residual = 0;
    r.converged = true;
    return;
  }

  const detail::FastResult f = detail::solve_intersect_fast(n, na, nb, s, detail::unscaled(options.simplex));
  r.iterations = f.iterations;
  r.warm_started = f.warm_started;
  if (f.outcome == detail::FastOutcome::iteration_limit) {
    r.status = Status::iteration_limit;
    return;
  }
  if (fast_answer(a, b, n, half_extent, f, s, options, r)) return;
  // The structured path could not certify its answer (a singular basis, or a pair inside the
  // touching band): the general solver decides, from scratch.
  const int fast_pivots = r.iterations;
  reset(r, n, na, nb);
  r.iterations = fast_pivots;
  s.n = -1;
  ++s.fallbacks;
  general_intersect(a, b, n, ws, options, r);
}

LpIntersectResult intersect(const PointsRef& a, const PointsRef& b, LpWorkspace& ws, const LpOptions& options) {
  LpIntersectResult r;
  intersect_into(a, b, ws, r, options);
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
