// SPDX-License-Identifier: MIT
// Bullet 3.24 (Debian libbullet-dev, the double-precision "-float64" libraries with
// BT_USE_DOUBLE_PRECISION, checked below): btGjkPairDetector (Voronoi simplex solver; distance
// without a penetration solver, penetration with btGjkEpaPenetrationDepthSolver) and
// btGjkEpaSolver2 (Distance / Penetration). Collision margins are set to 0 wherever Bullet allows
// it (hulls, boxes, cylinders, cones); spheres and capsules are a point / segment with the radius
// as margin by construction, which btGjkPairDetector adds back itself and which we subtract after
// btGjkEpaSolver2::Distance (it measures the cores). Bullet has no ellipsoid: a small
// btConvexInternalShape subclass gives it the exact support mapping.
#include "../common.hpp"

#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btCapsuleShape.h>
#include <BulletCollision/CollisionShapes/btConeShape.h>
#include <BulletCollision/CollisionShapes/btConvexHullShape.h>
#include <BulletCollision/CollisionShapes/btConvexInternalShape.h>
#include <BulletCollision/CollisionShapes/btCylinderShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpa2.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpaPenetrationDepthSolver.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkPairDetector.h>
#include <BulletCollision/NarrowPhaseCollision/btPointCollector.h>
#include <BulletCollision/NarrowPhaseCollision/btVoronoiSimplexSolver.h>

#include <cmath>
#include <type_traits>

static_assert(std::is_same_v<btScalar, double>, "bench links bullet-float64: BT_USE_DOUBLE_PRECISION must be set");

namespace proxima::bench {
namespace {

/// An ellipsoid for Bullet: support s(d) = A^2 d / |A d| (A = diag(semiaxes)), margin 0.
class BtEllipsoid final : public btConvexInternalShape {
 public:
  explicit BtEllipsoid(const Vec3& semiaxes) : a_(semiaxes.x(), semiaxes.y(), semiaxes.z()) {
    m_shapeType = CUSTOM_CONVEX_SHAPE_TYPE;
    setMargin(0);
  }
  btVector3 localGetSupportingVertexWithoutMargin(const btVector3& d) const override {
    const btVector3 ad = a_ * d;
    const btScalar n = ad.length();
    return n > 0 ? a_ * ad / n : btVector3(0, 0, 0);
  }
  void batchedUnitVectorGetSupportingVertexWithoutMargin(const btVector3* vectors, btVector3* supports,
                                                         int count) const override {
    for (int i = 0; i < count; ++i) supports[i] = localGetSupportingVertexWithoutMargin(vectors[i]);
  }
  void calculateLocalInertia(btScalar, btVector3& inertia) const override { inertia.setValue(0, 0, 0); }
  const char* getName() const override { return "Ellipsoid"; }
  void getAabb(const btTransform& t, btVector3& lo, btVector3& hi) const override { getAabbSlow(t, lo, hi); }

