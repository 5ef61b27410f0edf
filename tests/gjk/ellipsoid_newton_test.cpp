// SPDX-License-Identifier: MIT
// Tests for gjk/ellipsoid_newton.hpp (gjk::distance on ellipsoid and ellipsoid-sphere pairs):
//  - against GJK (ellipsoid_newton off, relative tolerance 1e-14): the two certified brackets
//    [distance - gap, distance] must overlap and the classes agree, under random rotations,
//    scales 1e-3..1e5, translations to 1e5 and aspect ratios to 1e2;
//  - against an independent certificate on every answer: the closest points inside their
//    ellipsoids by the quadratic forms written out here, |point_b - point_a| = distance, and the
//    support-function separation along the normal (the slab, tests/oracles/brute_force.hpp's
//    support functions) >= distance; a common point inside both when intersecting;
//  - against dense sampling (brute_force.hpp's two-sided bounds from surface points and support
//    functions) on a subset;
//  - nasty cases: identical centres, touching, nearly touching and nearly overlapping by a known
//    amount eps (the distance must be eps), needles and flat discs of aspect 1e-4, sphere pairs
//    in both orders, the aspect guard and the iteration cap (GJK fallback), out-of-range scales;
//  - the checker itself rejects a wrong answer (a distance off by 1e-7 relative).
// Every random case prints its seed and index on failure.
#include "oracles/brute_force.hpp"
#include "support/draws.hpp"

#include <proxima/gjk/distance.hpp>
#include <proxima/gjk/ellipsoid_newton.hpp>
#include <proxima/shapes/ellipsoid.hpp>
#include <proxima/shapes/sphere.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <sstream>
#include <string>

