// SPDX-License-Identifier: MIT
// Consistency: EPA penetration depth (query::penetration, default options, "penetration" in a
// scene) against the exact answer on the Minkowski difference (tests/oracles/minkowski_penetration,
// CGAL exact hull of all vertex differences) on small polytopes: random hulls of 4..16 points,
// boxes and the nasty cases, placed at 0.2..1.3 times the touching distance (mostly overlapping,
// scales 1e-3..1e5, translations to 1e5). Checked: the overlap decision, the depth, and the normal
// where the nearest facet of the difference is unique. Tolerances: docs/reliability.md.
#include "consistency/sweep_common.hpp"
#include "oracles/minkowski_penetration.hpp"
// The oracle is compiled once per test executable, here (tests/property does the same).
#include "oracles/cgal_polytope_distance.cpp"  // NOLINT(bugprone-suspicious-include)
#include "oracles/minkowski_penetration.cpp"  // NOLINT(bugprone-suspicious-include)
#include "support/nasty_cases.hpp"
#include "support/shape_builder.hpp"

#include <proxima/query/query.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <sstream>

namespace proxima::consistency {
namespace {

#ifdef PROXIMA_HAVE_CGAL

using property::Mix;
using testgen::PairCase;

// Depth: EPA stops when the support along the nearest face's normal is within
// kEpaRelativeTolerance (1e-10) of the face distance plus kEpaAbsoluteTolerance (1e-12) of the
// scale; the face planes it builds from rounded support points carry about eps * |translation|.
constexpr double kDepthRelativeTolerance = 1e-9;   // of the exact depth
constexpr double kSizeRelativeTolerance = 1e-10;   // of the pair's size
// Normal, where the exact nearest facet is unique by more than kTieTolerance relative: a facet
// normal computed from supports rounded to eps * reach, differing from the exact one by about
// (rounding / edge length), well below this.
constexpr double kNormalTolerance = 1e-6;
constexpr double kTieTolerance = 1e-6;

Scene scene_of(const PairCase& c) {
  Scene s;
  s.shape("a", shape_json(c.a));
  s.shape("b", shape_json(c.b));
  s.pair_query("epa", "penetration", "a", c.pose_a, "b", c.pose_b);
  return s;
}

struct Sweep {
  Sweep(std::string name, std::uint64_t s) : log(std::move(name), s), seed(s) {}
  Disagreements log;
  std::uint64_t seed;
  Mix mix;
  int index = 0;
  double worst = 0;  // worst |depth - exact| / tolerance
};

void compare(Sweep& sweep, const PairCase& c) {
  const int index = sweep.index++;
  const PenetrationResult r = query::penetration(testgen::to_any_convex(c.a), c.pose_a.pose(),
                                                 testgen::to_any_convex(c.b), c.pose_b.pose());
  const oracles::ExactPenetration exact =
      oracles::minkowski_penetration(c.world_vertices_a(), c.world_vertices_b(), kTieTolerance);
  const double size = property::pair_size(c);
  const double tol = kDepthRelativeTolerance * exact.depth + kSizeRelativeTolerance * size + property::rounding_floor(c);
  std::ostringstream what;
  what.precision(17);
  what << "epa intersect " << r.intersect << " depth " << r.depth << " normal [" << r.normal.transpose() << "] ("
       << to_string(r.status) << "/" << to_string(r.detail) << ", " << r.iterations << " it); exact intersect "
       << exact.intersect << " depth " << exact.depth << " normal [" << exact.normal.transpose() << "] unique "
       << exact.unique << "; tolerance " << tol;
  sweep.mix.add(exact.intersect ? (exact.touching || exact.flat ? "touching" : "hit") : "miss");
  sweep.mix.add(std::string("decade") + std::to_string(testgen::decade(c.scale)));
  if (!exact.intersect) {
    if (r.intersect && !(r.depth <= tol)) sweep.log.report(index, c.label, "depth on separated shapes: " + what.str(), scene_of(c));
    return;
  }
  if (r.status != Status::converged) {
    sweep.log.report(index, c.label, "EPA did not converge: " + what.str(), scene_of(c));
    return;
  }
  if (!r.intersect) {
    if (!(exact.depth <= tol)) sweep.log.report(index, c.label, "overlap missed: " + what.str(), scene_of(c));
    return;
  }
  const double err = std::abs(r.depth - exact.depth);
  sweep.worst = std::max(sweep.worst, err / tol);
  if (!(err <= tol)) {
    sweep.log.report(index, c.label, "depths differ: " + what.str(), scene_of(c));
    return;
  }
  if (exact.unique) {
    sweep.mix.add("unique_normal");
    if (!((r.normal - exact.normal).norm() <= kNormalTolerance)) {
      sweep.log.report(index, c.label, "normals differ: " + what.str(), scene_of(c));
    }
  }
}

TEST(ConsistencyEpaMinkowski, SmallPolytopes) {
  Sweep sweep("epa_minkowski", seed(8021));
  Rng rng(sweep.seed);
  testgen::PlacementOptions placement;
  placement.min_factor = 0.2;
  placement.max_factor = 1.3;
  const int n = cases(240);
  for (int k = 0; k < n; ++k) {
    const auto spec = [&] {
      if (k % 4 == 3) {
        return testgen::polytope_spec(testgen::box_corners(
            Vec3{testgen::uniform(rng, 0.2, 1), testgen::uniform(rng, 0.2, 1), testgen::uniform(rng, 0.2, 1)}));
      }
      return testgen::polytope_spec(testgen::ellipsoid_points(rng, std::uniform_int_distribution<int>(4, 16)(rng)));
    };
    const ShapeSpec sa = spec();
    const ShapeSpec sb = spec();
    compare(sweep, testgen::place_pair(rng, k % 4 == 3 ? "boxes" : "random_hulls", sa, sb, placement));
  }
  for (const testgen::NastyCase& nasty : testgen::nasty_polytope_cases(rng)) {
    compare(sweep, nasty.pair);
    for (int m = 0; m < 2 * sweep_scale(); ++m) compare(sweep, testgen::randomly_moved(rng, nasty.pair));
  }
  sweep.mix.print("epa vs minkowski");
  std::printf("[epa vs minkowski] %d cases (seed %llu, scale %d), %d disagreements, worst depth error / tolerance %.3g\n",
              sweep.index, static_cast<unsigned long long>(sweep.seed), sweep_scale(), sweep.log.count(), sweep.worst);
  EXPECT_EQ(sweep.log.count(), 0);
  EXPECT_GE(sweep.mix["hit"], sweep.index / 2) << "mostly overlapping";
  EXPECT_GE(sweep.mix["miss"], sweep.index / 20);
  EXPECT_GE(sweep.mix["touching"], 3);
  EXPECT_GE(sweep.mix["unique_normal"], sweep.mix["hit"] / 2);
  for (int d = -3; d <= 4; ++d) EXPECT_GT(sweep.mix[std::string("decade") + std::to_string(d)], 0) << "decade " << d;
}

#else
TEST(ConsistencyEpaMinkowski, SkippedWithoutCgal) { GTEST_SKIP() << "CGAL not found: no exact Minkowski oracle"; }
#endif

}  // namespace
}  // namespace proxima::consistency
