// SPDX-License-Identifier: MIT
// Instruction counts of proxima's queries on the benchmark's seeded inputs (seed 1, all pairs of a
// case set, cold WarmStart per query): callgrind with instrumentation on around the query loop
// only, so input generation and hull building are not counted. Repeatable on a loaded machine,
// unlike times. Build and run with bench/tools/callgrind_micro.sh (docs/benchmarks.md).
//   callgrind_micro distance|intersect|epa N    (polytopes, N = 8, 32, 128, 1024)
//   callgrind_micro prim K                      (K = 0 box-box, 1 sphere-box, 2 capsule-capsule,
//                                                3 cylinder-cone, 4 ellipsoid-ellipsoid)
#include "inputs.hpp"
#include <proxima/gjk/distance.hpp>
#include <proxima/gjk/epa.hpp>
#include <proxima/gjk/intersect.hpp>
#include <proxima/shapes/box.hpp>
#include <proxima/shapes/capsule.hpp>
#include <proxima/shapes/cone.hpp>
#include <proxima/shapes/cylinder.hpp>
#include <proxima/shapes/ellipsoid.hpp>
#include <proxima/shapes/polytope.hpp>
#include <proxima/shapes/sphere.hpp>
#include <valgrind/callgrind.h>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
using namespace proxima;
using namespace proxima::bench;
static Pose to_pose(const Placement& p) { const auto& q = p.quaternion; return Pose::from_quaternion(q.w(), q.x(), q.y(), q.z(), p.translation); }
volatile double sink;
int main(int argc, char** argv) {
  const std::string mode = argv[1];  // distance|intersect|epa|prim
  const int n = std::atoi(argv[2]);
  const int reps = argc > 3 ? std::atoi(argv[3]) : 1;
  if (mode != "prim") {
    CaseSet set = make_polytope_set(n, n == 1024 ? 64 : 256, 1);
    std::vector<Polytope> polys; std::vector<Pose> poses;
    for (auto& pc : set.pairs) {
      for (int b : {pc.body_a, pc.body_b}) { auto& v = set.bodies[b].hull.vertices; polys.emplace_back(std::span<const Vec3>(v.data(), v.size())); }
      poses.push_back(to_pose(pc.pose_a)); poses.push_back(to_pose(pc.pose_b));
    }
    auto ws = std::make_unique<gjk::EpaHull>();
    std::vector<char> hit(set.pairs.size());
    for (size_t i = 0; i < set.pairs.size(); ++i) hit[i] = gjk::intersect(polys[2*i], poses[2*i], polys[2*i+1], poses[2*i+1]).intersect;
    long iters = 0, q = 0;
    auto t0 = std::chrono::steady_clock::now();
    CALLGRIND_START_INSTRUMENTATION;
    for (int r = 0; r < reps; ++r)
    for (size_t i = 0; i < set.pairs.size(); ++i) {
      if (mode == "distance") { auto res = gjk::distance(polys[2*i], poses[2*i], polys[2*i+1], poses[2*i+1]); sink = res.distance; iters += res.iterations; ++q; }
      else if (mode == "intersect") { auto res = gjk::intersect(polys[2*i], poses[2*i], polys[2*i+1], poses[2*i+1]); sink = res.intersect; iters += res.iterations; ++q; }
      else if (hit[i]) { gjk::WarmStart w; auto res = gjk::penetration(polys[2*i], poses[2*i], polys[2*i+1], poses[2*i+1], gjk::EpaOptions{}, w, *ws); sink = res.depth; iters += res.iterations; ++q; }
    }
    CALLGRIND_STOP_INSTRUMENTATION;
    double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%s N=%d queries=%ld mean_iters=%.2f mean_ns=%.0f\n", mode.c_str(), n, q, double(iters)/q, ns/q);
  } else {
    const char* rows[] = {"box-box","sphere-box","capsule-capsule","cylinder-cone","ellipsoid-ellipsoid"};
    const std::string row = rows[n];
    CaseSet set = make_primitive_set(row, 256, 1);
    std::vector<Box> boxes; std::vector<Sphere> sph; std::vector<Capsule> caps; std::vector<Cylinder> cyl; std::vector<Cone> cones; std::vector<Ellipsoid> ell; std::vector<Pose> poses;
    for (auto& pc : set.pairs) {
      for (int b : {pc.body_a, pc.body_b}) { const Body& body = set.bodies[b]; const Vec3& s = body.size;
        switch (body.kind) { case ShapeKind::box: boxes.emplace_back(s); break; case ShapeKind::sphere: sph.emplace_back(s.x()); break;
          case ShapeKind::capsule: caps.emplace_back(s.x(), s.y()); break; case ShapeKind::cylinder: cyl.emplace_back(s.x(), s.y()); break;
          case ShapeKind::cone: cones.emplace_back(s.x(), s.y()); break; case ShapeKind::ellipsoid: ell.emplace_back(s); break; default: break; } }
      poses.push_back(to_pose(pc.pose_a)); poses.push_back(to_pose(pc.pose_b));
    }
    long iters = 0, q = 0;
    auto t0 = std::chrono::steady_clock::now();
    CALLGRIND_START_INSTRUMENTATION;
    for (int r = 0; r < reps; ++r)
    for (size_t i = 0; i < set.pairs.size(); ++i) {
      DistanceResult res;
      const Pose& pa = poses[2*i]; const Pose& pb = poses[2*i+1];
      switch (n) { case 0: res = gjk::distance(boxes[2*i], pa, boxes[2*i+1], pb); break; case 1: res = gjk::distance(sph[i], pa, boxes[i], pb); break;
        case 2: res = gjk::distance(caps[2*i], pa, caps[2*i+1], pb); break; case 3: res = gjk::distance(cyl[i], pa, cones[i], pb); break;
        default: res = gjk::distance(ell[2*i], pa, ell[2*i+1], pb); }
      sink = res.distance; iters += res.iterations; ++q;
    }
    CALLGRIND_STOP_INSTRUMENTATION;
    double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
    std::printf("prim %s queries=%ld mean_iters=%.2f mean_ns=%.0f\n", row.c_str(), q, double(iters)/q, ns/q);
  }
}
