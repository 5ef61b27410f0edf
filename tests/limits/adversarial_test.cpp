// SPDX-License-Identifier: MIT
// Adversarial inputs for every iterative routine, with the default caps: near-degenerate simplices
// (flat and needle polytopes, nearly coplanar tetrahedra), nearly parallel faces (boxes turned by
// 1e-15..1e-6 rad), superquadric exponents within 1e-10..1e-3 of 1 (the support's root find and
// the interior-point barrier), and the same pair at scales 1e-9..1e9. Each call must return within
// its cap with a status; a "converged" answer must also be right: scale-covariant (distance at
// scale s = s times the distance at scale 1), or equal to the closed form where there is one.
#include <proxima/ccd/toi.hpp>
#include <proxima/gjk/distance.hpp>
#include <proxima/gjk/epa.hpp>
#include <proxima/gjk/intersect.hpp>
#include <proxima/ipm/distance.hpp>
#include <proxima/lp/intersect.hpp>
#include <proxima/shapes/box.hpp>
#include <proxima/shapes/ellipsoid.hpp>
#include <proxima/shapes/polytope.hpp>
#include <proxima/shapes/superquadric.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace proxima {
namespace {

bool capped(int iterations, int cap) { return iterations >= 0 && iterations <= cap; }

template <class A, class B>
void run_all_gjk(const std::string& what, const A& a, const Pose& pa, const B& b, const Pose& pb) {
  SCOPED_TRACE(what);
  const DistanceResult d = gjk::distance(a, pa, b, pb);
  EXPECT_TRUE(capped(d.iterations, kGjkMaxIterations));
  EXPECT_TRUE(d.status == Status::converged || d.status == Status::iteration_limit || d.status == Status::degenerate_input);
  if (d.status == Status::converged) {
    EXPECT_TRUE(std::isfinite(d.distance) && d.distance >= 0);
    EXPECT_TRUE(d.point_a.allFinite() && d.point_b.allFinite());
  }
  const IntersectResult i = gjk::intersect(a, pa, b, pb);
  EXPECT_TRUE(capped(i.iterations, kGjkMaxIterations));
  if (i.status == Status::converged && d.status == Status::converged && !d.intersect && d.distance > 1e-6 * (1 + pa.translation().norm())) {
    EXPECT_FALSE(i.intersect) << "distance " << d.distance;
  }
  const PenetrationResult p = gjk::penetration(a, pa, b, pb);
  EXPECT_TRUE(capped(p.iterations, kGjkMaxIterations + kEpaMaxIterations));
  EXPECT_TRUE(std::isfinite(p.depth) && p.depth >= 0) << to_string(p.status);
}

std::vector<Vec3> flat_square(double thickness) {
  return {{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}, {0, 0, thickness}};
}

TEST(LimitsAdversarial, NearDegenerateSimplices) {
  const Box box(Vec3(0.5, 0.5, 0.5));
  for (double t : {1e-6, 1e-10, 1e-13, 1e-15, 0.0}) {
    const Polytope flat(flat_square(t));
    const Polytope needle({{0, 0, -1}, {0, 0, 1}, {t, 0, 0}, {0, t, 0}});
    const Polytope coplanar_tet({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0.3, 0.3, t}});
    for (double gap : {-0.25, 0.0, 1e-12, 0.25}) {
      const std::string tag = "thickness " + std::to_string(t) + " gap " + std::to_string(gap);
      // The flat square lies in z = 0; the box above it at z = 0.5 + gap.
      run_all_gjk("flat/" + tag, flat, Pose(), box, Pose::from_translation(Vec3(0.1, 0.2, 0.5 + gap + t)));
      run_all_gjk("needle/" + tag, needle, Pose(), box, Pose::from_translation(Vec3(0.5 + gap, 0.1, 0.2)));
      run_all_gjk("tet/" + tag, coplanar_tet, Pose::from_euler_xyz(0.1, 0.2, 0.3, Vec3::Zero()), flat,
                  Pose::from_translation(Vec3(0.2, 0.2, gap)));
    }
  }
}

