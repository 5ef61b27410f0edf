// SPDX-License-Identifier: MIT
// Which features the closest points of the bench's separated cylinder-cone pairs lie on (cylinder:
// cap, side, rim; cone: apex, base, side, rim), with GJK's mean iterations per feature pair: where
// the primitive row's GJK iterations go (docs/benchmarks.md, session 13).
//   g++ -O2 -std=c++20 -Ibench -Iinclude -isystem /usr/include/eigen3 bench/tools/cylinder_cone_features.cpp
//       bench/inputs.cpp bench/reference/minkowski.cpp build/libproxima_shapes.a build/libproxima_core.a
//       -lqhull_r -o /tmp/cc_features && /tmp/cc_features 1
#include "inputs.hpp"
#include <proxima/gjk/distance.hpp>
#include <proxima/shapes/cone.hpp>
#include <proxima/shapes/cylinder.hpp>
#include <cstdio>
#include <map>
#include <string>
using namespace proxima;
using namespace proxima::bench;
static Pose to_pose(const Placement& p) { const auto& q = p.quaternion; return Pose::from_quaternion(q.w(), q.x(), q.y(), q.z(), p.translation); }
static const char* cyl_feature(const Cylinder& c, const Vec3& p) {
  const double tol = 1e-7 * (c.radius() + c.half_height());
  const bool cap = std::abs(std::abs(p.z()) - c.half_height()) < tol;
  const bool side = std::abs(std::hypot(p.x(), p.y()) - c.radius()) < tol;
  return cap && side ? "rim" : cap ? "cap" : side ? "side" : "in";
}
static const char* cone_feature(const Cone& c, const Vec3& p) {
  const double tol = 1e-7 * (c.radius() + c.half_height());
  if ((p - Vec3(0, 0, c.half_height())).norm() < tol) return "apex";
  const bool base = std::abs(p.z() + c.half_height()) < tol;
  const double rr = c.radius() * (c.half_height() - p.z()) / (2 * c.half_height());
  const bool side = std::abs(std::hypot(p.x(), p.y()) - rr) < tol;
  return base && side ? "rim" : base ? "base" : side ? "side" : "in";
}
int main(int argc, char** argv) {
  const CaseSet set = make_primitive_set("cylinder-cone", 256, argc > 1 ? std::atoi(argv[1]) : 1);
  std::map<std::string, std::pair<int, int>> stats;
  for (const auto& pc : set.pairs) {
    const Body& a = set.bodies[static_cast<std::size_t>(pc.body_a)];
    const Body& b = set.bodies[static_cast<std::size_t>(pc.body_b)];
    Cylinder cy(a.size.x(), a.size.y()); Cone co(b.size.x(), b.size.y());
    Pose pa = to_pose(pc.pose_a), pb = to_pose(pc.pose_b);
    auto r = gjk::distance(cy, pa, co, pb);
    if (r.intersect) continue;
    std::string key = std::string(cyl_feature(cy, pa.apply_inverse(r.point_a))) + "-" + cone_feature(co, pb.apply_inverse(r.point_b));
    stats[key].first++; stats[key].second += r.iterations;
  }
  for (auto& [k, v] : stats) std::printf("%-12s pairs %3d mean iterations %.1f\n", k.c_str(), v.first, double(v.second) / v.first);
}
