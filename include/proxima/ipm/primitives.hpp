// SPDX-License-Identifier: MIT
// Convex implicit primitives f(u) <= 0 in their own local frame, with value, gradient and Hessian
// (seed 001, section III: planes, quadrics, superquadrics, hyperquadrics). An implicit object
// (object.hpp) is an intersection of such primitives, each placed by its own rigid or affine map.
#pragma once

#include <proxima/core/types.hpp>

#include <variant>
#include <vector>

namespace proxima::ipm {

/// Value, gradient and (possibly regularised) Hessian of a primitive at a local point.
struct LocalEval {
  double value = kNaN;
  Vec3 gradient = nan_vec3();
  Mat3 hessian = Mat3::Constant(kNaN);
  /// The Hessian's off-diagonal entries are exact zeros (a superquadric's, in its own frame):
  /// the solver then forms M^T H M from the diagonal alone. Every primitive sets it.
  bool diagonal = false;
};

/// The halfspace {u : normal . u <= offset}. The normal is stored normalised (offset scaled with
/// it), so the value is the signed distance to the plane.
class Halfspace {
 public:
  /// Throws InvalidInput naming "normal" (zero or non-finite) or "offset" (non-finite).
  Halfspace(const Vec3& normal, double offset);

  const Vec3& normal() const noexcept { return normal_; }
  double offset() const noexcept { return offset_; }
  double value(const Vec3& u, unsigned /*skip*/ = 0) const { return normal_.dot(u) - offset_; }
  /// Exact: gradient = normal, Hessian = 0. O(1).
  void evaluate(const Vec3& u, double curvature_floor, LocalEval& out, unsigned skip = 0) const;

 private:
  Vec3 normal_;
  double offset_;
};

/// The convex quadric {u : u^T Q u + b^T u + c <= 0} with Q symmetric positive semidefinite.
class Quadric {
 public:
  /// Throws InvalidInput naming "Q" (non-finite, not symmetric or indefinite within
  /// kIpmQuadricTolerance), "b" or "c" (non-finite).
  Quadric(const Mat3& q, const Vec3& b, double c);
  /// The ellipsoid sum (u_i / a_i)^2 <= 1. Throws InvalidInput "semiaxes.x" ... unless > 0.
  static Quadric ellipsoid(const Vec3& semiaxes);

  const Mat3& q() const noexcept { return q_; }
  const Vec3& b() const noexcept { return b_; }
  double c() const noexcept { return c_; }
  /// True when Q is positive definite (the quadric alone is bounded or empty).
  bool bounded() const noexcept { return bounded_; }
  double value(const Vec3& u, unsigned /*skip*/ = 0) const { return u.dot(q_ * u) + b_.dot(u) + c_; }
  /// Exact: gradient 2 Q u + b, Hessian 2 Q. O(1).
  void evaluate(const Vec3& u, double curvature_floor, LocalEval& out, unsigned skip = 0) const;

 private:
  Mat3 q_;
  Vec3 b_;
  double c_;
  bool bounded_ = false;
};

/// The superquadric sum_i |u_i / a_i|^(n_i) <= 1 (seed 001, eq. 3), semiaxes a_i > 0 and
/// exponents n_i >= 1 (non-integer allowed: convex exactly when every n_i >= 1).
class Superquadric {
 public:
  /// Throws InvalidInput "semiaxes.x" ... (non-positive, non-finite) or "exponents[i]" (below 1:
  /// the set is not convex; or non-finite).
  Superquadric(const Vec3& semiaxes, const Vec3& exponents);

  const Vec3& semiaxes() const noexcept { return a_; }
  const Vec3& exponents() const noexcept { return n_; }
  /// The value; the terms whose bit is set in `skip` (bit i: coordinate i) are left out (the
  /// solver's power-cone reformulation carries them as epigraph variables instead).
  double value(const Vec3& u, unsigned skip = 0) const;
  /// True when value(u, skip) >= 0 follows without powering: some term's base |w| is >= 1, so
  /// that term and the sum of the non-negative terms are >= 1 (abs_power and std::pow are
  /// monotone and exact at 1). A cheap necessary test for "outside"; false says nothing.
  bool surely_not_negative(const Vec3& u, unsigned skip = 0) const;
  /// Value and gradient exact. The Hessian is diagonal, n(n-1)|w|^(n-2)/a^2 with w = u/a; for
  /// n < 2 it is unbounded at w = 0 and |w| is raised to `curvature_floor` there (see
  /// kIpmPowerCurvatureFloor). Terms in `skip` are left out, as in value(). Three pow() calls.
  void evaluate(const Vec3& u, double curvature_floor, LocalEval& out, unsigned skip = 0) const;

