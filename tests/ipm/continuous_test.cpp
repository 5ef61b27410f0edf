// SPDX-License-Identifier: MIT
// ipm continuous queries against closed forms (spheres) and against dense sampling in time plus
// refinement (golden section for the convex distance-versus-time, bisection for first contact)
// with the static distance query, whose own tests check it against closed forms and KKT.
#include "support/draws.hpp"

#include <proxima/core/error.hpp>
#include <proxima/ipm/continuous.hpp>
#include <proxima/ipm/distance.hpp>
#include <proxima/ipm/presets.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace proxima::ipm {
namespace {

Vec3 random_vec(std::mt19937_64& rng, double r) {
  std::uniform_real_distribution<double> u(-r, r);
  return {u(rng), u(rng), u(rng)};
}

TEST(IpmContinuous, SpheresMatchClosedForm) {
  std::mt19937_64 rng(301);
  std::uniform_real_distribution<double> radius(0.2, 1.0);
  int hits = 0, misses = 0;
  for (int trial = 0; trial < 150; ++trial) {
    SCOPED_TRACE("seed 301 trial " + std::to_string(trial));
    const double ra = radius(rng), rb = radius(rng);
    const Object a(Quadric::ellipsoid(Vec3::Constant(ra))), b(Superquadric(Vec3::Constant(rb), Vec3::Constant(2)));
    const Vec3 pa = random_vec(rng, 4), pb = random_vec(rng, 4);
    const double closing = radius(rng);
    const Vec3 va = (pb - pa) * closing + random_vec(rng, 1.5), vb = random_vec(rng, 1);
    const double t_max = 2;
    const Vec3 dp = pb - pa, dv = vb - va;  // centre of B relative to A: dp + dv t
    if (dp.norm() < ra + rb + 1e-3) continue;  // start separated
    const double t_star = std::clamp(-dp.dot(dv) / dv.squaredNorm(), 0.0, t_max);
    const double d_star = (dp + dv * t_star).norm() - ra - rb;
    const IntervalResult r = interval_translate(a, Pose::from_translation(pa), va, b, Pose::from_translation(pb), vb, t_max);
    ASSERT_EQ(r.status, Status::converged);
    const ToiResult toi = toi_translate(a, Pose::from_translation(pa), va, b, Pose::from_translation(pb), vb, t_max);
    ASSERT_EQ(toi.status, Status::converged);
    if (d_star > 1e-6) {
      ++misses;
      EXPECT_FALSE(r.intersect);
      EXPECT_NEAR(r.min_distance, d_star, 1e-8);
      EXPECT_NEAR(r.min_time, t_star, 1e-5 * t_max + 1e-5);
      EXPECT_FALSE(toi.contact);
    } else if (d_star < -1e-6) {
      ++hits;
      EXPECT_TRUE(r.intersect);
      // First root of |dp + dv t| = ra + rb.
      const double rr = ra + rb, qa = dv.squaredNorm(), qb = 2 * dp.dot(dv), qc = dp.squaredNorm() - rr * rr;
      const double t_hit = (-qb - std::sqrt(qb * qb - 4 * qa * qc)) / (2 * qa);
      ASSERT_TRUE(toi.contact);
      EXPECT_NEAR(toi.toi, t_hit, 1e-7);
      const Vec3 ca = pa + va * t_hit, cb = pb + vb * t_hit;
      const Vec3 expected_point = ca + ra * (cb - ca).normalized();
      EXPECT_NEAR((toi.point - expected_point).norm(), 0, 1e-5);
      EXPECT_NEAR((toi.normal - (cb - ca).normalized()).norm(), 0, 1e-4);
    }
  }
  EXPECT_GE(hits, 20);
  EXPECT_GE(misses, 20);
}

/// Distance between a (at pa + va t) and b (at pb + vb t) by the static query.
double static_distance(const Object& a, const Pose& pa, const Vec3& va, const Object& b, const Pose& pb, const Vec3& vb,
                       double t) {
  const Pose ta = Pose::from_quaternion(pa.quaternion().w(), pa.quaternion().x(), pa.quaternion().y(),
                                        pa.quaternion().z(), pa.translation() + va * t);
  const Pose tb = Pose::from_quaternion(pb.quaternion().w(), pb.quaternion().x(), pb.quaternion().y(),
                                        pb.quaternion().z(), pb.translation() + vb * t);
  const DistanceResult r = distance(a, ta, b, tb);
  EXPECT_EQ(r.status, Status::converged);
  return r.intersect ? 0 : r.distance;
}

TEST(IpmContinuous, PresetsMatchDenseSamplingAndBisection) {
  const Object objects[] = {soda_can(), rounded_cuboid(), mouse(), hexagonal_nut(), pyramid()};
  std::mt19937_64 rng(302);
  std::normal_distribution<double> n(0, 1);
  int hits = 0, misses = 0;
  for (int trial = 0; trial < 24; ++trial) {
    SCOPED_TRACE("seed 302 trial " + std::to_string(trial));
    const Object& a = objects[trial % 5];
    const Object& b = objects[(trial / 5 + trial + 1) % 5];
    const Eigen::Vector4d qa = proxima::test::draw_quaternion(n, rng);
    const Pose pa = Pose::from_quaternion(qa[0], qa[1], qa[2], qa[3], random_vec(rng, 1));
    const Eigen::Vector4d qb = proxima::test::draw_quaternion(n, rng);
    const Pose pb = Pose::from_quaternion(qb[0], qb[1], qb[2], qb[3], Vec3(5, 0, 0) + random_vec(rng, 1.5));
    const Vec3 va = Vec3(3, 0, 0) + random_vec(rng, 1.5), vb = random_vec(rng, 1);
    const double t_max = 1;
    if (static_distance(a, pa, va, b, pb, vb, 0) == 0) continue;
    // Dense sampling, then golden section on the convex distance-versus-time.
    const int samples = 60;
    int best = 0;
    double best_d = 1e300;
    for (int i = 0; i <= samples; ++i) {
      const double d = static_distance(a, pa, va, b, pb, vb, t_max * i / samples);
      if (d < best_d) best_d = d, best = i;
    }
    double lo = t_max * std::max(0, best - 1) / samples, hi = t_max * std::min(samples, best + 1) / samples;
    const double phi = (std::sqrt(5.0) - 1) / 2;
    for (int k = 0; k < 40 && best_d > 0; ++k) {
      const double m1 = hi - phi * (hi - lo), m2 = lo + phi * (hi - lo);
      if (static_distance(a, pa, va, b, pb, vb, m1) < static_distance(a, pa, va, b, pb, vb, m2)) {
        hi = m2;
      } else {
        lo = m1;
      }
    }
    const double t_ref = (lo + hi) / 2;
    const double d_ref = std::min(best_d, static_distance(a, pa, va, b, pb, vb, t_ref));
    const IntervalResult r = interval_translate(a, pa, va, b, pb, vb, t_max);
    ASSERT_EQ(r.status, Status::converged);
    const ToiResult toi = toi_translate(a, pa, va, b, pb, vb, t_max);
    ASSERT_EQ(toi.status, Status::converged);
    if (d_ref > 1e-4) {
      ++misses;
      EXPECT_NEAR(r.min_distance, d_ref, 1e-7 * (1 + d_ref));
      EXPECT_FALSE(toi.contact);
    } else if (best_d == 0) {
      ++hits;
      EXPECT_TRUE(r.intersect);
      // Bisection for the first contact between the last separated sample and the first overlap.
      int first = 0;
      while (static_distance(a, pa, va, b, pb, vb, t_max * first / samples) > 0) ++first;
      double t0 = t_max * (first - 1) / samples, t1 = t_max * first / samples;
      for (int k = 0; k < 45; ++k) {
        const double tm = (t0 + t1) / 2;
        (static_distance(a, pa, va, b, pb, vb, tm) > 0 ? t0 : t1) = tm;
      }
      ASSERT_TRUE(toi.contact);
      EXPECT_NEAR(toi.toi, (t0 + t1) / 2, 1e-6);
    }
  }
  EXPECT_GE(hits, 5);
  EXPECT_GE(misses, 5);
}

// Regression: the benchmark's time-of-first-contact configurations (bench/suites/ipm.cpp, seed 1,
// the same draws) left 15 of 2000 diamond-cuboid and 2 of 2000 can-cuboid answers uncertified:
// the first-contact solve jammed on the diamond's curved boundary after Mehrotra's centring cut
// mu too early, stalled at a sharp edge where stationarity cannot be certified, or (can) started
// at the can's centre where its gradient and curvature vanish and the Cholesky failed. Every
// answer must now be certified, and the objects must be apart just before the reported time
// and share a point just after it.
TEST(IpmContinuous, FirstContactOfTheBenchConfigurationsIsCertified) {
  const Object diamond_object = diamond(), can = soda_can(), cuboid = rounded_cuboid();
  const std::pair<const Object*, int> pairs[] = {{&diamond_object, 0 * 10 + 2}, {&can, 1 * 10 + 2}};
  for (const auto& [a, pair_id] : pairs) {
    std::mt19937_64 rng(2000 + static_cast<std::uint64_t>(pair_id));
    std::uniform_real_distribution<double> off(-0.8, 0.8);
    // The bench's draw, expression for expression (fresh distributions, the same argument
    // order), so the configurations are the bench's own.
    auto random_rotation = [&] {
      std::normal_distribution<double> n(0, 1);
      std::uniform_real_distribution<double> u(-0.0, 0.0);
      return proxima::test::draw_quaternion_pose(n, u, rng);
    };
    int contacts = 0;
    for (int q = 0; q < 2000; ++q) {
      const Pose pa = random_rotation();
      const Pose rb = random_rotation();
      const Vec3 dir = Vec3{off(rng), off(rng), off(rng)}.normalized();
      const Pose pb = Pose::from_matrix(rb.rotation(), -4 * dir + Vec3{off(rng), off(rng), off(rng)});
      const ToiResult r = toi_translate(*a, pa, Vec3::Zero(), cuboid, pb, 8 * dir, 1);
      SCOPED_TRACE("pair " + std::to_string(pair_id) + " configuration " + std::to_string(q));
      ASSERT_EQ(r.status, Status::converged);
      if (!r.contact) continue;
      ++contacts;
      if (r.toi < 1e-3 || r.toi > 1 - 1e-3) continue;
      auto moved = [&](double t) { return Pose::from_matrix(pb.rotation(), pb.translation() + 8 * dir * t); };
      // Apart just before (no common point; the distance query's own lower bound can be 0 at
      // the diamond's tips, so the flag `intersect` is not the test), overlapping just after.
      const DistanceResult before = distance(*a, pa, cuboid, moved(r.toi - 1e-6));
      EXPECT_NE(before.detail, Detail::origin_enclosed) << "toi " << r.toi;
      EXPECT_GT(before.distance, 0) << "toi " << r.toi;
      const DistanceResult after = distance(*a, pa, cuboid, moved(r.toi + 1e-4));
      EXPECT_EQ(after.detail, Detail::origin_enclosed) << "toi " << r.toi;
    }
    EXPECT_GT(contacts, 1000);
  }
}

TEST(IpmContinuous, CollisionIntervalsMatchSampling) {
  std::mt19937_64 rng(303);
  std::uniform_real_distribution<double> radius(0.3, 1.0);
  int collide = 0, apart = 0;
  for (int trial = 0; trial < 40; ++trial) {
    SCOPED_TRACE("seed 303 trial " + std::to_string(trial));
    const double ra = radius(rng), rb = radius(rng);
    const Object a(Quadric::ellipsoid(Vec3::Constant(ra))), b(Quadric::ellipsoid(Vec3::Constant(rb)));
    const Vec3 pa = random_vec(rng, 3), pb = random_vec(rng, 3);
    if ((pa - pb).norm() < ra + rb + 0.05) continue;
    const Vec3 ga = (pb - pa).normalized() + random_vec(rng, 0.6), gb = random_vec(rng, 1);
    const double la = 4, lb = 2;
    const CollisionIntervals r =
        collision_intervals(a, Pose::from_translation(pa), ga, la, b, Pose::from_translation(pb), gb, lb);
    // Oracle: grid over (s_a, s_b), spheres collide when centres are within ra + rb.
    const int grid = 400;
    double amin = 1e300, amax = -1e300, bmin = 1e300, bmax = -1e300;
    for (int i = 0; i <= grid; ++i) {
      for (int j = 0; j <= grid; ++j) {
        const double sa = la * i / grid, sb = lb * j / grid;
        if ((pa + sa * ga.normalized() - pb - sb * gb.normalized()).norm() < ra + rb) {
          amin = std::min(amin, sa), amax = std::max(amax, sa), bmin = std::min(bmin, sb), bmax = std::max(bmax, sb);
        }
      }
    }
    if (amax < amin) {
      ++apart;
      EXPECT_FALSE(r.collide);
      continue;
    }
    if (amax - amin < 4 * la / grid || bmax - bmin < 4 * lb / grid) continue;  // grazing: grid too coarse
    ++collide;
    ASSERT_TRUE(r.collide);
    ASSERT_EQ(r.status, Status::converged);
    EXPECT_NEAR(r.s_a_min, amin, 1.5 * la / grid);
    EXPECT_NEAR(r.s_a_max, amax, 1.5 * la / grid);
    EXPECT_NEAR(r.s_b_min, bmin, 1.5 * lb / grid);
    EXPECT_NEAR(r.s_b_max, bmax, 1.5 * lb / grid);
  }
  EXPECT_GE(collide, 8);
  EXPECT_GE(apart, 5);
}

TEST(IpmContinuous, BadInputIsRefused) {
  const Object a = soda_can();
  EXPECT_THROW(interval_translate(a, Pose(), Vec3(kNaN, 0, 0), a, Pose(), Vec3::Zero(), 1), InvalidInput);
  EXPECT_THROW(toi_translate(a, Pose(), Vec3::Zero(), a, Pose(), Vec3::Zero(), -1), InvalidInput);
  EXPECT_THROW(collision_intervals(a, Pose(), Vec3::Zero(), 1, a, Pose(), Vec3::UnitX(), 1), InvalidInput);
}

}  // namespace
}  // namespace proxima::ipm
