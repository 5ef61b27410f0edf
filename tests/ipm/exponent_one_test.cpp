// SPDX-License-Identifier: MIT
// ipm::Object with superquadric exponents of exactly 1 cut by planes (docs/reliability.md,
// "Implicit objects near exponent 1", item 2). Before the set-up solves used the epigraph
// reformulation, phase one stopped at a positive margin on such objects and refused them as
// "empty or has no interior" (the superquadric (1, 1.75, 3.5), exponents (1, 1, 1.45), cut by
// x + y + z <= 0: largest margin -0.62). Here they must be accepted, their boxes and spheres
// must contain them, their distances must agree with independent oracles, and objects that
// truly are empty or have no interior must still be refused.
//
// Oracles, independent of the interior-point solver:
//  - octahedra (all three exponents 1) cut by a plane are polytopes: GJK on the hull of their
//    vertices (every triple of the nine planes, kept when inside all of them);
//  - superquadrics with exponents (1, 1, e) cut by a plane, to a point: slices. At height z the
//    slice is a polygon (a diamond clipped by a line) whose distance to the point is closed-form,
//    and the distance is convex in z: golden-section search, exact to rounding (1e-9 here);
//  - any object to a point: a random search over points Object::contains (the parts' own
//    values), an upper bound only (it stalls near edges and vertices), against which the
//    answer's certified lower bound (distance - gap) must never lie;
//  - box and sphere: rejection samples of the object (Object::contains) must lie in them.
#include <proxima/core/error.hpp>
#include <proxima/gjk/distance.hpp>
#include <proxima/ipm/distance.hpp>
#include <proxima/ipm/object.hpp>
#include <proxima/shapes/ellipsoid.hpp>
#include <proxima/shapes/polytope.hpp>
#include "support/draws.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace proxima::ipm {
namespace {

/// True when the world point p lies in o placed by pose (the parts' own values).
bool contains_world(const Object& o, const Pose& pose, const Vec3& p) { return o.contains(pose.apply_inverse(p)); }

/// Random-search upper bound of the distance from the world point c to a (placed by pose). A
/// draw uniform in a ball about the best point so far that falls outside a is moved towards a's
/// interior point o onto the boundary (bisection on the segment by Object::contains, 60 steps:
/// the point kept is contained), so every draw is a point of a; it is kept when closer to c. A
/// round of `per_round` draws without a closer point halves the ball (success keeps it), for at
/// most `rounds` rounds or until the ball is below 1e-13 of the start. NaN if o is not
/// contained.
double search_point_distance(const Object& a, const Pose& pose, const Vec3& c, double radius, std::mt19937_64& rng,
                             int rounds = 400, int per_round = 200) {
  const Vec3 o = pose.apply(a.interior_point());
  if (!contains_world(a, pose, o)) return std::nan("");
  Vec3 p = o;
  double best = (p - c).norm();
  std::uniform_real_distribution<double> u(-1, 1);
  const double smallest = 1e-13 * radius;
  for (int round = 0; round < rounds && radius > smallest; ++round) {
    bool improved = false;
    for (int k = 0; k < per_round; ++k) {
      const Vec3 d{u(rng), u(rng), u(rng)};
      if (d.squaredNorm() > 1) continue;  // uniform in the ball by rejection from the cube
      Vec3 q = p + radius * d;
      if (!contains_world(a, pose, q)) {
        double lo = 0, hi = 1;  // o + lo (q - o) is contained, o + hi (q - o) is not
        for (int step = 0; step < 60; ++step) {
          const double mid = (lo + hi) / 2;
          (contains_world(a, pose, o + mid * (q - o)) ? lo : hi) = mid;
        }
        q = o + lo * (q - o);
      }
      const double dist = (q - c).norm();
      if (dist < best) {
        best = dist;
        p = q;
        improved = true;
      }
    }
    if (!improved) radius /= 2;
  }
  return best;
}

/// Distance from the point q to the convex polygon `poly` (counter-clockwise; 1 or 2 vertices,
/// or repeated ones, allowed): 0 inside, else the nearest edge or vertex.
double point_polygon_distance(const std::vector<Eigen::Vector2d>& poly, const Eigen::Vector2d& q) {
  const std::size_t n = poly.size();
  if (n == 1) return (q - poly[0]).norm();
  // Inside only a polygon of positive area (a slice shrunk to a point or a segment has none).
  double area = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Eigen::Vector2d p0 = poly[i], p1 = poly[(i + 1) % n];
    area += p0.x() * p1.y() - p0.y() * p1.x();
  }
  bool inside = n >= 3 && area > 0;
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < n; ++i) {
    const Eigen::Vector2d p0 = poly[i], p1 = poly[(i + 1) % n], e = p1 - p0, w = q - p0;
    if (e.x() * w.y() - e.y() * w.x() < 0) inside = false;
    const double t = e.squaredNorm() > 0 ? std::clamp(w.dot(e) / e.squaredNorm(), 0.0, 1.0) : 0.0;
    best = std::min(best, (w - t * e).norm());
  }
  return inside ? 0 : best;
}

