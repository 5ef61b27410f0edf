// SPDX-License-Identifier: MIT
// Batched time of impact: element i equals the scalar reference bit for bit for 1, 2 and 4
// threads (toi_translate, toi_screw on convex shapes, screw_first_contact on meshes), sphere pairs
// against the closed form, the mesh batch against the full screw_collisions run, and bad elements
// (NaN poses and velocities, a half-turn relative rotation) marked while the rest is answered.
#include "support/draws.hpp"

#include <proxima/batch/toi.hpp>
#include <proxima/core/error.hpp>
#include <proxima/mesh/generators.hpp>

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>
#include <string>
#include <vector>

namespace proxima::batch {
namespace {

constexpr std::uint32_t kSeed = 20261123;

bool same_bits(double x, double y) { return std::bit_cast<std::uint64_t>(x) == std::bit_cast<std::uint64_t>(y); }
bool same_bits(const double* x, const Vec3& v) {
  return same_bits(x[0], v.x()) && same_bits(x[1], v.y()) && same_bits(x[2], v.z());
}

// Element i of a batch equals the scalar result r bit for bit.
void expect_same(const ToiBatch& b, std::size_t i, const ToiResult& r) {
  ASSERT_EQ(b.contact[i], r.contact ? 1 : 0);
  ASSERT_TRUE(same_bits(b.toi[i], r.toi));
  ASSERT_TRUE(same_bits(&b.point[3 * i], r.point));
  ASSERT_TRUE(same_bits(&b.normal[3 * i], r.normal));
  ASSERT_EQ(b.iterations[i], r.iterations);
  ASSERT_EQ(b.status[i], static_cast<std::uint8_t>(r.status));
  ASSERT_EQ(b.detail[i], static_cast<std::uint8_t>(r.detail));
}

Polytope random_polytope(std::mt19937& rng, int count, double radius) {
  std::normal_distribution<double> g(0.0, 1.0);
  std::vector<Vec3> points;
  for (int i = 0; i < count; ++i) points.push_back(radius * Vec3{g(rng), g(rng), g(rng)}.normalized());
  return Polytope(points);
}

Pose random_pose(std::mt19937& rng, double spread) {
  std::uniform_real_distribution<double> u(-spread, spread);
  std::normal_distribution<double> g(0.0, 1.0);
  return proxima::test::draw_quaternion_pose(g, u, rng);
}

// Translation cases: A near the origin, B about 3 away moving roughly towards A.
struct TranslateCase {
  std::vector<Pose> pose_a, pose_b;
  std::vector<Vec3> velocity_a, velocity_b;
};
TranslateCase translate_case(std::mt19937& rng, std::size_t n) {
  std::uniform_real_distribution<double> u(-1, 1);
  TranslateCase c;
  for (std::size_t i = 0; i < n; ++i) {
    c.pose_a.push_back(random_pose(rng, 0.2));
    const Vec3 dir = Vec3{u(rng), u(rng), u(rng)}.normalized();
    Pose pb = random_pose(rng, 0.0);
    pb = Pose::from_translation(3.0 * dir) * pb;
    c.pose_b.push_back(pb);
    c.velocity_a.push_back(0.3 * Vec3{u(rng), u(rng), u(rng)});
    c.velocity_b.push_back(-2.0 * dir + 1.5 * Vec3{u(rng), u(rng), u(rng)});
  }
  return c;
}

// Screw cases (as tests/ccd/toi_test.cpp): B starts 2.2 away and sweeps past or into A.
struct ScrewCase {
  std::vector<Pose> a_start, a_end, b_start, b_end;
};
ScrewCase screw_case(std::mt19937& rng, std::size_t n) {
  std::uniform_real_distribution<double> u(-1, 1);
  auto rot = [&](double max_angle) {
    const double angle = max_angle * std::abs(u(rng));
    return Mat3(Eigen::AngleAxisd(angle, proxima::test::draw_vec3(u, rng).normalized()));
  };
  ScrewCase c;
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3 dir = Vec3{u(rng), u(rng), u(rng)}.normalized();
    Vec3 side = 1.3 * Vec3{u(rng), u(rng), u(rng)};
    side -= side.dot(dir) * dir;
    const Mat3 r0 = rot(std::numbers::pi);
    const Pose a_start = Pose::from_matrix(rot(std::numbers::pi));
    c.a_start.push_back(a_start);
    const Mat3 a_turn = rot(0.1);
    c.a_end.push_back(Pose::from_matrix(a_turn * a_start.rotation(), 0.1 * proxima::test::draw_vec3(u, rng)));
    c.b_start.push_back(Pose::from_matrix(r0, 2.2 * dir + side));
    c.b_end.push_back(Pose::from_matrix(rot(0.7) * r0, -2.0 * dir + side));
  }
  return c;
}

TEST(BatchToi, TranslateEqualsScalarBitForBitForOneTwoFourThreads) {
  constexpr std::size_t kN = 200;
  std::mt19937 rng(kSeed);
  const std::vector<AnyConvex> shapes_a = {random_polytope(rng, 8, 1.0), Sphere(0.7), Box(Vec3(0.5, 0.7, 0.3))};
  const std::vector<AnyConvex> shapes_b = {random_polytope(rng, 16, 0.8), Capsule(0.3, 0.6),
                                           Ellipsoid(Vec3(0.8, 0.5, 0.4))};
  for (std::size_t s = 0; s < shapes_a.size(); ++s) {
    const TranslateCase c = translate_case(rng, kN);
    const std::span<const AnyConvex> sa(&shapes_a[s], 1), sb(&shapes_b[s], 1);
    int contacts = 0;
    for (int threads : {1, 2, 4}) {
      ToiBatchOptions options;
      options.threads = threads;
      ToiBatch out(kN);
      toi_translate(sa, c.pose_a, c.velocity_a, sb, c.pose_b, c.velocity_b, 1.5, out.outputs(), options);
      for (std::size_t i = 0; i < kN; ++i) {
        SCOPED_TRACE("seed " + std::to_string(kSeed) + " shapes " + std::to_string(s) + " threads " +
                     std::to_string(threads) + " element " + std::to_string(i));
        const ToiResult r = scalar_toi_translate(shapes_a[s], c.pose_a[i], c.velocity_a[i], shapes_b[s], c.pose_b[i],
                                                 c.velocity_b[i], 1.5);
        expect_same(out, i, r);
        ASSERT_EQ(r.status, Status::converged);
        if (threads == 1) contacts += r.contact ? 1 : 0;
      }
    }
    // Both answers must be exercised.
    EXPECT_GT(contacts, static_cast<int>(kN) * 15 / 100) << "shapes " << s;
    EXPECT_LT(contacts, static_cast<int>(kN) * 85 / 100) << "shapes " << s;
  }
}

TEST(BatchToi, SpheresMatchTheClosedForm) {
  // Spheres of radii ra, rb; B approaches along -x at speed v from distance d: toi = (d - ra - rb) / v.
  std::mt19937 rng(kSeed + 1);
  std::uniform_real_distribution<double> u(0.1, 1.0);
  constexpr std::size_t kN = 64;
  const std::vector<AnyConvex> a = {Sphere(0.5)};
  std::vector<AnyConvex> b;
  std::vector<Vec3> raw_velocity;
  std::vector<double> rows;  // [tx ty tz qw qx qy qz]
  std::vector<double> expected;
  for (std::size_t i = 0; i < kN; ++i) {
    const double rb = u(rng), d = 2.0 + 3.0 * u(rng), v = 1.0 + 4.0 * u(rng);
    b.emplace_back(Sphere(rb));
    for (double x : {d, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0}) rows.push_back(x);
    raw_velocity.push_back(Vec3(-v, 0, 0));
    expected.push_back((d - 0.5 - rb) / v);
  }
  std::vector<double> velocity_rows;
  for (const Vec3& v : raw_velocity) velocity_rows.insert(velocity_rows.end(), {v.x(), v.y(), v.z()});
  ToiBatch out(kN);
  toi_translate(a, std::vector<Pose>{Pose()}, std::vector<Vec3>{Vec3::Zero()}, b, PoseArray::quaternions(rows.data(), kN),
                VectorArray::rows(velocity_rows.data(), kN), 10.0, out.outputs());
  for (std::size_t i = 0; i < kN; ++i) {
    ASSERT_EQ(out.contact[i], 1) << i;
    EXPECT_NEAR(out.toi[i], expected[i], 1e-6) << i;
    EXPECT_LE(out.toi[i], expected[i] + 1e-12) << i << ": conservative advancement never passes the contact";
    EXPECT_NEAR(out.normal[3 * i], 1.0, 1e-9) << i;
  }
}

TEST(BatchToi, ScrewEqualsScalarAndMeshBatchMatchesFullScrewCollisions) {
  constexpr std::size_t kN = 60;
  std::mt19937 rng(kSeed + 2);
  const mesh::Mesh cube_mesh = mesh::make_box(Vec3(0.5, 0.4, 0.3));
  const mesh::Mesh tet_mesh = mesh::make_tetrahedron(0.8);
  const std::vector<AnyConvex> cube = {Polytope(std::span<const Vec3>(cube_mesh.vertices()))};
  const std::vector<AnyConvex> tet = {Polytope(std::span<const Vec3>(tet_mesh.vertices()))};
  const std::vector<mesh::Mesh> cubes = {cube_mesh}, tets = {tet_mesh};
  const ScrewCase c = screw_case(rng, kN);
  int contacts = 0;
  for (int threads : {1, 2, 4}) {
    ToiBatchOptions options;
    options.threads = threads;
    ToiBatch convex(kN);
    toi_screw(cube, c.a_start, c.a_end, tet, c.b_start, c.b_end, convex.outputs(), options);
    ScrewBatchOptions mesh_options;
    mesh_options.threads = threads;
    ToiBatch meshes(kN);
    screw_first_contact(cubes, c.a_start, c.a_end, tets, c.b_start, c.b_end, meshes.outputs(), mesh_options);
    // The raster method (seed 004 collision screen) in the same batch: the same first contacts.
    ScrewBatchOptions raster_options = mesh_options;
    raster_options.screw.method = ccd::ScrewMethod::raster;
    ToiBatch rastered(kN);
    screw_first_contact(cubes, c.a_start, c.a_end, tets, c.b_start, c.b_end, rastered.outputs(), raster_options);
    for (std::size_t i = 0; i < kN; ++i) {
      SCOPED_TRACE("seed " + std::to_string(kSeed + 2) + " threads " + std::to_string(threads) + " element " +
                   std::to_string(i));
      expect_same(convex, i, scalar_toi_screw(cube[0], c.a_start[i], c.a_end[i], tet[0], c.b_start[i], c.b_end[i]));
      ccd::ScrewOptions first;
      first.first_contact_only = true;
      expect_same(meshes, i,
                  scalar_screw_first_contact(cube_mesh, c.a_start[i], c.a_end[i], tet_mesh, c.b_start[i], c.b_end[i],
                                             first));
      ASSERT_EQ(rastered.contact[i], meshes.contact[i]);
      if (meshes.contact[i]) {
        EXPECT_NEAR(rastered.toi[i], meshes.toi[i], 1e-9);
      }
      if (threads != 1) continue;
      // The earliest collision of the full run (every collision listed) is the batch's answer.
      const ccd::ScrewResult full =
          ccd::screw_collisions(cube_mesh, c.a_start[i], c.a_end[i], tet_mesh, c.b_start[i], c.b_end[i]);
      ASSERT_EQ(meshes.contact[i], full.contact ? 1 : 0);
      if (full.contact) {
        ++contacts;
        EXPECT_DOUBLE_EQ(meshes.toi[i], full.collisions.front().time);
        // Conservative advancement on the same motion agrees with the exact mesh answer.
        EXPECT_NEAR(convex.toi[i], meshes.toi[i], 1e-6);
      }
    }
  }
  EXPECT_GE(contacts, static_cast<int>(kN) / 5);
  EXPECT_LE(contacts, static_cast<int>(kN) * 9 / 10);
}

// A batch large enough to be cut into many blocks (thread_pool.hpp): every element equals the
// scalar for 1, 2 and 3 threads, and the throwing policy names the lowest bad element although a
// later block (possibly answered first) holds another one.
TEST(BatchToi, ManyBlocksSameAnswersAndLowestBadElement) {
  constexpr std::size_t kN = 6000;  // 2 threads: 23 blocks
  std::mt19937 rng(kSeed + 5);
  const std::vector<AnyConvex> a = {random_polytope(rng, 8, 1.2)}, b = {random_polytope(rng, 8, 1.0)};
  TranslateCase c = translate_case(rng, kN);
  int contacts = 0;
  for (int threads : {1, 2, 3}) {
    ToiBatchOptions options;
    options.threads = threads;
    ToiBatch out(kN);
    toi_translate(a, c.pose_a, c.velocity_a, b, c.pose_b, c.velocity_b, 1.5, out.outputs(), options);
    for (std::size_t i = 0; i < kN; i += 7) {
      SCOPED_TRACE("seed " + std::to_string(kSeed + 5) + " threads " + std::to_string(threads) + " element " +
                   std::to_string(i));
      expect_same(out, i,
                  scalar_toi_translate(a[0], c.pose_a[i], c.velocity_a[i], b[0], c.pose_b[i], c.velocity_b[i], 1.5));
      if (HasFatalFailure()) return;
      contacts += threads == 1 && out.contact[i] ? 1 : 0;
    }
  }
  EXPECT_GT(contacts, static_cast<int>(kN / 7) / 5);
  EXPECT_LT(contacts, static_cast<int>(kN / 7) * 95 / 100);
  c.velocity_b[5900] = Vec3(0, std::nan(""), 0);
  c.velocity_b[2500] = Vec3(0, 0, std::nan(""));
  for (int threads : {1, 2, 3}) {
    ToiBatchOptions options;
    options.threads = threads;
    ToiBatch out(kN);
    try {
      toi_translate(a, c.pose_a, c.velocity_a, b, c.pose_b, c.velocity_b, 1.5, out.outputs(), options);
      FAIL() << "expected InvalidInput";
    } catch (const InvalidInput& e) {
      EXPECT_EQ(e.field(), "velocity_b[2500].z") << threads << ": " << e.what();
    }
  }
}

TEST(BatchToi, BadElementsAreMarkedAndTheRestAnswered) {
  constexpr std::size_t kN = 12;
  std::mt19937 rng(kSeed + 3);
  const std::vector<AnyConvex> a = {Box(Vec3(0.5, 0.5, 0.5))}, b = {Sphere(0.4)};
  TranslateCase c = translate_case(rng, kN);
  std::vector<double> rows_b;
  for (const Pose& p : c.pose_b) {
    const Eigen::Quaterniond q = p.quaternion();
    rows_b.insert(rows_b.end(), {p.translation().x(), p.translation().y(), p.translation().z(), q.w(), q.x(), q.y(), q.z()});
  }
  rows_b[7 * 3 + 1] = std::nan("");                                // NaN translation of element 3
  for (int k = 3; k < 7; ++k) rows_b[7 * 5 + static_cast<std::size_t>(k)] = 0.0;  // zero quaternion of element 5
  c.velocity_a[8] = Vec3(std::numeric_limits<double>::infinity(), 0, 0);  // infinite velocity of element 8
  const PoseArray pose_b = PoseArray::quaternions(rows_b.data(), kN);

  ToiBatchOptions mark;
  mark.bad_poses = BadPosePolicy::mark_element;
  ToiBatch out(kN);
  toi_translate(a, c.pose_a, c.velocity_a, b, pose_b, c.velocity_b, 2.0, out.outputs(), mark);
  for (std::size_t i = 0; i < kN; ++i) {
    if (i == 3 || i == 5 || i == 8) {
      EXPECT_EQ(out.status[i], static_cast<std::uint8_t>(Status::degenerate_input)) << i;
      EXPECT_EQ(out.detail[i], static_cast<std::uint8_t>(Detail::non_finite)) << i;
      EXPECT_EQ(out.contact[i], 0) << i;
      EXPECT_TRUE(std::isnan(out.toi[i])) << i;
      EXPECT_EQ(out.iterations[i], 0) << i;
    } else {
      expect_same(out, i,
                  scalar_toi_translate(a[0], c.pose_a[i], c.velocity_a[i], b[0], c.pose_b[i], c.velocity_b[i], 2.0));
    }
  }
  // The default policy answers the batch, then throws for the lowest bad element.
  try {
    toi_translate(a, c.pose_a, c.velocity_a, b, pose_b, c.velocity_b, 2.0, out.outputs());
    FAIL() << "expected InvalidInput";
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.field(), "pose_b[3]") << e.what();
  }
  rows_b[7 * 3 + 1] = 0.0;
  rows_b[7 * 5 + 3] = 1.0;
  try {
    toi_translate(a, c.pose_a, c.velocity_a, b, pose_b, c.velocity_b, 2.0, out.outputs());
    FAIL() << "expected InvalidInput";
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.field(), "velocity_a[8].x") << e.what();
  }

  // Screw: a half-turn relative rotation is refused by decompose(); only that element is marked.
  ScrewCase s = screw_case(rng, 4);
  s.a_end[2] = Pose::from_matrix(s.a_start[2].rotation(), s.a_end[2].translation());  // A does not turn
  s.b_end[2] = Pose::from_matrix(Mat3(Eigen::AngleAxisd(std::numbers::pi, Vec3::UnitZ())) * s.b_start[2].rotation(),
                                 s.b_end[2].translation());
  const std::vector<AnyConvex> cube = {Box(Vec3(0.5, 0.4, 0.3))}, tet = {Sphere(0.5)};
  ToiBatch screw_out(4);
  toi_screw(cube, s.a_start, s.a_end, tet, s.b_start, s.b_end, screw_out.outputs(), mark);
  for (std::size_t i = 0; i < 4; ++i) {
    if (i == 2) {
      EXPECT_EQ(screw_out.status[i], static_cast<std::uint8_t>(Status::degenerate_input));
      EXPECT_EQ(screw_out.detail[i], static_cast<std::uint8_t>(Detail::none));
    } else {
      expect_same(screw_out, i, scalar_toi_screw(cube[0], s.a_start[i], s.a_end[i], tet[0], s.b_start[i], s.b_end[i]));
    }
  }
  try {
    toi_screw(cube, s.a_start, s.a_end, tet, s.b_start, s.b_end, screw_out.outputs());
    FAIL() << "expected InvalidInput";
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.field(), "element[2]") << e.what();
    EXPECT_NE(std::string(e.what()).find("rotation"), std::string::npos) << e.what();
  }
}

