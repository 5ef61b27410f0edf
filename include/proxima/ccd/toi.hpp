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

inline void validate_toi_options(const ToiOptions& o) {
  require_positive("distance_tolerance", o.distance_tolerance);
  if (o.max_iterations < 1) throw InvalidInput("max_iterations", "must be >= 1");
}

// Conservative advancement over [0, t_max]. place(t, pose_a, pose_b) gives the poses at time t;
// closing(t, normal, normal_certified) an upper bound of the rate at which the distance can shrink
// from time t on (normal: the current unit normal from A to B, world; normal_certified: GJK
// converged, so the normal is the closest direction to its tolerance; when false the bound must
// not rely on the normal); <= 0 proves no later contact.
//
// Each step is the certified lower bound of the distance (GJK's distance minus its gap, at least
// 0) over the closing-rate bound, so advancement never steps past the first contact even when GJK
// stopped at its own cap and its distance is only an upper bound. A zero step repeats the GJK at
// the same time, warm-started, which tightens the bound; the step cap then ends it honestly.
template <SupportMap A, SupportMap B, class Place, class Closing>
ToiResult advance(const A& a, const B& b, double t_max, double scale, const ToiOptions& options, const Place& place,
                  const Closing& closing) {
  ToiResult r;
  gjk::WarmStart warm;
  double t = 0;
  const double tol = options.distance_tolerance * scale;
  for (int it = 0; it < options.max_iterations; ++it) {
    r.iterations = it + 1;
    Pose pa, pb;
    place(t, pa, pb);
    const DistanceResult d = gjk::distance(a, pa, b, pb, options.gjk, warm);
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
    const double rate = closing(t, d.normal, certified);
    if (!(rate > 0)) {
      // Not closing: with the closest direction known (convexity) or the shapes certainly apart
      // under a motion that cannot close them, there is no later contact. Otherwise refine.
      if (certified || lower_bound > tol) {
        r.normal = nan_vec3();
        return r;
      }
      continue;
    }
    if ((t += lower_bound / rate) > t_max) {  // past the end of the motion
      r.normal = nan_vec3();
      return r;
    }
  }
  r.status = Status::iteration_limit;
  r.detail = Detail::no_progress;
  r.normal = nan_vec3();
  return r;
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
/// at toi (world); normal: unit, from A towards B, at the last separated step.
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
  auto closing = [&](double, const Vec3& n, bool normal_certified) {
    return normal_certified ? -relative.dot(n) : relative.norm();
  };
  return detail::advance(a, b, t_max, detail::toi_scale(a, pose_a, b, pose_b), options, place, closing);
}

/// First contact time in [0, 1] of A moving from a_start to a_end and B from b_start to b_end when
/// their relative motion is the screw of seed 004 (decompose(relative_motion(...))), the same
/// motion screw_collisions() uses, so the two cross-check on convex polyhedra. The closing rate is
/// bounded by the largest speed of a point of B's bounding sphere along the helix,
/// sqrt(theta^2 (r_axis + radius)^2 + g^2). Results in the world frame with A placed by
/// interpolate(a_start, a_end, toi). Throws as decompose() ("rotation" at or beyond pi).
template <SupportMap A, SupportMap B>
ToiResult toi_screw(const A& a, const Pose& a_start, const Pose& a_end, const B& b, const Pose& b_start,
                    const Pose& b_end, const ToiOptions& options = {}) {
  detail::validate_toi_options(options);
  const Screw screw = decompose(relative_motion(a_start, a_end, b_start, b_end));
  const Screw a_motion = decompose(a_end * a_start.inverse());
  const Pose b_in_a = a_start.inverse() * b_start;
  const BoundingSphere sb = b.bounding_sphere();
  const double max_speed = screw.speed(screw.axis_distance(b_in_a.apply(sb.center)) + sb.radius);
  // Work in A's frame (A fixed at the identity, B at Omega(s) b_in_a), then convert to world.
  auto place = [&](double s, Pose& pa, Pose& pb) {
    pa = Pose();
    pb = screw.pose(s) * b_in_a;
  };
  auto closing = [&](double, const Vec3&, bool) { return max_speed; };
  ToiResult r = detail::advance(a, b, 1.0, detail::toi_scale(a, Pose(), b, b_in_a), options, place, closing);
  if (r.contact) {
    const Pose world_a = a_motion.pose(r.toi) * a_start;
    r.point = world_a.apply(r.point);
    r.normal = world_a.rotate(r.normal);
  }
  return r;
}

}  // namespace proxima::ccd
