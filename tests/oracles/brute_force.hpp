// SPDX-License-Identifier: MIT
// Brute-force oracles (tests only; shares no code with proxima):
//  - closest points of a point to a segment, triangle and tetrahedron by exact projection (each
//    case written out from first principles), and a dense-sampling version to check those;
//  - the smooth convex primitives written out again from their definitions (support function and
//    a parametrised surface), and two-sided distance bounds between them: an UPPER bound from
//    surface points (any pair of surface points is at least the distance apart; refined by a
//    pattern search over the parameters) and a LOWER bound from support functions (any unit u
//    gives distance >= -h_A(u) - h_B(-u); refined over u). The gap says how informative they are.
// All inputs and outputs are world coordinates unless a name says local.
#pragma once

#include <proxima/core/pose.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

namespace proxima::oracles {

// ------------------------------------------------------------------------------------------------
// Point to simplex
// ------------------------------------------------------------------------------------------------

/// Closest point of segment [a, b] to p (a == b allowed).
inline Vec3 closest_on_segment(const Vec3& p, const Vec3& a, const Vec3& b) {
  const Vec3 ab = b - a;
  const double len2 = ab.squaredNorm();
  if (!(len2 > 0)) return a;
  const double t = std::clamp((p - a).dot(ab) / len2, 0.0, 1.0);
  return a + t * ab;
}

/// Closest point of triangle (a, b, c) to p: the projection onto the plane when it falls inside
/// (barycentric coordinates from the normal equations), else the best of the three edges.
/// Degenerate (collinear) triangles reduce to their edges.
inline Vec3 closest_on_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 e1 = b - a;
  const Vec3 e2 = c - a;
  const Vec3 r = p - a;
  const double m11 = e1.dot(e1);
  const double m12 = e1.dot(e2);
  const double m22 = e2.dot(e2);
  const double det = m11 * m22 - m12 * m12;
  // Collinear within rounding: the Gram determinant is tiny against its terms.
  constexpr double kCollinear = 1e-14;
  if (det > kCollinear * m11 * m22) {
    const double r1 = r.dot(e1);
    const double r2 = r.dot(e2);
    const double u = (m22 * r1 - m12 * r2) / det;
    const double v = (m11 * r2 - m12 * r1) / det;
    if (u >= 0 && v >= 0 && u + v <= 1) return a + u * e1 + v * e2;
  }
  Vec3 best = closest_on_segment(p, a, b);
  for (const Vec3& q : {closest_on_segment(p, b, c), closest_on_segment(p, c, a)}) {
    if ((q - p).squaredNorm() < (best - p).squaredNorm()) best = q;
  }
  return best;
}

/// Closest point of tetrahedron (a, b, c, d) to p: p itself when inside (same-sign signed
/// volumes), else the best of the four faces. Flat tetrahedra reduce to their faces.
inline Vec3 closest_on_tetrahedron(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c,
                                   const Vec3& d) {
  const auto volume = [](const Vec3& o, const Vec3& x, const Vec3& y, const Vec3& z) {
    return (x - o).dot((y - o).cross(z - o));
  };
  const double total = volume(a, b, c, d);
  if (total != 0) {
    const double s0 = volume(p, b, c, d) * total;
    const double s1 = volume(a, p, c, d) * total;
    const double s2 = volume(a, b, p, d) * total;
    const double s3 = volume(a, b, c, p) * total;
    if (s0 >= 0 && s1 >= 0 && s2 >= 0 && s3 >= 0) return p;
  }
  Vec3 best = closest_on_triangle(p, a, b, c);
  for (const Vec3& q : {closest_on_triangle(p, a, b, d), closest_on_triangle(p, a, c, d),
                        closest_on_triangle(p, b, c, d)}) {
    if ((q - p).squaredNorm() < (best - p).squaredNorm()) best = q;
  }
  return best;
}

