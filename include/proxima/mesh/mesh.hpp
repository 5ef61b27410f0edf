// SPDX-License-Identifier: MIT
// Mesh: a closed (or, on request, open) polyhedral surface with faces of any length (triangles,
// quads, n-gons, non-convex polygons allowed), half-edge adjacency, face planes, and the
// vertex-edge and edge-face incidences that the continuous collision module (ccd, seed 004
// sections 5-9) needs for properness values. Validated once, at construction.
#pragma once

#include <proxima/core/bounds.hpp>
#include <proxima/core/tolerance.hpp>
#include <proxima/core/types.hpp>

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace proxima::mesh {

/// What Mesh::from_faces accepts.
struct MeshOptions {
  /// Accept boundary edges (edges with a single face). Seed 004 allows open surfaces; properness
  /// then uses the one face present. Off by default: an open mesh is refused as "not closed".
  bool allow_open = false;
  /// Largest distance of a face's vertex from the face's (Newell) plane, relative to the mesh
  /// extent (largest AABB side). Beyond it the face is refused as non-planar.
  double planarity_tolerance = kMeshPlanarityTolerance;
  /// Faces with area below this times extent^2, and edges shorter than this times extent, are
  /// refused as degenerate.
  double degenerate_tolerance = kMeshDegenerateTolerance;
};

/// Face plane: the points x with normal . x == offset; `normal` is unit and points outward.
struct Plane {
  Vec3 normal = nan_vec3();
  double offset = kNaN;
};

/// One directed side of an edge, owned by one face. Faces list their vertices counter-clockwise
/// seen from outside, so a face lies on the LEFT of each of its half-edges (seen from outside).
struct HalfEdge {
  int origin = -1;  ///< vertex this half-edge starts at
  int next = -1;    ///< next half-edge around the same face
  int twin = -1;    ///< opposite half-edge (other face), -1 on an open mesh's boundary
  int face = -1;    ///< the face this half-edge bounds
  int edge = -1;    ///< the undirected edge it belongs to
};

/// Undirected edge v0 - v1, stored in the direction of its first half-edge: face_left contains the
/// half-edge v0 -> v1 and face_right the half-edge v1 -> v0 (-1 on an open boundary). "Left" is as
/// seen by an observer outside the solid walking from v0 to v1 (seed 004, formula (7)).
struct Edge {
  int v0 = -1;
  int v1 = -1;
  int face_left = -1;
  int face_right = -1;
  int half_edge = -1;  ///< the half-edge v0 -> v1
};

/// A validated polyhedral surface. Immutable after construction; cheap to copy (a few vectors).
class Mesh {
 public:
  /// Builds and validates a mesh. `faces[i]` lists vertex ids counter-clockwise seen from outside.
  /// Throws InvalidInput naming the field ("vertices[3].y", "faces[7]", "faces[2][1]", "mesh")
  /// when: a coordinate is not finite; there are no faces; a face has fewer than 3 vertices, an
  /// index out of range or a repeated index; an edge is shorter, or a face has less area, than
  /// degenerate_tolerance allows; a face is not planar within planarity_tolerance; an edge has
  /// more than two faces (not manifold); two faces traverse an edge in the same direction
  /// (inconsistent orientation); an edge has one face and !allow_open (not closed); a vertex is
  /// used by no face; a closed mesh has negative signed volume (faces oriented inward).
  /// Cost O(total face size * log).
  static Mesh from_faces(std::vector<Vec3> vertices, const std::vector<std::vector<int>>& faces,
                         const MeshOptions& options = {});

  int num_vertices() const noexcept { return static_cast<int>(vertices_.size()); }
  int num_faces() const noexcept { return static_cast<int>(face_start_.size()) - 1; }
  int num_edges() const noexcept { return static_cast<int>(edges_.size()); }
  int num_half_edges() const noexcept { return static_cast<int>(half_edges_.size()); }

  const std::vector<Vec3>& vertices() const noexcept { return vertices_; }
  const Vec3& vertex(int v) const { return vertices_[v]; }
  /// Vertex ids of face f, counter-clockwise seen from outside.
  std::span<const int> face(int f) const {
    return {face_vertices_.data() + face_start_[f], face_vertices_.data() + face_start_[f + 1]};
  }
  /// First half-edge of face f (from face(f)[0] to face(f)[1]); the others follow by `next`.
  int face_half_edge(int f) const { return face_start_[f]; }
  const Plane& plane(int f) const { return planes_[f]; }
  const Vec3& face_normal(int f) const { return planes_[f].normal; }
  const HalfEdge& half_edge(int h) const { return half_edges_[h]; }
  const Edge& edge(int e) const { return edges_[e]; }
  const std::vector<Edge>& edges() const noexcept { return edges_; }
  /// Edges incident to vertex v (vertex-edge incidence), in no particular order.
  std::span<const int> vertex_edges(int v) const {
    return {vertex_edge_ids_.data() + vertex_edge_start_[v], vertex_edge_ids_.data() + vertex_edge_start_[v + 1]};
  }
  /// Faces incident to vertex v, in no particular order.
  std::span<const int> vertex_faces(int v) const {
    return {vertex_face_ids_.data() + vertex_face_start_[v], vertex_face_ids_.data() + vertex_face_start_[v + 1]};
  }
  /// True when every edge has two faces.
  bool closed() const noexcept { return closed_; }
  /// Largest side of the axis-aligned bounding box (the scale the tolerances are relative to).
  double extent() const noexcept { return extent_; }
  /// Signed volume (divergence theorem); > 0 for a closed outward-oriented mesh, meaningless if open.
  double volume() const noexcept { return volume_; }
  /// Local-frame AABB and a bounding sphere centred at the AABB centre.
  const Aabb& aabb() const noexcept { return aabb_; }
  const BoundingSphere& bounding_sphere() const noexcept { return sphere_; }
  /// An id of this mesh's contents, for caches keyed on a mesh (the ccd exact mode's per-thread
  /// workspace): two meshes with the same id hold the same contents, bit for bit. Every mesh built
  /// (from_faces, scaled_by_power_of_two) gets an id no other mesh of the process had; a copy (or a
  /// copy assignment) takes its source's, which is safe because a Mesh is immutable; a move takes
  /// it too and leaves the mesh moved from with a new one. Equal meshes may have different ids.
  /// Never 0.
  std::uint64_t content_id() const noexcept { return id_.value; }

  /// The same mesh with every length multiplied by 2^exponent: vertices, plane offsets, AABB,
  /// bounding sphere and extent exactly (a power of two scales without rounding while the numbers
  /// stay normal doubles), the volume by 2^(3 exponent) (0 or infinite when that leaves the double
  /// range); faces, normals and adjacency unchanged, no validation. The ccd queries use it to
  /// bring meshes far from unit scale near it. Cost O(V + F) (a copy).
  Mesh scaled_by_power_of_two(int exponent) const;

  /// Splits face f into triangles (ear clipping in the face plane, so non-convex faces work),
  /// each counter-clockwise seen from outside. Cost O(k^2) for a k-gon.
  std::vector<std::array<int, 3>> triangulate_face(int f) const;
  /// All faces triangulated (face order kept).
  std::vector<std::array<int, 3>> triangulate() const;

 private:
  Mesh() = default;

  std::vector<Vec3> vertices_;
  std::vector<int> face_vertices_;
  std::vector<int> face_start_;
  std::vector<Plane> planes_;
  std::vector<HalfEdge> half_edges_;
  std::vector<Edge> edges_;
  std::vector<int> vertex_edge_start_, vertex_edge_ids_;
  std::vector<int> vertex_face_start_, vertex_face_ids_;
  bool closed_ = true;
  double extent_ = kNaN;
  double volume_ = kNaN;
  Aabb aabb_;
  BoundingSphere sphere_;
  // content_id(): a new value for every mesh built; copied with the contents; a move hands it on
  // and gives the moved-from mesh (whose contents the move took) a new one.
  struct ContentId {
    std::uint64_t value = next();
    ContentId() = default;
    ContentId(const ContentId&) = default;
    ContentId& operator=(const ContentId&) = default;
    ContentId(ContentId&& other) noexcept : value(other.value) { other.value = next(); }
    ContentId& operator=(ContentId&& other) noexcept {
      value = other.value;
      other.value = next();
      return *this;
    }
    ~ContentId() = default;
    static std::uint64_t next() noexcept;  // 1, 2, 3, ... over the process (atomic)
  };
  ContentId id_;
};

}  // namespace proxima::mesh