/// Exact-to-rounding distance from the point c (object frame) to the superquadric with
/// semiaxes a and exponents (1, 1, e) cut by n . x <= offset, by slicing: at height z the slice
/// is the diamond |x|/a_x + |y|/a_y <= k(z) = 1 - |z/a_z|^e clipped by a line, a polygon whose
/// distance to (c_x, c_y) is closed-form; F(z) = sqrt(that^2 + (z - c_z)^2) is convex on the
/// interval of z whose slices are not empty (a partial minimum of a convex function over a
/// convex set), so golden-section search finds its minimum. Independent of the solver.
double sliced_distance(const Vec3& a, double e, const Vec3& n, double offset, const Vec3& c) {
  const double m = std::max(a.x() * std::abs(n.x()), a.y() * std::abs(n.y()));
  auto k = [&](double z) { return 1 - std::pow(std::abs(z / a.z()), e); };
  // Slice z is non-empty when k >= 0 and the line leaves part of the diamond: n_z z - k m <= offset.
  auto feasible = [&](double z) { return std::abs(z) <= a.z() && n.z() * z - k(z) * m <= offset; };
  auto slice = [&](double z) {
    const double kz = std::max(k(z), 0.0);
    const std::vector<Eigen::Vector2d> diamond = {{kz * a.x(), 0}, {0, kz * a.y()}, {-kz * a.x(), 0}, {0, -kz * a.y()}};
    const Eigen::Vector2d nn(n.x(), n.y());
    const double r = offset - n.z() * z;
    std::vector<Eigen::Vector2d> out;
    for (std::size_t i = 0; i < 4; ++i) {
      const Eigen::Vector2d p = diamond[i], q = diamond[(i + 1) % 4];
      const double hp = nn.dot(p) - r, hq = nn.dot(q) - r;
      if (hp <= 0) out.push_back(p);
      if ((hp < 0 && hq > 0) || (hp > 0 && hq < 0)) out.push_back(p + (hp / (hp - hq)) * (q - p));
    }
    if (out.empty()) out.push_back(Eigen::Vector2d::Zero());  // only at the interval's rounding ends
    return out;
  };
  auto f = [&](double z) {
    const double d2 = point_polygon_distance(slice(z), Eigen::Vector2d(c.x(), c.y()));
    return std::sqrt(d2 * d2 + (z - c.z()) * (z - c.z()));
  };
  // The feasible interval [lo, hi]: a feasible point first (a coarse scan), then bisection.
  double inner = std::nan("");
  for (int i = 0; i <= 4000 && std::isnan(inner); ++i) {
    const double z = a.z() * (-1 + i / 2000.0);
    if (feasible(z)) inner = z;
  }
  if (std::isnan(inner)) return std::nan("");
  auto edge = [&](double outside) {
    double in = inner, out = outside;
    if (feasible(out)) return out;
    for (int s = 0; s < 200; ++s) {
      const double mid = (in + out) / 2;
      (feasible(mid) ? in : out) = mid;
    }
    return in;
  };
  double lo = edge(-a.z()), hi = edge(a.z());
  const double ratio = (std::sqrt(5.0) - 1) / 2;
  for (int s = 0; s < 300 && hi - lo > 0; ++s) {
    const double z1 = hi - ratio * (hi - lo), z2 = lo + ratio * (hi - lo);
    (f(z1) <= f(z2) ? hi : lo) = f(z1) <= f(z2) ? z2 : z1;
  }
  return f((lo + hi) / 2);
}