/// Dense sampling of a triangle: the sample point a + (i/n)(b-a) + (j/n)(c-a), i + j <= n, nearest
/// to p. An upper bound on the distance, within about |edge|/n of the exact one.
inline Vec3 sampled_closest_on_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c,
                                        int n) {
  Vec3 best = a;
  for (int i = 0; i <= n; ++i) {
    for (int j = 0; i + j <= n; ++j) {
      const Vec3 q = a + (double(i) / n) * (b - a) + (double(j) / n) * (c - a);
      if ((q - p).squaredNorm() < (best - p).squaredNorm()) best = q;
    }
  }
  return best;
}

// ------------------------------------------------------------------------------------------------
// Smooth primitives, re-derived (local frame, centred at the origin, axis z)
// Each offers support(u) (the farthest point along u, u not necessarily unit) and
// surface(s, t) (a point of the boundary for any real s, t; s is periodic with period 1 and t is
// clamped to [0, 1]).
// ------------------------------------------------------------------------------------------------

namespace detail {
inline double wrap_angle(double s) { return 2 * std::numbers::pi * (s - std::floor(s)); }
inline double clamp01(double t) { return std::clamp(t, 0.0, 1.0); }
/// Unit vector of the xy-part of u, or +x when u is along z.
inline Vec3 radial(const Vec3& u) {
  const double n = std::hypot(u.x(), u.y());
  return n > 0 ? Vec3(u.x() / n, u.y() / n, 0) : Vec3(1, 0, 0);
}
}  // namespace detail

/// Ellipsoid sum (x_i / a_i)^2 <= 1.
struct OracleEllipsoid {
  Vec3 semiaxes;
  Vec3 support(const Vec3& u) const {
    const Vec3 au = semiaxes.cwiseProduct(u);
    const double n = au.norm();
    return n > 0 ? Vec3(semiaxes.cwiseProduct(au) / n) : Vec3(semiaxes.x(), 0, 0);
  }
  Vec3 surface(double s, double t) const {
    const double phi = detail::wrap_angle(s);
    const double theta = std::numbers::pi * detail::clamp01(t);
    return semiaxes.cwiseProduct(
        Vec3(std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi), std::cos(theta)));
  }
};

/// Capsule: segment z in [-half_length, half_length] swollen by radius.
struct OracleCapsule {
  double radius;
  double half_length;
  Vec3 support(const Vec3& u) const {
    const double n = u.norm();
    const Vec3 dir = n > 0 ? Vec3(u / n) : Vec3(1, 0, 0);
    return Vec3(0, 0, u.z() < 0 ? -half_length : half_length) + radius * dir;
  }
  Vec3 surface(double s, double t) const {
    // t in [0, 1/3]: bottom half sphere, [1/3, 2/3]: side, [2/3, 1]: top half sphere.
    const double phi = detail::wrap_angle(s);
    const double tt = detail::clamp01(t) * 3;
    const Vec3 ring(std::cos(phi), std::sin(phi), 0);
    if (tt < 1) {
      const double theta = std::numbers::pi / 2 * tt;  // 0 at the bottom pole
      return Vec3(0, 0, -half_length) + radius * (std::sin(theta) * ring - std::cos(theta) * Vec3::UnitZ());
    }
    if (tt < 2) return radius * ring + Vec3(0, 0, -half_length + (tt - 1) * 2 * half_length);
    const double theta = std::numbers::pi / 2 * (3 - tt);  // 0 at the top pole
    return Vec3(0, 0, half_length) + radius * (std::sin(theta) * ring + std::cos(theta) * Vec3::UnitZ());
  }
};

