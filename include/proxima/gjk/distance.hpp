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
#include <proxima/gjk/box_box.hpp>
#include <proxima/gjk/closed_form.hpp>
#include <proxima/gjk/ellipsoid_newton.hpp>
#include <proxima/gjk/minkowski_difference.hpp>
#include <proxima/gjk/options.hpp>
#include <proxima/gjk/first_support_overlap.hpp>
#include <proxima/gjk/revolution_overlap.hpp>
#include <proxima/gjk/revolution_polish.hpp>
#include <proxima/gjk/scale_range.hpp>
#include <proxima/gjk/simplex.hpp>
#include <proxima/shapes/concepts.hpp>
#include <proxima/shapes/point.hpp>

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

/// What distance() and penetration() report of a GJK run that ended apart (!run.contact), in
/// A's frame: the witness points, their distance, the certificate, and the unit normal A -> B.
struct CoreSeparation {
  Witnesses core;
  double distance = kNaN;  // |core.b - core.a|: between two points of the cores, an upper bound
  double gap = kNaN;       // distance - max(lower bound, 0) >= 0
  Vec3 normal = nan_vec3();  // -v / |v|
};

/// The distance is the witness points', not |v|: both are sum lambda_i w_i in exact arithmetic,
/// but the sub-distance routine computes v by projecting the origin on the simplex's affine hull,
/// and on a nearly flat simplex (support points clustered along a rim) that projection's rounding
/// can put |v| below the true distance (measured up to 5.6e-10 relative on cylinder/cone pairs,
/// with the best support plane above it, i.e. a gap of 0) while the witnesses stay two points of
/// the cores. Their distance is then an upper bound and the support planes a lower one: the gap
/// between the two is an honest certificate. The normal stays v's: the witness points can sit
/// off the true closest points along the surfaces (their weights are as ill-conditioned as v),
/// which barely moves their distance but turns the line through them. |v| is the fallback when
/// the witnesses' distance is 0 or not finite.
inline CoreSeparation separated_core(const GjkRun& run) {
  CoreSeparation c;
  c.core = simplex_witnesses(run.simplex);
  const double vn = std::sqrt(run.v.squaredNorm());
  const double witness_distance = (c.core.b - c.core.a).norm();
  c.distance = witness_distance > 0 && std::isfinite(witness_distance) ? witness_distance : vn;
  c.gap = std::max(0.0, c.distance - std::max(run.lower_bound, 0.0));
  c.normal = -run.v / vn;
  return c;
}

/// B's bounding-sphere centre placed in A's frame minus A's: what a cold first_direction points
/// along and what query_scale measures (written once here for both).
template <SupportMap A, SupportMap B>
Vec3 centres_offset(const A& a, const B& b, const Pose& b_in_a) {
  return b_in_a.apply(b.bounding_sphere().center) - a.bounding_sphere().center;
}

/// centres_offset and the query's scale (tolerance.hpp): both bounding-sphere radii plus the
/// centres' distance, made once for both.
struct QueryCentres {
  Vec3 offset;
  double scale = 0;
};
template <SupportMap A, SupportMap B>
QueryCentres query_centres(const A& a, const B& b, const Pose& b_in_a) {
  const Vec3 offset = centres_offset(a, b, b_in_a);
  return {offset, a.bounding_sphere().radius + b.bounding_sphere().radius + offset.norm()};
}

