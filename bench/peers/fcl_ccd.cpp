// SPDX-License-Identifier: MIT
// FCL 0.7 (Debian libfcl-dev) continuous collision, the ccd suite's peer: fcl::continuousCollide
// with the screw motion (CCDM_SCREW: fcl::ScrewMotion between the begin and end transforms).
// FCL interpolates each body by its own screw, so it gets the relative motion with A fixed at
// the identity and B moving from b_in_a_start to b_in_a_end: then its motion of B is the seed's
// relative screw, the motion proxima and the reference use (the screw of a rigid transform is
// unique for rotations below pi). Rows:
//  - fcl_ca_box:     conservative advancement (CCDC_CONSERVATIVE_ADVANCEMENT, libccd GJK, FCL's
//                    defaults: 10 iterations requested, toc_err 1e-4) on fcl::Box, cube case;
//  - fcl_ca_convex:  the same on fcl::Convex built from the mesh's faces, convex cases;
//  - fcl_ca_mesh:    the same on BVHModel<RSS> (FCL's bounding volume for distance queries),
//                    every case;
//  - fcl_sample10, fcl_sample100: CCDC_NAIVE, FCL's discrete check: fcl::collide on
//                    BVHModel<OBBRSS> at N evenly spaced times 0, 1/(N-1), ..., 1 (N = 10, 100),
//                    the first colliding sample is the answer.
// PROXIMA_BENCH_FCL_WORLD_MOTION=1 gives FCL the world poses of both bodies instead (each then
// follows its own screw, so the relative motion is no longer the seed's screw): the set-up a user
// who passes the step's poses straight to FCL gets; docs/benchmarks.md compares the two.
// FCL builds its motion objects per call (heap allocations); that is its API's path, so it is
// inside the timing, as is its allocation of a solver per query.
#include "suites/ccd_implementation.hpp"

#include <fcl/geometry/bvh/BVH_model.h>
#include <fcl/geometry/shape/box.h>
#include <fcl/geometry/shape/convex.h>
#include <fcl/math/bv/OBBRSS.h>
#include <fcl/math/bv/RSS.h>
#include <fcl/narrowphase/continuous_collision.h>

#include <cstdlib>
#include <cstring>
#include <memory>

