// SPDX-License-Identifier: MIT
#include "viewer/convex_tessellation.hpp"

#include "viewer/sphere_grid.hpp"

#include <proxima/shapes/polytope.hpp>

#include <span>

namespace proxima::viewer {

TriMesh tessellate_polytope(const std::vector<Vec3>& points) {
  const Polytope hull{std::span<const Vec3>(points)};
  TriMesh mesh;
  mesh.vertices = hull.vertices();
  mesh.triangles = hull.faces();
  return mesh;
}

TriMesh tessellate_convex(const AnyConvex& shape, int level) {
  const TriMesh directions = unit_icosphere(level);
  std::vector<Vec3> points;
  points.reserve(directions.vertices.size());
  for (const Vec3& d : directions.vertices) points.push_back(shape.support(d));
  return tessellate_polytope(points);
}

}  // namespace proxima::viewer
