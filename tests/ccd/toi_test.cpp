// SPDX-License-Identifier: MIT
// Convex time of impact by conservative advancement: translation against closed forms (sphere
// pairs: a quadratic; box against sphere), screw motion against the exact screw_collisions mode
// on the same convex polyhedra (a second, independent algorithm).
#include "support/draws.hpp"

#include <proxima/ccd/screw_collisions.hpp>
#include <proxima/ccd/toi.hpp>
#include <proxima/mesh/generators.hpp>
#include <proxima/shapes/box.hpp>
#include <proxima/shapes/polytope.hpp>
#include <proxima/shapes/sphere.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

namespace proxima::ccd {
namespace {

TEST(ToiTranslate, BoxAgainstSphereClosedForm) {
  const Sphere ball(1);
  const Box box(Vec3(0.5, 0.5, 0.5));
  const ToiResult r = toi_translate(ball, Pose(), Vec3::Zero(), box, Pose::from_translation(Vec3(5, 0.2, 0)),
                                    Vec3(-2, 0, 0), 2);
  ASSERT_TRUE(r.contact);
  EXPECT_NEAR(r.toi, 1.75, 1e-8);
  EXPECT_LT((r.normal - Vec3::UnitX()).norm(), 1e-6);
  EXPECT_EQ(r.status, Status::converged);
  const ToiResult short_step = toi_translate(ball, Pose(), Vec3::Zero(), box, Pose::from_translation(Vec3(5, 0.2, 0)),
                                             Vec3(-2, 0, 0), 1.5);
  EXPECT_FALSE(short_step.contact);
  EXPECT_TRUE(std::isnan(short_step.toi));
  EXPECT_THROW(toi_translate(ball, Pose(), Vec3(std::nan(""), 0, 0), box, Pose(), Vec3::Zero(), 1), InvalidInput);
}

TEST(ToiTranslate, SpherePairsMatchTheQuadratic) {
  const std::uint64_t seed = 6006;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  int hits = 0, misses = 0;
  for (int k = 0; k < 300; ++k) {
    const double ra = 0.2 + std::abs(u(rng)), rb = 0.2 + std::abs(u(rng));
    const Vec3 pa{u(rng), u(rng), u(rng)};
    const double reach = 1.1 + 2 * std::abs(u(rng));
    Vec3 pb = pa + (ra + rb) * reach * proxima::test::draw_vec3(u, rng).normalized();
    // Relative velocity roughly towards A with a random sideways part: a mix of hits and misses.
    const Vec3 va = 2 * Vec3{u(rng), u(rng), u(rng)};
    const double closing = 0.5 + 1.5 * std::abs(u(rng));
    const Vec3 vb = va - (pb - pa) * closing + 2 * Vec3{u(rng), u(rng), u(rng)};
    // |d + w t| = R with d = pb - pa, w = vb - va.
    const Vec3 d = pb - pa, w = vb - va;
    const double R = ra + rb, qa = w.squaredNorm(), qb = 2 * d.dot(w), qc = d.squaredNorm() - R * R;
    const double disc = qb * qb - 4 * qa * qc;
    double expected = kNaN;
    if (disc >= 0) {
      const double t = (-qb - std::sqrt(disc)) / (2 * qa);
      if (t >= 0 && t <= 1) expected = t;
    }
    const ToiResult r = toi_translate(Sphere(ra), Pose::from_translation(pa), va, Sphere(rb), Pose::from_translation(pb), vb, 1);
    if (std::isnan(expected)) {
      ++misses;
      EXPECT_FALSE(r.contact) << "seed " << seed << " case " << k;
    } else {
      ++hits;
      ASSERT_TRUE(r.contact) << "seed " << seed << " case " << k;
      EXPECT_NEAR(r.toi, expected, 1e-7) << "seed " << seed << " case " << k;
      EXPECT_LE(r.toi, expected + 1e-12) << "conservative advancement never steps past the contact";
    }
  }
  EXPECT_GE(hits, 50);
  EXPECT_GE(misses, 50);
}

TEST(ToiScrew, AgreesWithExactScrewCollisionsOnConvexPolyhedra) {
  // The same cube as a Polytope (GJK) and as a Mesh (exact screw collisions).
  const mesh::Mesh cube_mesh = mesh::make_box(Vec3(0.5, 0.4, 0.3));
  const Polytope cube(std::span<const Vec3>(cube_mesh.vertices()));
  const mesh::Mesh tet_mesh = mesh::make_tetrahedron(0.8);
  const Polytope tet(std::span<const Vec3>(tet_mesh.vertices()));
  const std::uint64_t seed = 6007;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  int hits = 0, misses = 0;
  for (int k = 0; k < 120; ++k) {
    auto rot = [&](double max_angle) {
      const double angle = max_angle * std::abs(u(rng));
      return Eigen::AngleAxisd(angle, proxima::test::draw_vec3(u, rng).normalized()).toRotationMatrix();
    };
    const Vec3 dir = Vec3{u(rng), u(rng), u(rng)}.normalized();
    Vec3 side = 1.3 * Vec3{u(rng), u(rng), u(rng)};
    side -= side.dot(dir) * dir;  // perpendicular: B starts 2.2 away, clear of A (radii 0.71 + 0.8)
    const Mat3 r0 = rot(std::numbers::pi);
    const Pose a_start = Pose::from_matrix(rot(std::numbers::pi));
    const Mat3 a_turn = rot(0.1);
    const Pose a_end = Pose::from_matrix(a_turn * a_start.rotation(), 0.1 * proxima::test::draw_vec3(u, rng));
    const Pose b_start = Pose::from_matrix(r0, 2.2 * dir + side);
    const Pose b_end = Pose::from_matrix(Mat3(rot(0.7)) * r0, -2.0 * dir + side);
    const ToiResult ca = toi_screw(cube, a_start, a_end, tet, b_start, b_end);
    ScrewOptions first;
    first.first_contact_only = true;
    const ScrewResult ex = screw_collisions(cube_mesh, a_start, a_end, tet_mesh, b_start, b_end, first);
    const std::string label = "seed " + std::to_string(seed) + " case " + std::to_string(k);
    EXPECT_EQ(ca.status, Status::converged) << label;
    ASSERT_EQ(ca.contact, ex.contact) << label << " ca " << ca.toi << " exact " << ex.toi;
    if (ex.contact) {
      ++hits;
      EXPECT_NEAR(ca.toi, ex.toi, 1e-6) << label;
      EXPECT_LE(ca.toi, ex.toi + 1e-12) << label << " advancement stays before the contact";
      EXPECT_LT((ca.point - ex.point).norm(), 1e-4) << label;
    } else {
      ++misses;
    }
  }
  EXPECT_GE(hits, 30);
  EXPECT_GE(misses, 10);
}

}  // namespace
}  // namespace proxima::ccd
