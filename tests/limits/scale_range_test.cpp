// SPDX-License-Identifier: MIT
// The range of scales GJK, EPA and the closed forms answer (kGjkMinScale, kGjkMaxScale in
// core/tolerance.hpp). Inside it, the same random pairs scaled by a power of ten give the same
// answers divided by that power (the oracle: the unscaled query); outside it every query says
// degenerate_input / scale_out_of_range and gives no answer, where before this guard GJK answered
// "intersecting" for separated pairs below ~1e-55 and "touching" for overlapping ones above ~1e80,
// both reported as converged. Seeded; the seed is printed on failure.
#include "support/draws.hpp"

#include <proxima/batch/batch.hpp>
#include <proxima/ccd/toi.hpp>
#include <proxima/core/tolerance.hpp>
#include <proxima/gjk/distance.hpp>
#include <proxima/query/query.hpp>
#include <proxima/shapes/any_convex.hpp>
#include <proxima/shapes/box.hpp>
#include <proxima/shapes/capsule.hpp>
#include <proxima/shapes/cone.hpp>
#include <proxima/shapes/cylinder.hpp>
#include <proxima/shapes/ellipsoid.hpp>
#include <proxima/shapes/polytope.hpp>
#include <proxima/shapes/sphere.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

namespace proxima {
namespace {

constexpr std::uint64_t kSeed = 20261125;

/// The seven shape kinds at size ~1 times `f` (one random polytope of 8 vertices).
std::vector<AnyConvex> shapes_scaled(double f) {
  std::mt19937_64 rng(kSeed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<Vec3> vertices;
  for (int i = 0; i < 8; ++i) vertices.push_back(f * proxima::test::draw_vec3(u, rng));
  return {AnyConvex(Polytope(vertices)),        AnyConvex(Box(f * Vec3(0.5, 0.3, 0.7))),
          AnyConvex(Sphere(0.6 * f)),           AnyConvex(Capsule(0.3 * f, 0.5 * f)),
          AnyConvex(Cylinder(0.4 * f, 0.6 * f)), AnyConvex(Cone(0.5 * f, 0.5 * f)),
          AnyConvex(Ellipsoid(f * Vec3(0.7, 0.5, 0.3)))};
}

struct Placed {
  std::size_t a, b;
  Pose pose_b;
};

/// 80 pairs (about half overlapping), B placed at f times a random translation of up to 1.1 per axis.
std::vector<Placed> pairs_scaled(double f) {
  std::mt19937_64 rng(kSeed + 1);
  std::uniform_int_distribution<std::size_t> kind(0, 6);
  std::normal_distribution<double> n(0, 1);
  std::uniform_real_distribution<double> u(-1.1, 1.1);
  std::vector<Placed> out;
  for (int i = 0; i < 80; ++i) {
    const std::size_t a = kind(rng);
    const std::size_t b = kind(rng);
    const Pose turn = proxima::test::draw_quaternion_pose(n, rng);
    const Vec3 t = f * proxima::test::draw_vec3(u, rng);
    out.push_back({a, b, Pose::from_matrix(turn.rotation(), t)});
  }
  return out;
}

TEST(ScaleRange, AnswersInsideTheRangeAreTheUnitAnswersScaled) {
  const std::vector<AnyConvex> unit_shapes = shapes_scaled(1);
  const std::vector<Placed> unit_pairs = pairs_scaled(1);
  int overlapping = 0;
  for (const double f : {1e-29, 1e-20, 1e-10, 1e10, 1e20, 1e29}) {
    const std::vector<AnyConvex> shapes = shapes_scaled(f);
    const std::vector<Placed> pairs = pairs_scaled(f);
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      SCOPED_TRACE("seed " + std::to_string(kSeed) + " scale " + std::to_string(std::log10(f)) + " pair " +
                   std::to_string(i));
      const Placed& p = pairs[i];
      const Placed& q = unit_pairs[i];
      const DistanceResult d1 = query::distance(unit_shapes[q.a], Pose(), unit_shapes[q.b], q.pose_b);
      const DistanceResult df = query::distance(shapes[p.a], Pose(), shapes[p.b], p.pose_b);
      ASSERT_EQ(d1.status, Status::converged);
      ASSERT_EQ(df.status, Status::converged) << to_string(df.detail);
      EXPECT_EQ(df.intersect, d1.intersect);
      EXPECT_NEAR(df.distance / f, d1.distance, 1e-9 * (1 + d1.distance));
      const IntersectResult i1 = query::intersect(unit_shapes[q.a], Pose(), unit_shapes[q.b], q.pose_b);
      const IntersectResult i_f = query::intersect(shapes[p.a], Pose(), shapes[p.b], p.pose_b);
      EXPECT_EQ(i_f.intersect, i1.intersect);
      EXPECT_EQ(i_f.status, Status::converged);
      if (!d1.intersect) continue;
      ++overlapping;
      const PenetrationResult p1 = query::penetration(unit_shapes[q.a], Pose(), unit_shapes[q.b], q.pose_b);
      const PenetrationResult pf = query::penetration(shapes[p.a], Pose(), shapes[p.b], p.pose_b);
      ASSERT_EQ(p1.status, Status::converged);
      EXPECT_EQ(pf.status, Status::converged) << to_string(pf.detail);
      EXPECT_NEAR(pf.depth / f, p1.depth, 1e-7 * (1 + p1.depth));
    }
  }
  // The sample is informative: both classes at every scale.
  EXPECT_GT(overlapping, 6 * 20);  // of 6 * 80
  EXPECT_LT(overlapping, 6 * 60);
}

void expect_refused(Status status, Detail detail, const std::string& what) {
  EXPECT_EQ(status, Status::degenerate_input) << what;
  EXPECT_EQ(detail, Detail::scale_out_of_range) << what;
}

TEST(ScaleRange, QueriesOutsideTheRangeAreRefusedWithoutAnAnswer) {
  for (const double f : {1e-200, 1e-60, 1e-35, 1e35, 1e80, 1e150}) {
    const std::vector<AnyConvex> shapes = shapes_scaled(f);
    const std::vector<Placed> pairs = pairs_scaled(f);
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      const Placed& p = pairs[i];
      const std::string what = "scale 1e" + std::to_string(std::lround(std::log10(f))) + " pair " + std::to_string(i) +
                               " (" + std::to_string(p.a) + ", " + std::to_string(p.b) + ")";
      const DistanceResult d = query::distance(shapes[p.a], Pose(), shapes[p.b], p.pose_b);
      expect_refused(d.status, d.detail, what + " distance");
      EXPECT_TRUE(std::isnan(d.distance)) << what;
      EXPECT_FALSE(d.intersect) << what;
      const IntersectResult x = query::intersect(shapes[p.a], Pose(), shapes[p.b], p.pose_b);
      expect_refused(x.status, x.detail, what + " intersect");
      const PenetrationResult pen = query::penetration(shapes[p.a], Pose(), shapes[p.b], p.pose_b);
      expect_refused(pen.status, pen.detail, what + " penetration");
      EXPECT_TRUE(std::isnan(pen.depth)) << what;
    }
  }
}

TEST(ScaleRange, ClosedFormsRefuseTheSameScales) {
  // Sphere-sphere, sphere-capsule, capsule-capsule and sphere-box take the closed forms.
  for (const double f : {1e-40, 1e40, 1e160}) {
    const Sphere s(f);
    const Capsule c(f, f);
    const Box box(Vec3::Constant(f));
    const Pose apart = Pose::from_translation(Vec3(10 * f, 0, 0));
    const std::string what = "scale 1e" + std::to_string(std::lround(std::log10(f)));
    const DistanceResult ss = gjk::distance(s, Pose(), s, apart);
    expect_refused(ss.status, ss.detail, what + " sphere-sphere");
    const DistanceResult sc = gjk::distance(s, Pose(), c, apart);
    expect_refused(sc.status, sc.detail, what + " sphere-capsule");
    const DistanceResult cc = gjk::distance(c, Pose(), c, apart);
    expect_refused(cc.status, cc.detail, what + " capsule-capsule");
    EXPECT_TRUE(std::isnan(cc.distance)) << what;
    const DistanceResult sb = gjk::distance(s, Pose(), box, apart);
    expect_refused(sb.status, sb.detail, what + " sphere-box");
  }
  // At the edges of the range they answer: the distance 8 f between the surfaces.
  for (const double f : {1e-29, 1e28}) {
    const DistanceResult cc = gjk::distance(Capsule(f, f), Pose(), Capsule(f, f), Pose::from_translation(Vec3(10 * f, 0, 0)));
    EXPECT_EQ(cc.status, Status::converged);
    EXPECT_NEAR(cc.distance / f, 8, 1e-12);
  }
}

TEST(ScaleRange, TimeOfImpactStopsAtARefusedDistance) {
  const Sphere s(1e-40);
  const ToiResult r = ccd::toi_translate(s, Pose(), Vec3(1e-40, 0, 0), s, Pose::from_translation(Vec3(1e-39, 0, 0)),
                                    Vec3::Zero(), 20.0);
  EXPECT_EQ(r.status, Status::degenerate_input);
  EXPECT_EQ(r.detail, Detail::scale_out_of_range);
  EXPECT_FALSE(r.contact);
  EXPECT_EQ(r.iterations, 1);
}

TEST(ScaleRange, BatchElementsOutsideTheRangeAreRefusedAndTheOthersAnswered) {
  // Small polytopes take the batch's own kernels (the AVX2 lanes where the CPU has them).
  std::mt19937_64 rng(kSeed + 2);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<Vec3> vertices;
  for (int i = 0; i < 8; ++i) vertices.push_back(proxima::test::draw_vec3(u, rng));
  const std::vector<AnyConvex> a = {AnyConvex(Polytope(vertices))};
  std::vector<Pose> pose_a, pose_b;
  for (int i = 0; i < 40; ++i) {
    // Elements 3, 10, 11, 12, 30: B so far away that the scale exceeds kGjkMaxScale.
    const bool far = i == 3 || (i >= 10 && i <= 12) || i == 30;
    pose_a.push_back(Pose());
    pose_b.push_back(Pose::from_translation(Vec3(far ? 1e40 : 0.1 * i, 0.2, 0)));
  }
  const batch::IntersectBatch out = batch::intersect(a, pose_a, a, pose_b);
  for (std::size_t i = 0; i < pose_b.size(); ++i) {
    const IntersectResult scalar = batch::scalar_intersect(a[0], pose_a[i], a[0], pose_b[i]);
    const bool far = pose_b[i].translation().x() > 1e30;
    EXPECT_EQ(out.status[i], static_cast<std::uint8_t>(scalar.status)) << "element " << i;
    EXPECT_EQ(out.detail[i], static_cast<std::uint8_t>(scalar.detail)) << "element " << i;
    EXPECT_EQ(out.intersect[i], scalar.intersect ? 1 : 0) << "element " << i;
    if (far) {
      expect_refused(scalar.status, scalar.detail, "element " + std::to_string(i));
    } else {
      EXPECT_EQ(scalar.status, Status::converged) << "element " << i;
    }
  }
}

}  // namespace
}  // namespace proxima
