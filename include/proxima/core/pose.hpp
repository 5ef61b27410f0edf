// SPDX-License-Identifier: MIT
// Pose: a rigid placement (rotation R, translation t) mapping a shape's local coordinates to the
// world: world = R * local + t.
#pragma once

#include <proxima/core/types.hpp>

namespace proxima {

/// A rigid transform world = rotation * local + translation. The rotation is always a proper
/// orthonormal matrix: every factory validates its input and throws InvalidInput otherwise.
/// A default-constructed Pose is the identity.
class Pose {
 public:
  /// The identity pose.
  Pose() = default;

  /// From a quaternion (w, x, y, z) and a translation. A non-unit quaternion of any finite
  /// magnitude is normalised (one with an entry above kHugeQuaternionEntry is divided by its
  /// largest magnitude before squaring, so no square overflows); a zero one (norm <
  /// kMinQuaternionNorm) or any non-finite entry throws InvalidInput naming "quaternion" (or
  /// "translation").
  static Pose from_quaternion(double w, double x, double y, double z, const Vec3& translation = Vec3::Zero());

  /// From a 3x3 rotation matrix (world = R * local + t). R must be orthonormal with det +1 within
  /// kRotationOrthonormalityTolerance; it is then re-orthonormalised to double precision. A
  /// reflection, a scaling or a non-finite entry throws InvalidInput naming "matrix".
  static Pose from_matrix(const Mat3& rotation, const Vec3& translation = Vec3::Zero());

  /// From an Eigen isometry (its linear part is validated as in from_matrix).
  static Pose from_isometry(const Eigen::Isometry3d& isometry);

  /// From three angles in radians applied about x, then y, then z: R = Rx(ax) * Ry(ay) * Rz(az),
  /// the convention of seed 003 (appendix B). Non-finite angles throw InvalidInput "euler_xyz".
  static Pose from_euler_xyz(double ax, double ay, double az, const Vec3& translation = Vec3::Zero());

  /// A pure translation.
  static Pose from_translation(const Vec3& translation);

  const Mat3& rotation() const noexcept { return rotation_; }
  const Vec3& translation() const noexcept { return translation_; }
  /// The rotation as a unit quaternion.
  Eigen::Quaterniond quaternion() const { return Eigen::Quaterniond(rotation_); }
  Eigen::Isometry3d isometry() const;

  /// Maps a point from local to world coordinates.
  Vec3 apply(const Vec3& local_point) const { return rotation_ * local_point + translation_; }
  /// Rotates a direction from local to world coordinates (no translation).
  Vec3 rotate(const Vec3& local_direction) const { return rotation_ * local_direction; }
  /// Maps a world point into local coordinates: R^T (world_point - t).
  Vec3 apply_inverse(const Vec3& world_point) const { return transpose_times(rotation_, world_point - translation_); }
  /// Rotates a world direction into local coordinates: R^T d (core/types.hpp: in line, the bits of
  /// Eigen's `R.transpose() * d`).
  Vec3 rotate_inverse(const Vec3& world_direction) const { return transpose_times(rotation_, world_direction); }

  /// The inverse transform (local = inverse().apply(world)).
  Pose inverse() const;
  /// Composition: (a * b).apply(p) == a.apply(b.apply(p)).
  friend Pose operator*(const Pose& a, const Pose& b);
  /// B's pose in A's frame, a.inverse() * b, bit for bit, in one call (the form every pair query
  /// starts with: cost only, no intermediate pose stored and reloaded).
  friend Pose relative_pose(const Pose& a, const Pose& b);

  /// True when both rotation and translation are bit-identical (used by caches).
  friend bool operator==(const Pose& a, const Pose& b) {
    return a.rotation_ == b.rotation_ && a.translation_ == b.translation_;
  }

 private:
  Pose(const Mat3& rotation, const Vec3& translation) : rotation_(rotation), translation_(translation) {}

  Mat3 rotation_ = Mat3::Identity();
  Vec3 translation_ = Vec3::Zero();
};

}  // namespace proxima
