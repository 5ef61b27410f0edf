// SPDX-License-Identifier: MIT
#include <proxima/ipm/continuous.hpp>

#include <proxima/core/error.hpp>
#include <proxima/ipm/distance.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace proxima::ipm {
namespace {

template <int N>
using VecN = Eigen::Matrix<double, N, 1>;

template <int N>
bool all_inside(const std::vector<Constraint<N>>& cs, std::size_t first, std::size_t last, const VecN<N>& z) {
  for (std::size_t k = first; k < last; ++k) {
    if (!detail::strictly_inside(cs[k], z)) return false;
  }
  return true;
}

/// 0 <= z(col) <= 1 as two linear constraints.
template <int N>
void append_unit_bounds(int col, std::vector<Constraint<N>>& cs) {
  Constraint<N> lower;
  lower.linear(col) = -1;
  cs.push_back(lower);
  Constraint<N> upper;
  upper.linear(col) = 1;
  upper.constant = -1;
  cs.push_back(upper);
}

/// The object's parts acting on the point (z.segment<3>(column) - sum_i shift_i * z(time_i)):
/// the object at time (or path position) z(time_i), moved by shift_i (normalised) per unit.
template <int N>
void append_moving(const Object& object, const Pose& pose, const detail::Frame& frame, int column,
                   std::initializer_list<std::pair<int, Vec3>> shifts, std::vector<Constraint<N>>& cs) {
  const std::size_t first = cs.size();
  detail::append_object<N>(object, pose, frame, column, cs);
  for (std::size_t k = first; k < cs.size(); ++k) {
    const Mat3 block = cs[k].map.template middleCols<3>(column);
    for (const auto& [col, shift] : shifts) cs[k].map.col(col) -= block * shift;
  }
}

/// Smallest slack -c_k(z) over the constraints (negative when z is outside one).
template <int N>
double smallest_slack(const std::vector<Constraint<N>>& cs, const VecN<N>& z) {
  double smallest = std::numeric_limits<double>::infinity();
  for (const auto& c : cs) smallest = std::min(smallest, -constraint_value(c, z));
  return smallest;
}

/// A start for the first-contact retry that is well inside every constraint. The common point
/// found by eq. 17 is only known to be inside: its stop check fires on the first iterate inside
/// both objects, usually A's interior point, which may graze B's boundary or be a point where
/// A's gradient and curvature vanish (the can's centre: exponents above 2), so the Schur matrix
/// lacks A's terms and its Cholesky fails at the first iteration. The smallest slack is concave along any
/// segment (each constraint is convex), so golden-section search for its maximum on the
/// segments from `start` towards each object's interior point (at the start's time) is
/// unimodal and never returns a point worse than `start` (kept feasible by construction).
template <int N>
VecN<N> deepen_start(const std::vector<Constraint<N>>& cs, const VecN<N>& start,
                     std::initializer_list<VecN<N>> targets) {
  constexpr int kProbes = 8;  // interval shrinks to 0.618^8 ~ 2e-2 of the segment: deep enough
  const double ratio = (std::sqrt(5.0) - 1) / 2;
  VecN<N> best = start;
  double best_slack = smallest_slack(cs, start);
  for (const VecN<N>& target : targets) {
    const VecN<N> step = target - start;
    if (step.isZero(0)) continue;  // the start is that object's interior point (the usual case)
    auto slack_at = [&](double theta) { return smallest_slack<N>(cs, start + theta * step); };
    double lo = 0, hi = 1;
    double left = hi - ratio * (hi - lo), right = lo + ratio * (hi - lo);
    double f_left = slack_at(left), f_right = slack_at(right);
    for (int probe = 2; probe < kProbes; ++probe) {
      if (f_left < f_right) {
        lo = left;
        left = right;
        f_left = f_right;
        right = lo + ratio * (hi - lo);
        f_right = slack_at(right);
      } else {
        hi = right;
        right = left;
        f_right = f_left;
        left = hi - ratio * (hi - lo);
        f_left = slack_at(left);
      }
    }
    const double theta = f_left < f_right ? right : left;
    const double slack = std::max(f_left, f_right);
    if (slack > best_slack) {
      best_slack = slack;
      best = start + theta * step;
    }
  }
  return best;
}

/// Iteration cap of the first-contact solve's fast path (Mehrotra) before the conservative
/// path-following retry; the median query takes ~20 in all (both solves share max_iterations).
constexpr int kToiFastPathIterations = 100;

void require_velocity(const char* field, const Vec3& v) { require_finite(field, v); }

}  // namespace