namespace proxima::bench {
namespace {

/// FCL's documented error of its conservative advancement's contact time (toc_err's default and
/// its traversal node's t_err); the same tolerance judges proxima's toi rows.
constexpr double kAdvancementTimeTolerance = 1e-4;

fcl::Transform3d to_fcl(const Pose& p) {
  fcl::Transform3d tf = fcl::Transform3d::Identity();
  tf.linear() = p.rotation();
  tf.translation() = p.translation();
  return tf;
}

/// The geometry FCL is asked about, per body.
enum class Geometry { box, convex, bvh_rss, bvh_obbrss };

template <class BV>
std::shared_ptr<fcl::CollisionGeometryd> make_bvh(const mesh::Mesh& m) {
  auto model = std::make_shared<fcl::BVHModel<BV>>();
  std::vector<fcl::Vector3d> points(m.vertices().begin(), m.vertices().end());
  std::vector<fcl::Triangle> triangles;
  for (const auto& t : m.triangulate()) {
    triangles.emplace_back(static_cast<std::size_t>(t[0]), static_cast<std::size_t>(t[1]), static_cast<std::size_t>(t[2]));
  }
  model->beginModel();
  model->addSubModel(points, triangles);
  model->endModel();
  return model;
}

std::shared_ptr<fcl::CollisionGeometryd> make_geometry(Geometry g, const mesh::Mesh& m, const std::optional<Vec3>& box) {
  switch (g) {
    case Geometry::box: return std::make_shared<fcl::Boxd>(2 * *box);
    case Geometry::convex: {
      auto vertices = std::make_shared<std::vector<fcl::Vector3d>>(m.vertices().begin(), m.vertices().end());
      auto faces = std::make_shared<std::vector<int>>();
      for (int f = 0; f < m.num_faces(); ++f) {
        const auto ids = m.face(f);
        faces->push_back(static_cast<int>(ids.size()));
        faces->insert(faces->end(), ids.begin(), ids.end());
      }
      return std::make_shared<fcl::Convexd>(vertices, m.num_faces(), faces);
    }
    case Geometry::bvh_rss: return make_bvh<fcl::RSSd>(m);
    case Geometry::bvh_obbrss: return make_bvh<fcl::OBBRSSd>(m);
  }
  return nullptr;
}

class FclCcd final : public CcdImplementation {
 public:
  FclCcd(std::string name, Geometry geometry, fcl::ContinuousCollisionRequestd request, CcdTolerance tolerance,
         std::string description)
      : name_(std::move(name)),
        geometry_(geometry),
        request_(request),
        tolerance_(tolerance),
        description_(std::move(description)) {}
  std::string name() const override { return name_; }
  bool supports(const CcdCase& c) const override {
    if (geometry_ == Geometry::box) return c.box_a && c.box_b;
    if (geometry_ == Geometry::convex) return c.convex;
    return true;
  }
  void prepare(const CcdCase& c) override {
    a_ = make_geometry(geometry_, c.a, c.box_a);
    b_ = make_geometry(geometry_, c.b, c.box_b);
    const char* world = std::getenv("PROXIMA_BENCH_FCL_WORLD_MOTION");
    const bool world_motion = world != nullptr && std::strcmp(world, "1") == 0;
    a_begin_.clear();
    a_end_.clear();
    b_begin_.clear();
    b_end_.clear();
    for (const CcdMotion& m : c.motions) {
      a_begin_.push_back(world_motion ? to_fcl(m.a_start) : fcl::Transform3d::Identity());
      a_end_.push_back(world_motion ? to_fcl(m.a_end) : fcl::Transform3d::Identity());
      b_begin_.push_back(to_fcl(world_motion ? m.b_start : m.b_in_a_start));
      b_end_.push_back(to_fcl(world_motion ? m.b_end : m.b_in_a_end));
    }
  }
  CcdAnswer answer(std::size_t i) override {
    fcl::ContinuousCollisionResultd result;
    fcl::continuousCollide(a_.get(), a_begin_[i], a_end_[i], b_.get(), b_begin_[i], b_end_[i], request_, result);
    if (!result.is_collide) return {};
    return {true, result.time_of_contact};
  }
  CcdTolerance tolerance() const override { return tolerance_; }
  std::string description() const override { return description_; }

 private:
  std::string name_;
  Geometry geometry_;
  fcl::ContinuousCollisionRequestd request_;
  CcdTolerance tolerance_;
  std::string description_;
  std::shared_ptr<fcl::CollisionGeometryd> a_, b_;
  std::vector<fcl::Transform3d> a_begin_, a_end_, b_begin_, b_end_;
};

/// Diagnostic row fcl_ca_mesh_oriented: FCL's own mesh-mesh conservative advancement for RSS
/// hierarchies (detail::conservativeAdvancementMeshOriented with
/// MeshConservativeAdvancementTraversalNodeRSS, what FCL's mesh-shape paths use). The public
/// continuousCollide never reaches it for two meshes: its BVHConservativeAdvancement calls the generic
/// conservativeAdvancement<BV>, which re-transforms its working copy of each mesh by the current
/// pose at every advancement step (its vertices were already transformed at the previous step,
/// so the poses compound) and then misses most contacts; see docs/benchmarks.md.
class FclOrientedMeshCa final : public CcdImplementation {
 public:
  std::string name() const override { return "fcl_ca_mesh_oriented"; }
  bool supports(const CcdCase&) const override { return true; }
  void prepare(const CcdCase& c) override {
    a_ = std::static_pointer_cast<fcl::BVHModel<fcl::RSSd>>(make_bvh<fcl::RSSd>(c.a));
    b_ = std::static_pointer_cast<fcl::BVHModel<fcl::RSSd>>(make_bvh<fcl::RSSd>(c.b));
    b_begin_.clear();
    b_end_.clear();
    for (const CcdMotion& m : c.motions) {
      b_begin_.push_back(to_fcl(m.b_in_a_start));
      b_end_.push_back(to_fcl(m.b_in_a_end));
    }
  }
  CcdAnswer answer(std::size_t i) override {
    const fcl::Transform3d identity = fcl::Transform3d::Identity();
    const fcl::ScrewMotion<double> motion_a(identity, identity);
    const fcl::ScrewMotion<double> motion_b(b_begin_[i], b_end_[i]);
    const fcl::CollisionRequestd request;
    fcl::CollisionResultd result;
    double toc = 1;
    const bool contact =
        fcl::detail::conservativeAdvancementMeshOriented<fcl::RSSd, fcl::detail::MeshConservativeAdvancementTraversalNodeRSS<double>>(
            *a_, &motion_a, *b_, &motion_b, request, result, toc);
    if (!contact) return {};
    return {true, toc};
  }
  CcdTolerance tolerance() const override { return {kAdvancementTimeTolerance, 0}; }
  std::string description() const override {
    return "FCL's internal oriented mesh-mesh conservative advancement on BVHModel<RSS> (diagnostic: "
           "continuousCollide does not reach it)";
  }

