// SPDX-License-Identifier: MIT
// OBJ / OFF / STL readers: each format describing the same solid gives the same validated mesh
// (counts, volume), STL corners are welded, malformed input is refused naming the place.
#include <proxima/core/error.hpp>
#include <proxima/mesh/generators.hpp>
#include <proxima/mesh/io.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

namespace proxima::mesh {
namespace {

TEST(MeshIo, ObjWithSlashesNegativeIndicesAndComments) {
  std::istringstream in(R"(# a unit cube
o cube
v -1 -1 -1
v 1 -1 -1
v -1 1 -1
v 1 1 -1
v -1 -1 1
v 1 -1 1
v -1 1 1
v 1 1 1
vn 0 0 1
f 1/1/1 5/2/1 7/3/1 3/4/1
f 2//1 4//1 8//1 6//1
f 1 2 6 5
f 3 7 8 4
f 1 3 4 2
f -4 -3 -1 -2   # the +z face, counted back from the last vertex
)");
  const MeshData d = parse_obj(in);
  ASSERT_EQ(d.vertices.size(), 8u);
  ASSERT_EQ(d.faces.size(), 6u);
  EXPECT_EQ(d.faces[5], (std::vector<int>{4, 5, 7, 6}));
  const Mesh m = Mesh::from_faces(d.vertices, d.faces);
  EXPECT_NEAR(m.volume(), 8, 1e-12);
  std::istringstream bad("v 1 2\n");
  EXPECT_THROW(parse_obj(bad), InvalidInput);
  std::istringstream zero("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n");
  try {
    parse_obj(zero);
    ADD_FAILURE();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.field(), "obj line 4");
  }
}

TEST(MeshIo, OffTetrahedron) {
  std::istringstream in("OFF\n# tetra\n4 4 6\n1 1 1\n1 -1 -1\n-1 1 -1\n-1 -1 1\n3 0 1 2\n3 0 3 1\n3 0 2 3\n3 1 3 2\n");
  const MeshData d = parse_off(in);
  const Mesh m = Mesh::from_faces(d.vertices, d.faces);
  EXPECT_NEAR(m.volume(), 8.0 / 3.0, 1e-12);
  std::istringstream truncated("OFF\n4 4 6\n1 1 1\n");
  EXPECT_THROW(parse_off(truncated), InvalidInput);
}

// Writes the triangulated box as STL (each triangle with its own three corners).
std::string box_stl(bool binary) {
  const Mesh box = make_box(Vec3(1, 2, 0.5));
  const auto tris = box.triangulate();
  if (!binary) {
    std::ostringstream out;
    out.precision(17);
    out << "solid box\n";
    for (const auto& t : tris) {
      out << " facet normal 0 0 0\n  outer loop\n";
      for (int c : t) out << "   vertex " << box.vertex(c).x() << " " << box.vertex(c).y() << " " << box.vertex(c).z() << "\n";
      out << "  endloop\n endfacet\n";
    }
    out << "endsolid box\n";
    return out.str();
  }
  std::string bytes(84 + 50 * tris.size(), '\0');
  const auto count = static_cast<std::uint32_t>(tris.size());
  std::memcpy(bytes.data() + 80, &count, 4);
  for (std::size_t i = 0; i < tris.size(); ++i) {
    for (int c = 0; c < 3; ++c) {
      const float xyz[3] = {static_cast<float>(box.vertex(tris[i][c]).x()), static_cast<float>(box.vertex(tris[i][c]).y()),
                            static_cast<float>(box.vertex(tris[i][c]).z())};
      std::memcpy(bytes.data() + 84 + 50 * i + 12 + 12 * c, xyz, 12);
    }
  }
  return bytes;
}

TEST(MeshIo, StlAsciiAndBinaryAreWelded) {
  for (bool binary : {false, true}) {
    SCOPED_TRACE(binary ? "binary" : "ascii");
    const MeshData d = parse_stl(box_stl(binary));
    EXPECT_EQ(d.vertices.size(), 8u) << "36 corners welded to 8 vertices";
    EXPECT_EQ(d.faces.size(), 12u);
    const Mesh m = Mesh::from_faces(d.vertices, d.faces);
    EXPECT_EQ(m.num_edges(), 18);
    EXPECT_NEAR(m.volume(), 8, 1e-12);
  }
  EXPECT_THROW(parse_stl("not an stl"), InvalidInput);
}

TEST(MeshIo, LoadByExtension) {
  const std::string path = ::testing::TempDir() + "proxima_io_test.stl";
  {
    std::ofstream out(path, std::ios::binary);
    out << box_stl(true);
  }
  EXPECT_NEAR(load_mesh(path).volume(), 8, 1e-12);
  std::remove(path.c_str());
  EXPECT_THROW(load_mesh("/nonexistent/file.obj"), InvalidInput);
  try {
    load_mesh(path + ".xyz");
    ADD_FAILURE();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.field(), "file");
  }
}

}  // namespace
}  // namespace proxima::mesh
