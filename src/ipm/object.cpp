// SPDX-License-Identifier: MIT
#include <proxima/ipm/object.hpp>

#include <proxima/core/error.hpp>
#include <proxima/core/tolerance.hpp>
#include <proxima/ipm/solver.hpp>

#include <Eigen/SVD>
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
  aabb_.min = aabb_.max = interior_;
  for (int axis = 0; axis < 3; ++axis) {
    for (int sign : {-1, 1}) {
      p3.g.setZero();
      p3.g(axis) = -sign;
      const auto r3 = solve(p3, Eigen::Vector3d(interior_ / scale), {}, options.initial_barrier, options, ws3, never_stop);
      if (r3.termination == Termination::unbounded) {
        throw InvalidInput("parts", "the intersection is unbounded (an object must be compact)");
      }
      // The iterate is inside; the optimum is at most `gap` further along the axis.
      const double extreme = scale * (r3.z(axis) + sign * std::abs(r3.gap));
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
