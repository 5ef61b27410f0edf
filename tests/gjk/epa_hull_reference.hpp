// SPDX-License-Identifier: MIT
// The expanding polytope of gjk/epa_hull.hpp as it was before session 16 (commit 64d13b0),
// verbatim but for its name: the reference that tests/gjk/epa_hull_test.cpp holds the
// current BasicEpaHull to, field by field after every expansion. Test code only.
#pragma once

#include <proxima/gjk/epa_hull.hpp>

#include <array>
#include <cmath>
#include <limits>

namespace proxima::gjk::test_reference {

template <int MaxVertices, int MaxFaces>
class ReferenceEpaHull {
 public:
  static_assert(MaxVertices >= 4 && MaxFaces >= 4, "a tetrahedron must fit");
  static constexpr int kMaxVertices = MaxVertices;
  static constexpr int kMaxFaces = MaxFaces;

  /// How an expansion ended.
  enum class Expansion { done, face_capacity, bad_horizon };

  /// Starts from the tetrahedron p[0..3] (any orientation; it must have volume). `min_area` is the
  /// doubled area below which a face counts as a sliver (length^2 units).
  void reset_tetrahedron(const std::array<SupportPoint, 4>& p, double min_area) {
    num_vertices_ = 4;
    num_faces_ = 0;
    num_free_ = 0;
    stamp_ = 0;
    min_area_ = min_area;
    for (int i = 0; i < 4; ++i) vertices_[static_cast<std::size_t>(i)] = p[static_cast<std::size_t>(i)];
    // Orient so that (0, 1, 2) is counter-clockwise from outside: vertex 3 behind it.
    const Vec3 n = (p[1].w - p[0].w).cross(p[2].w - p[0].w);
    const bool flip = n.dot(p[3].w - p[0].w) > 0;
    const int i1 = flip ? 2 : 1;
    const int i2 = flip ? 1 : 2;
    // Faces: f0 = (0, i1, i2), f1 = (0, 3, i1), f2 = (i1, 3, i2), f3 = (i2, 3, 0).
    new_face(0, i1, i2);
    new_face(0, 3, i1);
    new_face(i1, 3, i2);
    new_face(i2, 3, 0);
    link(0, 0, 1, 2);  // edge (0, i1) of f0 is edge (i1, 0) = index 2 of f1
    link(0, 1, 2, 2);  // edge (i1, i2) of f0 is edge (i2, i1) = index 2 of f2
    link(0, 2, 3, 2);  // edge (i2, 0) of f0 is edge (0, i2) = index 2 of f3
    link(1, 0, 3, 1);  // edge (0, 3) of f1 is edge (3, 0) = index 1 of f3
    link(1, 1, 2, 0);  // edge (3, i1) of f1 is edge (i1, 3) = index 0 of f2
    link(2, 1, 3, 0);  // edge (3, i2) of f2 is edge (i2, 3) = index 0 of f3
  }

  /// Appends a vertex; -1 when the vertex capacity is exhausted.
  int add_vertex(const SupportPoint& p) {
    if (num_vertices_ >= kMaxVertices) return -1;
    vertices_[static_cast<std::size_t>(num_vertices_)] = p;
    return num_vertices_++;
  }

  /// True when p.w equals an existing vertex bitwise (a repeated support point).
  bool contains_vertex(const Vec3& w) const {
    for (int i = 0; i < num_vertices_; ++i) {
      if (vertices_[static_cast<std::size_t>(i)].w == w) return true;
    }
    return false;
  }

