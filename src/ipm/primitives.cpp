// SPDX-License-Identifier: MIT
#include <proxima/ipm/primitives.hpp>

#include <proxima/core/error.hpp>
#include <proxima/core/tolerance.hpp>

#include <Eigen/Eigenvalues>
#include <Eigen/SVD>
#include <cmath>
#include <string>

namespace proxima::ipm {
namespace {

/// |w|^n and its first two derivatives. For n < 2 the second derivative is evaluated at
/// max(|w|, floor): the value and slope stay exact, only the Newton model's curvature is capped.
struct Power {
  double value;
  double slope;
  double curvature;
};

/// Whole exponents up to this are raised by repeated squaring in abs_power.
constexpr double kSquaringMaxExponent = 64;

/// aw^n for aw >= 0 and n >= 1 (validated). A whole n up to kSquaringMaxExponent by binary
/// powering: at most 2 log2 n rounded products, relative error below n / 2 units in the last
/// place (std::pow: below 1), far inside every tolerance of the solver, and several times
/// cheaper than std::pow, which was a third of a query on the paper's hexagonal nut and pyramid
/// (exponents 16 and 2). Other n by std::pow. value() and evaluate() both use it, so a
/// constraint's value is the same bits on either path.
double abs_power(double aw, double n) {
  if (n <= kSquaringMaxExponent) {
    const int k = static_cast<int>(n);
    if (k == n) {
      double result = 1;
      double base = aw;
      for (int e = k;;) {
        if ((e & 1) != 0) result *= base;
        e >>= 1;
        if (e == 0) return result;
        base *= base;
      }
    }
  }
  return std::pow(aw, n);
}

Power power(double w, double n, double floor) {
  const double aw = std::abs(w);
  const double n1 = n * (n - 1);
  if (aw == 0) {
    // n == 1 has a kink here; 0 is a valid subgradient and the Newton model stays flat.
    const double curvature = n < 2 ? n1 * std::pow(floor, n - 2) : (n == 2 ? n1 : 0);
    return {0, 0, curvature};
  }
  const double p = abs_power(aw, n);
  const double slope = std::copysign(n * p / aw, w);
  double curvature = n1 * p / (aw * aw);
  if (n < 2 && aw < floor) curvature = n1 * std::pow(floor, n - 2);
  return {p, slope, curvature};
}

void require_exponent(const std::string& field, double n) {
  require_finite(field, n);
  if (!(n >= 1)) {
    throw InvalidInput(field, "must be >= 1 (the set is not convex below 1), got " + format_number(n));
  }
}

}  // namespace

Halfspace::Halfspace(const Vec3& normal, double offset) {
  require_finite("normal", normal);
  require_finite("offset", offset);
  const double norm = normal.norm();
  if (!(norm > 0)) throw InvalidInput("normal", "must not be zero");
  normal_ = normal / norm;
  offset_ = offset / norm;
}

void Halfspace::evaluate(const Vec3& u, double /*curvature_floor*/, LocalEval& out, unsigned /*skip*/) const {
  out.value = value(u);
  out.gradient = normal_;
  out.hessian.setZero();
  out.diagonal = true;
}

Quadric::Quadric(const Mat3& q, const Vec3& b, double c) : q_(q), b_(b), c_(c) {
  for (int r = 0; r < 3; ++r) {
    for (int k = 0; k < 3; ++k) {
      require_finite("Q[" + std::to_string(r) + "][" + std::to_string(k) + "]", q(r, k));
    }
  }
  require_finite("b", b);
  require_finite("c", c);
  const double size = q.cwiseAbs().maxCoeff();
  const double asymmetry = (q - q.transpose()).cwiseAbs().maxCoeff();
  if (asymmetry > kIpmQuadricTolerance * size) {
    throw InvalidInput("Q", "must be symmetric, |Q - Q^T| = " + format_number(asymmetry));
  }
  q_ = (q + q.transpose()) / 2;
  const Eigen::SelfAdjointEigenSolver<Mat3> eig(q_, Eigen::EigenvaluesOnly);
  const double smallest = eig.eigenvalues()(0);
  if (smallest < -kIpmQuadricTolerance * size) {
    throw InvalidInput("Q", "must be positive semidefinite (convex quadric), smallest eigenvalue " +
                                format_number(smallest));
  }
  bounded_ = smallest > kIpmQuadricTolerance * size;
}

Quadric Quadric::ellipsoid(const Vec3& semiaxes) {
  require_positive("semiaxes", semiaxes);
  const Vec3 inv = semiaxes.cwiseInverse();
  return Quadric(inv.cwiseProduct(inv).asDiagonal(), Vec3::Zero(), -1);
}

void Quadric::evaluate(const Vec3& u, double /*curvature_floor*/, LocalEval& out, unsigned /*skip*/) const {
  const Vec3 qu = q_ * u;
  out.value = u.dot(qu) + b_.dot(u) + c_;
  out.gradient = 2 * qu + b_;
  out.hessian = 2 * q_;
  out.diagonal = false;
}

Superquadric::Superquadric(const Vec3& semiaxes, const Vec3& exponents) : a_(semiaxes), n_(exponents) {
  require_positive("semiaxes", semiaxes);
  for (int i = 0; i < 3; ++i) require_exponent("exponents[" + std::to_string(i) + "]", exponents[i]);
  inv_a_ = a_.cwiseInverse();
}

double Superquadric::value(const Vec3& u, unsigned skip) const {
  double sum = 0;
  for (int i = 0; i < 3; ++i) {
    if ((skip >> i & 1U) == 0) sum += abs_power(std::abs(u[i] * inv_a_[i]), n_[i]);
  }
  return sum - 1;
}

bool Superquadric::surely_not_negative(const Vec3& u, unsigned skip) const {
  for (int i = 0; i < 3; ++i) {
    if ((skip >> i & 1U) == 0 && std::abs(u[i] * inv_a_[i]) >= 1) return true;
  }
  return false;
}

void Superquadric::evaluate(const Vec3& u, double curvature_floor, LocalEval& out, unsigned skip) const {
  double sum = 0;
  out.hessian.setZero();
  for (int i = 0; i < 3; ++i) {
    if ((skip >> i & 1U) != 0) {
      out.gradient[i] = 0;
      continue;
    }
    const Power p = power(u[i] * inv_a_[i], n_[i], curvature_floor);
    sum += p.value;
    out.gradient[i] = p.slope * inv_a_[i];
    out.hessian(i, i) = p.curvature * inv_a_[i] * inv_a_[i];
  }
  out.value = sum - 1;
  out.diagonal = true;
}

Hyperquadric::Hyperquadric(std::vector<HyperquadricTerm> terms) : terms_(std::move(terms)) {
  if (terms_.size() < 3) {
    throw InvalidInput("terms", "a hyperquadric needs at least 3 terms, got " + std::to_string(terms_.size()));
  }
  Eigen::Matrix<double, Eigen::Dynamic, 3> normals(static_cast<Eigen::Index>(terms_.size()), 3);
  for (std::size_t i = 0; i < terms_.size(); ++i) {
    const std::string field = "terms[" + std::to_string(i) + "]";
    const auto& t = terms_[i];
    for (int k = 0; k < 4; ++k) require_finite(field + ".plane[" + std::to_string(k) + "]", t.plane[k]);
    if (!(t.plane.head<3>().norm() > 0)) throw InvalidInput(field + ".plane", "linear part must not be zero");
    require_exponent(field + ".exponent", t.exponent);
    normals.row(static_cast<Eigen::Index>(i)) = t.plane.head<3>().transpose();
  }
  const Eigen::JacobiSVD<Eigen::Matrix<double, Eigen::Dynamic, 3>> svd(normals);
  const auto& sv = svd.singularValues();
  bounded_ = sv(2) > kAffineMinSingularValueRatio * sv(0);
}

double Hyperquadric::value(const Vec3& u, unsigned skip) const {
  double sum = 0;
  for (std::size_t i = 0; i < terms_.size(); ++i) {
    if (i < 32 && (skip >> i & 1U) != 0) continue;
    const auto& t = terms_[i];
    sum += abs_power(std::abs(t.plane.head<3>().dot(u) + t.plane[3]), t.exponent);
  }
  return sum - 1;
}

bool Hyperquadric::surely_not_negative(const Vec3& u, unsigned skip) const {
  for (std::size_t i = 0; i < terms_.size(); ++i) {
    if (i < 32 && (skip >> i & 1U) != 0) continue;
    const auto& t = terms_[i];
    if (std::abs(t.plane.head<3>().dot(u) + t.plane[3]) >= 1) return true;
  }
  return false;
}

void Hyperquadric::evaluate(const Vec3& u, double curvature_floor, LocalEval& out, unsigned skip) const {
  double sum = 0;
  out.gradient.setZero();
  out.hessian.setZero();
  for (std::size_t i = 0; i < terms_.size(); ++i) {
    if (i < 32 && (skip >> i & 1U) != 0) continue;
    const auto& t = terms_[i];
    const Vec3 a = t.plane.head<3>();
    const Power p = power(a.dot(u) + t.plane[3], t.exponent, curvature_floor);
    sum += p.value;
    out.gradient += p.slope * a;
    out.hessian.noalias() += p.curvature * (a * a.transpose());
  }
  out.value = sum - 1;
  out.diagonal = false;
}

namespace {

/// Least-squares centre and a radius bound of a hyperquadric: |h_i| <= 1 for every term, so the
/// set lies in the ball of radius sqrt(N) / sigma_min(H) around the least-squares centre.
std::pair<Vec3, double> hyperquadric_ball(const Hyperquadric& h) {
  // Normal equations: (H^T H) c = H^T (-d); H^T H is 3 x 3 and positive definite when bounded.
  Mat3 hth = Mat3::Zero();
  Vec3 rhs = Vec3::Zero();
  for (const auto& t : h.terms()) {
    const Vec3 a = t.plane.head<3>();
    hth.noalias() += a * a.transpose();
    rhs -= t.plane[3] * a;
  }
  const Eigen::SelfAdjointEigenSolver<Mat3> eig(hth);
  const Vec3& values = eig.eigenvalues();
  const Vec3 coords = eig.eigenvectors().transpose() * rhs;
  Vec3 solved = Vec3::Zero();
  for (int i = 0; i < 3; ++i) {
    if (values[i] > kAffineMinSingularValueRatio * values[2]) solved[i] = coords[i] / values[i];
  }
  const double smallest = std::sqrt(std::max(values[0], 0.0));
  const double radius = smallest > 0 ? std::sqrt(static_cast<double>(h.terms().size())) / smallest : 0;
  return {eig.eigenvectors() * solved, radius};
}

}  // namespace

bool Primitive::bounded() const {
  switch (v_.index()) {
    case 1: return std::get<Quadric>(v_).bounded();
    case 2: return true;
    case 3: return std::get<Hyperquadric>(v_).bounded();
    default: return false;
  }
}

Vec3 Primitive::centre() const {
  switch (v_.index()) {
    case 0: {
      const auto& h = std::get<Halfspace>(v_);
      return h.normal() * h.offset();
    }
    case 1: {
      const auto& q = std::get<Quadric>(v_);
      // Minimiser of the quadric: -Q^+ b / 2 (pseudo-inverse when Q is singular).
      const Eigen::SelfAdjointEigenSolver<Mat3> eig(q.q());
      const Vec3& values = eig.eigenvalues();
      const Vec3 coords = eig.eigenvectors().transpose() * (-q.b() / 2);
      Vec3 solved = Vec3::Zero();
      for (int i = 0; i < 3; ++i) {
        if (values[i] > kIpmQuadricTolerance * values[2]) solved[i] = coords[i] / values[i];
      }
      return eig.eigenvectors() * solved;
    }
    case 2: return Vec3::Zero();
    default: return hyperquadric_ball(std::get<Hyperquadric>(v_)).first;
  }
}

double Primitive::scale() const {
  switch (v_.index()) {
    case 0: return std::abs(std::get<Halfspace>(v_).offset());
    case 1: {
      const auto& q = std::get<Quadric>(v_);
      const Vec3 c = centre();
      const double depth = -q.value(c);
      const Eigen::SelfAdjointEigenSolver<Mat3> eig(q.q(), Eigen::EigenvaluesOnly);
      const double lambda = eig.eigenvalues()(0);
      const double radius = (q.bounded() && depth > 0) ? std::sqrt(depth / lambda) : 0;
      return c.norm() + radius;
    }
    case 2: return std::get<Superquadric>(v_).semiaxes().maxCoeff();
    default: {
      const auto [c, r] = hyperquadric_ball(std::get<Hyperquadric>(v_));
      return c.norm() + r;
    }
  }
}

}  // namespace proxima::ipm
