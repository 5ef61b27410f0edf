// SPDX-License-Identifier: MIT
// The GJK sub-distance routine: the point of a 1..4-point simplex closest to the origin, its
// barycentric weights, and the smallest sub-simplex that supports it.
//
// Method: signed volumes (Montanari, Petrinic, Barbieri, "Improving the GJK algorithm for faster
// and more reliable distance queries between convex objects", ACM TOG 2017). Decisions are made
// on the signs of the full-dimensional determinants of the sub-problem (volume for a tetrahedron,
// the best-conditioned projected area for a triangle, the parameter for a segment), which are
// well defined even when the points are nearly dependent; plain Johnson sub-determinants are not.
// Every face (edge) whose determinant sign says the origin lies beyond it is solved recursively
// and the closest candidate wins, so no Voronoi region is ever skipped. Flat simplices (relative
// determinant below kGjkDegenerateSimplexTolerance) are solved on all their faces, which is exact
// because a flat hull is the union of its faces.
//
// All determinants are formed from differences to one vertex, so a small simplex far from the
// origin (tiny shapes 1e5 apart) keeps its relative accuracy.
//
// Cost: a segment ~15 flops, a triangle ~60 (+ up to 3 segments), a tetrahedron ~100 (+ up to 4
// triangles). No allocation.
#pragma once

#include <proxima/core/tolerance.hpp>
#include <proxima/core/types.hpp>
#include <proxima/gjk/minkowski_difference.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace proxima::gjk {

/// The answer of the sub-distance routine on `count` input points.
struct SubDistance {
  /// The point of conv(points) closest to the origin.
  Vec3 point = nan_vec3();
  /// Barycentric weight of each input point (0 for points not in the support set).
  std::array<double, 4> lambda{};
  /// Bit i set when input point i has a positive weight (the support set).
  unsigned mask = 0;
  /// |point|^2.
  double distance_squared = kNaN;
};

