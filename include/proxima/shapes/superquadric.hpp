// SPDX-License-Identifier: MIT
// Superquadric (generalised superellipsoid) |x/a|^e1 + |y/b|^e2 + |z/c|^e3 <= 1 with every
// exponent e_i >= 1 (so the set is convex), as a support mapping. The exponents may be any reals
// >= 1: 2 gives an ellipsoid, 1 an octahedron-like face, large values a rounded box.
//
// Support (seed 002, section 4.1 treats quadrics; this is the same Lagrange argument for general
// exponents). Maximise sum c_i u_i over sum u_i^e_i = 1, u_i >= 0, where u_i = |x_i| / a_i and
// c_i = a_i |d_i|. Stationarity gives u_i = (t c_i / e_i)^(1/(e_i - 1)) for one scalar t = 1 /
// lambda > 0. With s = log t the constraint becomes
//     F(s) = log sum_i exp(p_i (s + log(c_i / e_i))) = 0,   p_i = e_i / (e_i - 1),
// a convex, increasing log-sum-exp of lines in s: bracketed in closed form, solved by Newton from
// the right (monotone for convex increasing functions) with a bisection fallback, then polished
// by a radial correction onto the surface. Working in logarithms avoids overflow for exponents
// near 1 (p_i large) and large (p_i near 1). Exponents equal to 1 (within
// kSuperquadricUnitExponentTolerance) are linear terms: at most one is non-zero at the maximum,
// the one with the largest c_i, and it takes the slack left by the others (closed form).
#pragma once

#include <proxima/core/bounds.hpp>
#include <proxima/core/error.hpp>
#include <proxima/core/tolerance.hpp>

namespace proxima {

/// Options of the superquadric support's root find.
struct SuperquadricOptions {
  /// Stop when the surface equation holds to this (see kSuperquadricRootTolerance).
  double tolerance = kSuperquadricRootTolerance;
  /// Iteration cap of the Newton / bisection loop (and of the radial correction).
  int max_iterations = kSuperquadricMaxIterations;
};

/// A support point with the root find's diagnostics.
struct SuperquadricSupport {
  Vec3 point = nan_vec3();
  /// Newton / bisection iterations used (0 for the closed-form cases).
  int iterations = 0;
  /// False when the cap stopped the loop before the surface equation held to the tolerance
  /// (the point is then the best iterate; it is still inside the shape after the correction).
  bool converged = true;
};

/// {x : sum_i |x_i / a_i|^e_i <= 1} in its local frame, centred at the origin.
class Superquadric {
 public:
  /// Throws InvalidInput("semiaxes.x" ...) unless every semiaxis is finite and > 0, and
  /// InvalidInput("exponents.x" ...) unless every exponent is finite and >= 1.
  Superquadric(const Vec3& semiaxes, const Vec3& exponents, const SuperquadricOptions& options = {});

  /// A point of the surface maximising d . x (the origin for d == 0). Exact to about
  /// options.tolerance relative to the semiaxes. Cost: a few Newton steps on a 3-term
  /// log-sum-exp (2 exp + 1 log1p each; 1.3 to 4 steps on average, at most 6, over 1e5 random
  /// directions on DESIGN.md's shapes), plus 3 logs and 3 exps; no allocation.
  Vec3 support(const Vec3& d) const { return support_with_diagnostics(d).point; }
  /// The same, with the iteration count and convergence flag.
  SuperquadricSupport support_with_diagnostics(const Vec3& d) const;

  /// The left side of the surface equation, sum |x_i / a_i|^e_i (1 on the surface).
  double implicit_value(const Vec3& x) const;

  const Vec3& semiaxes() const noexcept { return a_; }
  const Vec3& exponents() const noexcept { return e_; }
  const SuperquadricOptions& options() const noexcept { return options_; }
  /// Radius max(a) when every exponent is <= 2 (the shape is then inside the ellipsoid with the
  /// same semiaxes), else |a| (the box corner).
  BoundingSphere bounding_sphere() const;
  /// The box +-semiaxes (tight: the shape touches each face at a semiaxis tip).
  Aabb local_aabb() const { return {-a_, a_}; }

 private:
  Vec3 a_;
  Vec3 e_;
  SuperquadricOptions options_;
};

}  // namespace proxima
