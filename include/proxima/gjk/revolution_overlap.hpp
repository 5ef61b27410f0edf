// SPDX-License-Identifier: MIT
// A common point of two overlapping cylinders / cones (any combination) found in closed form,
// before GJK: gjk::distance and gjk::intersect answer an overlapping pair with it and skip GJK
// (option GjkOptions::revolution_overlap); on a pair where it finds none, gjk::distance starts a
// cold GJK run from the direction between the axes' closest points instead of the centres'.
//
// Why: GJK proves an overlap only by enclosing the origin in a tetrahedron of support points,
// 3-8 iterations of about 60 ns each on these curved shapes, while the common point of two
// overlapping solids of revolution often lies between their axes: on the benchmark's
// cylinder-cone row it answers 69 of the 125 overlapping pairs (the others overlap shallowly, off
// that segment; docs/benchmarks.md, session 17).
//
// The test (A's frame): pa on A's axis segment and pb on B's, the closest points of the two
// segments (gjk/closed_form.hpp, closest_on_unit_segments). Every point of an axis segment lies in
// its solid, so A holds pa + t (pb - pa) for t in [0, ta] and B holds it for t in [1 - tb, 1],
// where ta and tb are how far each solid reaches along the segment from its own axis point (ray
// exits from an inside point, closed form below). When ta + tb > 1 the two intervals overlap and
// their middle is a common point (when the axes meet, pa itself). When the test fails nothing is
// concluded (the solids may still overlap away from that segment): GJK answers the pair as
// before. So the test can only turn a GJK answer "intersect" into the same answer reached sooner;
// it never declares separated solids overlapping beyond rounding: the point returned is within a
// few ulps (relative to the shapes' size) of both solids. Touching solids (ta + tb == 1) are left
// to GJK, whose contact band decides them as before.
//
// Cost: one segment-segment solve, two square roots, a few divisions; no loop. The caller has
// checked the query's scale (kGjkMinScale..kGjkMaxScale), so the squares cannot overflow.
#pragma once

#include <proxima/core/pose.hpp>
#include <proxima/core/types.hpp>
#include <proxima/gjk/closed_form.hpp>
#include <proxima/shapes/cone.hpp>
#include <proxima/shapes/cylinder.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

namespace proxima::gjk {

/// True for the pairs revolution_common_point answers: Cylinder and Cone in any combination.
template <class A, class B>
inline constexpr bool has_revolution_overlap =
    (std::is_same_v<A, Cylinder> || std::is_same_v<A, Cone>) && (std::is_same_v<B, Cylinder> || std::is_same_v<B, Cone>);

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

/// A common point of A and B (A's frame; b_in_a: B's pose in A's frame) found between their
/// axes, see the file comment; false when that segment shows none (the pair may still overlap).
/// `between` is set to pb - pa (A's frame; zero when the axes meet): on a separated pair, a
/// guess of the direction from A to B that is better than the centres' when the shapes are long.
template <class A, class B>
  requires has_revolution_overlap<A, B>
bool revolution_common_point(const A& a, const B& b, const Pose& b_in_a, Vec3& common, Vec3& between) {
  const Vec3 ua = Vec3::UnitZ();
  const Vec3 ub = b_in_a.rotation().col(2);
  Vec3 pa, pb;
  closest_on_unit_segments(Vec3::Zero(), ua, axis_half_length(a), b_in_a.translation(), ub, axis_half_length(b), pa,
                           pb);
  const Vec3 d = pb - pa;
  between = d;
  if (!(d.squaredNorm() > 0)) {
    // The axes meet (or a NaN came in: the comparison is false for it too, so check).
    if (!pa.allFinite()) return false;
    common = pa;
    return true;
  }
  // pa = (0, 0, pa.z) in A's frame; pb = (0, 0, zb) in B's, with zb its offset along B's axis.
  const double ta = ray_exit(a, pa.z(), d);
  const double zb = ub.dot(pb - b_in_a.translation());
  const double tb = ray_exit(b, std::clamp(zb, -axis_half_length(b), axis_half_length(b)),
                             b_in_a.rotation().transpose() * Vec3(-d));
  if (ta + tb > 1) {
    // The middle of [max(0, 1 - tb), min(1, ta)], which is not empty.
    const double t = (std::max(0.0, 1 - tb) + std::min(1.0, ta)) / 2;
    common = pa + t * d;
    return common.allFinite();
  }
  return false;  // also for a NaN (every comparison with it is false)
}

}  // namespace detail

}  // namespace proxima::gjk
