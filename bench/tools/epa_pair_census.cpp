// SPDX-License-Identifier: MIT
// What the EPA benchmark's polytope pairs look like (docs/benchmarks.md, session 28): on the
// seeded inputs of bench/tools/callgrind_micro.cpp (make_polytope_set(N, 256 or 64, seed 1), the
// intersecting pairs), GJK's and EPA's iterations, the final hull's size, the depth relative to
// the bodies' extent, and the kind of Minkowski facet EPA ends on (face of A + vertex of B,
// vertex of A + face of B, or edge of A + edge of B, read from the distinct hull vertices of A and
// B among the final face's three corners). It also prices the separating-axis alternative: the
// depth along the best face normal of either hull (one pass over the other hull's vertices per
// face normal; exact when EPA ends on a face-vertex facet) and the number of edge pairs a full
// separating-axis test would have to consider. Build from the repository root (one line):
//   g++ -O2 -DNDEBUG -std=c++20 -Ibench -Iinclude -isystem /usr/include/eigen3 bench/tools/epa_pair_census.cpp
//     bench/inputs.cpp bench/reference/minkowski.cpp build/libproxima_shapes.a build/libproxima_core.a -lqhull_r
//     -o /tmp/epa_pair_census
// then /tmp/epa_pair_census N (N = 8, 32, 128 or 1024).
#include "inputs.hpp"

#include <proxima/gjk/epa.hpp>
#include <proxima/shapes/polytope.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <set>

using namespace proxima;
using namespace proxima::bench;