/// The query's scale (tolerance.hpp): query_centres' scale.
template <SupportMap A, SupportMap B>
double query_scale(const A& a, const B& b, const Pose& b_in_a) {
  return query_centres(a, b, b_in_a).scale;
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

/// Does `warm` hold a usable first direction (finite, nonzero)?
inline bool has_direction(const WarmStart& warm) {
  return warm.direction.allFinite() && warm.direction.squaredNorm() > 0;
}

/// A cold start: neither a simplex nor a direction in `warm`.
inline bool is_cold(const WarmStart& warm) { return warm.size == 0 && !has_direction(warm); }

/// The first search direction when there is no warm simplex (A's frame), given query_centres'
/// offset: the warm direction if given, else the offset (from A's bounding-sphere centre towards
/// B's), else +x.
inline Vec3 first_direction_from(const Pose& pose_a, const Vec3& offset, const WarmStart& warm) {
  if (has_direction(warm)) {
    return pose_a.rotate_inverse(warm.direction);
  }
  if (offset.squaredNorm() > 0) return offset;
  return Vec3::UnitX();
}

/// first_direction_from with the offset made here (centres_offset).
template <SupportMap A, SupportMap B>
Vec3 first_direction(const A& a, const B& b, const Pose& pose_a, const Pose& b_in_a, const WarmStart& warm) {
  return first_direction_from(pose_a, centres_offset(a, b, b_in_a), warm);
}

/// True when w equals (bitwise) a point already in the simplex: cycling guard.
inline bool is_repeated(const Simplex& s, const Vec3& w) {
  for (int i = 0; i < s.size; ++i) {
    if (s.points[static_cast<std::size_t>(i)].w == w) return true;
  }
  return false;
}

/// run_gjk_in_place without a probe (the default).
struct NoProbe {};

/// The search direction of Nesterov-accelerated GJK (Montaut et al. 2022) at iteration k: d
/// (in: the previous direction, out: the new one) mixed with momentum; returns |d|. Out of line
/// and cold: GjkOptions::nesterov is off by default, and in line its Eigen arithmetic grew the
/// default loop of every query (docs/benchmarks.md, session 23).
[[gnu::noinline, gnu::cold]] inline double nesterov_direction(int k, const Vec3& v, const Vec3& w_prev, Vec3& d) {
  const double momentum = (k + 1.0) / (k + 3.0);
  const Vec3 y = momentum * v + (1 - momentum) * w_prev;
  // Unit directions mixed (Montaut et al. normalise for polytopes; measured here it also helps
  // smooth shapes in close proximity).
  d = momentum * d.normalized() + (1 - momentum) * y.normalized();
  if (!(d.squaredNorm() > 0)) d = v;
  return d.norm();
}

/// The GJK loop on core(A) - core(B) (A's frame), starting from run.simplex (may be empty: then
/// `direction` seeds it). `margin` = sum of the margins: in intersect mode the loop stops as soon
/// as the lower bound exceeds it (separated) or |v| falls to it (overlap). The mode is a template
/// argument so each query compiles only its own tests.
template <GjkMode Mode, class Md, class Probe = NoProbe>
void run_gjk_in_place(Md& md, GjkRun& run, const Vec3& direction, double scale, const GjkOptions& options,
                      Probe* probe = nullptr) {
  const double margin = md.margin();
  const double contact_sq = options.absolute_tolerance * scale * scale;
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
  // The best support plane's direction, divided by its norm only once at the end.
  Vec3 lower_bound_d = nan_vec3();
  double lower_bound_dn = 1;
  run.status = Status::iteration_limit;
  run.detail = Detail::none;
  for (int k = 0; k < options.max_iterations; ++k) {
    if (!std::isfinite(vv)) {
      run.status = Status::degenerate_input;
      run.detail = Detail::non_finite;
      break;
    }
    // A 4-point simplex is left only when the origin is enclosed (v = 0 below any contact band).
    if (vv <= contact_sq || run.simplex.size == 4 || (Mode == GjkMode::intersect && vv <= margin * margin)) {
      run.contact = true;
      run.status = Status::converged;
      run.detail = Detail::origin_enclosed;
      break;
    }
    // |v|: the norm of d unless momentum moved d off v (d.norm() of d == v is this same value).
    const double vn = std::sqrt(vv);
    double dn = vn;
    if (nesterov) {
      dn = nesterov_direction(k, run.v, w_prev, d);
    } else {
      d = run.v;
    }
    // The new support point goes into the slot after the simplex; it becomes part of the
    // simplex only on progress (below), so the sub-distance routine reads it in place.
    const int n = run.simplex.size;
    SupportPoint& sp = run.simplex.points[static_cast<std::size_t>(n)];
    sp = md.support(-d);
    run.iterations = k + 1;
    const double plane = d.dot(sp.w) / dn;
    if (!std::isfinite(plane)) {
      run.status = Status::degenerate_input;
      run.detail = Detail::non_finite;
      break;
    }
    if (plane > run.lower_bound) {
      run.lower_bound = plane;
      lower_bound_d = d;
      lower_bound_dn = dn;
    }
    // Separated only beyond the contact band that distance() also counts as touching, so the two
    // queries agree on touching pairs.
    if (Mode == GjkMode::intersect && run.lower_bound > margin + std::sqrt(contact_sq)) {
      run.separated = true;
      run.status = Status::converged;
      run.detail = Detail::separating_axis;
      break;
    }
    const double gap = vv - vn * run.lower_bound;
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
    // Sub-distance on the simplex's w points plus sp.w (in place, no copy).
    const SubDistance sub = detail::closest_point_to_origin(SupportPointWs{run.simplex.points.data()}, n + 1);
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
    w_prev = sp.w;
    run.simplex.size = n + 1;
    keep_support_set(run.simplex, sub);
    run.v = v_next;
    vv = vv_next;
    if constexpr (!std::is_same_v<Probe, NoProbe>) {
      // The probe answered (its owner reads the answer from it): the run stops where it is.
      if (probe != nullptr && (*probe)(run.simplex, run.lower_bound)) {
        run.status = Status::converged;
        break;
      }
    }
  }
  if (lower_bound_d == lower_bound_d) run.lower_bound_direction = lower_bound_d / lower_bound_dn;
  if (run.status == Status::iteration_limit && vv <= contact_sq) run.contact = true;
  // Converged without separating: |v| and the lower bound agree, so decide on |v|.
  if (Mode == GjkMode::intersect && !run.separated && !run.contact && run.status != Status::iteration_limit) {
    run.contact = true;
  }
}

/// What the intersect-only loop leaves behind: the fields of GjkRun that intersect() reads.
struct IntersectRun {
  Vec3 lower_bound_direction = nan_vec3();  // as GjkRun's; read only when separated
  bool separated = false;
  int iterations = 0;
  Status status = Status::iteration_limit;
  Detail detail = Detail::none;
};

/// run_gjk_in_place<GjkMode::intersect> from an empty simplex without momentum (a cold
/// intersect() with options.nesterov false), keeping only what intersect() reads: the simplex
/// holds the w points alone (no witnesses: md.support_w, no weights kept), and the tests,
/// comparisons and stopping rules are run_gjk_in_place's, in its order, on the same values, so
/// every field of the answer is the same, bit for bit (tests/gjk/intersect_lean_test.cpp).
template <class Md>
void run_gjk_intersect_lean(Md& md, const Vec3& direction, double scale, const GjkOptions& options,
                            IntersectRun& run, const Vec3* first_w = nullptr) {
  const double margin = md.margin();
  const double contact_sq = options.absolute_tolerance * scale * scale;
  const double separation = margin + std::sqrt(contact_sq);
  std::array<Vec3, 4> w;  // the simplex's w points, then the candidate in slot `size`
  // `first_w`: the support point in `direction`, when the caller has it (a one-point start
  // simplex, as run_gjk_in_place's).
  w[0] = first_w != nullptr ? *first_w : md.support_w(direction);
  // reduce_simplex on one point keeps it: v = w[0] (NaN included).
  double vv = w[0].squaredNorm();
  if (!(vv == vv)) {  // NaN: run_gjk_in_place restarts from one support point
    w[0] = md.support_w(direction);
    vv = w[0].squaredNorm();
  }
  Vec3 v = w[0];
  int size = 1;
  double lower_bound = -std::numeric_limits<double>::infinity();
  Vec3 lower_bound_d = nan_vec3();
  double lower_bound_dn = 1;
  run.status = Status::iteration_limit;
  run.detail = Detail::none;
  for (int k = 0; k < options.max_iterations; ++k) {
    if (!std::isfinite(vv)) {
      run.status = Status::degenerate_input;
      run.detail = Detail::non_finite;
      break;
    }
    if (vv <= contact_sq || size == 4 || vv <= margin * margin) {
      run.status = Status::converged;
      run.detail = Detail::origin_enclosed;
      break;
    }
    const double vn = std::sqrt(vv);
    const Vec3& d = v;
    Vec3& wk = w[static_cast<std::size_t>(size)];
    wk = md.support_w(-d);
    run.iterations = k + 1;
    const double plane = d.dot(wk) / vn;
    if (!std::isfinite(plane)) {
      run.status = Status::degenerate_input;
      run.detail = Detail::non_finite;
      break;
    }
    if (plane > lower_bound) {
      lower_bound = plane;
      lower_bound_d = d;
      lower_bound_dn = vn;
    }
    if (lower_bound > separation) {
      run.separated = true;
      run.status = Status::converged;
      run.detail = Detail::separating_axis;
      break;
    }
    const double gap = vv - vn * lower_bound;
    if (gap <= options.relative_tolerance * vv || gap <= contact_sq) {
      run.status = Status::converged;
      run.detail = Detail::duality_gap;
      break;
    }
    bool repeated = false;
    for (int i = 0; i < size; ++i) repeated = repeated || w[static_cast<std::size_t>(i)] == wk;
    if (repeated) {
      run.status = Status::converged;
      run.detail = Detail::repeated_support;
      break;
    }
    const SubDistance sub = detail::closest_point_to_origin(w.data(), size + 1);
    const Vec3 v_next = sub.mask != 0 ? sub.point : nan_vec3();
    const double vv_next = v_next.squaredNorm();
    if (!(vv_next < vv)) {
      run.status = vv_next == vv_next ? Status::converged : Status::degenerate_input;
      run.detail = vv_next == vv_next ? Detail::no_progress : Detail::non_finite;
      break;
    }
    // keep_support_set on the w points.
    int kept = 0;
    for (int i = 0; i <= size; ++i) {
      if (sub.mask & (1U << i)) w[static_cast<std::size_t>(kept++)] = w[static_cast<std::size_t>(i)];
    }
    size = kept;
    v = v_next;
    vv = vv_next;
  }
  if (lower_bound_d == lower_bound_d) run.lower_bound_direction = lower_bound_d / lower_bound_dn;
}

/// The GJK loop from `start` (see run_gjk_in_place), returning its run.
template <class Md>
GjkRun run_gjk(Md& md, const Simplex& start, const Vec3& direction, double scale, const GjkOptions& options,
               GjkMode mode) {
  GjkRun run;
  run.simplex = start;
  if (mode == GjkMode::intersect) {
    run_gjk_in_place<GjkMode::intersect>(md, run, direction, scale, options);
  } else {
    run_gjk_in_place<GjkMode::distance>(md, run, direction, scale, options);
  }
  return run;
}

/// The warm-started GJK run shared by distance(), intersect() and penetration(): seeds `md`'s
/// hill-climbing hints, the start simplex and the first direction from `warm`, runs GJK, and
/// stores the final simplex and hints back into `warm` (unless `Store` is false: the cold
/// overloads, whose WarmStart dies with the call). run_warm_gjk_from: the same with the first
/// direction `dir` given, first_direction(md's shapes, pose_a, md.b_in_a(), warm), which a caller
/// holding query_centres' offset makes with first_direction_from (the same bits) instead of
/// placing B's centre again.
template <GjkMode Mode, bool Store = true, class A, class B, class Probe = NoProbe>
void run_warm_gjk_from(MinkowskiDifference<A, B>& md, const Vec3& dir, double scale, const GjkOptions& options,
                       WarmStart& warm, GjkRun& run, Probe* probe = nullptr) {
  md.hint_a_ = warm.hint_a;
  md.hint_b_ = warm.hint_b;
  if (warm.size > 0) run.simplex = load_warm_simplex(warm, md.b_in_a());
  run_gjk_in_place<Mode>(md, run, dir, scale, options, probe);
  if constexpr (Store) {
    store_warm_simplex(run.simplex, md.b_in_a(), warm);
    warm.hint_a = md.hint_a_;
    warm.hint_b = md.hint_b_;
  }
}

template <GjkMode Mode, bool Store = true, class A, class B, class Probe = NoProbe>
void run_warm_gjk(MinkowskiDifference<A, B>& md, const Pose& pose_a, double scale, const GjkOptions& options,
                  WarmStart& warm, GjkRun& run, Probe* probe = nullptr) {
  const Vec3 dir = first_direction(md.shape_a(), md.shape_b(), pose_a, md.b_in_a(), warm);
  run_warm_gjk_from<Mode, Store>(md, dir, scale, options, warm, run, probe);
}

/// run_warm_gjk with the mode given at run time, returning the run.
template <class A, class B>
GjkRun run_warm_gjk(MinkowskiDifference<A, B>& md, const Pose& pose_a, double scale, const GjkOptions& options,
                    GjkMode mode, WarmStart& warm) {
  GjkRun run;
  if (mode == GjkMode::intersect) {
    run_warm_gjk<GjkMode::intersect>(md, pose_a, scale, options, warm, run);
  } else {
    run_warm_gjk<GjkMode::distance>(md, pose_a, scale, options, warm, run);
  }
  return run;
}

/// run_warm_gjk<GjkMode::distance, Store> from `warm`, or, on a cold start (no simplex, no
/// direction in `warm`) with a finite nonzero `seed` (A's frame, a guess of the direction from A
/// to B), from that direction; the final state goes into `warm` as run_warm_gjk stores it.
template <bool Store, class A, class B, class Probe = NoProbe>
void run_seeded_gjk(MinkowskiDifference<A, B>& md, const Pose& pose_a, double scale, const GjkOptions& options,
                    WarmStart& warm, const Vec3& seed, GjkRun& run, Probe* probe = nullptr) {
  if (is_cold(warm) && seed.allFinite() && seed.squaredNorm() > 0) {
    WarmStart seeded = warm;
    seeded.direction = pose_a.rotate(seed);
    run_warm_gjk<GjkMode::distance, Store>(md, pose_a, scale, options, seeded, run, probe);
    if constexpr (Store) {
      seeded.direction = warm.direction;  // the seed was this query's guess, not the caller's
      warm = seeded;
    }
    return;
  }
  run_warm_gjk<GjkMode::distance, Store>(md, pose_a, scale, options, warm, run, probe);
}

}  // namespace detail

