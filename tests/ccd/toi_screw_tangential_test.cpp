// SPDX-License-Identifier: MIT
// Regressions from the consistency sweep (PROXIMA_CONSISTENCY_SCALE=10, seed 8032, cases 539 and
// 753): convex polyhedra at scale ~1e4 under screws whose approach is nearly tangential. With only
// the direction-free closing-rate bound (the helix speed of B's bounding sphere) conservative
// advancement took 256 short steps and stopped at its cap without contact, while the exact screw
// algorithm finds one. Bounding the approach along the current normal (once support calls show
// that it separates the shapes) reaches the contact: the constant bound across the normal was
// enough for case 539; case 753 needed the bound from B's centre's own velocity (growing as it
// turns).
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
using Faces = std::vector<std::vector<int>>;

const Faces kTetrahedronFaces = {{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}};

/// toi_screw reaches the exact screw algorithm's first contact: converged within the step cap,
/// never late, early by at most what the contact tolerance allows at these approaches (the
/// consistency sweep's bound, docs/reliability.md, is about 1e-4 of the step here).
void expect_advancement_reaches_contact(const std::vector<Vec3>& va, const Faces& fa, const std::vector<Vec3>& vb,
                                        const Faces& fb, const Pose& a0, const Pose& a1, const Pose& b0,
                                        const Pose& b1) {
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
  EXPECT_LE(r.toi, exact.toi + 1e-9);
  EXPECT_GE(r.toi, exact.toi - 1e-4);
}

TEST(ToiScrewTangential, TetrahedronAndOctahedron) {
  const std::vector<Vec3> va = {{4022.073427222815, -8193.331120367264, 791.1917751871622},
                                {5152.365769252527, -1275.6548121810945, -7467.232801183339},
                                {-629.7299718732442, 6164.964960071343, 6747.620405053283},
                                {-8544.709224602098, 3304.0209724770148, -71.57937905710722}};
  const std::vector<Vec3> vb = {{-4290.622800642689, -2679.4732066769798, -2458.1886142211724},
                                {4290.622800642689, 2679.4732066769798, 2458.1886142211724},
                                {-111.28442726127507, -2653.595029628758, 3086.7103688986726},
                                {111.28442726127507, 2653.595029628758, -3086.7103688986726},
                                {-2248.418712873297, 2054.4375782993084, 1685.1050912197504},
                                {2248.418712873297, -2054.4375782993084, -1685.1050912197504}};
  const Faces fb = {{0, 2, 4}, {2, 1, 4}, {1, 3, 4}, {3, 0, 4}, {2, 0, 5}, {1, 2, 5}, {3, 1, 5}, {0, 3, 5}};
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
  expect_advancement_reaches_contact(va, kTetrahedronFaces, vb, fb, a0, a1, b0, b1);
}

TEST(ToiScrewTangential, TwoTetrahedra) {
  const std::vector<Vec3> va = {{-49077.02232339392, -29561.57556863324, 19029.45449510455},
                                {27740.930626718964, 7926.3028763727, 53029.9490786833},
                                {17225.872303611366, 53849.25726613025, -21168.08503096032},
                                {4110.219393063578, -32213.984573869708, -50891.318542827525}};
  const std::vector<Vec3> vb = {{-6692.073228630765, -42397.52605326045, 23301.88179697274},
                                {46748.485169484025, 11437.789694323028, -8310.707315344114},
                                {-32177.61528035194, 18703.18535936266, 31624.41599614652},
                                {-7878.796660501321, 12256.550999574767, -46615.59047777514}};
  const Pose a0 = PoseSpec{{0.5267216552502307, -0.6743885087401412, -0.009834254461377841, -0.5173661417302977},
                           {0, 0, 0}}
                      .pose();
  const Pose b0 = PoseSpec{{-0.6044015116312075, -0.1773957148017399, -0.04803661676778905, -0.7751916257012814},
                           {-21947.26003894699, 173809.60522924378, 12197.245526045244}}
                      .pose();
  const Pose a1 = PoseSpec{{0.4430821633553106, -0.7438150342609235, -0.054811228312123164, -0.49740639378149887},
                           {-12561.637280743187, -12476.792076260293, -729.9970623126004}}
                      .pose();
  const Pose b1 = PoseSpec{{-0.8497755326039897, -0.24814741018221678, -0.2989696322610776, -0.35626053106278843},
                           {-14591.01463841787, -223412.1038412685, -51296.46521981328}}
                      .pose();
  expect_advancement_reaches_contact(va, kTetrahedronFaces, vb, kTetrahedronFaces, a0, a1, b0, b1);
}

}  // namespace
}  // namespace proxima
