// SPDX-License-Identifier: MIT
#include <proxima/ipm/distance.hpp>

#include <proxima/lp/simplex_method.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

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
    if (!strictly_inside(constraints[k], z)) return false;
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

/// Bisection steps of the cold start's boundary search over the curved parts: the boundary on
/// the segment is known to 1/64 of its length, enough for a start (at most 7 value evaluations
/// of each curved part per object and query).
constexpr int kColdStartBisections = 6;
/// Share of the way to the boundary the cold start moves: measured on the bench's pairs (2000
/// cold queries each), median iterations 13-18 with the interior points, 11-13 at 0.8 and 0.9
/// (0.9 has the fewer on average), and 0.5 left one query of cuboid-pyramid uncertified.
constexpr double kColdStartShare = 0.9;

/// Iterations of a distance query's solve from which, and the interval at which, the
/// separating-plane certificate is tried on the iterate (see DistanceSolver::run). From 50: on
/// the bench's pairs nearly every query converges by its KKT certificate in 10-30 iterations,
/// and the check (about 60 bisection steps per superquadric) stays off their path.
constexpr int kPlaneCheckFrom = 50;
constexpr int kPlaneCheckEvery = 10;

/// A dense linear system of at most N unknowns (the polish's KKT system, symmetric indefinite),
/// solved in place by Gaussian elimination with partial pivoting: cheaper than a general
/// dynamic-size factorisation at these sizes (8-12), and allocation-free.
template <int N>
struct KktSystem {
  int n = 0;
  double a[N][N];
  double b[N];
  /// Overwrites b with the solution; false when a pivot is zero or not finite (singular).
  bool solve() {
    for (int col = 0; col < n; ++col) {
      int pivot = col;
      for (int r = col + 1; r < n; ++r) {
        if (std::abs(a[r][col]) > std::abs(a[pivot][col])) pivot = r;
      }
      if (!(std::abs(a[pivot][col]) > 0) || !std::isfinite(a[pivot][col])) return false;
      if (pivot != col) {
        std::swap(a[pivot], a[col]);
        std::swap(b[pivot], b[col]);
      }
      const double inverse = 1 / a[col][col];
      for (int r = col + 1; r < n; ++r) {
        const double f = a[r][col] * inverse;
        if (f == 0) continue;
        for (int c = col + 1; c < n; ++c) a[r][c] -= f * a[col][c];
        b[r] -= f * b[col];
      }
    }
    for (int r = n - 1; r >= 0; --r) {
      double v = b[r];
      for (int c = r + 1; c < n; ++c) v -= a[r][c] * b[c];
      b[r] = v / a[r][r];
    }
    for (int r = 0; r < n; ++r) {
      if (!std::isfinite(b[r])) return false;
    }
    return true;
  }
};

/// Cold start: moves the point z.segment<3>(column) (strictly inside the parts [first, last))
/// along the segment towards `target` by `share` of the way to the object's boundary on that
/// segment. The optimal points face each other, so a start nearer the other object saves Newton
/// iterations, while the remaining share of the way keeps the slacks of the order of the
/// object's own size (a start near the boundary would make mu / s large). Affine parts give
/// their crossing exactly from the values at both ends (two evaluations each: a polytope's
/// halfspaces cost 2 instead of 7 evaluations); the curved parts by bisection (values only)
/// on the part of the segment the affine ones leave.
void advance_towards(std::span<const Constraint<6>> constraints, std::size_t first, std::size_t last, int column,
                     Vec6& z, const Vec3& target, double share) {
  const Vec3 start = z.segment<3>(column);
  Vec6 end = z;
  end.segment<3>(column) = target;
  double reach = 1;  // the affine parts are strictly met on [0, reach)
  bool curved = false;
  for (std::size_t k = first; k < last; ++k) {
    const Constraint<6>& c = constraints[k];
    if (!c.is_affine()) {
      curved = true;
      continue;
    }
    const double v1 = constraint_value(c, end);
    if (!(v1 >= 0)) continue;  // the whole segment is strictly inside this part
    const double v0 = constraint_value(c, z);  // < 0: z is strictly inside
    reach = std::min(reach, v0 / (v0 - v1));
  }
  auto curved_inside = [&](double t) {
    z.segment<3>(column) = start + t * (target - start);
    for (std::size_t k = first; k < last; ++k) {
      if (!constraints[k].is_affine() && !detail::strictly_inside(constraints[k], z)) return false;
    }
    return true;
  };
  double inside = 0;
  if (!(reach > 0)) {
    inside = 0;
  } else if (!curved || curved_inside(reach)) {
    inside = reach;
  } else {
    double outside = reach;
    for (int step = 0; step < kColdStartBisections; ++step) {
      const double mid = (inside + outside) / 2;
      (curved_inside(mid) ? inside : outside) = mid;
    }
  }
  z.segment<3>(column) = start + share * inside * (target - start);
}

