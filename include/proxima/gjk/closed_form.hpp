// SPDX-License-Identifier: MIT
// Exact closed-form distances for the primitive pairs where one exists: sphere-sphere,
// sphere-box, sphere-capsule and capsule-capsule (either order). gjk::distance answers these
// pairs here unless GjkOptions::closed_forms is off; the GJK answer agrees to its tolerance
// (tests/property/closed_form_test.cpp checks both against brute force).
//
// Everything is computed in the world frame from the poses directly (no relative pose): a
// sphere is its centre, a capsule its axis segment, a box is entered once by the inverse rotation.
// Result conventions are those of gjk::distance (results.hpp): distance >= 0, point_a / point_b
// the closest points, normal unit A -> B; when the shapes touch or overlap, distance 0, intersect
// true, point_a == point_b a common point, normal NaN. gap 0 (exact up to rounding), iterations 0,
// status converged, detail none. Cost: tens of flops, no loop, no allocation.
#pragma once

#include <proxima/core/pose.hpp>
#include <proxima/core/results.hpp>
#include <proxima/core/status.hpp>
#include <proxima/core/tolerance.hpp>
#include <proxima/gjk/scale_range.hpp>
#include <proxima/shapes/box.hpp>
#include <proxima/shapes/capsule.hpp>
#include <proxima/shapes/sphere.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

