// SPDX-License-Identifier: MIT
// Property sweeps for the box (a support mapping that is not a vertex list) against the exact
// CGAL oracle on its 8 corners, including face-parallel and exactly touching boxes, and the nasty
// smooth cases: exactly touching spheres, flat discs and needles (cylinders, cones, ellipsoids
// with one or two semiaxes 1e-4 of the others), deep overlap with the same centre, one shape
// inside the other; each under random similarity moves (scale 1e-3..1e5, translation to 1e5).
#include "property/property_common.hpp"

#include "oracles/brute_force.hpp"
#include "oracles/cgal_polytope_distance.hpp"
#include "support/nasty_cases.hpp"
#include "support/random_shapes.hpp"
#include "support/shape_builder.hpp"

#include <proxima/gjk/distance.hpp>
#include <proxima/gjk/epa.hpp>
#include <proxima/gjk/intersect.hpp>
#include <proxima/shapes/box.hpp>
#include <proxima/shapes/sphere.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <sstream>

namespace proxima {
namespace {

using property::FailureLog;
using property::Mix;
using testgen::PairCase;
using testgen::ShapeKind;
using testgen::ShapeSpec;

constexpr double kRelativeTolerance = 1e-9;

#ifdef PROXIMA_HAVE_CGAL

/// World corners of a placed box spec.
std::vector<Vec3> world_corners(const ShapeSpec& s, const testgen::PoseSpec& p) {
  std::vector<Vec3> out;
  const Pose pose = p.pose();
  for (const Vec3& v : testgen::box_corners(s.semiaxes)) out.push_back(pose.apply(v));
  return out;
}

TEST(PropertyBoxes, RandomAndFaceParallelBoxesAgainstCgal) {
  constexpr std::uint64_t kSeed = 2718;
  constexpr int kRandom = 300;
  constexpr int kAligned = 100;
  testgen::Rng rng(kSeed);
  FailureLog log(kSeed, "distance");
  Mix mix;
  std::vector<PairCase> cases;
  for (int k = 0; k < kRandom; ++k) {
    const testgen::ShapeSpec spec_a = testgen::random_smooth_spec(rng, ShapeKind::box);
    const testgen::ShapeSpec spec_b = testgen::random_smooth_spec(rng, ShapeKind::box);
    cases.push_back(testgen::place_pair(rng, "box_box", spec_a, spec_b));
  }
  // Face-parallel: identity rotations, offsets in multiples of 1/8 of dyadic half extents, so
  // gaps, overlaps and exact touching (offset == sum of half extents) are all exact.
  for (int k = 0; k < kAligned; ++k) {
    PairCase c;
    c.label = "box_box_aligned";
    const auto dyadic = [&] { return double(std::uniform_int_distribution<int>(1, 8)(rng)) / 8; };
    c.a = testgen::box_spec(Vec3(dyadic(), dyadic(), dyadic()));
    c.b = testgen::box_spec(Vec3(dyadic(), dyadic(), dyadic()));
    const Vec3 sum = c.a.semiaxes + c.b.semiaxes;
    const int axis = k % 3;
    Vec3 offset;
    for (int i = 0; i < 3; ++i) offset[i] = double(std::uniform_int_distribution<int>(-7, 7)(rng)) / 8 * sum[i];
    offset[axis] = sum[axis] * double(std::uniform_int_distribution<int>(6, 10)(rng)) / 8;  // 8/8: touching
    c.pose_b.translation = offset;
    c.factor = 0;
    cases.push_back(c);
    if (k % 2 == 0) cases.push_back(testgen::randomly_moved(rng, c));
  }
  int index = 0;
  for (const PairCase& c : cases) {
    const Box a(c.a.semiaxes);
    const Box b(c.b.semiaxes);
    const Pose pa = c.pose_a.pose();
    const Pose pb = c.pose_b.pose();
    const DistanceResult r = gjk::distance(a, pa, b, pb);
    const IntersectResult hit = gjk::intersect(a, pa, b, pb);
    const auto wa = world_corners(c.a, c.pose_a);
    const auto wb = world_corners(c.b, c.pose_b);
    const oracles::ExactDistance exact = oracles::cgal_polytope_distance(wa, wb);
    const double tol = kRelativeTolerance * property::pair_size(c) + property::rounding_floor(c);
    std::ostringstream what;
    what.precision(17);
    what << c.label << ": gjk distance " << r.distance << " intersect " << hit.intersect << "; exact " << exact.distance
         << " intersect " << exact.intersect << "; tol " << tol;
    mix.add(exact.intersect ? "overlap_or_touch" : "separated");
    if (c.label == "box_box_aligned") {
      // Unmoved and aligned: touching exactly when some offset equals the sum of half extents.
      const Vec3 reach = c.a.semiaxes + c.b.semiaxes;
      const Vec3 gap = c.pose_b.translation.cwiseAbs() - reach;
      if (gap.maxCoeff() == 0) {
        mix.add("exact_touching");
        EXPECT_TRUE(exact.intersect) << "the oracle must see exact touching as contact";
      }
    }
    if (!(std::abs(r.distance - exact.distance) <= tol)) {
      log.fail(index++, c, "distance differs from CGAL | " + what.str());
      continue;
    }
    if (exact.intersect != hit.intersect && exact.distance > tol) {
      log.fail(index++, c, "intersect disagrees with the exact answer | " + what.str());
      continue;
    }
    ++index;
  }
  mix.print("boxes");
  std::printf("[boxes] %d cases (seed %llu)\n", index, static_cast<unsigned long long>(kSeed));
  EXPECT_EQ(log.count(), 0);
  EXPECT_GT(mix["exact_touching"], 0);
  EXPECT_GE(mix["overlap_or_touch"], 0.3 * index);
  EXPECT_LE(mix["overlap_or_touch"], 0.7 * index);
}

#endif  // PROXIMA_HAVE_CGAL

TEST(PropertyNastySmooth, TouchingFlatNeedleDeepAndInside) {
  constexpr std::uint64_t kSeed = 1618;
  constexpr int kMoves = 8;
  testgen::Rng rng(kSeed);
  FailureLog log(kSeed, "distance");
  Mix mix;
  struct Nasty {
    const char* label;
    ShapeSpec a;
    ShapeSpec b;
    Vec3 offset;          // B's centre (A at the origin, identity rotations)
    double expected;      // exact distance (0 when overlapping or touching)
    bool exact_touching;  // distance 0 with no overlap
  };
  // The needle cone's nearest generatrix (rim to apex, in the plane of the axis and the sphere's
  // centre) gives its distance to the sphere exactly.
  const double cone_gap =
      oracles::closest_on_segment(Vec3::Zero(), Vec3(0.75 - 1e-4, 0, -2), Vec3(0.75, 0, 2)).norm() - 0.5;
  const std::vector<Nasty> nasty = {
      {"spheres_touching", testgen::sphere_spec(0.5), testgen::sphere_spec(0.25), Vec3(0.75, 0, 0), 0, true},
      {"spheres_apart", testgen::sphere_spec(0.5), testgen::sphere_spec(0.25), Vec3(0, 1, 0), 0.25, false},
      {"sphere_inside_ellipsoid", testgen::ellipsoid_spec(Vec3(2, 1, 1)), testgen::sphere_spec(0.25), Vec3(0.5, 0.25, 0), 0, false},
      {"same_centre_ellipsoids", testgen::ellipsoid_spec(Vec3(1, 0.5, 0.25)), testgen::ellipsoid_spec(Vec3(0.25, 1, 0.5)), Vec3::Zero(), 0, false},
      {"flat_disc_above_sphere", testgen::sphere_spec(0.5), testgen::cylinder_spec(1, 1e-4), Vec3(0, 0, 1), 0.5 - 1e-4, false},
      {"flat_disc_through_sphere", testgen::sphere_spec(0.5), testgen::cylinder_spec(1, 1e-4), Vec3(0, 0, 0.25), 0, false},
      {"needle_cone_beside_sphere", testgen::sphere_spec(0.5), testgen::cone_spec(1e-4, 2), Vec3(0.75, 0, 0), cone_gap, false},
      {"needle_capsule_touching_box_like", testgen::sphere_spec(0.5), testgen::capsule_spec(0.25, 3), Vec3(0.75, 0, 0), 0, true},
      {"flat_ellipsoid_above_sphere", testgen::sphere_spec(0.5), testgen::ellipsoid_spec(Vec3(1, 1, 1e-4)), Vec3(0, 0, 0.75), 0.25 - 1e-4, false},
      {"needle_ellipsoid_beside_sphere", testgen::sphere_spec(0.5), testgen::ellipsoid_spec(Vec3(1e-4, 1e-4, 3)), Vec3(0, 0.75, 0), 0.25 - 1e-4, false},
  };
  int index = 0;
  for (const Nasty& n : nasty) {
    PairCase base;
    base.label = n.label;
    base.a = n.a;
    base.b = n.b;
    base.pose_b.translation = n.offset;
    base.factor = 0;
    if (n.exact_touching) mix.add("exact_touching");
    for (int m = 0; m <= kMoves; ++m) {
      const double s = m == 0 ? 1.0 : testgen::log_uniform(rng, 1e-3, 1e5);
      const PairCase c = m == 0 ? base : [&] {
        const Eigen::Vector4d q = testgen::random_quaternion(rng);
        const double reach = testgen::log_uniform(rng, 1e-2, 1e5);
        return testgen::moved(base, s, q, reach * testgen::random_unit_vector(rng));
      }();
      const double expected = n.expected * c.scale;
      const DistanceResult r =
          gjk::distance(testgen::to_any_convex(c.a), c.pose_a.pose(), testgen::to_any_convex(c.b), c.pose_b.pose());
      const double tol = kRelativeTolerance * property::pair_size(c) + property::rounding_floor(c);
      std::ostringstream what;
      what.precision(17);
      what << c.label << ": gjk distance " << r.distance << " (status " << to_string(r.status) << "/"
           << to_string(r.detail) << ", " << r.iterations << " it), closed form " << expected << ", tol " << tol;
      if (r.status != Status::converged || !(std::abs(r.distance - expected) <= tol)) {
        log.fail(index, c, "distance differs from the closed form | " + what.str());
      }
      mix.add(expected > 0 ? "separated" : "overlap_or_touch");
      ++index;
    }
  }
  mix.print("nasty smooth");
  std::printf("[nasty smooth] %d cases (seed %llu)\n", index, static_cast<unsigned long long>(kSeed));
  EXPECT_EQ(log.count(), 0);
  EXPECT_GE(mix["exact_touching"], 2);
}

}  // namespace
}  // namespace proxima