/// How far rejection samples of o (uniform in [-extent, extent]^3, object frame) reach outside
/// its box or sphere; counts the samples kept.
double worst_outside(const Object& o, const Vec3& extent, std::mt19937_64& rng, int samples, int& kept) {
  std::uniform_real_distribution<double> u(-1, 1);
  double worst = 0;
  for (int s = 0; s < samples; ++s) {
    const Vec3 p{extent.x() * u(rng), extent.y() * u(rng), extent.z() * u(rng)};
    if (!o.contains(p)) continue;
    ++kept;
    for (int i = 0; i < 3; ++i) worst = std::max({worst, o.local_aabb().min(i) - p(i), p(i) - o.local_aabb().max(i)});
    worst = std::max(worst, (p - o.bounding_sphere().center).norm() - o.bounding_sphere().radius);
  }
  return worst;
}

/// The ipm distance from a (placed by pa) to a ball of radius rho about the world point c, and
/// the check of its certificate: the answer's own lower bound (distance - gap) is at most an
/// upper bound found by the random search (never above the true distance). Returns the answer.
DistanceResult checked_ball_distance(const Object& a, const Pose& pa, const Vec3& c, double rho, std::mt19937_64& rng) {
  const Object ball{Quadric::ellipsoid(Vec3::Constant(rho))};
  const DistanceResult r = distance(a, pa, ball, Pose::from_translation(c));
  EXPECT_EQ(r.status, Status::converged);
  EXPECT_FALSE(r.intersect) << "the ball is placed apart";
  const double searched = search_point_distance(a, pa, c, 1.0, rng) - rho;
  EXPECT_TRUE(std::isfinite(searched));
  EXPECT_LE(r.distance - r.gap, searched + 1e-12) << "certified lower bound above a found point";
  // The search is only an upper bound (it stalls near edges and vertices, by up to ~1e-2 here).
  EXPECT_LE(searched - r.distance, 3e-2 * r.distance) << "ipm " << r.distance << " search " << searched;
  return r;
}

/// checked_ball_distance, and agreement with the sliced oracle to 1e-9 relative for the
/// superquadric (a; 1, 1, e) cut by n . x <= offset (its only parts), placed by pa.
void expect_agrees_with_slices(const Object& o, const Pose& pa, const Vec3& a, double e, const Vec3& n, double offset,
                               const Vec3& c, double rho, std::mt19937_64& rng) {
  const DistanceResult r = checked_ball_distance(o, pa, c, rho, rng);
  const double exact = sliced_distance(a, e, n.normalized(), offset / n.norm(), pa.apply_inverse(c)) - rho;
  ASSERT_TRUE(std::isfinite(exact));
  EXPECT_LE(r.distance - r.gap, exact + 1e-9 * exact) << "certified lower bound above the distance";
  EXPECT_NEAR(r.distance, exact, 1e-9 * exact)
      << std::setprecision(17) << "ipm " << r.distance << " (gap " << r.gap << ") sliced " << exact << "; a = "
      << a.transpose() << ", e = " << e << ", n = " << n.transpose() << ", offset " << offset << ", c = " << c.transpose()
      << ", rho " << rho << ", pose rotation rows " << pa.rotation().row(0) << "; " << pa.rotation().row(1) << "; "
      << pa.rotation().row(2) << ", translation " << pa.translation().transpose();
}

