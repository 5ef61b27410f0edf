// SPDX-License-Identifier: MIT
// Newton polish of a GJK distance between cylinders and cones, on the features the closest
// points lie on, certified by GJK's duality gap; and, before GJK, the same certificate on a cone's
// apex and the other solid's nearest point to it (revolution_apex_certified, at the end; the
// candidates are made by revolution_apex_step, gjk/revolution_overlap.hpp).
//
// Why: GJK converges only linearly where a closest point lies on a curved edge (a cylinder's or a
// cone's rim) or on a side, where the support function has a kink (a cylinder's side is its
// support only for directions normal to its axis): 20-30 support calls per separated
// cylinder-cone pair of the benchmark (docs/benchmarks.md, session 13). The features themselves
// are smooth and have two parameters at most, so Newton's method on the squared distance between
// the two features converges quadratically from where GJK, stopped early (kRevolutionPolishAfter), leaves off.
//
// Every feature of a cylinder (radius r, half height h, axis z) or a cone (base radius R at
// z = -H, apex at z = +H) is a piece of a surface of revolution about z written with an angle
// theta and one linear parameter u in [lo, hi]:
//   p(theta, u) = (rho(u) cos theta, rho(u) sin theta, z(u)),  rho = rho0 + rho1 u,  z = z0 + z1 u.
//   cylinder side: rho = r, z = u in [-h, h]          cone side: rho = R u, z = H - 2 H u, u in [0, 1]
//   rim (circle):  u fixed                            cap / base disc: rho = u in [0, r], z = +-h
//   apex: rho = 0, theta and u fixed
// A side contains both its rims (u at a bound) and a disc its rim, so where the direction is close
// to a kink the wider feature is taken and the bound does the rest (projected Newton: a parameter
// at a bound whose gradient pushes outward is held).
//
// Certificate, exactly as GJK's (gjk/distance.hpp): with e = p_B - p_A (two points of the shapes,
// A's frame), the upper bound is U = |e| and the lower bound L = d . (s_B(-d) - s_A(d)) for
// d = e / U (the slab between the two support planes). The polish answers only when
// U^2 - U L <= max(relative_tolerance U^2, absolute_tolerance scale^2) and U^2 is above GJK's
// contact band; otherwise it says "not answered" and GJK goes on, so an answer is never worse
// than GJK's.
#pragma once

