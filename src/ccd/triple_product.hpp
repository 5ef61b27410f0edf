// SPDX-License-Identifier: MIT
// Private: the edge-edge contact function of both screw_collisions modes: the triple product
// (q(s) - pa) . (da x e(s)) of a fixed edge pa + [0,1] da of A and an edge qb + [0,1] db of B
// carried by the screw, which vanishes when the two edge lines are coplanar.
#pragma once

#include <proxima/ccd/screw.hpp>

#include "ccd/half_turn.hpp"

#include <array>
#include <cmath>
#include <limits>
#include <utility>

namespace proxima::ccd::detail {

struct EdgeTripleProduct {
  /// Tag of the constructor that leaves the coefficients k to compute_coefficients().
  struct DeferCoefficients {};

  // B's edge start q(s) and direction e(s) with a single sincos (the hot path of both modes):
  // q = qb + sin vw0 + (1 - cos) vvw0 + s g v, e = db + sin vd + (1 - cos) vvd.
  EdgeTripleProduct(const Screw& screw, const Vec3& pa_, const Vec3& da_, const Vec3& qb_, const Vec3& db_)
      : EdgeTripleProduct(screw, pa_, da_, qb_, db_, DeferCoefficients{}) {
    compute_coefficients();
  }

  /// Everything but k: motion, turn, rotate and stays_parallel work; value, slope and bounds need
  /// compute_coefficients() first. For callers that often stop on a distance test before any of
  /// those (cost only: the same numbers once computed).
  EdgeTripleProduct(const Screw& screw, const Vec3& pa_, const Vec3& da_, const Vec3& qb_, const Vec3& db_,
                    DeferCoefficients)
      : pa(pa_), da(da_), qb(qb_), db(db_), v(screw.axis), theta(screw.angle), glide(screw.glide) {
    la = da.norm();
    lb = db.norm();
    lb_perp = theta == 0 ? 0 : v.cross(db).norm();
    r0 = screw.axis_distance(qb);
    speed = screw.speed(r0);
    const Vec3 w0 = qb - screw.axis_point;
    vw0 = v.cross(w0);
    vvw0 = v.cross(vw0);
    vd = v.cross(db);
    vvd = v.cross(vd);
  }

  // With q - pa = sum_i a_i Q_i over a = (1, sin, 1 - cos, s) and e = sum_j b_j E_j over
  // b = (1, sin, 1 - cos), f = sum k_ij a_i b_j, k_ij = Q_i . (da x E_j).
  void compute_coefficients() {
    const std::array<Vec3, 4> big_q{qb - pa, vw0, vvw0, glide * v};
    const std::array<Vec3, 3> cross_e{da.cross(db), da.cross(vd), da.cross(vvd)};
    for (std::size_t i = 0; i < 4; ++i) {
      for (std::size_t j = 0; j < 3; ++j) k[i][j] = big_q[i].dot(cross_e[j]);
    }
  }

  /// Edges that stay parallel all step (pure translation, or both along the screw axis) never
  /// cross; their triple product is identically zero.
  bool stays_parallel(double parallel_tolerance) const {
    return (theta == 0 || lb_perp <= parallel_tolerance * lb) && da.cross(db).norm() <= parallel_tolerance * la * lb;
  }

  void motion(double s, Vec3& q, Vec3& e) const {
    const auto [sn, vers] = turn(s);
    q = qb + sn * vw0 + vers * vvw0 + (s * glide) * v;
    e = db + sn * vd + vers * vvd;
  }

  /// A direction of B carried to time s (the rotation part of the screw).
  Vec3 rotate(double s, const Vec3& d) const {
    const auto [sn, vers] = turn(s);
    const Vec3 vxd = v.cross(d);
    return d + sn * vxd + vers * v.cross(vxd);
  }

  double value(double s) const {
    const auto [sn, vers] = turn(s);
    const std::array<double, 4> a{1, sn, vers, s};
    double sum = 0;
    for (std::size_t i = 0; i < 4; ++i) sum += a[i] * (k[i][0] + k[i][1] * sn + k[i][2] * vers);
    return sum;
  }

  double slope(double s) const {
    const auto [sn, vers] = turn(s);
    const std::array<double, 4> a{1, sn, vers, s}, a_ds{0, theta * (1 - vers), theta * sn, 1};
    const std::array<double, 3> b{1, sn, vers}, b_ds{0, theta * (1 - vers), theta * sn};
    double sum = 0;
    for (std::size_t i = 0; i < 4; ++i) {
      for (std::size_t j = 0; j < 3; ++j) sum += k[i][j] * (a_ds[i] * b[j] + a[i] * b_ds[j]);
    }
    return sum;
  }

  /// Upper bounds of |f'| (b1) and |f''| (b2) on [lo, hi], from B's edge speed and turn rate.
  void bounds(double lo, double hi, double& b1, double& b2) const {
    const double h = (hi - lo) / 2;
    Vec3 q, e;
    motion((lo + hi) / 2, q, e);
    const double reach = (q - pa).norm() + speed * h;
    b1 = la * (speed * lb + reach * theta * lb_perp);
    b2 = la * (theta * theta * r0 * lb + 2 * speed * theta * lb_perp + reach * theta * theta * lb_perp);
  }

  Vec3 pa, da, qb, db, v;
  double theta, glide;
  double la = 0, lb = 0, lb_perp = 0, r0 = 0, speed = 0;
  Vec3 vw0, vvw0, vd, vvd;
  std::array<std::array<double, 3>, 4> k{};

  // sin(s theta) and 1 - cos(s theta) from one sincos of the half angle. The root searches ask for
  // the same s several times in a row (bounds, value and slope at an interval's midpoint; a slab
  // test and the first bounds of the same slab; the properness bound after a distance test), so
  // the last one is kept: the same numbers, one sincos.
  std::pair<double, double> turn(double s) const {
    if (s != cached_s_) {
      cached_s_ = s;
      cached_ = turn_of(half_turn(s * theta));
    }
    return cached_;
  }

  /// Hands turn(s) its value at s when the caller already computed it as turn_at(s, theta)
  /// (properness.hpp: the same expression, so the same bits), saving the sincos.
  void remember_turn(double s, std::pair<double, double> turned) const {
    cached_s_ = s;
    cached_ = turned;
  }

 private:
  mutable double cached_s_ = std::numeric_limits<double>::quiet_NaN();
  mutable std::pair<double, double> cached_{0, 0};
};

}  // namespace proxima::ccd::detail