IntervalResult interval_translate(const Object& a, const Pose& pose_a, const Vec3& velocity_a, const Object& b,
                                  const Pose& pose_b, const Vec3& velocity_b, double t_max,
                                  const IpmOptions& options) {
  require_velocity("velocity_a", velocity_a);
  require_velocity("velocity_b", velocity_b);
  require_non_negative("t_max", t_max);
  // Normalised unknowns z = (x0, y0, tau): x0, y0 the points at t = 0, t = tau * t_max.
  detail::Frame frame = detail::query_frame(a, pose_a, b, pose_b);
  const Vec3 da = velocity_a * t_max, db = velocity_b * t_max;
  frame.scale += (da - db).norm();
  const double scale = frame.scale;
  const Vec3 dan = da / scale, dbn = db / scale;

  std::vector<Constraint<7>> cs;
  detail::append_object<7>(a, pose_a, frame, 0, cs);
  const std::size_t ma = cs.size();
  detail::append_object<7>(b, pose_b, frame, 3, cs);
  const std::size_t mab = cs.size();
  append_unit_bounds<7>(6, cs);

  Problem<7> p;
  p.j.leftCols<3>().setIdentity();
  p.j.middleCols<3>(3) = -Mat3::Identity();
  p.j.col(6) = dan - dbn;
  p.constraints = cs;
  VecN<7> z0;
  z0 << (pose_a.apply(a.interior_point()) - frame.origin) / scale,
      (pose_b.apply(b.interior_point()) - frame.origin) / scale, 0.5;

  // Common point at time tau: x(tau) inside B(tau) <=> B's parts at y0 = x0 + (da - db) tau.
  VecN<7> common = VecN<7>::Constant(kNaN);
  auto stop = [&](const VecN<7>& z) {
    VecN<7> probe = z;
    probe.segment<3>(3) = z.head<3>() + (dan - dbn) * z(6);
    if (all_inside<7>(cs, ma, mab, probe)) {
      common = probe;
      return true;
    }
    probe = z;
    probe.head<3>() = z.segment<3>(3) - (dan - dbn) * z(6);
    if (all_inside<7>(cs, 0, ma, probe)) {
      common = probe;
      return true;
    }
    return false;
  };
  Workspace<7> ws;
  const SolverOutput<7> out = solve(p, z0, {}, options.initial_barrier, options, ws, stop);

  IntervalResult r;
  r.iterations = out.iterations;
  const auto [status, reason] = to_status(out.termination);
  r.status = status;
  r.detail = reason;
  r.complementarity = out.gap * scale * scale;
  r.kkt_residual = out.stationarity * scale;
  const VecN<7> z = out.termination == Termination::stopped ? common : out.z;
  r.min_time = z(6) * t_max;
  r.point_a = frame.origin + scale * (z.head<3>() + dan * z(6));
  r.point_b = frame.origin + scale * (z.segment<3>(3) + dbn * z(6));
  if (out.termination == Termination::stopped) {
    r.min_distance = 0;
    r.intersect = true;
    r.point_b = r.point_a;
    return r;
  }
  r.min_distance = (r.point_b - r.point_a).norm();
  if (r.min_distance > 0) r.normal = (r.point_b - r.point_a) / r.min_distance;
  const double excess = (out.gap + 2 * out.stationarity) * scale * scale;
  r.intersect = !(r.min_distance * r.min_distance > excess);
  return r;
}