namespace detail {

// The routine is written once for any indexable source of points W (`const Vec3*`, or the w
// members of a Simplex's support points, so the GJK loop needs no copy of them). Candidates are
// "offered" to the best answer so far: offer_* replaces `best` only when the candidate is strictly
// closer and not NaN (the rule of keep_closer), which gives the same answer as collecting each
// face's own best first, since "first strictly smallest non-NaN" is associative. No temporary
// SubDistance is built for a candidate that loses.

/// `best` becomes the answer "vertex i" with |w_i|^2 = dd.
template <class W>
inline void set_vertex(SubDistance& best, const W& w, int i, double dd) {
  best.point = w[i];
  best.lambda = {};
  best.lambda[static_cast<std::size_t>(i)] = 1;
  best.mask = 1U << i;
  best.distance_squared = dd;
}

template <class W>
inline SubDistance vertex_answer(const W& w, int i) {
  SubDistance r;
  set_vertex(r, w, i, w[i].squaredNorm());
  return r;
}

/// Keeps the candidate with the smaller distance; a NaN candidate never wins.
inline void keep_closer(SubDistance& best, const SubDistance& candidate) {
  if (!(best.distance_squared <= candidate.distance_squared)) {
    if (candidate.distance_squared == candidate.distance_squared) best = candidate;
  }
}

/// keep_closer(best, vertex_answer(w, i)).
template <class W>
inline void offer_vertex(SubDistance& best, const W& w, int i) {
  const double dd = w[i].squaredNorm();
  if (!(best.distance_squared <= dd) && dd == dd) set_vertex(best, w, i, dd);
}

/// keep_closer(best, closest_on_segment(w, i, j)).
template <class W>
inline void offer_segment(SubDistance& best, const W& w, int i, int j) {
  const Vec3& a = w[i];
  const Vec3 t = w[j] - a;
  const double tt = t.squaredNorm();
  if (!(tt > 0)) {  // coincident points (or NaN): the nearer vertex
    offer_vertex(best, w, i);
    offer_vertex(best, w, j);
    return;
  }
  const double s = -a.dot(t) / tt;
  if (s <= 0) return offer_vertex(best, w, i);
  if (s >= 1) return offer_vertex(best, w, j);
  const Vec3 p = add_scaled(a, s, t);
  const double dd = p.squaredNorm();
  if (!(best.distance_squared <= dd) && dd == dd) {
    best.point = p;
    best.lambda = {};
    best.lambda[static_cast<std::size_t>(i)] = 1 - s;
    best.lambda[static_cast<std::size_t>(j)] = s;
    best.mask = (1U << i) | (1U << j);
    best.distance_squared = dd;
  }
}

/// Segment w[i] w[j].
template <class W>
inline SubDistance closest_on_segment(const W& w, int i, int j) {
  const Vec3& a = w[i];
  const Vec3 t = w[j] - a;
  const double tt = t.squaredNorm();
  if (!(tt > 0)) {  // coincident points (or NaN): the nearer vertex
    SubDistance r = vertex_answer(w, i);
    offer_vertex(r, w, j);
    return r;
  }
  const double s = -a.dot(t) / tt;
  if (s <= 0) return vertex_answer(w, i);
  if (s >= 1) return vertex_answer(w, j);
  SubDistance r;
  r.point = add_scaled(a, s, t);
  r.lambda[static_cast<std::size_t>(i)] = 1 - s;
  r.lambda[static_cast<std::size_t>(j)] = s;
  r.mask = (1U << i) | (1U << j);
  r.distance_squared = r.point.squaredNorm();
  return r;
}

/// Twice the signed area of the 2-D triangle (0, p, q) in coordinates (x, y).
inline double cross2(const Vec3& p, const Vec3& q, int x, int y) { return p[x] * q[y] - p[y] * q[x]; }

/// Triangle w[i] w[j] w[k]. `Top`: `best` is fresh (distance +inf) and the triangle is the whole
/// problem, so an interior answer is taken as it is (closest_on_triangle); otherwise the triangle
/// is a face of a tetrahedron and its answer is offered to `best`.
template <bool Top, class W>
inline void offer_triangle(SubDistance& best, const W& w, int i, int j, int k) {
  const Vec3& a = w[i];
  const Vec3 ab = w[j] - a;
  const Vec3 ac = w[k] - a;
  const Vec3 n = ab.cross(ac);
  const double nn = n.squaredNorm();
  const double longest = std::max({ab.squaredNorm(), ac.squaredNorm(), (w[k] - w[j]).squaredNorm()});
  const double tol = kGjkDegenerateSimplexTolerance;
  bool visible[3] = {true, true, true};  // edge opposite vertex i, j, k is a candidate
  if (nn > tol * tol * longest * longest) {
    // p0: the origin projected on the plane; q: the same relative to a.
    const Vec3 p0 = n * (a.dot(n) / nn);
    const Vec3 q = p0 - a;
    // Project on the coordinate plane where the triangle's shadow is largest; in coordinates
    // (m+1, m+2) the signed doubled area of (a, b, c) is exactly n[m].
    int m = 0;
    if (std::abs(n[1]) > std::abs(n[m])) m = 1;
    if (std::abs(n[2]) > std::abs(n[m])) m = 2;
    const int x = (m + 1) % 3;
    const int y = (m + 2) % 3;
    const double total = n[m];
    const double cj = cross2(q, ac, x, y);  // area (a, p0, c): weight of b
    const double ck = cross2(ab, q, x, y);  // area (a, b, p0): weight of c
    const double ci = total - cj - ck;      // area (p0, b, c): weight of a
    if (ci * total >= 0 && cj * total >= 0 && ck * total >= 0) {
      const double li = ci / total;
      const double lj = cj / total;
      const double lk = ck / total;
      const unsigned mask = (li > 0 ? 1U << i : 0U) | (lj > 0 ? 1U << j : 0U) | (lk > 0 ? 1U << k : 0U);
      if (mask != 0) {
        const double dd = p0.squaredNorm();
        if (Top || (!(best.distance_squared <= dd) && dd == dd)) {
          best.point = p0;
          best.lambda = {};
          best.lambda[static_cast<std::size_t>(i)] = li;
          best.lambda[static_cast<std::size_t>(j)] = lj;
          best.lambda[static_cast<std::size_t>(k)] = lk;
          best.mask = mask;
          best.distance_squared = dd;
        }
        return;
      }
    } else {
      visible[0] = ci * total < 0;
      visible[1] = cj * total < 0;
      visible[2] = ck * total < 0;
    }
  }
  if (visible[0]) offer_segment(best, w, j, k);
  if (visible[1]) offer_segment(best, w, i, k);
  if (visible[2]) offer_segment(best, w, i, j);
}

/// Triangle w[i] w[j] w[k].
template <class W>
inline SubDistance closest_on_triangle(const W& w, int i, int j, int k) {
  SubDistance best;
  best.distance_squared = std::numeric_limits<double>::infinity();
  offer_triangle<true>(best, w, i, j, k);
  return best;
}

/// Tetrahedron w[0..3].
template <class W>
inline SubDistance closest_on_tetrahedron(const W& w) {
  const Vec3& a = w[0];
  const Vec3 ab = w[1] - a;
  const Vec3 ac = w[2] - a;
  const Vec3 ad = w[3] - a;
  const double volume = ab.dot(ac.cross(ad));  // 6 * signed volume
  double longest = std::max({ab.squaredNorm(), ac.squaredNorm(), ad.squaredNorm(),
                             (w[2] - w[1]).squaredNorm(), (w[3] - w[1]).squaredNorm(),
                             (w[3] - w[2]).squaredNorm()});
  longest = std::sqrt(longest);
  bool visible[4] = {true, true, true, true};  // face opposite vertex v is a candidate
  SubDistance best;
  if (std::abs(volume) > kGjkDegenerateSimplexTolerance * longest * longest * longest) {
    // Volumes with one vertex replaced by the origin (o = -a relative to a).
    const Vec3 o = -a;
    const double c1 = o.dot(ac.cross(ad));
    const double c2 = ab.dot(o.cross(ad));
    const double c3 = ab.dot(ac.cross(o));
    const double c0 = volume - c1 - c2 - c3;
    const double c[4] = {c0, c1, c2, c3};
    bool inside = true;
    for (int v = 0; v < 4; ++v) {
      visible[v] = c[v] * volume < 0;
      inside = inside && !visible[v];
    }
    if (inside) {
      best.point = Vec3::Zero();
      best.distance_squared = 0;
      for (int v = 0; v < 4; ++v) {
        const double l = c[v] / volume;
        best.lambda[static_cast<std::size_t>(v)] = l;
        if (l > 0) best.mask |= 1U << v;
      }
      return best;
    }
  }
  best.distance_squared = std::numeric_limits<double>::infinity();
  if (visible[0]) offer_triangle<false>(best, w, 1, 2, 3);
  if (visible[1]) offer_triangle<false>(best, w, 0, 2, 3);
  if (visible[2]) offer_triangle<false>(best, w, 0, 1, 3);
  if (visible[3]) offer_triangle<false>(best, w, 0, 1, 2);
  return best;
}

/// closest_point_to_origin on any indexable source of points (see the comment above).
template <class W>
inline SubDistance closest_point_to_origin(const W& w, int count) {
  switch (count) {
    case 1: return vertex_answer(w, 0);
    case 2: return closest_on_segment(w, 0, 1);
    case 3: return closest_on_triangle(w, 0, 1, 2);
    case 4: return closest_on_tetrahedron(w);
    default: return SubDistance{};
  }
}

/// The w members of a run of support points, indexable like an array of Vec3.
struct SupportPointWs {
  const SupportPoint* points;
  const Vec3& operator[](int i) const { return points[i].w; }
};

}  // namespace detail

