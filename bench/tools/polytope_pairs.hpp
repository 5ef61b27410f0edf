// SPDX-License-Identifier: MIT
// The bench's polytope pairs as proxima shapes and poses, for the standalone programs of
// bench/tools that study the gjk rows (make_polytope_set(N, count, seed 1), bench/inputs.hpp).
#pragma once

#include "inputs.hpp"
#include "tools/tool_support.hpp"

#include <proxima/shapes/polytope.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace proxima::bench::tools {

struct PolytopePairs {
  std::vector<std::unique_ptr<Polytope>> shapes;  ///< a, b of pair i at 2 i, 2 i + 1
  std::vector<Pose> poses;                        ///< the same indexing
  std::size_t size() const { return poses.size() / 2; }
  const Polytope& a(std::size_t i) const { return *shapes[2 * i]; }
  const Polytope& b(std::size_t i) const { return *shapes[2 * i + 1]; }
  const Pose& pose_a(std::size_t i) const { return poses[2 * i]; }
  const Pose& pose_b(std::size_t i) const { return poses[2 * i + 1]; }
};

/// The hulls and placements of make_polytope_set(n, count, seed).
inline PolytopePairs load_polytope_pairs(int n, int count, std::uint64_t seed = 1) {
  const CaseSet set = make_polytope_set(n, count, seed);
  PolytopePairs p;
  for (const auto& pc : set.pairs) {
    for (int body : {pc.body_a, pc.body_b}) {
      const auto& v = set.bodies[static_cast<std::size_t>(body)].hull.vertices;
      p.shapes.push_back(std::make_unique<Polytope>(std::span<const Vec3>(v.data(), v.size())));
    }
    p.poses.push_back(to_pose(pc.pose_a));
    p.poses.push_back(to_pose(pc.pose_b));
  }
  return p;
}

}  // namespace proxima::bench::tools
