// SPDX-License-Identifier: MIT
// The expanding polytope of EPA: a closed triangle mesh around the origin in fixed-capacity storage
// (kEpaMaxVertices, kEpaMaxFaces; STYLE.md point 8), with face adjacency so the horizon seen from a
// new support point is found by a flood fill over the visible faces (seed 003, figure 12).
// The EPA loop itself is in gjk/epa.hpp.
#pragma once

#include <proxima/core/tolerance.hpp>
#include <proxima/core/types.hpp>
#include <proxima/gjk/epa_face_planes.hpp>
#include <proxima/gjk/minkowski_difference.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>

namespace proxima::gjk {

namespace detail {

/// The index of the first smallest of key[0 .. count) (keys are never NaN: finite or +inf); -1 when
/// every key is +inf (or count is 0). Shared by both EPA hulls' closest_face().
/// Why four lanes: every EPA iteration waits for this scan (its support direction is the
/// answer's normal), and one running minimum is a chain of dependent compares, one per face
/// slot; four independent running minima (slots f = 0, 1, 2, 3 mod 4, the tail in lane 0) cut
/// that chain to a quarter. Written with selects, not branches, so it compiles to minsd/cmov (a
/// version written over std::arrays compiled to branches and measured slower). Same face: each
/// lane keeps its first strict minimum (keys are never NaN: finite or +inf), and the merge takes
/// the smaller key, then the smaller index, so the answer is the first minimum of the whole
/// array; a lane that saw only +inf keeps index -1, as the single scan does when all are +inf.
[[gnu::always_inline]] inline int first_smallest_key(const double* key, int count) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  double v0 = inf, v1 = inf, v2 = inf, v3 = inf;
  int i0 = -1, i1 = -1, i2 = -1, i3 = -1;
  int f = 0;
  for (; f + 4 <= count; f += 4) {
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
  for (; f < count; ++f) {  // the last 0-3 slots: larger indices than any before
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

}  // namespace detail

/// One triangle of the expanding polytope.
struct EpaFace {
  // No default member initialisers: the hull's arrays stay uninitialised until a face is made
  // (new_face sets every field), so a query does not pay for clearing 60 KB.
  /// Vertex indices, counter-clockwise seen from outside.
  std::array<int, 3> vertex;
  /// adjacent[i]: the face across the edge (vertex[i], vertex[(i + 1) % 3]).
  std::array<int, 3> adjacent;
  /// Outward unit normal; meaningful only when `valid`.
  Vec3 normal;
  /// normal . vertex: distance of the face's plane from the origin (negative: origin outside).
  double distance;
  /// False for a sliver whose normal is rounding noise (never chosen as the closest face).
  bool valid;
  bool alive;
  /// Flood-fill stamp (which expansion last visited this face).
  int stamp;
};

namespace detail {

/// Face plane of the triangle (pa, pb, pc), counter-clockwise from outside: `normal` the unit
/// normal of (pb - pa) x (pc - pa) and `distance` = normal . pa, or a sliver (valid false, normal
/// NaN, distance +inf) when the cross product's length is not above `min_area` or not finite.
/// Scalar code in a fixed order (the cross product, the norm as (x^2 + y^2) + z^2, three
/// divisions, the dot product as (x + y) + z), shared by both hulls so that they give the same
/// bits whatever the compiler does with Eigen's 3-vector expressions (session 29: the same order as
/// GCC 12's Eigen code, so no answer moved; and without GCC's SSE2 packing and shuffles of them).
inline void set_face_plane(EpaFace& face, const Vec3& pa, const Vec3& pb, const Vec3& pc, double min_area) {
  const double ux = pb.x() - pa.x(), uy = pb.y() - pa.y(), uz = pb.z() - pa.z();
  const double vx = pc.x() - pa.x(), vy = pc.y() - pa.y(), vz = pc.z() - pa.z();
  const double nx = uy * vz - uz * vy;
  const double ny = uz * vx - ux * vz;
  const double nz = ux * vy - uy * vx;
  const double len = std::sqrt((nx * nx + ny * ny) + nz * nz);
  face.valid = len > min_area && std::isfinite(len);
  if (face.valid) {
    const double mx = nx / len, my = ny / len, mz = nz / len;
    face.normal = Vec3(mx, my, mz);
    face.distance = (mx * pa.x() + my * pa.y()) + mz * pa.z();
  } else {
    face.normal = nan_vec3();
    face.distance = std::numeric_limits<double>::infinity();
  }
}

/// True when face f is seen from w: a sliver (no trustworthy plane) always, else when
/// normal . w > distance. Shared by both hulls. The dot product is written out as
/// (x * wx + y * wy) + z * wz, the order of Eigen's Vec3 dot (so the same bits as
/// `f.normal.dot(w)`), in scalar form: GCC 12 packs Eigen's form into SSE2 products, an unpack and
/// a horizontal add, a few instructions more per test (benchmarks.md, session 31).
[[gnu::always_inline]] inline bool face_sees(const EpaFace& f, const Vec3& w) {
  if (!f.valid) return true;
  const double dot = (f.normal.x() * w.x() + f.normal.y() * w.y()) + f.normal.z() * w.z();
  return dot > f.distance;
}

}  // namespace detail

namespace detail {

/// What both EPA hulls share: the vertices, the face slots with their keys and free list, the
/// start tetrahedron, making, releasing and linking faces, and the nearest-face scan. Each hull
/// adds its own expansion (flood fill and horizon) on these members. All storage is inline.
template <int MaxVertices, int MaxFaces>
class EpaHullBase {
 public:
  static_assert(MaxVertices >= 4 && MaxFaces >= 4, "a tetrahedron must fit");
  static constexpr int kMaxVertices = MaxVertices;
  static constexpr int kMaxFaces = MaxFaces;

  /// How an expansion ended.
  enum class Expansion { done, face_capacity, bad_horizon };

  /// True when p.w equals an existing vertex bitwise (a repeated support point).
  bool contains_vertex(const Vec3& w) const {
    for (int i = 0; i < num_vertices_; ++i) {
      if (vertices_[static_cast<std::size_t>(i)].w == w) {
        return true;
      }
    }
    return false;
  }

  /// The live, valid face nearest the origin (smallest plane distance, first on ties); -1 if none:
  /// detail::first_smallest_key over the keys (the distance of a live, valid face, +inf otherwise),
  /// which selects the same face as testing alive, valid and distance on the faces themselves.
  int closest_face() const { return first_smallest_key(key_.data(), num_faces_); }

  const EpaFace& face(int f) const { return faces_[static_cast<std::size_t>(f)]; }
  const SupportPoint& vertex(int v) const { return vertices_[static_cast<std::size_t>(v)]; }
  int num_vertices() const noexcept { return num_vertices_; }
  /// Number of face slots ever used (live or free).
  int num_face_slots() const noexcept { return num_faces_; }
  /// Number of live faces (closed mesh: 2 * vertices - 4).
  int num_live_faces() const noexcept { return num_faces_ - num_free_; }

 protected:
  /// The tetrahedron p[0..3] (any orientation; it must have volume) as four linked faces in slots
  /// 0-3, (0, 1, 2) counter-clockwise from outside. `min_area` is the doubled area below which a
  /// face counts as a sliver (length^2 units).
  void reset_faces(const std::array<SupportPoint, 4>& p, double min_area) {
    num_vertices_ = 4;
    num_faces_ = 0;
    num_free_ = 0;
    min_area_ = min_area;
    for (int i = 0; i < 4; ++i) {
      vertices_[static_cast<std::size_t>(i)] = p[static_cast<std::size_t>(i)];
    }
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
  int append_vertex(const SupportPoint& p) {
    if (num_vertices_ >= kMaxVertices) {
      return -1;
    }
    vertices_[static_cast<std::size_t>(num_vertices_)] = p;
    return num_vertices_++;
  }

  /// A face slot: the top of the free list, else a fresh one.
  int take_slot() { return num_free_ > 0 ? free_[static_cast<std::size_t>(--num_free_)] : num_faces_++; }

  /// Sets face f's corners (a, b, c), alive and stamp: every field but the plane (normal, distance,
  /// valid), its key and `adjacent`.
  void init_face_corners(int f, int a, int b, int c) {
    EpaFace& face = faces_[static_cast<std::size_t>(f)];
    face.vertex = {a, b, c};
    face.alive = true;
    face.stamp = -1;
  }

  /// Sets face f's plane (normal, distance, valid) from its corners, and its key.
  void init_face_plane(int f) {
    EpaFace& face = faces_[static_cast<std::size_t>(f)];
    set_face_plane(face, vertices_[static_cast<std::size_t>(face.vertex[0])].w,
                   vertices_[static_cast<std::size_t>(face.vertex[1])].w,
                   vertices_[static_cast<std::size_t>(face.vertex[2])].w, min_area_);
    key_[static_cast<std::size_t>(f)] = face.distance;  // +inf for a sliver
  }

  /// Sets every field of face f but `adjacent` for the triangle (a, b, c), and its key.
  void init_face(int f, int a, int b, int c) {
    init_face_corners(f, a, b, c);
    init_face_plane(f);
  }

  int new_face(int a, int b, int c) {
    const int f = take_slot();
    init_face(f, a, b, c);
    faces_[static_cast<std::size_t>(f)].adjacent = {-1, -1, -1};
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

  // Deliberately not value-initialised (see EpaFace); every entry read was written first.
  std::array<SupportPoint, kMaxVertices> vertices_;
  std::array<EpaFace, kMaxFaces> faces_;
  /// closest_face's keys: faces_[f].distance when face f is alive and valid, else +inf.
  std::array<double, kMaxFaces> key_;
  std::array<int, kMaxFaces> free_;
  std::array<int, kMaxFaces> stack_;
  std::array<int, kMaxFaces> visible_;
  int num_vertices_ = 0;
  int num_faces_ = 0;
  int num_free_ = 0;
  double min_area_ = 0;
};

}  // namespace detail

/// Fixed-capacity convex polytope for EPA. All storage is inline (about 60 KB with the default
/// capacities of EpaHull): construct it once (on the stack, or inside gjk::Pair) and reuse it.
/// The capacities are template parameters so tests can exhaust a small hull on purpose.
template <int MaxVertices, int MaxFaces>
class BasicEpaHull : public detail::EpaHullBase<MaxVertices, MaxFaces> {
  using Base = detail::EpaHullBase<MaxVertices, MaxFaces>;
  using Base::faces_;
  using Base::free_;
  using Base::num_faces_;
  using Base::num_free_;
  using Base::num_vertices_;
  using Base::stack_;
  using Base::vertices_;
  using Base::visible_;

 public:
  using typename Base::Expansion;
  using Base::kMaxFaces;
  using Base::kMaxVertices;

  /// Starts from the tetrahedron p[0..3] (any orientation; it must have volume). `min_area` is the
  /// doubled area below which a face counts as a sliver (length^2 units).
  void reset_tetrahedron(const std::array<SupportPoint, 4>& p, double min_area) {
    stamp_ = 0;
    horizon_base_ = 0;
    for (int i = 0; i < 4; ++i) {
      start_of_[static_cast<std::size_t>(i)] = -1;
      end_of_[static_cast<std::size_t>(i)] = -1;
    }
    this->reset_faces(p, min_area);
  }

  /// Appends a vertex; -1 when the vertex capacity is exhausted.
  int add_vertex(const SupportPoint& p) {
    const int v = this->append_vertex(p);
    if (v >= 0) {
      start_of_[static_cast<std::size_t>(v)] = -1;
      end_of_[static_cast<std::size_t>(v)] = -1;
    }
    return v;
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
    // start_of_[x] / end_of_[x] hold horizon_base_ + h for the edge h that starts / ends at vertex
    // x in this expansion; anything below horizon_base_ (an earlier expansion's entry, or -1 from
    // add_vertex) means none, so no pass clears them. Same test as clearing them first.
    if (horizon_base_ > std::numeric_limits<int>::max() - 2 * kMaxFaces) clear_horizon_marks();
    horizon_base_ += kMaxFaces;
    const int base = horizon_base_;
    // With no vertex starting or ending two edges, "every edge's `to` starts an edge and its
    // `from` ends one" says the E starts and the E ends are the same set of vertices, i.e. E
    // vertices both start and end an edge: `both` counts them, each when its second mark is set.
    bool simple = num_horizon >= 3;
    int both = 0;
    for (int h = 0; h < num_horizon; ++h) {
      const HorizonEdge& he = horizon_[static_cast<std::size_t>(h)];
      int& s = start_of_[static_cast<std::size_t>(he.from)];
      int& t = end_of_[static_cast<std::size_t>(he.to)];
      simple = simple && s < base && t < base;
      s = base + h;
      t = base + h;
      both += (end_of_[static_cast<std::size_t>(he.from)] >= base ? 1 : 0) +
              (start_of_[static_cast<std::size_t>(he.to)] >= base ? 1 : 0);
    }
    simple = simple && both == num_horizon;
    if (!simple) return Expansion::bad_horizon;
    if (num_free_ + (kMaxFaces - num_faces_) + num_visible < num_horizon) return Expansion::face_capacity;
    // Commit: kill the visible faces, then build the cone. The new faces' slots are taken first
    // (new_face's order: the free list from its top, then fresh slots), so each face is built and
    // linked in one pass.
    for (int i = 0; i < num_visible; ++i) this->release_face(visible_[static_cast<std::size_t>(i)]);
    for (int h = 0; h < num_horizon; ++h) horizon_[static_cast<std::size_t>(h)].created = this->take_slot();
    for (int h = 0; h < num_horizon; ++h) {
      const HorizonEdge& he = horizon_[static_cast<std::size_t>(h)];
      this->init_face(he.created, he.from, he.to, v);
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
      nf.adjacent[1] = horizon_[static_cast<std::size_t>(start_of_[static_cast<std::size_t>(he.to)] - base)].created;
      nf.adjacent[2] = horizon_[static_cast<std::size_t>(end_of_[static_cast<std::size_t>(he.from)] - base)].created;
    }
    return Expansion::done;
  }

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
    return detail::face_sees(f, w);
  }

  /// Marks every vertex as starting and ending no horizon edge, and restarts horizon_base_ (only
  /// after about 4 million expansions without a reset).
  void clear_horizon_marks() {
    for (int i = 0; i < num_vertices_; ++i) {
      start_of_[static_cast<std::size_t>(i)] = -1;
      end_of_[static_cast<std::size_t>(i)] = -1;
    }
    horizon_base_ = 0;
  }

  std::array<HorizonEdge, kMaxFaces> horizon_;
  /// Per vertex: horizon_base_ + the horizon edge starting / ending there (see expand).
  std::array<int, kMaxVertices> start_of_;
  std::array<int, kMaxVertices> end_of_;
  int stamp_ = 0;
  /// Offset of this expansion's entries in start_of_ / end_of_ (see expand).
  int horizon_base_ = 0;
};

/// The EPA workspace with the library's capacities (kEpaMaxVertices, kEpaMaxFaces).
using EpaHull = BasicEpaHull<kEpaMaxVertices, kEpaMaxFaces>;

/// A small EPA hull: the same polytope, the same operations and the same results bit for bit as
/// BasicEpaHull (the same face geometry, visibility test, flood-fill order, slot order and nearest
/// face), for hulls of at most 64 faces and 64 vertices, so that the per-expansion bookkeeping runs
/// on 64-bit masks instead of per-face stamps and per-vertex marks (session 29):
///  - the flood fill's "already visited" is one bit per face slot in a register (no stamp stores
///    into the faces, no stamp counter);
///  - the horizon's simple-loop test is two vertex masks (starts, ends): one loop iff no vertex
///    starts or ends two edges and the two sets are equal (the same decision as BasicEpaHull's
///    counting, which needs the marks' base arithmetic and a load per mark);
///  - a horizon edge's back edge in the outside face is the entry of its `adjacent` that names the
///    visible face the edge was reached from (in a closed mesh of more than two faces two faces
///    share at most one edge), found during the flood fill, before any slot is reused: two
///    compares instead of the vertex-pair search;
/// EPA's polytope pairs end with about 10 vertices and 17 faces at N = 32 (benchmarks.md, session
/// 28), far inside the capacity. When an expansion would need more (add_vertex returns -1 or
/// expand returns face_capacity), `overflowed()` is set and penetration() re-runs EPA on
/// BasicEpaHull from the same start, which repeats the same steps and goes on.
template <int MaxVertices, int MaxFaces>
class BasicSmallEpaHull : public detail::EpaHullBase<MaxVertices, MaxFaces> {
  static_assert(MaxVertices <= 64 && MaxFaces <= 64, "one bit per vertex and per face in a 64-bit mask");
  using Base = detail::EpaHullBase<MaxVertices, MaxFaces>;
  using Base::faces_;
  using Base::free_;
  using Base::num_faces_;
  using Base::num_free_;
  using Base::num_vertices_;
  using Base::stack_;
  using Base::vertices_;
  using Base::visible_;

 public:
  using typename Base::Expansion;
  using Base::kMaxFaces;
  using Base::kMaxVertices;

  /// As BasicEpaHull::reset_tetrahedron (the same four faces in the same slots).
  void reset_tetrahedron(const std::array<SupportPoint, 4>& p, double min_area) {
    overflowed_ = false;
    this->reset_faces(p, min_area);
  }

  /// Appends a vertex; -1 (and overflowed()) when the vertex capacity is exhausted.
  int add_vertex(const SupportPoint& p) {
    const int v = this->append_vertex(p);
    overflowed_ = overflowed_ || v < 0;
    return v;
  }

  /// As BasicEpaHull::expand: the same visible faces in the same order, the same horizon, the same
  /// outcome (face_capacity for this hull's own capacity, which also sets overflowed()).
  Expansion expand(int face, int v) {
    const Vec3& w = vertices_[static_cast<std::size_t>(v)].w;
    int num_visible = 0;
    int num_horizon = 0;
    // Every face enters the stack at most once (its bit is set as it is pushed), so the stack holds
    // at most kMaxFaces entries and the loop runs at most kMaxFaces times; every visible face adds
    // at most three horizon edges (horizon_ has room for 3 * kMaxFaces).
    std::uint64_t seen = std::uint64_t{1} << face;
    int stack_size = 1;
    stack_[0] = face;
    while (stack_size > 0) {
      const int f = stack_[static_cast<std::size_t>(--stack_size)];
      visible_[static_cast<std::size_t>(num_visible++)] = f;
      const EpaFace& ff = faces_[static_cast<std::size_t>(f)];
      for (int e = 0; e < 3; ++e) {
        const int g = ff.adjacent[static_cast<std::size_t>(e)];
        const std::uint64_t bit = std::uint64_t{1} << g;
        if ((seen & bit) != 0) {
          continue;  // already in the visible set
        }
        const EpaFace& gg = faces_[static_cast<std::size_t>(g)];
        // A sliver (no trustworthy plane) is always visible, as in BasicEpaHull::is_visible.
        if (detail::face_sees(gg, w)) {
          seen |= bit;
          stack_[static_cast<std::size_t>(stack_size++)] = g;
        } else {
          // The outside face's edge back to f, found now: once the cone is built, slots of
          // released faces are reused and an id in `adjacent` no longer names one face.
          const int back = gg.adjacent[0] == f ? 0 : (gg.adjacent[1] == f ? 1 : 2);
          // `created` is set once the visible faces are released (below); (e + 1) % 3 without a division.
          HorizonEdge& he = horizon_[static_cast<std::size_t>(num_horizon++)];
          he.from = ff.vertex[static_cast<std::size_t>(e)];
          he.to = ff.vertex[static_cast<std::size_t>(e == 2 ? 0 : e + 1)];
          he.outside = g;
          he.back = back;
        }
      }
    }
    // One simple loop: no vertex starts two edges, none ends two, and the set of starts is the set
    // of ends (then every edge's `to` starts the next edge). Vertex ids are below 64.
    std::uint64_t starts = 0;
    std::uint64_t ends = 0;
    std::uint64_t repeated = 0;
    for (int h = 0; h < num_horizon; ++h) {
      const HorizonEdge& he = horizon_[static_cast<std::size_t>(h)];
      const std::uint64_t s = std::uint64_t{1} << he.from;
      const std::uint64_t t = std::uint64_t{1} << he.to;
      repeated |= (starts & s) | (ends & t);
      starts |= s;
      ends |= t;
      start_of_[static_cast<std::size_t>(he.from)] = h;
      end_of_[static_cast<std::size_t>(he.to)] = h;
    }
    if (num_horizon < 3 || repeated != 0 || starts != ends) {
      return Expansion::bad_horizon;
    }
    if (num_free_ + (kMaxFaces - num_faces_) + num_visible < num_horizon) {
      overflowed_ = true;
      return Expansion::face_capacity;
    }
    // Commit as BasicEpaHull does: release the visible faces in flood-fill order, take the new
    // faces' slots (free list from its top, then fresh), build and link each face of the cone.
    // release_face and take_slot written out with the free-list and slot counts in locals: the
    // members are ints like the stores in between, so GCC reloaded and stored them at every step
    // (benchmarks.md, session 31). The same slots in the same order.
    int num_free = num_free_;
    int num_faces = num_faces_;
    for (int i = 0; i < num_visible; ++i) {
      const int f = visible_[static_cast<std::size_t>(i)];
      faces_[static_cast<std::size_t>(f)].alive = false;
      this->key_[static_cast<std::size_t>(f)] = std::numeric_limits<double>::infinity();
      free_[static_cast<std::size_t>(num_free++)] = f;
    }
    for (int h = 0; h < num_horizon; ++h) {
      horizon_[static_cast<std::size_t>(h)].created =
          num_free > 0 ? free_[static_cast<std::size_t>(--num_free)] : num_faces++;
    }
    num_free_ = num_free;
    num_faces_ = num_faces;
    for (int h = 0; h < num_horizon; ++h) {
      const HorizonEdge& he = horizon_[static_cast<std::size_t>(h)];
      this->init_face_corners(he.created, he.from, he.to, v);
      EpaFace& nf = faces_[static_cast<std::size_t>(he.created)];
      faces_[static_cast<std::size_t>(he.outside)].adjacent[static_cast<std::size_t>(he.back)] = he.created;
      nf.adjacent[0] = he.outside;
      nf.adjacent[1] = horizon_[static_cast<std::size_t>(start_of_[static_cast<std::size_t>(he.to)])].created;
      nf.adjacent[2] = horizon_[static_cast<std::size_t>(end_of_[static_cast<std::size_t>(he.from)])].created;
    }
    cone_planes(v, num_horizon);
    return Expansion::done;
  }

  /// True once an operation needed more than this hull's capacity since the last reset.
  bool overflowed() const noexcept { return overflowed_; }

 private:
  using HorizonEdge = detail::ConeEdge;

  /// The planes and keys of the cone's faces (horizon edge h's face is (from, to, v)), four at a
  /// time with AVX2 where the CPU has it (detail::cone_planes_avx2): the same bits as init_face's
  /// set_face_plane per face, in fewer instructions (docs/benchmarks.md, session 30).
  void cone_planes(int v, int num_horizon) {
    if (proxima::detail::kPolytopeHaveAvx2) {
      detail::cone_planes_avx2(vertices_.data(), horizon_.data(), num_horizon, v, this->min_area_, faces_.data(),
                               this->key_.data());
      return;
    }
    for (int h = 0; h < num_horizon; ++h) this->init_face_plane(horizon_[static_cast<std::size_t>(h)].created);
  }

  std::array<HorizonEdge, 3 * kMaxFaces> horizon_;
  /// Per vertex: the horizon edge starting / ending there in the current expansion (read only for
  /// vertices in the horizon, so never cleared).
  std::array<int, kMaxVertices> start_of_;
  std::array<int, kMaxVertices> end_of_;
  bool overflowed_ = false;
};

/// The small hull EPA tries first on polytope pairs: 34 vertices make at most 2 * 34 - 4 = 64
/// faces in a closed hull.
using SmallEpaHull = BasicSmallEpaHull<34, 64>;

}  // namespace proxima::gjk
