// SPDX-License-Identifier: MIT
// Tessellation of a convex shape from its support mapping alone (any AnyConvex: primitives,
// rounded shapes, Minkowski sums, hulls, affine images): the support points in the directions of
// a unit icosphere all lie exactly on the surface, and their convex hull (qhull, through Polytope)
// is the triangulation. Flat parts (box faces, cylinder caps) come out exact; curved parts are
// inscribed, with a gap that shrinks as the square of the direction spacing.
#pragma once

#include "viewer/tri_mesh.hpp"

#include <proxima/shapes/any_convex.hpp>

namespace proxima::viewer {

/// The convex hull of shape.support(d) over the vertices d of unit_icosphere(level), in the
/// shape's local frame. Every output vertex is a support point of the shape. Throws
/// InvalidInput("level") for a bad level, and what Polytope throws for a degenerate hull (all
/// support points on one line, e.g. a segment).
TriMesh tessellate_convex(const AnyConvex& shape, int level);

/// The hull of a vertex list, exactly (a polytope): Polytope's triangulated hull.
TriMesh tessellate_polytope(const std::vector<Vec3>& points);

}  // namespace proxima::viewer
