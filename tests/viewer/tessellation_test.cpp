// SPDX-License-Identifier: MIT
// The viewer's tessellators (apps/viewer): every vertex lies on the exact surface of its shape, as
// decided by an independent formula written here (not the library's support or value functions),
// the meshes are closed and outward oriented, and their volume is close to the exact volume (so
// no part of the surface is missing).
#include "viewer/convex_tessellation.hpp"
#include "viewer/implicit_tessellation.hpp"
#include "viewer/shape_tessellation.hpp"
#include "viewer/sphere_grid.hpp"

#include "scene/build.hpp"
#include "scene/reader.hpp"

#include <proxima/core/error.hpp>
#include <proxima/mesh/generators.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numbers>
#include <string>

namespace proxima::viewer {
namespace {

constexpr double kPi = std::numbers::pi;

// Largest |surface(p)| over the vertices, where `surface` is a distance-like function that is 0 on
// the exact surface.
double worst(const TriMesh& mesh, const std::function<double(const Vec3&)>& surface) {
  double w = 0;
  for (const Vec3& p : mesh.vertices) w = std::max(w, std::abs(surface(p)));
  return w;
}

double segment_distance(const Vec3& p, const Vec3& a, const Vec3& b) {
  const Vec3 ab = b - a;
  const double t = std::clamp((p - a).dot(ab) / ab.squaredNorm(), 0.0, 1.0);
  return (p - (a + t * ab)).norm();
}

double box_distance(const Vec3& p, const Vec3& h) {
  const Vec3 q = p.cwiseAbs() - h;
  return q.cwiseMax(0.0).norm() + std::min(q.maxCoeff(), 0.0);
}

void expect_closed(const TriMesh& mesh, double exact_volume, double relative, const std::string& what) {
  EXPECT_TRUE(is_closed_oriented(mesh)) << what;
  const double v = signed_volume(mesh);
  EXPECT_GT(v, 0) << what;
  EXPECT_NEAR(v, exact_volume, relative * exact_volume) << what << ": tessellated volume " << v;
}

TEST(Icosphere, CountsOrientationAndUnitVertices) {
  for (int level = 0; level <= 4; ++level) {
    const TriMesh s = unit_icosphere(level);
    const std::size_t f = static_cast<std::size_t>(20) << (2 * level);
    EXPECT_EQ(s.triangles.size(), f);
    EXPECT_EQ(s.vertices.size(), f / 2 + 2);
    EXPECT_TRUE(is_closed_oriented(s)) << level;
    EXPECT_LT(worst(s, [](const Vec3& p) { return p.norm() - 1; }), 1e-15);
    EXPECT_GT(signed_volume(s), 0) << level;
  }
  // The inscribed volume converges to the ball's.
  EXPECT_NEAR(signed_volume(unit_icosphere(5)), 4 * kPi / 3, 0.002 * 4 * kPi / 3);
  EXPECT_THROW(unit_icosphere(-1), InvalidInput);
  EXPECT_THROW(unit_icosphere(kMaxSphereLevel + 1), InvalidInput);
}

TEST(ClosedOriented, RejectsOpenFlippedAndNonManifoldMeshes) {
  TriMesh s = unit_icosphere(1);
  ASSERT_TRUE(is_closed_oriented(s));
  TriMesh open = s;
  open.triangles.pop_back();
  EXPECT_FALSE(is_closed_oriented(open));
  TriMesh flipped = s;
  std::swap(flipped.triangles[3][0], flipped.triangles[3][1]);
  EXPECT_FALSE(is_closed_oriented(flipped));
  TriMesh doubled = s;
  doubled.triangles.push_back(s.triangles[0]);
  EXPECT_FALSE(is_closed_oriented(doubled));
  EXPECT_FALSE(is_closed_oriented(TriMesh{}));
}

// Support sampling of every support-mapping primitive and compound, against the exact surface.
TEST(ConvexTessellation, VerticesOnExactSurfaces) {
  struct Case {
    std::string name;
    AnyConvex shape;
    std::function<double(const Vec3&)> surface;
    double volume;
    double volume_tolerance;  // relative: an inscribed mesh of a curved surface loses a little
  };
  const double r = 0.7, h = 1.1;
  const Vec3 axes(1.3, 0.8, 0.5), half(0.6, 0.4, 0.3);
  const Vec3 ex(2.2, 2.5, 8);
  std::vector<Case> cases;
  cases.push_back({"sphere", Sphere(r), [&](const Vec3& p) { return p.norm() - r; }, 4 * kPi / 3 * r * r * r, 0.01});
  cases.push_back({"ellipsoid", Ellipsoid(axes), [&](const Vec3& p) { return p.cwiseQuotient(axes).norm() - 1; },
                   4 * kPi / 3 * axes.prod(), 0.01});
  cases.push_back({"box", Box(half), [&](const Vec3& p) { return box_distance(p, half); }, 8 * half.prod(), 1e-12});
  cases.push_back({"capsule", Capsule(r, h),
                   [&](const Vec3& p) { return segment_distance(p, Vec3(0, 0, -h), Vec3(0, 0, h)) - r; },
                   kPi * r * r * 2 * h + 4 * kPi / 3 * r * r * r, 0.01});
  cases.push_back({"cylinder", Cylinder(r, h),
                   [&](const Vec3& p) {
                     const double radial = std::hypot(p.x(), p.y()) - r;
                     const double axial = std::abs(p.z()) - h;
                     return std::max(radial, axial);  // 0 exactly on the side or a cap
                   },
                   kPi * r * r * 2 * h, 0.01});
  cases.push_back({"cone", Cone(r, h),
                   [&](const Vec3& p) {
                     // Apex (0,0,h), base disc of radius r at z = -h: on the base, or on the side
                     // where the radius shrinks linearly to the apex.
                     const double rho = std::hypot(p.x(), p.y());
                     const double side = rho - r * (h - p.z()) / (2 * h);
                     const double base = -h - p.z();
                     return std::max(side * 2 * h / std::hypot(2 * h, r), base);
                   },
                   kPi * r * r * 2 * h / 3, 0.01});
  cases.push_back({"superquadric", Superquadric(axes, ex),
                   [&](const Vec3& p) {
                     double s = 0;
                     for (int i = 0; i < 3; ++i) s += std::pow(std::abs(p[i] / axes[i]), ex[i]);
                     return s - 1;  // relative error of the implicit equation
                   },
                   -1, 0});
  cases.push_back({"rounded box (minkowski)", AnyConvex::minkowski(Box(half), Sphere(0.2)),
                   [&](const Vec3& p) { return box_distance(p, half) - 0.2; },
                   8 * half.prod() + 2 * 0.2 * 4 * (half.x() * half.y() + half.y() * half.z() + half.x() * half.z()) +
                       kPi * 0.2 * 0.2 * 2 * (half.x() + half.y() + half.z()) + 4 * kPi / 3 * 0.008,
                   0.01});
  cases.push_back({"hull of two spheres", AnyConvex::hull({AnyConvex(Sphere(r)), AnyConvex::transformed(Sphere(r), Pose::from_translation(Vec3(1.5, 0, 0)))}),
                   [&](const Vec3& p) { return segment_distance(p, Vec3::Zero(), Vec3(1.5, 0, 0)) - r; },
                   kPi * r * r * 1.5 + 4 * kPi / 3 * r * r * r, 0.01});
  for (const Case& c : cases) {
    const TriMesh mesh = tessellate_convex(c.shape, 4);
    ASSERT_GE(mesh.vertices.size(), 8u) << c.name;
    EXPECT_LT(worst(mesh, c.surface), 1e-9) << c.name;
    EXPECT_TRUE(is_closed_oriented(mesh)) << c.name;
    EXPECT_GT(signed_volume(mesh), 0) << c.name;
    if (c.volume > 0) expect_closed(mesh, c.volume, c.volume_tolerance, c.name);
  }
}

TEST(ConvexTessellation, PolytopeIsItsExactHull) {
  const std::vector<Vec3> points = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0.1, 0.1, 0.1}};  // last is inside
  const TriMesh mesh = tessellate_polytope(points);
  EXPECT_EQ(mesh.vertices.size(), 4u);
  EXPECT_EQ(mesh.triangles.size(), 4u);
  expect_closed(mesh, 1.0 / 6, 1e-12, "tetrahedron");
}

