// SPDX-License-Identifier: MIT
// Seeded generators of shapes and placed pairs for the property tests and the benchmark program.
// Header-only; depends on Eigen, <random>, proxima core and the re-derived primitives of
// tests/oracles/brute_force.hpp (header-only, core only). Shapes are described by ShapeSpec
// (plain data) so the generators do not depend on the shapes under test; the caller builds the
// proxima shape from the spec, and scene_json() prints a failing case so `proxima run` replays it.
#pragma once

#include "oracles/brute_force.hpp"

#include <proxima/core/pose.hpp>

#include <Eigen/Core>

#include <cmath>
#include <cstdio>
#include <numbers>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace proxima::testgen {

/// The one random engine of the tests: 64-bit Mersenne twister, seeded explicitly.
using Rng = std::mt19937_64;

inline double uniform(Rng& rng, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng);
}
/// 10^x with x uniform in [log10 lo, log10 hi]: every decade equally likely.
inline double log_uniform(Rng& rng, double lo, double hi) {
  return std::pow(10.0, uniform(rng, std::log10(lo), std::log10(hi)));
}
/// The decade of a positive number: floor(log10 x) (so 3e-3 -> -3, 2e4 -> 4).
inline int decade(double x) { return static_cast<int>(std::floor(std::log10(x))); }

/// Uniformly distributed unit vector (normalised Gaussian).
inline Vec3 random_unit_vector(Rng& rng) {
  std::normal_distribution<double> normal(0.0, 1.0);
  Vec3 v;
  do {
    v = Vec3{normal(rng), normal(rng), normal(rng)};
  } while (!(v.norm() > 1e-6));
  return v.normalized();
}

/// Uniformly distributed unit quaternion (w, x, y, z) (Shoemake's subgroup algorithm).
inline Eigen::Vector4d random_quaternion(Rng& rng) {
  const double u1 = uniform(rng, 0, 1);
  const double a = 2 * std::numbers::pi * uniform(rng, 0, 1);
  const double b = 2 * std::numbers::pi * uniform(rng, 0, 1);
  const double r1 = std::sqrt(1 - u1);
  const double r2 = std::sqrt(u1);
  return {r2 * std::cos(b), r1 * std::sin(a), r1 * std::cos(a), r2 * std::sin(b)};
}

/// A pose remembered as the quaternion and translation it was made from, so that printing it
/// and parsing it back reproduce the very same Pose.
struct PoseSpec {
  Eigen::Vector4d quaternion{1, 0, 0, 0};  // w, x, y, z
  Vec3 translation = Vec3::Zero();
  Pose pose() const {
    return Pose::from_quaternion(quaternion[0], quaternion[1], quaternion[2], quaternion[3], translation);
  }
};

/// n points on the ellipsoid with the given semiaxes (uniform directions, scaled): all of them are
/// vertices of their hull, in general position.
inline std::vector<Vec3> ellipsoid_points(Rng& rng, int n, const Vec3& semiaxes = Vec3(1, 0.7, 0.5)) {
  std::vector<Vec3> out;
  out.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) out.push_back(semiaxes.cwiseProduct(random_unit_vector(rng)));
  return out;
}

// ------------------------------------------------------------------------------------------------
// Shape descriptions
// ------------------------------------------------------------------------------------------------

enum class ShapeKind { polytope, sphere, box, capsule, cylinder, cone, ellipsoid, superquadric };

/// A shape as plain data, in its local frame (DESIGN.md scene conventions: capsule, cylinder and
/// cone along z; the cone's apex at +z).
struct ShapeSpec {
  ShapeKind kind = ShapeKind::polytope;
  std::vector<Vec3> vertices;           // polytope
  double radius = 0;                    // sphere, capsule, cylinder, cone
  double half_length = 0;               // capsule: half the segment; cylinder, cone: half height
  Vec3 semiaxes = Vec3::Zero();         // box half extents, ellipsoid and superquadric semiaxes
  Vec3 exponents = Vec3::Zero();        // superquadric

