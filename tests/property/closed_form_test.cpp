// SPDX-License-Identifier: MIT
// The closed-form distances of gjk/closed_form.hpp (sphere-sphere, sphere-box, sphere-capsule,
// capsule-capsule, both orders) against two independent oracles on seeded random pairs:
//  - GJK on the same pair with closed forms off (GjkOptions::closed_forms = false);
//  - a certificate from the shapes' own definitions: the witness points pass a membership test,
//    |point_b - point_a| equals the distance, and the support functions along the normal prove
//    that no pair of points is closer (min over B of n.x - max over A of n.x >= distance); for
//    overlaps, the common point lies in both shapes. Capsule pairs are also checked against a dense
//    sampling of the two axis segments.
// Sizes 1e-3..1e5, translations up to 1e5, random rotations, and the nasty cases: parallel and
// crossing capsule axes, a sphere centre inside the box, exact touching.
#include "support/draws.hpp"

#include <proxima/gjk/closed_form.hpp>
#include <proxima/gjk/distance.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <cmath>
#include <map>
#include <numbers>
#include <random>
#include <sstream>
#include <string>

namespace proxima {
namespace {

struct Shape {
  int kind = 0;  // 0 sphere, 1 capsule, 2 box
  double radius = 0;
  double half_length = 0;
  Vec3 half_extents = Vec3::Zero();
};

double support(const Shape& s, const Pose& p, const Vec3& n) {
  const Vec3 local = p.rotate_inverse(n);
  double h = n.dot(p.translation());
  if (s.kind == 0) h += s.radius * n.norm();
  if (s.kind == 1) h += std::abs(local.z()) * s.half_length + s.radius * n.norm();
  if (s.kind == 2) h += local.cwiseAbs().dot(s.half_extents);
  return h;
}

/// Distance from x to the shape (0 inside), straight from the definition.
double outside_by(const Shape& s, const Pose& p, const Vec3& x) {
  const Vec3 l = p.apply_inverse(x);
  if (s.kind == 0) return std::max(0.0, l.norm() - s.radius);
  if (s.kind == 1) {
    const Vec3 axis_point(0, 0, std::clamp(l.z(), -s.half_length, s.half_length));
    return std::max(0.0, (l - axis_point).norm() - s.radius);
  }
  return (l.cwiseAbs() - s.half_extents).cwiseMax(0.0).norm();
}

template <class F>
DistanceResult with_types(const Shape& a, const Shape& b, F&& f) {
  const auto call_b = [&](const auto& sa) -> DistanceResult {
    if (b.kind == 0) return f(sa, Sphere(b.radius));
    if (b.kind == 1) return f(sa, Capsule(b.radius, b.half_length));
    return f(sa, Box(b.half_extents));
  };
  if (a.kind == 0) return call_b(Sphere(a.radius));
  if (a.kind == 1) return call_b(Capsule(a.radius, a.half_length));
  return call_b(Box(a.half_extents));
}

/// Minimum distance between the two capsule axes by dense sampling (upper bound on the true one).
double sampled_axis_distance(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb) {
  constexpr int kSteps = 100;
  double best = std::numeric_limits<double>::infinity();
  for (int i = 0; i <= kSteps; ++i) {
    const Vec3 x = pa.apply(Vec3(0, 0, a.half_length * (2.0 * i / kSteps - 1)));
    for (int j = 0; j <= kSteps; ++j) {
      best = std::min(best, (x - pb.apply(Vec3(0, 0, b.half_length * (2.0 * j / kSteps - 1)))).norm());
    }
  }
  return best;
}

/// The seeded draws of the property tests below: a generator, uniform [0, 1) and standard normal
/// variates, log-uniform magnitudes and uniform unit vectors.
struct Draws {
  explicit Draws(unsigned seed) : rng(seed) {}
  std::mt19937_64 rng;
  std::uniform_real_distribution<double> u{0, 1};
  std::normal_distribution<double> g;
  double log_uniform(double lo, double hi) { return lo * std::pow(hi / lo, u(rng)); }
  Vec3 unit() {
    Vec3 v{g(rng), g(rng), g(rng)};
    return Vec3(v.normalized());
  }
};

TEST(ClosedFormDistance, AgreesWithGjkAndCertificates) {
  const unsigned seed = 20261123;
  Draws draw(seed);
  auto& rng = draw.rng;
  auto& u = draw.u;
  auto& g = draw.g;
  const auto rotation = [&] { return proxima::test::draw_quaternion_pose(g, rng).rotation(); };
  const std::array<std::array<int, 2>, 6> kinds = {{{0, 0}, {0, 2}, {2, 0}, {0, 1}, {1, 0}, {1, 1}}};
  std::map<std::string, int> mix;
  int failures = 0;
  for (int c = 0; c < 2400 && failures < 10; ++c) {
    const auto [ka, kb] = kinds[static_cast<std::size_t>(c) % kinds.size()];
    const double scale = draw.log_uniform(1e-3, 1e5);
    const auto make = [&](int kind) {
      Shape s;
      s.kind = kind;
      s.radius = scale * draw.log_uniform(0.05, 1);
      s.half_length = scale * draw.log_uniform(0.05, 2);
      s.half_extents = scale * Vec3(draw.log_uniform(0.05, 1), draw.log_uniform(0.05, 1), draw.log_uniform(0.05, 1));
      return s;
    };
    const Shape a = make(ka);
    const Shape b = make(kb);
    const Vec3 origin = draw.log_uniform(1e-2, 1e5) * draw.unit();
    Mat3 ra = rotation();
    Mat3 rb = rotation();
    const int nasty = c % 10;
    std::string family = "random";
    if (ka == 1 && kb == 1 && nasty == 1) {  // parallel axes (exactly), side by side or end to end
      rb = ra;
      family = "parallel_capsules";
    } else if (ka == 1 && kb == 1 && nasty == 3) {  // crossing axes
      family = "crossing_capsules";
    }
    const Pose pa = Pose::from_matrix(ra, origin);
    // B at factor times a rough touching distance along a random direction: about half overlap.
    const Vec3 dir = draw.unit();
    const double reach = support(a, Pose::from_matrix(ra, Vec3::Zero()), dir) +
                         support(b, Pose::from_matrix(rb, Vec3::Zero()), -dir);
    double factor = 0.5 + u(rng);
    if (family == "crossing_capsules") factor = 0;
    if (nasty == 3 && (ka == 2 || kb == 2)) factor = 0.05, family = "centre_inside_box";
    Pose pb = Pose::from_matrix(rb, origin + factor * reach * dir);
    if (nasty == 4 && ka == 0 && kb == 0) {  // exact touching of spheres along x
      pb = Pose::from_matrix(rb, origin + Vec3(a.radius + b.radius, 0, 0));
      family = "touching_spheres";
    }
    const DistanceResult cf = with_types(a, b, [&](const auto& sa, const auto& sb) {
      // with_types instantiates every combination; only the closed-form ones are reached.
      if constexpr (gjk::has_closed_form_distance<std::decay_t<decltype(sa)>, std::decay_t<decltype(sb)>>) {
        return gjk::distance(sa, pa, sb, pb);
      } else {
        return DistanceResult{};  // gap NaN: fails the checks below
      }
    });
    const DistanceResult gj = with_types(a, b, [&](const auto& sa, const auto& sb) {
      return gjk::distance(sa, pa, sb, pb, {.closed_forms = false});
    });
    const double size = std::max({a.radius, a.half_length, a.half_extents.maxCoeff(), b.radius, b.half_length,
                                  b.half_extents.maxCoeff()});
    const double tol = 1e-9 * (size + cf.distance) + 1e-13 * origin.norm();
    std::ostringstream what;
    what.precision(17);
    what << "seed " << seed << " case " << c << " (" << family << ", kinds " << ka << "-" << kb << "): closed form "
         << cf.distance << " gjk " << gj.distance << " tol " << tol;
    bool ok = cf.iterations == 0 && cf.gap == 0 && cf.status == Status::converged;
    // The intersect flags may differ only within rounding of exact touching.
    ok = ok && std::abs(cf.distance - gj.distance) <= tol &&
         (cf.intersect == gj.intersect || std::max(cf.distance, gj.distance) <= tol);
    if (cf.intersect) {
      ok = ok && cf.distance == 0 && cf.point_a == cf.point_b;
      ok = ok && outside_by(a, pa, cf.point_a) <= tol && outside_by(b, pb, cf.point_a) <= tol;
    } else {
      const Vec3& n = cf.normal;
      ok = ok && std::abs(n.norm() - 1) <= 1e-12;
      ok = ok && std::abs((cf.point_b - cf.point_a).norm() - cf.distance) <= tol;
      ok = ok && outside_by(a, pa, cf.point_a) <= tol && outside_by(b, pb, cf.point_b) <= tol;
      // No closer pair exists: the slab between the support planes along n is distance wide.
      const double separation = -support(b, pb, -n) - support(a, pa, n);
      ok = ok && separation >= cf.distance - tol;
    }
    if (ka == 1 && kb == 1) {
      const double sampled = sampled_axis_distance(a, pa, b, pb) - a.radius - b.radius;
      const double step = 2 * std::max(a.half_length, b.half_length) / 100;
      ok = ok && cf.distance <= std::max(sampled, 0.0) + tol && std::max(sampled, 0.0) <= cf.distance + step + tol;
    }
    if (!ok) {
      ++failures;
      ADD_FAILURE() << what.str();
    }
    ++mix[family];
    ++mix[cf.intersect ? "overlap" : "separated"];
  }
  EXPECT_GE(mix["separated"], 800);
  EXPECT_GE(mix["overlap"], 800);
  EXPECT_GE(mix["parallel_capsules"], 40);
  EXPECT_GE(mix["crossing_capsules"], 40);
  EXPECT_GE(mix["centre_inside_box"], 40);
  EXPECT_GE(mix["touching_spheres"], 40);
}

/// The capsule pair's segment solve (detail::closest_on_unit_segments) against the optimality
/// conditions of the convex problem min |c2(t) - c1(s)|^2, |s| <= h1, |t| <= h2, which certify a
/// global minimum: with w = c2 - c1, where s can move down u1.w >= 0, where it can move up
/// u1.w <= 0 (and the same for t with the sign of u2.w reversed), each to a tolerance; the points
/// must lie on their segments. Rotations from random quaternions; the second axis is the first
/// turned by 1e-17..1e-2 rad (nearly parallel, where 1 - b^2 cancels), exactly parallel, or
/// random; half-lengths 1e-3..1e3; centres up to 1e2 from the origin and 1e-4..1e4 apart.
TEST(ClosedFormDistance, CapsuleSegmentsMeetTheOptimalityConditions) {
  const unsigned seed = 20261126;
  Draws draw(seed);
  auto& rng = draw.rng;
  auto& g = draw.g;
  std::map<std::string, int> mix;
  int failures = 0;
  for (int c = 0; c < 20000 && failures < 10; ++c) {
    const Pose pa = proxima::test::draw_quaternion_pose(g, rng);
    Pose pb = proxima::test::draw_quaternion_pose(g, rng);
    const int family = c % 4;  // 0 random, 1 nearly parallel, 2 parallel, 3 nearly antiparallel
    if (family == 1 || family == 3) {
      // Turn A's rotation by a tiny angle about a random axis (and by pi about x for family 3).
      const double angle = draw.log_uniform(1e-17, 1e-2);
      const Vec3 axis = draw.unit();
      Mat3 turn = Eigen::AngleAxisd(angle, axis).toRotationMatrix();
      if (family == 3) turn = turn * Eigen::AngleAxisd(std::numbers::pi, Vec3::UnitX()).toRotationMatrix();
      pb = Pose::from_matrix(pa.rotation() * turn, Vec3::Zero());
    } else if (family == 2) {
      pb = Pose::from_matrix(pa.rotation(), Vec3::Zero());
    }
    const double h1 = draw.log_uniform(1e-3, 1e3);
    const double h2 = draw.log_uniform(1e-3, 1e3);
    const Vec3 m1 = draw.log_uniform(1e-3, 1e2) * draw.unit();
    const Vec3 m2 = m1 + draw.log_uniform(1e-4, 1e4) * draw.unit();
    const Vec3 u1 = pa.rotation().col(2);
    const Vec3 u2 = pb.rotation().col(2);
    Vec3 c1, c2;
    gjk::detail::closest_on_unit_segments(m1, u1, h1, m2, u2, h2, c1, c2);
    const double s = u1.dot(c1 - m1);
    const double t = u2.dot(c2 - m2);
    // Rounding scales with the coordinates: the segments' extent and the centres' distance
    // from the origin (s and t are read back from the points).
    const double size = h1 + h2 + (m2 - m1).norm() + m1.norm();
    const double tol = 1e-12 * size;
    const Vec3 w = c2 - c1;
    const double g1 = u1.dot(w);
    const double g2 = u2.dot(w);
    bool ok = std::abs(s) <= h1 + tol && std::abs(t) <= h2 + tol;
    ok = ok && (c1 - m1 - s * u1).norm() <= tol && (c2 - m2 - t * u2).norm() <= tol;
    if (s > -h1 + tol) ok = ok && g1 >= -tol;  // moving c1 down the axis does not help
    if (s < h1 - tol) ok = ok && g1 <= tol;    // nor up
    if (t > -h2 + tol) ok = ok && g2 <= tol;
    if (t < h2 - tol) ok = ok && g2 >= -tol;
    if (!ok) {
      ++failures;
      std::ostringstream what;
      what.precision(17);
      what << "seed " << seed << " case " << c << " (family " << family << "): s " << s << " / " << h1 << " t " << t
           << " / " << h2 << " u1.w " << g1 << " u2.w " << g2 << " tol " << tol;
      ADD_FAILURE() << what.str();
    }
    const bool s_inside = std::abs(s) < h1 - tol;
    const bool t_inside = std::abs(t) < h2 - tol;
    ++mix[s_inside && t_inside ? "both_inside" : (s_inside || t_inside ? "one_inside" : "both_ends")];
  }
  EXPECT_GE(mix["both_inside"], 500);
  EXPECT_GE(mix["one_inside"], 500);
  EXPECT_GE(mix["both_ends"], 500);
}

/// closest_on_unit_segments<true> takes s = +-h1 without dividing where |num| > h1 denom
/// (1 + 2^-44): the same points bit for bit as dividing first (closest_on_unit_segments<false>,
/// the form revolution_overlap.hpp keeps and the only one before session 34). Seeded pairs of four kinds: random; the
/// unconstrained s placed at h1 (1 + delta) or -h1 (1 + delta) with |delta| from 1e-17 to 1e-1
/// of either sign (the test's boundary, where a slack too small would clamp a quotient that
/// rounds inside); nearly parallel and parallel axes (Lagrange's branch, denom 0).
TEST(ClosedFormDistance, CapsuleSegmentsClampWithoutDivisionBitForBit) {
  const unsigned seed = 20261130;
  Draws draw(seed);
  auto& rng = draw.rng;
  auto& g = draw.g;
  const auto same = [](const Vec3& x, const Vec3& y) {
    return std::memcmp(x.data(), y.data(), 3 * sizeof(double)) == 0;
  };
  int failures = 0;
  int clamped = 0;
  int inside = 0;
  for (int c = 0; c < 40000 && failures < 10; ++c) {
    const int family = c % 4;  // 0 random, 1 s near +h1, 2 s near -h1, 3 nearly parallel or parallel
    const Pose pa = proxima::test::draw_quaternion_pose(g, rng);
    Pose pb = proxima::test::draw_quaternion_pose(g, rng);
    if (family == 3) {
      const double angle = c % 8 == 3 ? 0.0 : draw.log_uniform(1e-17, 1e-3);
      const Mat3 turn = Eigen::AngleAxisd(angle, draw.unit()).toRotationMatrix();
      pb = Pose::from_matrix(pa.rotation() * turn, Vec3::Zero());
    }
    const Vec3 u1 = pa.rotation().col(2);
    const Vec3 u2 = pb.rotation().col(2);
    const double h1 = draw.log_uniform(1e-3, 1e3);
    const double h2 = draw.log_uniform(1e-3, 1e3);
    const Vec3 m1 = draw.log_uniform(1e-3, 1e2) * draw.unit();
    Vec3 m2 = m1 + draw.log_uniform(1e-4, 1e4) * draw.unit();
    if (family == 1 || family == 2) {
      // The lines' closest points at s* = +-h1 (1 + delta) on A's axis and t* on B's, apart
      // along u1 x u2: m2 = m1 + s* u1 + gap - t* u2.
      const double delta = (draw.u(rng) < 0.5 ? -1 : 1) * draw.log_uniform(1e-17, 1e-1);
      const double s_star = (family == 1 ? h1 : -h1) * (1 + delta);
      const double t_star = (2 * draw.u(rng) - 1) * 1.5 * h2;
      const Vec3 gap = draw.log_uniform(1e-4, 1e2) * u1.cross(u2).normalized();
      m2 = m1 + s_star * u1 + gap - t_star * u2;
    }
    Vec3 c1, c2, r1, r2;
    gjk::detail::closest_on_unit_segments<true>(m1, u1, h1, m2, u2, h2, c1, c2);
    gjk::detail::closest_on_unit_segments<false>(m1, u1, h1, m2, u2, h2, r1, r2);
    const double s = u1.dot(r1 - m1);
    ++(std::abs(s) >= h1 * (1 - 1e-12) ? clamped : inside);
    if (!same(c1, r1) || !same(c2, r2)) {
      ++failures;
      std::ostringstream what;
      what.precision(17);
      what << "seed " << seed << " case " << c << " (family " << family << "): points (" << c1.transpose() << ") ("
           << c2.transpose() << ") against dividing first (" << r1.transpose() << ") (" << r2.transpose() << ")";
      ADD_FAILURE() << what.str();
    }
  }
  // Both sides of the clamp are reached.
  EXPECT_GE(clamped, 5000);
  EXPECT_GE(inside, 5000);
}

/// Every field of the rounded pairs' answers (sphere and capsule in any combination) as
/// gjk::distance documents them, through the cold overload (the closed form in line in the
/// caller, fields given one by one) and the warm one (distance_impl): gap 0, iterations 0,
/// converged, detail none; overlapping: distance exactly 0, point_a == point_b inside both shapes,
/// normal NaN; separated: the normal unit, the points on the shapes' surfaces at the distance, the
/// distance within the dense sampling of the axes (the independent oracle); both overloads agree
/// bit for bit; out of scale range: no answer (NaN, degenerate_input, scale_out_of_range).
TEST(ClosedFormDistance, RoundedPairsFillEveryField) {
  const unsigned seed = 20261129;
  Draws draw(seed);
  auto& rng = draw.rng;
  auto& u = draw.u;
  auto& g = draw.g;
  const std::array<std::array<int, 2>, 4> kinds = {{{1, 1}, {0, 0}, {0, 1}, {1, 0}}};
  std::map<std::string, int> mix;
  int failures = 0;
  for (int c = 0; c < 2000 && failures < 10; ++c) {
    const auto [ka, kb] = kinds[static_cast<std::size_t>(c) % kinds.size()];
    const double scale = draw.log_uniform(1e-2, 1e3);
    const auto make = [&](int kind) {
      Shape s;
      s.kind = kind;
      s.radius = scale * draw.log_uniform(0.05, 1);
      // A sphere is a point core (half_length 0 for the sampling below); now and then a capsule
      // whose segment is nearly a point (Capsule rejects a zero half-length).
      if (kind == 1) s.half_length = scale * (c % 13 == 0 ? 1e-12 : draw.log_uniform(0.05, 2));
      return s;
    };
    const Shape a = make(ka);
    const Shape b = make(kb);
    const Pose pa = proxima::test::draw_quaternion_pose(g, rng);
    const Pose pa_at = Pose::from_matrix(pa.rotation(), scale * Vec3{u(rng), u(rng), u(rng)});
    const Vec3 dir = draw.unit();
    Mat3 rb = proxima::test::draw_quaternion_pose(g, rng).rotation();
    if (c % 7 == 0) rb = pa.rotation();  // parallel axes
    const double reach = support(a, Pose::from_matrix(pa.rotation(), Vec3::Zero()), dir) +
                         support(b, Pose::from_matrix(rb, Vec3::Zero()), -dir);
    const Pose pb = Pose::from_matrix(rb, pa_at.translation() + (0.5 + u(rng)) * reach * dir);
    gjk::WarmStart warm;
    const DistanceResult cold = with_types(a, b, [&](const auto& sa, const auto& sb) {
      if constexpr (gjk::has_closed_form_distance<std::decay_t<decltype(sa)>, std::decay_t<decltype(sb)>>) {
        return gjk::distance(sa, pa_at, sb, pb);
      } else {
        return DistanceResult{};  // not reached (no box here)
      }
    });
    const DistanceResult warmed = with_types(a, b, [&](const auto& sa, const auto& sb) {
      return gjk::distance(sa, pa_at, sb, pb, gjk::GjkOptions{}, warm);
    });
    const double size = std::max({a.radius, a.half_length, b.radius, b.half_length});
    const double tol = 1e-12 * (size + scale);
    bool ok = cold.gap == 0 && cold.iterations == 0 && cold.status == Status::converged &&
              cold.detail == Detail::none;
    if (cold.intersect) {
      ok = ok && cold.distance == 0 && cold.point_a == cold.point_b && cold.normal.array().isNaN().all();
      ok = ok && outside_by(a, pa_at, cold.point_a) <= tol && outside_by(b, pb, cold.point_a) <= tol;
    } else {
      ok = ok && cold.distance > 0 && std::abs(cold.normal.norm() - 1) <= 1e-15 * 4;
      ok = ok && ((cold.point_b - cold.point_a) - cold.distance * cold.normal).norm() <= tol;
      ok = ok && outside_by(a, pa_at, cold.point_a) <= tol && outside_by(b, pb, cold.point_b) <= tol;
    }
    // Independent oracle: the axes' (or centres') distance by dense sampling, less the radii.
    const double sampled = std::max(0.0, sampled_axis_distance(a, pa_at, b, pb) - a.radius - b.radius);
    const double step = 2 * std::max(a.half_length, b.half_length) / 100;
    ok = ok && cold.distance <= sampled + tol && sampled <= cold.distance + step + tol;
    // Both overloads: the same closed form, bit for bit (NaN normals compared as NaN).
    const auto same = [](const Vec3& x, const Vec3& y) {
      return x == y || (x.array().isNaN().all() && y.array().isNaN().all());
    };
    ok = ok && std::bit_cast<std::uint64_t>(cold.distance) == std::bit_cast<std::uint64_t>(warmed.distance) &&
         cold.intersect == warmed.intersect && cold.point_a == warmed.point_a && cold.point_b == warmed.point_b &&
         same(cold.normal, warmed.normal) && cold.gap == warmed.gap && cold.status == warmed.status &&
         cold.detail == warmed.detail && cold.iterations == warmed.iterations;
    if (!ok) {
      ++failures;
      ADD_FAILURE() << "seed " << seed << " case " << c << " kinds " << ka << "-" << kb << ": distance "
                    << cold.distance << " sampled " << sampled << " intersect " << cold.intersect;
    }
    ++mix[cold.intersect ? "overlap" : "separated"];
    if (ka == 1 && kb == 1) ++mix["capsules"];
  }
  EXPECT_EQ(failures, 0);
  EXPECT_GE(mix["overlap"], 400);
  EXPECT_GE(mix["separated"], 400);
  EXPECT_GE(mix["capsules"], 500);
  // Out of the scale range (tolerance.hpp): no answer.
  const DistanceResult huge = gjk::distance(Capsule(1e300, 1e300), Pose(), Capsule(1, 1), Pose());
  EXPECT_TRUE(std::isnan(huge.distance));
  EXPECT_FALSE(huge.intersect);
  EXPECT_EQ(huge.status, Status::degenerate_input);
  EXPECT_EQ(huge.detail, Detail::scale_out_of_range);
}

/// The separated answer's normal is diff * (|diff| / |diff|^2) (session 34). Where |diff|^2 is
/// below the normal range its reciprocal would overflow to infinity, so rounded_answer divides by
/// |diff| there: a sphere of radius 1e-200 beside a capsule's axis at 1e-155 (|diff|^2 = 1e-310,
/// subnormal) and, on the fast path, at 1e-150, 1 and 1e20. Each answer is finite, separated, with
/// a unit normal along x and the distance to 1e-9 relative (the subnormal square keeps about
/// 13 digits).
TEST(ClosedFormDistance, RoundedAnswerNormalBelowTheNormalRange) {
  const Capsule capsule(1e-200, 1);
  for (const double gap : {1e-155, 1e-150, 1.0, 1e20}) {
    const DistanceResult r =
        gjk::distance(Sphere(1e-200), Pose::from_translation(Vec3(gap, 0, 0.5)), capsule, Pose());
    SCOPED_TRACE(gap);
    EXPECT_FALSE(r.intersect);
    EXPECT_TRUE(r.normal.allFinite());
    EXPECT_NEAR(r.normal.norm(), 1, 1e-12);
    EXPECT_NEAR((r.normal + Vec3::UnitX()).norm(), 0, 1e-12);  // A (the sphere) -> B (the axis): -x
    EXPECT_NEAR(r.distance / gap, 1, 1e-9);
    EXPECT_TRUE(r.point_a.allFinite() && r.point_b.allFinite());
  }
}

TEST(ClosedFormDistance, HandPickedCases) {
  // Parallel capsules side by side: axes 3 apart, radii 0.5 each.
  const Capsule c(0.5, 2);
  const DistanceResult side = gjk::distance(c, Pose(), c, Pose::from_translation(Vec3(3, 0, 1)));
  EXPECT_NEAR(side.distance, 2, 1e-15);
  EXPECT_NEAR((side.normal - Vec3::UnitX()).norm(), 0, 1e-15);
  // End to end along the axis.
  const DistanceResult ends = gjk::distance(c, Pose(), c, Pose::from_translation(Vec3(0, 0, 6)));
  EXPECT_NEAR(ends.distance, 1, 1e-15);
  // Sphere centre inside a box: overlap, common point the centre.
  const DistanceResult inside =
      gjk::distance(Sphere(0.1), Pose::from_translation(Vec3(0.2, 0, 0)), Box(Vec3(1, 1, 1)), Pose());
  EXPECT_TRUE(inside.intersect);
  EXPECT_EQ(inside.point_a, Vec3(0.2, 0, 0));
  // Box then sphere: swapped answer, normal from the box to the sphere.
  const DistanceResult bs =
      gjk::distance(Box(Vec3(1, 1, 1)), Pose(), Sphere(0.5), Pose::from_translation(Vec3(3, 0, 0)));
  EXPECT_NEAR(bs.distance, 1.5, 1e-15);
  EXPECT_NEAR((bs.normal - Vec3::UnitX()).norm(), 0, 1e-15);
  EXPECT_NEAR((bs.point_a - Vec3(1, 0, 0)).norm(), 0, 1e-15);
  EXPECT_NEAR((bs.point_b - Vec3(2.5, 0, 0)).norm(), 0, 1e-15);
  // Sphere beside a capsule's cap.
  const DistanceResult sc = gjk::distance(Sphere(1), Pose::from_translation(Vec3(0, 0, 5)), c, Pose());
  EXPECT_NEAR(sc.distance, 1.5, 1e-15);
  EXPECT_NEAR((sc.normal + Vec3::UnitZ()).norm(), 0, 1e-15);
}

}  // namespace
}  // namespace proxima