 private:
  Vec3 a_;
  Vec3 n_;
  Vec3 inv_a_;
};

/// One term |plane . (u, 1)|^exponent of a hyperquadric: plane = (a, b, c, d) gives
/// |a u_x + b u_y + c u_z + d|^exponent.
struct HyperquadricTerm {
  Eigen::Vector4d plane;
  double exponent;
};

/// The hyperquadric sum_i |a_i u_x + b_i u_y + c_i u_z + d_i|^(n_i) <= 1 (seed 001, eq. 4) with at
/// least three terms and n_i >= 1.
class Hyperquadric {
 public:
  /// Throws InvalidInput "terms" (fewer than 3), "terms[i].plane" (non-finite, or a zero linear
  /// part) or "terms[i].exponent" (below 1 or non-finite).
  explicit Hyperquadric(std::vector<HyperquadricTerm> terms);

  const std::vector<HyperquadricTerm>& terms() const noexcept { return terms_; }
  /// True when the planes' normals span R^3 (then the set is bounded).
  bool bounded() const noexcept { return bounded_; }
  /// The value without the terms whose bit is set in `skip` (bit i: term i, i < 32).
  double value(const Vec3& u, unsigned skip = 0) const;
  /// True when value(u, skip) >= 0 follows without powering: some term's base |w| is >= 1, so
  /// that term and the sum of the non-negative terms are >= 1 (abs_power and std::pow are
  /// monotone and exact at 1). A cheap necessary test for "outside"; false says nothing.
  bool surely_not_negative(const Vec3& u, unsigned skip = 0) const;
  /// As Superquadric::evaluate, one pow() per term; the Hessian is sum n(n-1)|h|^(n-2) a a^T.
  void evaluate(const Vec3& u, double curvature_floor, LocalEval& out, unsigned skip = 0) const;

 private:
  std::vector<HyperquadricTerm> terms_;
  bool bounded_ = false;
};

/// One of the four primitive kinds (a closed set: the solver switches on it once per evaluation).
class Primitive {
 public:
  Primitive(Halfspace h) : v_(std::move(h)) {}     // NOLINT(google-explicit-constructor)
  Primitive(Quadric q) : v_(std::move(q)) {}       // NOLINT(google-explicit-constructor)
  Primitive(Superquadric s) : v_(std::move(s)) {}  // NOLINT(google-explicit-constructor)
  Primitive(Hyperquadric h) : v_(std::move(h)) {}  // NOLINT(google-explicit-constructor)

  /// f(u): negative inside, zero on the surface. With `skip`, the power terms whose bits are set
  /// are left out (superquadric coordinates, hyperquadric terms; ignored by the other kinds).
  double value(const Vec3& u, unsigned skip = 0) const {
    return std::visit([&](const auto& p) { return p.value(u, skip); }, v_);
  }
  /// True only when value(u, skip) >= 0 is certain from a test cheaper than value() (a
  /// superquadric's or hyperquadric's bounding slabs); false says nothing. Sign checks (is a
  /// point strictly inside?) use it to skip the powers of far points.
  bool surely_not_negative(const Vec3& u, unsigned skip = 0) const {
    if (const auto* q = std::get_if<Superquadric>(&v_)) return q->surely_not_negative(u, skip);
    if (const auto* h = std::get_if<Hyperquadric>(&v_)) return h->surely_not_negative(u, skip);
    return false;
  }
  /// f, grad f, Hessian (regularised for exponents below 2, see Superquadric::evaluate).
  void evaluate(const Vec3& u, double curvature_floor, LocalEval& out, unsigned skip = 0) const {
    std::visit([&](const auto& p) { p.evaluate(u, curvature_floor, out, skip); }, v_);
  }
  /// True when this primitive alone is a bounded set.
  bool bounded() const;
  /// A point the primitive is built around (superquadric origin, quadric centre, hyperquadric
  /// least-squares centre; a halfspace's foot of the perpendicular from the origin).
  Vec3 centre() const;
  /// Scale of the primitive in local units (semiaxes, plane offsets, ...), for normalisation.
  double scale() const;

  const std::variant<Halfspace, Quadric, Superquadric, Hyperquadric>& variant() const noexcept { return v_; }

 private:
  std::variant<Halfspace, Quadric, Superquadric, Hyperquadric> v_;
};

}  // namespace proxima::ipm