  /// Support point in the local frame (the generator's own, for placing pairs; the oracles'
  /// re-derived primitives do the work).
  Vec3 support(const Vec3& u) const {
    switch (kind) {
      case ShapeKind::polytope: {
        Vec3 best = vertices.front();
        for (const Vec3& v : vertices) {
          if (v.dot(u) > best.dot(u)) best = v;
        }
        return best;
      }
      case ShapeKind::sphere:
        return oracles::OracleEllipsoid{Vec3::Constant(radius)}.support(u);
      case ShapeKind::box:
        return {u.x() < 0 ? -semiaxes.x() : semiaxes.x(), u.y() < 0 ? -semiaxes.y() : semiaxes.y(),
                u.z() < 0 ? -semiaxes.z() : semiaxes.z()};
      case ShapeKind::capsule:
        return oracles::OracleCapsule{radius, half_length}.support(u);
      case ShapeKind::cylinder:
        return oracles::OracleCylinder{radius, half_length}.support(u);
      case ShapeKind::cone:
        return oracles::OracleCone{radius, half_length}.support(u);
      case ShapeKind::ellipsoid:
        return oracles::OracleEllipsoid{semiaxes}.support(u);
      case ShapeKind::superquadric:
        return oracles::OracleSuperquadric{semiaxes, exponents}.support(u);
    }
    return Vec3::Zero();
  }

  /// Radius of a ball about the local origin that contains the shape.
  double bounding_radius() const {
    switch (kind) {
      case ShapeKind::polytope: {
        double r = 0;
        for (const Vec3& v : vertices) r = std::max(r, v.norm());
        return r;
      }
      case ShapeKind::sphere:
        return radius;
      case ShapeKind::capsule:
        return radius + half_length;
      case ShapeKind::cylinder:
      case ShapeKind::cone:
        return std::hypot(radius, half_length);
      case ShapeKind::box:
      case ShapeKind::ellipsoid:
      case ShapeKind::superquadric:
        return semiaxes.norm();
    }
    return 0;
  }

  /// The same shape scaled by s about its local origin.
  ShapeSpec scaled(double s) const {
    ShapeSpec out = *this;
    for (Vec3& v : out.vertices) v *= s;
    out.radius *= s;
    out.half_length *= s;
    out.semiaxes *= s;
    return out;
  }
};

inline ShapeSpec polytope_spec(std::vector<Vec3> vertices) {
  ShapeSpec s;
  s.vertices = std::move(vertices);
  return s;
}
inline ShapeSpec sphere_spec(double radius) {
  ShapeSpec s;
  s.kind = ShapeKind::sphere;
  s.radius = radius;
  return s;
}
inline ShapeSpec box_spec(const Vec3& half_extents) {
  ShapeSpec s;
  s.kind = ShapeKind::box;
  s.semiaxes = half_extents;
  return s;
}
inline ShapeSpec capsule_spec(double radius, double half_length) {
  ShapeSpec s;
  s.kind = ShapeKind::capsule;
  s.radius = radius;
  s.half_length = half_length;
  return s;
}
inline ShapeSpec cylinder_spec(double radius, double half_height) {
  ShapeSpec s = capsule_spec(radius, half_height);
  s.kind = ShapeKind::cylinder;
  return s;
}
inline ShapeSpec cone_spec(double radius, double half_height) {
  ShapeSpec s = capsule_spec(radius, half_height);
  s.kind = ShapeKind::cone;
  return s;
}
inline ShapeSpec ellipsoid_spec(const Vec3& semiaxes) {
  ShapeSpec s;
  s.kind = ShapeKind::ellipsoid;
  s.semiaxes = semiaxes;
  return s;
}
inline ShapeSpec superquadric_spec(const Vec3& semiaxes, const Vec3& exponents) {
  ShapeSpec s = ellipsoid_spec(semiaxes);
  s.kind = ShapeKind::superquadric;
  s.exponents = exponents;
  return s;
}

