// SPDX-License-Identifier: MIT
// The unit icosphere: a closed triangulation of the unit sphere with nearly uniform vertices. Its
// vertices are the sampling directions of both tessellators (support sampling, radial projection).
#pragma once

#include "viewer/tri_mesh.hpp"

namespace proxima::viewer {

/// Highest subdivision level accepted (level 7: 163842 vertices).
inline constexpr int kMaxSphereLevel = 7;

/// Icosahedron subdivided `level` times (each triangle split in four, new vertices pushed to the
/// sphere): 10 * 4^level + 2 unit vertices, 20 * 4^level outward-oriented triangles. Throws
/// InvalidInput("level") unless 0 <= level <= kMaxSphereLevel.
TriMesh unit_icosphere(int level);

}  // namespace proxima::viewer