TEST(LimitsAdversarial, NearlyParallelFaces) {
  const Box a(Vec3(1, 1, 1));
  const Box b(Vec3(1, 1, 1));
  for (double angle : {1e-15, 1e-12, 1e-9, 1e-6}) {
    for (double gap : {-1e-3, -1e-9, 0.0, 1e-9, 1e-3}) {
      SCOPED_TRACE("angle " + std::to_string(angle) + " gap " + std::to_string(gap));
      // B face-to-face with A along x, turned by `angle` about z: its near face leans by at most
      // sin(angle) * 1 (corner offset), so the distance is gap - (about angle) when separated.
      const Pose pb = Pose::from_euler_xyz(0, 0, angle, Vec3(2 + gap, 0.3, -0.2));
      run_all_gjk("boxes", a, Pose(), b, pb);
      const DistanceResult d = gjk::distance(a, Pose(), b, pb);
      ASSERT_EQ(d.status, Status::converged);
      const double lean = std::sin(angle) + (1 - std::cos(angle));
      if (gap > 2 * lean) {
        EXPECT_NEAR(d.distance, gap, 2 * lean + 1e-12);
      }
      if (gap < -2 * lean) {
        const PenetrationResult p = gjk::penetration(a, Pose(), b, pb);
        ASSERT_EQ(p.status, Status::converged);
        EXPECT_NEAR(p.depth, -gap, 2 * lean + 1e-12);
      }
    }
  }
}

// Was an open finding (issue 4): with exponents within 1e-3..1e-12 of 1 the ipm distance ran its
// epigraph fallback after the capped direct solve and reported more iterations than
// kIpmMaxIterations; the cap is now the query's whole budget.
TEST(LimitsAdversarial, SuperquadricExponentsNearOne) {
  const Ellipsoid ball(Vec3(0.5, 0.5, 0.5));
  for (double eps : {1e-3, 1e-6, 1e-8, 1e-10, 1e-12}) {
    SCOPED_TRACE("exponent 1 + " + std::to_string(eps));
    const Vec3 e(1 + eps, 1 + eps, 1 + eps);
    const Vec3 mixed(1 + eps, 30, 2);
    for (const Vec3& exps : {e, mixed}) {
      const Superquadric s(Vec3(1, 0.7, 0.5), exps);
      // The support root find must return a finite point on the surface.
      for (const Vec3& dir : {Vec3(1, 0, 0), Vec3(1, 1, 1), Vec3(1e-12, 1, -1e-9), Vec3(-0.3, 0.2, 0.9)}) {
        const Vec3 p = s.support(dir);
        ASSERT_TRUE(p.allFinite()) << dir.transpose();
        const double value = std::pow(std::abs(p.x() / 1), exps.x()) + std::pow(std::abs(p.y() / 0.7), exps.y()) +
                             std::pow(std::abs(p.z() / 0.5), exps.z());
        EXPECT_NEAR(value, 1, 1e-6) << dir.transpose();
      }
      const Pose pb = Pose::from_euler_xyz(0.1, 0.2, 0.3, Vec3(1.3, 0.4, 0.2));
      run_all_gjk("superquadric-ball", s, Pose(), ball, pb);
      // The interior-point solver on the same pair: it returns with a status, and where both
      // converge the distances agree.
      const ipm::DistanceReport r = ipm::distance_report(ipm::Object(ipm::Superquadric(Vec3(1, 0.7, 0.5), exps)), Pose(),
                                                         ipm::Object(ipm::Quadric::ellipsoid(Vec3(0.5, 0.5, 0.5))), pb);
      EXPECT_TRUE(capped(r.result.iterations, kIpmMaxIterations));
      const DistanceResult g = gjk::distance(s, Pose(), ball, pb, {.max_iterations = 1000, .nesterov = true});
      if (r.result.status == Status::converged && g.status == Status::converged) {
        EXPECT_NEAR(r.result.distance, g.distance, 1e-7 + g.gap + r.result.gap);
      }
    }
  }
}