/// The superquadric of the report (docs/reliability.md): semiaxes (1, 1.75, 3.5), exponents
/// (1, 1, 1.45), cut by x + y + z <= 0 through its centre.
Object reported_object() {
  std::vector<Part> parts;
  parts.emplace_back(Superquadric(Vec3(1, 1.75, 3.5), Vec3(1, 1, 1.45)));
  parts.emplace_back(Halfspace(Vec3(1, 1, 1), 0));
  return Object(std::move(parts));
}

TEST(IpmExponentOne, ReportedObjectIsAcceptedBoundedAndItsDistancesAgree) {
  const std::uint64_t seed = 31;
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const Object o = reported_object();
  EXPECT_TRUE(o.contains(o.interior_point()));
  int kept = 0;
  EXPECT_LE(worst_outside(o, Vec3(1, 1.75, 3.5), rng, 40000, kept), 1e-9);
  EXPECT_GT(kept, 4000);
  // Its box is the cut superquadric's: x in [-1, 1], y in [-1.75, 1.75], z in [-3.5, 1.75 + 1]
  // at most (the plane), and at least the extents of the samples.
  // Distances to balls of three radii in random directions, the object rotated and moved.
  std::normal_distribution<double> g(0, 1);
  for (double rho : {0.2, 0.5, 1.0}) {
    for (int trial = 0; trial < 4; ++trial) {
      SCOPED_TRACE("rho " + std::to_string(rho) + " trial " + std::to_string(trial));
      const Vec3 dir = Vec3{g(rng), g(rng), g(rng)}.normalized();
      const Pose pa = trial % 2 == 0 ? Pose() : test::draw_euler_pose(g, rng, Vec3(0.3, -0.2, 0.1));
      expect_agrees_with_slices(o, pa, Vec3(1, 1.75, 3.5), 1.45, Vec3(1, 1, 1), 0, (4.2 + rho + 0.3 * trial) * dir,
                                rho, rng);
    }
  }
}

/// The octahedron |x/a| + |y/b| + |z/c| <= 1 cut by n . x <= offset as a vertex list: every
/// intersection of three of its nine planes that lies in all of them.
std::vector<Vec3> cut_octahedron_vertices(const Vec3& a, const Vec3& n, double offset) {
  std::vector<Vec3> normals;
  std::vector<double> offsets;
  for (int sx : {-1, 1}) {
    for (int sy : {-1, 1}) {
      for (int sz : {-1, 1}) {
        normals.emplace_back(sx / a.x(), sy / a.y(), sz / a.z());
        offsets.push_back(1);
      }
    }
  }
  normals.push_back(n);
  offsets.push_back(offset);
  std::vector<Vec3> vertices;
  const std::size_t m = normals.size();
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t j = i + 1; j < m; ++j) {
      for (std::size_t k = j + 1; k < m; ++k) {
        Mat3 rows;
        rows.row(0) = normals[i].transpose();
        rows.row(1) = normals[j].transpose();
        rows.row(2) = normals[k].transpose();
        if (std::abs(rows.determinant()) < 1e-9) continue;
        const Vec3 v = rows.inverse() * Vec3(offsets[i], offsets[j], offsets[k]);
        bool inside = true;
        for (std::size_t l = 0; l < m && inside; ++l) inside = normals[l].dot(v) <= offsets[l] + 1e-9;
        if (inside) vertices.push_back(v);
      }
    }
  }
  return vertices;
}

