// SPDX-License-Identifier: MIT
// Tests for gjk/epa.hpp and gjk/epa_hull.hpp. Oracles:
//  - box/box at any rotation: the exact depth is the minimum overlap over the 15 separating-axis
//    candidates (face normals of both boxes and edge cross products), since the penetration depth
//    of polytopes is attained at a facet normal of the Minkowski difference;
//  - vertex-list polytopes: the Minkowski difference's hull by brute force (every triple of
//    difference points whose plane has all points on one side), depth = nearest facet plane;
//  - spheres and capsules in closed form; a sphere deep inside a box;
//  - the defining property: B moved by (1 + 1e-6) * depth * normal is separated (GJK distance > 0),
//    moved by (1 - 1e-6) * depth * normal it still overlaps.
#include <proxima/gjk/epa.hpp>
#include <proxima/shapes/box.hpp>
#include <proxima/shapes/polytope.hpp>
#include <proxima/shapes/sphere.hpp>

#include "test_shapes.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <random>
#include <string>

namespace proxima::gjk {
namespace {

using test::TestCapsule;
using test::VertexHull;

/// Support function h_X(u) = max_{x in X} u.x of a shape placed by a pose (world u).
template <class S>
double h(const S& s, const Pose& p, const Vec3& u) {
  return u.dot(p.apply(s.support(p.rotate_inverse(u))));
}

/// Exact box/box penetration depth by the 15 separating-axis candidates.
double box_box_depth(const Box& a, const Pose& pa, const Box& b, const Pose& pb) {
  std::vector<Vec3> axes;
  for (int i = 0; i < 3; ++i) {
    axes.push_back(pa.rotation().col(i));
    axes.push_back(pb.rotation().col(i));
    for (int j = 0; j < 3; ++j) {
      const Vec3 c = pa.rotation().col(i).cross(pb.rotation().col(j));
      if (c.norm() > 1e-6) axes.push_back(c.normalized());
    }
  }
  double depth = INFINITY;
  for (const Vec3& u0 : axes) {
    for (const Vec3& u : {u0, Vec3(-u0)}) depth = std::min(depth, h(a, pa, u) + h(b, pb, -u));
  }
  return depth;
}

/// Checks the answer's contract on an overlapping pair with known exact depth.
template <class A, class B>
void check_penetration(const A& a, const Pose& pa, const B& b, const Pose& pb, const PenetrationResult& r,
                       double exact, double scale, const std::string& label) {
  ASSERT_TRUE(r.intersect) << label;
  ASSERT_NEAR(r.depth, exact, 1e-9 * scale) << label << " status " << to_string(r.status) << " " << to_string(r.detail);
  ASSERT_NEAR(r.normal.norm(), 1, 1e-12) << label;
  EXPECT_LE((r.point_b - r.point_a + r.depth * r.normal).norm(), 1e-9 * scale)
      << label << " depth " << r.depth << " " << to_string(r.status) << " " << to_string(r.detail) << " it "
      << r.iterations;
  // The support function along the normal equals the depth: the translation is tight.
  EXPECT_NEAR(h(a, pa, r.normal) + h(b, pb, -r.normal), r.depth, 1e-9 * scale) << label;
  if (r.depth > 1e-6 * scale) {
    const Pose out = Pose::from_matrix(pb.rotation(), pb.translation() + (1 + 1e-6) * r.depth * r.normal);
    const Pose in = Pose::from_matrix(pb.rotation(), pb.translation() + (1 - 1e-6) * r.depth * r.normal);
    EXPECT_FALSE(distance(a, pa, b, out).intersect) << label;
    EXPECT_TRUE(distance(a, pa, b, in).intersect) << label;
  }
}

TEST(Epa, BoxBoxMatchesSeparatingAxes) {
  const unsigned seed = 1001;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  int overlaps = 0, separated = 0, thin = 0;
  for (int c = 0; c < 600; ++c) {
    const double scale = std::pow(10.0, -3 + 2 * (c % 5));
    Vec3 ha{0.2 + u(rng), 0.2 + u(rng), 0.2 + u(rng)};
    if (c % 6 == 1) ha.z() = 1e-6, ++thin;  // flat plate
    if (c % 6 == 2) ha.x() = ha.y() = 1e-5;  // needle
    const Box a(ha * scale);
    const Box b(Vec3{0.2 + u(rng), 0.2 + u(rng), 0.2 + u(rng)} * scale);
    const Pose pa = test::random_pose(rng, std::min(1e5, 10 * scale));
    const Mat3 turn = test::random_pose(rng, 0).rotation();
    const Vec3 dir = test::random_unit(rng);
    Pose pb = Pose::from_matrix(turn, pa.translation() + dir * scale * 1.6 * u(rng));
    if (c % 10 == 3) pb = Pose::from_matrix(pa.rotation(), pb.translation());  // face-parallel
    const std::string label = "seed 1001 case " + std::to_string(c);
    const PenetrationResult r = penetration(a, pa, b, pb);
    const double exact = box_box_depth(a, pa, b, pb);
    const double s = (ha.norm() + 2) * scale + 1e-15 * pa.translation().norm() * 1e4;
    if (exact < -1e-9 * s) {
      ++separated;
      EXPECT_FALSE(r.intersect) << label;
      EXPECT_EQ(r.depth, 0) << label;
      continue;
    }
    ++overlaps;
    check_penetration(a, pa, b, pb, r, std::max(exact, 0.0), s, label);
    EXPECT_EQ(r.status, Status::converged) << label;
    // gap: the true depth is within [depth, depth + gap], and converged means it is small.
    EXPECT_GE(r.gap, 0) << label;
    EXPECT_LE(r.gap, 1e-9 * s) << label;
    EXPECT_GE(r.depth + r.gap, exact - 1e-9 * s) << label;
  }
  EXPECT_GT(overlaps, 250);
  EXPECT_GT(separated, 50);
  EXPECT_GT(thin, 50);
}

TEST(Epa, SpheresAndCapsulesClosedForm) {
  const unsigned seed = 1002;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  int core_overlap = 0, margin_only = 0;
  for (int c = 0; c < 600; ++c) {
    const double scale = std::pow(10.0, -3 + 2 * (c % 5));
    const Pose pa = test::random_pose(rng, std::min(1e5, 10 * scale));
    const std::string label = "seed 1002 case " + std::to_string(c);
    if (c % 2 == 0) {
      const Sphere a(scale * (0.2 + u(rng)));
      const Sphere b(scale * (0.2 + u(rng)));
      const Vec3 dir = test::random_unit(rng);
      const Vec3 off = dir * (a.radius() + b.radius()) * u(rng) * (c % 8 == 0 ? 0 : 1);
      const Pose pb = Pose::from_translation(pa.translation() + off);
      const PenetrationResult r = penetration(a, pa, b, pb);
      const double s = 3 * scale + 1e-15 * pa.translation().norm() * 1e4;
      check_penetration(a, pa, b, pb, r, a.radius() + b.radius() - off.norm(), s, label);
      (off.norm() == 0 ? core_overlap : margin_only)++;
    } else {
      const TestCapsule a{scale * (0.1 + 0.3 * u(rng)), scale * (0.2 + u(rng))};
      const TestCapsule b{scale * (0.1 + 0.3 * u(rng)), scale * (0.2 + u(rng))};
      // Crossing axes (cores overlap: the Minkowski difference of the cores is flat) or nearby.
      const Mat3 turn = test::random_pose(rng, 0).rotation();
      const Vec3 dir = test::random_unit(rng);
      const Pose pb = Pose::from_matrix(turn, pa.translation() + dir * scale * 0.3 * u(rng) * (c % 4 == 1 ? 0 : 1));
      const Vec3 a0 = pa.apply(Vec3(0, 0, -a.half_length())), a1 = pa.apply(Vec3(0, 0, a.half_length()));
      const Vec3 b0 = pb.apply(Vec3(0, 0, -b.half_length())), b1 = pb.apply(Vec3(0, 0, b.half_length()));
      const double core = test::segment_segment_distance(a0, a1, b0, b1);
      const double exact = a.radius() + b.radius() - core;
      if (exact <= 0) continue;
      const PenetrationResult r = penetration(a, pa, b, pb);
      const double s = 4 * scale + 1e-15 * pa.translation().norm() * 1e4;
      // Crossing segments: the depth is the margins (a segment pair cannot be separated by less
      // than the radii along the common normal); check only depth and contract.
      ASSERT_NEAR(r.depth, exact, 1e-9 * s) << label;
      EXPECT_LE((r.point_b - r.point_a + r.depth * r.normal).norm(), 1e-9 * s) << label;
      (core < 1e-9 * s ? core_overlap : margin_only)++;
    }
  }
  EXPECT_GT(core_overlap, 100);
  EXPECT_GT(margin_only, 100);
}

/// Exact penetration depth of conv(pts) containing the origin: nearest facet plane of the hull,
/// facets found by brute force over triples.
double brute_force_depth(const std::vector<Vec3>& pts) {
  double best = INFINITY;
  const std::size_t n = pts.size();
  double size = 0;
  for (const Vec3& p : pts) size = std::max(size, p.norm());
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      for (std::size_t k = j + 1; k < n; ++k) {
        Vec3 nrm = (pts[j] - pts[i]).cross(pts[k] - pts[i]);
        if (nrm.norm() < 1e-9 * size * size) continue;
        nrm.normalize();
        const double d = nrm.dot(pts[i]);
        double lo = INFINITY, hi = -INFINITY;
        for (const Vec3& p : pts) {
          lo = std::min(lo, nrm.dot(p) - d);
          hi = std::max(hi, nrm.dot(p) - d);
        }
        const double tol = 1e-10 * size;
        if (hi <= tol) best = std::min(best, d);       // all behind: facet with outward nrm
        if (lo >= -tol) best = std::min(best, -d);     // all in front: facet with outward -nrm
      }
  return best;
}

TEST(Epa, PolytopePairsMatchMinkowskiHull) {
  const unsigned seed = 1003;
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> g;
  int overlaps = 0;
  for (int c = 0; c < 150; ++c) {
    std::vector<Vec3> va, vb;
    for (int i = 0; i < 4 + c % 4; ++i) va.emplace_back(Vec3{g(rng), g(rng), g(rng)});
    for (int i = 0; i < 4 + (c / 4) % 4; ++i) vb.emplace_back(Vec3{g(rng), g(rng), g(rng)});
    const VertexHull a(va), b(vb);
    const Pose pa = test::random_pose(rng, 0.3);
    const Pose pb = test::random_pose(rng, 0.3);
    std::vector<Vec3> diff;
    for (const Vec3& p : va)
      for (const Vec3& q : vb) diff.push_back(pa.apply(p) - pb.apply(q));
    const std::string label = "seed 1003 case " + std::to_string(c);
    const PenetrationResult r = penetration(a, pa, b, pb);
    const double exact = brute_force_depth(diff);
    if (!(exact > 0)) {
      EXPECT_FALSE(r.intersect && r.depth > 1e-9) << label;
      continue;
    }
    ++overlaps;
    check_penetration(a, pa, b, pb, r, exact, 10, label);
  }
  EXPECT_GT(overlaps, 60);
}

TEST(Epa, DeepOverlapAndContainment) {
  const unsigned seed = 1004;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int c = 0; c < 200; ++c) {
    const Box big(Vec3(3, 2, 1.5));
    const Pose pa = test::random_pose(rng, 5);
    const std::string label = "seed 1004 case " + std::to_string(c);
    if (c % 2 == 0) {  // a sphere whose centre is inside the box, possibly wholly inside
      const Sphere s(0.05 + 0.5 * (u(rng) + 1));
      const Vec3 local{2.5 * u(rng), 1.5 * u(rng), 1.0 * u(rng)};
      const Pose pb = Pose::from_translation(pa.apply(local));
      const double to_face = (big.half_extents() - local.cwiseAbs()).minCoeff();
      check_penetration(big, pa, s, pb, penetration(big, pa, s, pb), to_face + s.radius(), 10, label);
    } else {  // a small box wholly inside the big one
      const Box small(Vec3(0.3, 0.2, 0.1));
      const Mat3 pb_rotation = test::random_pose(rng, 0).rotation();
      const Pose pb = Pose::from_matrix(pb_rotation,
                                        pa.apply(Vec3{2 * u(rng), 1.2 * u(rng), 0.8 * u(rng)}));
      check_penetration(big, pa, small, pb, penetration(big, pa, small, pb), box_box_depth(big, pa, small, pb), 10,
                        label);
    }
  }
}

TEST(Epa, TouchingAndFlatContact) {
  const Box box(Vec3::Ones());
  // Exactly touching faces, then edges, then a corner: depth 0, touching.
  for (const Vec3& t : {Vec3(2, 0.5, -0.3), Vec3(2, 2, 0.4), Vec3(2, 2, 2)}) {
    const PenetrationResult r = penetration(box, Pose(), box, Pose::from_translation(t));
    EXPECT_TRUE(r.intersect) << t.transpose();
    EXPECT_NEAR(r.depth, 0, 1e-12) << t.transpose();
    EXPECT_EQ(r.status, Status::converged) << t.transpose();
  }
  // Two coplanar overlapping squares: a flat Minkowski difference, depth 0 along the plane normal.
  const VertexHull square({{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}});
  const PenetrationResult flat = penetration(square, Pose(), square, Pose::from_translation(Vec3(0.5, 0.3, 0)));
  EXPECT_TRUE(flat.intersect);
  EXPECT_EQ(flat.depth, 0);
  EXPECT_NEAR(std::abs(flat.normal.z()), 1, 1e-12);
  EXPECT_EQ(flat.detail, Detail::touching);
  EXPECT_EQ(flat.gap, 0);
  // A square plate pushed into a box: full-dimensional, depth = how far it went in.
  const PenetrationResult plate = penetration(box, Pose(), square, Pose::from_translation(Vec3(0.2, 0.1, 0.7)));
  EXPECT_NEAR(plate.depth, 0.3, 1e-12);
  EXPECT_NEAR(plate.normal.z(), 1, 1e-12);
  // Duplicate vertices in a hull change nothing.
  const VertexHull dup({{-1, -1, -1}, {-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1}, {0, 0, 1}, {0, 0, 1}});
  const PenetrationResult d = penetration(dup, Pose(), box, Pose::from_translation(Vec3(0, 0, 1.5)));
  EXPECT_NEAR(d.depth, 0.5, 1e-12);
}

TEST(Epa, SeparatedGivesDistanceFields) {
  const Box box(Vec3::Ones());
  const Sphere s(0.5);
  const PenetrationResult r = penetration(box, Pose(), s, Pose::from_translation(Vec3(3, 0, 0)));
  EXPECT_FALSE(r.intersect);
  EXPECT_EQ(r.depth, 0);
  EXPECT_NEAR((r.normal - Vec3::UnitX()).norm(), 0, 1e-12);
  EXPECT_NEAR((r.point_a - Vec3(1, 0, 0)).norm(), 0, 1e-12);
  EXPECT_NEAR((r.point_b - Vec3(2.5, 0, 0)).norm(), 0, 1e-12);
}

TEST(Epa, CapsReportBestLowerBound) {
  // A finely tessellated sphere needs many EPA iterations; a tiny cap must stop it with a status
  // and a lower bound, and the hull's capacity must be reported the same way.
  std::vector<Vec3> pts;
  const int rings = 40;
  for (int i = 0; i <= rings; ++i)
    for (int j = 0; j < 2 * rings; ++j) {
      const double th = M_PI * i / rings, ph = M_PI * j / rings;
      pts.emplace_back(std::sin(th) * std::cos(ph), std::sin(th) * std::sin(ph), std::cos(th));
    }
  const VertexHull ball(pts);
  const Pose pb = Pose::from_translation(Vec3(0.3, 0.2, 0.1));
  const PenetrationResult full = penetration(ball, Pose(), ball, pb);
  const PenetrationResult capped = penetration(ball, Pose(), ball, pb, {.max_iterations = 3});
  EXPECT_EQ(capped.status, Status::iteration_limit);
  EXPECT_LE(capped.depth, full.depth + 1e-12);
  EXPECT_GE(capped.depth + capped.gap, full.depth - 1e-12);
  EXPECT_LE(full.gap, 1e-9);
  EXPECT_GT(capped.depth, 0);
  EXPECT_NEAR(full.depth, 2 - std::sqrt(0.14), 2e-2);  // the tessellation is within 1% of a sphere
  // Tiny hulls: out of vertices, then out of faces. Both stop with capacity_exceeded and a lower
  // bound whose witnesses still satisfy point_b - point_a = -depth * normal.
  WarmStart warm;
  BasicEpaHull<8, 64> few_vertices;
  const PenetrationResult pv = penetration(ball, Pose(), ball, pb, {}, warm, few_vertices);
  BasicEpaHull<64, 10> few_faces;
  warm.reset();
  const PenetrationResult pf = penetration(ball, Pose(), ball, pb, {}, warm, few_faces);
  for (const PenetrationResult& r : {pv, pf}) {
    EXPECT_EQ(r.status, Status::capacity_exceeded);
    EXPECT_EQ(r.detail, Detail::face_capacity);
    EXPECT_LE(r.depth, full.depth + 1e-12);
    EXPECT_GT(r.depth, 0.5 * full.depth);
    // Stopped early: the gap is the honest distance to the smallest support distance seen.
    EXPECT_GE(r.depth + r.gap, full.depth - 1e-12);
    EXPECT_GT(r.gap, 1e-6);
    EXPECT_LE((r.point_b - r.point_a + r.depth * r.normal).norm(), 1e-12);
  }
}

/// The face closest_face() must return, from the faces themselves: the first live, valid face of
/// smallest plane distance (-1 if none).
template <class Hull>
int closest_face_reference(const Hull& hull) {
  int best = -1;
  for (int f = 0; f < hull.num_face_slots(); ++f) {
    const EpaFace& face = hull.face(f);
    if (face.alive && face.valid && (best < 0 || face.distance < hull.face(best).distance)) best = f;
  }
  return best;
}

// closest_face() scans its keys in four lanes (epa_hull.hpp); it must still pick the first face of
// smallest distance. Hulls grown by hand from symmetric starts, where faces share their distance
// bit for bit (ties across lanes and within one), and from random ones, with 1..15 face slots in
// use beyond a multiple of four (the tail in lane 0), and slivers (+inf keys).
TEST(Epa, ClosestFaceIsTheFirstNearest) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> unit(-1, 1);
  const auto point = [](const Vec3& w) { return SupportPoint{w, w, Vec3::Zero()}; };
  int ties = 0;
  int checked = 0;
  for (int run = 0; run < 400; ++run) {
    BasicEpaHull<64, 128> hull;
    std::array<SupportPoint, 4> tet;
    if (run % 2 == 0) {  // regular tetrahedron about the origin: four faces at one distance
      const double s = run % 4 == 0 ? 1.0 : 0.375;
      tet = {point(Vec3(s, s, s)), point(Vec3(s, -s, -s)), point(Vec3(-s, s, -s)), point(Vec3(-s, -s, s))};
    } else {
      for (auto& p : tet) p = point(Vec3{unit(rng), unit(rng), unit(rng)});
    }
    // Large enough for run % 8 == 7 to turn some random faces into slivers.
    hull.reset_tetrahedron(tet, run % 8 == 7 ? 0.05 : 1e-12);
    for (int step = 0; step < 40; ++step) {
      const int best = hull.closest_face();
      ASSERT_EQ(best, closest_face_reference(hull)) << "run " << run << " step " << step;
      ++checked;
      if (best < 0) break;
      for (int f = 0; f < hull.num_face_slots(); ++f) {
        const EpaFace& face = hull.face(f);
        if (f != best && face.alive && face.valid && face.distance == hull.face(best).distance) ++ties;
      }
      // A new vertex beyond the chosen face: symmetric runs push along its normal from its
      // centroid (keeping faces at equal distances), random runs add a random offset.
      const EpaFace& face = hull.face(best);
      Vec3 c = Vec3::Zero();
      for (int v : face.vertex) c += hull.vertex(v).w / 3;
      Vec3 w = c + 0.5 * face.normal;
      if (run % 2 == 1) w += 0.2 * Vec3{unit(rng), unit(rng), unit(rng)};
      if (!(face.normal.dot(w) > face.distance)) continue;
      const int v = hull.add_vertex(point(w));
      if (v < 0 || hull.expand(best, v) != BasicEpaHull<64, 128>::Expansion::done) break;
    }
  }
  EXPECT_GT(ties, 0);  // the symmetric starts did produce exact ties
  EXPECT_GT(checked, 4000);
}

