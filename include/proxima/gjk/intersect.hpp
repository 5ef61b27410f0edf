// SPDX-License-Identifier: MIT
// Boolean GJK overlap test with early exit (seed 003, section 2.1, algorithm 2).
#pragma once

#include <proxima/gjk/distance.hpp>

namespace proxima::gjk {

/// Do the convex shapes A and B (placed by pose_a, pose_b) overlap or touch?
///
/// Runs the GJK loop of distance() on the cores in A's frame but stops as soon as the answer is
/// decided (seed 003, algorithm 2):
///  - separated: a support plane proves min over A-B of d.z > margins + sqrt(absolute_tolerance)
///    * scale for a direction d (beyond the band distance() reports as touching). The
///    certificate `separating_axis` (world, unit) satisfies max over A of axis.x < min over B of
///    axis.x; detail separating_axis.
///  - overlap: the simplex encloses the origin, or |v| <= margins (rounded shapes) or |v|^2 <=
///    absolute_tolerance * scale^2 (touching); detail origin_enclosed. GJK converging on the
///    duality gap without a strict separation also reports overlap (touching within tolerance).
///  - iteration cap without a decision: intersect true (the conservative answer for a collision
///    check), status iteration_limit.
/// Cylinder and Cone pairs (any combination): a common point found between the axes
/// (gjk/revolution_overlap.hpp) or, on a cold start, in GJK's first support pair (taken in the
/// direction between the axes' closest points, where the cold run then starts, as in distance())
/// answers overlap first, iterations 0, detail origin_enclosed, unless options.revolution_overlap
/// is false.
/// Cost: usually 1-4 support calls for clearly separated or deeply overlapping pairs. No heap
/// allocation. `warm` as in distance(): a previous simplex makes repeated queries on slowly
/// moving pairs exit in one or two iterations.
namespace detail {

/// intersect() with or without storing the final state into `warm` (Store false: cold overload).
template <bool Store, SupportMap A, SupportMap B>
IntersectResult intersect_impl(const A& a, const Pose& pose_a, const B& b, const Pose& pose_b,
                               const GjkOptions& options, WarmStart& warm) {
  const Pose b_in_a = pose_a.inverse() * pose_b;
  MinkowskiDifference<A, B> md(a, b, b_in_a);
  const double scale = query_scale(a, b, b_in_a);
  if (!scale_answered<A, B>(scale)) return out_of_range_result<IntersectResult>();
  // Cylinders and cones, cold starts: GJK's first support pair, taken in the direction between
  // the axes' closest points (as distance() does, so the two agree); the run starts from it.
  constexpr bool kRevolution = has_revolution_overlap<A, B>;
  SupportPoint start{};
  Vec3 start_direction;
  bool has_start = false;
  if constexpr (kRevolution) {
    // A common point between the axes, or in that support pair, decides an overlap without GJK.
    Vec3 common, between;
    bool found = options.revolution_overlap && revolution_common_point(a, b, b_in_a, common, between);
    if (!found && options.revolution_overlap && is_cold(warm) && between.allFinite() && between.squaredNorm() > 0) {
      start_direction = pose_a.rotate_inverse(pose_a.rotate(between));
      start = md.support(start_direction);
      has_start = true;
      found = support_pair_common_point(a, b, b_in_a, start.a, start.b, common);
    }
    if (found) {
      IntersectResult r;
      r.intersect = true;
      r.iterations = 0;
      r.status = Status::converged;
      r.detail = Detail::origin_enclosed;
      return r;
    }
  }
  if constexpr (!Store) {
    if (!options.nesterov) {  // cold, no momentum: the loop without witnesses, same answer
      IntersectRun lean;
      if (kRevolution && has_start) {
        run_gjk_intersect_lean(md, start_direction, scale, options, lean, &start.w);
      } else {
        run_gjk_intersect_lean(md, first_direction(a, b, pose_a, b_in_a, warm), scale, options, lean);
      }
      IntersectResult r;
      r.iterations = lean.iterations;
      r.status = lean.status;
      r.detail = lean.detail;
      r.intersect = !lean.separated;
      if (lean.separated) r.separating_axis = pose_a.rotate(-lean.lower_bound_direction);
      return r;
    }
  }
  GjkRun run;
  if (kRevolution && has_start) {  // kept by run_warm_gjk: the start is made on cold starts only
    run.simplex.points[0] = start;
    run.simplex.size = 1;
  }
  run_warm_gjk<GjkMode::intersect, Store>(md, pose_a, scale, options, warm, run);

  IntersectResult r;
  r.iterations = run.iterations;
  r.status = run.status;
  r.detail = run.detail;
  if (run.separated) {
    r.intersect = false;
    r.separating_axis = pose_a.rotate(-run.lower_bound_direction);
    if (Store) warm.direction = r.separating_axis;
  } else {
    r.intersect = true;
  }
  return r;
}

}  // namespace detail

template <SupportMap A, SupportMap B>
IntersectResult intersect(const A& a, const Pose& pose_a, const B& b, const Pose& pose_b,
                          const GjkOptions& options, WarmStart& warm) {
  return detail::intersect_impl<true>(a, pose_a, b, pose_b, options, warm);
}

/// Cold-start overload of intersect().
template <SupportMap A, SupportMap B>
IntersectResult intersect(const A& a, const Pose& pose_a, const B& b, const Pose& pose_b,
                          const GjkOptions& options = {}) {
  WarmStart warm;
  return detail::intersect_impl<false>(a, pose_a, b, pose_b, options, warm);
}

}  // namespace proxima::gjk
