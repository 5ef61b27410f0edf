// SPDX-License-Identifier: MIT
#include <proxima/mesh/generators.hpp>

#include <proxima/core/error.hpp>

#include <cmath>
#include <numbers>
#include <string>

namespace proxima::mesh {

Mesh make_box(const Vec3& h) {
  require_positive("half_extents", h);
  std::vector<Vec3> v;
  for (int i = 0; i < 8; ++i) {
    v.emplace_back((i & 1) ? h.x() : -h.x(), (i & 2) ? h.y() : -h.y(), (i & 4) ? h.z() : -h.z());
  }
  // Vertex i has bit 0 = +x, bit 1 = +y, bit 2 = +z; each face counter-clockwise from outside.
  const std::vector<std::vector<int>> f = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4},
                                           {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
  return Mesh::from_faces(std::move(v), f);
}

Mesh make_tetrahedron(double circumradius) {
  require_positive("circumradius", circumradius);
  const double s = circumradius / std::sqrt(3.0);
  std::vector<Vec3> v = {Vec3(s, s, s), Vec3(s, -s, -s), Vec3(-s, s, -s), Vec3(-s, -s, s)};
  const std::vector<std::vector<int>> f = {{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}};
  return Mesh::from_faces(std::move(v), f);
}

Mesh make_car(double scale) {
  require_positive("scale", scale);
  // Side profile (x, z), front to back over the top: bumper bottom, bumper top, windshield base,
  // roof front, roof back, rear-window base, trunk end, rear bottom. The roof points sit on the
  // narrower cabin half width.
  const double px[8] = {2.0, 2.0, 0.8, 0.3, -0.6, -1.0, -2.0, -2.0};
  const double pz[8] = {0.0, 0.6, 0.8, 1.3, 1.3, 0.8, 0.7, 0.0};
  const double body = 0.9, cabin = 0.6;
  std::vector<Vec3> v;
  for (int side = 0; side < 2; ++side) {
    const double sign = side == 0 ? 1 : -1;  // 0..7: +y side, 8..15: -y side
    for (int i = 0; i < 8; ++i) {
      const double w = (i == 3 || i == 4) ? cabin : body;
      v.emplace_back(scale * px[i], scale * sign * w, scale * pz[i]);
    }
  }
  std::vector<std::vector<int>> f;
  // Around the loop: quads between profile points i and i+1 on both sides. The profile runs
  // counter-clockwise in the (x, z) plane, so (i, i+1, i+9, i+8) faces outward.
  for (int i = 0; i < 8; ++i) {
    const int j = (i + 1) % 8;
    f.push_back({i, j, j + 8, i + 8});
  }
  // +y side: lower hexagon and cabin trapezoid (reversed profile order faces +y); -y mirrored.
  f.push_back({7, 6, 5, 2, 1, 0});
  f.push_back({5, 4, 3, 2});
  f.push_back({8, 9, 10, 13, 14, 15});
  f.push_back({10, 11, 12, 13});
  return Mesh::from_faces(std::move(v), f);
}

Mesh make_torus(double major_radius, double minor_radius, int major_segments, int minor_segments) {
  require_positive("major_radius", major_radius);
  require_positive("minor_radius", minor_radius);
  if (!(minor_radius < major_radius)) {
    throw InvalidInput("minor_radius", "must be < major_radius " + format_number(major_radius) + ", got " +
                                           format_number(minor_radius));
  }
  if (major_segments < 3) throw InvalidInput("major_segments", "must be >= 3, got " + std::to_string(major_segments));
  if (minor_segments < 3) throw InvalidInput("minor_segments", "must be >= 3, got " + std::to_string(minor_segments));
  std::vector<Vec3> v;
  const double two_pi = 2 * std::numbers::pi;
  for (int i = 0; i < major_segments; ++i) {
    const double phi = two_pi * i / major_segments;
    for (int j = 0; j < minor_segments; ++j) {
      const double psi = two_pi * j / minor_segments;
      const double rho = major_radius + minor_radius * std::cos(psi);
      v.emplace_back(rho * std::cos(phi), rho * std::sin(phi), minor_radius * std::sin(psi));
    }
  }
  std::vector<std::vector<int>> f;
  auto id = [&](int i, int j) { return (i % major_segments) * minor_segments + (j % minor_segments); };
  for (int i = 0; i < major_segments; ++i) {
    for (int j = 0; j < minor_segments; ++j) f.push_back({id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1)});
  }
  return Mesh::from_faces(std::move(v), f);
}

Mesh make_l_prism(double size, double half_thickness) {
  require_positive("size", size);
  require_positive("half_thickness", half_thickness);
  const double lx[6] = {0, 2, 2, 1, 1, 0};
  const double ly[6] = {0, 0, 1, 1, 2, 2};
  std::vector<Vec3> v;
  for (int k = 0; k < 2; ++k) {
    const double z = k == 0 ? -half_thickness : half_thickness;
    for (int i = 0; i < 6; ++i) v.emplace_back(size * (lx[i] - 1), size * (ly[i] - 1), z);
  }
  std::vector<std::vector<int>> f;
  f.push_back({5, 4, 3, 2, 1, 0});     // bottom, seen from -z
  f.push_back({6, 7, 8, 9, 10, 11});   // top, counter-clockwise from +z
  for (int i = 0; i < 6; ++i) {
    const int j = (i + 1) % 6;
    f.push_back({i, j, j + 6, i + 6});
  }
  return Mesh::from_faces(std::move(v), f);
}

}  // namespace proxima::mesh
