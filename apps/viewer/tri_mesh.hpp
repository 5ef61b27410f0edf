// SPDX-License-Identifier: MIT
// TriMesh: the triangle soup the viewer page draws for one shape, in the shape's local frame.
#pragma once

#include <proxima/core/types.hpp>

#include <array>
#include <vector>

namespace proxima::viewer {

/// Vertices and counter-clockwise (seen from outside) triangles of a shape's surface.
struct TriMesh {
  std::vector<Vec3> vertices;
  std::vector<std::array<int, 3>> triangles;
};

/// True when every triangle uses valid, distinct vertex ids and every directed edge a->b occurs
/// exactly once with its reverse b->a occurring exactly once: a closed, consistently oriented,
/// edge-manifold surface. Cost O(T log T).
bool is_closed_oriented(const TriMesh& mesh);

/// Signed volume by the divergence theorem (> 0 for a closed outward-oriented surface).
double signed_volume(const TriMesh& mesh);

}  // namespace proxima::viewer
