// SPDX-License-Identifier: MIT
// Census of the support-edge overlap test (gjk::detail::support_edges_common_point,
// GjkOptions::support_edge_overlap) on the gjk_distance polytope rows (make_polytope_set(N, 256,
// seed 1)): for each pair the first support pair leaves (d . w > 0, no vertex strictly inside the
// other body), how many edge clips (Polytope::strictly_crossed_by) run before the answer (A's
// edges at its support vertex first, then B's, the library's order) or in all (no answer), and
// which side's edge answers. Output: per row, the counts; with `list`, one line per pair.
//   g++ -O3 -DNDEBUG -std=c++20 -Ibench -Iinclude -isystem /usr/include/eigen3
//       bench/tools/support_edge_census.cpp bench/inputs.cpp bench/reference/minkowski.cpp
//       build/libproxima_shapes.a build/libproxima_core.a -lqhull_r -o /tmp/support_edge_census
//   /tmp/support_edge_census 8 [list | sorted]   (sorted: A's edges highest far end along d first)
#include "inputs.hpp"
#include "tools/polytope_pairs.hpp"
#include <proxima/gjk/distance.hpp>
#include <proxima/gjk/first_support_overlap.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>
using namespace proxima;
using namespace proxima::bench;

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 8;
  const bool list = argc > 2 && std::strcmp(argv[2], "list") == 0;
  const bool sorted = argc > 2 && std::strcmp(argv[2], "sorted") == 0;
  const tools::PolytopePairs p = tools::load_polytope_pairs(n, 256);
  int paying = 0, answered_a = 0, answered_b = 0, clips_answered = 0, clips_unanswered = 0, unanswered = 0;
  int degree_a = 0, degree_b = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Polytope& a = p.a(i);
    const Polytope& b = p.b(i);
    const Pose b_in_a = p.pose_a(i).inverse() * p.pose_b(i);
    gjk::MinkowskiDifference<Polytope, Polytope> md(a, b, b_in_a);
    const gjk::detail::QueryCentres c = gjk::detail::query_centres(a, b, b_in_a);
    const Vec3 d = gjk::detail::first_direction_from(p.pose_a(i), c.offset, gjk::WarmStart{});
    const gjk::SupportPoint s = md.support(d);
    Vec3 x;
    if (!(d.dot(s.w) > 0) || gjk::detail::first_support_common_point(a, b, b_in_a, d, s, x)) continue;
    ++paying;
    const int ia = md.hint_a_;
    const int ib = md.hint_b_;
    int clips = 0;
    int side = 0;
    const Vec3& pa = a.vertices()[static_cast<std::size_t>(ia)];
    // `sorted`: A's edges by their far end's height along d, highest first (insertion sort).
    int order[64];
    int count = 0;
    for (const int j : a.neighbors(ia)) {
      if (count < 64) order[count++] = j;
    }
    const int mode = std::getenv("KEY") ? std::atoi(std::getenv("KEY")) : 0;
    const Vec3 cb = b_in_a.apply(b.bounding_sphere().center);
    const auto key = [&](int j) {
      const Vec3 e = a.vertices()[j] - pa;
      if (mode == 1) return d.dot(e) / e.norm();
      if (mode == 2) return (cb - pa).dot(e) / e.norm();
      return d.dot(a.vertices()[j]);
    };
    if (sorted) {
      for (int u = 1; u < count; ++u) {
        for (int v = u; v > 0 && key(order[v]) > key(order[v - 1]); --v) {
          std::swap(order[v], order[v - 1]);
        }
      }
    }
    for (int u = 0; u < count; ++u) {
      const int j = order[u];
      ++clips;
      if (b.strictly_crossed_by(b_in_a.apply_inverse(pa), b_in_a.rotate_inverse(a.vertices()[j] - pa), x)) {
        side = 1;
        break;
      }
    }
    const Vec3& pb = b.vertices()[static_cast<std::size_t>(ib)];
    for (int k = 0; side == 0 && k < static_cast<int>(b.neighbors(ib).size()); ++k) {
      ++clips;
      if (a.strictly_crossed_by(b_in_a.apply(pb), b_in_a.rotate(b.vertices()[b.neighbors(ib)[k]] - pb), x)) side = 2;
    }
    degree_a += static_cast<int>(a.neighbors(ia).size());
    degree_b += static_cast<int>(b.neighbors(ib).size());
    if (side == 1) ++answered_a;
    if (side == 2) ++answered_b;
    (side != 0 ? clips_answered : clips_unanswered) += clips;
    if (side == 0) ++unanswered;
    if (list) std::printf("pair %zu side %d clips %d degrees %zu %zu\n", i, side, clips, a.neighbors(ia).size(),
                          b.neighbors(ib).size());
  }
  std::printf("N=%d: %d pairs pay (d.w > 0, no vertex inside): answered by A's edges %d, by B's %d, none %d; "
              "clips per answered pair %.2f, per unanswered %.2f; mean degrees A %.2f B %.2f\n",
              n, paying, answered_a, answered_b, unanswered,
              clips_answered / double(answered_a + answered_b > 0 ? answered_a + answered_b : 1),
              clips_unanswered / double(unanswered > 0 ? unanswered : 1), degree_a / double(paying),
              degree_b / double(paying));
  return 0;
}
