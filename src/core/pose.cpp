// SPDX-License-Identifier: MIT
#include <proxima/core/pose.hpp>

#include <proxima/core/error.hpp>
#include <proxima/core/tolerance.hpp>

#include <Eigen/SVD>
#include <cmath>

namespace proxima {

Pose Pose::from_quaternion(double w, double x, double y, double z, const Vec3& translation) {
  // The field names are built (std::string) only on the failing path: these factories run once
  // per element of a batch and once per advancement step of a time of impact.
  if (!(std::isfinite(w) && std::isfinite(x) && std::isfinite(y) && std::isfinite(z) && translation.allFinite())) {
    require_finite("quaternion.w", w);
    require_finite("quaternion.x", x);
    require_finite("quaternion.y", y);
    require_finite("quaternion.z", z);
    require_finite("translation", translation);
  }
  const double norm = std::sqrt(w * w + x * x + y * y + z * z);
  if (!(norm >= kMinQuaternionNorm)) {
    throw InvalidInput("quaternion", "must not be zero, got norm " + format_number(norm));
  }
  const Eigen::Quaterniond q(w / norm, x / norm, y / norm, z / norm);
  return Pose(q.toRotationMatrix(), translation);
}

Pose Pose::from_matrix(const Mat3& rotation, const Vec3& translation) {
  // As in from_quaternion, the field names are built only on the failing path (the raster ccd
  // makes several poses per query; the strings cost more than the rest of this function).
  if (!(rotation.allFinite() && translation.allFinite())) {
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) {
        require_finite("matrix[" + std::to_string(r) + "][" + std::to_string(c) + "]", rotation(r, c));
      }
    }
    require_finite("translation", translation);
  }
  const double orthonormality_error = (rotation.transpose() * rotation - Mat3::Identity()).cwiseAbs().maxCoeff();
  if (orthonormality_error > kRotationOrthonormalityTolerance) {
    throw InvalidInput("matrix", "must be a rotation (orthonormal), |R^T R - I| = " +
                                     format_number(orthonormality_error));
  }
  const double det = rotation.determinant();
  if (std::abs(det - 1) > kRotationOrthonormalityTolerance) {
    throw InvalidInput("matrix", "must be a proper rotation (det +1), got det " + format_number(det));
  }
  // A matrix that is already a rotation to double precision (what rotation() of any Pose returns)
  // is kept bit for bit, so from_matrix(p.rotation(), p.translation()) == p exactly: a pose that
  // travels as a matrix (pickling, scene files, other processes) gives the same answers.
  if (orthonormality_error <= kRotationExactTolerance && std::abs(det - 1) <= kRotationExactTolerance) {
    return Pose(rotation, translation);
  }
  // Otherwise re-orthonormalise (nearest rotation in Frobenius norm) so downstream code can rely
  // on R^T == R^-1 to double precision.
  const Eigen::JacobiSVD<Mat3> svd(rotation, Eigen::ComputeFullU | Eigen::ComputeFullV);
  return Pose(svd.matrixU() * svd.matrixV().transpose(), translation);
}

Pose Pose::from_isometry(const Eigen::Isometry3d& isometry) {
  return from_matrix(isometry.linear(), isometry.translation());
}

Pose Pose::from_euler_xyz(double ax, double ay, double az, const Vec3& translation) {
  require_finite("euler_xyz[0]", ax);
  require_finite("euler_xyz[1]", ay);
  require_finite("euler_xyz[2]", az);
  require_finite("translation", translation);
  const Mat3 r = (Eigen::AngleAxisd(ax, Vec3::UnitX()) * Eigen::AngleAxisd(ay, Vec3::UnitY()) *
                  Eigen::AngleAxisd(az, Vec3::UnitZ()))
                     .toRotationMatrix();
  return Pose(r, translation);
}

Pose Pose::from_translation(const Vec3& translation) {
  if (!translation.allFinite()) require_finite("translation", translation);
  return Pose(Mat3::Identity(), translation);
}

Eigen::Isometry3d Pose::isometry() const {
  Eigen::Isometry3d iso = Eigen::Isometry3d::Identity();
  iso.linear() = rotation_;
  iso.translation() = translation_;
  return iso;
}

Pose Pose::inverse() const {
  const Mat3 rt = rotation_.transpose();
  return Pose(rt, -(rt * translation_));
}

Pose operator*(const Pose& a, const Pose& b) {
  return Pose(a.rotation_ * b.rotation_, a.rotation_ * b.translation_ + a.translation_);
}

}  // namespace proxima
