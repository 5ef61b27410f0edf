// SPDX-License-Identifier: MIT
// An implicit object: the intersection of convex primitives, each placed in the object's frame by
// its own rigid pose or general affine map (seed 001, eq. 7; a non-uniform scaling is the paper's
// global deformation). The object itself is placed in the world by a Pose given per query.
#pragma once

#include <proxima/core/bounds.hpp>
#include <proxima/core/pose.hpp>
#include <proxima/ipm/primitives.hpp>

#include <vector>

namespace proxima::ipm {

/// A primitive and the affine map from its frame to the object's frame:
/// object point = linear * primitive point + translation.
class Part {
 public:
  /// The primitive in the object's frame (identity map).
  Part(Primitive primitive);  // NOLINT(google-explicit-constructor)
  /// Placed by a rigid pose.
  Part(Primitive primitive, const Pose& pose);
  /// Placed by a general affine map (deformation). Throws InvalidInput naming
  /// "affine.linear[r][c]" / "affine.translation" (non-finite) or "affine.linear" (singular or
  /// nearly so: smallest / largest singular value below kAffineMinSingularValueRatio).
  Part(Primitive primitive, const Mat3& linear, const Vec3& translation);

  const Primitive& primitive() const noexcept { return primitive_; }
  const Mat3& linear() const noexcept { return linear_; }
  const Vec3& translation() const noexcept { return translation_; }
  /// linear^-1, and the primitive-frame point of an object-frame point p.
  const Mat3& inverse_linear() const noexcept { return inverse_; }
  Vec3 to_primitive(const Vec3& p) const { return inverse_ * (p - translation_); }
  /// The primitive's value at an object-frame point (<= 0 inside).
  double value(const Vec3& p) const { return primitive_.value(to_primitive(p)); }

 private:
  Primitive primitive_;
  Mat3 linear_ = Mat3::Identity();
  Vec3 translation_ = Vec3::Zero();
  Mat3 inverse_ = Mat3::Identity();
};

/// The convex set { p : every part's value at p <= 0 } in the object's frame. Construction
/// validates (each primitive validated itself), finds a strictly interior point (phase one:
/// the point minimising the largest normalised part value) and a bounding box (the parts'
/// closed-form boxes, tightened by six small interior-point solves where their bounds are
/// proven). Objects with power terms of exponent below 2 run these solves on the epigraph
/// reformulation (each term |w|^n on its own variable t >= |w|), which does not stall at the
/// kink of exponents near 1. It refuses an empty intersection (or one without interior), and
/// an unbounded one, with InvalidInput naming "parts". Cost: O(#parts) per solve, done once;
/// every solve is capped and ends early once it stops making progress.
class Object {
 public:
  /// Throws InvalidInput "parts" for no parts, an empty or an unbounded intersection.
  explicit Object(std::vector<Part> parts);
  /// A single primitive in the object's frame.
  explicit Object(Primitive primitive) : Object(std::vector<Part>{Part(std::move(primitive))}) {}

  const std::vector<Part>& parts() const noexcept { return parts_; }
  /// A strictly interior point (object frame): the solver's cold start.
  const Vec3& interior_point() const noexcept { return interior_; }
  /// Bounding box and a bounding sphere (the box's circumscribed sphere), object frame.
  const Aabb& local_aabb() const noexcept { return aabb_; }
  const BoundingSphere& bounding_sphere() const noexcept { return sphere_; }
  /// True when p (object frame) lies in every part (value <= 0).
  bool contains(const Vec3& p) const;
  /// The same parts after a global affine deformation p -> linear * p + translation of the
  /// object frame (seed 001, section VIII "Deforming Objects"). Validated as a Part's map.
  Object deformed(const Mat3& linear, const Vec3& translation = Vec3::Zero()) const;

 private:
  std::vector<Part> parts_;
  Vec3 interior_ = nan_vec3();
  Aabb aabb_;
  BoundingSphere sphere_;
};

}  // namespace proxima::ipm
