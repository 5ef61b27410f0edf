// SPDX-License-Identifier: MIT
// Transformed<S>: a shape placed by a rigid pose inside another shape's frame (a part of a
// compound). The rigid special case of Affine (seed 002, 4.2, theorem 2 with B = R orthonormal):
// s(v) = R s_S(R^T v) + t. Unlike Affine it keeps what a rigid motion preserves: a rounded shape
// stays rounded (same margin) and a hinted one keeps its hint.
#pragma once

#include <proxima/core/bounds.hpp>
#include <proxima/core/pose.hpp>
#include <proxima/shapes/concepts.hpp>

#include <utility>

namespace proxima {

/// pose(S) = {R x + t : x in S}. Holds S by value; the pose is validated by its own factories.
template <SupportMap S>
class Transformed {
 public:
  Transformed(S shape, const Pose& pose) : shape_(std::move(shape)), pose_(pose) {}

  /// R s_S(R^T v) + t. Cost: one support of S and two rotations; no allocation.
  Vec3 support(const Vec3& v) const { return pose_.apply(shape_.support(pose_.rotate_inverse(v))); }
  /// The same with a hill-climbing hint passed to S.
  Vec3 support(const Vec3& v, int& hint) const
    requires HintedSupportMap<S>
  {
    return pose_.apply(shape_.support(pose_.rotate_inverse(v), hint));
  }
  /// Placed core of a rounded S (a rigid motion maps core + ball to placed core + ball).
  Vec3 core_support(const Vec3& v) const
    requires RoundedSupportMap<S>
  {
    return pose_.apply(shape_.core_support(pose_.rotate_inverse(v)));
  }
  double margin() const
    requires RoundedSupportMap<S>
  {
    return shape_.margin();
  }

  const S& shape() const noexcept { return shape_; }
  const Pose& pose() const noexcept { return pose_; }

  /// The placed bounding sphere (same radius).
  BoundingSphere bounding_sphere() const {
    const BoundingSphere s = shape_.bounding_sphere();
    return {pose_.apply(s.center), s.radius};
  }
  /// Box of the placed box of S: contains pose(S); tight only for axis-permuting rotations.
  Aabb local_aabb() const {
    const Aabb b = shape_.local_aabb();
    const Vec3 centre = pose_.apply((b.min + b.max) / 2);
    const Vec3 half = pose_.rotation().cwiseAbs() * ((b.max - b.min) / 2);
    return {centre - half, centre + half};
  }

 private:
  S shape_;
  Pose pose_;
};

}  // namespace proxima
