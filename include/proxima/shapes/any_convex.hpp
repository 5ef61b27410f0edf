// SPDX-License-Identifier: MIT
// AnyConvex: the closed set of convex shapes proxima knows at run time (a std::variant), and the
// runtime compound shapes built from them (rounded, affine image, Minkowski sum, convex hull).
//
// This is the runtime boundary (STYLE.md point 2): a query visits an AnyConvex ONCE, with
// std::visit on variant(), and runs the templated algorithm on the concrete shape. AnyConvex also
// satisfies SupportMap itself (each support call is then a visit), which is convenient for tests
// and tools but slower in a hot loop.
//
// Compound runtime shapes hold their children through std::shared_ptr<const AnyConvex> (ShapeRef),
// so an AnyConvex is cheap to copy and a child may be shared. Their support makes ONE VISIT PER
// CHILD CALL: the visit into the compound resolves only the outer type. That is the price of a
// runtime tree; build the templated decorators (Affine, MinkowskiSum, ConvexHull, Rounded) when
// the types are known at compile time.
#pragma once

#include <proxima/core/pose.hpp>
#include <proxima/shapes/affine.hpp>
#include <proxima/shapes/box.hpp>
#include <proxima/shapes/capsule.hpp>
#include <proxima/shapes/concepts.hpp>
#include <proxima/shapes/cone.hpp>
#include <proxima/shapes/cylinder.hpp>
#include <proxima/shapes/ellipsoid.hpp>
#include <proxima/shapes/minkowski_sum.hpp>
#include <proxima/shapes/point.hpp>
#include <proxima/shapes/polytope.hpp>
#include <proxima/shapes/rounded.hpp>
#include <proxima/shapes/segment.hpp>
#include <proxima/shapes/sphere.hpp>
#include <proxima/shapes/superquadric.hpp>
#include <proxima/shapes/triangle.hpp>

#include <memory>
#include <string_view>
#include <variant>
#include <vector>

namespace proxima {

class AnyConvex;

/// A shared, immutable handle on a child shape of a runtime compound. A RoundedSupportMap whose
/// margin is the child's (0 for shapes that are not rounded). Each call visits the child.
class ShapeRef {
 public:
  /// Throws InvalidInput(field) when `shape` is null; `field` names the compound's field.
  explicit ShapeRef(std::shared_ptr<const AnyConvex> shape, const char* field = "shape");
  /// Convenience: copies `shape` into a new shared AnyConvex.
  explicit ShapeRef(const AnyConvex& shape);

  Vec3 support(const Vec3& d) const;
  /// Hill-climbing hint passed through to the child (used when it is, or wraps, a Polytope), so
  /// that an affine image or a rounded version of a runtime polytope keeps its warm start.
  Vec3 support(const Vec3& d, int& hint) const;
  Vec3 core_support(const Vec3& d) const;
  Vec3 core_support(const Vec3& d, int& hint) const;
  double margin() const;
  BoundingSphere bounding_sphere() const;
  Aabb local_aabb() const;

  const AnyConvex& get() const noexcept { return *shape_; }
  const std::shared_ptr<const AnyConvex>& pointer() const noexcept { return shape_; }

 private:
  std::shared_ptr<const AnyConvex> shape_;
};

/// core + ball(radius) of a runtime shape (scene type "rounded").
using AnyRounded = Rounded<ShapeRef>;
/// B x + c of a runtime shape (scene: an `affine` on a part).
using AnyAffine = Affine<ShapeRef>;
/// A + B of two runtime shapes (scene type "minkowski"). Rounded: margins add.
using AnyMinkowskiSum = MinkowskiSum<ShapeRef, ShapeRef>;

/// Convex hull of a runtime list of shapes (scene type "hull"); seed 002, section 4.4.
class AnyConvexHull {
 public:
  /// Throws InvalidInput("of") when the list is empty, ("of[i]") when an entry is null.
  explicit AnyConvexHull(std::vector<std::shared_ptr<const AnyConvex>> shapes);

  /// The member support maximising v . s_i(v); the first member on ties. One visit per member.
  Vec3 support(const Vec3& v) const;
  const std::vector<ShapeRef>& shapes() const noexcept { return shapes_; }
  BoundingSphere bounding_sphere() const { return sphere_; }
  Aabb local_aabb() const { return aabb_; }

 private:
  std::vector<ShapeRef> shapes_;
  Aabb aabb_;
  BoundingSphere sphere_;
};

/// Any convex shape known at run time. Construct it from any alternative (implicitly:
/// `AnyConvex s = Sphere(1);`) or with the compound factories below.
class AnyConvex {
 public:
  using Variant = std::variant<Point, Segment, Triangle, Sphere, Box, Capsule, Cylinder, Cone, Ellipsoid, Polytope,
                               Superquadric, AnyRounded, AnyAffine, AnyMinkowskiSum, AnyConvexHull>;

  template <class S>
    requires std::is_constructible_v<Variant, S&&> && (!std::is_same_v<std::remove_cvref_t<S>, AnyConvex>)
  AnyConvex(S&& shape) : shape_(std::forward<S>(shape)) {}  // NOLINT: implicit on purpose

  /// core + ball(radius). Throws InvalidInput("radius").
  static AnyConvex rounded(AnyConvex core, double radius);
  /// B x + c applied to `shape`. Throws as Affine does ("linear", "offset").
  static AnyConvex affine(AnyConvex shape, const Mat3& linear, const Vec3& offset = Vec3::Zero());
  /// A rigid placement of `shape`: affine(shape, pose.rotation(), pose.translation()).
  static AnyConvex transformed(AnyConvex shape, const Pose& pose);
  /// a + b.
  static AnyConvex minkowski(AnyConvex a, AnyConvex b);
  /// conv(shapes). Throws InvalidInput("of") when empty.
  static AnyConvex hull(std::vector<AnyConvex> shapes);

  /// Support point in the local frame (one visit). Deterministic for d == 0.
  Vec3 support(const Vec3& d) const;
  /// Support with a hill-climbing hint: used by a Polytope (directly, or inside an AnyRounded or
  /// AnyAffine), ignored otherwise.
  Vec3 support(const Vec3& d, int& hint) const;
  /// Support of the core of a rounded alternative (Sphere, Capsule, AnyRounded, sums of rounded
  /// shapes), support() for the others; core_support(d) + margin() * d / |d| == support(d).
  Vec3 core_support(const Vec3& d) const;
  Vec3 core_support(const Vec3& d, int& hint) const;
  /// Radius of the rounded alternative's swelling; 0 for the others.
  double margin() const;
  BoundingSphere bounding_sphere() const;
  Aabb local_aabb() const;

  /// The scene type name: "point", "segment", "triangle", "sphere", "box", "capsule", "cylinder",
  /// "cone", "ellipsoid", "polytope", "superquadric", "rounded", "affine", "minkowski", "hull".
  std::string_view kind() const noexcept;

  /// The variant, for the one visit per query.
  const Variant& variant() const noexcept { return shape_; }
  /// Visits the concrete shape: visit([](const auto& s) { ... }).
  template <class F>
  decltype(auto) visit(F&& f) const {
    return std::visit(std::forward<F>(f), shape_);
  }
  /// The alternative S, or nullptr.
  template <class S>
  const S* get_if() const noexcept {
    return std::get_if<S>(&shape_);
  }

 private:
  Variant shape_;
};

static_assert(SupportMap<ShapeRef> && RoundedSupportMap<ShapeRef> && HintedSupportMap<ShapeRef> &&
              HintedCoreSupportMap<ShapeRef>);

}  // namespace proxima