/// A random smooth primitive of unit-ish size (the sizes vary within a factor of a few so no
/// family is degenerate by accident; the nasty cases cover flat and needle shapes).
inline ShapeSpec random_smooth_spec(Rng& rng, ShapeKind kind) {
  switch (kind) {
    case ShapeKind::sphere:
      return sphere_spec(uniform(rng, 0.3, 1));
    case ShapeKind::capsule: {
      const double radius = uniform(rng, 0.2, 0.6);
      return capsule_spec(radius, uniform(rng, 0.2, 1));
    }
    case ShapeKind::cylinder: {
      const double radius = uniform(rng, 0.3, 1);
      return cylinder_spec(radius, uniform(rng, 0.2, 1));
    }
    case ShapeKind::cone: {
      const double radius = uniform(rng, 0.3, 1);
      return cone_spec(radius, uniform(rng, 0.3, 1));
    }
    case ShapeKind::ellipsoid:
      return ellipsoid_spec(Vec3{uniform(rng, 0.3, 1), uniform(rng, 0.3, 1), uniform(rng, 0.3, 1)});
    case ShapeKind::superquadric: {
      const Vec3 semiaxes{uniform(rng, 0.3, 1), uniform(rng, 0.3, 1), uniform(rng, 0.3, 1)};
      return superquadric_spec(semiaxes, Vec3{uniform(rng, 1.5, 8), uniform(rng, 1.5, 8), uniform(rng, 1.5, 8)});
    }
    case ShapeKind::box:
      return box_spec(Vec3{uniform(rng, 0.2, 1), uniform(rng, 0.2, 1), uniform(rng, 0.2, 1)});
    case ShapeKind::polytope:
      return polytope_spec(ellipsoid_points(rng, 32));
  }
  return sphere_spec(1);
}

// ------------------------------------------------------------------------------------------------
// Placed pairs
// ------------------------------------------------------------------------------------------------

/// Two shapes, their poses, and how they were generated (for the mix assertions and replay).
struct PairCase {
  std::string label;
  ShapeSpec a;
  ShapeSpec b;
  PoseSpec pose_a;
  PoseSpec pose_b;
  double scale = 1;   // the common scale factor applied to both shapes
  double factor = 1;  // B's offset as a multiple of the estimated touching distance (0: not placed)

  std::vector<Vec3> world_vertices_a() const { return world(a, pose_a); }
  std::vector<Vec3> world_vertices_b() const { return world(b, pose_b); }

 private:
  static std::vector<Vec3> world(const ShapeSpec& s, const PoseSpec& p) {
    const Pose pose = p.pose();
    std::vector<Vec3> out;
    out.reserve(s.vertices.size());
    for (const Vec3& v : s.vertices) out.push_back(pose.apply(v));
    return out;
  }
};

/// Estimated touching distance: the largest t such that B, rotated by rot_b and centred at
/// t * u from A (rotated by rot_a, centred at 0), still meets A. It is the ray distance to the
/// boundary of A - B along u, t* = min over v with v.u > 0 of (h_A(v) + h_B(-v)) / v.u; the
/// minimum is found by a pattern search over v (an estimate from above; exact enough to place
/// about half the pairs on each side of contact).
inline double touching_distance(const ShapeSpec& a, const Mat3& rot_a, const ShapeSpec& b,
                                const Mat3& rot_b, const Vec3& u) {
  const auto ratio = [&](const Vec3& v) {
    const double h = v.dot(rot_a * a.support(rot_a.transpose() * v)) -
                     v.dot(rot_b * b.support(rot_b.transpose() * Vec3(-v)));
    return h / v.dot(u);
  };
  Vec3 v = u;
  double best = ratio(v);
  double angle = 0.5;
  constexpr int kRounds = 40;
  constexpr int kSweeps = 50;
  for (int round = 0; round < kRounds; ++round) {
    bool improved = true;
    for (int sweep = 0; sweep < kSweeps && improved; ++sweep) {
      improved = false;
      const Vec3 e1 = v.unitOrthogonal();
      const Vec3 e2 = v.cross(e1);
      for (const Vec3& e : {e1, e2, Vec3(-e1), Vec3(-e2), Vec3((e1 + e2).normalized()),
                            Vec3((e1 - e2).normalized()), Vec3((e2 - e1).normalized()),
                            Vec3(-(e1 + e2).normalized())}) {
        const Vec3 trial = (v * std::cos(angle) + e * std::sin(angle)).normalized();
        if (trial.dot(u) <= 0) continue;
        const double r = ratio(trial);
        if (r < best) {
          best = r;
          v = trial;
          improved = true;
        }
      }
    }
    angle /= 2;
  }
  return best;
}

struct PlacementOptions {
  double min_factor = 0.5;       // B at factor * touching distance, factor in [min, max]
  double max_factor = 1.5;
  double min_scale = 1e-3;       // common scale, log-uniform
  double max_scale = 1e5;
  double max_translation = 1e5;  // |A's translation|, log-uniform from 1e-2 (or 0 one time in 8)
};

