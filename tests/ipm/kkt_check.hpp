// SPDX-License-Identifier: MIT
// Independent KKT check for an ipm distance answer: feasibility, sign of the multipliers,
// complementarity and stationarity, with the gradients of each part's world value function
// re-derived from the primitives' parameters (not the solver's evaluate()).
#pragma once

#include <proxima/core/pose.hpp>
#include <proxima/ipm/object.hpp>

#include <algorithm>
#include <cmath>
#include <span>
#include <string>
#include <variant>

namespace proxima::ipm::test {

/// The world value of `part` of an object placed by `pose`, at world point p.
inline double world_value(const Part& part, const Pose& pose, const Vec3& p) {
  return part.value(pose.apply_inverse(p));
}

/// Gradient of a primitive's value, re-derived here from the primitive's parameters (not the
/// solver's evaluate()): d/du |u/a|^n = (n/a) |u/a|^(n-1) sign(u), and so on. Exact even at the
/// near-zero coordinates of diamond tips, where central differences are useless.
inline Vec3 local_gradient(const Primitive& p, const Vec3& u) {
  const auto& v = p.variant();
  auto dpow = [](double w, double n) { return w == 0 ? 0.0 : std::copysign(n * std::pow(std::abs(w), n - 1), w); };
  if (const auto* h = std::get_if<Halfspace>(&v)) return h->normal();
  if (const auto* q = std::get_if<Quadric>(&v)) return (q->q() + q->q().transpose()) * u + q->b();
  if (const auto* s = std::get_if<Superquadric>(&v)) {
    Vec3 g;
    for (int i = 0; i < 3; ++i) g[i] = dpow(u[i] / s->semiaxes()[i], s->exponents()[i]) / s->semiaxes()[i];
    return g;
  }
  Vec3 g = Vec3::Zero();
  for (const auto& t : std::get<Hyperquadric>(v).terms()) {
    g += dpow(t.plane.head<3>().dot(u) + t.plane[3], t.exponent) * t.plane.head<3>();
  }
  return g;
}

/// World gradient of world_value: chain rule through the part's and the pose's maps.
inline Vec3 world_gradient(const Part& part, const Pose& pose, const Vec3& p) {
  const Vec3 u = part.to_primitive(pose.apply_inverse(p));
  return pose.rotation() * (part.inverse_linear().transpose() * local_gradient(part.primitive(), u));
}

struct KktReport {
  double max_violation = 0;     ///< largest part value at its point (should be <= ~0)
  double min_multiplier = 0;    ///< smallest multiplier (should be >= 0)
  double complementarity = 0;   ///< max lambda_k * |c_k|
  double stationarity = 0;      ///< max of |2(x-y) + sum_A lambda grad c|, |2(y-x) + sum_B ...|
};

/// Evaluates the KKT conditions of min |x-y|^2 over x in A, y in B at the given answer.
inline KktReport check_kkt(const Object& a, const Pose& pose_a, const Object& b, const Pose& pose_b, const Vec3& x,
                           const Vec3& y, std::span<const double> lambda) {
  KktReport r;
  Vec3 sa = 2 * (x - y);
  Vec3 sb = 2 * (y - x);
  std::size_t k = 0;
  auto accumulate = [&](const Object& o, const Pose& pose, const Vec3& p, Vec3& sum) {
    for (const auto& part : o.parts()) {
      const double l = lambda[k++];
      const double c = world_value(part, pose, p);
      r.max_violation = std::max(r.max_violation, c);
      r.min_multiplier = std::min(r.min_multiplier, l);
      r.complementarity = std::max(r.complementarity, l * std::abs(c));
      sum += l * world_gradient(part, pose, p);
    }
  };
  accumulate(a, pose_a, x, sa);
  accumulate(b, pose_b, y, sb);
  r.stationarity = std::max(sa.norm(), sb.norm());
  return r;
}

/// Upper bound of max { m . u : sum |u_i/a_i|^p_i <= 1 } by weak duality, re-derived here: for
/// lambda > 0, sup_u (c u - lambda |u/a|^p) = (p - 1) lambda (|c| a / (p lambda))^(p/(p-1)), so
/// phi(lambda) = lambda + sum of those terms bounds the support; lambda by golden-section search
/// on log lambda (the library bisects phi' instead). Requires every p > 1.
inline double superquadric_support(const Superquadric& sq, const Vec3& m) {
  auto phi = [&](double log_lambda) {
    const double lambda = std::exp(log_lambda);
    double sum = lambda;
    for (int i = 0; i < 3; ++i) {
      const double p = sq.exponents()[i];
      const double c = std::abs(m[i]) * sq.semiaxes()[i];
      if (c > 0) sum += (p - 1) * lambda * std::pow(c / (p * lambda), p / (p - 1));
    }
    return sum;
  };
  double lo = -60, hi = 10;
  const double g = (std::sqrt(5.0) - 1) / 2;
  for (int it = 0; it < 200; ++it) {
    const double a = hi - g * (hi - lo), b = lo + g * (hi - lo);
    (phi(a) < phi(b) ? hi : lo) = phi(a) < phi(b) ? b : a;
  }
  return phi((lo + hi) / 2);
}

/// Lower bound on the distance between A and B from an answer (x, y) by the plane with normal
/// n = (y - x)/|y - x|: min_B n.b - max_A n.a. Both objects must be single-part superquadrics or
/// else have a converged KKT certificate at their point (then their side uses the Lagrangian:
/// n.a <= n.x + sum nu |c| + |n - sum nu grad c| * diameter). `lambda` as for check_kkt.
inline double separating_plane_bound(const Object& a, const Pose& pose_a, const Object& b, const Pose& pose_b,
                                     const Vec3& x, const Vec3& y, std::span<const double> lambda) {
  const double d = (y - x).norm();
  const Vec3 n = (y - x) / d;
  std::size_t k = 0;
  auto support = [&](const Object& o, const Pose& pose, const Vec3& dir, const Vec3& p) {
    const std::size_t first = k;
    k += o.parts().size();
    const auto* sq = std::get_if<Superquadric>(&o.parts().front().primitive().variant());
    if (o.parts().size() == 1 && sq != nullptr) {
      const Part& part = o.parts().front();
      const Vec3 m = part.linear().transpose() * (pose.rotation().transpose() * dir);
      return dir.dot(pose.apply(part.translation())) + superquadric_support(*sq, m);
    }
    Vec3 residual = dir;
    double slack = 0;
    for (std::size_t j = 0; j < o.parts().size(); ++j) {
      const double nu = lambda[first + j] / (2 * d);
      slack += nu * std::abs(world_value(o.parts()[j], pose, p));
      residual -= nu * world_gradient(o.parts()[j], pose, p);
    }
    return dir.dot(p) + slack + residual.norm() * 2 * o.bounding_sphere().radius;
  };
  const double ha = support(a, pose_a, n, x);
  const double hb = support(b, pose_b, -n, y);
  return -hb - ha;
}

}  // namespace proxima::ipm::test