#include <proxima/core/pose.hpp>
#include <proxima/core/tolerance.hpp>
#include <proxima/core/types.hpp>
#include <proxima/shapes/cone.hpp>
#include <proxima/shapes/cylinder.hpp>

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace proxima::gjk {

/// True for the pairs the revolution polish answers: Cylinder and Cone in any combination.
template <class A, class B>
inline constexpr bool has_revolution_polish =
    (std::is_same_v<A, Cylinder> || std::is_same_v<A, Cone>) && (std::is_same_v<B, Cylinder> || std::is_same_v<B, Cone>);

namespace detail {

/// One feature: p(theta, u) as above, the angle held as (c, s) on the unit circle.
struct RevolutionFeature {
  double rho0 = 0, rho1 = 0, z0 = 0, z1 = 0;
  double lo = 0, hi = 0;
  bool angle_free = false;
  bool u_free = false;
  double c = 1, s = 0, u = 0;

  double rho() const { return rho0 + rho1 * u; }
  Vec3 point() const { return {rho() * c, rho() * s, z0 + z1 * u}; }
  Vec3 d_theta() const { return {-rho() * s, rho() * c, 0}; }
  Vec3 d_u() const { return {rho1 * c, rho1 * s, z1}; }
  Vec3 d_theta_theta() const { return {-rho() * c, -rho() * s, 0}; }
  Vec3 d_theta_u() const { return {-rho1 * s, rho1 * c, 0}; }
};

/// Angle from the planar part of a direction or point; (1, 0) when it has none.
inline void set_angle(RevolutionFeature& f, double x, double y) {
  const double n = std::sqrt(x * x + y * y);
  if (n > 0) {
    f.c = x / n;
    f.s = y / n;
  }
}


/// The feature of a cylinder that holds the closest point, from the support direction d (local
/// frame, towards the other shape) and GJK's witness w (local frame).
inline RevolutionFeature revolution_feature(const Cylinder& cyl, const Vec3& d, const Vec3& w) {
  const double r = cyl.radius();
  const double h = cyl.half_height();
  const double nd = d.norm();
  const double sigma = std::sqrt(d.x() * d.x() + d.y() * d.y());
  RevolutionFeature f;
  set_angle(f, d.x(), d.y());
  if (std::abs(d.z()) < kRevolutionKink * nd) {  // side (with both rims)
    f.rho0 = r;
    f.z1 = 1;
    f.lo = -h;
    f.hi = h;
    f.angle_free = f.u_free = true;
    f.u = std::clamp(w.z(), -h, h);
  } else if (sigma < kRevolutionKink * nd) {  // a cap disc (with its rim), polar coordinates
    f.rho1 = 1;
    f.z0 = d.z() < 0 ? -h : h;
    f.lo = 0;
    f.hi = r;
    f.angle_free = f.u_free = true;
    set_angle(f, w.x(), w.y());
    f.u = std::clamp(std::sqrt(w.x() * w.x() + w.y() * w.y()), 0.0, r);
  } else {  // a rim
    f.rho0 = r;
    f.z0 = d.z() < 0 ? -h : h;
    f.angle_free = true;
  }
  return f;
}

/// The same for a cone: apex, base rim, side (with apex and rim) or base disc (with its rim).
inline RevolutionFeature revolution_feature(const Cone& cone, const Vec3& d, const Vec3& w) {
  const double r = cone.radius();
  const double h = cone.half_height();
  const double nd = d.norm();
  const double sigma = std::sqrt(d.x() * d.x() + d.y() * d.y());
  // Support values of the apex and of the rim; equal on the side's normal cone.
  const double apex_value = d.z() * h;
  const double rim_value = r * sigma - d.z() * h;
  RevolutionFeature f;
  set_angle(f, d.x(), d.y());
  if (std::abs(apex_value - rim_value) < kRevolutionKink * nd * (r + 2 * h)) {  // side
    f.rho1 = r;
    f.z0 = h;
    f.z1 = -2 * h;
    f.lo = 0;
    f.hi = 1;
    f.angle_free = f.u_free = true;
    f.u = std::clamp((h - w.z()) / (2 * h), 0.0, 1.0);
  } else if (apex_value > rim_value) {  // the apex
    f.z0 = h;
  } else if (sigma < kRevolutionKink * nd) {  // the base disc
    f.rho1 = 1;
    f.z0 = -h;
    f.lo = 0;
    f.hi = r;
    f.angle_free = f.u_free = true;
    set_angle(f, w.x(), w.y());
    f.u = std::clamp(std::sqrt(w.x() * w.x() + w.y() * w.y()), 0.0, r);
  } else {  // the base rim
    f.rho0 = r;
    f.z0 = -h;
    f.angle_free = true;
  }
  return f;
}

/// Rotates (c, s) by the angle t (|t| <= 0.5): a short series, then back onto the unit circle.
inline void rotate_angle(RevolutionFeature& f, double t) {
  const double t2 = t * t;
  const double sn = t * (1 - t2 / 6 * (1 - t2 / 20));
  const double cs = 1 - t2 / 2 * (1 - t2 / 12 * (1 - t2 / 30));
  const double c = f.c * cs - f.s * sn;
  const double s = f.s * cs + f.c * sn;
  const double n = 1 / std::sqrt(c * c + s * s);
  f.c = c * n;
  f.s = s * n;
}

/// Solves (H + mu I) x = -g over the n free parameters (LDL^T, lower triangle of the row-major
/// n x n in h, n <= 4); false when the damped matrix is not positive definite.
inline bool revolution_solve(const double* h, const double* g, int n, double mu, double* x) {
  double l[4][4];
  double d[4];
  double inv_d[4];
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < i; ++j) {
      double sum = h[i * 4 + j];
      for (int k = 0; k < j; ++k) sum -= l[i][k] * l[j][k] * d[k];
      l[i][j] = sum * inv_d[j];
    }
    double dii = h[i * 4 + i] + mu;
    for (int k = 0; k < i; ++k) dii -= l[i][k] * l[i][k] * d[k];
    if (!(dii > 0)) return false;
    d[i] = dii;
    inv_d[i] = 1 / dii;
  }
  double y[4];
  for (int i = 0; i < n; ++i) {
    double sum = -g[i];
    for (int k = 0; k < i; ++k) sum -= l[i][k] * y[k];
    y[i] = sum;
  }
  for (int i = n - 1; i >= 0; --i) {
    double sum = y[i] * inv_d[i];
    for (int k = i + 1; k < n; ++k) sum -= l[k][i] * x[k];
    x[i] = sum;
  }
  return true;
}