/// Upper bound of max { m . u : sum |u_i / a_i|^p_i <= 1 } (a superquadric's support function)
/// by Lagrangian duality: for any lambda > 0 (and lambda >= c_i where p_i = 1),
///   h(m) <= phi(lambda) = lambda + sum_i (p_i - 1) lambda (c_i / (p_i lambda))^(q_i),
/// c_i = |m_i| a_i, q_i = p_i / (p_i - 1) (the conjugates of the power terms). phi is convex
/// with phi'(lambda) = 1 - sum_i (c_i / (p_i lambda))^(q_i); lambda is its root by bisection in
/// log lambda. Every evaluation is a sum of non-negative terms: no cancellation, full relative
/// precision even where the support point has coordinates far below rounding (sharp tips).
double superquadric_support_bound(const Superquadric& sq, const Vec3& m) {
  Vec3 c;
  double floor = 0;
  for (int i = 0; i < 3; ++i) {
    c[i] = std::abs(m[i]) * sq.semiaxes()[i];
    if (sq.exponents()[i] == 1) floor = std::max(floor, c[i]);
  }
  if (!(c.maxCoeff() > 0)) return 0;
  auto excess = [&](double lambda) {  // sum (c_i / (p_i lambda))^q_i - 1 (decreasing)
    double sum = 0;
    for (int i = 0; i < 3; ++i) {
      const double p = sq.exponents()[i];
      if (p == 1 || c[i] == 0) continue;
      sum += std::pow(c[i] / (p * lambda), p / (p - 1));
    }
    return sum - 1;
  };
  auto phi = [&](double lambda) {
    double sum = lambda;
    for (int i = 0; i < 3; ++i) {
      const double p = sq.exponents()[i];
      if (p == 1 || c[i] == 0) continue;
      sum += (p - 1) * lambda * std::pow(c[i] / (p * lambda), p / (p - 1));
    }
    return sum;
  };
  double lo = std::max(floor, 1e-300), hi = std::max(floor, 1e-300);
  while (excess(hi) > 0 && hi < 1e300) hi *= 4;
  if (excess(lo) > 0) {
    for (int it = 0; it < 200 && hi / lo > 1 + 1e-15; ++it) {
      const double mid = std::sqrt(lo * hi);
      (excess(mid) > 0 ? lo : hi) = mid;
    }
  } else {
    hi = lo;  // the p = 1 floor binds: phi is increasing beyond it
  }
  return phi(hi);
}

/// A single-part object that is a superquadric (its support function has the bound above).
const Superquadric* single_superquadric(const Object& o) {
  if (o.parts().size() != 1) return nullptr;
  return std::get_if<Superquadric>(&o.parts().front().primitive().variant());
}

/// True when every part of the object is a halfspace: the object is a polytope, whose support
/// is a linear program (polytope_support_upper).
bool all_halfspaces(const Object& o) {
  for (const auto& part : o.parts()) {
    if (std::get_if<Halfspace>(&part.primitive().variant()) == nullptr) return false;
  }
  return !o.parts().empty();
}

/// The objects whose support bound below is exact (to rounding) whatever the interior-point
/// iterate: a single superquadric, or a polytope of halfspaces.
bool exact_support(const Object& o) { return single_superquadric(o) != nullptr || all_halfspaces(o); }

/// Upper bound of max n . a over an object of halfspaces g_k . a <= h_k (world frame), from the
/// LP dual of that maximum, min h^T lambda s.t. G^T lambda = n, lambda >= 0, solved by the
/// simplex method (lp/simplex_method.hpp). Any lambda >= 0 bounds it: with r = n - G^T lambda
/// and the bounding sphere (centre c, radius R) holding the object,
///   n . a = sum_k lambda_k g_k . a + r . a <= lambda^T h + r . c + |r| R,
/// so rounding in the LP's answer only adds its residual's share. Needs no multiplier of the
/// interior-point iterate: at a degenerate optimum (a vertex against a face, several faces
/// nearly active) those converge only linearly, while this bound is tight as soon as the
/// normal n is. +inf when the LP is not solved (an unbounded or empty object). `p` is any
/// world point (the halfspaces' offsets are read off their values there). Allocates the LP's
/// storage: it runs only for answers the interior-point certificate did not reach (rare).
double polytope_support_upper(const Object& o, const Pose& pose, const Vec3& n, const Vec3& p) {
  const Eigen::Index k_count = static_cast<Eigen::Index>(o.parts().size());
  Eigen::MatrixXd g(3, k_count);
  Eigen::VectorXd h(k_count);
  const Vec3 local = pose.apply_inverse(p);
  LocalEval e;
  for (Eigen::Index k = 0; k < k_count; ++k) {
    const Part& part = o.parts()[static_cast<std::size_t>(k)];
    part.primitive().evaluate(part.to_primitive(local), kIpmPowerCurvatureFloor, e);
    // The part's value is affine in the world point: c_k(q) = g_k . (q - p) + c_k(p).
    const Vec3 gk = pose.rotation() * (part.inverse_linear().transpose() * e.gradient);
    g.col(k) = gk;
    h[k] = gk.dot(p) - e.value;
  }
  if (!g.allFinite() || !h.allFinite()) return std::numeric_limits<double>::infinity();
  lp::SimplexWorkspace ws;
  const lp::SimplexResult r = lp::solve(g, n, h, ws);
  if (r.outcome != lp::LpOutcome::optimal) return std::numeric_limits<double>::infinity();
  const Eigen::VectorXd lambda = ws.primal().cwiseMax(0.0);
  const Vec3 residual = n - g * lambda;
  const Vec3 centre = pose.apply(o.bounding_sphere().center);
  return h.dot(lambda) + residual.dot(centre) + residual.norm() * o.bounding_sphere().radius;
}

