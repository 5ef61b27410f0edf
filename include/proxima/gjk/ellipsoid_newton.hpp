// SPDX-License-Identifier: MIT
// Distance between two ellipsoids (or an ellipsoid and a sphere) by Newton's method on their
// support functions, with the certificate of gjk::distance. GJK converges only linearly on
// smooth shapes (about 50 support calls per separated ellipsoid pair of the benchmark); Newton
// converges quadratically and needs a handful of steps of a few hundred flops each.
//
// In A's frame, A = {x : x^T S_A^-1 x <= 1} and B = t + {x : x^T S_B^-1 x <= 1}, with
// S = R diag(semiaxes^2) R^T. A support function is h(d) = sqrt(d^T S d) (+ d.centre), the
// support point s(d) = S d / h(d), and the Hessian of h is (S - s s^T) / h. Two stages:
//
//  1. Overlap (Ong and Gilbert's growth distance): minimise g(d) = h_A(d) + h_B0(d) (B0 = B
//     centred) over the plane d.u = 1, u = t / |t|. This is smooth and strictly convex, so Newton
//     with backtracking converges from d = u. The pair is separated exactly when g < |t| somewhere
//     on the plane (then f(d) = d.t - g(d) > 0, a separating slab); it overlaps exactly when the
//     minimum is >= |t|, and then, with k = |t| / g <= 1, the points k s_A(d) (in A) and
//     t - k s_B0(d) (in B) meet at the minimum: their midpoint, tested against both quadratic
//     forms, is the common point. The stage stops at the first iterate that decides.
//  2. Distance: maximise f(d) = d.t - h_A(d) - h_B0(d) over unit d (Riemannian Newton on the
//     sphere, in a tangent basis rebuilt at every step), from the separating direction of stage 1.
//     Where f > 0 the Riemannian Hessian -(P (H_A + H_B) P) - f P is negative definite, so every
//     Newton step is an ascent direction; a step that does not raise f is halved.
//
// Certificate, as GJK's (gjk/distance.hpp): lower bound L = f(d) for the current unit d (the
// slab between the two support planes), upper bound U = |w|, w = (t - s_B0(d)) - s_A(d), the
// distance of two points of the shapes. Converged when U^2 - U L <= max(relative_tolerance U^2,
// absolute_tolerance scale^2), the rule and tolerances of GjkOptions (the absolute one once d has
// settled, see stage 2). Anything else (the
// iteration cap, a stall at the rounding floor, touching within GJK's contact band, a
// non-finite value, semiaxes more unequal than kEllipsoidNewtonMaxAspect) returns "not
// answered" and gjk::distance runs GJK instead, so the answer is never worse than GJK's.
#pragma once

#include <proxima/core/pose.hpp>
#include <proxima/core/results.hpp>
#include <proxima/core/status.hpp>
#include <proxima/core/tolerance.hpp>
#include <proxima/gjk/options.hpp>
#include <proxima/gjk/scale_range.hpp>
#include <proxima/shapes/ellipsoid.hpp>
#include <proxima/shapes/sphere.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