  /// The live, valid face nearest the origin (smallest plane distance, first on ties); -1 if none.
  /// Linear scan over a compact array of keys (the distance of a live, valid face, +inf otherwise),
  /// which selects the same face as testing alive, valid and distance on the faces themselves.
  /// Why four lanes: every EPA iteration waits for this scan (its support direction is the
  /// answer's normal), and one running minimum is a chain of dependent compares, one per face
  /// slot; four independent running minima (slots f = 0, 1, 2, 3 mod 4, the tail in lane 0) cut
  /// that chain to a quarter. Written with selects, not branches, so it compiles to minsd/cmov (a
  /// version written over std::arrays compiled to branches and measured slower). Same face: each
  /// lane keeps its first strict minimum (keys are never NaN: finite or +inf), and the merge takes
  /// the smaller key, then the smaller index, so the answer is the first minimum of the whole
  /// array; a lane that saw only +inf keeps index -1, as the single scan does when all are +inf.
  int closest_face() const {
    constexpr double inf = std::numeric_limits<double>::infinity();
    double v0 = inf, v1 = inf, v2 = inf, v3 = inf;
    int i0 = -1, i1 = -1, i2 = -1, i3 = -1;
    const double* key = key_.data();
    int f = 0;
    for (; f + 4 <= num_faces_; f += 4) {
      const double k0 = key[f], k1 = key[f + 1], k2 = key[f + 2], k3 = key[f + 3];
      i0 = k0 < v0 ? f : i0;
      v0 = k0 < v0 ? k0 : v0;
      i1 = k1 < v1 ? f + 1 : i1;
      v1 = k1 < v1 ? k1 : v1;
      i2 = k2 < v2 ? f + 2 : i2;
      v2 = k2 < v2 ? k2 : v2;
      i3 = k3 < v3 ? f + 3 : i3;
      v3 = k3 < v3 ? k3 : v3;
    }
    for (; f < num_faces_; ++f) {  // the last 0-3 slots: larger indices than any before
      const double k = key[f];
      i0 = k < v0 ? f : i0;
      v0 = k < v0 ? k : v0;
    }
    const auto take = [](double& v, int& i, double w, int j) {
      const bool better = w < v || (w == v && j < i);
      i = better ? j : i;
      v = better ? w : v;
    };
    take(v0, i0, v1, i1);
    take(v2, i2, v3, i3);
    take(v0, i0, v2, i2);
    return i0;
  }

  /// Replaces every face visible from vertex `v` (starting from `face`, which must be visible)
  /// by a cone of new faces from the horizon to v. Nothing changes unless it returns `done`.
  Expansion expand(int face, int v) {
    ++stamp_;
    const Vec3& w = vertices_[static_cast<std::size_t>(v)].w;
    // Flood fill over visible faces; horizon edges are collected with their outside neighbour.
    int num_visible = 0;
    int num_horizon = 0;
    int stack_size = 0;
    stack_[0] = face;
    stack_size = 1;
    faces_[static_cast<std::size_t>(face)].stamp = stamp_;
    while (stack_size > 0) {
      const int f = stack_[static_cast<std::size_t>(--stack_size)];
      visible_[static_cast<std::size_t>(num_visible++)] = f;
      const EpaFace& ff = faces_[static_cast<std::size_t>(f)];
      for (int e = 0; e < 3; ++e) {
        const int g = ff.adjacent[static_cast<std::size_t>(e)];
        EpaFace& gg = faces_[static_cast<std::size_t>(g)];
        if (gg.stamp == stamp_) continue;  // already in the visible set
        if (is_visible(gg, w)) {
          gg.stamp = stamp_;
          if (stack_size >= kMaxFaces) return Expansion::bad_horizon;
          stack_[static_cast<std::size_t>(stack_size++)] = g;
        } else {
          if (num_horizon >= kMaxFaces) return Expansion::bad_horizon;
          horizon_[static_cast<std::size_t>(num_horizon++)] = {ff.vertex[static_cast<std::size_t>(e)],
                                                              ff.vertex[static_cast<std::size_t>((e + 1) % 3)], g, -1};
        }
      }
    }
    // A face seen from both sides of the horizon loop would have been entered twice; re-check
    // that the horizon is one simple loop: every vertex starts one edge and ends one edge.
    for (int h = 0; h < num_horizon; ++h) {
      const HorizonEdge& he = horizon_[static_cast<std::size_t>(h)];
      start_of_[static_cast<std::size_t>(he.from)] = -1;
      end_of_[static_cast<std::size_t>(he.to)] = -1;
    }
    bool simple = num_horizon >= 3;
    for (int h = 0; h < num_horizon && simple; ++h) {
      const HorizonEdge& he = horizon_[static_cast<std::size_t>(h)];
      int& s = start_of_[static_cast<std::size_t>(he.from)];
      int& t = end_of_[static_cast<std::size_t>(he.to)];
      simple = s < 0 && t < 0;
      s = h;
      t = h;
    }
    for (int h = 0; h < num_horizon && simple; ++h) {
      const HorizonEdge& he = horizon_[static_cast<std::size_t>(h)];
      simple = start_of_[static_cast<std::size_t>(he.to)] >= 0 && end_of_[static_cast<std::size_t>(he.from)] >= 0;
    }
    if (!simple) return Expansion::bad_horizon;
    if (num_free_ + (kMaxFaces - num_faces_) + num_visible < num_horizon) return Expansion::face_capacity;
    // Commit: kill the visible faces, then build the cone.
    for (int i = 0; i < num_visible; ++i) release_face(visible_[static_cast<std::size_t>(i)]);
    for (int h = 0; h < num_horizon; ++h) {
      HorizonEdge& he = horizon_[static_cast<std::size_t>(h)];
      he.created = new_face(he.from, he.to, v);
    }
    for (int h = 0; h < num_horizon; ++h) {
      const HorizonEdge& he = horizon_[static_cast<std::size_t>(h)];
      EpaFace& nf = faces_[static_cast<std::size_t>(he.created)];
      // Edge 0 (from, to) faces the old neighbour across the horizon.
      EpaFace& outside = faces_[static_cast<std::size_t>(he.outside)];
      for (int e = 0; e < 3; ++e) {
        if (outside.vertex[static_cast<std::size_t>(e)] == he.to &&
            outside.vertex[static_cast<std::size_t>((e + 1) % 3)] == he.from) {
          outside.adjacent[static_cast<std::size_t>(e)] = he.created;
        }
      }
      nf.adjacent[0] = he.outside;
      // Edge 1 (to, v): the new face whose horizon edge starts at `to`; edge 2 (v, from): the one
      // whose horizon edge ends at `from`.
      nf.adjacent[1] = horizon_[static_cast<std::size_t>(start_of_[static_cast<std::size_t>(he.to)])].created;
      nf.adjacent[2] = horizon_[static_cast<std::size_t>(end_of_[static_cast<std::size_t>(he.from)])].created;
    }
    return Expansion::done;
  }

