// SPDX-License-Identifier: MIT
// GJK distance between two convex shapes given by support mappings (seed 002, sections 2-3;
// seed 003, sections 2 and 2.2), computed in A's local frame and returned in the world frame.
//
// The loop (detail::run_gjk) is shared with gjk::intersect and gjk::penetration:
//  - v_k: the point of the current simplex closest to the origin (sub-distance routine of
//    gjk/simplex.hpp); |v_k| is an upper bound on the core distance.
//  - w_k = s_{A-B}(-d_k): a support point; d_k . w_k / |d_k| is a lower bound (support plane), the
//    best one seen is kept. d_k = v_k, or Nesterov's momentum direction when enabled.
//  - stop on the Frank-Wolfe duality gap |v|^2 - |v| * lower_bound <= max(rel * |v|^2,
//    abs * scale^2) (van den Bergen), on contact (|v|^2 <= abs * scale^2 or the origin enclosed by
//    a tetrahedron), on a repeated support point, on a non-strict decrease of |v| (the rounding
//    floor, which also rejects NaN), or on the iteration cap.
// Rounded shapes (RoundedSupportMap: sphere, capsule) run on their cores; the margins are
// subtracted at the end, which is exact and takes a few iterations where the smooth shape would
// converge linearly.
#pragma once

#include <proxima/core/pose.hpp>
#include <proxima/core/results.hpp>
#include <proxima/gjk/closed_form.hpp>
#include <proxima/gjk/minkowski_difference.hpp>
#include <proxima/gjk/options.hpp>
#include <proxima/gjk/simplex.hpp>
#include <proxima/shapes/concepts.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace proxima::gjk {

