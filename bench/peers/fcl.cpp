// SPDX-License-Identifier: MIT
// FCL 0.7 (Debian libfcl-dev): its two narrow-phase solvers called directly,
// fcl::detail::GJKSolver_libccd (libccd's GJK/MPR with FCL's distance extension) and
// fcl::detail::GJKSolver_indep (FCL's own GJK/EPA), with default settings. Polytopes are
// fcl::Convex<double> built once from the hull (vertices + faces); the primitives are FCL's own
// shape classes. Per query FCL builds its libccd wrapper objects (a heap allocation for Convex):
// that is FCL's code path, so it is inside the timing.
#include "../common.hpp"

#include <fcl/geometry/shape/box.h>
#include <fcl/geometry/shape/capsule.h>
#include <fcl/geometry/shape/cone.h>
#include <fcl/geometry/shape/convex.h>
#include <fcl/geometry/shape/cylinder.h>
#include <fcl/geometry/shape/ellipsoid.h>
#include <fcl/geometry/shape/sphere.h>
#include <fcl/narrowphase/detail/gjk_solver_indep.h>
#include <fcl/narrowphase/detail/gjk_solver_libccd.h>

#include <cmath>
#include <variant>

namespace proxima::bench {
namespace {

using FclShape = std::variant<fcl::Convexd, fcl::Boxd, fcl::Sphered, fcl::Capsuled, fcl::Cylinderd, fcl::Coned,
                              fcl::Ellipsoidd>;

FclShape make_shape(const Body& body) {
  const Vec3& s = body.size;
  switch (body.kind) {
    case ShapeKind::polytope: {
      auto vertices = std::make_shared<std::vector<fcl::Vector3d>>(body.hull.vertices.begin(), body.hull.vertices.end());
      auto faces = std::make_shared<std::vector<int>>();
      for (const auto& f : body.hull.faces) {
        faces->push_back(3);
        faces->insert(faces->end(), f.begin(), f.end());
      }
      return fcl::Convexd(vertices, static_cast<int>(body.hull.faces.size()), faces);
    }
    case ShapeKind::box: return fcl::Boxd(2 * s);
    case ShapeKind::sphere: return fcl::Sphered(s.x());
    case ShapeKind::capsule: return fcl::Capsuled(s.x(), 2 * s.y());
    case ShapeKind::cylinder: return fcl::Cylinderd(s.x(), 2 * s.y());
    case ShapeKind::cone: return fcl::Coned(s.x(), 2 * s.y());
    case ShapeKind::ellipsoid: return fcl::Ellipsoidd(s);
  }
  return fcl::Sphered(1);
}

fcl::Transform3d make_transform(const Placement& p) {
  fcl::Transform3d tf = fcl::Transform3d::Identity();
  tf.linear() = p.rotation;
  tf.translation() = p.translation;
  return tf;
}

/// Calls f(shape_a, shape_b) with the concrete types of the pairs the benchmark uses.
template <class F>
auto visit_pair(const FclShape& a, const FclShape& b, F&& f) {
  if (const auto* ca = std::get_if<fcl::Convexd>(&a)) return f(*ca, std::get<fcl::Convexd>(b));
  if (const auto* ba = std::get_if<fcl::Boxd>(&a)) return f(*ba, std::get<fcl::Boxd>(b));
  if (const auto* sa = std::get_if<fcl::Sphered>(&a)) return f(*sa, std::get<fcl::Boxd>(b));
  if (const auto* pa = std::get_if<fcl::Capsuled>(&a)) return f(*pa, std::get<fcl::Capsuled>(b));
  if (const auto* ya = std::get_if<fcl::Cylinderd>(&a)) return f(*ya, std::get<fcl::Coned>(b));
  return f(std::get<fcl::Ellipsoidd>(a), std::get<fcl::Ellipsoidd>(b));
}

template <class Solver>
class Fcl final : public Implementation {
 public:
  explicit Fcl(std::string name) : name_(std::move(name)) {}
  std::string name() const override { return name_; }
  bool supports(Suite, const CaseSet&) const override { return true; }
  void prepare(const CaseSet& set) override {
    shapes_.clear();
    transforms_.clear();
    for (const PairCase& pc : set.pairs) {
      shapes_.push_back(make_shape(set.bodies[static_cast<std::size_t>(pc.body_a)]));
      shapes_.push_back(make_shape(set.bodies[static_cast<std::size_t>(pc.body_b)]));
      transforms_.push_back(make_transform(pc.pose_a));
      transforms_.push_back(make_transform(pc.pose_b));
    }
  }
  bool intersect(std::size_t i) override {
    return visit_pair(shapes_[2 * i], shapes_[2 * i + 1], [&](const auto& a, const auto& b) {
      return solver_.shapeIntersect(a, transforms_[2 * i], b, transforms_[2 * i + 1], nullptr);
    });
  }
  DistanceAnswer distance(std::size_t i) override {
    return visit_pair(shapes_[2 * i], shapes_[2 * i + 1], [&](const auto& a, const auto& b) {
      double d = 0;
      fcl::Vector3d pa;
      fcl::Vector3d pb;
      const bool separated = solver_.shapeDistance(a, transforms_[2 * i], b, transforms_[2 * i + 1], &d, &pa, &pb);
      DistanceAnswer out;
      out.intersect = !separated || d <= 0;
      out.distance = out.intersect ? 0.0 : d;
      if (separated) {
        out.point_a = pa;
        out.point_b = pb;
      }
      return out;
    });
  }
  DepthAnswer penetration(std::size_t i) override {
    return visit_pair(shapes_[2 * i], shapes_[2 * i + 1], [&](const auto& a, const auto& b) {
      contacts_.clear();
      DepthAnswer out;
      out.intersect = solver_.shapeIntersect(a, transforms_[2 * i], b, transforms_[2 * i + 1], &contacts_);
      // FCL 0.7's GJKSolver_indep reports convex-convex depths with a negative sign (the libccd
      // solver does not): the magnitude is what both mean, so take it.
      out.depth = out.intersect && !contacts_.empty() ? std::abs(contacts_.front().penetration_depth) : kNaN;
      return out;
    });
  }

 private:
  std::string name_;
  Solver solver_;
  std::vector<FclShape> shapes_;
  std::vector<fcl::Transform3d> transforms_;
  std::vector<fcl::ContactPoint<double>> contacts_;
};

}  // namespace

std::vector<std::unique_ptr<Implementation>> make_fcl() {
  std::vector<std::unique_ptr<Implementation>> out;
  out.push_back(std::make_unique<Fcl<fcl::detail::GJKSolver_libccd<double>>>("fcl_libccd"));
  out.push_back(std::make_unique<Fcl<fcl::detail::GJKSolver_indep<double>>>("fcl_indep"));
  return out;
}

}  // namespace proxima::bench
