// SPDX-License-Identifier: MIT
// A common point of two overlapping cylinders / cones (any combination) found in closed form,
// before GJK: gjk::distance and gjk::intersect answer an overlapping pair with it and skip GJK
// (option GjkOptions::revolution_overlap); on a pair where it finds none, both start a cold GJK
// run from the direction between the axes' closest points instead of the centres', and test that
// run's first support pair before the loop (support_pair_common_point, below); inside the run,
// distance() tests GJK's witness points the same way (RevolutionWitnessProbe, at the end).
//
// Why: GJK proves an overlap only by enclosing the origin in a tetrahedron of support points,
// 3-8 iterations of about 60 ns each on these curved shapes, while the common point of two
// overlapping solids of revolution often lies between their axes: on the benchmark's
// cylinder-cone row it answers 98 of the 125 overlapping pairs (the others overlap shallowly, off
// both segments; docs/benchmarks.md, session 17), and the support pair 15 more (session 18).
//
// The test (A's frame), on two segments from a point pa of A's axis segment to a point pb of B's:
// first the closest points of the two axis segments (gjk/closed_form.hpp,
// closest_on_unit_segments), then the two centres. Every point of an axis segment lies in its
// solid, so A holds pa + t (pb - pa) for t in [0, ta] and B holds it for t in [1 - tb, 1], where
// ta and tb are how far each solid reaches along the segment from its own axis point (ray exits
// from an inside point, closed form below). When ta + tb > 1 the two intervals overlap and their
// middle is a common point (when pa == pb, pa itself). When both segments fail nothing is
// concluded (the solids may still overlap away from those segments): GJK answers the pair as
// before. So the test can only turn a GJK answer "intersect" into the same answer reached sooner;
// it never declares separated solids overlapping beyond rounding: the point returned is within a
// few ulps (relative to the shapes' size) of both solids. Touching solids (ta + tb == 1) are left
// to GJK, whose contact band decides them as before.
//
// Cost: one segment-segment solve, then per segment two square roots and a few divisions; no
// loop. The caller has checked the query's scale (kGjkMinScale..kGjkMaxScale), so the squares
// cannot overflow.
#pragma once

#include <proxima/core/pose.hpp>
#include <proxima/core/types.hpp>
#include <proxima/gjk/closed_form.hpp>
#include <proxima/gjk/first_support_overlap.hpp>
#include <proxima/gjk/minkowski_difference.hpp>
#include <proxima/gjk/revolution_polish.hpp>
#include <proxima/gjk/simplex.hpp>
#include <proxima/shapes/cone.hpp>
#include <proxima/shapes/cylinder.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

namespace proxima::gjk {

/// True for the pairs revolution_common_point answers: Cylinder and Cone in any combination (the
/// pairs of the polish).
template <class A, class B>
inline constexpr bool has_revolution_overlap = has_revolution_polish<A, B>;

namespace detail {

/// Half length of the axis segment of a cylinder or a cone (local z in [-h, h]; the cone's apex
/// is its end at +h).
inline double axis_half_length(const Cylinder& c) { return c.half_height(); }
inline double axis_half_length(const Cone& c) { return c.half_height(); }

/// The largest t >= 0 with (0, 0, z0) + t d in the cylinder (local frame; |z0| <= half height,
/// so the start point is in it). +infinity when the ray never leaves (d == 0).
inline double ray_exit(const Cylinder& c, double z0, const Vec3& d) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  const double h = c.half_height();
  // The caps: z0 + t dz stays in [-h, h].
  const double t_cap = d.z() > 0 ? (h - z0) / d.z() : d.z() < 0 ? (h + z0) / -d.z() : inf;
  // The side: t |d_xy| <= r.
  const double sigma = std::sqrt(d.x() * d.x() + d.y() * d.y());
  const double t_side = sigma > 0 ? c.radius() / sigma : inf;
  return std::min(t_cap, t_side);
}

/// The same for a cone (base disc of radius R at z = -h, apex at z = +h): a point at height z
/// is in it when its distance rho from the axis is at most R (h - z) / (2 h), z >= -h.
inline double ray_exit(const Cone& c, double z0, const Vec3& d) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  const double h = c.half_height();
  const double slope = c.radius() / (2 * h);  // dRho / d(-z) of the side
  // The base: z0 + t dz >= -h.
  const double t_base = d.z() < 0 ? (h + z0) / -d.z() : inf;
  // The side: t |d_xy| <= slope (h - z0 - t dz), i.e. t (|d_xy| + slope dz) <= slope (h - z0).
  const double k = std::sqrt(d.x() * d.x() + d.y() * d.y()) + slope * d.z();
  const double t_side = k > 0 ? slope * (h - z0) / k : inf;
  return std::min(t_base, t_side);
}