namespace proxima::gjk {
namespace {

using Rng = std::mt19937_64;

/// Newton off, GJK pushed to the rounding floor: the reference of the agreement tests.
const GjkOptions kGjkReference{.relative_tolerance = 1e-14, .ellipsoid_newton = false};

/// A placed ellipsoid (a sphere is one with equal semiaxes).
struct Placed {
  Vec3 semiaxes;
  Pose pose;
};

/// How far p lies off the placed ellipsoid's surface, at least (outside > 0, inside < 0): with
/// the quadratic form q = sum (x_i / a_i)^2 of p's local coordinates, (sqrt(q) - 1) * min
/// semiaxis, a lower bound on |that distance| (the true one is at most max / min times larger).
/// Written out here, independent of the library's shapes.
double outside_by(const Placed& e, const Vec3& p) {
  const Vec3 local = e.pose.rotation().transpose() * (p - e.pose.translation());
  const double q = local.cwiseQuotient(e.semiaxes).squaredNorm();
  return (std::sqrt(q) - 1) * e.semiaxes.minCoeff();
}

/// Rounding allowance of a pair, in length units: coordinates carry about 1e-16 of their size,
/// and the answers are compared after a few dozen operations on them.
double allowance(const Placed& a, const Placed& b) {
  const double size = a.semiaxes.maxCoeff() + b.semiaxes.maxCoeff();
  return 1e-12 * (size + (b.pose.translation() - a.pose.translation()).norm()) +
         1e-13 * (a.pose.translation().norm() + b.pose.translation().norm());
}

/// The independent certificate of one answer; empty when it holds, else what failed.
std::string certificate_failure(const Placed& a, const Placed& b, const DistanceResult& r) {
  std::ostringstream out;
  const double tol = allowance(a, b);
  if (r.status != Status::converged) out << "status " << static_cast<int>(r.status) << "; ";
  if (!(r.gap >= 0)) out << "gap " << r.gap << "; ";
  if (r.intersect) {
    if (r.distance != 0) out << "intersecting with distance " << r.distance << "; ";
    if (r.point_a != r.point_b) out << "common points differ; ";
    if (outside_by(a, r.point_a) > tol) out << "common point outside A by " << outside_by(a, r.point_a) << "; ";
    if (outside_by(b, r.point_a) > tol) out << "common point outside B by " << outside_by(b, r.point_a) << "; ";
    return out.str();
  }
  if (!(r.distance > 0)) out << "separated with distance " << r.distance << "; ";
  if (std::abs(r.normal.norm() - 1) > 1e-12) out << "normal not unit; ";
  const double off_a = outside_by(a, r.point_a);
  const double off_b = outside_by(b, r.point_b);
  if (std::abs(off_a) > tol) out << "point_a off A's surface by " << off_a << "; ";
  if (std::abs(off_b) > tol) out << "point_b off B's surface by " << off_b << "; ";
  if (std::abs((r.point_b - r.point_a).norm() - r.distance) > tol) out << "|pb - pa| != distance; ";
  // Any slab is a lower bound on the true distance, so none may exceed the answer. The best slab
  // found from the normal by the support-point iteration n <- (s_B(-n) - s_A(n)) / |...| (the
  // oracle's own supports) must come within the answer's gap plus a slack: the normal may be off
  // the optimal direction by the angle the relative tolerance allows (1.4e-6 rad), which costs
  // the slab the support function's curvature radius times that angle squared, and that radius
  // grows with the aspect ratio (1e-9 x distance x aspect). GJK's bracket (gjk_disagreement) is
  // the tight comparison.
  const double aspect =
      std::max(a.semiaxes.maxCoeff() / a.semiaxes.minCoeff(), b.semiaxes.maxCoeff() / b.semiaxes.minCoeff());
  const oracles::OracleEllipsoid oa{a.semiaxes}, ob{b.semiaxes};
  Vec3 n = r.normal;
  double best = -std::numeric_limits<double>::infinity();
  for (int k = 0; k < 60 && n.allFinite(); ++k) {
    const double lower = oracles::support_gap(oa, a.pose, ob, b.pose, n);
    if (lower > r.distance + tol) out << "slab " << lower << " above distance " << r.distance << "; ";
    best = std::max(best, lower);
    n = (oracles::world_support(ob, b.pose, -n) - oracles::world_support(oa, a.pose, n)).normalized();
  }
  if (r.distance - best > r.gap + 1e-9 * aspect * r.distance + tol) {
    out << "distance - best slab " << r.distance - best << " > gap " << r.gap << "; ";
  }
  if (r.gap > 1e-12 * r.distance + tol) out << "gap " << r.gap << " above tolerance; ";
  return out.str();
}

/// gjk::distance on the library's ellipsoids for a placed pair.
DistanceResult run(const Placed& a, const Placed& b, const GjkOptions& options = {}) {
  return distance(Ellipsoid(a.semiaxes), a.pose, Ellipsoid(b.semiaxes), b.pose, options);
}

/// Compares an answer with GJK's: the certified brackets overlap, the classes agree (unless
/// within `touch` of touching), and the distances agree to the larger gap plus rounding.
std::string gjk_disagreement(const Placed& a, const Placed& b, const DistanceResult& r, const DistanceResult& g,
                             double touch) {
  std::ostringstream out;
  const double tol = allowance(a, b);
  if (r.intersect != g.intersect && std::max(r.distance, g.distance) > touch) {
    out << "class differs: newton " << r.intersect << " gjk " << g.intersect << " (gjk distance " << g.distance
        << ", newton " << r.distance << "); ";
  }
  if (r.distance - r.gap > g.distance + tol || g.distance - g.gap > r.distance + tol) {
    out << "brackets apart: newton " << r.distance << " gap " << r.gap << ", gjk " << g.distance << " gap " << g.gap
        << "; ";
  }
  return out.str();
}

/// A random placed pair: semiaxes size * [1/aspect, 1] per axis (log-uniform), uniform random
/// rotations, A's centre uniform in [-translation, translation]^3, B's centre along a random
/// direction u at f times the support-function extent h_A(u) + h_B(-u), f uniform in [0.4, 1.6].
struct PairDraw {
  double size;
  double aspect;
  double translation;
};

void draw_pair(Rng& rng, const PairDraw& p, Placed& a, Placed& b) {
  std::uniform_real_distribution<double> unit(0, 1);
  std::normal_distribution<double> normal(0, 1);
  std::uniform_real_distribution<double> box(-p.translation, p.translation);
  std::uniform_real_distribution<double> f_dist(0.4, 1.6);
  const auto axes = [&] {
    const double x = unit(rng);
    const double y = unit(rng);
    const double z = unit(rng);
    return Vec3(p.size * std::pow(p.aspect, -x), p.size * std::pow(p.aspect, -y), p.size * std::pow(p.aspect, -z));
  };
  a.semiaxes = axes();
  b.semiaxes = axes();
  a.pose = test::draw_quaternion_pose(normal, box, rng);
  b.pose = test::draw_quaternion_pose(normal, rng);
  const Vec3 u = test::draw_vec3(normal, rng).normalized();
  const double f = f_dist(rng);
  const double extent = a.semiaxes.cwiseProduct(a.pose.rotation().transpose() * u).norm() +
                        b.semiaxes.cwiseProduct(b.pose.rotation().transpose() * u).norm();
  b.pose = Pose::from_matrix(b.pose.rotation(), a.pose.translation() + f * extent * u);
}

TEST(EllipsoidNewton, AgreesWithGjkAndItsCertificateUnderRandomPoses) {
  const std::uint64_t seed = 20261125;
  Rng rng(seed);
  std::uniform_real_distribution<double> log_size(-3, 5);
  std::uniform_real_distribution<double> log_aspect(0, 2);
  std::uniform_real_distribution<double> log_translation(-3, 5);
  int separated = 0, intersecting = 0, newton_answered = 0;
  for (int i = 0; i < 1500; ++i) {
    const double size = std::pow(10.0, log_size(rng));
    const double aspect = std::pow(10.0, log_aspect(rng));
    const double translation = std::pow(10.0, log_translation(rng));
    Placed a, b;
    draw_pair(rng, {size, aspect, translation}, a, b);
    const DistanceResult r = run(a, b);
    const DistanceResult g = run(a, b, kGjkReference);
    const std::string where = "seed " + std::to_string(seed) + " pair " + std::to_string(i);
    EXPECT_EQ(certificate_failure(a, b, r), "") << where;
    EXPECT_EQ(gjk_disagreement(a, b, r, g, allowance(a, b)), "") << where;
    (r.intersect ? intersecting : separated) += 1;
    // Newton answers in at most kEllipsoidNewtonMaxIterations steps; more means GJK ran.
    newton_answered += r.iterations <= kEllipsoidNewtonMaxIterations;
  }
  // Both classes are exercised, and Newton (not the GJK fallback) answers nearly all pairs.
  EXPECT_GT(separated, 400);
  EXPECT_GT(intersecting, 400);
  EXPECT_GT(newton_answered, 1450);
}

TEST(EllipsoidNewton, InsideDenseSamplingBounds) {
  const std::uint64_t seed = 77;
  Rng rng(seed);
  std::uniform_real_distribution<double> log_size(-3, 5);
  oracles::BoundsOptions bounds_options;
  bounds_options.grid = 14;
  bounds_options.refinements = 40;
  for (int i = 0; i < 24; ++i) {
    const double size = std::pow(10.0, log_size(rng));
    Placed a, b;
    draw_pair(rng, {size, 5.0, 10 * size}, a, b);
    const DistanceResult r = run(a, b);
    const oracles::DistanceBounds bounds = oracles::sampled_distance_bounds(
        oracles::OracleEllipsoid{a.semiaxes}, a.pose, oracles::OracleEllipsoid{b.semiaxes}, b.pose, bounds_options);
    const double tol = allowance(a, b);
    const std::string where = "seed " + std::to_string(seed) + " pair " + std::to_string(i);
    // The sampled upper bound is a pair of surface points, the lower a support-function slab.
    EXPECT_LE(r.distance, bounds.upper + tol) << where;
    EXPECT_GE(r.distance, bounds.lower - tol) << where;
    if (bounds.lower > tol) {
      EXPECT_FALSE(r.intersect) << where;
    }
  }
}

/// B moved along the answer's normal so that the distance becomes exactly `target` (negative:
/// an overlap that deep along the normal).
Placed moved(const Placed& b, const DistanceResult& r, double target) {
  return {b.semiaxes, Pose::from_matrix(b.pose.rotation(), b.pose.translation() - (r.distance - target) * r.normal)};
}

TEST(EllipsoidNewton, TouchingAndNearlyTouchingByAKnownAmount) {
  const std::uint64_t seed = 4242;
  Rng rng(seed);
  std::uniform_real_distribution<double> log_size(-3, 5);
  for (int i = 0; i < 200; ++i) {
    const double size = std::pow(10.0, log_size(rng));
    Placed a, b;
    draw_pair(rng, {size, 10.0, size}, a, b);
    // Pushed 2 x size further apart, so every pair starts separated.
    const Vec3 away = (b.pose.translation() - a.pose.translation()).normalized();
    b.pose = Pose::from_matrix(b.pose.rotation(), b.pose.translation() + 2 * size * away);
    const DistanceResult far = run(a, b, kGjkReference);
    ASSERT_FALSE(far.intersect);
    const std::string where = "seed " + std::to_string(seed) + " pair " + std::to_string(i);
    for (const double rel : {1e-2, 1e-5, 1e-9, 0.0, -1e-9, -1e-5, -1e-2}) {
      const double eps = rel * size;
      const Placed b2 = moved(b, far, eps);
      const DistanceResult r = run(a, b2);
      const double tol = allowance(a, b2) + 1e-11 * size;
      std::ostringstream label;
      label << where << " eps " << rel << " size " << size << " distance " << r.distance << " iterations "
            << r.iterations;
      const std::string w = label.str();
      EXPECT_EQ(certificate_failure(a, b2, r), "") << w;
      if (eps > tol) {
        EXPECT_FALSE(r.intersect) << w;
        EXPECT_NEAR(r.distance, eps, tol) << w;
      } else if (eps < -tol) {
        EXPECT_TRUE(r.intersect) << w;
      } else {
        EXPECT_LE(r.distance, tol) << w;
      }
    }
  }
}

TEST(EllipsoidNewton, NeedlesDiscsAndOneCentre) {
  const std::uint64_t seed = 99;
  Rng rng(seed);
  std::normal_distribution<double> normal(0, 1);
  std::uniform_real_distribution<double> f_dist(0.3, 2.0);
  const Vec3 shapes[] = {Vec3(1, 1, 1e-4), Vec3(1e-4, 1e-4, 1), Vec3(1, 1e-4, 1e-2), Vec3(0.5, 0.5, 0.5),
                         Vec3(1e-4, 1, 1)};
  for (int i = 0; i < 300; ++i) {
    Placed a{shapes[i % 5], test::draw_quaternion_pose(normal, rng)};
    Placed b{shapes[(i / 5) % 5], test::draw_quaternion_pose(normal, rng)};
    const Vec3 u = test::draw_vec3(normal, rng).normalized();
    const double f = f_dist(rng);
    const double extent = a.semiaxes.cwiseProduct(a.pose.rotation().transpose() * u).norm() +
                          b.semiaxes.cwiseProduct(b.pose.rotation().transpose() * u).norm();
    b.pose = Pose::from_matrix(b.pose.rotation(), f * extent * u);
    const DistanceResult r = run(a, b);
    const DistanceResult g = run(a, b, kGjkReference);
    const std::string where = "seed " + std::to_string(seed) + " pair " + std::to_string(i);
    EXPECT_EQ(certificate_failure(a, b, r), "") << where;
    EXPECT_EQ(gjk_disagreement(a, b, r, g, allowance(a, b)), "") << where;
    // One centre: overlapping, the centre a common point.
    const Placed b0{b.semiaxes, Pose::from_matrix(b.pose.rotation(), a.pose.translation())};
    const DistanceResult c = run(a, b0);
    EXPECT_TRUE(c.intersect) << where;
    EXPECT_EQ(certificate_failure(a, b0, c), "") << where;
  }
}

TEST(EllipsoidNewton, SpherePairsInBothOrders) {
  const std::uint64_t seed = 5;
  Rng rng(seed);
  std::normal_distribution<double> normal(0, 1);
  std::uniform_real_distribution<double> radius(0.1, 2);
  for (int i = 0; i < 200; ++i) {
    Placed a, b;
    draw_pair(rng, {1.0, 30.0, 100.0}, a, b);
    const double rad = radius(rng);
    b.semiaxes = Vec3::Constant(rad);
    const Sphere s(rad);
    const Ellipsoid e(a.semiaxes);
    const DistanceResult r = distance(e, a.pose, s, b.pose);
    const DistanceResult g = distance(e, a.pose, s, b.pose, kGjkReference);
    const DistanceResult rs = distance(s, b.pose, e, a.pose);
    const std::string where = "seed " + std::to_string(seed) + " pair " + std::to_string(i);
    EXPECT_EQ(certificate_failure(a, b, r), "") << where;
    EXPECT_EQ(gjk_disagreement(a, b, r, g, allowance(a, b)), "") << where;
    EXPECT_EQ(certificate_failure(b, a, rs), "") << where;
    EXPECT_EQ(rs.intersect, r.intersect) << where;
    EXPECT_NEAR(rs.distance, r.distance, allowance(a, b)) << where;
  }
}

TEST(EllipsoidNewton, GuardsHandPairsToGjk) {
  const Pose pa = Pose::from_euler_xyz(0.3, 0.2, 0.1);
  const Pose pb = Pose::from_euler_xyz(-0.2, 0.5, 0.4, Vec3(3, 0.5, 0.2));
  // Semiaxes more unequal than kEllipsoidNewtonMaxAspect: GJK's answer, bit for bit.
  const Ellipsoid needle(Vec3(1, 1, 1e-7));
  const Ellipsoid ball(Vec3(0.5, 0.6, 0.7));
  const DistanceResult n = distance(needle, pa, ball, pb);
  const DistanceResult g = distance(needle, pa, ball, pb, {.ellipsoid_newton = false});
  EXPECT_EQ(n.distance, g.distance);
  EXPECT_EQ(n.iterations, g.iterations);
  EXPECT_EQ(n.point_a, g.point_a);
  // A cap below Newton's own step cap runs GJK, as with Newton off (bit for bit), so capped
  // warm-started callers keep GJK's progress; the cap is kept either way.
  for (int cap = 1; cap <= 4; ++cap) {
    const DistanceResult c = distance(ball, pa, Ellipsoid(Vec3(0.9, 0.1, 0.4)), pb, {.max_iterations = cap});
    const DistanceResult cg =
        distance(ball, pa, Ellipsoid(Vec3(0.9, 0.1, 0.4)), pb, {.max_iterations = cap, .ellipsoid_newton = false});
    EXPECT_TRUE(c.distance == cg.distance || (std::isnan(c.distance) && std::isnan(cg.distance))) << "cap " << cap;
    EXPECT_EQ(c.iterations, cg.iterations) << "cap " << cap;
    EXPECT_EQ(c.status, cg.status) << "cap " << cap;
    EXPECT_LE(c.iterations, cap);
    if (c.status == Status::converged) {
      EXPECT_EQ(certificate_failure({Vec3(0.5, 0.6, 0.7), pa}, {Vec3(0.9, 0.1, 0.4), pb}, c), "");
    } else {
      EXPECT_EQ(c.status, Status::iteration_limit);
    }
  }
  // Scales outside [kGjkMinScale, kGjkMaxScale]: no answer, as GJK.
  const DistanceResult tiny = distance(Ellipsoid(Vec3(1e-40, 2e-40, 3e-40)), Pose(), Ellipsoid(Vec3::Constant(1e-40)),
                                       Pose::from_matrix(Mat3::Identity(), Vec3(1e-39, 0, 0)));
  EXPECT_EQ(tiny.status, Status::degenerate_input);
  EXPECT_EQ(tiny.detail, Detail::scale_out_of_range);
}

TEST(EllipsoidNewton, CheckerRejectsAWrongAnswer) {
  const Placed a{Vec3(1, 0.5, 0.3), Pose::from_euler_xyz(0.1, 0.2, 0.3)};
  const Placed b{Vec3(0.4, 0.8, 0.6), Pose::from_euler_xyz(0.3, -0.2, 0.6, Vec3(2.5, 0.3, -0.1))};
  const DistanceResult r = run(a, b);
  ASSERT_EQ(certificate_failure(a, b, r), "");
  // A distance 1e-7 too long, with point_b moved to match: the slab and the surface test see it.
  DistanceResult wrong = r;
  wrong.distance *= 1 + 1e-7;
  wrong.point_b = wrong.point_a + wrong.distance * wrong.normal;
  EXPECT_NE(certificate_failure(a, b, wrong), "");
  // ... and GJK's bracket does not overlap it.
  DistanceResult high = r;
  high.distance *= 1 + 1e-7;
  high.gap = 0;
  EXPECT_NE(gjk_disagreement(a, b, high, run(a, b, kGjkReference), 0), "");
}

}  // namespace
}  // namespace proxima::gjk
