// SPDX-License-Identifier: MIT
// Property sweep: gjk::intersect between polytopes against the exact answer (CGAL: the exact
// squared distance is 0), on the random placed hulls and the nasty cases. A "separated" answer
// must carry a separating axis that the vertex lists confirm (max over A < min over B along it,
// up to rounding); an "overlapping" answer on separated shapes, or "separated" on overlapping ones,
// is accepted only within 1e-9 of the pair's size of touching: the exact distance for the first,
// and for the second the axis itself, whose overlap along it bounds the penetration depth.
#include "property/property_common.hpp"

#include "oracles/cgal_polytope_distance.hpp"
#include "oracles/separating_plane.hpp"
#include "support/nasty_cases.hpp"
#include "support/random_shapes.hpp"

#include <proxima/gjk/intersect.hpp>
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

/// Width of the touching band, times the pair's size.
constexpr double kTouchingBand = 1e-9;

struct Outcome {
  bool exact_intersect = false;
  bool near_touching = false;  // decided by the oracle or by the certificate
};

Outcome check_case(const PairCase& c, int index, FailureLog& log) {
  const Polytope a(std::span<const Vec3>(c.a.vertices));
  const Polytope b(std::span<const Vec3>(c.b.vertices));
  const IntersectResult r = gjk::intersect(a, c.pose_a.pose(), b, c.pose_b.pose());
  const std::vector<Vec3> wa = c.world_vertices_a();
  const std::vector<Vec3> wb = c.world_vertices_b();
  const oracles::ExactDistance exact = oracles::cgal_polytope_distance(wa, wb);
  const double band = kTouchingBand * property::pair_size(c) + property::rounding_floor(c);

  Outcome out;
  out.exact_intersect = exact.intersect;
  std::ostringstream what;
  what.precision(17);
  const auto fail = [&](const std::string& msg) {
    what << msg << " | gjk intersect " << r.intersect << " (status " << to_string(r.status) << "/"
         << to_string(r.detail) << ", " << r.iterations << " it), exact distance " << exact.distance
         << ", band " << band;
    log.fail(index, c, what.str());
  };
  if (r.status != Status::converged) {
    fail("status not converged");
    return out;
  }
  if (!r.intersect) {
    const oracles::AxisSeparation sep = oracles::separation_along(r.separating_axis, wa, wb);
    if (!sep.unit_axis) {
      what << "axis " << r.separating_axis.transpose() << "; ";
      fail("separating axis not a unit vector");
      return out;
    }
    if (!(sep.gap >= -band)) {
      what << "overlap along the axis " << -sep.gap << "; ";
      fail("separating axis does not separate the vertex lists");
      return out;
    }
    // The axis proves the overlap (if any) is within the band.
    out.near_touching = exact.intersect || exact.distance <= band;
  } else if (!exact.intersect) {
    out.near_touching = exact.distance <= band;
    if (!out.near_touching) fail("reported overlap on separated shapes");
  }
  return out;
}

TEST(PropertyPolytopeIntersect, RandomHullsAgainstExactAnswer) {
  constexpr std::uint64_t kSeed = 20261122;
  testgen::Rng rng(kSeed);
  FailureLog log(kSeed, "intersect");
  Mix mix;
  struct Block {
    int vertices;
    int cases;
  };
  constexpr Block kBlocks[] = {{8, 500}, {32, 400}, {128, 60}, {1024, 4}};
  int index = 0;
  int overlapping = 0;
  for (const Block& block : kBlocks) {
    for (int k = 0; k < block.cases; ++k, ++index) {
      const auto sa = testgen::polytope_spec(testgen::ellipsoid_points(rng, block.vertices));
      const auto sb = testgen::polytope_spec(testgen::ellipsoid_points(rng, block.vertices));
      const PairCase c = testgen::place_pair(rng, std::string("random_n") + std::to_string(block.vertices), sa, sb);
      const Outcome o = check_case(c, index, log);
      overlapping += o.exact_intersect;
      mix.add(o.exact_intersect ? "overlap" : "separated");
      mix.add(std::string("decade") + std::to_string(testgen::decade(c.scale)));
      if (o.near_touching) mix.add("near_touching");
    }
  }
  mix.print("polytope intersect");
  std::printf("[polytope intersect] %d cases (seed %llu)\n", index, static_cast<unsigned long long>(kSeed));
  EXPECT_EQ(log.count(), 0);
  EXPECT_GE(overlapping, 0.3 * index);
  EXPECT_LE(overlapping, 0.7 * index);
  for (int d = -3; d <= 4; ++d) EXPECT_GT(mix[std::string("decade") + std::to_string(d)], 0) << "scale decade " << d;
}

TEST(PropertyPolytopeIntersect, NastyCasesAgainstExactAnswer) {
  constexpr std::uint64_t kSeed = 77;
  constexpr int kMovesPerCase = 10;
  testgen::Rng rng(kSeed);
  FailureLog log(kSeed, "intersect");
  Mix mix;
  int index = 0;
  for (const testgen::NastyCase& nasty : testgen::nasty_polytope_cases(rng)) {
    const Outcome base = check_case(nasty.pair, index++, log);
    mix.add(base.exact_intersect ? "overlap" : "separated");
    if (nasty.contact == testgen::Contact::touching) {
      // Built to touch exactly: the oracle must agree (this also checks the generator).
      EXPECT_TRUE(base.exact_intersect) << nasty.pair.label;
      mix.add("exact_touching");
    }
    for (int m = 0; m < kMovesPerCase; ++m) {
      const Outcome o = check_case(testgen::randomly_moved(rng, nasty.pair), index++, log);
      mix.add(o.exact_intersect ? "overlap" : "separated");
      if (o.near_touching) mix.add("near_touching");
    }
  }
  mix.print("polytope intersect, nasty");
  std::printf("[polytope intersect, nasty] %d cases (seed %llu)\n", index, static_cast<unsigned long long>(kSeed));
  EXPECT_EQ(log.count(), 0);
  EXPECT_GE(mix["exact_touching"], 3);
}

#else
TEST(PropertyPolytopeIntersect, SkippedWithoutCgal) { GTEST_SKIP() << "CGAL not found: no exact oracle"; }
#endif

}  // namespace
}  // namespace proxima
