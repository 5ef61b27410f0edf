// SPDX-License-Identifier: MIT
// The range of scales screw_collisions answers (kCcdMinScale, kCcdMaxScale in core/tolerance.hpp).
// Inside it, the same seeded motions of convex and non-convex meshes (cube, car, L-prism, tori)
// with every length (vertices, pose translations, hence the screw's glide and axis point) scaled
// by 10^k give the unit answers: the same collisions (type, features), the same times, normals and
// properness, the points times 10^k, in both modes; outside it every query says
// degenerate_input / scale_out_of_range and reports no collision. Before the guard and the
// rescaling (src/ccd/scale_range.hpp) the edge-edge triple product, a product of three lengths,
// overflowed or underflowed from about 1e100 and 1e-100 on: collisions were lost or invented and
// the result still said converged. Seeded; the seed is printed on failure.
#include <proxima/ccd/screw_collisions.hpp>
#include <proxima/ccd/toi.hpp>
#include <proxima/core/tolerance.hpp>
#include <proxima/mesh/generators.hpp>
#include <proxima/shapes/polytope.hpp>

#include "support/ccd_motions.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <vector>

namespace proxima::ccd {
namespace {

using mesh::Mesh;

constexpr std::uint64_t kSeed = 1;
// The even motions pass A at 0.68 to 0.8 times the sum of the bounding radii (support/
// ccd_motions.hpp, near_miss): the bounding spheres meet, the bodies graze or just miss.
constexpr double kNearMiss = 0.8;

// The mesh with every vertex times f, rebuilt (and validated) from its faces, as a caller working
// in other units would build it.
Mesh scaled(const Mesh& m, double f) {
  std::vector<Vec3> vertices;
  for (const Vec3& p : m.vertices()) vertices.push_back(p * f);
  std::vector<std::vector<int>> faces;
  for (int i = 0; i < m.num_faces(); ++i) faces.emplace_back(m.face(i).begin(), m.face(i).end());
  return Mesh::from_faces(vertices, faces);
}

Pose scaled(const Pose& p, double f) { return Pose::from_matrix(p.rotation(), p.translation() * f); }

using test::Motion;
using test::random_motion;

struct Case {
  std::string name;
  Mesh a, b;
  Motion motion;
  ScrewOptions options;
};

// Cube-cube (convex), car-car (non-convex: the hood meets the windshield in a concave edge),
// L-prism against a torus and torus against torus (non-convex faces, holes), five motions each,
// each in the exact and the raster mode.
std::vector<Case> cases() {
  struct Pair {
    const char* name;
    Mesh a, b;
  };
  const std::vector<Pair> pairs = {
      {"cube-cube", mesh::make_box(Vec3(0.5, 0.5, 0.5)), mesh::make_box(Vec3(0.5, 0.5, 0.5))},
      {"car-car", mesh::make_car(), mesh::make_car()},
      {"lprism-torus", mesh::make_l_prism(), mesh::make_torus(1, 0.3, 10, 6)},
      {"torus-torus", mesh::make_torus(1, 0.3, 10, 6), mesh::make_torus(0.8, 0.25, 8, 5)},
  };
  std::mt19937_64 rng(kSeed);
  std::vector<Case> out;
  for (const Pair& p : pairs) {
    for (int k = 0; k < 5; ++k) {
      const Motion m = random_motion(rng, p.a, p.b, k, kNearMiss);
      for (const ScrewMethod method : {ScrewMethod::exact, ScrewMethod::raster}) {
        ScrewOptions o;
        o.method = method;
        const std::string label = std::string(p.name) + " motion " + std::to_string(k) +
                                  (method == ScrewMethod::exact ? " exact" : " raster");
        out.push_back({label, p.a, p.b, m, o});
      }
    }
  }
  return out;
}

ScrewResult run_scaled(const Case& c, double f, const Mesh& a, const Mesh& b) {
  const Motion& m = c.motion;
  return screw_collisions(a, scaled(m.a0, f), scaled(m.a1, f), b, scaled(m.b0, f), scaled(m.b1, f), c.options);
}

// Times are fractions of the step and normals and properness are unitless: equal to the unit
// answer's up to the effect of rounding the scaled inputs (10^k is not a power of two); points
// scale. 1e-9 is the time accuracy the module's tests hold it to (kCcdTimeTolerance's comment).
// r's status and collisions against unit's: the same status, contact and features; times,
// normals and properness within tol, points within tol once `to_unit` maps them back.
template <class ToUnit>
void expect_same_collisions(const ScrewResult& unit, const ScrewResult& r, double tol, const ToUnit& to_unit,
                            const std::string& what) {
  EXPECT_EQ(r.status, unit.status) << what << " detail " << to_string(r.detail);
  EXPECT_EQ(r.contact, unit.contact) << what;
  ASSERT_EQ(r.collisions.size(), unit.collisions.size()) << what;
  for (std::size_t i = 0; i < r.collisions.size(); ++i) {
    const Collision& x = r.collisions[i];
    const Collision& y = unit.collisions[i];
    const std::string at = what + " collision " + std::to_string(i);
    EXPECT_EQ(x.type, y.type) << at;
    EXPECT_EQ(x.vertex, y.vertex) << at;
    EXPECT_EQ(x.face, y.face) << at;
    EXPECT_EQ(x.edge_a, y.edge_a) << at;
    EXPECT_EQ(x.edge_b, y.edge_b) << at;
    EXPECT_NEAR(x.time, y.time, tol) << at;
    EXPECT_LE((to_unit(x.point) - y.point).norm(), tol) << at;
    EXPECT_LE((x.normal - y.normal).norm(), tol) << at;
    EXPECT_NEAR(x.properness, y.properness, tol) << at;
  }
  if (unit.contact) {
    EXPECT_NEAR(r.toi, unit.toi, tol) << what;
    EXPECT_LE((to_unit(r.point) - unit.point).norm(), tol) << what;
  }
}

void expect_same_answer(const ScrewResult& unit, const ScrewResult& r, double f, const std::string& what) {
  expect_same_collisions(unit, r, 1e-9, [f](const Vec3& p) -> Vec3 { return p / f; }, what);
  EXPECT_NEAR(r.screw.angle, unit.screw.angle, 1e-12) << what;
  EXPECT_NEAR(r.screw.glide / f, unit.screw.glide, 1e-9 * (1 + std::abs(unit.screw.glide))) << what;
}

TEST(CcdScaleRange, AnswersInsideTheRangeAreTheUnitAnswersScaled) {
  const std::vector<Case> all = cases();
  std::vector<ScrewResult> unit;
  int touching = 0;
  for (const Case& c : all) {
    unit.push_back(screw_collisions(c.a, c.motion.a0, c.motion.a1, c.b, c.motion.b0, c.motion.b1, c.options));
    ASSERT_EQ(unit.back().status, Status::converged) << c.name;
    touching += unit.back().contact ? 1 : 0;
  }
  // The sample is informative: motions that collide and motions that miss, in both modes, and
  // misses that get past the early outs (candidate pairs examined, no collision). Seed 1: 22 of
  // 40 collide, 3 of the misses examine candidates.
  int near_misses = 0;
  for (const ScrewResult& r : unit) near_misses += !r.contact && r.candidate_pairs > 0 ? 1 : 0;
  EXPECT_GE(touching, 8) << "of " << all.size();
  EXPECT_LE(touching, static_cast<int>(all.size()) - 8) << "of " << all.size();
  EXPECT_GE(near_misses, 2) << "of " << all.size();
  // Near both ends of the range, far out where the unscaled algorithms broke, on both sides of
  // the band where queries run as given (2^-64, 2^64 ~ 5e-20, 2e19), and near 1.
  for (const int k : {-290, -250, -200, -150, -120, -100, -80, -60, -20, -19, -3, 4, 19, 20, 60, 80, 100, 120, 150, 200, 250, 289}) {
    const double f = std::pow(10.0, k);
    for (std::size_t i = 0; i < all.size(); i += 2) {  // the two modes share the scaled meshes
      const Mesh a = scaled(all[i].a, f), b = scaled(all[i].b, f);
      for (std::size_t j = i; j < i + 2; ++j) {
        const std::string what = "seed " + std::to_string(kSeed) + " scale 1e" + std::to_string(k) + " " + all[j].name;
        expect_same_answer(unit[j], run_scaled(all[j], f, a, b), f, what);
      }
    }
  }
}

TEST(CcdScaleRange, QueriesOutsideTheRangeAreRefusedWithoutCollisions) {
  const std::vector<Case> all = cases();
  for (const int k : {-305, -300, -295, -292, 291, 295, 300, 305}) {
    const double f = std::pow(10.0, k);
    for (std::size_t i = 0; i < all.size(); i += 2) {
      const Mesh a = scaled(all[i].a, f), b = scaled(all[i].b, f);
      for (std::size_t j = i; j < i + 2; ++j) {
        const std::string what = "seed " + std::to_string(kSeed) + " scale 1e" + std::to_string(k) + " " + all[j].name;
        const ScrewResult r = run_scaled(all[j], f, a, b);
        EXPECT_EQ(r.status, Status::degenerate_input) << what;
        EXPECT_EQ(r.detail, Detail::scale_out_of_range) << what;
        EXPECT_FALSE(r.contact) << what;
        EXPECT_TRUE(r.collisions.empty()) << what;
        EXPECT_TRUE(std::isnan(r.toi)) << what;
      }
    }
  }
}

TEST(CcdScaleRange, UnitScaleTranslationsThatOverflowAreRefused) {
  // Bodies of size 1e-200 whose poses are 1e200 away: brought to unit scale, the translations
  // would be about 1e400.
  const Mesh tiny = scaled(mesh::make_box(Vec3(0.5, 0.5, 0.5)), 1e-200);
  const Pose far = Pose::from_translation(Vec3(1e200, 0, 0));
  const ScrewResult r = screw_collisions(tiny, Pose(), Pose(), tiny, far, Pose(), ScrewOptions{});
  EXPECT_EQ(r.status, Status::degenerate_input);
  EXPECT_EQ(r.detail, Detail::scale_out_of_range);
  EXPECT_TRUE(r.collisions.empty());
}

TEST(CcdScaleRange, ConvexTimeOfImpactKeepsTheGjkRange) {
  // toi_screw advances on GJK distances, so it answers GJK's range: a cube pair of size 1e40
  // passing through each other is refused, the same pair at 1e29 gives the unit time.
  auto cube = [](double f) {
    const Mesh box = mesh::make_box(Vec3(0.5, 0.5, 0.5));
    std::vector<Vec3> v;
    for (const Vec3& p : box.vertices()) v.push_back(p * f);
    return Polytope(v);
  };
  auto toi_at = [&](double f) {
    const Polytope c = cube(f);
    return toi_screw(c, Pose(), Pose(), c, Pose::from_translation(Vec3(0, -3 * f, 0)),
                     Pose::from_euler_xyz(0.3, 0, 0.2, Vec3(0.2 * f, 3 * f, 0.1 * f)));
  };
  const ToiResult unit = toi_at(1);
  ASSERT_EQ(unit.status, Status::converged);
  ASSERT_TRUE(unit.contact);
  const ToiResult inside = toi_at(1e29);
  EXPECT_EQ(inside.status, Status::converged);
  EXPECT_NEAR(inside.toi, unit.toi, 1e-8);
  for (const double f : {1e-40, 1e40}) {
    const ToiResult r = toi_at(f);
    EXPECT_EQ(r.status, Status::degenerate_input) << f;
    EXPECT_EQ(r.detail, Detail::scale_out_of_range) << f;
    EXPECT_FALSE(r.contact) << f;
  }
}

TEST(CcdScaleRange, MeshesFarFromUnitScaleKeepTheUnitMeshPlanes) {
  // Mesh validation measures areas and the volume in coordinates scaled by a power of two:
  // 1e-200 and 1e200 meshes are built (they were refused as degenerate), with the unit mesh's
  // normals and every length scaled.
  const Mesh unit = mesh::make_car();
  for (const double f : {1e-300, 1e-200, 1e-100, 1e100, 1e200, 1e300}) {
    const Mesh m = scaled(unit, f);
    const std::string what = "scale " + std::to_string(std::log10(f));
    EXPECT_NEAR(m.bounding_sphere().radius / f, unit.bounding_sphere().radius, 1e-12) << what;
    EXPECT_NEAR(m.extent() / f, unit.extent(), 1e-12) << what;
    for (int i = 0; i < unit.num_faces(); ++i) {
      EXPECT_LE((m.face_normal(i) - unit.face_normal(i)).norm(), 1e-12) << what << " face " << i;
      EXPECT_NEAR(m.plane(i).offset / f, unit.plane(i).offset, 1e-12) << what << " face " << i;
    }
  }
  // A power of two scales exactly, the volume by its cube.
  const Mesh up = unit.scaled_by_power_of_two(300);
  EXPECT_EQ(up.bounding_sphere().radius, std::ldexp(unit.bounding_sphere().radius, 300));
  EXPECT_EQ(up.vertex(3), unit.vertex(3) * std::ldexp(1.0, 300));
  EXPECT_EQ(up.plane(5).offset, std::ldexp(unit.plane(5).offset, 300));
  EXPECT_EQ(up.face_normal(5), unit.face_normal(5));
  EXPECT_EQ(up.volume(), std::ldexp(unit.volume(), 900));
  EXPECT_EQ(unit.scaled_by_power_of_two(400).volume(), std::numeric_limits<double>::infinity());
  EXPECT_EQ(unit.scaled_by_power_of_two(-20).volume(), std::ldexp(unit.volume(), -60));
}

// Unit-size bodies placed far from the origin (a game or robot world in metres with the bodies
// kilometres out): every pose of the step moved by T along one direction. The module works on the
// relative motion in A's frame, so nothing grows with T but the rounding of the inputs themselves
// (an ulp of the translations, about eps T): the same collisions, with times, points (less the
// shift), normals and properness within 1e-9 plus a hundred such ulps. Measured on 64 bench
// motions per pair (bench/suites/ccd_cases.cpp, seed 3): the first time moves by at most
// 4.6e-16 T, up to T = 1e10.
TEST(CcdScaleRange, MotionsFarFromTheOriginKeepTheirCollisions) {
  const std::vector<Case> all = cases();
  const Vec3 u = Vec3(0.48, -0.6, 0.64).normalized();
  int touching = 0;
  for (const Case& c : all) {
    const Motion& m = c.motion;
    const ScrewResult unit = screw_collisions(c.a, m.a0, m.a1, c.b, m.b0, m.b1, c.options);
    ASSERT_EQ(unit.status, Status::converged) << c.name;
    touching += unit.contact ? 1 : 0;
    for (const double far : {1e3, 1e6, 1e8}) {
      const Pose shift = Pose::from_translation(far * u);
      const ScrewResult r = screw_collisions(c.a, shift * m.a0, shift * m.a1, c.b, shift * m.b0, shift * m.b1, c.options);
      const double tol = 1e-9 + 100 * std::numeric_limits<double>::epsilon() * far;
      const std::string what = "seed " + std::to_string(kSeed) + " shift " + std::to_string(far) + " " + c.name;
      expect_same_collisions(unit, r, tol, [&](const Vec3& p) -> Vec3 { return p - far * u; }, what);
    }
  }
  EXPECT_GE(touching, 8) << "of " << all.size();
}

}  // namespace
}  // namespace proxima::ccd