namespace {

Pose to_pose(const Placement& p) {
  const auto& q = p.quaternion;
  return Pose::from_quaternion(q.w(), q.x(), q.y(), q.z(), p.translation);
}

// Index of the vertex of `pts` equal to (or, for B placed by a pose, nearest) x.
int nearest_index(const std::vector<Vec3>& pts, const Vec3& x) {
  int best = 0;
  for (std::size_t i = 1; i < pts.size(); ++i) {
    if ((pts[i] - x).squaredNorm() < (pts[static_cast<std::size_t>(best)] - x).squaredNorm()) {
      best = static_cast<int>(i);
    }
  }
  return best;
}

// Smallest over the face normals n of `faces` (outward, hull P, frame of P) of
// max_{p in P} n.p + max_{q in Q} -n.q: the overlap along n (Q's vertices in P's frame).
double best_face_overlap(const Polytope& p, const std::vector<Vec3>& q) {
  double best = std::numeric_limits<double>::infinity();
  for (const auto& f : p.faces()) {
    const Vec3& v0 = p.vertices()[static_cast<std::size_t>(f[0])];
    const Vec3 n = (p.vertices()[static_cast<std::size_t>(f[1])] - v0)
                       .cross(p.vertices()[static_cast<std::size_t>(f[2])] - v0)
                       .normalized();
    double hq = -std::numeric_limits<double>::infinity();
    for (const Vec3& x : q) {
      hq = std::max(hq, -n.dot(x));
    }
    best = std::min(best, n.dot(v0) + hq);
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 32;
  const CaseSet set = make_polytope_set(n, n == 1024 ? 64 : 256, 1);
  auto hull = std::make_unique<gjk::EpaHull>();
  int queries = 0;
  double gjk_iterations = 0;
  double epa_iterations = 0;
  double final_faces = 0;
  double final_vertices = 0;
  double edge_pairs = 0;
  double face_normals = 0;
  int kinds[4] = {0, 0, 0, 0};  // face A + vertex B, vertex A + face B, edge-edge, other
  int face_exact = 0;
  double depth_sum = 0;
  double depth_max = 0;
  std::vector<double> rel_depths;
  for (const PairCase& pc : set.pairs) {
    const auto& va = set.bodies[static_cast<std::size_t>(pc.body_a)].hull.vertices;
    const auto& vb = set.bodies[static_cast<std::size_t>(pc.body_b)].hull.vertices;
    const Polytope a(std::span<const Vec3>(va.data(), va.size()));
    const Polytope b(std::span<const Vec3>(vb.data(), vb.size()));
    const Pose pa = to_pose(pc.pose_a);
    const Pose pb = to_pose(pc.pose_b);
    const Pose b_in_a = pa.inverse() * pb;
    gjk::MinkowskiDifference<Polytope, Polytope> md(a, b, b_in_a);
    const double scale = gjk::detail::query_scale(a, b, b_in_a);
    gjk::WarmStart warm;
    const gjk::EpaOptions options;
    const gjk::detail::GjkRun run =
        gjk::detail::run_warm_gjk(md, pa, scale, options.gjk, gjk::detail::GjkMode::distance, warm);
    if (!run.contact) {
      continue;
    }
    const gjk::detail::EpaRun epa = gjk::detail::run_epa(md, run.simplex, scale, options, *hull);
    ++queries;
    gjk_iterations += run.iterations;
    epa_iterations += epa.iterations;
    final_faces += hull->num_live_faces();
    final_vertices += hull->num_vertices();
    const double extent = a.bounding_sphere().radius + b.bounding_sphere().radius;
    rel_depths.push_back(epa.depth / extent);
    depth_sum += epa.depth / extent;
    depth_max = std::max(depth_max, epa.depth / extent);
    // The facet EPA ended on: distinct vertices of A and of B among its corners.
    std::vector<Vec3> b_placed;
    for (const Vec3& x : b.vertices()) {
      b_placed.push_back(b_in_a.apply(x));
    }
    const int f = hull->closest_face();
    std::set<int> ia;
    std::set<int> ib;
    for (int k = 0; k < 3; ++k) {
      const gjk::SupportPoint& s = hull->vertex(hull->face(f).vertex[static_cast<std::size_t>(k)]);
      ia.insert(nearest_index(a.vertices(), s.a));
      ib.insert(nearest_index(b_placed, s.b));
    }
    const int kind = (ia.size() == 3 && ib.size() == 1)   ? 0
                     : (ia.size() == 1 && ib.size() == 3) ? 1
                     : (ia.size() == 2 && ib.size() == 2) ? 2
                                                          : 3;
    ++kinds[kind];
    // Separating axes: the face normals of both hulls (B's faces in B's frame, A's vertices there).
    std::vector<Vec3> a_in_b;
    for (const Vec3& x : a.vertices()) {
      a_in_b.push_back(b_in_a.apply_inverse(x));
    }
    const double face_depth = std::min(best_face_overlap(a, b_placed), best_face_overlap(b, a_in_b));
    if (std::abs(face_depth - epa.depth) <= 1e-12 * extent) {
      ++face_exact;
    }
    face_normals += static_cast<double>(a.faces().size() + b.faces().size());
    edge_pairs += static_cast<double>(a.adjacency().size() / 2) * static_cast<double>(b.adjacency().size() / 2);
  }
  std::sort(rel_depths.begin(), rel_depths.end());
  const double q = queries;
  std::printf("N=%d queries=%d gjk_iterations=%.2f epa_iterations=%.2f final_vertices=%.2f final_faces=%.2f\n", n,
              queries, gjk_iterations / q, epa_iterations / q, final_vertices / q, final_faces / q);
  std::printf("depth/(r_a+r_b): mean %.4f median %.4f max %.4f\n", depth_sum / q,
              rel_depths[rel_depths.size() / 2], depth_max);
  std::printf("final facet: faceA+vertexB %d, vertexA+faceB %d, edge-edge %d, other %d\n", kinds[0], kinds[1],
              kinds[2], kinds[3]);
  std::printf("best face-normal overlap == EPA depth on %d of %d; per pair: %.1f face normals x %d vertices, "
              "%.0f edge pairs\n",
              face_exact, queries, face_normals / q, n, edge_pairs / q);
  return 0;
}
