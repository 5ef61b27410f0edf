// SPDX-License-Identifier: MIT
// The concepts the algorithms are templated on. A convex shape is known to GJK and EPA only by its
// support mapping (seed 002, section 2): s(v) = a point x of the shape maximising v . x.
#pragma once

#include <proxima/core/bounds.hpp>
#include <proxima/core/types.hpp>

#include <cmath>
#include <concepts>
#include <limits>

namespace proxima {

/// A convex shape given by its support mapping, in its own local frame.
///  - `support(d)`: a point of the shape maximising d . x. `d` need not be unit; for d == 0 any
///    point of the shape is returned (deterministically). Must not allocate.
///  - `bounding_sphere()`, `local_aabb()`: bounds in the local frame (scale and early outs).
template <class S>
concept SupportMap = requires(const S& s, const Vec3& d) {
  { s.support(d) } -> std::convertible_to<Vec3>;
  { s.bounding_sphere() } -> std::convertible_to<BoundingSphere>;
  { s.local_aabb() } -> std::convertible_to<Aabb>;
};

/// A shape that is a core shape swollen by a ball of radius margin() (sphere = point + r,
/// capsule = segment + r, rounded box, ...). GJK runs on the core and subtracts the margins at the
/// end, which is exact and converges in a few iterations where the smooth shape would converge
/// linearly. support(d) must equal core_support(d) + margin() * d / |d|.
template <class S>
concept RoundedSupportMap = SupportMap<S> && requires(const S& s, const Vec3& d) {
  { s.core_support(d) } -> std::convertible_to<Vec3>;
  { s.margin() } -> std::convertible_to<double>;
};

/// A shape whose support mapping can start from a hint (a vertex index it returned before) and
/// hill-climb from there (seed 002, section 3.1). `hint` is read and updated; a negative hint
/// means "no hint". The answer is the same as support(d) up to ties.
template <class S>
concept HintedSupportMap = SupportMap<S> && requires(const S& s, const Vec3& d, int& hint) {
  { s.support(d, hint) } -> std::convertible_to<Vec3>;
};

/// d / |d| without overflow or underflow (d is first divided by its largest entry, so directions
/// of length 1e-300 or 1e300 work); the zero vector for d == 0 or a non-finite d. Used by the
/// rounded shapes to add margin * d / |d|.
inline Vec3 unit_or_zero(const Vec3& d) {
  const double m = d.cwiseAbs().maxCoeff();
  if (!(m > 0) || !(m < std::numeric_limits<double>::infinity())) return Vec3::Zero();
  const Vec3 scaled = d / m;
  return scaled / scaled.norm();
}

/// sqrt(x^2 + y^2) without overflow or underflow: the plain formula when the sum of squares is
/// well inside the normal range (then within an ulp or so of std::hypot), std::hypot otherwise
/// (huge, tiny, zero or NaN input). The plain formula is several times cheaper than the library
/// call, which matters in the cylinder and cone support mappings GJK calls every iteration.
inline double planar_norm(double x, double y) {
  const double s2 = x * x + y * y;
  if (s2 >= 0x1p-900 && s2 <= 0x1p900) return std::sqrt(s2);
  return std::hypot(x, y);
}

/// Support of the core shape: core_support() for rounded shapes, support() otherwise.
template <SupportMap S>
inline Vec3 core_support(const S& s, const Vec3& d) {
  if constexpr (RoundedSupportMap<S>) {
    return s.core_support(d);
  } else {
    return s.support(d);
  }
}

/// Radius by which the core is swollen: margin() for rounded shapes, 0 otherwise.
template <SupportMap S>
inline double margin(const S& s) {
  if constexpr (RoundedSupportMap<S>) {
    return s.margin();
  } else {
    return 0;
  }
}

/// A rounded shape whose core takes a hill-climbing hint (e.g. AnyConvex holding a Polytope, or a
/// rounded polytope): core_support(d, hint) reads and updates the hint as support(d, hint) does.
template <class S>
concept HintedCoreSupportMap = RoundedSupportMap<S> && requires(const S& s, const Vec3& d, int& hint) {
  { s.core_support(d, hint) } -> std::convertible_to<Vec3>;
};

/// Core support with a hill-climbing hint where the shape offers one.
template <SupportMap S>
inline Vec3 core_support(const S& s, const Vec3& d, int& hint) {
  if constexpr (HintedCoreSupportMap<S>) {
    return s.core_support(d, hint);
  } else if constexpr (HintedSupportMap<S> && !RoundedSupportMap<S>) {
    return s.support(d, hint);
  } else {
    (void)hint;
    return core_support(s, d);
  }
}

}  // namespace proxima
