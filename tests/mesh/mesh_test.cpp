// SPDX-License-Identifier: MIT
// Mesh construction, adjacency invariants, validation errors, generators (counts and volumes
// against closed forms), triangulation.
#include <proxima/core/error.hpp>
#include <proxima/mesh/generators.hpp>
#include <proxima/mesh/mesh.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <numbers>
#include <set>
#include <utility>

namespace proxima::mesh {
namespace {

// Checks every adjacency invariant the ccd module relies on.
void expect_consistent(const Mesh& m) {
  int degree_sum = 0;
  for (int h = 0; h < m.num_half_edges(); ++h) {
    const HalfEdge& he = m.half_edge(h);
    const HalfEdge& nx = m.half_edge(he.next);
    EXPECT_EQ(nx.face, he.face) << "half-edge " << h;
    if (he.twin >= 0) {
      EXPECT_EQ(m.half_edge(he.twin).twin, h);
      EXPECT_EQ(m.half_edge(he.twin).origin, nx.origin) << "twin starts where h ends";
      EXPECT_EQ(m.half_edge(he.twin).edge, he.edge);
    }
    const Edge& e = m.edge(he.edge);
    EXPECT_TRUE((e.v0 == he.origin && e.v1 == nx.origin) || (e.v1 == he.origin && e.v0 == nx.origin));
  }
  for (int f = 0; f < m.num_faces(); ++f) {
    int h = m.face_half_edge(f);
    const int k = static_cast<int>(m.face(f).size());
    for (int i = 0; i < k; ++i) {
      EXPECT_EQ(m.half_edge(h).origin, m.face(f)[i]);
      h = m.half_edge(h).next;
    }
    EXPECT_EQ(h, m.face_half_edge(f)) << "face " << f << " cycle closes after k steps";
    EXPECT_NEAR(m.face_normal(f).norm(), 1, 1e-14);
    for (int v : m.face(f)) EXPECT_NEAR(m.face_normal(f).dot(m.vertex(v)), m.plane(f).offset, 1e-12);
  }
  for (int e = 0; e < m.num_edges(); ++e) {
    const Edge& ed = m.edge(e);
    const HalfEdge& he = m.half_edge(ed.half_edge);
    EXPECT_EQ(he.origin, ed.v0);
    EXPECT_EQ(he.face, ed.face_left);
    // The left face's outward normal, crossed with the edge direction, points into that face
    // (seen from outside, the face is on the left of v0 -> v1).
    const Vec3 dir = m.vertex(ed.v1) - m.vertex(ed.v0);
    const Vec3 into_left = m.face_normal(ed.face_left).cross(dir);
    Vec3 c = Vec3::Zero();
    for (int v : m.face(ed.face_left)) c += m.vertex(v);
    c /= static_cast<double>(m.face(ed.face_left).size());
    if (ed.face_right >= 0) {
      Vec3 cr = Vec3::Zero();
      for (int v : m.face(ed.face_right)) cr += m.vertex(v);
      cr /= static_cast<double>(m.face(ed.face_right).size());
      EXPECT_LT(into_left.dot(cr - m.vertex(ed.v0)), into_left.dot(c - m.vertex(ed.v0)) + 1e-12);
    }
  }
  for (int v = 0; v < m.num_vertices(); ++v) {
    degree_sum += static_cast<int>(m.vertex_edges(v).size());
    for (int e : m.vertex_edges(v)) EXPECT_TRUE(m.edge(e).v0 == v || m.edge(e).v1 == v);
    for (int f : m.vertex_faces(v)) {
      bool found = false;
      for (int w : m.face(f)) found = found || w == v;
      EXPECT_TRUE(found);
    }
  }
  EXPECT_EQ(degree_sum, 2 * m.num_edges());
}

TEST(Mesh, BoxCountsVolumeAndAdjacency) {
  const Mesh m = make_box(Vec3(1, 2, 3));
  EXPECT_EQ(m.num_vertices(), 8);
  EXPECT_EQ(m.num_faces(), 6);
  EXPECT_EQ(m.num_edges(), 12);
  EXPECT_TRUE(m.closed());
  EXPECT_NEAR(m.volume(), 8 * 6, 1e-12);
  EXPECT_DOUBLE_EQ(m.extent(), 6);
  expect_consistent(m);
  // Each face normal is the axis direction of the face's common coordinate.
  for (int f = 0; f < 6; ++f) {
    const Vec3 n = m.face_normal(f);
    EXPECT_NEAR(n.cwiseAbs().maxCoeff(), 1, 1e-15);
    for (int v : m.face(f)) EXPECT_GT(n.dot(m.vertex(v)), 0);
  }
}

TEST(Mesh, TetrahedronVolume) {
  const Mesh m = make_tetrahedron(std::sqrt(3.0));  // corners of the cube [-1,1]^3
  EXPECT_EQ(m.num_edges(), 6);
  EXPECT_NEAR(m.volume(), 8.0 / 3.0, 1e-12);
  expect_consistent(m);
}

TEST(Mesh, CarMatchesSeedCountsAndVolume) {
  const Mesh m = make_car();
  EXPECT_EQ(m.num_vertices(), 16);
  EXPECT_EQ(m.num_edges(), 26);
  EXPECT_EQ(m.num_faces(), 12);
  expect_consistent(m);
  // Independent volume: lower body (hexagon profile x 1.8 wide) + cabin whose x length and y
  // width both shrink linearly with z from (1.8, 1.8) at z = 0.8 to (0.9, 1.2) at z = 1.3.
  const double hx[6] = {2, 2, 0.8, -1, -2, -2}, hz[6] = {0, 0.6, 0.8, 0.8, 0.7, 0};
  double area = 0;
  for (int i = 0; i < 6; ++i) area += hx[i] * hz[(i + 1) % 6] - hx[(i + 1) % 6] * hz[i];
  area = std::abs(area) / 2;
  const double a0 = 1.8, a1 = 0.9, b0 = 1.8, b1 = 1.2, height = 0.5;
  const double cabin = height * (a0 * b0 + (a0 * (b1 - b0) + b0 * (a1 - a0)) / 2 + (a1 - a0) * (b1 - b0) / 3);
  EXPECT_NEAR(m.volume(), area * 1.8 + cabin, 1e-12);
}

TEST(Mesh, TorusCountsEulerAndVolume) {
  const Mesh m = make_torus(1, 0.3, 20, 15);
  EXPECT_EQ(m.num_faces(), 300);
  EXPECT_EQ(m.num_vertices(), 300);
  EXPECT_EQ(m.num_edges(), 600);
  EXPECT_EQ(m.num_vertices() - m.num_edges() + m.num_faces(), 0);  // genus 1
  expect_consistent(m);
  // The polygonal torus is inscribed in the smooth one: a little smaller than 2 pi^2 R r^2.
  const double smooth = 2 * std::numbers::pi * std::numbers::pi * 1 * 0.09;
  EXPECT_LT(m.volume(), smooth);
  EXPECT_GT(m.volume(), 0.95 * smooth);
}

// content_id() (the ccd workspace's cache key): a new id for every mesh built, shared by copies,
// handed on by a move (the moved-from mesh gets a new one), never 0.
TEST(Mesh, ContentIdIsSharedByCopiesOnly) {
  const Mesh torus = make_torus(1, 0.3);
  const Mesh same_numbers = make_torus(1, 0.3);  // equal contents, built again: another id
  const Mesh box = make_box(Vec3(0.5, 0.5, 0.5));
  std::set<std::uint64_t> ids = {torus.content_id(), same_numbers.content_id(), box.content_id()};
  EXPECT_EQ(ids.size(), 3u);
  EXPECT_EQ(ids.count(0), 0u);
  const Mesh copy = torus;
  EXPECT_EQ(copy.content_id(), torus.content_id());
  Mesh assigned = box;
  EXPECT_EQ(assigned.content_id(), box.content_id());
  assigned = torus;  // now the torus's contents
  EXPECT_EQ(assigned.content_id(), torus.content_id());
  // Scaled copies hold other numbers (also by 2^0: a mesh built is a new id).
  for (int exponent : {-3, 0, 1, 40}) {
    const Mesh scaled = torus.scaled_by_power_of_two(exponent);
    EXPECT_TRUE(ids.insert(scaled.content_id()).second) << exponent;
  }
  // A move hands the id on; the mesh moved from (its contents taken) gets one no mesh had.
  Mesh from = torus;
  const Mesh moved = std::move(from);
  EXPECT_EQ(moved.content_id(), torus.content_id());
  EXPECT_TRUE(ids.insert(from.content_id()).second);
  Mesh target = box;
  Mesh source = same_numbers;
  target = std::move(source);
  EXPECT_EQ(target.content_id(), same_numbers.content_id());
  EXPECT_EQ(target.num_faces(), same_numbers.num_faces());
  EXPECT_TRUE(ids.insert(source.content_id()).second);
}

TEST(Mesh, LPrismVolumeAndNonConvexTriangulation) {
  const Mesh m = make_l_prism(1, 0.5);
  EXPECT_EQ(m.num_vertices(), 12);
  EXPECT_EQ(m.num_faces(), 8);
  EXPECT_EQ(m.num_edges(), 18);
  EXPECT_NEAR(m.volume(), 3.0, 1e-12);
  expect_consistent(m);
  // Ear clipping of each non-convex hexagon: 4 triangles, all counter-clockwise from outside,
  // total area 3, and the triangulated surface encloses the same volume.
  double volume = 0;
  for (int f = 0; f < m.num_faces(); ++f) {
    const auto tris = m.triangulate_face(f);
    EXPECT_EQ(tris.size(), m.face(f).size() - 2);
    double area = 0;
    for (const auto& t : tris) {
      const Vec3 n = (m.vertex(t[1]) - m.vertex(t[0])).cross(m.vertex(t[2]) - m.vertex(t[0]));
      EXPECT_GT(n.dot(m.face_normal(f)), 0) << "face " << f;
      area += n.norm() / 2;
      volume += m.vertex(t[0]).dot(m.vertex(t[1]).cross(m.vertex(t[2]))) / 6;
    }
    if (m.face(f).size() == 6) {
      EXPECT_NEAR(area, 3, 1e-12);
    }
  }
  EXPECT_NEAR(volume, 3.0, 1e-12);
}

std::vector<Vec3> cube_vertices() {
  std::vector<Vec3> v;
  for (int i = 0; i < 8; ++i) v.emplace_back(i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1);
  return v;
}
const std::vector<std::vector<int>> kCubeFaces = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4},
                                                  {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};

// Runs `build` and checks it throws InvalidInput whose message contains `needle`.
template <class F>
void expect_refused(F build, const std::string& needle) {
  try {
    build();
    ADD_FAILURE() << "expected InvalidInput containing '" << needle << "'";
  } catch (const InvalidInput& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST(MeshValidation, RefusesBadMeshesWithClearMessages) {
  auto faces = kCubeFaces;
  faces.pop_back();
  expect_refused([&] { Mesh::from_faces(cube_vertices(), faces); }, "not closed");
  MeshOptions open;
  open.allow_open = true;
  const Mesh m = Mesh::from_faces(cube_vertices(), faces, open);
  EXPECT_FALSE(m.closed());
  expect_consistent(m);

  faces = kCubeFaces;
  std::reverse(faces[2].begin(), faces[2].end());
  expect_refused([&] { Mesh::from_faces(cube_vertices(), faces); }, "inconsistent orientation");

  faces = kCubeFaces;
  for (auto& f : faces) std::reverse(f.begin(), f.end());
  expect_refused([&] { Mesh::from_faces(cube_vertices(), faces); }, "oriented inward");

  // A fin: a third face on edge 0-4 (with a new vertex) makes it non-manifold.
  auto verts = cube_vertices();
  verts.emplace_back(-2, -2, 0);
  faces = kCubeFaces;
  faces.push_back({0, 4, 8});
  expect_refused([&] { Mesh::from_faces(verts, faces); }, "not manifold");

  verts = cube_vertices();
  verts[7].z() = 1.1;  // warps the three quads around vertex 7
  expect_refused([&] { Mesh::from_faces(verts, kCubeFaces); }, "not planar");

  faces = kCubeFaces;
  faces[0] = {0, 4, 4, 2};
  expect_refused([&] { Mesh::from_faces(cube_vertices(), faces); }, "repeats vertex");

  // Collinear triangle: zero area.
  expect_refused([&] {
    Mesh::from_faces({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(2, 0, 0)}, {{0, 1, 2}}, open);
  }, "degenerate face");

  verts = cube_vertices();
  verts[3].y() = std::nan("");
  expect_refused([&] { Mesh::from_faces(verts, kCubeFaces); }, "vertices[3].y");

  faces = kCubeFaces;
  faces[1][2] = 9;
  expect_refused([&] { Mesh::from_faces(cube_vertices(), faces); }, "faces[1][2]");

  verts = cube_vertices();
  verts.emplace_back(5, 5, 5);
  expect_refused([&] { Mesh::from_faces(verts, kCubeFaces); }, "vertices[8]");

  expect_refused([&] { Mesh::from_faces(cube_vertices(), {}); }, "faces");
  expect_refused([&] { make_torus(1, 2); }, "minor_radius");
  expect_refused([&] { make_box(Vec3(1, -1, 1)); }, "half_extents.y");
}

TEST(MeshValidation, PlanarityToleranceIsRelativeAndNamed) {
  auto verts = cube_vertices();
  verts[7].z() = 1 + 1e-12;  // warp 1e-12 on extent 2: inside the default 1e-9
  EXPECT_NO_THROW(Mesh::from_faces(verts, kCubeFaces));
  MeshOptions strict;
  strict.planarity_tolerance = 1e-14;
  expect_refused([&] { Mesh::from_faces(verts, kCubeFaces, strict); }, "not planar");
  // Scaled by 1e5, the same relative warp is still accepted.
  for (auto& p : verts) p *= 1e5;
  EXPECT_NO_THROW(Mesh::from_faces(verts, kCubeFaces));
}

}  // namespace
}  // namespace proxima::mesh