/// Upper bound of max over the object (placed by pose) of n . a, world frame, from the KKT data
/// at a point p (multipliers `nu` >= 0 of max n.a, i.e. the distance multipliers / (2 d)): for
/// any a in the object, grad c_k(p) . (a - p) <= c_k(a) - c_k(p) <= |c_k(p)| by convexity, so
///   n . a <= n . p + sum_k nu_k |c_k(p)| + |n - sum nu_k grad c_k(p)| * diameter,
/// valid for any p and any nu >= 0, tight when p is on the boundary with n = sum nu_k grad c_k.
/// The multipliers used are nu_k / nu_divisor (support_lower_bound passes the distance
/// multipliers and 2 d, so that no scaled copy has to be allocated).
double lagrangian_support_upper(const Object& o, const Pose& pose, const Vec3& n, const Vec3& p,
                                std::span<const double> nu, double nu_divisor) {
  const Vec3 local = pose.apply_inverse(p);
  Vec3 residual = n;
  double slack = 0;
  LocalEval e;
  for (std::size_t k = 0; k < o.parts().size(); ++k) {
    const Part& part = o.parts()[k];
    part.primitive().evaluate(part.to_primitive(local), kIpmPowerCurvatureFloor, e);
    const double nu_k = nu[k] / nu_divisor;
    slack += nu_k * std::abs(e.value);
    residual -= nu_k * (pose.rotation() * (part.inverse_linear().transpose() * e.gradient));
  }
  const double diameter = 2 * o.bounding_sphere().radius;
  return n.dot(p) + slack + residual.norm() * diameter;
}

/// Upper bound of max over the object (placed by pose) of n . a, world frame: the support
/// bound for a single superquadric, the LP bound for a polytope of halfspaces; otherwise the
/// Lagrangian bound above at the answer point p (multipliers nu / nu_divisor).
double support_upper(const Object& o, const Pose& pose, const Vec3& n, const Vec3& p, std::span<const double> nu,
                     double nu_divisor) {
  if (const Superquadric* sq = single_superquadric(o)) {
    const Part& part = o.parts().front();
    const Vec3 m = part.linear().transpose() * (pose.rotation().transpose() * n);
    return n.dot(pose.apply(part.translation())) + superquadric_support_bound(*sq, m);
  }
  if (all_halfspaces(o)) return polytope_support_upper(o, pose, n, p);
  return lagrangian_support_upper(o, pose, n, p, nu, nu_divisor);
}

/// plane_separation with the multipliers nu / nu_divisor.
double plane_separation_scaled(const Object& a, const Pose& pose_a, const Object& b, const Pose& pose_b,
                               const Vec3& n, const Vec3& x, const Vec3& y, std::span<const double> nu,
                               double nu_divisor) {
  const std::size_t ma = a.parts().size();
  const double ha = support_upper(a, pose_a, n, x, nu.first(ma), nu_divisor);
  const double hb = support_upper(b, pose_b, -n, y, nu.subspan(ma), nu_divisor);
  return -hb - ha;
}

}  // namespace

double plane_separation(const Object& a, const Pose& pose_a, const Object& b, const Pose& pose_b, const Vec3& n,
                        const Vec3& x, const Vec3& y, std::span<const double> nu) {
  return plane_separation_scaled(a, pose_a, b, pose_b, n, x, y, nu, 1.0);
}

double support_lower_bound(const Object& a, const Pose& pose_a, const Object& b, const Pose& pose_b,
                           const Vec3& x, const Vec3& y, std::span<const double> multipliers) {
  const double d = (y - x).norm();
  if (!(d > 0)) return 0;
  const Vec3 n = (y - x) / d;
  // The multipliers of max n.a are the distance multipliers / (2 d); divided on the fly.
  return std::max(0.0, plane_separation_scaled(a, pose_a, b, pose_b, n, x, y, multipliers, 2 * d));
}

namespace {
/// True when a superquadric or hyperquadric term of the object has an exponent below `below`.
bool any_exponent_below(const Object& object, double below) {
  for (const auto& part : object.parts()) {
    const auto& v = part.primitive().variant();
    if (const auto* s = std::get_if<Superquadric>(&v)) {
      if ((s->exponents().array() < below).any()) return true;
    } else if (const auto* h = std::get_if<Hyperquadric>(&v)) {
      for (const auto& t : h->terms()) {
        if (t.exponent < below) return true;
      }
    }
  }
  return false;
}
}  // namespace

bool has_power_terms(const Object& object) { return any_exponent_below(object, kIpmReformulateBelow); }