// penetration() on two Polytopes runs EPA on the small hull first and on the full hull only when
// the small one runs out of room (session 29). Both paths must give the full hull's answer bit
// for bit: random polytope pairs, from a few vertices to noisy spheres of 1500 points whose deep
// overlaps need more than the small hull's 34 vertices (counted: some must overflow, some not).
TEST(Epa, PolytopePairsSmallHullGivesTheFullHullsAnswer) {
  const unsigned seed = 20261130;
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> g;
  auto hull = std::make_unique<EpaHull>();
  auto workspace = std::make_unique<EpaHull>();
  auto small = std::make_unique<SmallEpaHull>();
  int compared = 0;
  int overflows = 0;
  for (int c = 0; c < 120; ++c) {
    const int na = c % 3 == 0 ? 1500 : 4 + static_cast<int>(rng() % 60);
    const int nb = c % 3 == 0 ? 1500 : 4 + static_cast<int>(rng() % 60);
    // The draws in sequenced statements: inside one call's arguments their order is unspecified
    // (GCC and clang differ), and the sample must be the same with every compiler.
    const auto noisy_sphere_point = [&] {
      const double x = g(rng);
      const double y = g(rng);
      const double z = g(rng);
      const double noise = g(rng);
      return Vec3(Vec3(x, y, z).normalized() * (1 + 0.01 * noise));
    };
    std::vector<Vec3> va, vb;
    for (int i = 0; i < na; ++i) va.push_back(noisy_sphere_point());
    for (int i = 0; i < nb; ++i) vb.push_back(noisy_sphere_point());
    const Polytope a{std::span<const Vec3>(va)};
    const Polytope b{std::span<const Vec3>(vb)};
    const Pose pa = test::random_pose(rng, 0.5);
    const Pose pb = test::random_pose(rng, 0.5);
    const std::string label = "seed " + std::to_string(seed) + " case " + std::to_string(c);
    WarmStart warm;
    const PenetrationResult r = penetration(a, pa, b, pb, EpaOptions{}, warm, *workspace);
    // The same query by hand on the full hull alone.
    const Pose b_in_a = relative_pose(pa, pb);
    MinkowskiDifference<Polytope, Polytope> md(a, b, b_in_a);
    // As penetration() does: B placed in A's frame for the scanned pairs (the supports then
    // agree with penetration's bit for bit, ties included).
    alignas(32) std::array<double, 3 * proxima::detail::kPolytopeScanMaxPadded> placed;
    md.place_b(placed.data());
    const double scale = detail::query_scale(a, b, b_in_a);
    WarmStart cold;
    const detail::GjkRun run = detail::run_warm_gjk(md, pa, scale, GjkOptions{}, detail::GjkMode::distance, cold);
    if (!run.contact) continue;
    MinkowskiDifference<Polytope, Polytope> md_small = md;
    const detail::EpaRun full = detail::run_epa(md, run.simplex, scale, EpaOptions{}, *hull);
    (void)detail::run_epa(md_small, run.simplex, scale, EpaOptions{}, *small);
    overflows += small->overflowed() ? 1 : 0;
    ++compared;
    ASSERT_TRUE(r.intersect) << label;
    EXPECT_EQ(r.depth, full.depth) << label;
    EXPECT_EQ(r.gap, full.gap) << label;
    EXPECT_EQ(r.iterations, run.iterations + full.iterations) << label;
    EXPECT_EQ(r.status, full.status) << label;
    EXPECT_EQ(r.detail, full.detail) << label;
    EXPECT_EQ(r.normal, pa.rotate(full.normal)) << label;
    EXPECT_EQ(r.point_a, pa.apply(full.witnesses.a)) << label;
    EXPECT_EQ(r.point_b, pa.apply(full.witnesses.b)) << label;
  }
  // Both paths taken: some queries overflow the small hull, most do not.
  EXPECT_GT(compared, 60) << "seed " << seed;
  EXPECT_GT(overflows, 0) << "seed " << seed;
  EXPECT_LT(overflows, compared) << "seed " << seed;
  std::printf("seed %u: %d pairs compared, %d overflowed the small hull\n", seed, compared, overflows);
}

}  // namespace
}  // namespace proxima::gjk
