// SPDX-License-Identifier: MIT
// libFuzzer target: the mesh readers (include/proxima/mesh/io.hpp) on any bytes, then validation
// (Mesh::from_faces) and triangulation of what they read. The first byte picks the format
// (OBJ, OFF, STL) and whether open meshes are accepted; the rest is the file.
// Accepted outcome: InvalidInput (malformed file, invalid mesh). Findings: a crash, a hang, a
// sanitizer report, any other exception, or a validated mesh that breaks its own invariants
// (a face index out of range, a non-finite vertex, plane normal or extent, a triangle index out
// of range).
#include <proxima/core/error.hpp>
#include <proxima/mesh/io.hpp>
#include <proxima/mesh/mesh.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

namespace {

[[noreturn]] void finding(const char* what) {
  std::fprintf(stderr, "fuzz_mesh finding: %s\n", what);
  std::abort();
}

void check(const proxima::mesh::Mesh& m) {
  using proxima::Vec3;
  if (!std::isfinite(m.extent()) || !(m.extent() > 0)) finding("extent not finite and positive");
  for (const Vec3& v : m.vertices())
    if (!v.allFinite()) finding("non-finite vertex");
  for (int f = 0; f < m.num_faces(); ++f) {
    if (m.face(f).size() < 3) finding("face with fewer than 3 vertices");
    for (int v : m.face(f))
      if (v < 0 || v >= m.num_vertices()) finding("face index out of range");
    if (!m.face_normal(f).allFinite()) finding("non-finite face normal");
  }
  for (const auto& t : m.triangulate())
    for (int v : t)
      if (v < 0 || v >= m.num_vertices()) finding("triangle index out of range");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace proxima::mesh;
  if (size < 1) return 0;
  const int format = data[0] % 3;
  MeshOptions options;
  options.allow_open = (data[0] & 4) != 0;
  const std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    MeshData read;
    if (format == 0) {
      std::istringstream in(bytes);
      read = parse_obj(in);
    } else if (format == 1) {
      std::istringstream in(bytes);
      read = parse_off(in);
    } else {
      read = parse_stl(bytes);
    }
    check(Mesh::from_faces(std::move(read.vertices), read.faces, options));
  } catch (const proxima::InvalidInput&) {
    // refused with a message naming the field: the documented outcome
  }
  return 0;
}