DistanceReport DistanceSolver::distance(const Object& a, const Pose& pose_a, const Object& b, const Pose& pose_b) {
  return run(a, pose_a, b, pose_b, false);
}

DistanceReport DistanceSolver::distance_warm(const Object& a, const Pose& pose_a, const Object& b,
                                             const Pose& pose_b) {
  const bool usable = warm_valid_ && warm_lambda_.size() == a.parts().size() + b.parts().size();
  return run(a, pose_a, b, pose_b, usable);
}

bool DistanceSolver::polish(const Object& a, const Pose& pose_a, const Object& b, const Pose& pose_b,
                            const Vec3& origin, double scale, const Vec6& z_start,
                            std::span<const double> lambda_start, DistanceReport& report, int& steps) {
  steps = 0;
  const std::size_t ma = a.parts().size();
  const std::size_t m = constraints_.size();
  const std::span<const Constraint<6>> cs(constraints_);
  // The active set: per object, the parts whose multiplier is not negligible. At most 6 in all
  // (more are linearly dependent in R^6: a degenerate optimum, left to the IPM).
  constexpr int kMaxActive = 6;
  std::array<std::size_t, kMaxActive> active{};
  std::array<double, kMaxActive> lambda{};
  int na = 0;
  for (int side = 0; side < 2; ++side) {
    const std::size_t first = side == 0 ? 0 : ma;
    const std::size_t last = side == 0 ? ma : m;
    double largest = 0;
    for (std::size_t k = first; k < last; ++k) largest = std::max(largest, lambda_start[k]);
    if (!(largest > 0) || !std::isfinite(largest)) return false;
    for (std::size_t k = first; k < last; ++k) {
      if (!(lambda_start[k] > kIpmPolishActiveShare * largest)) continue;
      if (na == kMaxActive) return false;
      lambda[static_cast<std::size_t>(na)] = lambda_start[k];
      active[static_cast<std::size_t>(na++)] = k;
    }
  }
  Problem<6> problem;
  problem.j.leftCols<3>().setIdentity();
  problem.j.rightCols<3>() = -Mat3::Identity();
  problem.constraints = cs;
  ws_.prepare(cs);
  const Eigen::Matrix<double, 6, 6> h0 = 2 * problem.j.transpose() * problem.j;
  Vec6 z = z_start;

  // Newton on  grad f0(z) + sum_active lambda_k grad c_k(z) = 0,  c_k(z) = 0 (k active):
  //   [H0 + sum lambda_k Hess c_k   G] [dz     ]   [-(grad f0 + G lambda)]
  //   [G^T                          0] [dlambda] = [-c_active           ]
  // with G = [grad c_k]; symmetric indefinite, at most 12 x 12, solved by pivoted LU.
  const int n = 6 + na;
  KktSystem<6 + kMaxActive> kkt;
  const int max_steps = std::min(kIpmPolishIterations, options_.max_iterations);
  double previous = std::numeric_limits<double>::infinity();
  bool converged = false;
  for (;; ++steps) {
    if (!detail::evaluate(problem, z, options_.curvature_floor, ws_.s, ws_.grad, ws_.hess, ws_.curved, &ws_, false)) {
      return false;
    }
    const Vec6 grad0 = h0 * z;
    Vec6 stationarity = grad0;
    double violation = 0;
    for (int i = 0; i < na; ++i) {
      const std::size_t k = active[static_cast<std::size_t>(i)];
      stationarity += lambda[static_cast<std::size_t>(i)] * ws_.grad[k];
      violation = std::max(violation, std::abs(ws_.s[k]));
    }
    const double gradient_size = grad0.cwiseAbs().maxCoeff();
    if (!(gradient_size > 0)) return false;  // a common point: not a separated answer
    const double residual = std::max(stationarity.cwiseAbs().maxCoeff() / gradient_size, violation);
    if (residual <= kIpmPolishTolerance) {
      converged = true;
      break;
    }
    // From a coherent start the residual falls quadratically; when it does not, the active set
    // (or the start) is wrong and the interior-point method is the better use of the time.
    if (steps == max_steps || (steps >= 2 && !(residual < 0.25 * previous))) break;
    previous = residual;
    Eigen::Matrix<double, 6, 6> h = h0;
    for (int i = 0; i < na; ++i) {
      const std::size_t k = active[static_cast<std::size_t>(i)];
      if (!ws_.curved[k]) continue;
      // evaluate() writes only the block of a constraint that has one.
      if (const int col = ws_.block[k]; col >= 0) {
        h.block<3, 3>(col, col) += lambda[static_cast<std::size_t>(i)] * ws_.hess[k].block<3, 3>(col, col);
      } else {
        h += lambda[static_cast<std::size_t>(i)] * ws_.hess[k];
      }
    }
    kkt.n = n;
    for (int r = 0; r < n; ++r) {
      for (int c = 0; c < n; ++c) kkt.a[r][c] = 0;
    }
    for (int r = 0; r < 6; ++r) {
      for (int c = 0; c < 6; ++c) kkt.a[r][c] = h(r, c);
      kkt.b[r] = -stationarity[r];
    }
    for (int i = 0; i < na; ++i) {
      const Vec6& g = ws_.grad[active[static_cast<std::size_t>(i)]];
      for (int r = 0; r < 6; ++r) kkt.a[r][6 + i] = kkt.a[6 + i][r] = g[r];
      kkt.b[6 + i] = ws_.s[active[static_cast<std::size_t>(i)]];  // -c_k
    }
    if (!kkt.solve()) return false;
    for (int r = 0; r < 6; ++r) z[r] += kkt.b[r];
    for (int i = 0; i < na; ++i) lambda[static_cast<std::size_t>(i)] += kkt.b[6 + i];
  }
  if (!converged) return false;
  for (int i = 0; i < na; ++i) {
    if (!(lambda[static_cast<std::size_t>(i)] > 0)) return false;  // the active set changed
  }
  // Certificate, from the last evaluation (at z): with d = |y - x| and the unit normal n, each
  // side's support along n is bounded by its Lagrangian (lagrangian_support_upper, in the
  // normalised frame, nu = lambda / (2 d)), so the true distance is at least
  //   lower = d - sum nu_k |c_k| - |n - sum_A nu_k grad c_k| D_A - |n + sum_B nu_k grad c_k| D_B
  // (D: normalised diameters; the two residuals are the stationarity residual / (2 d)).
  const double d_polished = (z.tail<3>() - z.head<3>()).norm();
  if (!(d_polished > 0)) return false;
  Vec6 stationarity = h0 * z;
  double complementarity = 0;
  for (int i = 0; i < na; ++i) {
    const std::size_t k = active[static_cast<std::size_t>(i)];
    const double l = lambda[static_cast<std::size_t>(i)];
    complementarity += l * std::abs(ws_.s[k]);
    stationarity += l * ws_.grad[k];
  }
  const double lower = d_polished - complementarity / (2 * d_polished) -
                       (stationarity.head<3>().norm() * a.bounding_sphere().radius +
                        stationarity.tail<3>().norm() * b.bounding_sphere().radius) /
                           (d_polished * scale);
  // The points, on their boundaries to rounding, moved strictly inside: the distance between
  // feasible points is an upper bound of the true one.
  const Vec3 interior_a = (pose_a.apply(a.interior_point()) - origin) / scale;
  const Vec3 interior_b = (pose_b.apply(b.interior_point()) - origin) / scale;
  if (!pull_inside(cs, 0, ma, 0, z, interior_a, kIpmPolishPullback) ||
      !pull_inside(cs, ma, m, 3, z, interior_b, kIpmPolishPullback)) {
    return false;
  }
  const Vec3 x = origin + scale * z.head<3>();
  const Vec3 y = origin + scale * z.tail<3>();
  const double d = (y - x).norm();
  const double gap = d - scale * lower;
  if (!(gap <= kIpmSupportGapRelative * scale) || !(d > gap)) return false;
  const Vec3 normal = (y - x) / d;
  multipliers_.assign(m, 0.0);
  for (int i = 0; i < na; ++i) multipliers_[active[static_cast<std::size_t>(i)]] = lambda[static_cast<std::size_t>(i)] * scale * scale;

  report = DistanceReport{};
  report.warm_started = true;
  report.polished = true;
  report.support_certified = true;
  report.complementarity = complementarity * scale * scale;
  report.kkt_residual = stationarity.cwiseAbs().maxCoeff() * scale;
  DistanceResult& r = report.result;
  r.status = Status::converged;
  r.detail = Detail::duality_gap;
  r.iterations = steps;
  r.distance = d;
  r.intersect = false;
  r.point_a = x;
  r.point_b = y;
  r.normal = normal;
  r.gap = std::max(gap, 0.0);
  remember_warm_start(pose_a, x, pose_b, y, report.complementarity / static_cast<double>(m));
  return true;
}

