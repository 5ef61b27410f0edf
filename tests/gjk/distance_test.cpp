// SPDX-License-Identifier: MIT
// Tests for gjk/distance.hpp: closed forms (sphere/sphere, sphere/box, capsule/capsule) under
// random rotations, scales 1e-3..1e5 and translations to 1e5; polytope pairs against an exact
// enumerator on the Minkowski difference's points; the separating-plane certificate (lower bound)
// on every separated answer; warm start and Nesterov giving the same answer; the iteration cap.
#include "support/draws.hpp"

#include <proxima/gjk/distance.hpp>
#include <proxima/shapes/box.hpp>
#include <proxima/shapes/point.hpp>
#include <proxima/shapes/sphere.hpp>

#include "test_shapes.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace proxima::gjk {
namespace {

using test::TestCapsule;
using test::VertexHull;

/// Verifies the answer's internal consistency: unit normal along point_b - point_a, the distance
/// equal to |point_b - point_a|, and the reported gap non-negative.
void check_consistent(const DistanceResult& r, double scale, const std::string& label) {
  ASSERT_TRUE(std::isfinite(r.distance)) << label;
  ASSERT_GE(r.distance, 0) << label;
  EXPECT_GE(r.gap, 0) << label;
  if (!r.intersect) {
    EXPECT_NEAR(r.normal.norm(), 1, 1e-12) << label;
    EXPECT_NEAR((r.point_b - r.point_a).norm(), r.distance, 1e-11 * scale) << label;
    EXPECT_NEAR((r.point_b - r.point_a).dot(r.normal), r.distance, 1e-11 * scale) << label;
  } else {
    EXPECT_EQ(r.distance, 0) << label;
    EXPECT_LE((r.point_b - r.point_a).norm(), 1e-11 * scale) << label;
  }
}

TEST(Distance, SphereSphereClosedFormAcrossScales) {
  const unsigned seed = 101;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  int hits = 0, misses = 0;
  int per_scale[5] = {0, 0, 0, 0, 0};
  for (int c = 0; c < 2000; ++c) {
    const int e = c % 5;  // scales 1e-3, 1e-1, 1e1, 1e3, 1e5
    const double scale = std::pow(10.0, -3 + 2 * e);
    ++per_scale[e];
    const Sphere a(scale * (0.1 + u(rng)));
    const Sphere b(scale * (0.1 + u(rng)));
    const Pose pa = test::random_pose(rng, c % 3 == 0 ? 1e5 : std::min(1e5, scale * 10));  // far from the origin
    const Vec3 dir = test::random_unit(rng);
    const Vec3 offset = dir * scale * 3 * u(rng);
    const Eigen::Vector4d q = proxima::test::draw_quaternion(u, rng);
    const Pose pb = Pose::from_quaternion(q[0] + 0.1, q[1], q[2], q[3], pa.translation() + offset);
    const DistanceResult r = distance(a, pa, b, pb);
    const double exact = std::max(0.0, offset.norm() - a.radius() - b.radius());
    const std::string label = "seed " + std::to_string(seed) + " case " + std::to_string(c);
    const double s = a.radius() + b.radius() + offset.norm();
    const double abs_pos = 1e-15 * pa.translation().norm();
    ASSERT_NEAR(r.distance, exact, 1e-12 * s + 4 * abs_pos) << label;
    check_consistent(r, s + pa.translation().norm() * 1e-4, label);
    EXPECT_EQ(r.status, Status::converged) << label;
    if (exact > 0) {
      ++misses;
      EXPECT_FALSE(r.intersect) << label;
      EXPECT_NEAR((r.point_a - pa.translation()).norm(), a.radius(), 1e-12 * s + 4 * abs_pos) << label;
      EXPECT_NEAR((r.normal - offset.normalized()).norm(), 0, 1e-9 + 8 * abs_pos / offset.norm()) << label;
    } else {
      ++hits;
      EXPECT_TRUE(r.intersect) << label;
    }
  }
  EXPECT_GT(hits, 400);
  EXPECT_GT(misses, 400);
}

TEST(Distance, SphereBoxClosedFormAcrossScales) {
  const unsigned seed = 202;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  int hits = 0, misses = 0, face = 0;
  for (int c = 0; c < 2000; ++c) {
    const double scale = std::pow(10.0, -3 + 2 * (c % 5));
    const Box box(Vec3{0.1 + u(rng), 0.1 + u(rng), 0.1 + u(rng)} * scale);
    const Sphere sphere(scale * (0.05 + 0.5 * u(rng)));
    const Pose pa = test::random_pose(rng, c % 3 == 0 ? 1e5 : std::min(1e5, scale * 10));  // far from the origin
    const Vec3 local_centre = (Vec3{u(rng), u(rng), u(rng)} * 2 - Vec3::Ones()) * 2 * scale;
    const Pose pb = Pose::from_translation(pa.apply(local_centre));
    const double exact = std::max(0.0, test::point_box_distance(local_centre, box.half_extents()) - sphere.radius());
    const std::string label = "seed " + std::to_string(seed) + " case " + std::to_string(c);
    const DistanceResult r = distance(box, pa, sphere, pb);
    const double s = box.half_extents().norm() + sphere.radius() + local_centre.norm();
    const double abs_pos = 1e-15 * pa.translation().norm();
    ASSERT_NEAR(r.distance, exact, 1e-12 * s + 8 * abs_pos) << label;
    check_consistent(r, s + pa.translation().norm() * 1e-4, label);
    if (exact > 0) {
      ++misses;
      // The closest point on the box must be on its surface and the one on the sphere on its.
      const Vec3 qa = pa.apply_inverse(r.point_a);
      EXPECT_NEAR(test::point_box_distance(qa, box.half_extents()), 0, 1e-12 * s + 8 * abs_pos) << label;
      EXPECT_NEAR((r.point_b - pb.translation()).norm(), sphere.radius(), 1e-12 * s + 8 * abs_pos) << label;
      const auto outside = (local_centre.cwiseAbs().array() > box.half_extents().array()).count();
      if (outside == 1) ++face;
    } else {
      ++hits;
      EXPECT_TRUE(r.intersect) << label;
    }
  }
  EXPECT_GT(hits, 120);
  EXPECT_GT(misses, 1000);
  EXPECT_GT(face, 100);
}

TEST(Distance, CapsuleCapsuleClosedFormAcrossScales) {
  const unsigned seed = 303;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  int hits = 0, misses = 0;
  for (int c = 0; c < 2000; ++c) {
    const double scale = std::pow(10.0, -3 + 2 * (c % 5));
    const TestCapsule a{scale * (0.05 + 0.3 * u(rng)), scale * (0.1 + u(rng))};
    const TestCapsule b{scale * (0.05 + 0.3 * u(rng)), scale * (0.1 + u(rng))};
    const Pose pa = test::random_pose(rng, c % 3 == 0 ? 1e5 : std::min(1e5, scale * 10));  // far from the origin
    Pose pb = test::random_pose(rng, 0);
    const Vec3 dir = test::random_unit(rng);
    pb = Pose::from_matrix(pb.rotation(), pa.translation() + dir * scale * 2.5 * u(rng));
    if (c % 7 == 0) {  // parallel axes: a continuum of closest pairs
      pb = Pose::from_matrix(pa.rotation(), pb.translation());
    }
    const Vec3 a0 = pa.apply(Vec3(0, 0, -a.half_length())), a1 = pa.apply(Vec3(0, 0, a.half_length()));
    const Vec3 b0 = pb.apply(Vec3(0, 0, -b.half_length())), b1 = pb.apply(Vec3(0, 0, b.half_length()));
    const double core = test::segment_segment_distance(a0, a1, b0, b1);
    const double exact = std::max(0.0, core - a.radius() - b.radius());
    const DistanceResult r = distance(a, pa, b, pb);
    const std::string label = "seed " + std::to_string(seed) + " case " + std::to_string(c);
    const double s = 4 * scale;
    const double abs_pos = 1e-15 * pa.translation().norm();
    ASSERT_NEAR(r.distance, exact, 1e-11 * s + 8 * abs_pos) << label;
    check_consistent(r, s + pa.translation().norm() * 1e-4, label);
    (exact > 0 ? misses : hits)++;
  }
  EXPECT_GT(hits, 300);
  EXPECT_GT(misses, 300);
}

std::vector<Vec3> random_cloud(std::mt19937_64& rng, int n, double size, const Vec3& squash) {
  std::normal_distribution<double> g;
  std::vector<Vec3> v;
  for (int i = 0; i < n; ++i) v.emplace_back(Vec3{g(rng), g(rng), g(rng)}.cwiseProduct(squash) * size);
  return v;
}

TEST(Distance, PolytopePairsMatchEnumeration) {
  const unsigned seed = 404;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  int hits = 0, misses = 0;
  for (int c = 0; c < 300; ++c) {
    // Flat (squashed) and needle shapes included.
    const Vec3 squash_a = (c % 5 == 1) ? Vec3(1, 1, 1e-9) : (c % 5 == 2) ? Vec3(1e-9, 1e-9, 1) : Vec3::Ones();
    const VertexHull a(random_cloud(rng, 3 + c % 4, 1, squash_a));
    const VertexHull b(random_cloud(rng, 3 + (c / 5) % 4, 1, Vec3::Ones()));
    const Pose pa = test::random_pose(rng, 1);
    const Pose pb = test::random_pose(rng, 1);
    std::vector<Vec3> diff;  // vertices of A - B in the world frame
    for (const Vec3& p : a.vertices())
      for (const Vec3& q : b.vertices()) diff.push_back(pa.apply(p) - pb.apply(q));
    const double exact = test::brute_force_distance_to_hull(diff);
    const DistanceResult r = distance(a, pa, b, pb);
    const std::string label = "seed " + std::to_string(seed) + " case " + std::to_string(c) +
                              " status " + std::string(to_string(r.status)) + " detail " +
                              std::string(to_string(r.detail)) + " gap " + std::to_string(r.gap) +
                              " iterations " + std::to_string(r.iterations);
    ASSERT_NEAR(r.distance, exact, 1e-10) << label;
    check_consistent(r, 10, label);
    if (!r.intersect) {
      ++misses;
      // Separating-plane certificate from the raw vertices: the slab between the two closest
      // points perpendicular to the normal contains no vertex.
      double max_a = -INFINITY, min_b = INFINITY;
      for (const Vec3& p : a.vertices()) max_a = std::max(max_a, r.normal.dot(pa.apply(p)));
      for (const Vec3& q : b.vertices()) min_b = std::min(min_b, r.normal.dot(pb.apply(q)));
      EXPECT_NEAR(min_b - max_a, r.distance, 1e-10) << label;
    } else {
      ++hits;
    }
  }
  EXPECT_GT(hits, 50);
  EXPECT_GT(misses, 50);
}

TEST(Distance, PointsAndTouchingBoxes) {
  const Point p;
  const DistanceResult same = distance(p, Pose(), p, Pose());
  EXPECT_TRUE(same.intersect);
  EXPECT_EQ(same.distance, 0);
  const DistanceResult apart = distance(p, Pose(), p, Pose::from_translation(Vec3(3, 4, 0)));
  EXPECT_NEAR(apart.distance, 5, 1e-15);
  // Face-to-face touching unit boxes, exactly and rotated 90 degrees about x.
  const Box box(Vec3::Ones());
  const DistanceResult touch = distance(box, Pose(), box, Pose::from_euler_xyz(1.5707963267948966, 0, 0, Vec3(2, 0.3, 0.1)));
  EXPECT_LE(touch.distance, 1e-12);
  EXPECT_TRUE(touch.intersect);
}

TEST(Distance, WarmStartSameAnswerFewerIterations) {
  const unsigned seed = 505;
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> g;
  int cold_total = 0, warm_total = 0;
  for (int c = 0; c < 200; ++c) {
    const VertexHull a(random_cloud(rng, 40, 1, Vec3::Ones()));
    const VertexHull b(random_cloud(rng, 40, 1, Vec3::Ones()));
    Pose pa = test::random_pose(rng, 0);
    const Mat3 pb_rotation = test::random_pose(rng, 0).rotation();
    Pose pb = Pose::from_matrix(pb_rotation, test::random_unit(rng) * 6);
    WarmStart warm;
    (void)distance(a, pa, b, pb, {}, warm);
    // A small motion, as between two frames of a simulation.
    pb = Pose::from_matrix(pb.rotation() * Eigen::AngleAxisd(0.01, Vec3::UnitZ()).toRotationMatrix(),
                           pb.translation() + Vec3{g(rng), g(rng), g(rng)} * 0.01);
    const DistanceResult cold = distance(a, pa, b, pb);
    const DistanceResult hot = distance(a, pa, b, pb, {}, warm);
    ASSERT_NEAR(cold.distance, hot.distance, 1e-12) << "seed 505 case " << c;
    cold_total += cold.iterations;
    warm_total += hot.iterations;
  }
  EXPECT_LT(warm_total, cold_total * 3 / 4) << "cold " << cold_total << " warm " << warm_total;
}

TEST(Distance, WarmStartFromDirectionOnly) {
  const unsigned seed = 507;
  std::mt19937_64 rng(seed);
  int fewer_or_equal = 0, cold_total = 0, hot_total = 0;
  for (int c = 0; c < 100; ++c) {
    const VertexHull a(random_cloud(rng, 30, 1, Vec3::Ones()));
    const VertexHull b(random_cloud(rng, 30, 1, Vec3::Ones()));
    const Mat3 pb_rotation = test::random_pose(rng, 0).rotation();
    const Pose pb = Pose::from_matrix(pb_rotation, test::random_unit(rng) * 7);
    const DistanceResult cold = distance(a, Pose(), b, pb);
    WarmStart warm;
    warm.direction = cold.normal;  // e.g. the previous frame's normal
    const DistanceResult hot = distance(a, Pose(), b, pb, {}, warm);
    ASSERT_NEAR(cold.distance, hot.distance, 1e-12) << "seed 507 case " << c;
    fewer_or_equal += hot.iterations <= cold.iterations ? 1 : 0;
    cold_total += cold.iterations;
    hot_total += hot.iterations;
  }
  EXPECT_GT(fewer_or_equal, 80);
  EXPECT_LT(hot_total, cold_total) << hot_total << " vs " << cold_total;
}

/// A shape whose support mapping returns NaN (a broken user shape): queries must stop with
/// degenerate_input / non_finite, not loop or crash.
class NanShape {
 public:
  Vec3 support(const Vec3&) const { return nan_vec3(); }
  BoundingSphere bounding_sphere() const { return {Vec3::Zero(), 1}; }
  Aabb local_aabb() const { return {-Vec3::Ones(), Vec3::Ones()}; }
};

TEST(Distance, NonFiniteSupportIsReported) {
  const DistanceResult r = distance(NanShape(), Pose(), Box(Vec3::Ones()), Pose::from_translation(Vec3(3, 0, 0)));
  EXPECT_EQ(r.status, Status::degenerate_input);
  EXPECT_EQ(r.detail, Detail::non_finite);
  EXPECT_LE(r.iterations, kGjkMaxIterations);
}

/// A smooth, non-rounded shape (ellipsoid) on which plain GJK converges linearly.
class TestEllipsoid {
 public:
  explicit TestEllipsoid(const Vec3& axes) : e_(axes) {}
  Vec3 support(const Vec3& d) const {
    const Vec3 s = e_.cwiseProduct(d);
    const double n = s.norm();
    return n > 0 ? Vec3(e_.cwiseProduct(s) / n) : Vec3::Zero();
  }
  BoundingSphere bounding_sphere() const { return {Vec3::Zero(), e_.maxCoeff()}; }
  Aabb local_aabb() const { return {-e_, e_}; }