TEST(LimitsAdversarial, HugeAndTinyScales) {
  const Polytope pa({{1, 0.2, 0}, {-0.4, 0.9, 0.1}, {-0.5, -0.8, 0.3}, {0.1, 0.1, 1}, {0, 0, -0.7}});
  const Pose rot_a = Pose::from_euler_xyz(0.3, -0.2, 0.5, Vec3::Zero());
  const Pose rot_b = Pose::from_euler_xyz(-0.4, 0.7, 0.1, Vec3::Zero());
  const Vec3 offset(1.9, 0.4, -0.3);
  const Vec3 far(3e2, -1e2, 2e2);  // A's translation, in units of the shapes' size
  const auto at_scale = [&](double s, int which) {
    const Pose a = Pose::from_matrix(rot_a.rotation(), s * far);
    const Pose b = Pose::from_matrix(rot_b.rotation(), s * (far + offset));
    std::vector<Vec3> scaled;
    for (const Vec3& v : pa.vertices()) scaled.push_back(s * v);
    DistanceResult d;
    if (which == 0) d = gjk::distance(Polytope(scaled), a, Ellipsoid(s * Vec3(1, 0.6, 0.4)), b);
    if (which == 1) d = gjk::distance(Ellipsoid(s * Vec3(1, 0.6, 0.4)), a, Superquadric(s * Vec3(0.8, 0.6, 0.9), Vec3(1.3, 6, 2.5)), b);
    if (which == 2) {
      d = ipm::distance(ipm::Object(ipm::Quadric::ellipsoid(s * Vec3(1, 0.6, 0.4))), a,
                        ipm::Object(ipm::Superquadric(s * Vec3(0.8, 0.6, 0.9), Vec3(1.3, 6, 2.5))), b);
    }
    return d;
  };
  for (int which = 0; which < 3; ++which) {
    const DistanceResult ref = at_scale(1, which);
    ASSERT_EQ(ref.status, Status::converged) << which;
    ASSERT_FALSE(ref.intersect);
    for (double s : {1e-9, 1e-6, 1e-3, 1e3, 1e6, 1e9}) {
      SCOPED_TRACE("pair " + std::to_string(which) + " scale " + std::to_string(s));
      const DistanceResult d = at_scale(s, which);
      EXPECT_TRUE(d.status == Status::converged || d.status == Status::iteration_limit || d.status == Status::degenerate_input);
      if (d.status != Status::converged) continue;
      // Relative 1e-9 of the distance plus the rounding of the far translation (|far| ~ 4e2).
      EXPECT_NEAR(d.distance / s, ref.distance, 1e-9 * ref.distance + 1e-12 * far.norm());
    }
  }
  // Penetration and the LP at the same scales.
  for (double s : {1e-9, 1e-3, 1.0, 1e3, 1e9}) {
    SCOPED_TRACE("scale " + std::to_string(s));
    std::vector<Vec3> scaled;
    for (const Vec3& v : pa.vertices()) scaled.push_back(s * v);
    const Polytope p(scaled);
    const Pose a = Pose::from_matrix(rot_a.rotation(), s * far);
    const Pose b = Pose::from_matrix(rot_b.rotation(), s * (far + Vec3(0.6, 0.2, 0.1)));
    const PenetrationResult pen = gjk::penetration(p, a, p, b);
    EXPECT_EQ(pen.status, Status::converged);
    EXPECT_TRUE(pen.intersect);
    const PenetrationResult unit = gjk::penetration(pa, Pose::from_matrix(rot_a.rotation(), far), pa,
                                                    Pose::from_matrix(rot_b.rotation(), far + Vec3(0.6, 0.2, 0.1)));
    EXPECT_NEAR(pen.depth / s, unit.depth, 1e-9 * unit.depth + 1e-12 * far.norm());
    Eigen::MatrixXd wa(3, static_cast<Eigen::Index>(scaled.size())), wb(3, static_cast<Eigen::Index>(scaled.size()));
    for (std::size_t j = 0; j < scaled.size(); ++j) {
      wa.col(static_cast<Eigen::Index>(j)) = a.apply(scaled[j]);
      wb.col(static_cast<Eigen::Index>(j)) = b.apply(scaled[j]);
    }
    const lp::LpIntersectResult l = lp::intersect(wa, wb);
    EXPECT_EQ(l.status, Status::converged);
    EXPECT_TRUE(l.intersect);
    const ToiResult t = ccd::toi_translate(p, a, Vec3::Zero(), p, Pose::from_matrix(rot_b.rotation(), s * (far + Vec3(5, 0, 0))),
                                           Vec3(-5 * s, 0, 0), 1.0);
    EXPECT_EQ(t.status, Status::converged);
    EXPECT_TRUE(t.contact);
  }
}

}  // namespace
}  // namespace proxima