void DistanceSolver::remember_warm_start(const Pose& pose_a, const Vec3& x, const Pose& pose_b, const Vec3& y,
                                         double barrier) {
  warm_valid_ = true;
  warm_a_ = pose_a.apply_inverse(x);
  warm_b_ = pose_b.apply_inverse(y);
  warm_lambda_.assign(multipliers_.begin(), multipliers_.end());
  warm_mu_ = barrier;
}

DistanceReport DistanceSolver::run(const Object& a, const Pose& pose_a, const Object& b, const Pose& pose_b,
                                   bool warm) {
  epigraph_.clear();
  const bool fallback = options_.fast_path_iterations >= 0;
  if (options_.fast_path_iterations == 0 && (has_power_terms(a) || has_power_terms(b))) {
    return run_reformulated(a, pose_a, b, pose_b, options_.max_iterations);
  }
  IpmOptions options = options_;
  if (fallback) options.max_iterations = std::min(options.max_iterations, options_.fast_path_iterations);
  // Exponents below 2 have their curvature floored near 0 (primitives.cpp, power()): the
  // quadratic slack model of the curvature backtracking does not hold there.
  if (any_exponent_below(a, 2) || any_exponent_below(b, 2)) options.curvature_backtracking = false;
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
  const Vec6 interior_start = z0;
  std::span<const double> lambda0;
  double mu0 = options_.initial_barrier;
  int polish_steps = 0;
  if (warm && options_.polish && fallback) {
    Vec6 zw;
    zw << (pose_a.apply(warm_a_) - frame.origin) / scale, (pose_b.apply(warm_b_) - frame.origin) / scale;
    polish_lambda_.assign(warm_lambda_.begin(), warm_lambda_.end());
    for (double& l : polish_lambda_) l /= scale * scale;  // world -> normalised
    DistanceReport polished;
    if (polish(a, pose_a, b, pose_b, frame.origin, scale, zw, polish_lambda_, polished, polish_steps)) {
      polished.warm_started = true;
      return polished;
    }
    options.max_iterations = std::max(0, options.max_iterations - polish_steps);
  }
  // The query's whole budget, less what a failed polish used.
  const int budget = options_.max_iterations - polish_steps;
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
  if (!warm) {  // cold start (also when the warm start could not be placed inside)
    advance_towards(cs, 0, ma, 0, z0, interior_b, kColdStartShare);
    advance_towards(cs, ma, m, 3, z0, interior_a, kColdStartShare);
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
  // The KKT certificate is out of reach at a sharp tip (see the class comment), and comes only
  // slowly at a degenerate optimum (a vertex against a face of two polytopes, more constraints
  // nearly active than needed): certify by the separating plane through the iterate z instead
  // (with the workspace's multipliers), when one side's support can be bounded exactly
  // (exact_support). Returns the gap upper - lower bound, NaN when z is not feasible.
  const bool plane_certifiable = fallback && (exact_support(a) || exact_support(b));
  const auto plane_gap = [&](const Vec6& z) {
    for (const auto& c : cs) {
      if (!(constraint_value(c, z) <= 0)) return kNaN;  // every iterate is; rounding in value() vs evaluate() aside
    }
    const Vec3 xs = frame.origin + scale * z.head<3>();
    const Vec3 ys = frame.origin + scale * z.tail<3>();
    plane_multipliers_.resize(m);  // world units; grows once per solver, no allocation after
    for (std::size_t k = 0; k < m; ++k) plane_multipliers_[k] = ws_.lambda[k] * scale * scale;
    return (ys - xs).norm() - support_lower_bound(a, pose_a, b, pose_b, xs, ys, plane_multipliers_);
  };
  // The plane bound of a tip's iterates wanders (on one diamond / hexagonal nut configuration
  // of IpmSweep it was below 1e-13 from iteration 90 to 190 and 2.9e-7 at 200), so a solve that
  // has run past kPlaneCheckFrom iterations asks for it every kPlaneCheckEvery and stops at the
  // first certified iterate rather than at whichever iterate the cap lands on.
  // The gap of the last checkpoint: a solve that ends there (Termination::checkpoint) returns that
  // very iterate with those multipliers, so certify_by_plane reuses it instead of recomputing.
  double checkpoint_gap = kNaN;
  const auto plane_checkpoint = [&](const Vec6& z) {
    checkpoint_gap = plane_gap(z);
    return checkpoint_gap <= kIpmSupportGapRelative * scale;
  };
  if (plane_certifiable) {
    options.checkpoint_from = kPlaneCheckFrom;
    options.checkpoint_every = kPlaneCheckEvery;
  }
  IpmOptions first = options;
  if (warm) first.max_iterations = std::min(first.max_iterations, kIpmWarmStartIterations);
  SolverOutput<6> out = solve(problem, z0, lambda0, mu0, first, ws_, stop, plane_checkpoint);
  bool support_certified = false;
  double support_gap = kNaN;
  const auto certify_by_plane = [&] {
    if (!plane_certifiable || out.termination == Termination::converged || out.termination == Termination::stopped) {
      return;
    }
    support_gap = out.termination == Termination::checkpoint ? checkpoint_gap : plane_gap(out.z);
    support_certified = support_gap <= kIpmSupportGapRelative * scale;
  };
  certify_by_plane();
  auto open = [&] { return out.termination != Termination::converged && out.termination != Termination::stopped; };
  if (fallback && warm && open() && !support_certified) {
    // A warm start that jams (the previous answer's active set is far from the new one: seen
    // on rounded_cuboid/pyramid after a 0.15 rad step) gets the rest of the budget from the
    // cold start; the answer is then reported as not warm-started.
    IpmOptions retry = options;
    retry.max_iterations = std::min(options.max_iterations, budget - out.iterations);
    if (retry.max_iterations > 0) {
      Vec6 zc = interior_start;
      advance_towards(cs, 0, ma, 0, zc, interior_b, kColdStartShare);
      advance_towards(cs, ma, m, 3, zc, interior_a, kColdStartShare);
      lambda0 = {};
      mu0 = options_.initial_barrier;
      warm = false;
      const int used = out.iterations;
      out = solve(problem, zc, lambda0, mu0, retry, ws_, stop, plane_checkpoint);
      out.iterations += used;
      certify_by_plane();
    }
  }
  if (fallback && open() && !support_certified && !warm && !has_power_terms(a) && !has_power_terms(b)) {
    // Pairs of flat-faced parts (exponents >= kIpmReformulateBelow: no epigraph fallback) now
    // and then jam from the advanced cold start (IpmSweep at 30,000 per pair: 10 of 630,000
    // queries, all rounded_cuboid or pyramid pairs, against 4 from the interior points; the sets
    // differ). Those get the rest of the budget from the interior points.
    IpmOptions retry = options;
    retry.max_iterations = std::min(options.max_iterations, budget - out.iterations);
    if (retry.max_iterations > 0) {
      const int used = out.iterations;
      out = solve(problem, interior_start, lambda0, mu0, retry, ws_, stop, plane_checkpoint);
      out.iterations += used;
      certify_by_plane();
    }
  }
  if (fallback && out.termination != Termination::converged && out.termination != Termination::stopped) {
    // options_.max_iterations is the budget of the whole query: the reformulation gets what the
    // direct solve left. With nothing left the direct answer is reported as it stands (its
    // status says the cap was reached), never with more iterations than the cap.
    const int remaining = budget - out.iterations;
    if (!support_certified && remaining > 0 && (has_power_terms(a) || has_power_terms(b))) {
      DistanceReport again = run_reformulated(a, pose_a, b, pose_b, remaining);
      again.result.iterations += out.iterations + polish_steps;
      return again;
    }
  }

  DistanceReport report;
  report.warm_started = warm;
  DistanceResult& r = report.result;
  r.iterations = out.iterations + polish_steps;
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
  if (support_certified) {
    r.status = Status::converged;
    r.detail = Detail::duality_gap;
    r.gap = std::max(support_gap, 0.0);
    r.intersect = !(r.distance > support_gap);
    report.support_certified = true;
  }

  // Remember the solution for a warm start (object frames, world multipliers).
  if (out.termination == Termination::converged || support_certified) {
    remember_warm_start(pose_a, x, pose_b, y, report.complementarity / static_cast<double>(m));
  } else {
    warm_valid_ = false;
  }
  return report;
}

DistanceReport DistanceSolver::run_reformulated(const Object& a, const Pose& pose_a, const Object& b,
                                                const Pose& pose_b, int max_iterations) {
  using Vec12 = Eigen::Matrix<double, 12, 1>;
  constexpr std::size_t kSlots = 6;
  const detail::Frame frame = detail::query_frame(a, pose_a, b, pose_b);
  const double scale = frame.scale;
  std::vector<Constraint<12>>& cs = constraints12_;
  cs.clear();
  detail::append_object<12>(a, pose_a, frame, 0, cs);
  detail::append_object<12>(b, pose_b, frame, 3, cs);
  const std::size_t parts = cs.size();

  const Vec3 interior_a = (pose_a.apply(a.interior_point()) - frame.origin) / scale;
  const Vec3 interior_b = (pose_b.apply(b.interior_point()) - frame.origin) / scale;
  Vec12 z0 = Vec12::Zero();
  z0 << interior_a, interior_b, Eigen::Matrix<double, 6, 1>::Zero();

  // Epigraph variables: for each power term with exponent below 2, in part order, while slots
  // last. w = row . z + w0 is the term's argument (linear in the point).
  struct Term {
    std::size_t part;
    int term;
    double exponent;
    Eigen::Matrix<double, 12, 1> row;
    double w0;
  };
  // A fixed array, not a vector: a solve allocates nothing once the solver's buffers have grown.
  std::array<Term, kSlots> term_slots;
  std::size_t term_count = 0;
  const auto add_term = [&](const Term& t) { term_slots[term_count++] = t; };
  for (std::size_t k = 0; k < parts && term_count < kSlots; ++k) {
    const Constraint<12>& c = cs[k];
    const auto& v = c.primitive->variant();
    if (const auto* sq = std::get_if<Superquadric>(&v)) {
      for (int i = 0; i < 3 && term_count < kSlots; ++i) {
        if (!(sq->exponents()[i] < kIpmReformulateBelow)) continue;
        const double inv = 1 / sq->semiaxes()[i];
        add_term({k, i, sq->exponents()[i], c.map.row(i).transpose() * inv, c.offset[i] * inv});
      }
    } else if (const auto* hq = std::get_if<Hyperquadric>(&v)) {
      for (std::size_t i = 0; i < hq->terms().size() && i < 32 && term_count < kSlots; ++i) {
        const auto& t = hq->terms()[i];
        if (!(t.exponent < kIpmReformulateBelow)) continue;
        const Vec3 normal = t.plane.head<3>();
        add_term({k, static_cast<int>(i), t.exponent, c.map.transpose() * normal, normal.dot(c.offset) + t.plane[3]});
      }
    }
  }
  // Each term |w|^p becomes r^p with r >= |w| (two linear constraints), r = z(6 + i).
  // Start: r^p = |w|^p plus a share of the part's slack, so every constraint is strictly met.
  const std::span<const Term> terms(term_slots.data(), term_count);
  // How many of the terms belong to a part (at most kSlots terms: counted, not tabulated).
  const auto terms_of_part = [&](std::size_t part) {
    return static_cast<int>(std::count_if(terms.begin(), terms.end(), [&](const Term& t) { return t.part == part; }));
  };
  exponents_.fill(1);
  for (const Term& t : terms) cs[t.part].skip |= 1U << t.term;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const Term& t = terms[i];
    const int col = 6 + static_cast<int>(i);
    const double full = -cs[t.part].primitive->value(cs[t.part].map * z0 + cs[t.part].offset);
    const double w = t.row.dot(z0) + t.w0;
    const double share = std::max(full, 0.0) / (2 * terms_of_part(t.part));
    z0(col) = std::pow(std::pow(std::abs(w), t.exponent) + share, 1 / t.exponent);
    exponents_[static_cast<std::size_t>(col)] = t.exponent;
    cs[t.part].powers |= 1U << col;
    cs[t.part].exponents = exponents_.data();
  }
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const Term& t = terms[i];
    const int col = 6 + static_cast<int>(i);
    for (double sign : {1.0, -1.0}) {
      Constraint<12> c;
      c.linear = sign * t.row;
      c.linear(col) -= 1;
      c.constant = sign * t.w0;
      cs.push_back(c);
    }
  }
  const std::span<const Constraint<12>> span(cs);

  Problem<12> problem;
  problem.j.leftCols<3>().setIdentity();
  problem.j.middleCols<3>(3) = -Mat3::Identity();
  problem.constraints = span;

  // Common point: x inside B or y inside A, by the objects' own parts (world points).
  int common = -1;
  auto inside = [](const Object& o, const Pose& pose, const Vec3& world) {
    const Vec3 p = pose.apply_inverse(world);
    for (const auto& part : o.parts()) {
      if (!(part.value(p) < 0)) return false;
    }
    return true;
  };
  auto stop = [&](const Vec12& z) {
    if (inside(b, pose_b, frame.origin + scale * z.head<3>())) {
      common = 0;
      return true;
    }
    if (inside(a, pose_a, frame.origin + scale * z.segment<3>(3))) {
      common = 1;
      return true;
    }
    return false;
  };
  IpmOptions options = options_;
  options.max_iterations = max_iterations;
  options.curvature_backtracking = false;
  const SolverOutput<12> out = solve(problem, z0, {}, options_.initial_barrier, options, ws12_, stop);

  DistanceReport report;
  report.reformulated = true;
  DistanceResult& r = report.result;
  r.iterations = out.iterations;
  const auto [status, reason] = to_status(out.termination);
  r.status = status;
  r.detail = reason;
  const Vec3 x = frame.origin + scale * out.z.head<3>();
  const Vec3 y = frame.origin + scale * out.z.segment<3>(3);
  report.complementarity = out.gap * scale * scale;
  report.kkt_residual = out.stationarity * scale;
  const double s2 = scale * scale;
  multipliers_.resize(parts);
  for (std::size_t k = 0; k < parts; ++k) multipliers_[k] = ws12_.lambda[k] * s2;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const std::size_t k = parts + 2 * i;
    epigraph_.push_back({terms[i].part, terms[i].term, terms[i].exponent, out.z(6 + static_cast<int>(i)),
                         ws12_.lambda[k] * s2, ws12_.lambda[k + 1] * s2});
  }
  warm_valid_ = false;
  if (out.termination == Termination::stopped) {
    const Vec3 p = common == 0 ? x : y;
    r.distance = 0;
    r.intersect = true;
    r.point_a = r.point_b = p;
    r.gap = 0;
    return report;
  }
  r.distance = (y - x).norm();
  r.point_a = x;
  r.point_b = y;
  if (r.distance > 0) r.normal = (y - x) / r.distance;
  // As in run(); the epigraph variables are bounded too (r <= 1), so the normalised diameter of
  // the feasible set grows by at most sqrt(#terms) <= 3 in those coordinates.
  const double excess = (out.gap + 5 * out.stationarity) * s2;
  const double lower_sq = r.distance * r.distance - excess;
  r.gap = r.distance - std::sqrt(std::max(0.0, lower_sq));
  r.intersect = !(lower_sq > 0);
  if (out.termination != Termination::converged && r.distance > 0 &&
      (exact_support(a) || exact_support(b))) {
    // As in run(): the separating plane through this answer may certify it.
    const double plane_gap = r.distance - support_lower_bound(a, pose_a, b, pose_b, x, y, multipliers_);
    if (plane_gap <= kIpmSupportGapRelative * scale) {
      r.status = Status::converged;
      r.detail = Detail::duality_gap;
      r.gap = std::max(plane_gap, 0.0);
      r.intersect = !(r.distance > plane_gap);
      report.support_certified = true;
      return report;
    }
  }
  if (out.termination == Termination::converged) {
    remember_warm_start(pose_a, x, pose_b, y, report.complementarity / static_cast<double>(cs.size()));
  }
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
