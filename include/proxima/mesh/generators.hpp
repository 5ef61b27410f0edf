// SPDX-License-Identifier: MIT
// Meshes for tests and demos: box, tetrahedron, the simple car of seed 004 (figure 12: 16 vertices,
// 26 edges, 12 faces), a quad torus (seed 004 section 9.1 uses 300 faces), an L-shaped prism.
// All are closed, outward oriented and centred near the local origin.
#pragma once

#include <proxima/mesh/mesh.hpp>

namespace proxima::mesh {

/// Box {|x_i| <= half_extents_i}: 8 vertices, 6 quads. Throws InvalidInput("half_extents") unless
/// each half extent is finite and > 0.
Mesh make_box(const Vec3& half_extents);

/// Regular tetrahedron with vertices at distance `circumradius` from the origin: (1,1,1),
/// (1,-1,-1), (-1,1,-1), (-1,-1,1) scaled. Throws InvalidInput unless circumradius > 0.
Mesh make_tetrahedron(double circumradius = 1);

/// A simple car body, length 4 along x, width 1.8 along y, height 1.3 along z (times `scale`),
/// bottom at z = 0: a hexagonal lower body side, a narrower cabin with trapezoid windshield, roof
/// and rear window. 16 vertices, 26 edges, 12 faces, as the car of seed 004 figure 12 (our own
/// design of it). Not convex: the hood meets the windshield in a concave edge.
Mesh make_car(double scale = 1);

/// Torus around the z axis: ring radius `major_radius`, tube radius `minor_radius`, with
/// `major_segments` x `minor_segments` planar quads (20 x 15 = 300 by default, as seed 004 9.1).
/// Throws InvalidInput unless 0 < minor < major and both segment counts are >= 3.
Mesh make_torus(double major_radius = 1, double minor_radius = 0.3, int major_segments = 20, int minor_segments = 15);

/// L-shaped prism: the L polygon (0,0) (2,0) (2,1) (1,1) (1,2) (0,2) times `size`, centred at
/// its bounding-box centre, extruded over z in [-half_thickness, half_thickness]. 12 vertices,
/// 8 faces (two non-convex hexagons), 18 edges. Not convex.
Mesh make_l_prism(double size = 1, double half_thickness = 0.5);

}  // namespace proxima::mesh