/// Newton's method on f = |p_A - (R p_B + t)|^2 / 2 over the free parameters of the two features
/// (at most four: theta_A, u_A, theta_B, u_B), with Levenberg damping where the Hessian is not
/// positive definite, a step bound and a decrease test. Leaves the features at the last accepted
/// iterate; returns the number of steps taken.
inline int revolution_newton(RevolutionFeature& fa, RevolutionFeature& fb, const Mat3& rot, const Vec3& trans,
                             double scale) {
  const auto residual = [&] { return Vec3(fa.point() - (rot * fb.point() + trans)); };
  Vec3 e = residual();
  double fval = 0.5 * e.squaredNorm();
  int steps = 0;
  for (; steps < kRevolutionPolishMaxSteps; ++steps) {
    const Vec3 eb = transpose_times(rot, e);  // e in B's frame
    // Derivatives of p_A (A's frame) and of p_B (B's frame); B's enter with a minus sign.
    const Vec3 ja[2] = {fa.d_theta(), fa.d_u()};
    const Vec3 jb[2] = {fb.d_theta(), fb.d_u()};
    const Vec3 jb_in_a[2] = {rot * jb[0], rot * jb[1]};
    const double g_all[4] = {ja[0].dot(e), ja[1].dot(e), -jb[0].dot(eb), -jb[1].dot(eb)};
    // Free parameters this step: fixed ones are out, and linear ones at a bound whose descent
    // direction leaves it are held there.
    int idx[4];
    int n = 0;
    if (fa.angle_free) idx[n++] = 0;
    if (fa.u_free && !((fa.u <= fa.lo && g_all[1] > 0) || (fa.u >= fa.hi && g_all[1] < 0))) idx[n++] = 1;
    if (fb.angle_free) idx[n++] = 2;
    if (fb.u_free && !((fb.u <= fb.lo && g_all[3] > 0) || (fb.u >= fb.hi && g_all[3] < 0))) idx[n++] = 3;
    if (n == 0) break;
    // The Hessian of f on the free parameters.
    const auto second = [&](int i, int j) -> double {
      if (i > j) std::swap(i, j);
      if (j < 2) {  // both of A
        if (i == 0 && j == 0) return ja[0].squaredNorm() + fa.d_theta_theta().dot(e);
        if (i == 0) return ja[0].dot(ja[1]) + fa.d_theta_u().dot(e);
        return ja[1].squaredNorm();
      }
      if (i >= 2) {  // both of B
        if (i == 2 && j == 2) return jb[0].squaredNorm() - fb.d_theta_theta().dot(eb);
        if (i == 2) return jb[0].dot(jb[1]) - fb.d_theta_u().dot(eb);
        return jb[1].squaredNorm();
      }
      return -jb_in_a[j - 2].dot(ja[i]);  // one of each
    };
    double h[16];
    double g[4];
    double diag_max = 0;
    for (int a = 0; a < n; ++a) {
      g[a] = g_all[idx[a]];
      for (int b = 0; b <= a; ++b) h[a * 4 + b] = second(idx[a], idx[b]);
      diag_max = std::max(diag_max, h[a * 4 + a]);
    }
    // Levenberg damping only when the Hessian is not positive definite.
    double x[4];
    bool solved = revolution_solve(h, g, n, 0, x);
    for (double mu = 1e-6 * std::max(diag_max, scale * scale); !solved && mu < 1e3 * scale * scale; mu *= 100) {
      solved = revolution_solve(h, g, n, mu, x);
    }
    if (!solved) break;
    double step[4] = {0, 0, 0, 0};
    for (int a = 0; a < n; ++a) step[idx[a]] = x[a];
    // Angles move by at most 0.5 rad a step (the rotation series' range).
    const double worst_angle = std::max(std::abs(step[0]), std::abs(step[2]));
    const double shrink = worst_angle > 0.5 ? 0.5 / worst_angle : 1.0;
    // Decrease test: halve the step until f does not grow (a few times at most).
    const RevolutionFeature fa0 = fa;
    const RevolutionFeature fb0 = fb;
    bool accepted = false;
    double factor = shrink;
    for (int half = 0; half < 4 && !accepted; ++half, factor *= 0.5) {
      fa = fa0;
      fb = fb0;
      if (step[0] != 0) rotate_angle(fa, factor * step[0]);
      if (step[1] != 0) fa.u = std::clamp(fa.u + factor * step[1], fa.lo, fa.hi);
      if (step[2] != 0) rotate_angle(fb, factor * step[2]);
      if (step[3] != 0) fb.u = std::clamp(fb.u + factor * step[3], fb.lo, fb.hi);
      const Vec3 e_new = residual();
      const double f_new = 0.5 * e_new.squaredNorm();
      // A few ulps of slack: near the minimum f is flat to rounding while the points are still
      // sqrt(epsilon) off it, and only Newton's steps (not f) can resolve the last digits.
      if (f_new <= fval * (1 + 1e-13)) {
        accepted = true;
        // At the rounding floor: the step moved the points by a few ulps of the scale.
        const bool settled = (e_new - e).squaredNorm() <= 1e-30 * scale * scale;
        e = e_new;
        fval = f_new;
        if (settled) return steps + 1;
      }
    }
    if (!accepted) {
      fa = fa0;
      fb = fb0;
      break;
    }
  }
  return steps;
}

