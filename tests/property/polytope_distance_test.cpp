// SPDX-License-Identifier: MIT
// Property sweep: gjk::distance between polytopes against the exact CGAL oracle
// (tests/oracles/cgal_polytope_distance.hpp), on seeded random hulls of points on the ellipsoid
// (1, 0.7, 0.5) with 8..1024 vertices, uniform random rotations, scales 1e-3..1e5, translations up
// to 1e5, B placed at 0.5..1.5 times the touching distance; then on the nasty cases, as built and
// randomly moved. Checked: the distance to 1e-9 of the pair's size (plus the rounding floor of the
// world coordinates), the intersect flag, and the witnesses: each on its own shape (exact
// point-to-hull distance), |point_b - point_a| equal to the distance, the normal their unit
// direction. Witnesses are not compared with CGAL's (not unique for parallel features), but the
// count that coincide is printed.
#include "property/property_common.hpp"

#include "oracles/cgal_polytope_distance.hpp"
#include "support/nasty_cases.hpp"
#include "support/random_shapes.hpp"

#include <proxima/gjk/distance.hpp>
#include <proxima/shapes/polytope.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <sstream>

namespace proxima {
namespace {

#ifdef PROXIMA_HAVE_CGAL

using property::FailureLog;
using property::Mix;
using testgen::PairCase;

/// Relative accuracy demanded of the distance and the witnesses, times the pair's size.
constexpr double kRelativeTolerance = 1e-9;

struct Outcome {
  bool intersect = false;
  bool near_touching = false;
  bool witnesses_match_cgal = false;
  double relative_error = 0;  // |distance - exact| / pair size
};

/// Runs one case, records failures, returns what the mix counters need.
Outcome check_case(const PairCase& c, int index, FailureLog& log) {
  const Polytope a(std::span<const Vec3>(c.a.vertices));
  const Polytope b(std::span<const Vec3>(c.b.vertices));
  const Pose pose_a = c.pose_a.pose();
  const Pose pose_b = c.pose_b.pose();
  const DistanceResult r = gjk::distance(a, pose_a, b, pose_b);
  const std::vector<Vec3> wa = c.world_vertices_a();
  const std::vector<Vec3> wb = c.world_vertices_b();
  const oracles::ExactDistance exact = oracles::cgal_polytope_distance(wa, wb);

  const double size = property::pair_size(c);
  const double tol = kRelativeTolerance * size + property::rounding_floor(c);
  Outcome out;
  out.intersect = exact.intersect;
  out.near_touching = !exact.intersect && exact.distance <= tol;
  out.relative_error = std::abs(r.distance - exact.distance) / size;
  std::ostringstream what;
  what.precision(17);
  const auto fail = [&](const std::string& msg) {
    what << msg << " | gjk distance " << r.distance << " (status " << to_string(r.status) << "/"
         << to_string(r.detail) << ", " << r.iterations << " it), exact " << exact.distance << ", tol " << tol;
    log.fail(index, c, what.str());
  };
  if (r.status != Status::converged) return fail("status not converged"), out;
  if (!(std::abs(r.distance - exact.distance) <= tol)) return fail("distance differs from CGAL"), out;
  if (!exact.intersect && !out.near_touching && r.intersect) return fail("intersect flag set on separated shapes"), out;
  if (exact.intersect && !r.intersect) return fail("intersect flag clear on overlapping shapes"), out;
  // Witnesses: on their shapes, at the reported distance.
  const double off_a = oracles::cgal_point_polytope_distance(r.point_a, wa).distance;
  const double off_b = oracles::cgal_point_polytope_distance(r.point_b, wb).distance;
  if (!(off_a <= tol) || !(off_b <= tol)) {
    what << "witness off its shape by " << off_a << " (a), " << off_b << " (b); ";
    return fail("witness not on its shape"), out;
  }
  if (!(std::abs((r.point_b - r.point_a).norm() - r.distance) <= tol)) return fail("witnesses not at the distance"), out;
  if (!r.intersect) {
    if (!(std::abs(r.normal.norm() - 1) <= kRelativeTolerance)) return fail("normal not unit"), out;
    if (!(std::abs(r.normal.dot(r.point_b - r.point_a) - r.distance) <= tol)) return fail("normal not along the witnesses"), out;
  }
  out.witnesses_match_cgal = (r.point_a - exact.point_a).norm() <= tol && (r.point_b - exact.point_b).norm() <= tol;
  return out;
}

TEST(PropertyPolytopeDistance, RandomHullsAgainstCgal) {
  constexpr std::uint64_t kSeed = 0x9e3779b97f4a7c15ULL;
  testgen::Rng rng(kSeed);
  FailureLog log(kSeed, "distance");
  Mix mix;
  struct Block {
    int vertices;
    int cases;
  };
  // Case counts keep the sweep near 5 s in Release (the exact QP dominates; it grows with N).
  constexpr Block kBlocks[] = {{8, 400}, {32, 300}, {128, 50}, {1024, 4}};
  double worst = 0;
  int index = 0;
  int total = 0;
  int overlapping = 0;
  for (const Block& block : kBlocks) {
    for (int k = 0; k < block.cases; ++k, ++index) {
      const auto sa = testgen::polytope_spec(testgen::ellipsoid_points(rng, block.vertices));
      const auto sb = testgen::polytope_spec(testgen::ellipsoid_points(rng, block.vertices));
      const PairCase c = testgen::place_pair(rng, std::string("random_n") + std::to_string(block.vertices), sa, sb);
      const Outcome o = check_case(c, index, log);
      ++total;
      overlapping += o.intersect;
      worst = std::max(worst, o.relative_error);
      mix.add(std::string("decade") + std::to_string(testgen::decade(c.scale)));
      mix.add(o.intersect ? "overlap" : "separated");
      if (!o.intersect && o.witnesses_match_cgal) mix.add("witnesses_equal_cgal");
    }
  }
  mix.print("polytope distance");
  std::printf("[polytope distance] %d cases (seed %llu), worst |distance - exact| / size = %.3g\n", total,
              static_cast<unsigned long long>(kSeed), worst);
  EXPECT_EQ(log.count(), 0);
  EXPECT_GE(overlapping, 0.3 * total);
  EXPECT_LE(overlapping, 0.7 * total);
  for (int d = -3; d <= 4; ++d) EXPECT_GT(mix[std::string("decade") + std::to_string(d)], 0) << "scale decade " << d;
}

TEST(PropertyPolytopeDistance, NastyCasesAgainstCgal) {
  constexpr std::uint64_t kSeed = 424242;
  constexpr int kMovesPerCase = 6;
  testgen::Rng rng(kSeed);
  FailureLog log(kSeed, "distance");
  Mix mix;
  int index = 0;
  for (const testgen::NastyCase& nasty : testgen::nasty_polytope_cases(rng)) {
    std::vector<PairCase> variants = {nasty.pair};
    for (int m = 0; m < kMovesPerCase; ++m) variants.push_back(testgen::randomly_moved(rng, nasty.pair));
    for (const PairCase& c : variants) {
      const Outcome o = check_case(c, index++, log);
      mix.add(o.intersect ? "overlap" : "separated");
      if (o.near_touching) mix.add("near_touching_separated");
    }
    if (nasty.contact == testgen::Contact::touching) mix.add("touching_cases");
  }
  mix.print("polytope distance, nasty");
  std::printf("[polytope distance, nasty] %d cases (seed %llu)\n", index, static_cast<unsigned long long>(kSeed));
  EXPECT_EQ(log.count(), 0);
  EXPECT_GE(mix["touching_cases"], 3);
}

#else
TEST(PropertyPolytopeDistance, SkippedWithoutCgal) { GTEST_SKIP() << "CGAL not found: no exact oracle"; }
#endif

}  // namespace
}  // namespace proxima
