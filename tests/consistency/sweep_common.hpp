// SPDX-License-Identifier: MIT
// Shared machinery of the consistency sweep (tests/consistency/): every pair of algorithms that
// answers the same question must agree within the tolerance documented in docs/reliability.md
// ("Consistency sweep"). This header holds
//  - the sweep size and seed (PROXIMA_CONSISTENCY_SCALE multiplies every case count, PROXIMA_CONSISTENCY_SEED
//    shifts every seed), so CI runs a few seconds per comparison and a long run is one variable;
//  - the scene writer (DESIGN.md scene format, every number printed with %.17g so `proxima run`
//    replays the very same doubles), with the shapes the generators of tests/support/ describe plus
//    implicit halfspace intersections and polyhedral meshes;
//  - the disagreement log: a disagreement fails the test, prints the seed, the case and the scene,
//    and writes the scene to a file (PROXIMA_CONSISTENCY_OUT or gtest's temporary directory);
//  - convex polyhedra with faces (affine images of a few base solids), for the screw comparison.
#pragma once

#include "property/property_common.hpp"
#include "support/env_int.hpp"
#include "support/random_shapes.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace proxima::consistency {

using testgen::PoseSpec;
using testgen::Rng;
using testgen::ShapeSpec;

/// Case-count multiplier: PROXIMA_CONSISTENCY_SCALE (a positive integer), 1 when unset or invalid.
inline int sweep_scale() { return proxima::test::env_int("PROXIMA_CONSISTENCY_SCALE", 1, 100000, 1); }

/// Number of cases of a block: `base` times the sweep scale.
inline int cases(int base) { return base * sweep_scale(); }

/// The seed of a comparison: `base` plus PROXIMA_CONSISTENCY_SEED (0 when unset), so a long run can
/// also be a different run.
inline std::uint64_t seed(std::uint64_t base) {
  const char* s = std::getenv("PROXIMA_CONSISTENCY_SEED");
  return base + (s == nullptr ? 0 : std::strtoull(s, nullptr, 10));
}

// ------------------------------------------------------------------------------------------------
// Scene files
// ------------------------------------------------------------------------------------------------

using testgen::detail::num;
using testgen::detail::vec;

inline std::string pose_json(const PoseSpec& p) { return testgen::detail::pose_json(p); }
inline std::string shape_json(const ShapeSpec& s) { return testgen::detail::shape_json(s); }

/// A halfspace intersection {x : normal_k . x <= offset_k for all k} as an implicit shape.
inline std::string implicit_halfspaces_json(const std::vector<Vec3>& normals, const std::vector<double>& offsets) {
  std::string out = R"({"type":"implicit","parts":[)";
  for (std::size_t k = 0; k < normals.size(); ++k) {
    if (k) out += ',';
    out += R"({"type":"halfspace","normal":)" + vec(normals[k]) + R"(,"offset":)" + num(offsets[k]) + "}";
  }
  return out + "]}";
}

/// A polyhedral mesh given inline. Built by appending piece by piece: GCC 12 at -O3 reports a
/// false -Wstringop-overflow on `(i ? "," : "") + std::string` here.
inline std::string mesh_json(const std::vector<Vec3>& vertices, const std::vector<std::vector<int>>& faces) {
  std::string out = R"({"type":"mesh","vertices":[)";
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    if (i) out += ',';
    out += vec(vertices[i]);
  }
  out += R"(],"faces":[)";
  for (std::size_t f = 0; f < faces.size(); ++f) {
    if (f) out += ',';
    out += '[';
    for (std::size_t k = 0; k < faces[f].size(); ++k) {
      if (k) out += ',';
      out += std::to_string(faces[f][k]);
    }
    out += ']';
  }
  out += "]}";
  return out;
}

/// One scene: named shapes and a list of queries, printed as one JSON line.
class Scene {
 public:
  void shape(const std::string& name, std::string json) { shapes_.emplace_back(name, std::move(json)); }
  /// A pair query of `kind` on shapes a and b; `extra` is appended verbatim (",\"method\":\"ipm\"").
  void pair_query(const std::string& id, const std::string& kind, const std::string& a, const PoseSpec& pose_a,
                  const std::string& b, const PoseSpec& pose_b, const std::string& extra = "") {
    queries_.push_back(R"({"id":")" + id + R"(","kind":")" + kind + R"(","a":")" + a + R"(","b":")" + b +
                       R"(","pose_a":)" + pose_json(pose_a) + R"(,"pose_b":)" + pose_json(pose_b) + extra + "}");
  }
  std::string str() const {
    std::string out = R"({"shapes":{)";
    for (std::size_t i = 0; i < shapes_.size(); ++i) {
      if (i) out += ',';
      out.append("\"").append(shapes_[i].first).append("\":").append(shapes_[i].second);
    }
    out += R"(},"queries":[)";
    for (std::size_t i = 0; i < queries_.size(); ++i) {
      if (i) out += ',';
      out += queries_[i];
    }
    out += "]}";
    return out;
  }

 private:
  std::vector<std::pair<std::string, std::string>> shapes_;
  std::vector<std::string> queries_;
};