namespace detail {

/// distance()'s answer for an overlap shown by a common point found without GJK (world frame):
/// distance 0, that point as both witnesses, gap 0, 0 iterations, converged, origin_enclosed.
inline DistanceResult common_point_answer(const Vec3& common) {
  DistanceResult r = exact_answer();  // gap 0, 0 iterations, converged
  r.detail = Detail::origin_enclosed;
  r.distance = 0;
  r.intersect = true;
  r.point_a = common;
  r.point_b = common;
  return r;
}

/// intersect()'s answer for an overlap shown by a common point found without GJK: intersect,
/// 0 iterations, converged, origin_enclosed.
inline IntersectResult common_point_intersect_answer() {
  IntersectResult r;
  r.intersect = true;
  r.iterations = 0;
  r.status = Status::converged;
  r.detail = Detail::origin_enclosed;
  return r;
}

/// distance()'s answer from a certified RevolutionPolish (A's frame) in the world frame.
inline DistanceResult polished_answer(const RevolutionPolish& polish, const Pose& pose_a, int iterations) {
  DistanceResult r;
  r.iterations = iterations;
  r.status = Status::converged;
  r.detail = Detail::duality_gap;
  r.gap = std::max(0.0, polish.upper - polish.lower);
  r.distance = polish.upper;
  r.intersect = false;
  r.normal = pose_a.rotate(polish.normal);
  r.point_a = pose_a.apply(polish.point_a);
  r.point_b = pose_a.apply(polish.point_b);
  return r;
}

/// distance() with or without storing the final state into `warm` (Store false: the cold
/// overload, whose WarmStart dies with the call).
template <bool Store, SupportMap A, SupportMap B>
DistanceResult distance_impl(const A& a, const Pose& pose_a, const B& b, const Pose& pose_b,
                             const GjkOptions& options, WarmStart& warm) {
  if constexpr (has_closed_form_distance<A, B>) {
    if (options.closed_forms) {
      DistanceResult r = closed_form_distance(a, pose_a, b, pose_b);
      if (Store && !r.intersect) warm.direction = r.normal;
      return r;
    }
  }
  // Ellipsoid pairs: Newton's method first; when it does not certify, GJK with the iterations
  // left (the steps Newton spent count against options.max_iterations). Only when the cap leaves
  // Newton its own step cap: a capped, warm-started caller (conservative advancement runs GJK at
  // 1-3 iterations a step) keeps GJK, whose warm starts carry progress from call to call.
  int newton_steps = 0;
  const GjkOptions* gjk_options = &options;
  GjkOptions reduced;
  if constexpr (has_ellipsoid_newton_distance<A, B>) {
    if (options.ellipsoid_newton && options.max_iterations >= kEllipsoidNewtonMaxIterations) {
      DistanceResult nr;
      if (ellipsoid_newton_distance(a, pose_a, b, pose_b, options, nr)) {
        if (Store && !nr.intersect && nr.status == Status::converged) warm.direction = nr.normal;
        return nr;
      }
      newton_steps = nr.iterations;
      reduced = options;
      reduced.max_iterations = std::max(0, options.max_iterations - newton_steps);
      gjk_options = &reduced;
    }
  }
  // Box pairs: the separating-axis pre-pass; when it does not certify, GJK, seeded (cold starts
  // only) with the direction of its best points. Same iteration-cap rule as the ellipsoids.
  if constexpr (has_box_box_distance<A, B>) {
    if (options.box_box && options.max_iterations >= kBoxBoxMinIterations) {
      DistanceResult br;
      Vec3 seed;
      if (box_box_distance(a, pose_a, b, pose_b, options, br, seed)) {
        if (Store && !br.intersect && br.status == Status::converged) warm.direction = br.normal;
        return br;
      }
      if (is_cold(warm) && seed.allFinite()) {
        warm.direction = pose_a.rotate(seed);
      }
    }
  }
  const Pose b_in_a = relative_pose(pose_a, pose_b);
  MinkowskiDifference<A, B> md(a, b, b_in_a);
  const QueryCentres centres = query_centres(a, b, b_in_a);
  const double scale = centres.scale;
  if (!scale_answered<A, B>(scale)) return out_of_range_result<DistanceResult>();
  GjkRun run;
  if constexpr (has_revolution_polish<A, B>) {
    // A common point between the axes answers an overlap without GJK; when there is none, the
    // direction between the axes' closest points seeds a cold GJK run (on the benchmark's row it
    // shortens the runs of the overlapping pairs the test leaves to GJK). Declared in this block
    // only: the other pairs' instantiations stay as they were (GCC's inlining of the closed forms
    // into callers changed with one more local here, docs/benchmarks.md, session 17).
    Vec3 axes_between = nan_vec3();
    Vec3 common;
    FirstSupport start;
    const bool found = gjk_options->revolution_overlap &&
                       revolution_overlap_search(md, pose_a, is_cold(warm), common, axes_between, start);
    if (start.made) {
      // GJK's first support pair, in the direction the seeded run below takes: the run starts
      // from it (run_warm_gjk keeps the simplex on a cold start), the same run bit for bit.
      run.simplex.points[0] = start.point;
      run.simplex.size = 1;
    }
    if (found) return common_point_answer(pose_a.apply(common));
    if (gjk_options->revolution_polish && gjk_options->max_iterations > kRevolutionPolishAfter) {
      // A cone's apex and its nearest point on the other solid: a common point, or the answer
      // certified, without GJK (revolution_apex_step, gjk/revolution_overlap.hpp).
      RevolutionPolish apex;
      const ApexOutcome apex_outcome =
          revolution_apex_step(md, gjk_options->revolution_overlap, gjk_options->relative_tolerance,
                               gjk_options->absolute_tolerance, scale, apex, common);
      if (apex_outcome == ApexOutcome::common_point) return common_point_answer(pose_a.apply(common));
      if (apex_outcome == ApexOutcome::separated) {
        DistanceResult r = polished_answer(apex, pose_a, newton_steps);
        if (Store) warm.direction = r.normal;
        return r;
      }
      // The run's probe (RevolutionWitnessProbe, gjk/revolution_overlap.hpp): the witness points
      // tested for a common point while no support plane has shown the pair apart.
      RevolutionWitnessProbe<A, B> probe{md};
      RevolutionWitnessProbe<A, B>* probe_ptr = gjk_options->revolution_overlap ? &probe : nullptr;
      // Cylinders and cones: GJK as usual, in runs of kRevolutionPolishAfter iterations (the
      // pairs it settles fast keep its answer; a run the probe stops overlaps: the probe's common point);
      // once it has proven the pair separated with a direction within kRevolutionPolishStartGap,
      // the Newton polish (gjk/revolution_polish.hpp) is tried once, and GJK goes on to the cap
      // where it does not certify.
      GjkOptions part = *gjk_options;
      part.max_iterations = kRevolutionPolishAfter;
      run_seeded_gjk<false>(md, pose_a, scale, part, warm, axes_between, run, probe_ptr);
      int done = run.iterations;
      bool tried = false;
      while (run.status == Status::iteration_limit && done < gjk_options->max_iterations) {
        const double vn = std::sqrt(run.v.squaredNorm());
        if (!tried && !run.contact && run.lower_bound > 0 && vn - run.lower_bound <= kRevolutionPolishStartGap * vn) {
          tried = true;
          const Witnesses w = simplex_witnesses(run.simplex);
          RevolutionPolish polish;
          if (revolution_polish(a, b, b_in_a, Vec3(-run.v / vn), w.a, b_in_a.apply_inverse(w.b),
                                gjk_options->relative_tolerance, gjk_options->absolute_tolerance, scale, polish)) {
            DistanceResult r = polished_answer(polish, pose_a, done + polish.steps + newton_steps);
            if constexpr (Store) {
              store_warm_simplex(run.simplex, b_in_a, warm);
              warm.hint_a = md.hint_a_;
              warm.hint_b = md.hint_b_;
              warm.direction = r.normal;
            }
            return r;
          }
        }
        const int left = gjk_options->max_iterations - done;
        part.max_iterations = tried ? left : std::min(left, kRevolutionPolishAfter);
        run.contact = false;  // set by a capped run for its final |v| only; decided again
        run.iterations = 0;
        run_gjk_in_place<GjkMode::distance>(md, run, run.v, scale, part, probe_ptr);
        done += run.iterations;
      }
      if (probe.found) {
        DistanceResult r = common_point_answer(pose_a.apply(probe.common));
        r.iterations = done + newton_steps;
        return r;
      }
      run.iterations = done;
      if constexpr (Store) {
        store_warm_simplex(run.simplex, b_in_a, warm);
        warm.hint_a = md.hint_a_;
        warm.hint_b = md.hint_b_;
      }
    } else {
      run_seeded_gjk<Store>(md, pose_a, scale, *gjk_options, warm, axes_between, run);
    }
  } else {
    // GJK's first direction, from the centres' offset already made (run_warm_gjk would place B's
    // centre again).
    const Vec3 direction = first_direction_from(pose_a, centres.offset, warm);
    if constexpr (has_first_support_overlap<A, B>) {
      // Solids with an interior test (polytopes, boxes, ellipsoids, ...), cold: GJK's first
      // support pair, tested for a common point; when it has none the run starts from it
      // (run_warm_gjk keeps the simplex on a cold start), the same run bit for bit.
      if (gjk_options->first_support_overlap && is_cold(warm)) {
        run.simplex.points[0] = md.support(direction);
        run.simplex.size = 1;
        Vec3 common;
        if (first_support_common_point(a, b, b_in_a, direction, run.simplex.points[0], common)) {
          return common_point_answer(pose_a.apply(common));
        }
        if constexpr (std::is_same_v<A, Polytope> && std::is_same_v<B, Polytope>) {
          // Two polytopes: the second farthest vertices along the same direction (distance only;
          // intersect() and the batch kernels, which repeat it bit for bit, keep the one test).
          if (gjk_options->neighbour_support_overlap &&
              neighbour_support_common_point(a, b, b_in_a, direction, run.simplex.points[0], md.hint_a_, md.hint_b_,
                                             common)) {
            return common_point_answer(pose_a.apply(common));
          }
          // Then the edges at the two support vertices clipped against the other body (the shallow
          // edge crossings both vertex tests miss).
          if (gjk_options->support_edge_overlap &&
              support_edges_common_point(a, b, b_in_a, direction, run.simplex.points[0], md.hint_a_, md.hint_b_,
                                         common)) {
            return common_point_answer(pose_a.apply(common));
          }
        }
      }
    }
    run_warm_gjk_from<GjkMode::distance, Store>(md, direction, scale, *gjk_options, warm, run);
  }

  DistanceResult r;
  r.iterations = run.iterations + newton_steps;
  r.status = run.status;
  r.detail = run.detail;
  const double margin_a = proxima::margin(a);
  const double margin_b = proxima::margin(b);
  const double margins = margin_a + margin_b;
  if (run.contact) {
    r.gap = std::sqrt(run.v.squaredNorm());
    r.distance = 0;
    r.intersect = true;
    // Witness points within the contact band of each other count as one common point.
    r.point_a = pose_a.apply(contact_point(run.simplex, std::sqrt(gjk_options->absolute_tolerance) * scale));
    r.point_b = r.point_a;
    return r;
  }
  const CoreSeparation c = separated_core(run);
  r.gap = c.gap;
  if (c.distance <= margins) {
    // Cores apart but within the margins: the point splitting the core gap in the ratio of the
    // margins lies in both rounded shapes.
    r.distance = 0;
    r.intersect = true;
    const Vec3 ab = c.core.b - c.core.a;
    r.point_a = pose_a.apply(c.core.a + ab * (margin_a / margins));
    r.point_b = r.point_a;
    return r;
  }
  r.distance = c.distance - margins;
  r.intersect = false;
  r.normal = pose_a.rotate(c.normal);
  r.point_a = pose_a.apply(add_scaled(c.core.a, margin_a, c.normal));
  r.point_b = pose_a.apply(add_scaled(c.core.b, -margin_b, c.normal));
  if (Store) warm.direction = r.normal;
  return r;
}

}  // namespace detail

