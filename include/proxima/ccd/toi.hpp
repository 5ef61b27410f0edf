// SPDX-License-Identifier: MIT
// Time of first contact of two convex shapes (any SupportMap of the core) by conservative
// advancement on GJK distances (Mirtich; van den Bergen 2004, "Collision Detection in
// Interactive 3D Environments", section on continuous collision): under linear translation
// (toi_translate) and under the screw motion of seed 004 (toi_screw). Both advance time by a
// certified lower bound of the current distance divided by an upper bound of the closing speed,
// so they never step past the first contact, even with GJK capped; they stop when the distance
// falls below distance_tolerance * scale.
#pragma once

#include <proxima/ccd/screw.hpp>
#include <proxima/core/error.hpp>
#include <proxima/core/results.hpp>
#include <proxima/core/tolerance.hpp>
#include <proxima/gjk/distance.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace proxima::ccd {

/// Options of toi_translate and toi_screw.
struct ToiOptions {
  /// Contact when the distance is below this times the scale (both bounding radii plus the
  /// centres' distance at the start). Unitless.
  double distance_tolerance = kCcdToiDistanceTolerance;
  /// Cap on advancement steps (one GJK distance each).
  int max_iterations = kCcdToiMaxIterations;
  /// Options of each GJK distance.
  gjk::GjkOptions gjk{};
};

namespace detail {

/// What a step bound returns when no later contact is possible.
inline constexpr double kNoLaterContact = std::numeric_limits<double>::infinity();

inline void validate_toi_options(const ToiOptions& o) {
  require_positive("distance_tolerance", o.distance_tolerance);
  if (o.max_iterations < 1) throw InvalidInput("max_iterations", "must be >= 1");
}

// Conservative advancement over [0, t_max]. place(t, pose_a, pose_b) gives the poses at time t;
// step_bound(t, pose_a, pose_b, d, lower_bound) a time step that cannot pass the first contact,
// given GJK's answer d at time t and lower_bound, the certified lower bound of the distance
// (GJK's distance minus its gap, at least 0: an unconverged GJK distance is only an upper bound);
// it must not rely on d.normal being the closest direction unless d.status is converged.
// +infinity: no later contact.
//
// So advancement never steps past the first contact, even when GJK stopped at its own cap. A
// zero step repeats the GJK at the same time, warm-started, which tightens the bound; the step
// cap then ends it honestly.
template <SupportMap A, SupportMap B, class Place, class StepBound>
ToiResult advance(const A& a, const B& b, double t_max, double scale, const ToiOptions& options, const Place& place,
                  const StepBound& step_bound) {
  ToiResult r;
  gjk::WarmStart warm;
  double t = 0;
  const double tol = options.distance_tolerance * scale;
  for (int it = 0; it < options.max_iterations; ++it) {
    r.iterations = it + 1;
    Pose pa, pb;
    place(t, pa, pb);
    const DistanceResult d = gjk::distance(a, pa, b, pb, options.gjk, warm);
    if (d.status == Status::degenerate_input) {  // non-finite values or a scale GJK refuses
      r.status = d.status;
      r.detail = d.detail;
      r.normal = nan_vec3();
      return r;
    }
    // An unconverged GJK distance is an upper bound, so "at most tol" still proves contact.
    if (d.intersect || d.distance <= tol) {
      r.contact = true;
      r.toi = t;
      r.point = (d.point_a + d.point_b) / 2;
      r.normal = d.intersect ? r.normal : d.normal;  // at overlap keep the last separated normal
      r.status = Status::converged;
      return r;
    }
    r.normal = d.normal;
    const bool certified = d.status == Status::converged;
    const double gap = std::isfinite(d.gap) ? d.gap : d.distance;
    const double lower_bound = std::max(0.0, d.distance - gap);
    double step = step_bound(t, pa, pb, d, lower_bound);
    if (step == kNoLaterContact) {
      // Not closing: with the distance known, or the shapes certainly apart under a motion that
      // cannot close them, there is no later contact. Otherwise refine at the same time.
      if (certified || lower_bound > tol) {
        r.normal = nan_vec3();
        return r;
      }
      step = 0;
    }
    if (!(step >= 0)) step = 0;
    if ((t += step) > t_max) {  // past the end of the motion
      r.normal = nan_vec3();
      return r;
    }
  }
  r.status = Status::iteration_limit;
  r.detail = Detail::no_progress;
  r.normal = nan_vec3();
  return r;
}

// The least h >= 0 with rate h + growth h^2 / 2 = separation (separation > 0, growth >= 0): how
// long a gap lasts when it closes at most at rate + growth h; kNoLaterContact when it never
// closes. The root in the form without cancellation.
inline double time_to_close(double separation, double rate, double growth) {
  if (!(growth > 0)) return rate > 0 ? separation / rate : kNoLaterContact;
  return 2 * separation / (rate + std::sqrt(rate * rate + 2 * growth * separation));
}

// Separation of A and B along the unit direction n (world): min over B of n.x - max over A of
// n.y, from one support call each. Positive: n separates them by that much.
template <SupportMap A, SupportMap B>
double separation_along(const A& a, const Pose& pa, const B& b, const Pose& pb, const Vec3& n) {
  return n.dot(pb.apply(b.support(pb.rotate_inverse(-n)))) - n.dot(pa.apply(a.support(pa.rotate_inverse(n))));
}

template <SupportMap A, SupportMap B>
double toi_scale(const A& a, const Pose& pa, const B& b, const Pose& pb) {
  const BoundingSphere sa = a.bounding_sphere(), sb = b.bounding_sphere();
  return sa.radius + sb.radius + (pa.apply(sa.center) - pb.apply(sb.center)).norm();
}

}  // namespace detail

