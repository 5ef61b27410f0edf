// SPDX-License-Identifier: MIT
// libccd 2.0 (Debian libccd-dev, double precision): GJK and MPR intersection, GJK+EPA and MPR
// penetration. libccd has no distance query. Shapes are given to it as support callbacks that
// rotate the direction into the body frame, scan (polytope) or evaluate (primitive) the support,
// and map the point back: what a libccd user writes. Settings are libccd's defaults
// (CCD_INIT: epa/mpr tolerance 1e-4) except max_iterations, which CCD_INIT leaves unbounded and we
// cap at kMaxIterations so that a bad case cannot hang the benchmark.
#include "../common.hpp"
#include "../reference/support.hpp"

#include <ccd/ccd.h>

#include <cstdlib>
#include <limits>

namespace proxima::bench {
namespace {

constexpr unsigned long kMaxIterations = 1000;

struct CcdBody {
  const Body* body = nullptr;
  Mat3 rotation;
  Vec3 translation;
};

void ccd_support(const void* obj, const ccd_vec3_t* dir, ccd_vec3_t* out) {
  const auto* b = static_cast<const CcdBody*>(obj);
  const Vec3 d(dir->v[0], dir->v[1], dir->v[2]);
  const Vec3 p = b->rotation * body_support(*b->body, b->rotation.transpose() * d) + b->translation;
  out->v[0] = p.x();
  out->v[1] = p.y();
  out->v[2] = p.z();
}

/// The naive support some users write (and, we suspect, the reference figures used):
/// every vertex mapped to the world frame, then dotted with the world direction. Selected with
/// the environment variable PROXIMA_BENCH_LIBCCD_WORLD_SCAN=1 (docs/benchmarks.md, "peer figures").
void ccd_support_world_scan(const void* obj, const ccd_vec3_t* dir, ccd_vec3_t* out) {
  const auto* b = static_cast<const CcdBody*>(obj);
  const Vec3 d(dir->v[0], dir->v[1], dir->v[2]);
  Vec3 best = Vec3::Zero();
  if (b->body->kind == ShapeKind::polytope || b->body->kind == ShapeKind::box) {
    double best_value = -std::numeric_limits<double>::infinity();
    for (const Vec3& v : b->body->hull.vertices) {
      const Vec3 w = b->rotation * v + b->translation;
      const double value = d.dot(w);
      if (value > best_value) {
        best_value = value;
        best = w;
      }
    }
  } else {
    best = b->rotation * body_support(*b->body, b->rotation.transpose() * d) + b->translation;
  }
  out->v[0] = best.x();
  out->v[1] = best.y();
  out->v[2] = best.z();
}

void ccd_center(const void* obj, ccd_vec3_t* out) {
  const auto* b = static_cast<const CcdBody*>(obj);
  out->v[0] = b->translation.x();
  out->v[1] = b->translation.y();
  out->v[2] = b->translation.z();
}

class Libccd final : public Implementation {
 public:
  Libccd(bool mpr, bool world_scan) : mpr_(mpr), world_scan_(world_scan) {
    CCD_INIT(&ccd_);
    ccd_.support1 = world_scan ? ccd_support_world_scan : ccd_support;
    ccd_.support2 = world_scan ? ccd_support_world_scan : ccd_support;
    ccd_.center1 = ccd_center;
    ccd_.center2 = ccd_center;
    ccd_.max_iterations = kMaxIterations;
  }
  std::string name() const override {
    return std::string(mpr_ ? "libccd_mpr" : "libccd_gjk") + (world_scan_ ? "_worldscan" : "");
  }
  bool supports(Suite suite, const CaseSet&) const override {
    return suite == Suite::gjk_intersect || suite == Suite::epa;
  }
  void prepare(const CaseSet& set) override {
    objects_.clear();
    for (const PairCase& pc : set.pairs) {
      objects_.push_back({&set.bodies[static_cast<std::size_t>(pc.body_a)], pc.pose_a.rotation, pc.pose_a.translation});
      objects_.push_back({&set.bodies[static_cast<std::size_t>(pc.body_b)], pc.pose_b.rotation, pc.pose_b.translation});
    }
  }
  bool intersect(std::size_t i) override {
    const CcdBody* a = &objects_[2 * i];
    const CcdBody* b = &objects_[2 * i + 1];
    return (mpr_ ? ccdMPRIntersect(a, b, &ccd_) : ccdGJKIntersect(a, b, &ccd_)) != 0;
  }
  DistanceAnswer distance(std::size_t) override { return {}; }
  DepthAnswer penetration(std::size_t i) override {
    ccd_real_t depth = 0;
    ccd_vec3_t dir;
    ccd_vec3_t pos;
    const CcdBody* a = &objects_[2 * i];
    const CcdBody* b = &objects_[2 * i + 1];
    const int rc = mpr_ ? ccdMPRPenetration(a, b, &ccd_, &depth, &dir, &pos)
                        : ccdGJKPenetration(a, b, &ccd_, &depth, &dir, &pos);
    DepthAnswer out;
    out.intersect = rc == 0;
    out.depth = depth;
    return out;
  }

 private:
  bool mpr_;
  bool world_scan_;
  ccd_t ccd_{};
  std::vector<CcdBody> objects_;
};

}  // namespace

std::vector<std::unique_ptr<Implementation>> make_libccd() {
  std::vector<std::unique_ptr<Implementation>> out;
  const char* env = std::getenv("PROXIMA_BENCH_LIBCCD_WORLD_SCAN");
  const bool world_scan = env != nullptr && std::string(env) == "1";
  out.push_back(std::make_unique<Libccd>(false, world_scan));
  out.push_back(std::make_unique<Libccd>(true, world_scan));
  return out;
}

}  // namespace proxima::bench