namespace detail {

/// What GJK leaves behind, in A's local frame (cores only: margins not included).
struct GjkRun {
  Simplex simplex;                 // reduced simplex whose closest point is v
  Vec3 v = nan_vec3();             // closest point of the simplex: |v| >= core distance
  double lower_bound = -std::numeric_limits<double>::infinity();  // <= core distance
  Vec3 lower_bound_direction = nan_vec3();  // unit d with min_{z in A-B} d.z = lower_bound
  bool contact = false;            // the cores touch or overlap (intersect mode: within margins)
  bool separated = false;          // intersect mode: lower_bound > margins was proven
  int iterations = 0;
  Status status = Status::converged;
  Detail detail = Detail::none;
};

enum class GjkMode { distance, intersect };

/// The query's scale (tolerance.hpp): both bounding-sphere radii plus their centres' distance.
template <SupportMap A, SupportMap B>
double query_scale(const A& a, const B& b, const Pose& b_in_a) {
  const BoundingSphere sa = a.bounding_sphere();
  const BoundingSphere sb = b.bounding_sphere();
  return sa.radius + sb.radius + (sa.center - b_in_a.apply(sb.center)).norm();
}

/// Places a warm-start simplex (shape-local points) with the current relative pose.
inline Simplex load_warm_simplex(const WarmStart& warm, const Pose& b_in_a) {
  Simplex s;
  const int n = std::clamp(warm.size, 0, 4);
  for (int i = 0; i < n; ++i) {
    const auto ui = static_cast<std::size_t>(i);
    const Vec3 pb = b_in_a.apply(warm.point_b[ui]);
    s.points[ui] = {warm.point_a[ui] - pb, warm.point_a[ui], pb};
  }
  s.size = n;
  return s;
}

/// Stores a simplex (A's frame) into a warm start (shape-local points).
inline void store_warm_simplex(const Simplex& s, const Pose& b_in_a, WarmStart& warm) {
  warm.size = s.size;
  for (int i = 0; i < s.size; ++i) {
    const auto ui = static_cast<std::size_t>(i);
    warm.point_a[ui] = s.points[ui].a;
    warm.point_b[ui] = b_in_a.apply_inverse(s.points[ui].b);
  }
}

/// The first search direction when there is no warm simplex (A's frame): the warm direction if
/// given, else from A's bounding-sphere centre towards B's, else +x.
template <SupportMap A, SupportMap B>
Vec3 first_direction(const A& a, const B& b, const Pose& pose_a, const Pose& b_in_a,
                     const WarmStart& warm) {
  if (warm.direction.allFinite() && warm.direction.squaredNorm() > 0) {
    return pose_a.rotate_inverse(warm.direction);
  }
  const Vec3 d = b_in_a.apply(b.bounding_sphere().center) - a.bounding_sphere().center;
  if (d.squaredNorm() > 0) return d;
  return Vec3::UnitX();
}

/// True when w equals (bitwise) a point already in the simplex: cycling guard.
inline bool is_repeated(const Simplex& s, const Vec3& w) {
  for (int i = 0; i < s.size; ++i) {
    if (s.points[static_cast<std::size_t>(i)].w == w) return true;
  }
  return false;
}

/// The GJK loop on core(A) - core(B) (A's frame). `start` may be empty (then `direction` seeds
/// it). `margin` = sum of the margins: in intersect mode the loop stops as soon as the lower
/// bound exceeds it (separated) or |v| falls to it (overlap).
template <class Md>
GjkRun run_gjk(Md& md, const Simplex& start, const Vec3& direction, double scale,
               const GjkOptions& options, GjkMode mode) {
  GjkRun run;
  const double margin = md.margin();
  const double contact_sq = options.absolute_tolerance * scale * scale;
  run.simplex = start;
  if (run.simplex.size == 0) {
    run.simplex.points[0] = md.support(direction);
    run.simplex.size = 1;
  }
  run.v = reduce_simplex(run.simplex);
  double vv = run.v.squaredNorm();
  if (!(vv == vv)) {  // NaN from the shapes or the warm start: restart from one support point
    run.simplex.points[0] = md.support(direction);
    run.simplex.size = 1;
    run.v = reduce_simplex(run.simplex);
    vv = run.v.squaredNorm();
  }
  bool nesterov = options.nesterov;
  Vec3 d = run.v;
  Vec3 w_prev = run.v;
  run.status = Status::iteration_limit;
  run.detail = Detail::none;
  for (int k = 0; k < options.max_iterations; ++k) {
    if (!std::isfinite(vv)) {
      run.status = Status::degenerate_input;
      run.detail = Detail::non_finite;
      break;
    }
    if (vv <= contact_sq || (mode == GjkMode::intersect && vv <= margin * margin)) {
      run.contact = true;
      run.status = Status::converged;
      run.detail = Detail::origin_enclosed;
      break;
    }
    if (nesterov) {
      const double momentum = (k + 1.0) / (k + 3.0);
      const Vec3 y = momentum * run.v + (1 - momentum) * w_prev;
      // Unit directions mixed (Montaut et al. normalise for polytopes; measured here it also
      // helps smooth shapes in close proximity).
      d = momentum * d.normalized() + (1 - momentum) * y.normalized();
      if (!(d.squaredNorm() > 0)) d = run.v;
    } else {
      d = run.v;
    }
    const SupportPoint sp = md.support(-d);
    run.iterations = k + 1;
    const double dn = d.norm();
    const double plane = d.dot(sp.w) / dn;
    if (!std::isfinite(plane)) {
      run.status = Status::degenerate_input;
      run.detail = Detail::non_finite;
      break;
    }
    if (plane > run.lower_bound) {
      run.lower_bound = plane;
      run.lower_bound_direction = d / dn;
    }
    // Separated only beyond the contact band that distance() also counts as touching, so the two
    // queries agree on touching pairs.
    if (mode == GjkMode::intersect && run.lower_bound > margin + std::sqrt(contact_sq)) {
      run.separated = true;
      run.status = Status::converged;
      run.detail = Detail::separating_axis;
      break;
    }
    const double gap = vv - std::sqrt(vv) * run.lower_bound;
    if (gap <= options.relative_tolerance * vv || gap <= contact_sq) {
      run.status = Status::converged;
      run.detail = Detail::duality_gap;
      break;
    }
    // Momentum support points that can barely shorten v (|v|^2 - v.w small, seed 002 lemma 1)
    // mean the momentum has stopped paying: as Montaut et al. do, fall back to plain GJK for the
    // rest of the query. The switch test uses sqrt(relative_tolerance), i.e. about half the
    // digits: late in the run the momentum direction lags v and would stall the fine digits
    // (measured: a strict switch made ellipsoid pairs take 2.3x the iterations of plain GJK).
    if (nesterov && vv - run.v.dot(sp.w) <= std::sqrt(options.relative_tolerance) * vv) {
      nesterov = false;
      continue;
    }
    if (is_repeated(run.simplex, sp.w)) {
      if (nesterov) {
        nesterov = false;
        continue;
      }
      run.status = Status::converged;
      run.detail = Detail::repeated_support;
      break;
    }
    // Sub-distance on the w points plus sp.w; the simplex itself changes only on progress.
    // Zero-filled first: GCC 12 cannot see that only n + 1 entries are read.
    std::array<Vec3, 4> w;
    w.fill(Vec3::Zero());
    const int n = run.simplex.size;
    for (int i = 0; i < n; ++i) w[static_cast<std::size_t>(i)] = run.simplex.points[static_cast<std::size_t>(i)].w;
    w[static_cast<std::size_t>(n)] = sp.w;
    const SubDistance sub = closest_point_to_origin(w.data(), n + 1);
    const Vec3 v_next = sub.mask != 0 ? sub.point : nan_vec3();
    const double vv_next = v_next.squaredNorm();
    // Strict decrease of |v| (seed 002, theorem 1); NaN fails the comparison too.
    if (!(vv_next < vv)) {
      if (nesterov) {
        nesterov = false;
        continue;
      }
      run.status = vv_next == vv_next ? Status::converged : Status::degenerate_input;
      run.detail = vv_next == vv_next ? Detail::no_progress : Detail::non_finite;
      break;
    }
    run.simplex.points[static_cast<std::size_t>(n)] = sp;
    run.simplex.size = n + 1;
    keep_support_set(run.simplex, sub);
    run.v = v_next;
    vv = vv_next;
    w_prev = sp.w;
  }
  if (run.status == Status::iteration_limit && vv <= contact_sq) run.contact = true;
  // Converged without separating: |v| and the lower bound agree, so decide on |v|.
  if (mode == GjkMode::intersect && !run.separated && !run.contact && run.status != Status::iteration_limit) {
    run.contact = true;
  }
  return run;
}

/// The warm-started GJK run shared by distance(), intersect() and penetration(): seeds `md`'s
/// hill-climbing hints, the start simplex and the first direction from `warm`, runs GJK, and
/// stores the final simplex and hints back into `warm`.
template <class A, class B>
GjkRun run_warm_gjk(MinkowskiDifference<A, B>& md, const Pose& pose_a, double scale,
                    const GjkOptions& options, GjkMode mode, WarmStart& warm) {
  md.hint_a_ = warm.hint_a;
  md.hint_b_ = warm.hint_b;
  const Simplex start = load_warm_simplex(warm, md.b_in_a());
  const Vec3 dir = first_direction(md.shape_a(), md.shape_b(), pose_a, md.b_in_a(), warm);
  GjkRun run = run_gjk(md, start, dir, scale, options, mode);
  store_warm_simplex(run.simplex, md.b_in_a(), warm);
  warm.hint_a = md.hint_a_;
  warm.hint_b = md.hint_b_;
  return run;
}

}  // namespace detail