// A seeded family of octahedra (exponents exactly 1, any semiaxes in [0.5, 2.5]) cut by planes
// through or near their centres: every one accepted, box and sphere contain it, and its distance
// to an ellipsoid agrees with GJK on its vertex polytope. The mix is asserted: cuts through the
// centre, cuts leaving the centre inside and cuts leaving it outside.
TEST(IpmExponentOne, CutOctahedraAreAcceptedAndMatchTheirPolytopes) {
  const std::uint64_t seed = 1301;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::normal_distribution<double> g(0, 1);
  gjk::GjkOptions go;
  go.max_iterations = 1000;
  int through = 0, centre_in = 0, centre_out = 0, compared = 0;
  for (int trial = 0; trial < 60; ++trial) {
    SCOPED_TRACE("seed " + std::to_string(seed) + " trial " + std::to_string(trial));
    const Vec3 a{1.5 + u(rng), 1.5 + u(rng), 1.5 + u(rng)};
    const Vec3 n = Vec3{g(rng), g(rng), g(rng)}.normalized();
    // Through the centre, or within a fifth of the smallest semiaxis of it, on either side.
    const double offset = trial % 3 == 0 ? 0 : 0.2 * a.minCoeff() * u(rng);
    (offset == 0 ? through : offset > 0 ? centre_in : centre_out)++;
    std::vector<Part> parts;
    parts.emplace_back(Superquadric(a, Vec3(1, 1, 1)));
    parts.emplace_back(Halfspace(n, offset));
    std::unique_ptr<Object> o;
    try {
      o = std::make_unique<Object>(std::move(parts));
    } catch (const InvalidInput& e) {
      ADD_FAILURE() << "refused: " << e.what() << " a = " << a.transpose() << " n = " << n.transpose()
                    << " offset " << offset;
      continue;
    }
    EXPECT_TRUE(o->contains(o->interior_point()));
    int kept = 0;
    EXPECT_LE(worst_outside(*o, a, rng, 4000, kept), 1e-9 * a.maxCoeff());
    const std::vector<Vec3> vertices = cut_octahedron_vertices(a, n, offset);
    const Polytope poly(std::span<const Vec3>(vertices.data(), vertices.size()));
    const Vec3 e{0.3 + 0.5 * std::abs(u(rng)), 0.3 + 0.5 * std::abs(u(rng)), 0.3 + 0.5 * std::abs(u(rng))};
    const Object ellipsoid{Quadric::ellipsoid(e)};
    const Ellipsoid ellipsoid_shape(e);
    for (int k = 0; k < 3; ++k) {
      const Vec3 dir = Vec3{g(rng), g(rng), g(rng)}.normalized();
      const Pose pa = test::draw_euler_pose(g, rng);
      const Pose pb = test::draw_euler_pose(g, rng, (a.maxCoeff() + 0.2 + 0.5 * k) * dir);
      const DistanceResult ri = distance(*o, pa, ellipsoid, pb);
      const DistanceResult rg = gjk::distance(poly, pa, ellipsoid_shape, pb, go);
      EXPECT_EQ(ri.status, Status::converged);
      if (rg.status != Status::converged) continue;
      EXPECT_EQ(ri.intersect, rg.intersect) << "ipm " << ri.distance << " gjk " << rg.distance;
      if (ri.intersect || rg.intersect) continue;
      ++compared;
      EXPECT_NEAR(ri.distance, rg.distance, 1e-8 * (rg.distance + 1e-3) + rg.gap + ri.gap);
    }
  }
  EXPECT_EQ(through, 20);
  EXPECT_GE(centre_in, 12);
  EXPECT_GE(centre_out, 12);
  EXPECT_GE(compared, 100);
}

