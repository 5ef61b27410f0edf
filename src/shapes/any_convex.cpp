// SPDX-License-Identifier: MIT
// AnyConvex: the visits behind its SupportMap interface, and the runtime compound shapes. Kept
// out of the header so that user code does not instantiate the visit for every alternative.
#include <proxima/shapes/any_convex.hpp>

#include <algorithm>
#include <limits>
#include <string>
#include <utility>

namespace proxima {

// ---------------------------------------------------------------------------------------------
// ShapeRef

ShapeRef::ShapeRef(std::shared_ptr<const AnyConvex> shape, const char* field) : shape_(std::move(shape)) {
  if (!shape_) throw InvalidInput(field, "is null");
}
ShapeRef::ShapeRef(const AnyConvex& shape) : shape_(std::make_shared<const AnyConvex>(shape)) {}

Vec3 ShapeRef::support(const Vec3& d) const { return shape_->support(d); }
Vec3 ShapeRef::support(const Vec3& d, int& hint) const { return shape_->support(d, hint); }
Vec3 ShapeRef::core_support(const Vec3& d) const { return shape_->core_support(d); }
Vec3 ShapeRef::core_support(const Vec3& d, int& hint) const { return shape_->core_support(d, hint); }
double ShapeRef::margin() const { return shape_->margin(); }
BoundingSphere ShapeRef::bounding_sphere() const { return shape_->bounding_sphere(); }
Aabb ShapeRef::local_aabb() const { return shape_->local_aabb(); }

// ---------------------------------------------------------------------------------------------
// AnyConvexHull

AnyConvexHull::AnyConvexHull(std::vector<std::shared_ptr<const AnyConvex>> shapes) {
  if (shapes.empty()) throw InvalidInput("of", "is empty (a hull needs at least one shape)");
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    shapes_.emplace_back(std::move(shapes[i]), ("of[" + std::to_string(i) + "]").c_str());
  }
  aabb_ = shapes_.front().local_aabb();
  for (const ShapeRef& s : shapes_) {
    const Aabb b = s.local_aabb();
    aabb_.min = aabb_.min.cwiseMin(b.min);
    aabb_.max = aabb_.max.cwiseMax(b.max);
  }
  sphere_ = {(aabb_.min + aabb_.max) / 2, 0};
  for (const ShapeRef& s : shapes_) {
    const BoundingSphere b = s.bounding_sphere();
    sphere_.radius = std::max(sphere_.radius, (b.center - sphere_.center).norm() + b.radius);
  }
}

Vec3 AnyConvexHull::support(const Vec3& v) const {
  Vec3 best = shapes_.front().support(v);
  double best_value = v.dot(best);
  for (std::size_t i = 1; i < shapes_.size(); ++i) {
    const Vec3 p = shapes_[i].support(v);
    const double value = v.dot(p);
    if (value > best_value) {
      best = p;
      best_value = value;
    }
  }
  return best;
}

// ---------------------------------------------------------------------------------------------
// AnyConvex

namespace {

std::shared_ptr<const AnyConvex> share(AnyConvex shape) { return std::make_shared<const AnyConvex>(std::move(shape)); }

template <class S>
constexpr std::string_view kind_of() {
  if constexpr (std::is_same_v<S, Point>) return "point";
  else if constexpr (std::is_same_v<S, Segment>) return "segment";
  else if constexpr (std::is_same_v<S, Triangle>) return "triangle";
  else if constexpr (std::is_same_v<S, Sphere>) return "sphere";
  else if constexpr (std::is_same_v<S, Box>) return "box";
  else if constexpr (std::is_same_v<S, Capsule>) return "capsule";
  else if constexpr (std::is_same_v<S, Cylinder>) return "cylinder";
  else if constexpr (std::is_same_v<S, Cone>) return "cone";
  else if constexpr (std::is_same_v<S, Ellipsoid>) return "ellipsoid";
  else if constexpr (std::is_same_v<S, Polytope>) return "polytope";
  else if constexpr (std::is_same_v<S, Superquadric>) return "superquadric";
  else if constexpr (std::is_same_v<S, AnyRounded>) return "rounded";
  else if constexpr (std::is_same_v<S, AnyAffine>) return "affine";
  else if constexpr (std::is_same_v<S, AnyMinkowskiSum>) return "minkowski";
  else {
    static_assert(std::is_same_v<S, AnyConvexHull>, "every alternative needs a kind name");
    return "hull";
  }
}

}  // namespace

AnyConvex AnyConvex::rounded(AnyConvex core, double radius) {
  return AnyRounded(ShapeRef(share(std::move(core))), radius);
}

AnyConvex AnyConvex::affine(AnyConvex shape, const Mat3& linear, const Vec3& offset) {
  return AnyAffine(ShapeRef(share(std::move(shape))), linear, offset);
}

AnyConvex AnyConvex::transformed(AnyConvex shape, const Pose& pose) {
  return affine(std::move(shape), pose.rotation(), pose.translation());
}

AnyConvex AnyConvex::minkowski(AnyConvex a, AnyConvex b) {
  return AnyMinkowskiSum(ShapeRef(share(std::move(a)), "a"), ShapeRef(share(std::move(b)), "b"));
}

AnyConvex AnyConvex::hull(std::vector<AnyConvex> shapes) {
  std::vector<std::shared_ptr<const AnyConvex>> shared;
  shared.reserve(shapes.size());
  for (AnyConvex& s : shapes) shared.push_back(share(std::move(s)));
  return AnyConvexHull(std::move(shared));
}

Vec3 AnyConvex::support(const Vec3& d) const {
  return std::visit([&](const auto& s) -> Vec3 { return s.support(d); }, shape_);
}

Vec3 AnyConvex::support(const Vec3& d, int& hint) const {
  return std::visit(
      [&](const auto& s) -> Vec3 {
        using S = std::remove_cvref_t<decltype(s)>;
        if constexpr (HintedSupportMap<S>) {
          return s.support(d, hint);
        } else if constexpr (HintedCoreSupportMap<S>) {
          return s.core_support(d, hint) + s.margin() * unit_or_zero(d);
        } else {
          return s.support(d);
        }
      },
      shape_);
}

Vec3 AnyConvex::core_support(const Vec3& d) const {
  return std::visit([&](const auto& s) -> Vec3 { return proxima::core_support(s, d); }, shape_);
}

Vec3 AnyConvex::core_support(const Vec3& d, int& hint) const {
  return std::visit([&](const auto& s) -> Vec3 { return proxima::core_support(s, d, hint); }, shape_);
}

double AnyConvex::margin() const {
  return std::visit([](const auto& s) -> double { return proxima::margin(s); }, shape_);
}

BoundingSphere AnyConvex::bounding_sphere() const {
  return std::visit([](const auto& s) -> BoundingSphere { return s.bounding_sphere(); }, shape_);
}

Aabb AnyConvex::local_aabb() const {
  return std::visit([](const auto& s) -> Aabb { return s.local_aabb(); }, shape_);
}

std::string_view AnyConvex::kind() const noexcept {
  return std::visit([](const auto& s) { return kind_of<std::remove_cvref_t<decltype(s)>>(); }, shape_);
}

}  // namespace proxima