/// Cylinder: radius around z, z in [-half_height, half_height].
struct OracleCylinder {
  double radius;
  double half_height;
  Vec3 support(const Vec3& u) const {
    return radius * detail::radial(u) + Vec3(0, 0, u.z() < 0 ? -half_height : half_height);
  }
  Vec3 surface(double s, double t) const {
    // t in [0, 1/4]: bottom disc, [1/4, 3/4]: side, [3/4, 1]: top disc.
    const double phi = detail::wrap_angle(s);
    const double tt = detail::clamp01(t) * 4;
    const Vec3 ring(std::cos(phi), std::sin(phi), 0);
    if (tt < 1) return tt * radius * ring - half_height * Vec3::UnitZ();
    if (tt < 3) return radius * ring + Vec3(0, 0, -half_height + (tt - 1) * half_height);
    return (4 - tt) * radius * ring + half_height * Vec3::UnitZ();
  }
};

/// Cone: apex (0, 0, half_height), base disc of the given radius at z = -half_height.
struct OracleCone {
  double radius;
  double half_height;
  Vec3 support(const Vec3& u) const {
    const Vec3 apex(0, 0, half_height);
    const Vec3 rim = radius * detail::radial(u) - half_height * Vec3::UnitZ();
    return u.dot(apex) >= u.dot(rim) ? apex : rim;
  }
  Vec3 surface(double s, double t) const {
    // t in [0, 1/2]: base disc from the centre out, [1/2, 1]: mantle from the rim to the apex.
    const double phi = detail::wrap_angle(s);
    const double tt = detail::clamp01(t) * 2;
    const Vec3 ring(std::cos(phi), std::sin(phi), 0);
    if (tt < 1) return tt * radius * ring - half_height * Vec3::UnitZ();
    return (2 - tt) * radius * ring + Vec3(0, 0, -half_height + (tt - 1) * 2 * half_height);
  }
};

/// Superquadric sum |x_i / a_i|^{n_i} <= 1 with every exponent n_i > 1 (seed 001, eq. 3).
struct OracleSuperquadric {
  Vec3 semiaxes;
  Vec3 exponents;
  /// Maximiser of u.x on the surface. Stationarity gives |x_i| = a_i (c_i / lambda)^{1/(n_i - 1)},
  /// c_i = |u_i| a_i / n_i, and the multiplier lambda solves g(lambda) = sum (c_i /
  /// lambda)^{n_i/(n_i-1)} = 1. g is decreasing, g(c_max) >= 1 and g(3 c_max) <= 1 (every power
  /// is >= 1), so plain bisection on that bracket converges; 200 halvings exhaust a double.
  Vec3 support(const Vec3& u) const {
    Vec3 c;
    for (int i = 0; i < 3; ++i) c[i] = std::abs(u[i]) * semiaxes[i] / exponents[i];
    const double c_max = c.maxCoeff();
    if (!(c_max > 0)) return Vec3(semiaxes.x(), 0, 0);
    const auto g = [&](double lambda) {
      double sum = 0;
      for (int i = 0; i < 3; ++i) sum += std::pow(c[i] / lambda, exponents[i] / (exponents[i] - 1));
      return sum;
    };
    double lo = c_max;
    double hi = 3 * c_max;
    constexpr int kBisections = 200;
    for (int k = 0; k < kBisections && hi - lo > 0; ++k) {
      const double mid = (lo + hi) / 2;
      if (mid <= lo || mid >= hi) break;
      (g(mid) > 1 ? lo : hi) = mid;
    }
    const double lambda = (lo + hi) / 2;
    Vec3 x;
    for (int i = 0; i < 3; ++i) {
      const double mag = semiaxes[i] * std::pow(c[i] / lambda, 1 / (exponents[i] - 1));
      x[i] = u[i] < 0 ? -mag : mag;
    }
    return x;
  }
  /// x_i = a_i sign(d_i) |d_i|^{2/n_i} for d on the unit sphere: sum |x_i/a_i|^{n_i} = |d|^2 = 1.
  Vec3 surface(double s, double t) const {
    const double phi = detail::wrap_angle(s);
    const double theta = std::numbers::pi * detail::clamp01(t);
    const Vec3 d(std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi), std::cos(theta));
    Vec3 x;
    for (int i = 0; i < 3; ++i) {
      const double mag = semiaxes[i] * std::pow(std::abs(d[i]), 2 / exponents[i]);
      x[i] = d[i] < 0 ? -mag : mag;
    }
    return x;
  }
};

