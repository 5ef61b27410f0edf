// SPDX-License-Identifier: MIT
// Superquadric support: the safeguarded 1-D root find on the Lagrange condition described in
// superquadric.hpp, in logarithms so that no exponent overflows.
#include <proxima/shapes/superquadric.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>

namespace proxima {
namespace {

/// The smooth (exponent > 1) terms of F(s) = log sum_i exp(p_i (s + l_i)).
struct SmoothTerms {
  std::array<double, 3> p{};
  std::array<double, 3> l{};
  std::array<int, 3> axis{};
  int count = 0;
};

struct FValue {
  double f;
  double slope;
};

/// F and F' by a shifted log-sum-exp: the largest term is factored out so nothing overflows and
/// F near 0 keeps full relative precision (log1p of the remaining terms).
FValue evaluate(const SmoothTerms& t, double s) {
  std::array<double, 3> x{};
  int top = 0;
  for (int i = 0; i < t.count; ++i) {
    const auto k = static_cast<std::size_t>(i);
    x[k] = t.p[k] * (s + t.l[k]);
    if (x[k] > x[static_cast<std::size_t>(top)]) top = i;
  }
  const double m = x[static_cast<std::size_t>(top)];
  double rest = 0;
  double weighted = t.p[static_cast<std::size_t>(top)];
  for (int i = 0; i < t.count; ++i) {
    if (i == top) continue;
    const auto k = static_cast<std::size_t>(i);
    const double w = std::exp(x[k] - m);
    rest += w;
    weighted += t.p[k] * w;
  }
  return {m + std::log1p(rest), weighted / (1 + rest)};
}

}  // namespace

Superquadric::Superquadric(const Vec3& semiaxes, const Vec3& exponents, const SuperquadricOptions& options)
    : a_(semiaxes), e_(exponents), options_(options) {
  require_positive("semiaxes", semiaxes);
  static constexpr const char* kField[3] = {"exponents.x", "exponents.y", "exponents.z"};
  for (int i = 0; i < 3; ++i) {
    require_finite(kField[i], exponents[i]);
    if (!(exponents[i] >= 1)) {
      throw InvalidInput(kField[i], "must be >= 1 (convexity), got " + format_number(exponents[i]));
    }
  }
  require_positive("options.tolerance", options.tolerance);
  if (options.max_iterations < 1) {
    throw InvalidInput("options.max_iterations", "must be >= 1, got " + std::to_string(options.max_iterations));
  }
}

double Superquadric::implicit_value(const Vec3& x) const {
  double sum = 0;
  for (int i = 0; i < 3; ++i) sum += std::pow(std::abs(x[i] / a_[i]), e_[i]);
  return sum;
}

BoundingSphere Superquadric::bounding_sphere() const {
  return {Vec3::Zero(), e_.maxCoeff() <= 2 ? a_.maxCoeff() : a_.norm()};
}

SuperquadricSupport Superquadric::support_with_diagnostics(const Vec3& d) const {
  SuperquadricSupport result;
  // c_i = a_i |d_i| scaled so that the largest is 1: s then lives near 0, where a double has its
  // finest absolute resolution.
  Vec3 c = a_.cwiseProduct(d.cwiseAbs());
  const double c_max = c.maxCoeff();
  if (!(c_max > 0)) {  // d == 0 (or NaN): the centre, deterministically
    result.point = Vec3::Zero();
    return result;
  }
  c /= c_max;

  SmoothTerms smooth;
  int linear = -1;  // the linear (exponent 1) term with the largest c, if any
  for (int i = 0; i < 3; ++i) {
    if (!(c[i] > 0)) continue;
    if (e_[i] - 1 <= kSuperquadricUnitExponentTolerance) {
      if (linear < 0 || c[i] > c[linear]) linear = i;
      continue;
    }
    const auto k = static_cast<std::size_t>(smooth.count++);
    smooth.p[k] = e_[i] / (e_[i] - 1);
    smooth.l[k] = std::log(c[i] / e_[i]);
    smooth.axis[k] = i;
  }

  // Bracket of the root of F: all terms <= 1 at the root (s <= -l_i for every i), and the sum
  // of n terms reaches 1 only if one reaches 1/n (s >= -l_i - log(n) / p_i for some i).
  const double inf = std::numeric_limits<double>::infinity();
  double hi = inf;
  double lo = inf;
  for (int i = 0; i < smooth.count; ++i) {
    const auto k = static_cast<std::size_t>(i);
    hi = std::min(hi, -smooth.l[k]);
    lo = std::min(lo, -smooth.l[k] - std::log(double(smooth.count)) / smooth.p[k]);
  }
  Vec3 u = Vec3::Zero();
  double s = hi;
  bool root_needed = smooth.count > 0;
  bool on_surface = !root_needed;  // closed-form cases hold the surface equation to rounding
  if (linear >= 0) {
    // lambda = c_linear (s = -log c_linear) unless the smooth terms alone already exceed the
    // budget there; then the linear term is 0 and the root lies below that s.
    const double s_linear = -std::log(c[linear]);
    const double f_linear = smooth.count > 0 ? evaluate(smooth, s_linear).f : -inf;
    if (f_linear <= 0) {
      s = s_linear;
      u[linear] = -std::expm1(f_linear);  // 1 - (sum of the smooth terms)
      root_needed = false;
    } else {
      hi = std::min(hi, s_linear);
      s = hi;
    }
  }
  if (root_needed) {
    // Newton from the right end of the bracket (F(hi) >= 0): on a convex increasing function it
    // descends monotonically onto the root; bisection guards against rounding taking it out of
    // the bracket. Stops on the tolerance or when s can no longer move.
    result.converged = false;
    for (int it = 0; it < options_.max_iterations; ++it) {
      result.iterations = it + 1;
      const FValue v = evaluate(smooth, s);
      if (std::abs(v.f) <= options_.tolerance) {
        result.converged = true;
        on_surface = true;  // sum u_i^e_i = exp(F) = 1 to the tolerance
        break;
      }
      (v.f > 0 ? hi : lo) = s;
      double next = s - v.f / v.slope;
      if (!(next > lo && next < hi)) next = lo + (hi - lo) / 2;
      if (next == s || next == lo || next == hi) {  // the bracket is one ulp wide: s is the root
        result.converged = true;
        break;
      }
      s = next;
    }
  }
  for (int i = 0; i < smooth.count; ++i) {
    const auto k = static_cast<std::size_t>(i);
    // log u_i = (s + l_i) / (e_i - 1) = p_i (s + l_i) / e_i; clamped to u_i <= 1, which rounding
    // in s could otherwise exceed when p_i is large.
    const int axis = smooth.axis[k];
    u[axis] = std::exp(std::min(0.0, smooth.p[k] * (s + smooth.l[k]) / e_[axis]));
  }

  // Radial correction, when the root find stopped on a collapsed bracket or the cap rather than on
  // the tolerance: scale u by tau so that sum (tau u_i)^e_i = 1 to rounding. The left side is
  // convex increasing in tau with slope >= 1 near tau = 1, so Newton is quick and well
  // conditioned even where the point itself was not (exponents near 1).
  double tau = 1;
  for (int it = 0; it < options_.max_iterations && !on_surface; ++it) {
    double g = -1;
    double slope = 0;
    for (int i = 0; i < 3; ++i) {
      if (!(u[i] > 0)) continue;
      const double w = std::pow(tau * u[i], e_[i]);
      g += w;
      slope += e_[i] * w / tau;
    }
    if (std::abs(g) <= options_.tolerance / 2 || !(slope > 0)) break;
    tau -= g / slope;
  }
  u *= tau;

  for (int i = 0; i < 3; ++i) result.point[i] = d[i] < 0 ? -a_[i] * u[i] : a_[i] * u[i];
  return result;
}

}  // namespace proxima
