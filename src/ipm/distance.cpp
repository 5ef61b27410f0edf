// SPDX-License-Identifier: MIT
#include <proxima/ipm/distance.hpp>

#include <cmath>

namespace proxima::ipm {
namespace detail {

Frame query_frame(const Object& a, const Pose& pose_a, const Object& b, const Pose& pose_b) {
  const Vec3 ca = pose_a.apply(a.bounding_sphere().center);
  const Vec3 cb = pose_b.apply(b.bounding_sphere().center);
  return {(ca + cb) / 2, a.bounding_sphere().radius + b.bounding_sphere().radius + (ca - cb).norm()};
}

/// True when every constraint in [first, last) is strictly negative at z.
template <int N>
bool all_inside(std::span<const Constraint<N>> constraints, std::size_t first, std::size_t last,
                const Eigen::Matrix<double, N, 1>& z) {
  for (std::size_t k = first; k < last; ++k) {
    const auto& c = constraints[k];
    double value = c.linear.dot(z) + c.constant;
    if (c.primitive != nullptr) value += c.primitive->value(c.map * z + c.offset);
    if (!(value < 0)) return false;
  }
  return true;
}

}  // namespace detail

namespace {

using Vec6 = Eigen::Matrix<double, 6, 1>;

/// Moves `point` (world) towards `interior` (world) until it is strictly inside every part of the
/// constraints [first, last) evaluated through `column` of z; returns false if even the interior
/// point is refused (cannot happen for a valid object).
bool pull_inside(std::span<const Constraint<6>> constraints, std::size_t first, std::size_t last, int column,
                 Vec6& z, const Vec3& interior, double pullback) {
  const Vec3 start = z.segment<3>(column);
  for (double theta = pullback; theta < 1; theta *= 10) {
    z.segment<3>(column) = start + theta * (interior - start);
    if (detail::all_inside<6>(constraints, first, last, z)) return true;
  }
  z.segment<3>(column) = interior;
  return detail::all_inside<6>(constraints, first, last, z);
}

}  // namespace

DistanceReport DistanceSolver::distance(const Object& a, const Pose& pose_a, const Object& b, const Pose& pose_b) {
  return run(a, pose_a, b, pose_b, false);
}

DistanceReport DistanceSolver::distance_warm(const Object& a, const Pose& pose_a, const Object& b,
                                             const Pose& pose_b) {
  const bool usable = warm_valid_ && warm_lambda_.size() == a.parts().size() + b.parts().size();
  return run(a, pose_a, b, pose_b, usable);
}

DistanceReport DistanceSolver::run(const Object& a, const Pose& pose_a, const Object& b, const Pose& pose_b,
                                   bool warm) {
  const detail::Frame frame = detail::query_frame(a, pose_a, b, pose_b);
  const double scale = frame.scale;
  constraints_.clear();
  detail::append_object<6>(a, pose_a, frame, 0, constraints_);
  detail::append_object<6>(b, pose_b, frame, 3, constraints_);
  const std::size_t ma = a.parts().size();
  const std::size_t m = constraints_.size();
  const std::span<const Constraint<6>> cs(constraints_);

  Problem<6> problem;
  problem.j.leftCols<3>().setIdentity();
  problem.j.rightCols<3>() = -Mat3::Identity();
  problem.constraints = cs;

  const Vec3 interior_a = (pose_a.apply(a.interior_point()) - frame.origin) / scale;
  const Vec3 interior_b = (pose_b.apply(b.interior_point()) - frame.origin) / scale;
  Vec6 z0;
  z0 << interior_a, interior_b;
  std::span<const double> lambda0;
  double mu0 = options_.initial_barrier;
  if (warm) {
    Vec6 zw;
    zw << (pose_a.apply(warm_a_) - frame.origin) / scale, (pose_b.apply(warm_b_) - frame.origin) / scale;
    const bool inside = pull_inside(cs, 0, ma, 0, zw, interior_a, options_.warm_start_pullback) &&
                        pull_inside(cs, ma, m, 3, zw, interior_b, options_.warm_start_pullback);
    if (inside) {
      z0 = zw;
      // World multipliers -> normalised ones (lambda_world = scale^2 lambda).
      for (double& l : warm_lambda_) l /= scale * scale;
      lambda0 = warm_lambda_;
      mu0 = std::max(warm_mu_ / (scale * scale), options_.warm_start_barrier_fraction * options_.initial_barrier);
    } else {
      warm = false;
    }
  }

  // Common point check: x inside B (evaluate B's parts at (x, x)) or y inside A.
  int common = -1;
  auto stop = [&](const Vec6& z) {
    Vec6 probe;
    probe << z.head<3>(), z.head<3>();
    if (detail::all_inside<6>(cs, ma, m, probe)) {
      common = 0;
      return true;
    }
    probe << z.tail<3>(), z.tail<3>();
    if (detail::all_inside<6>(cs, 0, ma, probe)) {
      common = 1;
      return true;
    }
    return false;
  };
  const SolverOutput<6> out = solve(problem, z0, lambda0, mu0, options_, ws_, stop);

  DistanceReport report;
  report.warm_started = warm;
  DistanceResult& r = report.result;
  r.iterations = out.iterations;
  const auto [status, reason] = to_status(out.termination);
  r.status = status;
  r.detail = reason;
  const Vec3 x = frame.origin + scale * out.z.head<3>();
  const Vec3 y = frame.origin + scale * out.z.tail<3>();
  report.complementarity = out.gap * scale * scale;
  report.kkt_residual = out.stationarity * scale;
  multipliers_.resize(m);
  for (std::size_t k = 0; k < m; ++k) multipliers_[k] = ws_.lambda[k] * scale * scale;

  if (out.termination == Termination::stopped) {
    const Vec3 p = common == 0 ? x : y;
    r.distance = 0;
    r.intersect = true;
    r.point_a = r.point_b = p;
    r.gap = 0;
    warm_valid_ = false;
    return report;
  }
  r.distance = (y - x).norm();
  r.point_a = x;
  r.point_b = y;
  if (r.distance > 0) r.normal = (y - x) / r.distance;
  // objective - optimum <= gap + stationarity * |z - z*|; |z - z*| <= the normalised diameter
  // of the feasible set, at most 2 (both objects lie in the ball of radius scale / 2 ... scale).
  const double excess = (out.gap + 2 * out.stationarity) * scale * scale;
  const double lower_sq = r.distance * r.distance - excess;
  r.gap = r.distance - std::sqrt(std::max(0.0, lower_sq));
  r.intersect = !(lower_sq > 0);

  // Remember the solution for a warm start (object frames, world multipliers).
  warm_valid_ = out.termination == Termination::converged;
  warm_a_ = pose_a.apply_inverse(x);
  warm_b_ = pose_b.apply_inverse(y);
  warm_lambda_.assign(multipliers_.begin(), multipliers_.end());
  warm_mu_ = report.complementarity / static_cast<double>(m);
  return report;
}

DistanceResult distance(const Object& a, const Pose& pose_a, const Object& b, const Pose& pose_b,
                        const IpmOptions& options) {
  DistanceSolver solver(options);
  return solver.distance(a, pose_a, b, pose_b).result;
}

DistanceReport distance_report(const Object& a, const Pose& pose_a, const Object& b, const Pose& pose_b,
                               const IpmOptions& options) {
  DistanceSolver solver(options);
  return solver.distance(a, pose_a, b, pose_b);
}

}  // namespace proxima::ipm
