// SPDX-License-Identifier: MIT
// Property sweep: gjk::penetration (GJK + EPA) between polytopes against the exact
// Minkowski-difference oracle (tests/oracles/minkowski_penetration.hpp), on seeded random hulls of
// 8 and 32 points on the ellipsoid (1, 0.7, 0.5) under random rotations, scales 1e-3..1e5 and
// translations to 1e5, and on the nasty cases as built and randomly moved. Checked on overlapping
// pairs: the depth to 1e-7 relative (plus 1e-9 of the pair's size and the rounding floor); the
// normal to 1e-6 where the nearest facet is unique (relative gap above 1e-6); everywhere, that the
// overlap of the vertex lists along the reported normal equals the reported depth (so the
// direction is a valid minimal translation), point_b - point_a = -depth * normal, and each
// witness on its own shape (exact CGAL point-to-hull distance). Separated pairs: intersect false
// and depth 0. Exactly touching pairs: depth within the tolerance of 0.
#include "property/property_common.hpp"

#include "oracles/cgal_polytope_distance.hpp"
#include "oracles/minkowski_penetration.hpp"
#include "oracles/separating_plane.hpp"
#include "support/nasty_cases.hpp"
#include "support/random_shapes.hpp"

#include <proxima/gjk/epa.hpp>
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

constexpr double kDepthRelativeTolerance = 1e-7;  // of the depth
constexpr double kSizeRelativeTolerance = 1e-9;   // of the pair's size (absolute floor)
constexpr double kNormalTolerance = 1e-6;         // |n - n_exact| where the facet is unique
constexpr double kTieTolerance = 1e-6;            // facet planes closer than this (relative) tie

struct Outcome {
  bool intersect = false;
  bool touching = false;
  bool unique = false;
  double depth_error = 0;  // |depth - exact| / max(exact depth, size * 1e-9)
};

Outcome check_case(const PairCase& c, int index, FailureLog& log) {
  const Polytope a(std::span<const Vec3>(c.a.vertices));
  const Polytope b(std::span<const Vec3>(c.b.vertices));
  const PenetrationResult r = gjk::penetration(a, c.pose_a.pose(), b, c.pose_b.pose());
  const std::vector<Vec3> wa = c.world_vertices_a();
  const std::vector<Vec3> wb = c.world_vertices_b();
  const oracles::ExactPenetration exact = oracles::minkowski_penetration(wa, wb, kTieTolerance);
  const double size = property::pair_size(c);
  const double floor = kSizeRelativeTolerance * size + property::rounding_floor(c);
  const double tol = kDepthRelativeTolerance * exact.depth + floor;

  Outcome out;
  out.intersect = exact.intersect;
  out.touching = exact.touching || exact.flat;
  out.unique = exact.unique;
  std::ostringstream what;
  what.precision(17);
  const auto fail = [&](const std::string& msg) {
    what << msg << " | epa intersect " << r.intersect << " depth " << r.depth << " normal ["
         << r.normal.transpose() << "] (status " << to_string(r.status) << "/" << to_string(r.detail) << ", "
         << r.iterations << " it); exact intersect " << exact.intersect << " depth " << exact.depth
         << " normal [" << exact.normal.transpose() << "] unique " << exact.unique << " gap "
         << exact.relative_gap << "; tol " << tol;
    log.fail(index, c, what.str());
  };
  if (!exact.intersect) {
    // Separated by the exact test: EPA is not run; a touching-band disagreement is allowed.
    if (r.intersect && !(r.depth <= tol)) fail("penetration reported on separated shapes");
    return out;
  }
  if (r.status != Status::converged) return fail("status not converged"), out;
  if (!r.intersect) {
    // Allowed only within the touching band: the GJK distance it then reports must be tiny.
    if (!(exact.depth <= tol)) fail("overlap missed");
    return out;
  }
  out.depth_error = std::abs(r.depth - exact.depth) / std::max(exact.depth, floor);
  if (!(std::abs(r.depth - exact.depth) <= tol)) return fail("depth differs from the exact one"), out;
  if (out.touching) return out;  // depth 0: normal and witnesses are not determined
  if (!(std::abs(r.normal.norm() - 1) <= kNormalTolerance)) return fail("normal not unit"), out;
  // Overlap along the reported normal: max over A minus min over B must be the depth.
  const oracles::AxisSeparation along = oracles::separation_along(r.normal, wa, wb);
  if (!(std::abs(-along.gap - r.depth) <= tol)) {
    what << "overlap along the normal " << -along.gap << "; ";
    return fail("normal is not a minimal translation direction"), out;
  }
  if (exact.unique && !((r.normal - exact.normal).norm() <= kNormalTolerance)) return fail("normal differs from the unique exact one"), out;
  if (!((r.point_b - r.point_a + r.depth * r.normal).norm() <= tol)) return fail("witnesses do not span -depth * normal"), out;
  const double off_a = oracles::cgal_point_polytope_distance(r.point_a, wa).distance;
  const double off_b = oracles::cgal_point_polytope_distance(r.point_b, wb).distance;
  if (!(off_a <= tol) || !(off_b <= tol)) {
    what << "witness off its shape by " << off_a << " (a), " << off_b << " (b); ";
    return fail("witness not on its shape"), out;
  }
  return out;
}

