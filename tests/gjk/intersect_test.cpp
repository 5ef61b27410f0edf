// SPDX-License-Identifier: MIT
// Tests for gjk/intersect.hpp: agreement with gjk::distance (and with closed forms where they
// exist), the separating axis verified independently from the shapes' support functions, touching
// contact counted as overlap, early exit (fewer iterations than a full distance query), warm start.
#include <proxima/gjk/intersect.hpp>
#include <proxima/shapes/box.hpp>
#include <proxima/shapes/sphere.hpp>

#include "test_shapes.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace proxima::gjk {
namespace {

using test::TestCapsule;
using test::VertexHull;

template <class S>
double h(const S& s, const Pose& p, const Vec3& u) {
  return u.dot(p.apply(s.support(p.rotate_inverse(u))));
}

/// Runs intersect and distance on one pair and checks they agree; verifies the axis.
template <class A, class B>
void check_pair(const A& a, const Pose& pa, const B& b, const Pose& pb, const std::string& label, int& hits,
                int& misses, long& intersect_iterations, long& distance_iterations) {
  const IntersectResult r = intersect(a, pa, b, pb);
  // GJK against GJK (the iteration counts are compared): closed forms and the box pre-pass off.
  const DistanceResult d = distance(a, pa, b, pb, {.closed_forms = false, .box_box = false});
  intersect_iterations += r.iterations;
  distance_iterations += d.iterations;
  const double scale = a.bounding_sphere().radius + b.bounding_sphere().radius +
                       (pa.translation() - pb.translation()).norm();
  ASSERT_EQ(r.status, Status::converged) << label;
  if (d.distance > 1e-9 * scale) {
    ASSERT_FALSE(r.intersect) << label << " distance " << d.distance;
  } else if (d.intersect) {
    ASSERT_TRUE(r.intersect) << label;
  }
  if (r.intersect) {
    ++hits;
    return;
  }
  ++misses;
  ASSERT_NEAR(r.separating_axis.norm(), 1, 1e-12) << label;
  // max over A of axis.x < min over B of axis.x, from the shapes themselves.
  const double max_a = h(a, pa, r.separating_axis);
  const double min_b = -h(b, pb, -r.separating_axis);
  EXPECT_LT(max_a, min_b) << label;
}

TEST(Intersect, AgreesWithDistanceAndAxisSeparates) {
  const unsigned seed = 2001;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  std::normal_distribution<double> g;
  int hits = 0, misses = 0;
  long it_intersect = 0, it_distance = 0;
  for (int c = 0; c < 3000; ++c) {
    const double scale = std::pow(10.0, -3 + 2 * (c % 5));
    const Pose pa = test::random_pose(rng, std::min(1e5, 10 * scale));
    const Mat3 turn = test::random_pose(rng, 0).rotation();
    const Vec3 dir = test::random_unit(rng);
    const Pose pb = Pose::from_matrix(turn, pa.translation() + dir * scale * 3 * u(rng));
    const std::string label = "seed 2001 case " + std::to_string(c);
    switch (c % 4) {
      case 0: {
        const Box a(Vec3{0.2 + u(rng), 0.2 + u(rng), 0.2 + u(rng)} * scale);
        const Box b(Vec3{0.2 + u(rng), 0.2 + u(rng), 0.2 + u(rng)} * scale);
        check_pair(a, pa, b, pb, label, hits, misses, it_intersect, it_distance);
        break;
      }
      case 1: {
        const Sphere a(scale * (0.2 + u(rng)));
        const Box b(Vec3{0.2 + u(rng), 0.2 + u(rng), 0.2 + u(rng)} * scale);
        check_pair(a, pa, b, pb, label, hits, misses, it_intersect, it_distance);
        break;
      }
      case 2: {
        const TestCapsule a{scale * (0.1 + 0.3 * u(rng)), scale * (0.2 + u(rng))};
        const TestCapsule b{scale * (0.1 + 0.3 * u(rng)), scale * (0.2 + u(rng))};
        check_pair(a, pa, b, pb, label, hits, misses, it_intersect, it_distance);
        break;
      }
      default: {
        std::vector<Vec3> va, vb;
        for (int i = 0; i < 12; ++i) va.emplace_back(Vec3{g(rng), g(rng), g(rng)} * scale * 0.6);
        for (int i = 0; i < 12; ++i) vb.emplace_back(Vec3{g(rng), g(rng), g(rng)} * scale * 0.6);
        check_pair(VertexHull(va), pa, VertexHull(vb), pb, label, hits, misses, it_intersect, it_distance);
        break;
      }
    }
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(hits, 900);
  EXPECT_GT(misses, 900);
  // Early exit: the boolean test needs clearly fewer support calls than the distance.
  EXPECT_LT(it_intersect, it_distance * 3 / 4) << it_intersect << " vs " << it_distance;
}

TEST(Intersect, TouchingCountsAsOverlap) {
  const Box box(Vec3::Ones());
  for (const Vec3& t : {Vec3(2, 0.5, -0.3), Vec3(2, 2, 0.4), Vec3(2, 2, 2), Vec3(-2, 0, 0)}) {
    const IntersectResult r = intersect(box, Pose(), box, Pose::from_translation(t));
    EXPECT_TRUE(r.intersect) << t.transpose();
  }
  const Sphere s(1);
  EXPECT_TRUE(intersect(s, Pose(), s, Pose::from_translation(Vec3(0, 2, 0))).intersect);
  EXPECT_FALSE(intersect(s, Pose(), s, Pose::from_translation(Vec3(0, 2 + 1e-9, 0))).intersect);
}

TEST(Intersect, WarmStartExitsEarly) {
  const unsigned seed = 2002;
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> g;
  long cold = 0, warm_total = 0;
  for (int c = 0; c < 200; ++c) {
    std::vector<Vec3> va, vb;
    for (int i = 0; i < 30; ++i) va.emplace_back(Vec3{g(rng), g(rng), g(rng)});
    for (int i = 0; i < 30; ++i) vb.emplace_back(Vec3{g(rng), g(rng), g(rng)});
    const VertexHull a(va), b(vb);
    const Vec3 dir = test::random_unit(rng);
    Pose pb = Pose::from_translation(dir * 3 * std::abs(g(rng)));
    WarmStart warm;
    const IntersectResult first = intersect(a, Pose(), b, pb, {}, warm);
    pb = Pose::from_translation(pb.translation() + Vec3{g(rng), g(rng), g(rng)} * 0.005);
    const IntersectResult cold_r = intersect(a, Pose(), b, pb);
    const IntersectResult warm_r = intersect(a, Pose(), b, pb, {}, warm);
    ASSERT_EQ(cold_r.intersect, warm_r.intersect) << "seed 2002 case " << c;
    (void)first;
    cold += cold_r.iterations;
    warm_total += warm_r.iterations;
  }
  EXPECT_LT(warm_total, cold * 3 / 4) << warm_total << " vs " << cold;
}

}  // namespace
}  // namespace proxima::gjk