/// The polished points and their certificate (A's frame).
struct RevolutionPolish {
  Vec3 point_a, point_b;  // on A and on B, A's frame
  double upper = 0;       // |point_b - point_a|
  double lower = 0;       // the support planes' slab width along the normal
  Vec3 normal;            // unit, A towards B
  int steps = 0;
};

/// Polishes GJK's unfinished answer of a Cylinder / Cone pair. `b_in_a`: B's pose in A's frame;
/// `normal`: GJK's unit normal so far (A's frame, A towards B); `wa`, `wb`: its witness points
/// (A's and B's own frames). True with `out` filled when the certificate holds with `rel_tol` and
/// `abs_tol` (GjkOptions' meaning; scale as GJK's); false when not (GJK goes on).
template <class A, class B>
bool revolution_polish(const A& a, const B& b, const Pose& b_in_a, const Vec3& normal, const Vec3& wa, const Vec3& wb,
                       double rel_tol, double abs_tol, double scale, RevolutionPolish& out) {
  const Mat3& rot = b_in_a.rotation();
  const Vec3& trans = b_in_a.translation();
  Vec3 d = normal;
  Vec3 pa = wa;
  Vec3 pb_local = wb;
  out.steps = 0;
  // A second round names the features again from the first round's direction: GJK's
  // direction may sit on the wrong side of a kink.
  for (int round = 0; round < kRevolutionPolishRounds; ++round) {
    RevolutionFeature fa = revolution_feature(a, d, pa);
    RevolutionFeature fb = revolution_feature(b, Vec3(-transpose_times(rot, d)), pb_local);
    out.steps += revolution_newton(fa, fb, rot, trans, scale);
    pa = fa.point();
    pb_local = fb.point();
    const Vec3 pb = rot * pb_local + trans;
    const Vec3 e = pb - pa;
    const double upper = e.norm();
    if (!(upper > 0) || !std::isfinite(upper)) return false;
    d = e / upper;
    const Vec3 sa = a.support(d);
    const Vec3 sb = rot * b.support(Vec3(-transpose_times(rot, d))) + trans;
    const double lower = d.dot(sb - sa);
    const double gap2 = upper * upper - upper * lower;
    // Above GJK's contact band only, so that distance() and intersect() keep agreeing on touching
    // pairs (GJK calls |v|^2 <= absolute_tolerance scale^2 contact).
    if (!(upper * upper > abs_tol * scale * scale)) return false;
    if (!(lower > 0) || !(gap2 <= std::max(rel_tol * upper * upper, abs_tol * scale * scale))) continue;
    out.point_a = pa;
    out.point_b = pb;
    out.upper = upper;
    out.lower = lower;
    out.normal = d;
    return true;
  }
  return false;
}