// Exponents of exactly 1 mixed with others, cut by planes through or near the centre: accepted,
// bounded, and their distances to balls certified soundly. Even trials: exponents (1, 1, e), e in
// [1, 4], rotated by the query pose, checked against the sliced oracle to 1e-9. Odd trials: one
// exponent 1 on a random axis and two in [1, 4], the part sheared: only the certificate against
// the random search (no exact oracle for these).
TEST(IpmExponentOne, MixedExponentsCutByPlanesAreAcceptedBoundedAndAgree) {
  const std::uint64_t seed = 1302;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::normal_distribution<double> g(0, 1);
  int two_ones = 0, one_one = 0, sliced = 0, searched = 0;
  for (int trial = 0; trial < 36; ++trial) {
    SCOPED_TRACE("seed " + std::to_string(seed) + " trial " + std::to_string(trial));
    const Vec3 a{1.5 + u(rng), 1.5 + u(rng), 1.5 + u(rng)};
    const bool exact = trial % 2 == 0;
    Vec3 e(1, 1, 1 + 3 * std::abs(u(rng)));
    Mat3 linear = Mat3::Identity();
    if (!exact) {
      e = Vec3{1 + 3 * std::abs(u(rng)), 1 + 3 * std::abs(u(rng)), 1 + 3 * std::abs(u(rng))};
      e(static_cast<int>(rng() % 3)) = 1;
      linear = test::draw_euler_pose(g, rng).rotation();
      linear(0, 1) += 0.4;
    }
    (exact ? two_ones : one_one)++;
    const Vec3 n = Vec3{g(rng), g(rng), g(rng)}.normalized();
    const double offset = trial % 3 == 0 ? 0 : 0.2 * a.minCoeff() * u(rng);
    std::vector<Part> parts;
    parts.emplace_back(Superquadric(a, e), linear, Vec3::Zero());
    parts.emplace_back(Halfspace(n, offset));
    std::unique_ptr<Object> o;
    try {
      o = std::make_unique<Object>(std::move(parts));
    } catch (const InvalidInput& ex) {
      ADD_FAILURE() << "refused: " << ex.what() << " a = " << a.transpose() << " e = " << e.transpose();
      continue;
    }
    EXPECT_TRUE(o->contains(o->interior_point()));
    int kept = 0;
    // The object lies in the ball of radius |linear| sqrt(3) max a < 2.5 max a.
    const double reach = 2.5 * a.maxCoeff();
    EXPECT_LE(worst_outside(*o, Vec3::Constant(reach), rng, 20000, kept), 1e-9 * reach);
    EXPECT_GT(kept, 0);
    const Vec3 dir = Vec3{g(rng), g(rng), g(rng)}.normalized();
    const Vec3 c = (reach + 0.8) * dir;
    if (exact) {
      const Pose pa = test::draw_euler_pose(g, rng, Vec3(0.1, 0.2, -0.3));
      expect_agrees_with_slices(*o, pa, a, e.z(), n, offset, c, 0.4, rng);
      ++sliced;
    } else {
      checked_ball_distance(*o, Pose(), c, 0.4, rng);
      ++searched;
    }
  }
  EXPECT_EQ(two_ones, 18);
  EXPECT_EQ(one_one, 18);
  EXPECT_EQ(sliced, 18);
  EXPECT_EQ(searched, 18);
}

// Objects with exponents of exactly 1 that have no interior, or are empty, are still refused
// with the clear error: a plane touching a vertex or a face, a plane beyond the tip, two
// octahedra apart.
TEST(IpmExponentOne, EmptyOrFlatIntersectionsAreStillRefused) {
  auto refusal = [](std::vector<Part> parts) -> std::string {
    try {
      const Object o(std::move(parts));
    } catch (const InvalidInput& e) {
      return e.field() + ": " + e.what();
    }
    return "";
  };
  const Superquadric octa(Vec3(1, 2, 3), Vec3(1, 1, 1));
  const Superquadric mixed(Vec3(1, 2, 3), Vec3(1, 1, 1.45));
  for (const Superquadric& s : {octa, mixed}) {
    // x >= 1 touches the vertex (1, 0, 0); x >= 1.1 misses.
    for (double at : {1.0, 1.1}) {
      const std::string why = refusal({Part(s), Part(Halfspace(Vec3(-1, 0, 0), -at))});
      EXPECT_NE(why.find("empty or has no interior"), std::string::npos) << "x >= " << at << ": " << why;
    }
    // Two copies 2.5 apart along x: disjoint; 2 apart: they touch at one point.
    for (double apart : {2.0, 2.5}) {
      const std::string why = refusal({Part(s), Part(s, Pose::from_translation(Vec3(apart, 0, 0)))});
      EXPECT_NE(why.find("empty or has no interior"), std::string::npos) << "apart " << apart << ": " << why;
    }
  }
  // The octahedron's face x + y/2 + z/3 <= 1 taken from the other side: the face alone remains.
  const std::string face = refusal({Part(octa), Part(Halfspace(-Vec3(1, 0.5, 1.0 / 3), -1))});
  EXPECT_NE(face.find("empty or has no interior"), std::string::npos) << face;
}

}  // namespace
}  // namespace proxima::ipm
