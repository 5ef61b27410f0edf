// SPDX-License-Identifier: MIT
#include <proxima/ipm/object.hpp>

#include <proxima/core/error.hpp>
#include <proxima/core/tolerance.hpp>
#include <proxima/ipm/solver.hpp>

#include <Eigen/Eigenvalues>
#include <Eigen/SVD>
#include <cmath>
#include <limits>
#include <string>

namespace proxima::ipm {
namespace {

auto never_stop = [](const auto&) { return false; };

/// Weight that makes a part's value comparable across kinds in phase one: halfspace values are
/// lengths in the primitive frame, so they are divided by the object-frame length of a unit step
/// along their normal times the scale; quadrics by their depth at the centre; the power
/// primitives are already unitless (value -1 at the centre).
double phase_one_weight(const Part& part, double scale) {
  const auto& v = part.primitive().variant();
  if (const auto* h = std::get_if<Halfspace>(&v)) {
    return scale * (part.inverse_linear().transpose() * h->normal()).norm();
  }
  if (const auto* q = std::get_if<Quadric>(&v)) {
    const double depth = -q->value(part.primitive().centre());
    return depth > 0 ? depth : 1;
  }
  return 1;
}

/// An axis-aligned box (object frame) that contains the part's primitive set, for a bounded
/// primitive; false for one that is not bounded alone (a halfspace, an open quadric). Closed
/// forms, no solve, so the box holds whatever the interior-point solves do:
///  - superquadric: the set lies in [-a, a] (each term is at most 1);
///  - quadric with Q positive definite: in the ball about its centre c of radius
///    sqrt(-value(c) / lambda_min(Q));
///  - hyperquadric: each term |plane . (u, 1)| is at most 1, so the set lies in the
///    parallelepiped of the three best-conditioned planes (largest |det| of their normals).
/// The primitive-frame box (centre, half extents) is mapped by the part's affine map.
bool part_outer_box(const Part& part, Aabb& out) {
  Vec3 centre = Vec3::Zero();
  Mat3 spread = Mat3::Zero();  // primitive-frame offsets: centre + spread * s, |s|_inf <= 1
  const auto& v = part.primitive().variant();
  if (const auto* sq = std::get_if<Superquadric>(&v)) {
    spread = sq->semiaxes().asDiagonal();
  } else if (const auto* q = std::get_if<Quadric>(&v)) {
    if (!q->bounded()) return false;
    centre = part.primitive().centre();
    const double depth = -q->value(centre);
    const double lambda = Eigen::SelfAdjointEigenSolver<Mat3>(q->q(), Eigen::EigenvaluesOnly).eigenvalues()(0);
    if (!(lambda > 0) || !(depth >= 0)) return false;
    // A ball of radius r contains the set; each primitive axis spans r (the box of the ball).
    spread = std::sqrt(depth / lambda) * Mat3::Identity();
  } else if (const auto* h = std::get_if<Hyperquadric>(&v)) {
    if (!h->bounded()) return false;
    const auto& terms = h->terms();
    double best = 0;
    Mat3 rows = Mat3::Zero();
    Vec3 offsets = Vec3::Zero();
    for (std::size_t i = 0; i < terms.size(); ++i) {
      for (std::size_t j = i + 1; j < terms.size(); ++j) {
        for (std::size_t k = j + 1; k < terms.size(); ++k) {
          Mat3 m;
          m.row(0) = terms[i].plane.head<3>().transpose();
          m.row(1) = terms[j].plane.head<3>().transpose();
          m.row(2) = terms[k].plane.head<3>().transpose();
          const double det = std::abs(m.determinant());
          if (det > best) {
            best = det;
            rows = m;
            offsets = Vec3(terms[i].plane[3], terms[j].plane[3], terms[k].plane[3]);
          }
        }
      }
    }
    if (!(best > 0)) return false;
    // -1 <= rows u + offsets <= 1: u = rows^-1 (s - offsets), |s|_inf <= 1.
    const Mat3 inverse = rows.inverse();
    centre = -inverse * offsets;
    spread = inverse;
  } else {
    return false;
  }
  // Object frame: x = linear * u + translation.
  const Vec3 c = part.linear() * centre + part.translation();
  const Vec3 half = (part.linear() * spread).cwiseAbs().rowwise().sum();
  if (!c.allFinite() || !half.allFinite()) return false;
  out.min = c - half;
  out.max = c + half;
  return true;
}

}  // namespace

Part::Part(Primitive primitive) : primitive_(std::move(primitive)) {}

Part::Part(Primitive primitive, const Pose& pose)
    : primitive_(std::move(primitive)), linear_(pose.rotation()), translation_(pose.translation()),
      inverse_(pose.rotation().transpose()) {}

Part::Part(Primitive primitive, const Mat3& linear, const Vec3& translation)
    : primitive_(std::move(primitive)), linear_(linear), translation_(translation) {
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) {
      require_finite("affine.linear[" + std::to_string(r) + "][" + std::to_string(c) + "]", linear(r, c));
    }
  }
  require_finite("affine.translation", translation);
  const Eigen::JacobiSVD<Mat3> svd(linear);
  const auto& sv = svd.singularValues();
  if (!(sv(2) > kAffineMinSingularValueRatio * sv(0))) {
    throw InvalidInput("affine.linear", "must be invertible, singular values " + format_number(sv(0)) + ", " +
                                            format_number(sv(1)) + ", " + format_number(sv(2)));
  }
  inverse_ = linear.inverse();
}

