// SPDX-License-Identifier: MIT
// The planes of the cone of faces BasicSmallEpaHull's expansion adds, four at a time with AVX2:
// the same operations per lane as detail::set_face_plane (gjk/epa_hull.hpp), so the same bits.
// Defined in src/shapes/epa_face_planes.cpp (the library's AVX2 kernels live in compiled files
// behind a runtime check, proxima::detail::kPolytopeHaveAvx2).
#pragma once

namespace proxima::gjk {

struct EpaFace;
struct SupportPoint;

namespace detail {

/// One horizon edge of an expansion: the cone's face (from, to, new vertex) goes to slot `created`,
/// across the edge from face `outside`, whose edge (to, from) has index `back`.
struct ConeEdge {
  int from;
  int to;
  int outside;
  int back;
  int created;
};

/// For each edge h < count: faces[edges[h].created]'s normal, distance and valid, and
/// keys[edges[h].created] (the distance, +inf for a sliver), for the triangle (vertices[from].w,
/// vertices[to].w, vertices[v].w): bit for bit what set_face_plane with `min_area` and the key
/// store of init_face give. Reads four doubles from each w (a SupportPoint's w is followed by its
/// a). Call only when proxima::detail::kPolytopeHaveAvx2 (shapes/polytope.hpp).
void cone_planes_avx2(const SupportPoint* vertices, const ConeEdge* edges, int count, int v, double min_area,
                      EpaFace* faces, double* keys);

}  // namespace detail

}  // namespace proxima::gjk