ToiResult toi_translate(const Object& a, const Pose& pose_a, const Vec3& velocity_a, const Object& b,
                        const Pose& pose_b, const Vec3& velocity_b, double t_max, const IpmOptions& options) {
  const IntervalResult closest = interval_translate(a, pose_a, velocity_a, b, pose_b, velocity_b, t_max, options);
  ToiResult r;
  r.iterations = closest.iterations;
  r.status = closest.status;
  r.detail = closest.detail;
  if (!closest.intersect || closest.status != Status::converged) return r;
  r.contact = true;
  if (closest.detail != Detail::origin_enclosed || t_max == 0) {
    // Touching only (no common interior point): first contact is the closest approach.
    r.toi = closest.min_time;
    r.point = (closest.point_a + closest.point_b) / 2;
    r.normal = closest.normal;
    return r;
  }
  // Eq. 18 in normalised unknowns z = (q, tau): q - da tau in A(0), q - db tau in B(0).
  detail::Frame frame = detail::query_frame(a, pose_a, b, pose_b);
  const Vec3 da = velocity_a * t_max, db = velocity_b * t_max;
  frame.scale += da.norm() + db.norm();
  const double scale = frame.scale;
  std::vector<Constraint<4>> cs;
  append_moving<4>(a, pose_a, frame, 0, {{3, da / scale}}, cs);
  const std::size_t ma = cs.size();
  append_moving<4>(b, pose_b, frame, 0, {{3, db / scale}}, cs);
  append_unit_bounds<4>(3, cs);
  Problem<4> p;
  p.g(3) = 1;
  p.constraints = cs;
  VecN<4> common;
  common << (closest.point_a - frame.origin) / scale, closest.min_time / t_max;
  Workspace<4> ws;

  // Outward normal of A (first = 0, last = ma) or B (ma, m) at the iterate: the sum of that
  // object's multipliers times their gradients in q.
  auto normal_of = [&](std::size_t first, std::size_t last) {
    Vec3 n = Vec3::Zero();
    for (std::size_t k = first; k < last; ++k) n += ws.lambda[k] * ws.grad[k].head<3>();
    return n;
  };
  // At a sharp edge of a part with exponents below 2 the stationarity of eq. 18 cannot be
  // certified in floating point (solver.hpp). The first contact is then certified by a
  // separating plane: the iterate is feasible, so its time is an upper bound of the first
  // contact, and a plane of normal n that separates the objects at t = 0 by `gap` keeps
  // separating them until gap / (n . (da - db)), a lower bound. Candidates for n: A's normal,
  // B's (reversed) and their bisector; they differ by the stationarity error, and at an edge
  // the sharp object's support is insensitive to n, so the other object's normal is the tight one.
  auto certified_by_plane = [&](const SolverOutput<4>& out) {
    const std::size_t parts = cs.size() - 2;  // the unit bounds on tau are not the objects' parts
    const Vec3 na = normal_of(0, ma), nb = -normal_of(ma, parts);
    if (!(na.norm() > 0 && nb.norm() > 0) || !na.allFinite() || !nb.allFinite()) return false;
    const double tau = out.z(3);
    const Vec3 point = frame.origin + scale * out.z.head<3>();
    std::vector<double> nu(parts);
    double tau_lower = 0;
    for (const Vec3& candidate : {na, nb, Vec3(na.normalized() + nb.normalized())}) {
      if (!(candidate.norm() > 0)) continue;
      const Vec3 n = candidate.normalized();
      // Multipliers of max n.a over A and max -n.b over B, from the solver's (world units).
      for (std::size_t k = 0; k < parts; ++k) nu[k] = ws.lambda[k] * scale / (k < ma ? na.norm() : nb.norm());
      const double gap = plane_separation(a, pose_a, b, pose_b, n, point - da * tau, point - db * tau, nu);
      const double closing = n.dot(da - db);
      if (closing > 0) tau_lower = std::max(tau_lower, gap / closing);
    }
    return tau - tau_lower <= kIpmSupportGapRelative;
  };
  auto never_stop = [](const VecN<4>&) { return false; };

  // Mehrotra's centring can drive mu to ~1e-5 in two long steps from the common point while the
  // iterate is still far from the optimum (time 0.44 for 0.19); on the diamond's curved
  // boundary it then jams (steps ~1e-7, a few queries in 2000). So the fast path gets a share of
  // the budget, and what it does not certify is solved again by the conservative path-following
  // (fixed centring) from a deeper start; both solves share options.max_iterations.
  IpmOptions fast = options;
  fast.max_iterations = std::min(options.max_iterations, kToiFastPathIterations);
  SolverOutput<4> out = solve(p, common, {}, options.initial_barrier, fast, ws, never_stop);
  bool plane_certified = out.termination != Termination::converged && certified_by_plane(out);
  if (out.termination != Termination::converged && !plane_certified && options.max_iterations > out.iterations) {
    IpmOptions conservative = options;
    conservative.predictor_corrector = false;
    conservative.max_iterations = options.max_iterations - out.iterations;
    // Each object's interior point at the common point's time, in the unknowns (q, tau).
    VecN<4> centre_a = common, centre_b = common;
    centre_a.head<3>() = (pose_a.apply(a.interior_point()) - frame.origin + da * common(3)) / scale;
    centre_b.head<3>() = (pose_b.apply(b.interior_point()) - frame.origin + db * common(3)) / scale;
    const VecN<4> deeper = deepen_start<4>(cs, common, {centre_a, centre_b});
    const int used = out.iterations;
    out = solve(p, deeper, {}, options.initial_barrier, conservative, ws, never_stop);
    out.iterations += used;
    plane_certified = out.termination != Termination::converged && certified_by_plane(out);
  }
  r.iterations += out.iterations;
  const auto [status, reason] = plane_certified ? std::pair{Status::converged, Detail::duality_gap}
                                                : to_status(out.termination);
  r.status = status;
  r.detail = reason;
  r.toi = out.z(3) * t_max;
  r.point = frame.origin + scale * out.z.head<3>();
  const Vec3 n = normal_of(0, ma);
  if (n.norm() > 0) r.normal = n.normalized();
  return r;
}