TEST(BatchToi, ArgumentErrorsNameTheArgument) {
  const std::vector<AnyConvex> a = {Sphere(1)}, b = {Sphere(1)};
  const std::vector<Pose> p1 = {Pose()}, p3(3), p2(2);
  const std::vector<Vec3> v1 = {Vec3::Zero()}, v2(2, Vec3::Zero());
  ToiBatch out(3);
  auto field_of = [](const auto& call) {
    try {
      call();
    } catch (const InvalidInput& e) {
      return e.field();
    }
    return std::string("no exception");
  };
  EXPECT_EQ(field_of([&] { toi_translate(a, p3, v2, b, p1, v1, 1.0, out.outputs()); }), "velocity_a");
  EXPECT_EQ(field_of([&] { toi_translate(a, p3, v1, b, p1, v1, -1.0, out.outputs()); }), "t_max");
  ToiBatch short_out(2);
  EXPECT_EQ(field_of([&] { toi_translate(a, p3, v1, b, p1, v1, 1.0, short_out.outputs()); }), "out.contact");
  ToiBatchOptions bad_threads;
  bad_threads.threads = -1;
  EXPECT_EQ(field_of([&] { toi_translate(a, p3, v1, b, p1, v1, 1.0, out.outputs(), bad_threads); }), "threads");
  EXPECT_EQ(field_of([&] { toi_screw(a, p3, p2, b, p1, p1, out.outputs()); }), "a_end");
  const std::vector<mesh::Mesh> m = {mesh::make_box(Vec3(1, 1, 1))};
  ScrewBatchOptions bad_pixel;
  bad_pixel.screw.method = ccd::ScrewMethod::raster;
  bad_pixel.screw.pixel_size = 0;
  EXPECT_EQ(field_of([&] { screw_first_contact(m, p1, p1, m, p1, p1, ToiBatch(1).outputs(), bad_pixel); }),
            "pixel_size");
}

}  // namespace
}  // namespace proxima::batch