// Radial projection of an implicit object: every vertex is inside and a step outward leaves the
// object, by the implicit formulas written out here.
TEST(ImplicitTessellation, VerticesOnTheBoundaryOfAnIntersection) {
  const Vec3 axes(1.5, 1.0, 1.0), ex(2, 3, 2.5);
  const double cut = 0.6;  // half-space -x <= cut
  const ipm::Object object({ipm::Part(ipm::Primitive(ipm::Superquadric(axes, ex))),
                            ipm::Part(ipm::Primitive(ipm::Halfspace(Vec3(-1, 0, 0), cut)))});
  const auto inside = [&](const Vec3& p) {
    double s = 0;
    for (int i = 0; i < 3; ++i) s += std::pow(std::abs(p[i] / axes[i]), ex[i]);
    return s <= 1 + 1e-9 && -p.x() <= cut + 1e-9;
  };
  const TriMesh mesh = tessellate_implicit(object, 4);
  ASSERT_EQ(mesh.vertices.size(), unit_icosphere(4).vertices.size());
  EXPECT_TRUE(is_closed_oriented(mesh));
  const Vec3 c = object.interior_point();
  int on_cut = 0;
  for (const Vec3& p : mesh.vertices) {
    ASSERT_TRUE(inside(p)) << p.transpose();
    const Vec3 d = (p - c).normalized();
    ASSERT_FALSE(inside(p + 1e-6 * d)) << p.transpose();
    on_cut += std::abs(p.x() + cut) < 1e-9;
    EXPECT_LE(implicit_value(object, p), 0);
  }
  // Both parts show: many vertices on the flat cut, most on the superquadric.
  EXPECT_GT(on_cut, 100);
  EXPECT_LT(on_cut, static_cast<int>(mesh.vertices.size()) / 2);
  EXPECT_GT(signed_volume(mesh), 0);
}