/// The point of conv(w[0], ..., w[count-1]) closest to the origin, for 1 <= count <= 4, with its
/// barycentric weights and support set. Exact up to rounding for any input, including repeated,
/// collinear and coplanar points. When the origin lies in a tetrahedron the point is exactly 0.
/// If an input is NaN, the answer's distance_squared is NaN or the NaN point is never chosen.
inline SubDistance closest_point_to_origin(const Vec3* w, int count) {
  return detail::closest_point_to_origin(w, count);
}

/// Runs the sub-distance routine on the simplex's w points, keeps only the support set (order
/// preserved) and stores the weights in simplex.lambda. Returns the closest point v (A's frame).
/// Postcondition: simplex.size >= 1 when it was >= 1, each lambda > 0, sum lambda = 1.
/// Keeps the support set of `r` (computed on simplex's w points, in order) and stores its weights.
inline void keep_support_set(Simplex& simplex, const SubDistance& r) {
  int kept = 0;
  for (int i = 0; i < simplex.size; ++i) {
    const auto ui = static_cast<std::size_t>(i);
    if (r.mask & (1U << i)) {
      const auto uk = static_cast<std::size_t>(kept);
      if (uk != ui) simplex.points[uk] = simplex.points[ui];
      simplex.lambda[uk] = r.lambda[ui];
      ++kept;
    }
  }
  simplex.size = kept;
}

inline Vec3 reduce_simplex(Simplex& simplex) {
  const SubDistance r = detail::closest_point_to_origin(detail::SupportPointWs{simplex.points.data()}, simplex.size);
  if (r.mask == 0) {  // only NaN input: keep the simplex, report NaN
    return r.point;
  }
  keep_support_set(simplex, r);
  return r.point;
}