/// Distance between convex shapes A and B placed by `pose_a` and `pose_b` (GJK).
///
/// Sphere-sphere, sphere-box, sphere-capsule and capsule-capsule pairs (either order) are answered
/// by their exact closed forms (gjk/closed_form.hpp: gap 0, iterations 0, detail none) unless
/// options.closed_forms is false.
///
/// Computes, in A's local frame, the closest point v of core(A) - core(B) to the origin, then
/// subtracts the margins of rounded shapes and converts once to the world frame:
///  - distance >= 0; point_a, point_b: closest points (world); normal: unit, A towards B;
///  - when the shapes touch or overlap: distance 0, intersect true, point_a == point_b a common
///    point, normal NaN (use gjk::penetration for the depth and its direction);
///  - gap: upper bound on (reported distance - true distance) from the Frank-Wolfe duality gap;
///  - status converged (detail duality_gap, origin_enclosed, or at the rounding floor
///    repeated_support / no_progress, in which case `gap` says how tight it is),
///    iteration_limit (best bound so far), degenerate_input (non_finite).
/// Tolerance: options.relative_tolerance on |v|^2, options.absolute_tolerance on scale^2.
/// Cost: one support call of A and of B per iteration plus the sub-distance routine; polytope
/// pairs typically take under 10 iterations. No heap allocation.
///
/// `warm` (optional overload) seeds the run from a previous simplex (shape-local points, so any
/// pose change is fine) or direction, and receives the final simplex and hill-climbing hints.
template <SupportMap A, SupportMap B>
DistanceResult distance(const A& a, const Pose& pose_a, const B& b, const Pose& pose_b,
                        const GjkOptions& options, WarmStart& warm) {
  if constexpr (has_closed_form_distance<A, B>) {
    if (options.closed_forms) {
      DistanceResult r = closed_form_distance(a, pose_a, b, pose_b);
      if (!r.intersect) warm.direction = r.normal;
      return r;
    }
  }
  const Pose b_in_a = pose_a.inverse() * pose_b;
  MinkowskiDifference<A, B> md(a, b, b_in_a);
  const double scale = detail::query_scale(a, b, b_in_a);
  const detail::GjkRun run = detail::run_warm_gjk(md, pose_a, scale, options, detail::GjkMode::distance, warm);

  DistanceResult r;
  r.iterations = run.iterations;
  r.status = run.status;
  r.detail = run.detail;
  const Witnesses core = simplex_witnesses(run.simplex);
  const double core_distance = run.contact ? 0.0 : std::sqrt(run.v.squaredNorm());
  const double margin_a = proxima::margin(a);
  const double margin_b = proxima::margin(b);
  const double margins = margin_a + margin_b;
  r.gap = run.contact ? std::sqrt(run.v.squaredNorm())
                      : std::max(0.0, core_distance - std::max(run.lower_bound, 0.0));
  if (run.contact || core_distance <= margins) {
    r.distance = 0;
    r.intersect = true;
    Vec3 common = core.a;
    if (!run.contact && core_distance > 0) {
      // Cores apart but within the margins: the point splitting the core gap in the ratio of the
      // margins lies in both rounded shapes.
      const Vec3 n = (core.b - core.a) / core_distance;
      common = core.a + n * (core_distance * margin_a / margins);
    }
    r.point_a = pose_a.apply(common);
    r.point_b = r.point_a;
    return r;
  }
  const Vec3 n = -run.v / core_distance;  // v = a - b, so -v points from A to B
  r.distance = core_distance - margins;
  r.intersect = false;
  r.normal = pose_a.rotate(n);
  r.point_a = pose_a.apply(core.a + margin_a * n);
  r.point_b = pose_a.apply(core.b - margin_b * n);
  warm.direction = r.normal;
  return r;
}

/// Cold-start overload of distance(): same answer, no state kept.
template <SupportMap A, SupportMap B>
DistanceResult distance(const A& a, const Pose& pose_a, const B& b, const Pose& pose_b,
                        const GjkOptions& options = {}) {
  WarmStart warm;
  return distance(a, pose_a, b, pose_b, options, warm);
}

}  // namespace proxima::gjk