 private:
  btVector3 a_;
};

std::unique_ptr<btConvexShape> make_shape(const Body& body) {
  const Vec3& s = body.size;
  std::unique_ptr<btConvexShape> shape;
  switch (body.kind) {
    case ShapeKind::polytope: {
      auto hull = std::make_unique<btConvexHullShape>();
      for (const Vec3& v : body.hull.vertices) hull->addPoint(btVector3(v.x(), v.y(), v.z()), false);
      hull->recalcLocalAabb();
      shape = std::move(hull);
      break;
    }
    case ShapeKind::box: shape = std::make_unique<btBoxShape>(btVector3(s.x(), s.y(), s.z())); break;
    case ShapeKind::sphere: return std::make_unique<btSphereShape>(s.x());
    case ShapeKind::capsule: return std::make_unique<btCapsuleShapeZ>(s.x(), 2 * s.y());
    case ShapeKind::cylinder: shape = std::make_unique<btCylinderShapeZ>(btVector3(s.x(), s.x(), s.y())); break;
    case ShapeKind::cone: shape = std::make_unique<btConeShapeZ>(s.x(), 2 * s.y()); break;
    case ShapeKind::ellipsoid: return std::make_unique<BtEllipsoid>(s);
  }
  shape->setMargin(0);
  return shape;
}

btTransform make_transform(const Placement& p) {
  const Mat3& r = p.rotation;
  return btTransform(btMatrix3x3(r(0, 0), r(0, 1), r(0, 2), r(1, 0), r(1, 1), r(1, 2), r(2, 0), r(2, 1), r(2, 2)),
                     btVector3(p.translation.x(), p.translation.y(), p.translation.z()));
}

Vec3 to_vec(const btVector3& v) { return {v.x(), v.y(), v.z()}; }

class Bullet final : public Implementation {
 public:
  /// pair_detector: btGjkPairDetector; otherwise btGjkEpaSolver2.
  explicit Bullet(bool pair_detector) : pair_detector_(pair_detector) {}
  std::string name() const override { return pair_detector_ ? "bullet_gjk_pair" : "bullet_gjkepa2"; }
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
  bool intersect(std::size_t i) override { return distance(i).intersect; }
  DistanceAnswer distance(std::size_t i) override {
    const btConvexShape* a = shapes_[2 * i].get();
    const btConvexShape* b = shapes_[2 * i + 1].get();
    DistanceAnswer out;
    if (pair_detector_) {
      btVoronoiSimplexSolver simplex;
      btGjkPairDetector detector(a, b, &simplex, nullptr);
      btGjkPairDetector::ClosestPointInput input;
      input.m_transformA = transforms_[2 * i];
      input.m_transformB = transforms_[2 * i + 1];
      btPointCollector result;
      detector.getClosestPoints(input, result, nullptr);
      out.intersect = !result.m_hasResult || result.m_distance <= 0;
      out.distance = out.intersect ? 0.0 : result.m_distance;
      if (!out.intersect) {
        out.point_b = to_vec(result.m_pointInWorld);
        out.point_a = out.point_b + result.m_distance * to_vec(result.m_normalOnBInWorld);
      }
      return out;
    }
    btGjkEpaSolver2::sResults result;
    const btVector3 guess = transforms_[2 * i + 1].getOrigin() - transforms_[2 * i].getOrigin();
    const bool separated = btGjkEpaSolver2::Distance(a, transforms_[2 * i], b, transforms_[2 * i + 1], guess, result);
    // Distance() measures the cores (margins excluded): add them back, as its callers do.
    const double margins = a->getMargin() + b->getMargin();
    out.intersect = !separated || result.distance <= margins;
    out.distance = out.intersect ? 0.0 : result.distance - margins;
    if (!out.intersect) {
      const Vec3 n = to_vec(result.normal);
      out.point_a = to_vec(result.witnesses[0]) + a->getMargin() * n;
      out.point_b = to_vec(result.witnesses[1]) - b->getMargin() * n;
    }
    return out;
  }
  DepthAnswer penetration(std::size_t i) override {
    const btConvexShape* a = shapes_[2 * i].get();
    const btConvexShape* b = shapes_[2 * i + 1].get();
    DepthAnswer out;
    if (pair_detector_) {
      btVoronoiSimplexSolver simplex;
      btGjkEpaPenetrationDepthSolver epa;
      btGjkPairDetector detector(a, b, &simplex, &epa);
      btGjkPairDetector::ClosestPointInput input;
      input.m_transformA = transforms_[2 * i];
      input.m_transformB = transforms_[2 * i + 1];
      btPointCollector result;
      detector.getClosestPoints(input, result, nullptr);
      out.intersect = result.m_hasResult && result.m_distance <= 0;
      out.depth = out.intersect ? -result.m_distance : kNaN;
      return out;
    }
    btGjkEpaSolver2::sResults result;
    const btVector3 guess = transforms_[2 * i + 1].getOrigin() - transforms_[2 * i].getOrigin();
    out.intersect = btGjkEpaSolver2::Penetration(a, transforms_[2 * i], b, transforms_[2 * i + 1], guess, result);
    out.depth = out.intersect ? -result.distance : kNaN;
    return out;
  }

 private:
  bool pair_detector_;
  std::vector<std::unique_ptr<btConvexShape>> shapes_;
  std::vector<btTransform> transforms_;
};

}  // namespace

std::vector<std::unique_ptr<Implementation>> make_bullet() {
  std::vector<std::unique_ptr<Implementation>> out;
  out.push_back(std::make_unique<Bullet>(true));
  out.push_back(std::make_unique<Bullet>(false));
  return out;
}

}  // namespace proxima::bench
