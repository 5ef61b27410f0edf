// SPDX-License-Identifier: MIT
// Chooses how one scene shape is drawn: meshes by their own faces, polytopes by their exact hull,
// every other shape with a support mapping by support sampling (convex_tessellation.hpp), and
// implicit-only shapes (implicit, hyperquadric) by radial projection (implicit_tessellation.hpp).
#pragma once

#include "viewer/tri_mesh.hpp"

#include "scene/build.hpp"

#include <string>

namespace proxima::viewer {

/// Default icosphere level of the smooth tessellations (2562 sampling directions).
inline constexpr int kDefaultDetail = 4;

/// A shape's drawing, local frame.
struct ShapeDrawing {
  TriMesh mesh;
  /// "mesh faces", "polytope hull", "support sampling" or "radial projection".
  std::string method;
};

/// Tessellates a built shape (scene/build.hpp) at icosphere level `detail`. Throws InvalidInput
/// when the shape has no form the viewer can draw or the level is out of range.
ShapeDrawing tessellate_shape(const scene::BuiltShape& shape, int detail = kDefaultDetail);

}  // namespace proxima::viewer
