// SPDX-License-Identifier: MIT
// Private: the properness values of seed 004 section 5, shared by the exact and raster modes of
// screw_collisions. Both take the geometry in one frame (A's local frame at the start) and a
// functor that carries B's directions to the collision time.
#pragma once

#include <proxima/core/types.hpp>
#include <proxima/mesh/mesh.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
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

}  // namespace proxima::ccd::detail