/// Do A and B share a point of the segment from (0, 0, za) on A's axis (A's frame) to
/// (0, 0, zb) on B's axis (B's frame), |za|, |zb| within the half lengths? Each solid holds the
/// part of the segment from its own end to where a ray from that end leaves it, so they share
/// one when the two parts overlap; then `common` is the middle of the overlap (A's frame).
template <class A, class B>
bool axis_segment_common_point(const A& a, double za, const B& b, double zb, const Pose& b_in_a, Vec3& common) {
  const Vec3 pa(0, 0, za);
  const Vec3 pb = b_in_a.translation() + zb * b_in_a.rotation().col(2);
  const Vec3 d = pb - pa;
  if (!(d.squaredNorm() > 0)) {
    // The two axis points coincide (or a NaN came in: the comparison is false for it too).
    if (!pa.allFinite() || !pb.allFinite()) return false;
    common = pa;
    return true;
  }
  const double ta = ray_exit(a, za, d);
  const double tb = ray_exit(b, zb, b_in_a.rotate_inverse(-d));
  if (!(ta + tb > 1)) return false;  // also false for a NaN
  // The middle of [max(0, 1 - tb), min(1, ta)], which is not empty.
  const double t = (std::max(0.0, 1 - tb) + std::min(1.0, ta)) / 2;
  common = pa + t * d;
  return common.allFinite();
}

/// A common point of A and B (A's frame; b_in_a: B's pose in A's frame) found between their
/// axes, see the file comment; false when those segments show none (the pair may still overlap).
/// `between` is set to pb - pa of the axes' closest points (A's frame; zero when the axes meet):
/// on a separated pair, a guess of the direction from A to B that is better than the centres'
/// when the shapes are long.
template <class A, class B>
  requires has_revolution_overlap<A, B>
bool revolution_common_point(const A& a, const B& b, const Pose& b_in_a, Vec3& common, Vec3& between) {
  const double ha = axis_half_length(a), hb = axis_half_length(b);
  const Vec3& ub = b_in_a.rotation().col(2);
  Vec3 pa, pb;
  closest_on_unit_segments(Vec3::Zero(), Vec3::UnitZ(), ha, b_in_a.translation(), ub, hb, pa, pb);
  between = pb - pa;
  // First the segment between the axes' closest points, then the one between the centres (each
  // answers overlaps the other misses: 69 and 88 of the benchmark row's 125, 98 together).
  const double zb = std::clamp(ub.dot(pb - b_in_a.translation()), -hb, hb);
  return axis_segment_common_point(a, std::clamp(pa.z(), -ha, ha), b, zb, b_in_a, common) ||
         axis_segment_common_point(a, 0.0, b, 0.0, b_in_a, common);
}

/// GJK's first support pair, tested before the loop: `sa` is A's farthest point towards B and
/// `sb` B's farthest point towards A (both A's frame), so on a shallow overlap one often lies in
/// the other solid (a rim poking into a side), which the axes' segments miss. True with the
/// common point when one does. The support points are computed for GJK's first simplex anyway:
/// a failed test costs two point-in-solid tests (strictly_inside, gjk/first_support_overlap.hpp:
/// strict, so a point on the surface, e.g. of touching solids, is left to GJK's contact band).
template <class A, class B>
  requires has_revolution_overlap<A, B>
bool support_pair_common_point(const A& a, const B& b, const Pose& b_in_a, const Vec3& sa, const Vec3& sb,
                               Vec3& common) {
  if (strictly_inside(a, sb)) {
    common = sb;
    return true;
  }
  if (strictly_inside(b, b_in_a.apply_inverse(sa))) {  // sa in B's frame
    common = sa;
    return true;
  }
  return false;
}

/// The overlap search of distance() and intersect() on cylinder / cone pairs (md: the pair in A's
/// frame): the axes' segments (revolution_common_point, which sets `between`), then, on a cold
/// start (`cold`), GJK's first support pair (support_pair_common_point), made in the direction
/// between the axes' closest points through pose_a's rotation and back (as run_seeded_gjk turns
/// its seed, so a run started from it is the run seeded with `between`, bit for bit) and returned
/// in `start` for the caller's run to start from. True with `common` (A's frame) when a common
/// point is found; false when none is (the pair may still overlap: GJK decides).
template <class A, class B>
  requires has_revolution_overlap<A, B>
bool revolution_overlap_search(MinkowskiDifference<A, B>& md, const Pose& pose_a, bool cold, Vec3& common,
                               Vec3& between, FirstSupport& start) {
  if (revolution_common_point(md.shape_a(), md.shape_b(), md.b_in_a(), common, between)) return true;
  if (!cold || !between.allFinite() || !(between.squaredNorm() > 0)) return false;
  start.direction = pose_a.rotate_inverse(pose_a.rotate(between));
  start.point = md.support(start.direction);
  start.made = true;
  return support_pair_common_point(md.shape_a(), md.shape_b(), md.b_in_a(), start.point.a, start.point.b, common);
}