/// First contact time in [0, t_max] of A translating with velocity_a from pose_a and B with
/// velocity_b from pose_b (world frame, rotations fixed). contact false and toi NaN when they do
/// not touch within t_max; toi 0 when they already touch. point: midpoint of the closest points
/// at toi (world); normal: unit, from A towards B, at the last separated step (NaN when the
/// shapes already overlap at time 0: there is no separated step; toi is then 0, iterations 1).
/// Under pure translation the distance is convex in t, so a non-closing direction ends the search.
/// Cost: one GJK distance per step (warm-started); typically under 10 steps. No heap allocation.
/// Throws InvalidInput for non-finite velocities, t_max < 0, or bad options.
template <SupportMap A, SupportMap B>
ToiResult toi_translate(const A& a, const Pose& pose_a, const Vec3& velocity_a, const B& b, const Pose& pose_b,
                        const Vec3& velocity_b, double t_max, const ToiOptions& options = {}) {
  require_finite("velocity_a", velocity_a);
  require_finite("velocity_b", velocity_b);
  require_non_negative("t_max", t_max);
  detail::validate_toi_options(options);
  const Vec3 relative = velocity_b - velocity_a;
  auto place = [&](double t, Pose& pa, Pose& pb) {
    pa = Pose::from_translation(velocity_a * t) * pose_a;
    pb = Pose::from_translation(velocity_b * t) * pose_b;
  };
  // The distance is convex in t under translation, so its slope along a converged normal bounds
  // the closing rate from then on; without that normal only the relative speed bounds it.
  auto step_bound = [&](double, const Pose&, const Pose&, const DistanceResult& d, double lower_bound) {
    const double rate = d.status == Status::converged ? -relative.dot(d.normal) : relative.norm();
    return rate > 0 ? lower_bound / rate : detail::kNoLaterContact;
  };
  return detail::advance(a, b, t_max, detail::toi_scale(a, pose_a, b, pose_b), options, place, step_bound);
}