TEST(PropertyPolytopePenetration, RandomHullsAgainstMinkowskiOracle) {
  constexpr std::uint64_t kSeed = 31337;
  testgen::Rng rng(kSeed);
  FailureLog log(kSeed, "penetration");
  Mix mix;
  struct Block {
    int vertices;
    int cases;
  };
  // The exact hull of up to 32 x 32 differences dominates the cost.
  constexpr Block kBlocks[] = {{8, 300}, {32, 80}};
  int index = 0;
  int overlapping = 0;
  double worst = 0;
  for (const Block& block : kBlocks) {
    for (int k = 0; k < block.cases; ++k, ++index) {
      const auto sa = testgen::polytope_spec(testgen::ellipsoid_points(rng, block.vertices));
      const auto sb = testgen::polytope_spec(testgen::ellipsoid_points(rng, block.vertices));
      const PairCase c = testgen::place_pair(rng, std::string("random_n") + std::to_string(block.vertices), sa, sb);
      const Outcome o = check_case(c, index, log);
      overlapping += o.intersect;
      worst = std::max(worst, o.depth_error);
      mix.add(o.intersect ? "overlap" : "separated");
      if (o.intersect) mix.add(o.unique ? "unique_normal" : "tied_normal");
      mix.add(std::string("decade") + std::to_string(testgen::decade(c.scale)));
    }
  }
  mix.print("polytope penetration");
  std::printf("[polytope penetration] %d cases (seed %llu), worst relative depth error %.3g\n", index,
              static_cast<unsigned long long>(kSeed), worst);
  EXPECT_EQ(log.count(), 0);
  EXPECT_GE(overlapping, 0.3 * index);
  EXPECT_LE(overlapping, 0.7 * index);
  EXPECT_GT(mix["unique_normal"], overlapping / 2);
  for (int d = -3; d <= 4; ++d) EXPECT_GT(mix[std::string("decade") + std::to_string(d)], 0) << "scale decade " << d;
}

TEST(PropertyPolytopePenetration, NastyCasesAgainstMinkowskiOracle) {
  constexpr std::uint64_t kSeed = 5150;
  constexpr int kMovesPerCase = 4;
  testgen::Rng rng(kSeed);
  FailureLog log(kSeed, "penetration");
  Mix mix;
  int index = 0;
  for (const testgen::NastyCase& nasty : testgen::nasty_polytope_cases(rng)) {
    std::vector<PairCase> variants = {nasty.pair};
    for (int m = 0; m < kMovesPerCase; ++m) variants.push_back(testgen::randomly_moved(rng, nasty.pair));
    for (const PairCase& c : variants) {
      const Outcome o = check_case(c, index++, log);
      mix.add(o.touching ? "touching_or_flat" : (o.intersect ? "overlap" : "separated"));
    }
  }
  mix.print("polytope penetration, nasty");
  std::printf("[polytope penetration, nasty] %d cases (seed %llu)\n", index, static_cast<unsigned long long>(kSeed));
  EXPECT_EQ(log.count(), 0);
  EXPECT_GE(mix["touching_or_flat"], 3);
}

#else
TEST(PropertyPolytopePenetration, SkippedWithoutCgal) { GTEST_SKIP() << "CGAL not found: no exact oracle"; }
#endif

}  // namespace
}  // namespace proxima
