// SPDX-License-Identifier: MIT
// proxima under test: gjk::intersect, gjk::distance and gjk::penetration (cold start: a fresh
// WarmStart per query; default options, so sphere-box and capsule-capsule distance take the
// closed forms of gjk/closed_form.hpp, ellipsoid pairs Newton's method (gjk/ellipsoid_newton.hpp)
// and box pairs the separating-axis pre-pass (gjk/box_box.hpp), and the "proxima_gjk" row
// measures GJK on them; EPA's
// hull is a caller-owned workspace reused across queries, as a pair object or a loop over pairs
// would hold it) on proxima's own shapes, built once per case set outside the timing. Every pair of a case set has
// the same two shape types, so the query resolves the types with one switch per call (the same
// cost as the peers' per-pair dispatch) and then runs the templated kernel.
#include "common.hpp"

#include <proxima/core/pose.hpp>
#include <proxima/gjk/distance.hpp>
#include <proxima/gjk/epa.hpp>
#include <proxima/gjk/intersect.hpp>
#include <proxima/shapes/box.hpp>
#include <proxima/shapes/capsule.hpp>
#include <proxima/shapes/cone.hpp>
#include <proxima/shapes/cylinder.hpp>
#include <proxima/shapes/ellipsoid.hpp>
#include <proxima/shapes/polytope.hpp>
#include <proxima/shapes/sphere.hpp>

#include <span>

namespace proxima::bench {
namespace {

/// The pair types the benchmark uses.
enum class PairKind { polytopes, boxes, sphere_box, capsules, cylinder_cone, ellipsoids, unsupported };

PairKind pair_kind(ShapeKind a, ShapeKind b) {
  if (a == ShapeKind::polytope && b == ShapeKind::polytope) return PairKind::polytopes;
  if (a == ShapeKind::box && b == ShapeKind::box) return PairKind::boxes;
  if (a == ShapeKind::sphere && b == ShapeKind::box) return PairKind::sphere_box;
  if (a == ShapeKind::capsule && b == ShapeKind::capsule) return PairKind::capsules;
  if (a == ShapeKind::cylinder && b == ShapeKind::cone) return PairKind::cylinder_cone;
  if (a == ShapeKind::ellipsoid && b == ShapeKind::ellipsoid) return PairKind::ellipsoids;
  return PairKind::unsupported;
}

PairKind set_kind(const CaseSet& set) {
  if (set.pairs.empty()) return PairKind::unsupported;
  const PairKind k = pair_kind(set.bodies[static_cast<std::size_t>(set.pairs[0].body_a)].kind,
                               set.bodies[static_cast<std::size_t>(set.pairs[0].body_b)].kind);
  for (const PairCase& pc : set.pairs) {
    if (pair_kind(set.bodies[static_cast<std::size_t>(pc.body_a)].kind,
                  set.bodies[static_cast<std::size_t>(pc.body_b)].kind) != k) {
      return PairKind::unsupported;
    }
  }
  return k;
}

Pose to_pose(const Placement& p) {
  const Eigen::Quaterniond& q = p.quaternion;
  return Pose::from_quaternion(q.w(), q.x(), q.y(), q.z(), p.translation);
}

/// The rows proxima contributes: the default queries, and two distance-only variants.
enum class Variant {
  plain,     ///< "proxima": default options (closed forms for the pairs that have one)
  nesterov,  ///< "proxima_nesterov": GjkOptions::nesterov, closed forms and Newton off (GJK measured)
  gjk_only,  ///< "proxima_gjk": closed forms, ellipsoid Newton and the box pre-pass off, on the rows that have them
};

class Proxima final : public Implementation {
 public:
  explicit Proxima(Variant variant = Variant::plain) : variant_(variant) {
    options_.nesterov = variant == Variant::nesterov;
    options_.closed_forms = variant == Variant::plain;
    options_.ellipsoid_newton = variant == Variant::plain;
    options_.box_box = variant == Variant::plain;
    options_.first_support_overlap = variant != Variant::gjk_only;  // proxima_gjk: GJK's own cost
  }
  std::string name() const override {
    switch (variant_) {
      case Variant::nesterov: return "proxima_nesterov";
      case Variant::gjk_only: return "proxima_gjk";
      case Variant::plain: break;
    }
    return "proxima";
  }
  bool supports(Suite suite, const CaseSet& set) const override {
    const PairKind kind = set_kind(set);
    if (variant_ == Variant::nesterov && suite != Suite::gjk_distance && suite != Suite::primitives) return false;
    const bool closed_form_row =
        kind == PairKind::sphere_box || kind == PairKind::capsules || kind == PairKind::ellipsoids ||
        kind == PairKind::boxes;
    if (variant_ == Variant::gjk_only && !(suite == Suite::primitives && closed_form_row)) return false;
    return kind != PairKind::unsupported;
  }
  void prepare(const CaseSet& set) override {
    kind_ = set_kind(set);
    polytopes_.clear();
    boxes_.clear();
    spheres_.clear();
    capsules_.clear();
    cylinders_.clear();
    cones_.clear();
    ellipsoids_.clear();
    poses_.clear();
    for (const PairCase& pc : set.pairs) {
      add(set.bodies[static_cast<std::size_t>(pc.body_a)]);
      add(set.bodies[static_cast<std::size_t>(pc.body_b)]);
      poses_.push_back(to_pose(pc.pose_a));
      poses_.push_back(to_pose(pc.pose_b));
    }
  }
  bool intersect(std::size_t i) override {
    return dispatch<bool>(i, [](const auto& a, const Pose& pa, const auto& b, const Pose& pb) {
      return gjk::intersect(a, pa, b, pb).intersect;
    });
  }
  DistanceAnswer distance(std::size_t i) override {
    return dispatch<DistanceAnswer>(i, [this](const auto& a, const Pose& pa, const auto& b, const Pose& pb) {
      const DistanceResult r = gjk::distance(a, pa, b, pb, options_);
      DistanceAnswer out;
      out.intersect = r.intersect;
      out.distance = r.distance;
      out.point_a = r.point_a;
      out.point_b = r.point_b;
      return out;
    });
  }
  DepthAnswer penetration(std::size_t i) override {
    return dispatch<DepthAnswer>(i, [this](const auto& a, const Pose& pa, const auto& b, const Pose& pb) {
      gjk::WarmStart warm;
      const PenetrationResult r = gjk::penetration(a, pa, b, pb, gjk::EpaOptions{}, warm, *workspace_);
      DepthAnswer out;
      out.intersect = r.intersect;
      out.depth = r.depth;
      return out;
    });
  }