/// Distance between convex shapes A and B placed by `pose_a` and `pose_b` (GJK).
///
/// Sphere-sphere, sphere-box, sphere-capsule and capsule-capsule pairs (either order) are answered
/// by their exact closed forms (gjk/closed_form.hpp: gap 0, iterations 0, detail none) unless
/// options.closed_forms is false.
/// Ellipsoid-ellipsoid and ellipsoid-sphere pairs (either order) are answered by Newton's method
/// on the support functions (gjk/ellipsoid_newton.hpp: the same fields, certificate and
/// tolerances; iterations counts Newton steps) unless options.ellipsoid_newton is false; a pair
/// Newton does not certify (touching within the contact band, the rounding floor, semiaxes more
/// unequal than kEllipsoidNewtonMaxAspect) goes on to GJK, with the iterations left.
///
/// Box-Box pairs are answered by the separating-axis pre-pass (gjk/box_box.hpp: the same fields,
/// certificate and tolerances; iterations 0) unless options.box_box is false or
/// options.max_iterations < kBoxBoxMinIterations; a pair it does not certify (vertex-vertex or
/// vertex-edge closest features its projections did not settle, touching within the contact band,
/// the rounding floor) goes on to GJK, seeded with the pre-pass's direction on a cold start.
///
/// Cylinder and Cone pairs (any combination) that GJK has proven separated but not settled within
/// kRevolutionPolishAfter iterations are finished by Newton's method on the features holding the
/// closest points (gjk/revolution_polish.hpp: the same fields, certificate and tolerances;
/// iterations counts GJK's and Newton's steps) unless options.revolution_polish is false; where
/// it does not certify, GJK goes on with the iterations left. With the polish, before GJK, a
/// cone's apex and the other solid's nearest point to it answer the pair when the same
/// certificate holds (revolution_apex_step: iterations 0; unless options.revolution_overlap is
/// false, also when one of them lies strictly inside the other solid: a common point), and, unless
/// options.revolution_overlap is false, GJK's witness points are tested for a common point
/// while no support plane has shown the pair apart (RevolutionWitnessProbe: the answer as below,
/// with GJK's iterations so far). Before GJK, unless
/// options.revolution_overlap is false, a common point is looked for between the two axes
/// (gjk/revolution_overlap.hpp, closed form), and on a cold start in GJK's first support pair
/// (taken in the direction between the axes' closest points: A's farthest point towards B inside
/// B, or B's towards A inside A): when found, the answer is that point (distance 0, intersect
/// true, gap 0, iterations 0, detail origin_enclosed); when not, the cold GJK run starts from
/// that support pair.
///
/// Computes, in A's local frame, the closest point v of core(A) - core(B) to the origin, then
/// subtracts the margins of rounded shapes and converts once to the world frame:
///  - distance >= 0; point_a, point_b: closest points (world); normal: unit, A towards B;
///  - when the shapes touch or overlap: distance 0, intersect true, point_a == point_b a common
///    point, normal NaN (use gjk::penetration for the depth and its direction);
///  - gap: upper bound on (reported distance - true distance) from the Frank-Wolfe duality gap;
///  - status converged (detail duality_gap, origin_enclosed, or at the rounding floor
///    repeated_support / no_progress, in which case `gap` says how tight it is),
///    iteration_limit (best bound so far), degenerate_input (non_finite; scale_out_of_range, with
///    no answer, when the scale is outside [kGjkMinScale, kGjkMaxScale], tolerance.hpp).
/// Tolerance: options.relative_tolerance on |v|^2, options.absolute_tolerance on scale^2.
/// Cost: one support call of A and of B per iteration plus the sub-distance routine; polytope
/// pairs typically take under 10 iterations. No heap allocation.
///
/// `warm` (optional overload) seeds the run from a previous simplex (shape-local points, so any
/// pose change is fine) or direction, and receives the final simplex and hill-climbing hints.
template <SupportMap A, SupportMap B>
DistanceResult distance(const A& a, const Pose& pose_a, const B& b, const Pose& pose_b,
                        const GjkOptions& options, WarmStart& warm) {
  return detail::distance_impl<true>(a, pose_a, b, pose_b, options, warm);
}

/// Cold-start overload of distance(): same answer, no state kept. Always inlined (closed_form.hpp, rounded_answer).
template <SupportMap A, SupportMap B>
[[gnu::always_inline]] inline DistanceResult distance(const A& a, const Pose& pose_a, const B& b, const Pose& pose_b,
                        const GjkOptions& options = {}) {
  // The closed forms first, before a WarmStart is built and the GJK path's frame is entered: they
  // take 10-20 ns, of which that set-up was measured to be a third (docs/benchmarks.md, session 13).
  if constexpr (has_closed_form_distance<A, B>) {
    if (options.closed_forms) return closed_form_distance(a, pose_a, b, pose_b);
  }
  WarmStart warm;
  return detail::distance_impl<false>(a, pose_a, b, pose_b, options, warm);
}

}  // namespace proxima::gjk
