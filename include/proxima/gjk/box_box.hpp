// SPDX-License-Identifier: MIT
// Distance between two boxes by the separating-axis test and the closest points of the features
// it names, with the certificate of gjk::distance; GJK when it cannot certify. gjk::distance runs
// it first on Box-Box pairs unless GjkOptions::box_box is off.
//
// Everything is computed in A's frame: B's axes are the columns of R = R_A^T R_B, its centre t.
//  1. Separating-axis test on the 15 axes (3 face normals of each box, 9 edge cross products;
//     a cross product shorter than kBoxBoxMinCrossNorm, nearly parallel edges, is skipped).
//  2. No axis separates: the boxes overlap (exactly so when no axis was skipped). A common point
//     is looked for on the centre line (the part of segment centre A - centre B inside both),
//     then on the 12 edges of each box clipped by the other (Liang-Barsky): when two convex
//     polytopes meet, a vertex of their intersection lies on an edge of one of them. The point is
//     checked inside the other box as evaluated (a centre-line point: inside both); none found
//     (touching, rounding, a skipped axis that separates): not answered.
//  3. An axis separates: the closest points of the features it names, the support feature of
//     each box along it: face of A (B's support vertex and its closest point in A, a clamp), face
//     of B (the same the other way round), or an edge of each (the closest points of the two
//     segments). When the true closest features are a face and a vertex or two edges, their
//     axis is among the 15 and attains the largest separation, so these points are the answer to
//     rounding; otherwise (vertex-vertex, vertex-edge) two alternating projections (closest point
//     of B to the point of A, of A to that) improve them.
// Certificate, as GJK's (gjk/distance.hpp): with points pA in A, pB in B, U = |pB - pA| and
// n = (pB - pA) / U, the support planes along n give the lower bound L = n.t - h_A(n) - h_B(n);
// answered when U^2 - U L <= max(relative_tolerance U^2, absolute_tolerance scale^2) and
// U^2 > absolute_tolerance scale^2 (GJK's contact band: such pairs go to GJK, which decides
// touching). Otherwise (a vertex-vertex or vertex-edge pair the projections did not settle, the
// rounding floor near touching) it returns "not answered", with the direction n as a seed for GJK.
#pragma once

#include <proxima/core/pose.hpp>
#include <proxima/core/results.hpp>
#include <proxima/core/status.hpp>
#include <proxima/core/tolerance.hpp>
#include <proxima/gjk/closed_form.hpp>
#include <proxima/gjk/options.hpp>
#include <proxima/gjk/scale_range.hpp>
#include <proxima/shapes/box.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <utility>

namespace proxima::gjk {

/// True for the pairs box_box_distance answers: Box x Box.
template <class A, class B>
inline constexpr bool has_box_box_distance = std::is_same_v<A, Box> && std::is_same_v<B, Box>;

namespace detail {

/// Box B seen from box A's frame.
struct BoxPairFrame {
  Mat3 r;  // B's axes (columns) in A's frame
  Vec3 t;  // B's centre in A's frame
  Vec3 ha;
  Vec3 hb;

  /// Support point of B along d (A's frame), sign(0) = +1 as Box::support.
  Vec3 support_b(const Vec3& d) const { return t + r * box_signs(transpose_times(r, d), hb); }
  /// The point of B nearest p (A's frame): clamp in B's frame.
  Vec3 closest_in_b(const Vec3& p) const {
    const Vec3 u = transpose_times(r, p - t);
    return t + r * u.cwiseMax(-hb).cwiseMin(hb);
  }
  bool inside_a(const Vec3& p) const { return (p.cwiseAbs().array() <= ha.array()).all(); }
  bool inside_b(const Vec3& p) const {
    return (transpose_times(r, p - t).cwiseAbs().array() <= hb.array()).all();
  }
  /// The support-plane lower bound on the distance along the unit direction n (A towards B).
  double plane_bound(const Vec3& n) const {
    return n.dot(t) - ha.dot(n.cwiseAbs()) - hb.dot(transpose_times(r, n).cwiseAbs());
  }

