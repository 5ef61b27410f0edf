// SPDX-License-Identifier: MIT
// Affine<S>: the image T(S) of a convex shape under T(x) = B x + c with B invertible. Seed 002,
// section 4.2, theorem 2: s_T(S)(v) = T(s_S(B^T v)). Non-uniform scaling, shear and reflection
// are allowed; a rigid pose is the special case B = R.
#pragma once

#include <proxima/core/bounds.hpp>
#include <proxima/core/error.hpp>
#include <proxima/core/tolerance.hpp>
#include <proxima/shapes/concepts.hpp>

#include <Eigen/SVD>

#include <string>
#include <utility>

namespace proxima {

/// Throws InvalidInput("linear[i][j]") on a non-finite entry and InvalidInput("linear") when the
/// smallest singular value of B is below kAffineMinSingularValueRatio times the largest (B is
/// singular or nearly so). Returns the largest singular value (the norm of B).
inline double validate_affine_map(const Mat3& linear, const Vec3& offset) {
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      require_finite("linear[" + std::to_string(i) + "][" + std::to_string(j) + "]", linear(i, j));
    }
  }
  require_finite("offset", offset);
  const Vec3 sigma = Eigen::JacobiSVD<Mat3>(linear).singularValues();  // sorted, descending
  if (!(sigma[2] > kAffineMinSingularValueRatio * sigma[0])) {
    throw InvalidInput("linear", "must be invertible: singular values " + format_number(sigma[0]) + ", " +
                                     format_number(sigma[1]) + ", " + format_number(sigma[2]) +
                                     " (smallest / largest must exceed kAffineMinSingularValueRatio = " +
                                     format_number(kAffineMinSingularValueRatio) + ")");
  }
  return sigma[0];
}

/// T(S) = {B x + c : x in S}, in the frame of T's output. Holds S by value (cheap for every
/// shape, including Polytope, which shares its hull data).
template <SupportMap S>
class Affine {
 public:
  /// `linear` is B, `offset` is c. Validated by validate_affine_map (names "linear[i][j]",
  /// "linear", "offset.x" ...). Cost: one 3x3 SVD.
  Affine(S shape, const Mat3& linear, const Vec3& offset = Vec3::Zero())
      : shape_(std::move(shape)), linear_(linear), offset_(offset), norm_(validate_affine_map(linear, offset)) {}

  /// T(s_S(B^T v)) (theorem 2). Cost: one support of S and two 3x3 products; no allocation.
  /// d == 0 gives T(s_S(0)), deterministic when S's is.
  Vec3 support(const Vec3& v) const { return linear_ * shape_.support(linear_.transpose() * v) + offset_; }
  /// Same, passing a hill-climbing hint through to S.
  Vec3 support(const Vec3& v, int& hint) const
    requires HintedSupportMap<S>
  {
    return linear_ * shape_.support(linear_.transpose() * v, hint) + offset_;
  }

  const S& shape() const noexcept { return shape_; }
  const Mat3& linear() const noexcept { return linear_; }
  const Vec3& offset() const noexcept { return offset_; }

  /// T(centre of S's sphere), radius scaled by |B| (largest singular value).
  BoundingSphere bounding_sphere() const {
    const BoundingSphere s = shape_.bounding_sphere();
    return {linear_ * s.center + offset_, norm_ * s.radius};
  }
  /// The box of T(S's box): centre T(centre), half extents |B| (entrywise) times S's half extents.
  /// Contains T(S); not tight unless B maps axes to axes.
  Aabb local_aabb() const {
    const Aabb b = shape_.local_aabb();
    const Vec3 centre = linear_ * ((b.min + b.max) / 2) + offset_;
    const Vec3 half = linear_.cwiseAbs() * ((b.max - b.min) / 2);
    return {centre - half, centre + half};
  }

 private:
  S shape_;
  Mat3 linear_;
  Vec3 offset_;
  double norm_;
};

}  // namespace proxima