namespace proxima::gjk {

namespace detail {

/// Closest points of the segments p1 + s d1 and p2 + t d2, s, t in [0, 1] (the clamped
/// two-parameter minimisation, e.g. Ericson, Real-Time Collision Detection, 5.1.9). A zero-length
/// segment is handled; parallel segments take s = 0 and the clamped t, which is a minimiser.
inline void closest_on_segments(const Vec3& p1, const Vec3& d1, const Vec3& p2, const Vec3& d2, Vec3& c1,
                                Vec3& c2) {
  const Vec3 r = p1 - p2;
  const double a = d1.squaredNorm();
  const double e = d2.squaredNorm();
  const double f = d2.dot(r);
  double s = 0;
  double t = 0;
  if (!(a > 0) && !(e > 0)) {
    s = 0, t = 0;
  } else if (!(a > 0)) {
    t = std::clamp(f / e, 0.0, 1.0);
  } else {
    const double c = d1.dot(r);
    if (!(e > 0)) {
      s = std::clamp(-c / a, 0.0, 1.0);
    } else {
      const double b = d1.dot(d2);
      const double denom = a * e - b * b;  // >= 0; 0 for parallel segments
      // 1/a and 1/e do not wait for s, so only the division by denom stays on the dependent
      // chain s -> t -> s (a multiplication by a reciprocal is within an ulp of the division).
      const double inv_a = 1 / a;
      const double inv_e = 1 / e;
      s = denom > 0 ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
      t = (b * s + f) * inv_e;
      if (t < 0) {
        t = 0;
        s = std::clamp(-c * inv_a, 0.0, 1.0);
      } else if (t > 1) {
        t = 1;
        s = std::clamp((b - c) * inv_a, 0.0, 1.0);
      }
    }
  }
  c1 = p1 + s * d1;
  c2 = p2 + t * d2;
}

/// A result with the fields every closed form sets alike: exact (gap 0), no iterations,
/// converged; the distance, points and normal are the caller's.
inline DistanceResult exact_answer() {
  DistanceResult r;
  r.gap = 0;
  r.iterations = 0;
  r.status = Status::converged;
  r.detail = Detail::none;
  return r;
}

/// The answer for cores (points of A's and B's cores, world) at distance |cb - ca| with margins
/// (radii) ra, rb: the rounded shapes' distance, closest points, normal; or a common point.
/// `core_sizes`: the cores' own extent (half-lengths, half-extents), which with the radii and
/// |cb - ca| gives the query's scale; out of range, out_of_range_result().
[[gnu::always_inline]] inline DistanceResult
rounded_answer(const Vec3& ca, double ra, const Vec3& cb, double rb, double core_sizes = 0) {
  const Vec3 diff = cb - ca;
  const double d2 = diff.squaredNorm();
  const double core = Eigen::numext::sqrt(d2);  // diff.norm()'s bits (std::sqrt would add an errno branch)
  const double margins = ra + rb;
  const double scale = core + margins + core_sizes;
  if (!scale_in_range(scale)) [[unlikely]] return out_of_range_result<DistanceResult>();
  // Always inlined, like closed_form(Capsule, Capsule), closed_form_distance and the cold distance(): in the caller,
  // dropped fields are not stored, nothing goes through memory (capsule row 18 -> 15 ns; any level left out of line
  // was slower: docs/benchmarks.md, session 26). All fields given (an aggregate; gap, iterations, status, detail as
  // exact_answer()): default-constructed then assigned, GCC called DistanceResult's constructor out of line there.
  if (core <= margins) {
    // The point splitting the core gap in the ratio of the radii lies in both shapes.
    const Vec3 common = core > 0 ? Vec3(ca + diff * (ra / margins)) : ca;
    return DistanceResult{0.0, true, common, common, nan_vec3(), 0.0, 0, Status::converged, Detail::none};
  }
  // 1 / core as core / |diff|^2: the division by |diff|^2 runs beside the root instead of after it,
  // taking a division's latency off the chain to the points (separated capsule pairs 13.1 ->
  // 12.5 ns on the benchmark's row: docs/benchmarks.md, session 34). A few ulps on n against
  // diff / core (within the closed forms' rounding-level tolerance). Where |diff|^2 is below the
  // normal range (its reciprocal would overflow) the root is divided by, as before.
  double inv_core;
  if (d2 >= std::numeric_limits<double>::min()) [[likely]] {
    inv_core = core * (1 / d2);
  } else {
    inv_core = 1 / core;
  }
  const Vec3 n = diff * inv_core;
  // add_scaled (core/types.hpp): the benchmark's translation unit kept Eigen's assignment of
  // `ca + ra * n` and `cb - rb * n` out of line (two calls through expression objects on the
  // stack); in line, the capsule pair's separated queries took 24 -> 18 ns on its row
  // (docs/benchmarks.md, session 22). The same bits as those expressions.
  return DistanceResult{core - margins, false,       add_scaled(ca, ra, n), add_scaled(cb, -rb, n), n, 0.0, 0,
                        Status::converged, Detail::none};
}

/// Endpoint and full axis vector of a capsule's core segment in the world frame.
inline void capsule_segment(const Capsule& c, const Pose& pose, Vec3& p, Vec3& d) {
  const Vec3 axis = pose.rotation().col(2) * c.half_length();
  p = pose.translation() - axis;
  d = 2 * axis;
}

inline DistanceResult closed_form(const Sphere& a, const Pose& pa, const Sphere& b, const Pose& pb) {
  return rounded_answer(pa.translation(), a.radius(), pb.translation(), b.radius());
}

inline DistanceResult closed_form(const Sphere& a, const Pose& pa, const Capsule& b, const Pose& pb) {
  Vec3 p, d;
  capsule_segment(b, pb, p, d);
  const Vec3& c = pa.translation();
  const double dd = d.squaredNorm();
  const double t = dd > 0 ? std::clamp((c - p).dot(d) / dd, 0.0, 1.0) : 0.0;
  return rounded_answer(c, a.radius(), p + t * d, b.radius(), b.half_length());
}

/// Closest points of the segments m1 + s u1, |s| <= h1 and m2 + t u2, |t| <= h2 with unit
/// directions u1, u2 (a pose's rotation columns, orthonormal to double precision, so u.u = 1 is
/// taken as exact): the clamped two-parameter minimisation of closest_on_segments in the centred
/// parametrisation, where both squared lengths are 1 and only the determinant 1 - b^2 divides
/// (closest_on_segments divides by a, e and the determinant: three divisions against one).
/// Parallel segments (u1 x u2 = 0) take s = 0 and the clamped t, then s clamped again, which is a
/// minimiser; a zero half-length clamps its parameter to 0.
/// Always inlined: with two callers (the capsule pair here, gjk/revolution_overlap.hpp) GCC 12
/// kept it out of line and the capsule pair's closed form took 14 -> 16 ns on the benchmark's row
/// (docs/benchmarks.md, session 17).
/// ClampFirst: s = +-h1 without the division where the quotient is surely beyond (same bits; the
/// capsule pair's closed form, below). Off for revolution_overlap.hpp, whose cylinder-cone row
/// took 0.25% more instructions with it and was not faster (docs/benchmarks.md, session 34).
template <bool ClampFirst = false>
[[gnu::always_inline]] inline void closest_on_unit_segments(const Vec3& m1, const Vec3& u1, double h1, const Vec3& m2, const Vec3& u2,
                                     double h2, Vec3& c1, Vec3& c2) {
  const Vec3 r = m1 - m2;
  const double b = u1.dot(u2);
  const double c = u1.dot(r);
  const double f = u2.dot(r);
  // The unconstrained s = (b f - c) / (1 - b^2). On nearly parallel axes 1 - b^2 and b f - c
  // cancel (to nothing below an angle of about 1e-8), so there both are formed by Lagrange's
  // identity with n = u1 x u2, which keeps their relative accuracy: 1 - b^2 = |n|^2 and
  // b f - c = n . (u2 x r) (threshold kCapsuleNearlyParallel, tolerance.hpp).
  double denom = 1 - b * b;
  double num = b * f - c;
  if (denom < kCapsuleNearlyParallel) {
    const Vec3 n = u1.cross(u2);
    denom = n.squaredNorm();  // 0 for parallel segments
    num = n.dot(u2.cross(r));
  }
  // Clamped without the division where num / denom is surely beyond +-h1: |num| > h1 denom
  // (1 + 2^-44) puts the rounded quotient at or beyond h1 whatever the roundings of the
  // products (each 2^-53), so the clamp gives the same s bit for bit. Saves the division's latency
  // on the pairs whose s is clamped, mostly the overlapping ones (session 29 measured and dropped
  // it alone; session 34 kept it with the normal above, which speeds up the separated ones).
  double s;
  if constexpr (ClampFirst) {
    const double lim = (h1 * (1 + 0x1p-44)) * denom;
    if (num > lim) {
      s = h1;
    } else if (num < -lim) {
      s = -h1;
    } else {
      s = denom > 0 ? std::clamp(num / denom, -h1, h1) : 0.0;
    }
  } else {
    s = denom > 0 ? std::clamp(num / denom, -h1, h1) : 0.0;
  }
  double t = b * s + f;
  if (t < -h2) {
    t = -h2;
    s = std::clamp(b * t - c, -h1, h1);
  } else if (t > h2) {
    t = h2;
    s = std::clamp(b * t - c, -h1, h1);
  }
  c1 = m1 + s * u1;
  c2 = m2 + t * u2;
}

[[gnu::always_inline]] inline DistanceResult
closed_form(const Capsule& a, const Pose& pa, const Capsule& b, const Pose& pb) {
  Vec3 c1, c2;
  closest_on_unit_segments<true>(pa.translation(), pa.rotation().col(2), a.half_length(), pb.translation(),
                           pb.rotation().col(2), b.half_length(), c1, c2);
  return rounded_answer(c1, a.radius(), c2, b.radius(), a.half_length() + b.half_length());
}

inline DistanceResult closed_form(const Sphere& a, const Pose& pa, const Box& b, const Pose& pb) {
  // The sphere's centre c in the box frame and the box point q nearest it (clamping per axis);
  // the distance is taken in the box frame (|q - c|), so it does not wait for q's world image.
  // No branch depends on where the centre lies: the answers of both cases are formed and one is
  // selected (these pairs are as often apart as overlapping, so a branch would mispredict).
  const Mat3& rot = pb.rotation();
  const Vec3& ca = pa.translation();
  const Vec3 c = rot.transpose() * (ca - pb.translation());
  const Vec3& h = b.half_extents();
  const Vec3 q = c.cwiseMax(-h).cwiseMin(h);
  const Vec3 gap_local = q - c;  // 0 when the centre is inside the box
  const double core = gap_local.norm();
  const double ra = a.radius();
  const double scale = core + ra + h.maxCoeff();
  if (!scale_in_range(scale)) return out_of_range_result<DistanceResult>();
  DistanceResult r = exact_answer();
  const Vec3 qb = pb.apply(q);  // the box point nearest the centre, world
  const bool apart = core > ra;
  // Apart: n = rot (q - c) / |q - c|. Touching or overlapping: the nearest box point is in both
  // shapes (the centre itself when it is inside the box).
  const double inv_core = apart ? 1 / core : 0.0;
  const Vec3 n = rot * (gap_local * inv_core);
  r.intersect = !apart;
  r.distance = apart ? core - ra : 0.0;
  r.normal = apart ? n : nan_vec3();
  r.point_a = apart ? add_scaled(ca, ra, n) : qb;  // in line: see rounded_answer
  r.point_b = qb;
  return r;
}

/// The answer for (B, A) turned into the answer for (A, B).
inline DistanceResult swapped(DistanceResult r) {
  std::swap(r.point_a, r.point_b);
  r.normal = -r.normal;
  return r;
}

}  // namespace detail

/// True for the pairs closed_form_distance answers: {Sphere, Capsule, Box} x {Sphere, Capsule}
/// and Sphere x Box, in either order (Box-Box and Capsule-Box have no short closed form and use
/// GJK).
template <class A, class B>
inline constexpr bool has_closed_form_distance = [] {
  constexpr bool sa = std::is_same_v<A, Sphere>, ca = std::is_same_v<A, Capsule>, ba = std::is_same_v<A, Box>;
  constexpr bool sb = std::is_same_v<B, Sphere>, cb = std::is_same_v<B, Capsule>, bb = std::is_same_v<B, Box>;
  return ((sa || ca) && (sb || cb)) || (sa && bb) || (ba && sb);
}();

/// Exact distance between A and B (world frame) for the pairs of has_closed_form_distance;
/// conventions of gjk::distance, see the file comment.
template <class A, class B>
  requires has_closed_form_distance<A, B>
[[gnu::always_inline]] inline DistanceResult
closed_form_distance(const A& a, const Pose& pose_a, const B& b, const Pose& pose_b) {
  if constexpr ((std::is_same_v<A, Capsule> && std::is_same_v<B, Sphere>) ||
                (std::is_same_v<A, Box> && std::is_same_v<B, Sphere>)) {
    return detail::swapped(detail::closed_form(b, pose_b, a, pose_a));
  } else {
    return detail::closed_form(a, pose_a, b, pose_b);
  }
}

}  // namespace proxima::gjk
