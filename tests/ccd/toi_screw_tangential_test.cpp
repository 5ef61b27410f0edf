// SPDX-License-Identifier: MIT
// Regression from the consistency sweep (PROXIMA_CONSISTENCY_SCALE=10, seed 8032, case 539):
// a tetrahedron and an octahedron at scale ~1e4 under a screw whose approach is nearly
// tangential. With only the direction-free closing-rate bound (the helix speed of B's bounding
// sphere) conservative advancement took 256 short steps and stopped at its cap, while the exact
// screw algorithm finds the first contact at s = 0.8214514371262. Bounding the rate across the
// current normal (once support calls show that it separates the shapes) reaches the contact.
#include "support/random_shapes.hpp"

#include <proxima/ccd/screw_collisions.hpp>
#include <proxima/ccd/toi.hpp>
#include <proxima/mesh/mesh.hpp>
#include <proxima/shapes/polytope.hpp>

#include <gtest/gtest.h>

#include <span>
#include <vector>

namespace proxima {
namespace {

using testgen::PoseSpec;

TEST(ToiScrewTangential, AdvancementReachesTheScrewContact) {
  const std::vector<Vec3> va = {{4022.073427222815, -8193.331120367264, 791.1917751871622},
                                {5152.365769252527, -1275.6548121810945, -7467.232801183339},
                                {-629.7299718732442, 6164.964960071343, 6747.620405053283},
                                {-8544.709224602098, 3304.0209724770148, -71.57937905710722}};
  const std::vector<std::vector<int>> fa = {{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}};
  const std::vector<Vec3> vb = {{-4290.622800642689, -2679.4732066769798, -2458.1886142211724},
                                {4290.622800642689, 2679.4732066769798, 2458.1886142211724},
                                {-111.28442726127507, -2653.595029628758, 3086.7103688986726},
                                {111.28442726127507, 2653.595029628758, -3086.7103688986726},
                                {-2248.418712873297, 2054.4375782993084, 1685.1050912197504},
                                {2248.418712873297, -2054.4375782993084, -1685.1050912197504}};
  const std::vector<std::vector<int>> fb = {{0, 2, 4}, {2, 1, 4}, {1, 3, 4}, {3, 0, 4},
                                            {2, 0, 5}, {1, 2, 5}, {3, 1, 5}, {0, 3, 5}};
  const Pose a0 = PoseSpec{{0.07797762336152912, 0.32794223786843507, 0.41847061390868573, -0.8433597833496792},
                           {0.1490477049678506, -0.02130143520068152, 0.2578350244194568}}
                      .pose();
  const Pose b0 = PoseSpec{{0.1682896226012778, 0.9438798279821944, -0.03316191097700867, -0.2822583230187829},
                           {-6081.788441346222, -16087.241574439988, 3144.698272124575}}
                      .pose();
  const Pose a1 = PoseSpec{{0.06942339359201731, 0.3343980596755015, 0.4240443896641479, -0.8387757064327672},
                           {2496.617466780373, -4029.3513529708985, -1425.6401863257918}}
                      .pose();
  const Pose b1 = PoseSpec{{0.13045168376567015, 0.9563233475800731, -0.020955647072627308, -0.2607467620733033},
                           {-1714.846711086353, 6624.249685332041, -7762.67518224561}}
                      .pose();

  const ccd::ScrewResult exact = ccd::screw_collisions(mesh::Mesh::from_faces(va, fa), a0, a1,
                                                       mesh::Mesh::from_faces(vb, fb), b0, b1);
  ASSERT_EQ(exact.status, Status::converged);
  ASSERT_TRUE(exact.contact);

  const Polytope a{std::span<const Vec3>(va)};
  const Polytope b{std::span<const Vec3>(vb)};
  const ToiResult r = ccd::toi_screw(a, a0, a1, b, b0, b1);
  ASSERT_EQ(r.status, Status::converged) << r.iterations << " steps";
  EXPECT_LT(r.iterations, kCcdToiMaxIterations);
  ASSERT_TRUE(r.contact);
  // Never late; early by at most what the contact tolerance allows at this approach (the
  // consistency sweep's bound, docs/reliability.md, is about 1e-4 of the step here).
  EXPECT_LE(r.toi, exact.toi + 1e-9);
  EXPECT_GE(r.toi, exact.toi - 1e-4);
}

}  // namespace
}  // namespace proxima