 private:
  Vec3 e_;
};

TEST(Distance, NesterovSameAnswer) {
  const unsigned seed = 606;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.2, 2);
  int plain_total = 0, fast_total = 0, separated = 0;
  for (int c = 0; c < 300; ++c) {
    const TestEllipsoid a(Vec3{u(rng), u(rng), u(rng)});
    const TestEllipsoid b(Vec3{u(rng), u(rng), u(rng)});
    const Pose pa = test::random_pose(rng, 0);
    const Mat3 pb_rotation = test::random_pose(rng, 0).rotation();
    const Pose pb = Pose::from_matrix(pb_rotation, test::random_unit(rng) * 4.5);
    const DistanceResult plain = distance(a, pa, b, pb);
    const DistanceResult fast = distance(a, pa, b, pb, {.nesterov = true});
    const std::string label = "seed 606 case " + std::to_string(c);
    ASSERT_NEAR(plain.distance, fast.distance, 1e-9) << label;
    ASSERT_EQ(plain.intersect, fast.intersect) << label;
    EXPECT_LE(fast.gap, 1e-9) << label;
    if (!plain.intersect) ++separated;
    plain_total += plain.iterations;
    fast_total += fast.iterations;
  }
  EXPECT_GT(separated, 100);
  std::printf("ellipsoid pairs: plain GJK %d iterations, Nesterov %d\n", plain_total, fast_total);
}

TEST(Distance, IterationCapIsReported) {
  const TestEllipsoid a(Vec3(1, 2, 3));
  const TestEllipsoid b(Vec3(2, 1, 0.5));
  const Pose pb = Pose::from_euler_xyz(0.3, 0.2, 0.1, Vec3(4, 3, 2));
  const DistanceResult capped = distance(a, Pose(), b, pb, {.max_iterations = 2});
  EXPECT_EQ(capped.status, Status::iteration_limit);
  EXPECT_EQ(capped.iterations, 2);
  const DistanceResult full = distance(a, Pose(), b, pb);
  EXPECT_EQ(full.status, Status::converged);
  // The capped answer is an upper bound whose reported gap covers the error.
  EXPECT_GE(capped.distance, full.distance - 1e-12);
  EXPECT_LE(capped.distance - full.distance, capped.gap + 1e-12);
  EXPECT_LE(full.gap, 1e-9);
}

}  // namespace
}  // namespace proxima::gjk