/// Places the unit-size shapes a and b: a common scale, random rotations (uniform), A at a random
/// translation, B along a random direction at factor * (touching distance) from A.
inline PairCase place_pair(Rng& rng, std::string label, const ShapeSpec& a, const ShapeSpec& b,
                           const PlacementOptions& options = {}) {
  PairCase c;
  c.label = std::move(label);
  c.scale = log_uniform(rng, options.min_scale, options.max_scale);
  c.a = a.scaled(c.scale);
  c.b = b.scaled(c.scale);
  c.pose_a.quaternion = random_quaternion(rng);
  c.pose_b.quaternion = random_quaternion(rng);
  constexpr int kZeroTranslationOdds = 8;
  const bool at_origin = std::uniform_int_distribution<int>(0, kZeroTranslationOdds - 1)(rng) == 0;
  const double t_mag = log_uniform(rng, 1e-2, options.max_translation);
  c.pose_a.translation = at_origin ? Vec3::Zero() : Vec3(t_mag * random_unit_vector(rng));
  const Vec3 u = random_unit_vector(rng);
  c.factor = uniform(rng, options.min_factor, options.max_factor);
  const double touch = touching_distance(c.a, c.pose_a.pose().rotation(), c.b, c.pose_b.pose().rotation(), u);
  c.pose_b.translation = c.pose_a.translation + c.factor * touch * u;
  return c;
}

// ------------------------------------------------------------------------------------------------
// Scene JSON (DESIGN.md format), one line, for replay with `proxima run`
// ------------------------------------------------------------------------------------------------

namespace detail {
inline std::string num(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}
inline std::string vec(const Vec3& v) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "[%.17g,%.17g,%.17g]", v.x(), v.y(), v.z());
  return buf;
}
inline std::string shape_json(const ShapeSpec& s) {
  switch (s.kind) {
    case ShapeKind::polytope: {
      std::string out = R"({"type":"polytope","vertices":[)";
      for (std::size_t i = 0; i < s.vertices.size(); ++i) {
        if (i) out += ',';
        out += vec(s.vertices[i]);
      }
      return out + "]}";
    }
    case ShapeKind::sphere:
      return std::string(R"({"type":"sphere","radius":)") + num(s.radius) + "}";
    case ShapeKind::box:
      return std::string(R"({"type":"box","half_extents":)") + vec(s.semiaxes) + "}";
    case ShapeKind::capsule:
      return std::string(R"({"type":"capsule","radius":)") + num(s.radius) + R"(,"half_length":)" + num(s.half_length) + "}";
    case ShapeKind::cylinder:
      return std::string(R"({"type":"cylinder","radius":)") + num(s.radius) + R"(,"half_height":)" + num(s.half_length) + "}";
    case ShapeKind::cone:
      return std::string(R"({"type":"cone","radius":)") + num(s.radius) + R"(,"half_height":)" + num(s.half_length) + "}";
    case ShapeKind::ellipsoid:
      return std::string(R"({"type":"ellipsoid","semiaxes":)") + vec(s.semiaxes) + "}";
    case ShapeKind::superquadric:
      return std::string(R"({"type":"superquadric","semiaxes":)") + vec(s.semiaxes) + R"(,"exponents":)" + vec(s.exponents) + "}";
  }
  return "{}";
}
inline std::string pose_json(const PoseSpec& p) {
  return std::string(R"({"translation":)") + vec(p.translation) + R"(,"quaternion":[)" + num(p.quaternion[0]) + "," +
         num(p.quaternion[1]) + "," + num(p.quaternion[2]) + "," + num(p.quaternion[3]) + "]}";
}
}  // namespace detail

/// The case as a one-line scene with one query of the given kind ("distance", "penetration",
/// "intersect"), shapes named "a" and "b".
inline std::string scene_json(const PairCase& c, std::string_view kind, std::string_view id) {
  return std::string(R"({"shapes":{"a":)") + detail::shape_json(c.a) + R"(,"b":)" + detail::shape_json(c.b) +
         R"(},"queries":[{"id":")" + std::string(id) + R"(","kind":")" + std::string(kind) +
         R"(","a":"a","b":"b","pose_a":)" + detail::pose_json(c.pose_a) + R"(,"pose_b":)" +
         detail::pose_json(c.pose_b) + "}]}";
}

}  // namespace proxima::testgen
