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
/// is false. Other pairs of solids with an interior test (Polytope, Box, Ellipsoid, Cylinder,
/// Cone), on a cold start: a point of GJK's first support pair strictly inside the other solid
/// (gjk/first_support_overlap.hpp) answers overlap the same way, unless
/// options.first_support_overlap is false.
/// Cost: usually 1-4 support calls for clearly separated or deeply overlapping pairs. No heap
/// allocation. `warm` as in distance(): a previous simplex makes repeated queries on slowly
/// moving pairs exit in one or two iterations.
namespace detail {

/// intersect() with or without storing the final state into `warm` (Store false: cold overload).
template <bool Store, SupportMap A, SupportMap B>
IntersectResult intersect_impl(const A& a, const Pose& pose_a, const B& b, const Pose& pose_b,
                               const GjkOptions& options, WarmStart& warm) {
  const Pose b_in_a = relative_pose(pose_a, pose_b);
  MinkowskiDifference<A, B> md(a, b, b_in_a);
  const double scale = query_scale(a, b, b_in_a);
  if (!scale_answered<A, B>(scale)) return out_of_range_result<IntersectResult>();
  // Cylinders and cones: a common point between the axes, or in a cold run's first support pair,
  // decides an overlap without GJK; the cold run starts from that pair (as in distance(), so the
  // two agree).
  constexpr bool kRevolution = has_revolution_overlap<A, B>;
  FirstSupport start;
  if constexpr (kRevolution) {
    Vec3 common, between;
    if (options.revolution_overlap && revolution_overlap_search(md, pose_a, is_cold(warm), common, between, start)) {
      return common_point_intersect_answer();
    }
  }
  // Solids with an interior test, cold: GJK's first support pair, tested for a common point (as
  // in distance()); when it has none the run starts from it.
  constexpr bool kFirstSupport = has_first_support_overlap<A, B>;
  if constexpr (kFirstSupport) {
    if (options.first_support_overlap && is_cold(warm)) {
      start.direction = first_direction(a, b, pose_a, b_in_a, warm);
      start.point = md.support(start.direction);
      start.made = true;
      Vec3 common;
      if (first_support_common_point(a, b, b_in_a, start.direction, start.point, common)) {
        return common_point_intersect_answer();
      }
    }
  }
  if constexpr (!Store) {
    if (!options.nesterov) {  // cold, no momentum: the loop without witnesses, same answer
      IntersectRun lean;
      if ((kRevolution || kFirstSupport) && start.made) {
        run_gjk_intersect_lean(md, start.direction, scale, options, lean, &start.point.w);
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
  if ((kRevolution || kFirstSupport) && start.made) {  // kept by run_warm_gjk: made on cold starts only
    run.simplex.points[0] = start.point;
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
