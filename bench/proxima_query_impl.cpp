// SPDX-License-Identifier: MIT
// proxima through its runtime entry point: shapes held as AnyConvex (closed variant) and the
// query::intersect / distance / penetration functions, which resolve the two types once per
// query (STYLE.md point 2). Beside the "proxima" rows (concrete types, templates inlined into the
// benchmark) this row measures what the runtime boundary costs. Compiled only when the query
// layer exists (CMakeLists.txt).
#include "common.hpp"

#include <proxima/core/pose.hpp>
#include <proxima/query/query.hpp>
#include <proxima/shapes/any_convex.hpp>

#include <span>

namespace proxima::bench {
namespace {

AnyConvex to_any(const Body& body) {
  const Vec3& s = body.size;
  switch (body.kind) {
    case ShapeKind::polytope:
      return Polytope(std::span<const Vec3>(body.hull.vertices.data(), body.hull.vertices.size()));
    case ShapeKind::box: return Box(s);
    case ShapeKind::sphere: return Sphere(s.x());
    case ShapeKind::capsule: return Capsule(s.x(), s.y());
    case ShapeKind::cylinder: return Cylinder(s.x(), s.y());
    case ShapeKind::cone: return Cone(s.x(), s.y());
    case ShapeKind::ellipsoid: return Ellipsoid(s);
  }
  return Sphere(1);
}

class ProximaQuery final : public Implementation {
 public:
  std::string name() const override { return "proxima_query"; }
  bool supports(Suite, const CaseSet&) const override { return true; }
  void prepare(const CaseSet& set) override {
    shapes_.clear();
    poses_.clear();
    for (const PairCase& pc : set.pairs) {
      shapes_.push_back(to_any(set.bodies[static_cast<std::size_t>(pc.body_a)]));
      shapes_.push_back(to_any(set.bodies[static_cast<std::size_t>(pc.body_b)]));
      for (const Placement* p : {&pc.pose_a, &pc.pose_b}) {
        const Eigen::Quaterniond& q = p->quaternion;
        poses_.push_back(Pose::from_quaternion(q.w(), q.x(), q.y(), q.z(), p->translation));
      }
    }
  }
  bool intersect(std::size_t i) override {
    return query::intersect(shapes_[2 * i], poses_[2 * i], shapes_[2 * i + 1], poses_[2 * i + 1]).intersect;
  }
  DistanceAnswer distance(std::size_t i) override {
    const DistanceResult r = query::distance(shapes_[2 * i], poses_[2 * i], shapes_[2 * i + 1], poses_[2 * i + 1]);
    DistanceAnswer out;
    out.intersect = r.intersect;
    out.distance = r.distance;
    out.point_a = r.point_a;
    out.point_b = r.point_b;
    return out;
  }
  DepthAnswer penetration(std::size_t i) override {
    const PenetrationResult r =
        query::penetration(shapes_[2 * i], poses_[2 * i], shapes_[2 * i + 1], poses_[2 * i + 1]);
    DepthAnswer out;
    out.intersect = r.intersect;
    out.depth = r.depth;
    return out;
  }

 private:
  std::vector<AnyConvex> shapes_;
  std::vector<Pose> poses_;
};

}  // namespace

std::vector<std::unique_ptr<Implementation>> make_proxima_query() {
  std::vector<std::unique_ptr<Implementation>> out;
  out.push_back(std::make_unique<ProximaQuery>());
  return out;
}

}  // namespace proxima::bench
