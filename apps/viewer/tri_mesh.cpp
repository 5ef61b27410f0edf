// SPDX-License-Identifier: MIT
#include "viewer/tri_mesh.hpp"

#include <algorithm>
#include <utility>

namespace proxima::viewer {

bool is_closed_oriented(const TriMesh& mesh) {
  const int n = static_cast<int>(mesh.vertices.size());
  std::vector<std::pair<int, int>> directed;
  directed.reserve(mesh.triangles.size() * 3);
  for (const auto& t : mesh.triangles) {
    for (int i = 0; i < 3; ++i) {
      const int a = t[i];
      const int b = t[(i + 1) % 3];
      if (a < 0 || a >= n || b < 0 || b >= n || a == b) return false;
      directed.emplace_back(a, b);
    }
  }
  if (directed.empty()) return false;
  std::sort(directed.begin(), directed.end());
  // Each directed edge once (no duplicate = consistent orientation and manifold) ...
  if (std::adjacent_find(directed.begin(), directed.end()) != directed.end()) return false;
  // ... and its twin present (closed).
  for (const auto& [a, b] : directed) {
    if (!std::binary_search(directed.begin(), directed.end(), std::make_pair(b, a))) return false;
  }
  return true;
}

double signed_volume(const TriMesh& mesh) {
  double six_volume = 0;
  for (const auto& t : mesh.triangles) {
    six_volume += mesh.vertices[t[0]].dot(mesh.vertices[t[1]].cross(mesh.vertices[t[2]]));
  }
  return six_volume / 6;
}

}  // namespace proxima::viewer