/// The two witness points of a simplex: sum lambda_i a_i and sum lambda_i b_i (A's frame).
struct Witnesses {
  Vec3 a = nan_vec3();
  Vec3 b = nan_vec3();
};

/// Barycentric combination of the simplex's witnesses with its weights (seed 003, section 2.2).
inline Witnesses simplex_witnesses(const Simplex& simplex) {
  Witnesses r{Vec3::Zero(), Vec3::Zero()};
  for (int i = 0; i < simplex.size; ++i) {
    const auto ui = static_cast<std::size_t>(i);
    r.a += simplex.lambda[ui] * simplex.points[ui].a;
    r.b += simplex.lambda[ui] * simplex.points[ui].b;
  }
  return r;
}

/// Barycentric weights of the origin in the tetrahedron of the simplex's w points, by a
/// backward-stable solve: Gaussian elimination with partial pivoting on
/// [w1 - w0, w2 - w0, w3 - w0] mu = -w0, lambda = (1 - sum mu, mu). Negative weights (the origin
/// within rounding of a face) are clamped to 0 and the rest renormalised. False when the system
/// is singular or the weights are not finite.
/// Why: GJK's weights for an enclosing tetrahedron are ratios of signed volumes (Cramer's rule),
/// whose residual sum lambda_i w_i grows like the volumes' relative rounding; on a flat
/// tetrahedron (shapes touching along a rim) the witness points sum lambda_i a_i and
/// sum lambda_i b_i then lie far apart (measured up to 7.7e-5 of the size on cylinder/cone pairs
/// overlapping by 1e-9 of it), and neither is a common point. Elimination with pivoting keeps the
/// residual at the rounding of the w points themselves.
inline bool enclosing_weights(const Simplex& simplex, std::array<double, 4>& lambda) {
  if (simplex.size != 4) return false;
  const Vec3& w0 = simplex.points[0].w;
  double m[3][4];  // augmented rows: m[row][col], col 3 the right-hand side
  for (int row = 0; row < 3; ++row) {
    for (int col = 0; col < 3; ++col) m[row][col] = simplex.points[static_cast<std::size_t>(col + 1)].w[row] - w0[row];
    m[row][3] = -w0[row];
  }
  for (int col = 0; col < 3; ++col) {
    int pivot = col;
    for (int row = col + 1; row < 3; ++row) {
      if (std::abs(m[row][col]) > std::abs(m[pivot][col])) pivot = row;
    }
    if (!(std::abs(m[pivot][col]) > 0)) return false;
    if (pivot != col) {
      for (int k = 0; k < 4; ++k) std::swap(m[col][k], m[pivot][k]);
    }
    for (int row = col + 1; row < 3; ++row) {
      const double f = m[row][col] / m[col][col];
      for (int k = col; k < 4; ++k) m[row][k] -= f * m[col][k];
    }
  }
  double mu[3];
  for (int row = 2; row >= 0; --row) {
    double sum = m[row][3];
    for (int k = row + 1; k < 3; ++k) sum -= m[row][k] * mu[k];
    mu[row] = sum / m[row][row];
  }
  lambda = {1 - mu[0] - mu[1] - mu[2], mu[0], mu[1], mu[2]};
  double total = 0;
  for (double& l : lambda) {
    l = std::max(l, 0.0);
    total += l;
  }
  if (!(total > 0) || !std::isfinite(total)) return false;
  for (double& l : lambda) l /= total;
  return true;
}

/// A point common to both cores of a run that ended in contact (A's frame): the witness point
/// sum lambda_i a_i, with the weights recomputed by enclosing_weights when the simplex is a
/// tetrahedron whose witness points lie more than `tolerance` apart and the new weights bring
/// them closer. Returns the point on A of the better weights.
inline Vec3 contact_point(const Simplex& simplex, double tolerance) {
  const Witnesses w = simplex_witnesses(simplex);
  const double apart = (w.a - w.b).squaredNorm();
  if (simplex.size != 4 || apart <= tolerance * tolerance) return w.a;
  Simplex refined = simplex;
  if (!enclosing_weights(simplex, refined.lambda)) return w.a;
  const Witnesses r = simplex_witnesses(refined);
  return (r.a - r.b).squaredNorm() < apart ? r.a : w.a;
}

}  // namespace proxima::gjk