/// First contact time in [0, 1] of A moving from a_start to a_end and B from b_start to b_end when
/// their relative motion is the screw of seed 004 (decompose(relative_motion(...))), the same
/// motion screw_collisions() uses, so the two cross-check on convex polyhedra. The closing rate is
/// bounded by the largest speed of a point of B's bounding sphere along the helix,
/// sqrt(theta^2 (r_axis + radius)^2 + g^2), and, along the current normal when it separates the
/// shapes (checked by support calls), by the approach along that normal (see the step bound).
/// Results in the world frame with A placed by interpolate(a_start, a_end, toi); point and normal
/// as toi_translate's (normal NaN when the shapes overlap at the start). Throws as
/// decompose() ("rotation" at or beyond pi).
template <SupportMap A, SupportMap B>
ToiResult toi_screw(const A& a, const Pose& a_start, const Pose& a_end, const B& b, const Pose& b_start,
                    const Pose& b_end, const ToiOptions& options = {}) {
  detail::validate_toi_options(options);
  const Screw screw = decompose(relative_motion(a_start, a_end, b_start, b_end));
  const Screw a_motion = decompose(a_end * a_start.inverse());
  const Pose b_in_a = relative_pose(a_start, b_start);
  const BoundingSphere sb = b.bounding_sphere();
  const double max_speed = screw.speed(screw.axis_distance(b_in_a.apply(sb.center)) + sb.radius);
  // Work in A's frame (A fixed at the identity, B at Omega(s) b_in_a), then convert to world.
  auto place = [&](double s, Pose& pa, Pose& pb) {
    pa = Pose();
    pb = screw.pose(s) * b_in_a;
  };
  const double scale = detail::toi_scale(a, Pose(), b, b_in_a);
  // Along a direction n that separates A and B by S (measured by support calls, less the contact
  // tolerance: a support point of a smooth shape is found to within that, so GJK's normal need not
  // be trusted), B's points x approach A at -n . v(x), v(x) = theta axis x (x - c) + glide axis.
  // Two bounds of that rate, each keeping n separating until S is used up:
  //  - constant: |theta| |n x axis| (r_axis + radius) - glide (n . axis), as every point keeps its
  //    axis distance along the helix (at most max_speed);
  //  - from B's centre's own velocity now, growing as the centre's velocity turns with B:
  //    rate(s + h) <= -n . v(centre) + |theta| |n x axis| radius + theta^2 |n x axis| r_axis h,
  //    much tighter when the axis is far away (a nearly translational screw).
  // The step is the longest of these and the direction-free lower_bound / max_speed: a nearly
  // tangential approach, where max_speed overstates the closing rate, takes far fewer steps.
  const double support_slack = options.distance_tolerance * scale;
  const double centre_axis_distance = screw.axis_distance(b_in_a.apply(sb.center));
  const double turn = std::abs(screw.angle);
  auto step_bound = [&](double, const Pose& pa, const Pose& pb, const DistanceResult& d, double lower_bound) {
    double step = max_speed > 0 ? lower_bound / max_speed : detail::kNoLaterContact;
    const Vec3& n = d.normal;
    if (!n.allFinite()) return step;
    const double separation = detail::separation_along(a, pa, b, pb, n) - support_slack;
    if (!(separation > 0)) return step;
    const double across = n.cross(screw.axis).norm();
    const double glide_rate = -screw.glide * n.dot(screw.axis);
    const double constant_rate = turn * across * (centre_axis_distance + sb.radius) + glide_rate;
    if (!(constant_rate > 0)) return detail::kNoLaterContact;
    const Vec3 centre = pb.apply(sb.center);
    const double centre_rate = -screw.angle * n.dot(screw.axis.cross(centre - screw.axis_point));
    const double rate_now = centre_rate + turn * across * sb.radius + glide_rate;
    const double rate_growth = turn * turn * across * centre_axis_distance;
    return std::max({step, separation / constant_rate, detail::time_to_close(separation, rate_now, rate_growth)});
  };
  ToiResult r = detail::advance(a, b, 1.0, scale, options, place, step_bound);
  if (r.contact) {
    const Pose world_a = a_motion.pose(r.toi) * a_start;
    r.point = world_a.apply(r.point);
    r.normal = world_a.rotate(r.normal);
  }
  return r;
}

}  // namespace proxima::ccd
