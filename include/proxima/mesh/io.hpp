// SPDX-License-Identifier: MIT
// Small own readers for OBJ, OFF and STL (binary and ASCII). They read geometry only (positions
// and polygon faces); normals, texture coordinates, groups and materials are ignored. The result
// is validated by Mesh::from_faces, so a file describing an open or badly oriented surface is
// refused with the same messages as a mesh built from lists.
#pragma once

#include <proxima/mesh/mesh.hpp>

#include <istream>
#include <string>

namespace proxima::mesh {

/// Vertices and faces as read from a file, before validation.
struct MeshData {
  std::vector<Vec3> vertices;
  std::vector<std::vector<int>> faces;
};

/// Wavefront OBJ: "v x y z [w]" and "f a b c ..." lines, where a face corner may be "i", "i/t",
/// "i//n" or "i/t/n" and negative indices count back from the last vertex read. Throws
/// InvalidInput("obj line N") on a malformed v or f line or an index of 0.
MeshData parse_obj(std::istream& in);

/// OFF: optional "OFF" keyword, then "nv nf ne", nv lines "x y z", nf lines "k i0 ... ik-1";
/// "#" starts a comment. Throws InvalidInput("off ...") on malformed content.
MeshData parse_off(std::istream& in);

/// STL, binary (80-byte header, uint32 count, 50 bytes per triangle; recognised by its exact
/// size) or ASCII ("solid ... facet ... vertex x y z ..."). Corners closer than
/// weld_tolerance * extent are welded into one vertex, so the triangles share edges.
/// Throws InvalidInput("stl ...") on a truncated or malformed file.
MeshData parse_stl(const std::string& bytes, double weld_tolerance = kMeshWeldTolerance);

/// Reads a file by its extension (.obj, .off, .stl, case-insensitive) and validates it.
/// Throws InvalidInput("file") when it cannot be opened or the extension is unknown.
Mesh load_mesh(const std::string& path, const MeshOptions& options = {});

}  // namespace proxima::mesh
