// SPDX-License-Identifier: MIT
// Property sweeps on the smooth families (sphere, capsule, cylinder, cone, ellipsoid,
// superquadric), under uniform random rotations, scales 1e-3..1e5 and translations to 1e5:
//  - closed forms: sphere/sphere, sphere/capsule (point-segment) and capsule/capsule
//    (segment-segment, by convex 1-D search on the exact point-segment projection) for
//    gjk::distance, and sphere/sphere, sphere/capsule depths for gjk::penetration;
//  - every family pair against the two-sided sampling bounds of tests/oracles/brute_force.hpp
//    (re-derived surfaces and support functions): lower - tol <= distance <= upper + tol, and the
//    reported normal must certify the distance through the oracle's support functions (the
//    support gap along it equals the distance) with each witness the oracle's support point;
//  - gjk::penetration on overlapping smooth pairs: the overlap of the oracle supports along the
//    reported normal equals the depth, and no direction found by a pattern search from the
//    normal and from random starts has a smaller overlap.
#include "property/property_common.hpp"

#include "oracles/brute_force.hpp"
#include "support/random_shapes.hpp"
#include "support/shape_builder.hpp"

#include <proxima/gjk/distance.hpp>
#include <proxima/gjk/epa.hpp>
#include <proxima/shapes/any_convex.hpp>
#include <proxima/shapes/capsule.hpp>
#include <proxima/shapes/sphere.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <sstream>
#include <variant>