Object::Object(std::vector<Part> parts) : parts_(std::move(parts)) {
  if (parts_.empty()) throw InvalidInput("parts", "an implicit object needs at least one part");

  // Scale of the parts in the object frame, and a start for phase one.
  double scale = 0;
  Vec3 start = Vec3::Zero();
  int bounded = 0;
  for (const auto& part : parts_) {
    const double stretch = Eigen::JacobiSVD<Mat3>(part.linear()).singularValues()(0);
    scale = std::max(scale, part.primitive().scale() * stretch + part.translation().norm());
    if (part.primitive().bounded()) {
      start += part.linear() * part.primitive().centre() + part.translation();
      ++bounded;
    }
  }
  if (!(scale > 0)) scale = 1;
  if (bounded > 0) start /= bounded;

  // Phase one in normalised coordinates u = scale * v: minimise r subject to
  // value_k(scale * v) <= weight_k * r. z = (v, r).
  const IpmOptions options;
  std::vector<Constraint<4>> one(parts_.size());
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    const Part& part = parts_[k];
    one[k].primitive = &part.primitive();
    one[k].map.leftCols<3>() = scale * part.inverse_linear();
    one[k].offset = -part.inverse_linear() * part.translation();
    one[k].linear(3) = -phase_one_weight(part, scale);
  }
  Problem<4> p1;
  p1.g(3) = 1;
  p1.constraints = one;
  Eigen::Vector4d z0;
  z0.head<3>() = start / scale;
  double worst = 0;
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    worst = std::max(worst, parts_[k].value(start) / -one[k].linear(3));
  }
  z0(3) = worst + 1;
  Workspace<4> ws4;
  const auto r1 = solve(p1, z0, {}, options.initial_barrier, options, ws4, never_stop);
  if (r1.termination == Termination::unbounded) {
    throw InvalidInput("parts", "the intersection is unbounded (an object must be compact)");
  }
  if (!(r1.z(3) < -kIpmEmptyInteriorTolerance)) {
    throw InvalidInput("parts", "the intersection is empty or has no interior (largest margin " +
                                    format_number(-r1.z(3)) + ")");
  }
  interior_ = scale * r1.z.head<3>();

  // Bounding box: maximise and minimise each coordinate over the object (z = v, N = 3).
  std::vector<Constraint<3>> box(parts_.size());
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    box[k].primitive = one[k].primitive;
    box[k].map = one[k].map.leftCols<3>();
    box[k].offset = one[k].offset;
  }
  Problem<3> p3;
  p3.constraints = box;
  Workspace<3> ws3;
  // The box of the bounded parts' closed-form boxes: it contains the object whatever the solves
  // below do. Their answers bound the object only when they converged (the gap bounds the
  // distance to the optimum only at a stationary point): near exponents of 1 they can stop at the
  // iteration cap far inside, and a box or sphere from such an iterate left parts of the object
  // outside, which the distance certificates rely on (docs/reliability.md, "Implicit objects
  // near exponent 1").
  Aabb outer;
  outer.min = Vec3::Constant(-std::numeric_limits<double>::infinity());
  outer.max = Vec3::Constant(std::numeric_limits<double>::infinity());
  for (const auto& part : parts_) {
    Aabb b;
    if (part_outer_box(part, b)) {
      outer.min = outer.min.cwiseMax(b.min);
      outer.max = outer.max.cwiseMin(b.max);
    }
  }
  aabb_.min = aabb_.max = interior_;
  for (int axis = 0; axis < 3; ++axis) {
    for (int sign : {-1, 1}) {
      p3.g.setZero();
      p3.g(axis) = -sign;
      const auto r3 = solve(p3, Eigen::Vector3d(interior_ / scale), {}, options.initial_barrier, options, ws3, never_stop);
      if (r3.termination == Termination::unbounded) {
        throw InvalidInput("parts", "the intersection is unbounded (an object must be compact)");
      }
      const double bound = sign < 0 ? outer.min(axis) : outer.max(axis);
      double extreme = bound;
      if (r3.termination == Termination::converged || !std::isfinite(bound)) {
        // The iterate is inside; converged, the optimum is at most `gap` further along the
        // axis (to the solver's stationarity tolerance). Without a closed-form box this is the
        // only bound there is.
        const double solved = scale * (r3.z(axis) + sign * std::abs(r3.gap));
        extreme = sign < 0 ? std::max(solved, bound) : std::min(solved, bound);
      }
      if (sign < 0) {
        aabb_.min(axis) = extreme;
      } else {
        aabb_.max(axis) = extreme;
      }
    }
  }
  sphere_.center = (aabb_.min + aabb_.max) / 2;
  sphere_.radius = (aabb_.max - aabb_.min).norm() / 2;
}

bool Object::contains(const Vec3& p) const {
  for (const auto& part : parts_) {
    if (!(part.value(p) <= 0)) return false;
  }
  return true;
}

Object Object::deformed(const Mat3& linear, const Vec3& translation) const {
  const Part check(parts_.front().primitive(), linear, translation);  // validates the map
  std::vector<Part> parts;
  parts.reserve(parts_.size());
  for (const auto& part : parts_) {
    parts.emplace_back(part.primitive(), linear * part.linear(), linear * part.translation() + translation);
  }
  return Object(std::move(parts));
}

}  // namespace proxima::ipm