  const EpaFace& face(int f) const { return faces_[static_cast<std::size_t>(f)]; }
  const SupportPoint& vertex(int v) const { return vertices_[static_cast<std::size_t>(v)]; }
  int num_vertices() const noexcept { return num_vertices_; }
  /// Number of face slots ever used (live or free).
  int num_face_slots() const noexcept { return num_faces_; }
  /// Number of live faces (closed mesh: 2 * vertices - 4).
  int num_live_faces() const noexcept { return num_faces_ - num_free_; }

 private:
  struct HorizonEdge {
    int from;
    int to;
    int outside;
    int created;
  };

  bool is_visible(const EpaFace& f, const Vec3& w) const {
    // A sliver has no trustworthy plane: remove it whenever a neighbour goes (keeps it out of the
    // final hull, and its neighbours are re-triangulated through the new vertex).
    if (!f.valid) return true;
    return f.normal.dot(w) > f.distance;
  }

  int new_face(int a, int b, int c) {
    int f;
    if (num_free_ > 0) {
      f = free_[static_cast<std::size_t>(--num_free_)];
    } else {
      f = num_faces_++;
    }
    EpaFace& face = faces_[static_cast<std::size_t>(f)];
    face.vertex = {a, b, c};
    face.adjacent = {-1, -1, -1};
    face.alive = true;
    face.stamp = -1;
    const Vec3& pa = vertices_[static_cast<std::size_t>(a)].w;
    const Vec3 n = (vertices_[static_cast<std::size_t>(b)].w - pa).cross(vertices_[static_cast<std::size_t>(c)].w - pa);
    const double len = n.norm();
    face.valid = len > min_area_ && std::isfinite(len);
    if (face.valid) {
      face.normal = n / len;
      face.distance = face.normal.dot(pa);
    } else {
      face.normal = nan_vec3();
      face.distance = std::numeric_limits<double>::infinity();
    }
    key_[static_cast<std::size_t>(f)] = face.distance;  // +inf for a sliver
    return f;
  }

  void release_face(int f) {
    faces_[static_cast<std::size_t>(f)].alive = false;
    key_[static_cast<std::size_t>(f)] = std::numeric_limits<double>::infinity();
    free_[static_cast<std::size_t>(num_free_++)] = f;
  }

  void link(int f, int e, int g, int h) {
    faces_[static_cast<std::size_t>(f)].adjacent[static_cast<std::size_t>(e)] = g;
    faces_[static_cast<std::size_t>(g)].adjacent[static_cast<std::size_t>(h)] = f;
  }

  // Deliberately not value-initialised (see EpaFace).
  std::array<SupportPoint, kMaxVertices> vertices_;
  std::array<EpaFace, kMaxFaces> faces_;
  /// closest_face's keys: faces_[f].distance when face f is alive and valid, else +inf.
  std::array<double, kMaxFaces> key_;
  std::array<int, kMaxFaces> free_;
  std::array<int, kMaxFaces> stack_;
  std::array<int, kMaxFaces> visible_;
  std::array<HorizonEdge, kMaxFaces> horizon_;
  std::array<int, kMaxVertices> start_of_;
  std::array<int, kMaxVertices> end_of_;
  int num_vertices_ = 0;
  int num_faces_ = 0;
  int num_free_ = 0;
  int stamp_ = 0;
  double min_area_ = 0;
};

}  // namespace proxima::gjk::test_reference