namespace proxima {
namespace {

using property::FailureLog;
using property::Mix;
using testgen::PairCase;
using testgen::ShapeKind;
using testgen::ShapeSpec;

constexpr double kRelativeTolerance = 1e-9;

/// The oracle primitive for a spec (smooth kinds and boxes as a superquadric-free special case
/// are not needed here).
using OracleShape = std::variant<oracles::OracleEllipsoid, oracles::OracleCapsule, oracles::OracleCylinder,
                                 oracles::OracleCone, oracles::OracleSuperquadric>;

OracleShape oracle_for(const ShapeSpec& s) {
  switch (s.kind) {
    case ShapeKind::sphere:
      return oracles::OracleEllipsoid{Vec3::Constant(s.radius)};
    case ShapeKind::capsule:
      return oracles::OracleCapsule{s.radius, s.half_length};
    case ShapeKind::cylinder:
      return oracles::OracleCylinder{s.radius, s.half_length};
    case ShapeKind::cone:
      return oracles::OracleCone{s.radius, s.half_length};
    case ShapeKind::ellipsoid:
      return oracles::OracleEllipsoid{s.semiaxes};
    case ShapeKind::superquadric:
      return oracles::OracleSuperquadric{s.semiaxes, s.exponents};
    default:
      break;
  }
  throw std::logic_error("oracle_for: not a smooth kind");
}

/// Oracle world support of a placed spec.
Vec3 oracle_support(const OracleShape& shape, const Pose& pose, const Vec3& u) {
  return std::visit([&](const auto& s) { return oracles::world_support(s, pose, u); }, shape);
}

/// Overlap of A and B along unit u: max over A of u.x minus min over B (>= depth for every u).
double overlap_along(const OracleShape& a, const Pose& pa, const OracleShape& b, const Pose& pb, const Vec3& u) {
  return u.dot(oracle_support(a, pa, u)) - u.dot(oracle_support(b, pb, -u));
}

/// Segment-segment distance by ternary search over A's parameter (the distance from a point of
/// A's segment to B's segment is convex in that parameter) on exact point-segment projections.
double segment_distance(const Vec3& a0, const Vec3& a1, const Vec3& b0, const Vec3& b1) {
  const auto f = [&](double s) {
    const Vec3 p = a0 + s * (a1 - a0);
    return (oracles::closest_on_segment(p, b0, b1) - p).norm();
  };
  double lo = 0;
  double hi = 1;
  constexpr int kSteps = 200;
  for (int i = 0; i < kSteps; ++i) {
    const double m1 = lo + (hi - lo) / 3;
    const double m2 = hi - (hi - lo) / 3;
    if (f(m1) < f(m2)) {
      hi = m2;
    } else {
      lo = m1;
    }
  }
  return std::min({f((lo + hi) / 2), f(0), f(1)});
}

TEST(PropertySmoothShapes, ClosedFormsSphereCapsule) {
  constexpr std::uint64_t kSeed = 8080;
  constexpr int kCases = 3000;
  testgen::Rng rng(kSeed);
  FailureLog log(kSeed, "distance");
  Mix mix;
  double worst = 0;
  for (int index = 0; index < kCases; ++index) {
    const int kind = index % 3;  // 0 sphere/sphere, 1 sphere/capsule, 2 capsule/capsule
    const ShapeSpec sa = kind == 2 ? testgen::random_smooth_spec(rng, ShapeKind::capsule)
                                   : testgen::random_smooth_spec(rng, ShapeKind::sphere);
    const ShapeSpec sb = kind == 0 ? testgen::random_smooth_spec(rng, ShapeKind::sphere)
                                   : testgen::random_smooth_spec(rng, ShapeKind::capsule);
    const PairCase c = testgen::place_pair(rng, kind == 0 ? "sphere_sphere" : kind == 1 ? "sphere_capsule" : "capsule_capsule", sa, sb);
    const Pose pa = c.pose_a.pose();
    const Pose pb = c.pose_b.pose();
    // Core segments (a sphere's is a point) in world coordinates.
    const auto segment = [](const ShapeSpec& s, const Pose& p) {
      const double h = s.kind == ShapeKind::capsule ? s.half_length : 0.0;
      return std::pair<Vec3, Vec3>(p.apply(Vec3(0, 0, -h)), p.apply(Vec3(0, 0, h)));
    };
    const auto [a0, a1] = segment(c.a, pa);
    const auto [b0, b1] = segment(c.b, pb);
    const double core = segment_distance(a0, a1, b0, b1);
    const double radii = c.a.radius + c.b.radius;
    const double exact = std::max(0.0, core - radii);
    const double depth = std::max(0.0, radii - core);

    const AnyConvex a = testgen::to_any_convex(c.a);
    const AnyConvex b = testgen::to_any_convex(c.b);
    DistanceResult r;
    PenetrationResult p;
    if (kind == 0) {
      const Sphere s1(c.a.radius);
      const Sphere s2(c.b.radius);
      r = gjk::distance(s1, pa, s2, pb);
      p = gjk::penetration(s1, pa, s2, pb);
    } else if (kind == 1) {
      const Sphere s1(c.a.radius);
      const Capsule s2(c.b.radius, c.b.half_length);
      r = gjk::distance(s1, pa, s2, pb);
      p = gjk::penetration(s1, pa, s2, pb);
    } else {
      const Capsule s1(c.a.radius, c.a.half_length);
      const Capsule s2(c.b.radius, c.b.half_length);
      r = gjk::distance(s1, pa, s2, pb);
      p = gjk::penetration(s1, pa, s2, pb);
    }
    const double size = property::pair_size(c);
    const double tol = kRelativeTolerance * size + property::rounding_floor(c);
    worst = std::max(worst, std::abs(r.distance - exact) / size);
    mix.add(exact > 0 ? "separated" : "overlap");
    mix.add(std::string("decade") + std::to_string(testgen::decade(c.scale)));
    std::ostringstream what;
    what.precision(17);
    what << c.label << ": gjk distance " << r.distance << " vs closed form " << exact << "; epa depth " << p.depth
         << " vs " << depth << "; tol " << tol;
    if (!(std::abs(r.distance - exact) <= tol)) {
      log.fail(index, c, "distance differs from the closed form | " + what.str());
      continue;
    }
    if (exact > tol && !r.intersect) {
      // Witnesses on the surfaces: at radius distance from the cores.
      const double ra = (oracles::closest_on_segment(r.point_a, a0, a1) - r.point_a).norm();
      const double rb = (oracles::closest_on_segment(r.point_b, b0, b1) - r.point_b).norm();
      if (!(std::abs(ra - c.a.radius) <= tol && std::abs(rb - c.b.radius) <= tol)) {
        log.fail(index, c, "witness not on its surface | " + what.str());
        continue;
      }
    }
    // Penetration: only where the cores are apart (a crossing pair of capsule axes has a depth
    // that is not this closed form).
    if (depth > tol && core > tol) {
      if (!(p.intersect && std::abs(p.depth - depth) <= tol)) log.fail(index, c, "depth differs from the closed form | " + what.str());
      mix.add("penetration_checked");
    }
  }
  mix.print("smooth closed forms");
  std::printf("[smooth closed forms] %d cases (seed %llu), worst |distance - exact| / size = %.3g\n", kCases,
              static_cast<unsigned long long>(kSeed), worst);
  EXPECT_EQ(log.count(), 0);
  EXPECT_GE(mix["overlap"], 0.3 * kCases);
  EXPECT_LE(mix["overlap"], 0.7 * kCases);
  for (int d = -3; d <= 4; ++d) EXPECT_GT(mix[std::string("decade") + std::to_string(d)], 0) << "scale decade " << d;
}

TEST(PropertySmoothShapes, EveryFamilyPairAgainstSamplingBounds) {
  constexpr std::uint64_t kSeed = 4711;
  constexpr int kRounds = 5;  // every ordered family pair this many times
  constexpr ShapeKind kKinds[] = {ShapeKind::sphere, ShapeKind::capsule, ShapeKind::cylinder, ShapeKind::cone,
                                  ShapeKind::ellipsoid, ShapeKind::superquadric};
  // The sampling bounds are refined to about 1e-9 on smooth patches; the kinks of cylinders and
  // cones and the finite search leave more: the bracket is widened by this fraction of the size.
  constexpr double kBoundsSlack = 1e-7;
  testgen::Rng rng(kSeed);
  FailureLog log(kSeed, "distance");
  Mix mix;
  int index = 0;
  double widest = 0;
  oracles::BoundsOptions bounds_options;
  bounds_options.grid = 32;
  for (int round = 0; round < kRounds; ++round) {
    for (const ShapeKind ka : kKinds) {
      for (const ShapeKind kb : kKinds) {
        const ShapeSpec sa = testgen::random_smooth_spec(rng, ka);
        const ShapeSpec sb = testgen::random_smooth_spec(rng, kb);
        const PairCase c = testgen::place_pair(rng, "smooth", sa, sb);
        const Pose pa = c.pose_a.pose();
        const Pose pb = c.pose_b.pose();
        const OracleShape oa = oracle_for(c.a);
        const OracleShape ob = oracle_for(c.b);
        const AnyConvex a = testgen::to_any_convex(c.a);
        const AnyConvex b = testgen::to_any_convex(c.b);
        const DistanceResult r = gjk::distance(a, pa, b, pb);
        const oracles::DistanceBounds bounds = std::visit(
            [&](const auto& x, const auto& y) { return oracles::sampled_distance_bounds(x, pa, y, pb, bounds_options); }, oa, ob);
        const double size = property::pair_size(c);
        const double tol = kRelativeTolerance * size + property::rounding_floor(c);
        const double slack = kBoundsSlack * size + tol;
        std::ostringstream what;
        what.precision(17);
        what << "gjk distance " << r.distance << " (status " << to_string(r.status) << "/" << to_string(r.detail)
             << ", " << r.iterations << " it); oracle bounds [" << bounds.lower << ", " << bounds.upper << "]";
        const bool separated = bounds.lower > slack;
        mix.add(bounds.lower > 0 ? "separated" : "overlap");
        mix.add(std::string("decade") + std::to_string(testgen::decade(c.scale)));
        if (r.status != Status::converged) {
          log.fail(index++, c, "status not converged | " + what.str());
          continue;
        }
        if (!(r.distance >= bounds.lower - slack)) {
          log.fail(index++, c, "distance below the support-function lower bound | " + what.str());
          continue;
        }
        if (separated && !(r.distance <= bounds.upper + slack)) {
          log.fail(index++, c, "distance above the sampled upper bound | " + what.str());
          continue;
        }
        if (separated) widest = std::max(widest, (bounds.upper - bounds.lower) / size);
        if (!r.intersect && r.distance > slack) {
          // The reported normal certifies the distance through the oracle's supports.
          const double gap = -overlap_along(oa, pa, ob, pb, r.normal);
          if (!(std::abs(gap - r.distance) <= slack)) {
            what << "; support gap along the normal " << gap;
            log.fail(index++, c, "normal does not certify the distance | " + what.str());
            continue;
          }
          if (!(std::abs(r.normal.dot(r.point_a - oracle_support(oa, pa, r.normal))) <= slack &&
                std::abs(r.normal.dot(r.point_b - oracle_support(ob, pb, -r.normal))) <= slack)) {
            log.fail(index++, c, "witness is not the support point along the normal | " + what.str());
            continue;
          }
        }
        ++index;
      }
    }
  }
  mix.print("smooth families");
  std::printf("[smooth families] %d cases (seed %llu), widest oracle bracket / size = %.3g\n", index,
              static_cast<unsigned long long>(kSeed), widest);
  EXPECT_EQ(log.count(), 0);
  EXPECT_GE(mix["overlap"], 0.3 * index);
  EXPECT_LE(mix["overlap"], 0.7 * index);
}

TEST(PropertySmoothShapes, PenetrationIsTheMinimalOverlap) {
  constexpr std::uint64_t kSeed = 1234;
  constexpr int kCases = 100;
  constexpr int kStarts = 8;
  // EPA on curved shapes stops on its own tolerance against a polytope approximation: demand
  // the depth to this fraction of the size.
  constexpr double kSmoothDepthTolerance = 1e-6;
  constexpr ShapeKind kKinds[] = {ShapeKind::sphere, ShapeKind::capsule, ShapeKind::cylinder, ShapeKind::cone,
                                  ShapeKind::ellipsoid, ShapeKind::superquadric};
  testgen::Rng rng(kSeed);
  FailureLog log(kSeed, "penetration");
  Mix mix;
  testgen::PlacementOptions placement;
  placement.max_factor = 0.95;  // overlapping pairs only
  for (int index = 0; index < kCases; ++index) {
    const ShapeSpec sa = testgen::random_smooth_spec(rng, kKinds[index % 6]);
    const ShapeSpec sb = testgen::random_smooth_spec(rng, kKinds[(index / 6) % 6]);
    const PairCase c = testgen::place_pair(rng, "smooth_overlap", sa, sb, placement);
    const Pose pa = c.pose_a.pose();
    const Pose pb = c.pose_b.pose();
    const OracleShape oa = oracle_for(c.a);
    const OracleShape ob = oracle_for(c.b);
    const PenetrationResult p = gjk::penetration(testgen::to_any_convex(c.a), pa, testgen::to_any_convex(c.b), pb);
    const double size = property::pair_size(c);
    const double tol = kSmoothDepthTolerance * size + property::rounding_floor(c);
    // Pattern search for the minimal overlap direction from the reported normal and random starts.
    double best = overlap_along(oa, pa, ob, pb, p.normal.allFinite() ? p.normal : Vec3::UnitX());
    const double along_normal = best;
    for (int s = 0; s <= kStarts; ++s) {
      Vec3 u = s == 0 && p.normal.allFinite() ? Vec3(p.normal) : testgen::random_unit_vector(rng);
      constexpr int kHalvings = 40;
      const auto overlap = [&](const Vec3& n) { return overlap_along(oa, pa, ob, pb, n); };
      best = std::min(best, oracles::sphere_pattern_search(overlap, u, 0.25, kHalvings, kHalvings));
    }
    std::ostringstream what;
    what.precision(17);
    what << "epa depth " << p.depth << " (status " << to_string(p.status) << "/" << to_string(p.detail) << ", "
         << p.iterations << " it); overlap along its normal " << along_normal << ", smallest overlap found " << best
         << ", tol " << tol;
    if (best <= 0) {
      mix.add("not_overlapping");
      continue;
    }
    mix.add("overlap");
    if (!p.intersect) {
      log.fail(index, c, "overlap missed | " + what.str());
    } else if (!(std::abs(along_normal - p.depth) <= tol)) {
      log.fail(index, c, "overlap along the normal is not the depth | " + what.str());
    } else if (!(p.depth <= best + tol)) {
      log.fail(index, c, "a direction with a smaller overlap exists | " + what.str());
    }
  }
  mix.print("smooth penetration");
  std::printf("[smooth penetration] %d cases (seed %llu)\n", kCases, static_cast<unsigned long long>(kSeed));
  EXPECT_EQ(log.count(), 0);
  EXPECT_GT(mix["overlap"], kCases / 2);
}

}  // namespace
}  // namespace proxima