// ------------------------------------------------------------------------------------------------
// Two-sided distance bounds between placed primitives
// ------------------------------------------------------------------------------------------------

/// Bounds on the distance of two convex shapes: lower <= true distance <= upper.
struct DistanceBounds {
  double lower = kNaN;
  double upper = kNaN;
  /// The surface points realising `upper` (world).
  Vec3 point_a = nan_vec3();
  Vec3 point_b = nan_vec3();
  /// The unit direction realising `lower` (world, from A towards B).
  Vec3 axis = nan_vec3();
};

struct BoundsOptions {
  /// Surface grid per shape (grid x grid samples) for the starting pair.
  int grid = 48;
  /// Pattern-search halvings of the step (for both bounds).
  int refinements = 60;
};

/// World support of a placed shape: the farthest point along world direction u.
template <class Shape>
Vec3 world_support(const Shape& shape, const Pose& pose, const Vec3& u) {
  return pose.apply(shape.support(pose.rotate_inverse(u)));
}

/// Support-function lower bound for unit u: min over B of u.x minus max over A of u.x.
template <class ShapeA, class ShapeB>
double support_gap(const ShapeA& a, const Pose& pose_a, const ShapeB& b, const Pose& pose_b, const Vec3& u) {
  return u.dot(world_support(b, pose_b, -u)) - u.dot(world_support(a, pose_a, u));
}

/// Distance bounds by sampling and support functions (see the file comment). Cost: grid^4
/// distance evaluations for the start plus a few hundred refinement steps per bound. The lower
/// bound is clamped at 0 (intersecting shapes give lower 0; upper is then only a bound).
template <class ShapeA, class ShapeB>
DistanceBounds sampled_distance_bounds(const ShapeA& a, const Pose& pose_a, const ShapeB& b,
                                       const Pose& pose_b, const BoundsOptions& options = {}) {
  const int g = options.grid;
  std::vector<Vec3> sa;
  std::vector<Vec3> sb;
  sa.reserve(static_cast<std::size_t>(g * (g + 1)));
  sb.reserve(static_cast<std::size_t>(g * (g + 1)));
  for (int i = 0; i < g; ++i) {
    for (int j = 0; j <= g; ++j) {
      sa.push_back(pose_a.apply(a.surface(double(i) / g, double(j) / g)));
      sb.push_back(pose_b.apply(b.surface(double(i) / g, double(j) / g)));
    }
  }
  std::size_t best_a = 0;
  std::size_t best_b = 0;
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < sa.size(); ++i) {
    for (std::size_t j = 0; j < sb.size(); ++j) {
      const double d2 = (sa[i] - sb[j]).squaredNorm();
      if (d2 < best) {
        best = d2;
        best_a = i;
        best_b = j;
      }
    }
  }
  // Pattern search over (s_a, t_a, s_b, t_b): every evaluated pair lies on the surfaces, so the
  // best value found is always an upper bound.
  const auto g1 = static_cast<std::size_t>(g + 1);
  double param[4] = {double(best_a / g1) / g, double(best_a % g1) / g, double(best_b / g1) / g,
                     double(best_b % g1) / g};
  const auto pair_distance = [&](const double* q) {
    return (pose_a.apply(a.surface(q[0], q[1])) - pose_b.apply(b.surface(q[2], q[3]))).norm();
  };
  double upper = pair_distance(param);
  double step = 1.0 / g;
  for (int round = 0; round < options.refinements; ++round) {
    bool improved = true;
    for (int sweep = 0; sweep < options.refinements && improved; ++sweep) {
      improved = false;
      for (int k = 0; k < 4; ++k) {
        for (const double sign : {1.0, -1.0}) {
          double trial[4] = {param[0], param[1], param[2], param[3]};
          trial[k] += sign * step;
          const double d = pair_distance(trial);
          if (d < upper) {
            upper = d;
            std::copy(trial, trial + 4, param);
            improved = true;
          }
        }
      }
    }
    step /= 2;
  }
  DistanceBounds out;
  out.upper = upper;
  out.point_a = pose_a.apply(a.surface(param[0], param[1]));
  out.point_b = pose_b.apply(b.surface(param[2], param[3]));

  // Lower bound: maximise the support gap over unit u, from the direction of the upper pair.
  Vec3 u = out.point_b - out.point_a;
  if (!(u.norm() > 0)) u = pose_b.translation() - pose_a.translation();
  if (!(u.norm() > 0)) u = Vec3::UnitX();
  u.normalize();
  double lower = support_gap(a, pose_a, b, pose_b, u);
  double angle = 1.0 / g;
  for (int round = 0; round < options.refinements; ++round) {
    bool improved = true;
    for (int sweep = 0; sweep < options.refinements && improved; ++sweep) {
      improved = false;
      const Vec3 e1 = u.unitOrthogonal();
      const Vec3 e2 = u.cross(e1);
      for (const Vec3& e : {e1, e2, Vec3(-e1), Vec3(-e2)}) {
        const Vec3 trial = (u * std::cos(angle) + e * std::sin(angle)).normalized();
        const double value = support_gap(a, pose_a, b, pose_b, trial);
        if (value > lower) {
          lower = value;
          u = trial;
          improved = true;
        }
      }
    }
    angle /= 2;
  }
  out.lower = std::max(lower, 0.0);
  out.axis = u;
  return out;
}