CollisionIntervals collision_intervals(const Object& a, const Pose& pose_a, const Vec3& direction_a, double length_a,
                                       const Object& b, const Pose& pose_b, const Vec3& direction_b, double length_b,
                                       const IpmOptions& options) {
  require_finite("direction_a", direction_a);
  require_finite("direction_b", direction_b);
  if (!(direction_a.norm() > 0)) throw InvalidInput("direction_a", "must not be zero");
  if (!(direction_b.norm() > 0)) throw InvalidInput("direction_b", "must not be zero");
  require_non_negative("length_a", length_a);
  require_non_negative("length_b", length_b);
  const Vec3 ga = direction_a.normalized() * length_a, gb = direction_b.normalized() * length_b;
  detail::Frame frame = detail::query_frame(a, pose_a, b, pose_b);
  frame.scale += ga.norm() + gb.norm();
  const double scale = frame.scale;
  const Vec3 gan = ga / scale, gbn = gb / scale;
  CollisionIntervals r;

  // Step 1: min |x - y|^2 with x in A(sigma_a), y in B(sigma_b); z = (x0, y0, sigma_a, sigma_b).
  std::vector<Constraint<8>> c8;
  detail::append_object<8>(a, pose_a, frame, 0, c8);
  const std::size_t ma = c8.size();
  detail::append_object<8>(b, pose_b, frame, 3, c8);
  const std::size_t mab = c8.size();
  append_unit_bounds<8>(6, c8);
  append_unit_bounds<8>(7, c8);
  Problem<8> p8;
  p8.j.leftCols<3>().setIdentity();
  p8.j.middleCols<3>(3) = -Mat3::Identity();
  p8.j.col(6) = gan;
  p8.j.col(7) = -gbn;
  p8.constraints = c8;
  VecN<8> z0;
  z0 << (pose_a.apply(a.interior_point()) - frame.origin) / scale,
      (pose_b.apply(b.interior_point()) - frame.origin) / scale, 0.5, 0.5;
  VecN<4> start = VecN<4>::Constant(kNaN);  // common point (normalised, world) and path fractions
  Eigen::Vector2d fractions;
  auto stop = [&](const VecN<8>& z) {
    const Vec3 x = z.head<3>() + gan * z(6);  // A's point at its path position
    const Vec3 y = z.segment<3>(3) + gbn * z(7);
    VecN<8> probe = z;
    probe.segment<3>(3) = x - gbn * z(7);
    if (all_inside<8>(c8, ma, mab, probe)) {
      start.head<3>() = x;
      fractions << z(6), z(7);
      return true;
    }
    probe = z;
    probe.head<3>() = y - gan * z(6);
    if (all_inside<8>(c8, 0, ma, probe)) {
      start.head<3>() = y;
      fractions << z(6), z(7);
      return true;
    }
    return false;
  };
  Workspace<8> ws8;
  const SolverOutput<8> first = solve(p8, z0, {}, options.initial_barrier, options, ws8, stop);
  r.iterations = first.iterations;
  if (first.termination != Termination::stopped) {
    const auto [status, reason] = to_status(first.termination);
    r.status = status;
    r.detail = reason;
    return r;
  }
  r.collide = true;

  // Step 2: z = (q, sigma_a, sigma_b) with q - ga sigma_a in A(0), q - gb sigma_b in B(0);
  // minimise and maximise each sigma.
  std::vector<Constraint<5>> c5;
  append_moving<5>(a, pose_a, frame, 0, {{3, gan}}, c5);
  append_moving<5>(b, pose_b, frame, 0, {{4, gbn}}, c5);
  append_unit_bounds<5>(3, c5);
  append_unit_bounds<5>(4, c5);
  Problem<5> p5;
  p5.constraints = c5;
  VecN<5> z5;
  z5 << start.head<3>(), fractions;
  Workspace<5> ws5;
  double extremes[4];
  for (int variant = 0; variant < 4; ++variant) {
    const int col = 3 + variant / 2;
    const double sign = variant % 2 == 0 ? 1 : -1;  // minimise, then maximise
    p5.g.setZero();
    p5.g(col) = sign;
    const SolverOutput<5> out = solve(p5, z5, {}, options.initial_barrier, options, ws5, [](const VecN<5>&) { return false; });
    r.iterations += out.iterations;
    if (out.termination != Termination::converged) {
      const auto [status, reason] = to_status(out.termination);
      r.status = status;
      r.detail = reason;
    }
    // The optimum is at most `gap` beyond the (interior) iterate.
    extremes[variant] = std::clamp(out.z(col) - sign * std::abs(out.gap), 0.0, 1.0);
  }
  r.s_a_min = extremes[0] * length_a;
  r.s_a_max = extremes[1] * length_a;
  r.s_b_min = extremes[2] * length_b;
  r.s_b_max = extremes[3] * length_b;
  return r;
}

}  // namespace proxima::ipm
