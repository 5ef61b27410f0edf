// SPDX-License-Identifier: MIT
#include "viewer/sphere_grid.hpp"

#include <proxima/core/error.hpp>

#include <cmath>
#include <cstdint>
#include <string>
#include <unordered_map>

namespace proxima::viewer {

TriMesh unit_icosphere(int level) {
  if (level < 0 || level > kMaxSphereLevel) {
    throw InvalidInput("level", "must be in [0, " + std::to_string(kMaxSphereLevel) + "], got " + std::to_string(level));
  }
  const double phi = (1 + std::sqrt(5.0)) / 2;
  TriMesh mesh;
  mesh.vertices = {{-1, phi, 0}, {1, phi, 0},  {-1, -phi, 0}, {1, -phi, 0}, {0, -1, phi},  {0, 1, phi},
                   {0, -1, -phi}, {0, 1, -phi}, {phi, 0, -1},  {phi, 0, 1},  {-phi, 0, -1}, {-phi, 0, 1}};
  for (Vec3& v : mesh.vertices) v.normalize();
  mesh.triangles = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
                    {11, 10, 2}, {10, 7, 6}, {7, 1, 8},   {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
                    {3, 8, 9},  {4, 9, 5},  {2, 4, 11},  {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
  for (int l = 0; l < level; ++l) {
    // Midpoints shared by the two triangles of an edge, keyed by the (sorted) vertex pair.
    std::unordered_map<std::uint64_t, int> midpoint;
    auto mid = [&](int a, int b) {
      const std::uint64_t key = (static_cast<std::uint64_t>(std::min(a, b)) << 32) | static_cast<std::uint32_t>(std::max(a, b));
      const auto [it, fresh] = midpoint.try_emplace(key, static_cast<int>(mesh.vertices.size()));
      if (fresh) mesh.vertices.push_back((mesh.vertices[a] + mesh.vertices[b]).normalized());
      return it->second;
    };
    std::vector<std::array<int, 3>> next;
    next.reserve(mesh.triangles.size() * 4);
    for (const auto& t : mesh.triangles) {
      const int ab = mid(t[0], t[1]);
      const int bc = mid(t[1], t[2]);
      const int ca = mid(t[2], t[0]);
      next.push_back({t[0], ab, ca});
      next.push_back({t[1], bc, ab});
      next.push_back({t[2], ca, bc});
      next.push_back({ab, bc, ca});
    }
    mesh.triangles = std::move(next);
  }
  return mesh;
}

}  // namespace proxima::viewer