// ------------------------------------------------------------------------------------------------
// Searches over directions, closed forms of penetration
// ------------------------------------------------------------------------------------------------

/// Pattern search on the unit sphere for a smaller value of f (unit Vec3 -> double) starting at
/// u: at each step size, the 8 directions at `angle` about the current point, moving to the
/// first improvement, at most `max_sweeps` moves; then the angle is halved, `halvings` times.
/// Returns the smallest value found and leaves its direction in u. A local search: from a kink of
/// f (a cylinder's or cone's support function) it can stall above the minimum.
template <class F>
double sphere_pattern_search(F&& f, Vec3& u, double angle, int halvings, int max_sweeps) {
  double value = f(u);
  for (int h = 0; h < halvings; ++h, angle /= 2) {
    for (int sweep = 0; sweep < max_sweeps; ++sweep) {
      const Vec3 e1 = u.unitOrthogonal();
      const Vec3 e2 = u.cross(e1);
      bool improved = false;
      for (int k = 0; k < 8 && !improved; ++k) {
        const double phi = k * std::numbers::pi / 4;
        const Vec3 trial =
            (u * std::cos(angle) + (std::cos(phi) * e1 + std::sin(phi) * e2) * std::sin(angle)).normalized();
        const double v = f(trial);
        if (v < value) {
          value = v;
          u = trial;
          improved = true;
        }
      }
      if (!improved) break;
    }
  }
  return value;
}

/// Penetration depth of a sphere (centre c in the cylinder's local frame, radius r) and a
/// cylinder (radius `radius` along z, half height `half_height`): r minus the signed distance
/// from c to the cylinder (negative inside: the nearer of the side and the caps).
inline double sphere_cylinder_depth(const Vec3& c, double r, double radius, double half_height) {
  const double rho = std::hypot(c.x(), c.y());
  const double z = std::abs(c.z());
  if (rho <= radius && z <= half_height) return r + std::min(radius - rho, half_height - z);
  return r - std::hypot(std::max(rho - radius, 0.0), std::max(z - half_height, 0.0));
}

}  // namespace proxima::oracles