TEST(ImplicitTessellation, EllipsoidVolumeAndHyperquadric) {
  const Vec3 axes(1.2, 0.7, 0.4);
  const ipm::Object ellipsoid(ipm::Primitive(ipm::Quadric::ellipsoid(axes)));
  const TriMesh e = tessellate_implicit(ellipsoid, 4);
  EXPECT_LT(worst(e, [&](const Vec3& p) { return p.cwiseQuotient(axes).norm() - 1; }), 1e-9);
  expect_closed(e, 4 * kPi / 3 * axes.prod(), 0.01, "implicit ellipsoid");
  // |x|^4 + |y|^4 + |z - 0.5|^4 <= 1 as a hyperquadric of three planes.
  const ipm::Object hyper(ipm::Primitive(ipm::Hyperquadric(
      {{Eigen::Vector4d(1, 0, 0, 0), 4}, {Eigen::Vector4d(0, 1, 0, 0), 4}, {Eigen::Vector4d(0, 0, 1, -0.5), 4}})));
  const TriMesh q = tessellate_implicit(hyper, 3);
  EXPECT_TRUE(is_closed_oriented(q));
  EXPECT_LT(worst(q, [](const Vec3& p) { return std::pow(p.x(), 4) + std::pow(p.y(), 4) + std::pow(p.z() - 0.5, 4) - 1; }),
            1e-9);
}

// tessellate_shape picks the right form for each scene type.
TEST(ShapeTessellation, ChoosesTheFormPerType) {
  const std::string text = R"({"shapes": {
      "m": {"type": "mesh", "vertices": [[0,0,0],[1,0,0],[0,1,0],[0,0,1]], "faces": [[0,2,1],[0,1,3],[0,3,2],[1,2,3]]},
      "p": {"type": "polytope", "vertices": [[0,0,0],[2,0,0],[0,2,0],[0,0,2]]},
      "s": {"type": "sphere", "radius": 1},
      "i": {"type": "implicit", "parts": [{"type": "sphere", "radius": 1}, {"type": "halfspace", "normal": [0,0,1], "offset": 0.5}]},
      "h": {"type": "hyperquadric", "terms": [{"plane": [1,0,0,0], "exponent": 2}, {"plane": [0,1,0,0], "exponent": 2}, {"plane": [0,0,1,0], "exponent": 6}]}},
    "queries": []})";
  const scene::SceneSpec spec = scene::read_scene(text);
  const auto draw = [&](const char* name) {
    const scene::BuiltShape built = scene::build_shape(*spec.find_shape(name)->spec, "");
    EXPECT_EQ(built.error, "") << name;
    return tessellate_shape(built, 3);
  };
  const ShapeDrawing m = draw("m");
  EXPECT_EQ(m.method, "mesh faces");
  EXPECT_EQ(m.mesh.triangles.size(), 4u);
  const ShapeDrawing p = draw("p");
  EXPECT_EQ(p.method, "polytope hull");
  expect_closed(p.mesh, 8.0 / 6, 1e-12, "polytope");
  EXPECT_EQ(draw("s").method, "support sampling");
  const ShapeDrawing i = draw("i");
  EXPECT_EQ(i.method, "radial projection");
  EXPECT_LT(worst(i.mesh, [](const Vec3& x) { return std::max(x.norm() - 1, x.z() - 0.5); }), 1e-9);
  EXPECT_EQ(draw("h").method, "radial projection");
}

// The demo's torus mesh: drawn by its own faces, closed.
TEST(ShapeTessellation, MeshFacesOfTheTorus) {
  scene::BuiltShape built;
  built.mesh = std::make_shared<const mesh::Mesh>(mesh::make_torus());
  const ShapeDrawing d = tessellate_shape(built);
  EXPECT_EQ(d.mesh.triangles.size(), 600u);  // 300 quads
  EXPECT_TRUE(is_closed_oriented(d.mesh));
  EXPECT_NEAR(signed_volume(d.mesh), built.mesh->volume(), 1e-12);
}

}  // namespace
}  // namespace proxima::viewer