 private:
  std::shared_ptr<fcl::BVHModel<fcl::RSSd>> a_, b_;
  std::vector<fcl::Transform3d> b_begin_, b_end_;
};

fcl::ContinuousCollisionRequestd advancement_request() {
  fcl::ContinuousCollisionRequestd r;  // FCL's defaults: 10 iterations, toc_err 1e-4, libccd GJK
  r.ccd_motion_type = fcl::CCDM_SCREW;
  r.ccd_solver_type = fcl::CCDC_CONSERVATIVE_ADVANCEMENT;
  return r;
}

fcl::ContinuousCollisionRequestd sampling_request(std::size_t samples) {
  fcl::ContinuousCollisionRequestd r;
  r.ccd_motion_type = fcl::CCDM_SCREW;
  r.ccd_solver_type = fcl::CCDC_NAIVE;
  r.num_max_iterations = samples;
  r.toc_err = 1.0 / static_cast<double>(samples);  // FCL samples min(num_max_iterations, ceil(1 / toc_err)) times
  return r;
}

}  // namespace

std::vector<std::unique_ptr<CcdImplementation>> make_fcl_ccd() {
  std::vector<std::unique_ptr<CcdImplementation>> rows;
  const CcdTolerance advancement{kAdvancementTimeTolerance, 0};
  rows.push_back(std::make_unique<FclCcd>("fcl_ca_box", Geometry::box, advancement_request(), advancement,
                                          "continuousCollide, conservative advancement, screw motion, fcl::Box"));
  rows.push_back(std::make_unique<FclCcd>("fcl_ca_convex", Geometry::convex, advancement_request(), advancement,
                                          "continuousCollide, conservative advancement, screw motion, fcl::Convex"));
  rows.push_back(std::make_unique<FclCcd>("fcl_ca_mesh", Geometry::bvh_rss, advancement_request(), advancement,
                                          "continuousCollide, conservative advancement, screw motion, BVHModel<RSS>"));
  rows.push_back(std::make_unique<FclOrientedMeshCa>());
  for (std::size_t samples : {std::size_t{10}, std::size_t{100}}) {
    // The first colliding sample is up to one sample spacing after the contact.
    const CcdTolerance sampling{0, 1.0 / static_cast<double>(samples - 1)};
    rows.push_back(std::make_unique<FclCcd>("fcl_sample" + std::to_string(samples), Geometry::bvh_obbrss,
                                            sampling_request(samples), sampling,
                                            "continuousCollide, CCDC_NAIVE (fcl::collide at " +
                                                std::to_string(samples) + " evenly spaced times), BVHModel<OBBRSS>"));
  }
  return rows;
}

}  // namespace proxima::bench
