// SPDX-License-Identifier: MIT
#include "viewer/shape_tessellation.hpp"

#include "viewer/convex_tessellation.hpp"
#include "viewer/implicit_tessellation.hpp"

#include <proxima/core/error.hpp>

namespace proxima::viewer {

ShapeDrawing tessellate_shape(const scene::BuiltShape& shape, int detail) {
  ShapeDrawing out;
  if (shape.spec != nullptr) {
    if (const auto* polytope = std::get_if<scene::PolytopeSpec>(&shape.spec->value); polytope && !shape.spec->pose) {
      out.mesh = tessellate_polytope(polytope->vertices);
      out.method = "polytope hull";
      return out;
    }
  }
  if (shape.mesh) {
    out.mesh.vertices = shape.mesh->vertices();
    out.mesh.triangles = shape.mesh->triangulate();
    out.method = "mesh faces";
    return out;
  }
  if (shape.convex) {
    out.mesh = tessellate_convex(*shape.convex, detail);
    out.method = "support sampling";
    return out;
  }
  if (shape.implicit) {
    out.mesh = tessellate_implicit(*shape.implicit, detail);
    out.method = "radial projection";
    return out;
  }
  throw InvalidInput(shape.spec ? shape.spec->path : "shape", "has no form the viewer can draw");
}

}  // namespace proxima::viewer