namespace proxima::gjk {

/// True for the pairs ellipsoid_newton_distance answers: Ellipsoid x Ellipsoid and Ellipsoid x
/// Sphere in either order (Sphere x Sphere has a closed form, gjk/closed_form.hpp).
template <class A, class B>
inline constexpr bool has_ellipsoid_newton_distance =
    (std::is_same_v<A, Ellipsoid> && (std::is_same_v<B, Ellipsoid> || std::is_same_v<B, Sphere>)) ||
    (std::is_same_v<A, Sphere> && std::is_same_v<B, Ellipsoid>);

namespace detail {

inline Vec3 newton_semiaxes(const Ellipsoid& e) { return e.semiaxes(); }
inline Vec3 newton_semiaxes(const Sphere& s) { return Vec3::Constant(s.radius()); }

/// Symmetric 3x3 matrix S = R diag(q) R^T (q = squared semiaxes), stored as its six entries.
struct Sym3 {
  double xx, yy, zz, xy, xz, yz;
  Vec3 times(const Vec3& d) const {
    return {xx * d.x() + xy * d.y() + xz * d.z(), xy * d.x() + yy * d.y() + yz * d.z(),
            xz * d.x() + yz * d.y() + zz * d.z()};
  }
};

inline Sym3 congruence(const Mat3& r, const Vec3& q) {
  const Mat3 rq = r * q.asDiagonal();
  return {rq.row(0).dot(r.row(0)), rq.row(1).dot(r.row(1)), rq.row(2).dot(r.row(2)),
          rq.row(0).dot(r.row(1)), rq.row(0).dot(r.row(2)), rq.row(1).dot(r.row(2))};
}

/// Both support functions at one direction d (A's frame, any length): h_A(d) = na, h_B0(d) = nb,
/// and the support points sa = s_A(d) and sb = s_B0(d); B's support point along -d is t - sb.
struct NewtonEval {
  Vec3 sa, sb;
  double na, nb;
};

/// B's support is evaluated in B's own frame, |diag(beta) R^T d|, not as sqrt(d^T S_B d): the
/// entries of S_B carry rounding of eps x (largest semiaxis)^2, which along a thin axis is a
/// relative error of eps x aspect^2 in h_B (measured: 2e-9 on a distance of 75 at aspect 9e5,
/// a lower bound above GJK's upper one). The Hessians use S_B; they only steer the steps.
inline NewtonEval newton_eval(const Vec3& qa, const Mat3& rot, const Vec3& beta, const Vec3& d) {
  NewtonEval e;
  const Vec3 sad = qa.cwiseProduct(d);
  const Vec3 bd = beta.cwiseProduct(transpose_times(rot, d));
  e.na = std::sqrt(d.dot(sad));
  e.nb = bd.norm();
  e.sa = sad / e.na;
  e.sb = rot * beta.cwiseProduct(bd) / e.nb;
  return e;
}

/// The 2x2 matrix E^T (H_A + H_B) E of the two Hessians (S - s s^T) / h in the basis (e1, e2),
/// plus `shift` on the diagonal, and the solution x of that system for right-hand side (r1, r2).
/// False when the matrix is not positive definite (rounding at extreme aspect ratios).
inline bool newton_solve(const Vec3& qa, const Sym3& sbm, const NewtonEval& e, const Vec3& e1, const Vec3& e2,
                         double shift, double r1, double r2, double& x1, double& x2) {
  const double ia = 1 / e.na;
  const double ib = 1 / e.nb;
  const Vec3 a1 = qa.cwiseProduct(e1);
  const Vec3 a2 = qa.cwiseProduct(e2);
  const Vec3 b1 = sbm.times(e1);
  const Vec3 b2 = sbm.times(e2);
  const double pa1 = e1.dot(e.sa), pa2 = e2.dot(e.sa);
  const double pb1 = e1.dot(e.sb), pb2 = e2.dot(e.sb);
  const double h11 = (e1.dot(a1) - pa1 * pa1) * ia + (e1.dot(b1) - pb1 * pb1) * ib + shift;
  const double h22 = (e2.dot(a2) - pa2 * pa2) * ia + (e2.dot(b2) - pb2 * pb2) * ib + shift;
  const double h12 = (e1.dot(a2) - pa1 * pa2) * ia + (e1.dot(b2) - pb1 * pb2) * ib;
  const double det = h11 * h22 - h12 * h12;
  if (!(h11 > 0 && det > 0)) return false;
  x1 = (h22 * r1 - h12 * r2) / det;
  x2 = (h11 * r2 - h12 * r1) / det;
  return std::isfinite(x1) && std::isfinite(x2);
}

/// An orthonormal basis (e1, e2) of the plane orthogonal to the unit vector n (Duff et al.,
/// "Building an orthonormal basis, revisited", 2017: no branch on a threshold, no division by a
/// small number).
inline void tangent_basis(const Vec3& n, Vec3& e1, Vec3& e2) {
  const double sign = std::copysign(1.0, n.z());
  const double a = -1 / (sign + n.z());
  const double b = n.x() * n.y() * a;
  e1 = Vec3(1 + sign * n.x() * n.x() * a, sign * b, -sign * n.x());
  e2 = Vec3(b, sign + n.y() * n.y() * a, -n.y());
}

}  // namespace detail

/// Distance between an ellipsoid and an ellipsoid or a sphere (either order) by Newton's method
/// (see the file comment). On success returns true and fills `r` with gjk::distance's fields
/// (world frame): distance, point_a, point_b, normal (unit, A towards B) when separated; distance
/// 0, intersect true, point_a == point_b a common point (inside both quadratic forms as
/// evaluated), normal NaN when they overlap; gap = U - L >= 0 (0 for an overlap shown by a common
/// point); iterations = Newton steps; status converged, detail duality_gap (or origin_enclosed
/// for an overlap). Returns false when it does not certify an answer within min(max_iterations,
/// kEllipsoidNewtonMaxIterations) steps; r.iterations then holds the steps spent (the caller runs
/// GJK). Scale outside [kGjkMinScale, kGjkMaxScale]: true with out_of_range_result. No heap
/// allocation.
template <class A, class B>
  requires has_ellipsoid_newton_distance<A, B>
bool ellipsoid_newton_distance(const A& a, const Pose& pose_a, const B& b, const Pose& pose_b,
                               const GjkOptions& options, DistanceResult& r) {
  using namespace detail;
  r = DistanceResult{};
  r.iterations = 0;
  const Vec3 alpha = newton_semiaxes(a);
  const Vec3 beta = newton_semiaxes(b);
  const double amax = alpha.maxCoeff(), bmax = beta.maxCoeff();
  // B's axes and centre in A's frame.
  const Mat3 rot = pose_a.rotation().transpose() * pose_b.rotation();
  const Vec3 t = pose_a.rotate_inverse(pose_b.translation() - pose_a.translation());
  const double tn = t.norm();
  const double scale = amax + bmax + tn;  // query_scale(): both bounding radii + centres' distance
  if (!scale_in_range(scale)) {
    r = out_of_range_result<DistanceResult>();
    return true;
  }
  // Very unequal semiaxes make the Hessians' condition number (aspect^2) exceed what the 2x2
  // solve resolves; GJK handles those.
  if (!(amax <= kEllipsoidNewtonMaxAspect * alpha.minCoeff() && bmax <= kEllipsoidNewtonMaxAspect * beta.minCoeff())) {
    return false;
  }
  const int max_steps = std::min(options.max_iterations, kEllipsoidNewtonMaxIterations);
  const Vec3 qa = alpha.cwiseProduct(alpha);
  const Sym3 sbm = congruence(rot, beta.cwiseProduct(beta));
  const Vec3 inv_alpha = alpha.cwiseInverse();
  const Vec3 inv_beta = beta.cwiseInverse();
  const auto overlap = [&](const Vec3& p) {
    const Vec3 pb = transpose_times(rot, p - t);
    return p.cwiseProduct(inv_alpha).squaredNorm() <= 1 && pb.cwiseProduct(inv_beta).squaredNorm() <= 1;
  };
  const auto answer_overlap = [&](const Vec3& p) {
    r.distance = 0;
    r.intersect = true;
    r.point_a = pose_a.apply(p);
    r.point_b = r.point_a;
    r.gap = 0;
    r.status = Status::converged;
    r.detail = Detail::origin_enclosed;
  };
  if (!(tn > 0)) {  // one centre: it is a common point
    answer_overlap(Vec3::Zero());
    return true;
  }
  const double contact_sq = options.absolute_tolerance * scale * scale;
  int steps = 0;

  // Stage 1: decide overlap; minimise g(d) = h_A(d) + h_B0(d) on the plane d.u = 1.
  const Vec3 u = t / tn;
  Vec3 e1, e2;
  tangent_basis(u, e1, e2);
  Vec3 d = u;
  NewtonEval ev = newton_eval(qa, rot, beta, d);
  double g = ev.na + ev.nb;
  for (;;) {
    ++steps;
    if (!std::isfinite(g)) {
      r.iterations = steps;
      return false;
    }
    if (g < tn) break;  // f(d) = |t| - g > 0 on the plane: separated
    const double k = tn / g;
    const Vec3 p = k * ev.sa;
    const Vec3 q = t - k * ev.sb;
    const Vec3 m = 0.5 * (p + q);
    if (overlap(m)) {
      answer_overlap(m);
      r.iterations = steps;
      return true;
    }
    if (steps >= max_steps) {
      r.iterations = steps;
      return false;
    }
    // Newton step on the plane for g: gradient E^T (sa + sb), Hessian E^T (H_A + H_B) E.
    const Vec3 grad = ev.sa + ev.sb;
    double y1 = 0, y2 = 0;
    if (!newton_solve(qa, sbm, ev, e1, e2, 0, -e1.dot(grad), -e2.dot(grad), y1, y2)) {
      r.iterations = steps;
      return false;
    }
    // Backtracking: halve the step until g decreases (g is convex, the step a descent direction).
    const Vec3 step = add_scaled(y1 * e1, y2, e2);  // y1 e1 + y2 e2, in line (add_scaled)
    double s = 1;
    bool moved = false;
    for (int h = 0; h < kEllipsoidNewtonMaxHalvings; ++h, s *= 0.5) {
      const Vec3 dn = d + s * step;
      const NewtonEval en = newton_eval(qa, rot, beta, dn);
      const double gn = en.na + en.nb;
      if (gn < g) {
        d = dn;
        ev = en;
        g = gn;
        moved = true;
        break;
      }
    }
    // No decrease: g is at its minimum to rounding, which is within rounding of |t| (touching):
    // GJK's contact band decides those.
    if (!moved) {
      r.iterations = steps;
      return false;
    }
  }

  // Stage 2: maximise f(d) = d.t - h_A(d) - h_B0(d) over unit d, from the separating d.
  d.normalize();
  ev = newton_eval(qa, rot, beta, d);
  double f = d.dot(t) - ev.na - ev.nb;
  // f carries rounding of about this much (its terms are up to |t| and the semiaxes); a Newton
  // step that lowers f by less is at the rounding floor, and is taken.
  const double f_rounding = 8 * std::numeric_limits<double>::epsilon() * scale;
  double last_step = std::numeric_limits<double>::infinity();
  for (;;) {
    const Vec3 w = t - ev.sb - ev.sa;
    const double uu = w.squaredNorm();
    const double un = std::sqrt(uu);
    if (!std::isfinite(f) || !std::isfinite(uu) || uu <= contact_sq) break;
    // U - f equals U - d.w = U (1 - cos(angle of w and d)) (d.s_A(d) = h_A(d)), but f carries the
    // rounding of |t| and the semiaxes, which near touching exceeds the tolerance on U itself:
    // the stopping test uses d.w, i.e. the angle, which is accurate to w's own rounding, and the
    // reported gap U - f keeps f's rounding in it (honest). The absolute test alone would accept
    // a d whose w, the difference of two nearly equal support points when the shapes nearly
    // touch, points far off the normal (measured: 3e-3 rad at distance 1e-9 x scale); it is
    // taken only once d has stopped moving (the last step below kEllipsoidNewtonSettledStep
    // radians), so that w is as accurate as rounding allows.
    const double gap_sq = uu - un * d.dot(w);
    if (f > 0 && (gap_sq <= options.relative_tolerance * uu ||
                  (gap_sq <= contact_sq && last_step <= kEllipsoidNewtonSettledStep))) {
      r.distance = un;
      r.intersect = false;
      r.normal = pose_a.rotate(w / un);
      r.point_a = pose_a.apply(ev.sa);
      r.point_b = pose_a.apply(t - ev.sb);
      r.gap = std::max(0.0, un - f);
      r.iterations = steps;
      r.status = Status::converged;
      r.detail = Detail::duality_gap;
      return true;
    }
    if (steps >= max_steps) break;
    ++steps;
    // Riemannian Newton step: (E^T (H_A + H_B) E + f I) x = E^T w, d <- normalise(d + E x).
    tangent_basis(d, e1, e2);
    double x1 = 0, x2 = 0;
    if (!(f > 0) || !newton_solve(qa, sbm, ev, e1, e2, f, e1.dot(w), e2.dot(w), x1, x2)) break;
    const Vec3 step = add_scaled(x1 * e1, x2, e2);
    double s = 1;
    bool moved = false;
    for (int h = 0; h < kEllipsoidNewtonMaxHalvings; ++h, s *= 0.5) {
      const Vec3 dn = add_scaled(d, s, step).normalized();
      const NewtonEval en = newton_eval(qa, rot, beta, dn);
      const double fn = dn.dot(t) - en.na - en.nb;
      if (fn >= f - f_rounding) {
        last_step = s * std::sqrt(x1 * x1 + x2 * x2);
        d = dn;
        ev = en;
        f = fn;
        moved = true;
        break;
      }
    }
    if (!moved) break;  // f at its maximum to rounding but the gap above tolerance: GJK decides
  }
  r.iterations = steps;
  return false;
}

}  // namespace proxima::gjk