  static Vec3 box_signs(const Vec3& d, const Vec3& h) {
    return {d.x() < 0 ? -h.x() : h.x(), d.y() < 0 ? -h.y() : h.y(), d.z() < 0 ? -h.z() : h.z()};
  }
};

/// The part [s0, s1] of the segment p + s d, s in [0, 1], inside {|x_k| <= h_k} (Liang-Barsky);
/// false when empty.
inline bool clip_to_box(const Vec3& p, const Vec3& d, const Vec3& h, double& s0, double& s1) {
  s0 = 0;
  s1 = 1;
  for (int k = 0; k < 3; ++k) {
    if (d[k] == 0) {
      if (!(std::abs(p[k]) <= h[k])) return false;
      continue;
    }
    const double inv = 1 / d[k];
    double lo = (-h[k] - p[k]) * inv;
    double hi = (h[k] - p[k]) * inv;
    if (lo > hi) std::swap(lo, hi);
    s0 = std::max(s0, lo);
    s1 = std::min(s1, hi);
    if (!(s0 <= s1)) return false;
  }
  return true;
}

/// A point of both boxes (A's frame) when they overlap (see the file comment, step 2); false
/// when none was found.
inline bool box_box_common_point(const BoxPairFrame& f, Vec3& out) {
  double s0 = 0, s1 = 0;
  // Centre line: the segment from A's centre (the origin) to B's centre, clipped by A, then the
  // clipped part clipped by B.
  if (clip_to_box(Vec3::Zero(), f.t, f.ha, s0, s1)) {
    const Vec3 q0 = s0 * f.t;
    const Vec3 qd = (s1 - s0) * f.t;
    double u0 = 0, u1 = 0;
    if (clip_to_box(transpose_times(f.r, q0 - f.t), transpose_times(f.r, qd), f.hb, u0, u1)) {
      const Vec3 p = add_scaled(q0, 0.5 * (u0 + u1), qd);
      if (f.inside_a(p) && f.inside_b(p)) {
        out = p;
        return true;
      }
    }
  }
  // A's edges in B's frame: A's centre is at c = -R^T t, its axis i is row i of R.
  const Vec3 c = -transpose_times(f.r, f.t);
  for (int i = 0; i < 3; ++i) {
    const int p = (i + 1) % 3, q = (i + 2) % 3;
    const Vec3 ei = f.r.row(i).transpose();
    const Vec3 ep = f.r.row(p).transpose();
    const Vec3 eq = f.r.row(q).transpose();
    const Vec3 d = (2 * f.ha[i]) * ei;
    for (int k = 0; k < 4; ++k) {
      const double sp = (k & 1) ? f.ha[p] : -f.ha[p];
      const double sq = (k & 2) ? f.ha[q] : -f.ha[q];
      const Vec3 start = c - f.ha[i] * ei + sp * ep + sq * eq;
      if (!clip_to_box(start, d, f.hb, s0, s1)) continue;
      Vec3 a_local = Vec3::Zero();
      a_local[i] = (s0 + s1 - 1) * f.ha[i];  // -h_i + (s0 + s1) / 2 * 2 h_i
      a_local[p] = sp;
      a_local[q] = sq;
      if (f.inside_b(a_local)) {  // on A's edge by construction (exact coordinates in A's frame)
        out = a_local;
        return true;
      }
    }
  }
  // B's edges in A's frame.
  for (int j = 0; j < 3; ++j) {
    const int p = (j + 1) % 3, q = (j + 2) % 3;
    const Vec3 bj = f.r.col(j);
    const Vec3 d = (2 * f.hb[j]) * bj;
    for (int k = 0; k < 4; ++k) {
      const double sp = (k & 1) ? f.hb[p] : -f.hb[p];
      const double sq = (k & 2) ? f.hb[q] : -f.hb[q];
      const Vec3 start = f.t - f.hb[j] * bj + sp * f.r.col(p) + sq * f.r.col(q);
      if (!clip_to_box(start, d, f.ha, s0, s1)) continue;
      const Vec3 pt = start + (0.5 * (s0 + s1)) * d;
      // On B's edge by construction; re-checking that in B's frame would fail by rounding, as
      // two of its coordinates are +-h exactly.
      if (f.inside_a(pt)) {
        out = pt;
        return true;
      }
    }
  }
  return false;
}

}  // namespace detail

/// Distance between two boxes (see the file comment). On success returns true and fills `r` with
/// gjk::distance's fields (world frame): distance, point_a, point_b, normal (unit, A towards B),
/// gap = U - L >= 0, detail duality_gap when separated; distance 0, intersect true, point_a ==
/// point_b a common point (inside both boxes as evaluated), normal NaN, gap 0, detail
/// origin_enclosed when they overlap; iterations 0, status converged. Scale (both bounding radii
/// plus the centres' distance) outside [kGjkMinScale, kGjkMaxScale]: true with
/// out_of_range_result. Returns false when it does not certify an answer; `seed` (A's frame) then
/// holds the direction A towards B of its best points, or NaN. Tolerances: those of GjkOptions.
/// Cost: a few hundred flops, no loop over iterations, no heap allocation.
inline bool box_box_distance(const Box& a, const Pose& pose_a, const Box& b, const Pose& pose_b,
                             const GjkOptions& options, DistanceResult& r, Vec3& seed) {
  using namespace detail;
  r = DistanceResult{};
  seed = nan_vec3();
  BoxPairFrame f;
  f.r = pose_a.rotation().transpose() * pose_b.rotation();
  f.t = pose_a.rotate_inverse(pose_b.translation() - pose_a.translation());
  f.ha = a.half_extents();
  f.hb = b.half_extents();
  // gjk::distance's query scale (query_scale in distance.hpp): a box's bounding sphere is centred
  // at its origin, so the centres' distance is |t|.
  const double scale = a.bounding_sphere().radius + b.bounding_sphere().radius + f.t.norm();
  if (!scale_in_range(scale)) {
    r = out_of_range_result<DistanceResult>();
    return true;
  }
  const double contact_sq = options.absolute_tolerance * scale * scale;
  // Scalar arrays, so the formulas below read as written in the comments (an Eigen Array3d form
  // measured the same, about 1,000 instructions per separated query with the certificate).
  const Mat3& rm = f.r;
  double ar[3][3];  // |R|
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) ar[i][j] = std::abs(rm(i, j));
  }
  const double t[3] = {f.t.x(), f.t.y(), f.t.z()};
  const double ha[3] = {f.ha.x(), f.ha.y(), f.ha.z()};
  const double hb[3] = {f.hb.x(), f.hb.y(), f.hb.z()};
  double tb[3];  // t in B's frame
  for (int j = 0; j < 3; ++j) tb[j] = t[0] * rm(0, j) + t[1] * rm(1, j) + t[2] * rm(2, j);

  // 1. Separating-axis test: the largest separation and its axis.
  double best = -std::numeric_limits<double>::infinity();
  int kind = -1;  // 0: face of A (index i), 1: face of B (index j), 2: edges (i, j)
  int bi = 0, bj = 0;
  for (int i = 0; i < 3; ++i) {
    const double sep = std::abs(t[i]) - ha[i] - (hb[0] * ar[i][0] + hb[1] * ar[i][1] + hb[2] * ar[i][2]);
    if (sep > best) best = sep, kind = 0, bi = i;
  }
  for (int j = 0; j < 3; ++j) {
    const double sep = std::abs(tb[j]) - (ha[0] * ar[0][j] + ha[1] * ar[1][j] + ha[2] * ar[2][j]) - hb[j];
    if (sep > best) best = sep, kind = 1, bj = j;
  }
  // Edge axes L = e_i x b_j = R(p, j) e_q - R(q, j) e_p, |L|^2 = R(p, j)^2 + R(q, j)^2, with
  // (i, p, q) and (j, jp, jq) cyclic; B's radius along L is hb_jp |R(i, jq)| + hb_jq |R(i, jp)|.
  // The separation is normalised only when it beats the best so far (sep^2 > best^2 |L|^2, both
  // positive), so one square root per new best.
  constexpr double kMinCrossSq = kBoxBoxMinCrossNorm * kBoxBoxMinCrossNorm;
  constexpr int kNext[3] = {1, 2, 0};
  constexpr int kPrev[3] = {2, 0, 1};
  for (int i = 0; i < 3; ++i) {
    const int p = kNext[i], q = kPrev[i];
    for (int j = 0; j < 3; ++j) {
      const int jp = kNext[j], jq = kPrev[j];
      const double ll = rm(p, j) * rm(p, j) + rm(q, j) * rm(q, j);
      const double sep = std::abs(t[q] * rm(p, j) - t[p] * rm(q, j)) - (ha[q] * ar[p][j] + ha[p] * ar[q][j]) -
                         (hb[jp] * ar[i][jq] + hb[jq] * ar[i][jp]);
      if (sep > 0 && ll >= kMinCrossSq && (!(best > 0) || sep * sep > best * best * ll)) {
        best = sep / std::sqrt(ll), kind = 2, bi = i, bj = j;
      }
    }
  }

  if (!(best > 0)) {
    // 2. No axis separates: look for a common point.
    Vec3 p;
    if (kind < 0 || !box_box_common_point(f, p)) return false;
    r.distance = 0;
    r.intersect = true;
    r.point_a = pose_a.apply(p);
    r.point_b = r.point_a;
    r.gap = 0;
    r.iterations = 0;
    r.status = Status::converged;
    r.detail = Detail::origin_enclosed;
    return true;
  }

  // 3. The closest points of the features the best axis names.
  Vec3 pa, pb;
  if (kind == 0) {
    Vec3 n = Vec3::Zero();
    n[bi] = f.t[bi] < 0 ? -1 : 1;
    pb = f.support_b(-n);
    pa = pb.cwiseMax(-f.ha).cwiseMin(f.ha);
  } else if (kind == 1) {
    const Vec3 n = tb[bj] < 0 ? Vec3(-f.r.col(bj)) : Vec3(f.r.col(bj));
    pa = BoxPairFrame::box_signs(n, f.ha);
    pb = f.closest_in_b(pa);
  } else {
    const int p = kNext[bi], q = kPrev[bi];
    Vec3 n = Vec3::Zero();
    n[q] = f.r(p, bj);
    n[p] = -f.r(q, bj);
    if (n.dot(f.t) < 0) n = -n;
    // A's support edge along n (free along e_i), B's along -n (free along b_j).
    Vec3 a0 = BoxPairFrame::box_signs(n, f.ha);
    a0[bi] = -f.ha[bi];
    Vec3 ad = Vec3::Zero();
    ad[bi] = 2 * f.ha[bi];
    Vec3 lb = BoxPairFrame::box_signs(-transpose_times(f.r, n), f.hb);
    lb[bj] = -f.hb[bj];
    const Vec3 b0 = f.t + f.r * lb;
    const Vec3 bd = (2 * f.hb[bj]) * f.r.col(bj);
    closest_on_segments(a0, ad, b0, bd, pa, pb);
  }
  const auto certify = [&](const Vec3& qa, const Vec3& qb) {
    const Vec3 w = qb - qa;
    const double uu = w.squaredNorm();
    if (!(uu > contact_sq) || !std::isfinite(uu)) return false;
    const double un = std::sqrt(uu);
    const Vec3 n = w / un;
    seed = n;
    const double lower = f.plane_bound(n);
    const double gap_sq = uu - un * lower;
    if (!(gap_sq <= options.relative_tolerance * uu || gap_sq <= contact_sq)) return false;
    r.distance = un;
    r.intersect = false;
    r.normal = pose_a.rotate(n);
    r.point_a = pose_a.apply(qa);
    r.point_b = pose_a.apply(qb);
    r.gap = std::max(0.0, un - std::max(lower, 0.0));
    r.iterations = 0;
    r.status = Status::converged;
    r.detail = Detail::duality_gap;
    return true;
  };
  if (certify(pa, pb)) return true;
  // Vertex-vertex or vertex-edge: alternating projections from these points.
  for (int k = 0; k < kBoxBoxProjections; ++k) {
    pb = f.closest_in_b(pa);
    pa = pb.cwiseMax(-f.ha).cwiseMin(f.ha);
  }
  return certify(pa, pb);
}

}  // namespace proxima::gjk
