// SPDX-License-Identifier: MIT
// Private: the properness values of seed 004 section 5, shared by the exact and raster modes of
// screw_collisions. Both take the geometry in one frame (A's local frame at the start) and a
// functor that carries B's directions to the collision time.
#pragma once

#include <proxima/core/types.hpp>
#include <proxima/mesh/mesh.hpp>

#include "ccd/half_turn.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <span>
#include <utility>
#include <vector>

namespace proxima::ccd::detail {

/// FV / VF properness: min over the vertex's unit edge directions e_i (pointing away from it, each
/// passed through `rotate`) of e_i . face_normal. `positions` are the mesh's vertices in the frame
/// of face_normal before rotation.
template <class Rotate>
double vertex_properness(const mesh::Mesh& m, const std::vector<Vec3>& positions, int vertex, const Rotate& rotate,
                         const Vec3& face_normal) {
  double worst = std::numeric_limits<double>::infinity();
  for (int e : m.vertex_edges(vertex)) {
    const mesh::Edge& ed = m.edge(e);
    const int other = ed.v0 == vertex ? ed.v1 : ed.v0;
    worst = std::min(worst, rotate((positions[other] - positions[vertex]).normalized()).dot(face_normal));
  }
  return worst;
}

/// The terms of seed formula (7) for an edge-edge contact, in the order min{(n x eA).nA1,
/// -(n x eA).nA2, -(n x eB).nB1, (n x eB).nB2}, with 1 the face left of the edge (seen from outside,
/// walking v0 -> v1) and 2 the right one (left out on an open boundary: `count` 3 or 2). ua, ub:
/// unit edge directions v0 -> v1 at the collision time; normals_b are B's face normals before
/// `rotate_b`. With -n every term changes sign.
struct EdgeTerms {
  std::array<double, 4> value{};
  int count = 0;
};

template <class Rotate>
EdgeTerms edge_properness_terms(const mesh::Edge& ea, const mesh::Edge& eb, const std::vector<Vec3>& normals_a,
                                const std::vector<Vec3>& normals_b, const Vec3& ua, const Vec3& ub, const Vec3& n,
                                const Rotate& rotate_b) {
  EdgeTerms t;
  const Vec3 na = n.cross(ua), nb = n.cross(ub);
  t.value[static_cast<std::size_t>(t.count++)] = na.dot(normals_a[ea.face_left]);
  if (ea.face_right >= 0) t.value[static_cast<std::size_t>(t.count++)] = -na.dot(normals_a[ea.face_right]);
  t.value[static_cast<std::size_t>(t.count++)] = -nb.dot(rotate_b(normals_b[eb.face_left]));
  if (eb.face_right >= 0) t.value[static_cast<std::size_t>(t.count++)] = nb.dot(rotate_b(normals_b[eb.face_right]));
  return t;
}

/// EE properness, seed formula (7): the smallest of edge_properness_terms.
template <class Rotate>
double edge_properness(const mesh::Edge& ea, const mesh::Edge& eb, const std::vector<Vec3>& normals_a,
                       const std::vector<Vec3>& normals_b, const Vec3& ua, const Vec3& ub, const Vec3& n,
                       const Rotate& rotate_b) {
  const EdgeTerms t = edge_properness_terms(ea, eb, normals_a, normals_b, ua, ub, n, rotate_b);
  double worst = std::numeric_limits<double>::infinity();
  for (int i = 0; i < t.count; ++i) worst = std::min(worst, t.value[static_cast<std::size_t>(i)]);
  return worst;
}

/// Rounding allowance of the properness bounds below: a candidate is skipped only when its bound
/// is below the threshold by more than this. Unitless (properness values are dot products of unit
/// vectors).
constexpr double kPropernessMargin = 1e-9;

/// A direction a with axis x a and axis x (axis x a) (axis: the unit screw axis): what
/// max_turned_dot computes from a before it reads b, and what turning a by the screw takes, made
/// once for a direction met by many tests (the exact mode's face normals, edges and vertex edges
/// of B).
struct TurnFrame {
  Vec3 a, va, vva;
};

inline TurnFrame turn_frame(const Vec3& axis, const Vec3& a) {
  const Vec3 va = axis.cross(a);
  return {a, va, Vec3(axis.cross(va))};
}

/// max over phi in [0, theta] of (R(phi) a) . b, R(phi) the rotation by phi about the unit `axis`
/// (theta in [0, pi), cos_theta and sin_theta its cosine and sine). (R(phi) a) . b = a . b + Q + P sin phi - Q cos phi
/// with P = (axis x a) . b, Q = (axis x (axis x a)) . b, that is a . b + Q + M cos(phi - psi) with
/// M = hypot(P, Q) and psi = atan2(P, -Q): the maximum is at psi when psi lies in [0, theta] (sin
/// psi >= 0 and cos psi >= cos theta, cos decreasing on [0, pi]) and at an end otherwise.
inline double max_turned_dot(const Vec3& axis, double theta, double cos_theta, double sin_theta, const Vec3& a,
                             const Vec3& b) {
  const double ab = a.dot(b);
  if (theta == 0) return ab;
  const Vec3 va = axis.cross(a);
  const double p = va.dot(b), q = axis.cross(va).dot(b);
  const double m = std::sqrt(p * p + q * q);
  if (p >= 0 && -q >= m * cos_theta) return ab + q + m;
  return std::max(ab, ab + q + p * sin_theta - q * cos_theta);
}

/// edge_improper_near with B's unit edge direction already turned to the time (`ub`, by `turned`
/// below) and B's face normals turned by turned_normal_b(0) (left face) and turned_normal_b(1)
/// (right face), asked only when A's terms do not decide: the same operations in the same order,
/// so the same answer (the exact mode turns B's edge once per slab and edge, not per pair).
template <class TurnedNormal>
inline bool edge_improper_near_turned(const mesh::Edge& ea, const mesh::Edge& eb, const std::vector<Vec3>& normals_a,
                                      const Vec3& ua, const Vec3& ub, const TurnedNormal& turned_normal_b,
                                      double theta, double width, double threshold) {
  const Vec3 cr = ua.cross(ub);
  const double length = cr.norm();
  const double sine = length - theta * width;
  if (!(sine > 0)) return false;
  const Vec3 n = cr / length;
  const double drift = theta * width * (1 / sine + 1) + kPropernessMargin;
  const Vec3 na = n.cross(ua);
  double low = std::numeric_limits<double>::infinity(), high = -low;
  auto take = [&](double term) {
    low = std::min(low, term);
    high = std::max(high, term);
  };
  take(na.dot(normals_a[ea.face_left]));
  if (ea.face_right >= 0) take(-na.dot(normals_a[ea.face_right]));
  if (std::max(low, -high) + drift < threshold) return true;
  const Vec3 nb = n.cross(ub);
  take(-nb.dot(turned_normal_b(0)));
  if (eb.face_right >= 0) take(nb.dot(turned_normal_b(1)));
  return std::max(low, -high) + drift < threshold;
}

/// True when an edge-edge crossing of edges ea (unit direction ua, fixed) and eb (unit direction
/// ub0 at s = 0, carried by the rotation by s theta about the unit `axis`, as are B's face normals
/// normals_b) at any time within `width` of s cannot reach `threshold`, for either orientation of
/// the normal (the kept one follows B's velocity at the crossing, unknown before the root is
/// refined; -n changes the sign of every term). Each term of formula (7) is n . c with c fixed
/// (A's faces) or turning at rate theta, |c| <= 1, and n = ua x ub(s) / |ua x ub(s)| turns at most
/// theta / |ua x ub| while |ua x ub| >= |ua x ub(s)| - theta width: so within the span no term
/// moves by more than theta width (1 / that sine + 1).
/// `turned` is {sin(s theta), 1 - cos(s theta)} as EdgeTripleProduct::turn(s) gives them (callers
/// that have just evaluated the triple product at s pass its values and save a sincos); the
/// overload below computes them.
inline bool edge_improper_near(const mesh::Edge& ea, const mesh::Edge& eb, const std::vector<Vec3>& normals_a,
                               const std::vector<Vec3>& normals_b, const Vec3& ua, const Vec3& ub0, const Vec3& axis,
                               double theta, std::pair<double, double> turned, double width, double threshold) {
  const double sn = turned.first, vers = turned.second;
  auto turn = [&](const Vec3& d) {
    const Vec3 vd = axis.cross(d);
    return Vec3(d + sn * vd + vers * axis.cross(vd));
  };
  // The terms of edge_properness_terms in its order, A's (fixed) first: min and max only grow
  // apart as terms come in, so when A's alone already put max(low, -high) + drift below the
  // threshold, all of them do (the same answer), and B's turned normals are not needed.
  const auto turned_normal_b = [&](int right) { return turn(normals_b[right ? eb.face_right : eb.face_left]); };
  return edge_improper_near_turned(ea, eb, normals_a, ua, turn(ub0), turned_normal_b, theta, width, threshold);
}

/// A direction d of B carried to the time whose {sin(s theta), 1 - cos(s theta)} is `turned`, from
/// its turn_frame: d + sin v x d + (1 - cos) v x (v x d), as edge_improper_near turns it.
inline Vec3 turned(const TurnFrame& f, std::pair<double, double> turned) {
  return Vec3(f.a + turned.first * f.va + turned.second * f.vva);
}

/// {sin(s theta), 1 - cos(s theta)} from one sincos of the half angle, as EdgeTripleProduct::turn
/// computes them (callers that test many pairs at one time s compute it once).
inline std::pair<double, double> turn_at(double s, double theta) {
  return turn_of(half_turn(s * theta));
}

/// The same at time s, with turn_at(s, theta) (so both overloads give the same answer at s).
inline bool edge_improper_near(const mesh::Edge& ea, const mesh::Edge& eb, const std::vector<Vec3>& normals_a,
                               const std::vector<Vec3>& normals_b, const Vec3& ua, const Vec3& ub0, const Vec3& axis,
                               double theta, double s, double width, double threshold) {
  return edge_improper_near(ea, eb, normals_a, normals_b, ua, ub0, axis, theta, turn_at(s, theta), width, threshold);
}

/// True when a vertex's VF / FV properness against a face stays below `threshold` at every time of
/// a step that turns by `theta` about the unit `axis` (cos_theta, sin_theta its cosine and sine):
/// properness(s) = min_i e_i . n(s) <= min_i max_s e_i . n(s), so one edge whose largest dot over
/// the step is below the threshold (less kPropernessMargin) decides it. `edges_turn`: the vertex's
/// edges are carried by the rotation (FV: B's vertex), else the face normal n is (VF: B's face).
/// Every collision of such a pair would be dropped by the threshold, so callers skip the pair.
inline bool improper_all_step(const mesh::Mesh& m, const std::vector<Vec3>& positions, int vertex, const Vec3& n,
                              bool edges_turn, const Vec3& axis, double theta, double cos_theta, double sin_theta,
                              double threshold) {
  for (int e : m.vertex_edges(vertex)) {
    const mesh::Edge& ed = m.edge(e);
    const Vec3 dir = (positions[ed.v0 == vertex ? ed.v1 : ed.v0] - positions[vertex]).normalized();
    const double best = edges_turn ? max_turned_dot(axis, theta, cos_theta, sin_theta, dir, n)
                                   : max_turned_dot(axis, theta, cos_theta, sin_theta, n, dir);
    if (best < threshold - kPropernessMargin) return true;
  }
  return false;
}

/// max_turned_dot(axis, theta, cos_theta, sin_theta, f.a, b) for f = turn_frame(axis, a): the same
/// operations on the same numbers, so the same value (tests/ccd/exact_cull_test.cpp compares them).
inline double max_turned_dot(const TurnFrame& f, double theta, double cos_theta, double sin_theta, const Vec3& b) {
  const double ab = f.a.dot(b);
  if (theta == 0) return ab;
  const double p = f.va.dot(b), q = f.vva.dot(b);
  const double m = std::sqrt(p * p + q * q);
  if (p >= 0 && -q >= m * cos_theta) return ab + q + m;
  return std::max(ab, ab + q + p * sin_theta - q * cos_theta);
}

/// improper_all_step for a vertex whose unit edge directions (away from it, in vertex_edges order,
/// as improper_all_step normalises them) are given: VF (the face normal turns) with the normal's
/// frame `face` and A's fixed directions `dirs`.
inline bool improper_all_step_vf(std::span<const Vec3> dirs, const TurnFrame& face, double theta, double cos_theta,
                                 double sin_theta, double threshold) {
  for (const Vec3& dir : dirs) {
    if (max_turned_dot(face, theta, cos_theta, sin_theta, dir) < threshold - kPropernessMargin) return true;
  }
  return false;
}

/// The same for FV (the vertex's edges turn): B's edge directions as frames, A's fixed normal n.
inline bool improper_all_step_fv(std::span<const TurnFrame> dirs, const Vec3& n, double theta, double cos_theta,
                                 double sin_theta, double threshold) {
  for (const TurnFrame& dir : dirs) {
    if (max_turned_dot(dir, theta, cos_theta, sin_theta, n) < threshold - kPropernessMargin) return true;
  }
  return false;
}

}  // namespace proxima::ccd::detail