/// What revolution_apex_step found.
enum class ApexOutcome { none, separated, common_point };

/// The apex step of distance() on a cylinder / cone pair (md: the pair in A's frame), before GJK:
/// for each cone of the pair, its apex and the other solid's nearest point to it
/// (closest_point_on). With `overlap_tests` (option revolution_overlap), the apex strictly inside
/// the other solid, or its nearest point strictly inside the cone, is a common point (`common`,
/// A's frame; ApexOutcome::common_point): a cone's tip poking into the other solid, which the
/// axes' segments and the support pair can miss. Otherwise the two points are the answer when
/// revolution_apex_certified certifies them (the polish's certificate; ApexOutcome::separated
/// with `out`): the apex is then one of the closest points. ApexOutcome::none: nothing shown,
/// GJK decides. Cost on a pair it does not answer: per cone a projection, a support call and at
/// most two point-in-solid tests.
template <class A, class B>
  requires has_revolution_overlap<A, B>
ApexOutcome revolution_apex_step(MinkowskiDifference<A, B>& md, bool overlap_tests, double rel_tol, double abs_tol,
                                 double scale, RevolutionPolish& out, Vec3& common) {
  const Pose& b_in_a = md.b_in_a();
  const auto in_b = [&](const Vec3& x) { return b_in_a.apply_inverse(x); };  // x (A's frame) in B's frame
  if constexpr (std::is_same_v<B, Cone>) {
    const Vec3 apex_local(0, 0, md.shape_b().half_height());
    const Vec3 apex = b_in_a.apply(apex_local);
    const Vec3 near = closest_point_on(md.shape_a(), apex);
    if (near == apex) {  // the apex is in A
      if (overlap_tests && strictly_inside(md.shape_a(), apex)) {
        common = apex;
        return ApexOutcome::common_point;
      }
    } else {
      if (revolution_apex_certified(md, apex, near, false, rel_tol, abs_tol, scale, out)) return ApexOutcome::separated;
      if (overlap_tests && strictly_inside(md.shape_b(), in_b(near))) {
        common = near;
        return ApexOutcome::common_point;
      }
    }
  }
  if constexpr (std::is_same_v<A, Cone>) {
    const Vec3 apex(0, 0, md.shape_a().half_height());
    const Vec3 apex_in_b = in_b(apex);
    const Vec3 near_in_b = closest_point_on(md.shape_b(), apex_in_b);
    if (near_in_b == apex_in_b) {  // the apex is in B
      if (overlap_tests && strictly_inside(md.shape_b(), apex_in_b)) {
        common = apex;
        return ApexOutcome::common_point;
      }
    } else {
      const Vec3 near = b_in_a.apply(near_in_b);
      if (revolution_apex_certified(md, apex, near, true, rel_tol, abs_tol, scale, out)) return ApexOutcome::separated;
      if (overlap_tests && strictly_inside(md.shape_a(), near)) {
        common = near;
        return ApexOutcome::common_point;
      }
    }
  }
  return ApexOutcome::none;
}

/// The witness test distance() makes inside the GJK run of a cylinder / cone pair
/// (run_gjk_in_place's probe, called after every iteration that shortened v, with the run's
/// simplex and lower bound; true stops the run, with the answer here): while no support plane
/// has shown the pair apart (lower bound <= 0), the simplex's witness points (sum lambda_i a_i in
/// A, sum lambda_i b_i in B, A's frame) are each tested strictly inside the other solid
/// (strictly_inside); one that is is a common point (`common`, `found`). On an overlapping pair
/// GJK's witness points close in on each other (|a - b| = |v|), and one of them often enters the
/// other solid's interior before GJK's simplex encloses the origin: on the benchmark's row (seeds
/// 1-6, the 76 overlapping pairs the search before GJK leaves) 5.0 -> 4.1 iterations on average
/// (docs/benchmarks.md, session 21). A point found is in both solids up to the rounding of its
/// coordinates, as the search's points are; a false test concludes nothing (GJK goes on). Cost:
/// two point-in-solid tests (one after a change of frame) per iteration until a support plane
/// shows the pair apart; nothing after.
template <class A, class B>
struct RevolutionWitnessProbe {
  const MinkowskiDifference<A, B>& md;
  Vec3 common = nan_vec3();
  bool found = false;

  bool operator()(const Simplex& s, double lower_bound) {
    if (lower_bound > 0) return false;
    const Witnesses w = simplex_witnesses(s);
    if (strictly_inside(md.shape_a(), w.b)) {
      common = w.b;
      return found = true;
    }
    if (strictly_inside(md.shape_b(), md.b_in_a().apply_inverse(w.a))) {  // w.a in B's frame
      common = w.a;
      return found = true;
    }
    return false;
  }
};

}  // namespace detail

}  // namespace proxima::gjk