/// Directory for scene files of disagreements: PROXIMA_CONSISTENCY_OUT, else gtest's temporary directory.
inline std::string output_dir() {
  const char* s = std::getenv("PROXIMA_CONSISTENCY_OUT");
  std::string dir = s != nullptr && *s ? std::string(s) : ::testing::TempDir();
  if (!dir.empty() && dir.back() != '/') dir += '/';
  return dir;
}

/// Writes `scene` to <output_dir>/<stem>.json and returns the path ("" when it cannot be written).
inline std::string write_scene(const std::string& stem, const Scene& scene) {
  const std::string path = output_dir() + stem + ".json";
  std::ofstream f(path, std::ios::binary);
  if (!f) return "";
  f << scene.str() << '\n';
  return f ? path : "";
}

/// Disagreements of one comparison: each one fails the test, prints seed, case and what differs,
/// and writes the scene (the first kMaxWritten in full; the rest are counted).
///
/// Non-answers that a solver reports honestly (a cap reached with its bound still holding, a
/// declined decision inside the touching band) are not disagreements: note() prints and writes
/// them the same way without failing, and each test bounds how many it accepts (kMaxNonAnswers),
/// so they stay visible and rare.
class Disagreements {
 public:
  Disagreements(std::string comparison, std::uint64_t seed) : comparison_(std::move(comparison)), seed_(seed) {}

  void report(int index, const std::string& label, const std::string& what, const Scene& scene) {
    ++count_;
    if (count_ > kMaxWritten) {
      ADD_FAILURE() << comparison_ << ": " << what << " (seed " << seed_ << ", case " << index << "; not written)";
      return;
    }
    ADD_FAILURE() << describe(index, label, what, scene, "") << "\n  scene: " << scene.str();
  }

  void note(int index, const std::string& label, const std::string& what, const Scene& scene) {
    ++notes_;
    if (notes_ > kMaxWritten) return;
    std::printf("[%s] non-answer (accepted, bounded): %s\n", comparison_.c_str(),
                describe(index, label, what, scene, "_nonanswer").c_str());
  }

  int count() const { return count_; }
  int notes() const { return notes_; }

 private:
  std::string describe(int index, const std::string& label, const std::string& what, const Scene& scene,
                       const char* suffix) const {
    std::string stem = "consistency_";
    stem.append(comparison_).append("_seed").append(std::to_string(seed_));
    stem.append("_case").append(std::to_string(index)).append(suffix);
    const std::string path = write_scene(stem, scene);
    std::string out = comparison_;
    out.append(": ").append(what).append("\n  seed ").append(std::to_string(seed_));
    out.append(", case ").append(std::to_string(index)).append(" (").append(label).append(")");
    out.append("\n  replay: proxima run ").append(path.empty() ? "<scene not written>" : path);
    return out;
  }

  static constexpr int kMaxWritten = 3;
  std::string comparison_;
  std::uint64_t seed_;
  int count_ = 0;
  int notes_ = 0;
};

/// Honest non-answers a comparison accepts: at most one case in this many.
inline constexpr int kNonAnswerRarity = 200;

// ------------------------------------------------------------------------------------------------
// Convex polyhedra with faces
// ------------------------------------------------------------------------------------------------

/// A convex polyhedron as vertices and outward counter-clockwise faces (a closed mesh).
struct Polyhedron {
  std::vector<Vec3> vertices;
  std::vector<std::vector<int>> faces;
};

/// The base solids: tetrahedron, cube, octahedron, triangular prism (all centred near 0, radius ~1).
inline Polyhedron base_polyhedron(int which) {
  switch (which % 4) {
    case 0:
      return {{{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}}, {{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}}};
    case 1:
      return {{{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1}, {-1, -1, 1}, {1, -1, 1}, {1, 1, 1}, {-1, 1, 1}},
              {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4}, {2, 3, 7, 6}, {1, 2, 6, 5}, {0, 4, 7, 3}}};
    case 2:
      return {{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}},
              {{0, 2, 4}, {2, 1, 4}, {1, 3, 4}, {3, 0, 4}, {2, 0, 5}, {1, 2, 5}, {3, 1, 5}, {0, 3, 5}}};
    default:
      return {{{1, 0, -1}, {-0.5, 0.8660254037844386, -1}, {-0.5, -0.8660254037844386, -1},
               {1, 0, 1}, {-0.5, 0.8660254037844386, 1}, {-0.5, -0.8660254037844386, 1}},
              {{0, 2, 1}, {3, 4, 5}, {0, 1, 4, 3}, {1, 2, 5, 4}, {2, 0, 3, 5}}};
  }
}

/// A random convex polyhedron: a base solid under x -> s * R diag(d) x with d in [0.3, 1]^3 and a
/// random rotation R (a linear map of positive determinant keeps faces planar and outward). The
/// vertices are rounded to doubles once; quads stay planar to rounding (the mesh accepts 1e-9).
inline Polyhedron random_polyhedron(Rng& rng, int which, double s) {
  Polyhedron p = base_polyhedron(which);
  const PoseSpec rot{testgen::random_quaternion(rng), Vec3::Zero()};
  const Mat3 r = rot.pose().rotation();
  const Vec3 d{testgen::uniform(rng, 0.3, 1), testgen::uniform(rng, 0.3, 1), testgen::uniform(rng, 0.3, 1)};
  for (Vec3& v : p.vertices) v = s * (r * d.cwiseProduct(v));
  return p;
}

}  // namespace proxima::consistency