 private:
  void add(const Body& body) {
    const Vec3& s = body.size;
    switch (body.kind) {
      case ShapeKind::polytope:
        polytopes_.emplace_back(std::span<const Vec3>(body.hull.vertices.data(), body.hull.vertices.size()));
        break;
      case ShapeKind::box: boxes_.emplace_back(s); break;
      case ShapeKind::sphere: spheres_.emplace_back(s.x()); break;
      case ShapeKind::capsule: capsules_.emplace_back(s.x(), s.y()); break;
      case ShapeKind::cylinder: cylinders_.emplace_back(s.x(), s.y()); break;
      case ShapeKind::cone: cones_.emplace_back(s.x(), s.y()); break;
      case ShapeKind::ellipsoid: ellipsoids_.emplace_back(s); break;
    }
  }

  /// Calls f(shape_a, pose_a, shape_b, pose_b) with the concrete types of pair i.
  template <class R, class F>
  R dispatch(std::size_t i, F&& f) {
    const Pose& pa = poses_[2 * i];
    const Pose& pb = poses_[2 * i + 1];
    switch (kind_) {
      case PairKind::boxes: return f(boxes_[2 * i], pa, boxes_[2 * i + 1], pb);
      case PairKind::sphere_box: return f(spheres_[i], pa, boxes_[i], pb);
      case PairKind::capsules: return f(capsules_[2 * i], pa, capsules_[2 * i + 1], pb);
      case PairKind::cylinder_cone: return f(cylinders_[i], pa, cones_[i], pb);
      case PairKind::ellipsoids: return f(ellipsoids_[2 * i], pa, ellipsoids_[2 * i + 1], pb);
      case PairKind::polytopes:
      case PairKind::unsupported: break;
    }
    return f(polytopes_[2 * i], pa, polytopes_[2 * i + 1], pb);
  }

  Variant variant_;
  gjk::GjkOptions options_{};
  PairKind kind_ = PairKind::unsupported;
  std::vector<Polytope> polytopes_;
  std::vector<Box> boxes_;
  std::vector<Sphere> spheres_;
  std::vector<Capsule> capsules_;
  std::vector<Cylinder> cylinders_;
  std::vector<Cone> cones_;
  std::vector<Ellipsoid> ellipsoids_;
  std::vector<Pose> poses_;
  std::unique_ptr<gjk::EpaHull> workspace_ = std::make_unique<gjk::EpaHull>();
};

}  // namespace

std::vector<std::unique_ptr<Implementation>> make_proxima() {
  std::vector<std::unique_ptr<Implementation>> out;
  out.push_back(std::make_unique<Proxima>(Variant::plain));
  out.push_back(std::make_unique<Proxima>(Variant::nesterov));
  out.push_back(std::make_unique<Proxima>(Variant::gjk_only));
  return out;
}

}  // namespace proxima::bench