/// The point of a cylinder (local frame) nearest to p, found in p's meridian half-plane (the
/// solid's section by the half-plane through its axis and p is the rectangle rho in [0, r],
/// z in [-h, h], and the nearest point of a solid of revolution lies in that section); p itself
/// when p is in the solid.
inline Vec3 closest_point_on(const Cylinder& c, const Vec3& p) {
  const double r = c.radius();
  const double h = c.half_height();
  const double rho2 = p.x() * p.x() + p.y() * p.y();
  const double z = std::clamp(p.z(), -h, h);
  if (rho2 <= r * r) return {p.x(), p.y(), z};
  const double k = r / std::sqrt(rho2);
  return {k * p.x(), k * p.y(), z};
}

/// The same for a cone: its section is the triangle apex (0, h), rim (R, -h), base centre
/// (0, -h); outside it the nearest point is on the side's segment or on the base's.
inline Vec3 closest_point_on(const Cone& c, const Vec3& p) {
  const double big_r = c.radius();
  const double h = c.half_height();
  const double rho = std::sqrt(p.x() * p.x() + p.y() * p.y());
  const double z = p.z();
  if (z >= -h && 2 * h * rho <= big_r * (h - z)) return p;  // inside
  // The side, apex + t (R, -2 h), t in [0, 1].
  const double ss = big_r * big_r + 4 * h * h;
  const double t = std::clamp((rho * big_r - (z - h) * 2 * h) / ss, 0.0, 1.0);
  double rho_n = t * big_r;
  double z_n = h - 2 * h * t;
  // The base, (min(rho, R), -h), when it is nearer.
  const double rho_b = std::min(rho, big_r);
  const double side2 = (rho - rho_n) * (rho - rho_n) + (z - z_n) * (z - z_n);
  const double base2 = (rho - rho_b) * (rho - rho_b) + (z + h) * (z + h);
  if (base2 < side2) {
    rho_n = rho_b;
    z_n = -h;
  }
  if (!(rho > 0)) return {0, 0, z_n};
  const double k = rho_n / rho;
  return {k * p.x(), k * p.y(), z_n};
}

/// Distance between a cylinder / cone pair whose closest points are a cone's apex and the
/// nearest point of the other solid to it, in closed form (A's frame), certified as the polish
/// is (revolution_polish: the support planes' slab along the apex's normal, with rel_tol and
/// abs_tol; above GJK's contact band). `apex`: the apex (a point of one solid), `near`: the other
/// solid's nearest point to it, `apex_on_a`: whether the apex is A's. True with `out` filled (the
/// normal A towards B) when the certificate holds; false otherwise (e.g. the pair overlaps, or
/// the closest points are elsewhere): the caller goes on to GJK.
template <class Md>
bool revolution_apex_certified(Md& md, const Vec3& apex, const Vec3& near, bool apex_on_a, double rel_tol,
                               double abs_tol, double scale, RevolutionPolish& out) {
  const Vec3 pa = apex_on_a ? apex : near;
  const Vec3 pb = apex_on_a ? near : apex;
  const Vec3 e = pb - pa;
  const double upper = e.norm();
  if (!(upper * upper > abs_tol * scale * scale) || !std::isfinite(upper)) return false;
  const Vec3 d = e / upper;
  const auto sp = md.support(d);  // A's farthest point along d, B's along -d
  const double lower = d.dot(sp.b - sp.a);
  const double gap2 = upper * upper - upper * lower;
  if (!(lower > 0) || !(gap2 <= std::max(rel_tol * upper * upper, abs_tol * scale * scale))) return false;
  out.point_a = pa;
  out.point_b = pb;
  out.upper = upper;
  out.lower = lower;
  out.normal = d;
  out.steps = 0;
  return true;
}

}  // namespace detail

}  // namespace proxima::gjk
