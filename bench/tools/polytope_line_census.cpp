// SPDX-License-Identifier: MIT
// Does a point between the two bounding-sphere centres answer the polytope overlaps that the first
// support pair and its neighbours leave to GJK (gjk/first_support_overlap.hpp; docs/benchmarks.md,
// session 25, branch s25-dist2)? On the bench's polytope sets (make_polytope_set(N, pairs, seed 1),
// as polytope_overlap_census.cpp), for each pair in A's frame, d the cold run's first direction
// (B's bounding-sphere centre minus A's) and s = a - b its first support pair:
//   line   the line c_A + t d clipped against each hull's triangle planes (the planes
//          Polytope::strictly_contains reads, each moved in by its interior margin): the two
//          t intervals overlap -> the middle of their common part, kept only when both
//          strictly_contains accept it (a point strictly inside both: a common point)
//   pair   the midpoint of the first support pair, (s.a + s.b) / 2, tested in both
//   centres  the midpoint of the two centres, c_A + d / 2, tested in both
//   support line  the line clip above on the line through the first support pair (census only)
//   edges  the hull edges at A's first support vertex (along d) clipped against B's planes, then
//          B's (along -d) against A's: a piece strictly inside the other body is a common point
//          (on one body's boundary, inside the other, as the first support pair's test takes it)
//   edge points  the same edges without a clip: points at k / parts along them tested by
//          strictly_contains (parts 2..5; census only)
// Per row: the overlaps left to GJK (gjk::distance with the defaults answers them with
// iterations > 0) and how many of them each test answers; the separated pairs that would pay for
// the test (d . w > 0: not shown apart by the first support plane); the tests' warm cost (median
// over the pairs that would pay, ns; this tool's own plane loops, compiled as below: an estimate of
// a library version) and an estimate of the distance row's new median: per-pair warm times of
// gjk::distance (defaults), plus the test's cost on the pairs that pay and do not get answered,
// and for the answered ones the median time of the pairs the neighbour test answers now plus the
// test's cost.
//   g++ -O3 -DNDEBUG -std=c++20 -Ibench -Iinclude -isystem /usr/include/eigen3 bench/tools/polytope_line_census.cpp
//       bench/inputs.cpp bench/reference/minkowski.cpp build/libproxima_shapes.a build/libproxima_core.a
//       -lqhull_r -o /tmp/polytope_line_census && taskset -c 1 /tmp/polytope_line_census 32
//   modes: "N" census and times, "N census-only", "N cost R" (each test R times on the pairs that
//   pay, for valgrind --tool=callgrind --toggle-collect='*line_test*' etc.: the instructions per
//   test are the counts' difference at R = 10 and R = 0 over 10 x the pairs that pay)
#include "inputs.hpp"
#include "tools/polytope_pairs.hpp"
#include "tools/tool_support.hpp"
#include <proxima/gjk/distance.hpp>
#include <proxima/shapes/polytope.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>
using namespace proxima;
using namespace proxima::bench;
using tools::median;

namespace {

/// A hull's triangle planes as structure of arrays nx | ny | nz | offset (the layout of
/// PolytopeData's interior test), offsets moved in by the interior margin.
struct Planes {
  std::vector<double> nx, ny, nz, off;
};
Planes planes_of(const Polytope& p) {
  Planes r;
  const auto& v = p.vertices();
  for (const auto& f : p.faces()) {
    const Vec3 a = v[static_cast<std::size_t>(f[0])];
    const Vec3 n = (v[static_cast<std::size_t>(f[1])] - a).cross(v[static_cast<std::size_t>(f[2])] - a).normalized();
    r.nx.push_back(n.x());
    r.ny.push_back(n.y());
    r.nz.push_back(n.z());
    r.off.push_back(n.dot(a) - p.interior_margin());
  }
  return r;
}

/// The t interval of c + t u inside all planes: [lo, hi], empty when lo >= hi.
struct Interval {
  double lo, hi;
};
Interval clip(const Planes& p, const Vec3& c, const Vec3& u) {
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  const std::size_t n = p.nx.size();
  for (std::size_t i = 0; i < n; ++i) {
    const double den = p.nx[i] * u.x() + p.ny[i] * u.y() + p.nz[i] * u.z();
    const double num = p.off[i] - (p.nx[i] * c.x() + p.ny[i] * c.y() + p.nz[i] * c.z());
    const double t = num / den;  // den == 0: +-inf or NaN, handled below
    if (den > 0) hi = std::min(hi, t);
    if (den < 0) lo = std::max(lo, t);
    if (den == 0 && !(num > 0)) hi = -std::numeric_limits<double>::infinity();
  }
  return {lo, hi};
}

struct Pair {
  const Polytope* a;
  const Polytope* b;
  const Planes* pa;
  const Planes* pb;
  Pose b_in_a;
  Vec3 ca, d;
  gjk::SupportPoint s;
};

[[gnu::noinline]] bool line_test(const Pair& q, Vec3& common) {
  const Interval ia = clip(*q.pa, q.ca, q.d);
  if (!(ia.lo < ia.hi)) return false;
  const Interval ib = clip(*q.pb, q.b_in_a.apply_inverse(q.ca), q.b_in_a.rotate_inverse(q.d));
  const double lo = std::max(ia.lo, ib.lo), hi = std::min(ia.hi, ib.hi);
  if (!(lo < hi)) return false;
  common = q.ca + (0.5 * (lo + hi)) * q.d;
  return q.a->strictly_contains(common) && q.b->strictly_contains(q.b_in_a.apply_inverse(common));
}
/// The same clip on the line through the first support pair (s.b at t = 0, s.a at t = 1).
[[gnu::noinline]] bool support_line_test(const Pair& q) {
  const Vec3 u = q.s.a - q.s.b;
  const Interval ia = clip(*q.pa, q.s.b, u);
  if (!(ia.lo < ia.hi)) return false;
  const Interval ib = clip(*q.pb, q.b_in_a.apply_inverse(q.s.b), q.b_in_a.rotate_inverse(u));
  const double lo = std::max(ia.lo, ib.lo), hi = std::min(ia.hi, ib.hi);
  if (!(lo < hi)) return false;
  const Vec3 common = q.s.b + (0.5 * (lo + hi)) * u;
  return q.a->strictly_contains(common) && q.b->strictly_contains(q.b_in_a.apply_inverse(common));
}
/// The edges of `from`'s vertex farthest along dir (in `from`'s frame) crossing `to`'s interior
/// (`to` placed by to_from: x_to = to_from(x_from)): the library's test, Polytope::strictly_crossed_by
/// (what this census found, built into gjk::distance as GjkOptions::support_edge_overlap).
bool support_edges_cross(const Polytope& from, const Vec3& dir, const Polytope& to, const Pose& to_from_inverse) {
  const int i = from.support_index(dir);
  const Vec3 p = from.vertices()[static_cast<std::size_t>(i)];
  const Vec3 p_to = to_from_inverse.apply_inverse(p);
  Vec3 inside;
  for (const int j : from.neighbors(i)) {
    const Vec3 e_to = to_from_inverse.rotate_inverse(from.vertices()[static_cast<std::size_t>(j)] - p);
    if (to.strictly_crossed_by(p_to, e_to, inside)) return true;
  }
  return false;
}
/// The cheaper variant that needs no plane access: `parts` - 1 evenly spaced points inside each
/// edge at `from`'s support vertex tested by `to`'s strictly_contains.
bool support_edge_points(const Polytope& from, const Vec3& dir, const Polytope& to, const Pose& to_from_inverse,
                         int parts) {
  const int i = from.support_index(dir);
  const Vec3 p = from.vertices()[static_cast<std::size_t>(i)];
  for (const int j : from.neighbors(i)) {
    const Vec3 e = from.vertices()[static_cast<std::size_t>(j)] - p;
    for (int k = 1; k < parts; ++k) {
      const Vec3 x = p + (static_cast<double>(k) / parts) * e;
      if (to.strictly_contains(to_from_inverse.apply_inverse(x))) return true;
    }
  }
  return false;
}
bool edge_points_test(const Pair& q, int parts) {
  if (support_edge_points(*q.a, q.d, *q.b, q.b_in_a, parts)) return true;
  return support_edge_points(*q.b, q.b_in_a.rotate_inverse(-q.d), *q.a, q.b_in_a.inverse(), parts);
}
/// A's support vertex's edges inside B, then B's (along -d) inside A.
[[gnu::noinline]] bool edges_test(const Pair& q) {
  if (support_edges_cross(*q.a, q.d, *q.b, q.b_in_a)) return true;
  return support_edges_cross(*q.b, q.b_in_a.rotate_inverse(-q.d), *q.a, q.b_in_a.inverse());
}
bool point_test(const Pair& q, const Vec3& x) {
  return q.a->strictly_contains(x) && q.b->strictly_contains(q.b_in_a.apply_inverse(x));
}
[[gnu::noinline]] bool pair_test(const Pair& q) { return point_test(q, 0.5 * (q.s.a + q.s.b)); }
[[gnu::noinline]] bool centres_test(const Pair& q) { return point_test(q, q.ca + 0.5 * q.d); }

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s N [census-only]\n", argv[0]);
    return 2;
  }
  const int n = std::atoi(argv[1]);
  const bool timing = argc < 3;
  const tools::PolytopePairs p = tools::load_polytope_pairs(n, n >= 1024 ? 64 : 256);
  const std::size_t count = p.size();
  std::vector<Planes> planes;
  for (const auto& s : p.shapes) planes.push_back(planes_of(*s));
  std::vector<Pair> q(count);
  gjk::GjkOptions off;
  off.first_support_overlap = false;
  // Categories: 0 answered by the first support pair or its neighbours, 1 overlap left to GJK,
  // 2 separated and paying (d . w > 0), 3 separated, shown apart by the first support plane.
  std::vector<int> cat(count);
  int n_over = 0, n_left = 0, n_pay = 0, n_apart = 0, left_line = 0, left_pair = 0, left_centres = 0;
  int left_sline = 0, left_edges = 0;
  std::array<int, 6> left_points{};  // by parts: the edges' points at 1/parts, 2/parts, ...
  int left_any = 0, false_sep = 0, pay_over_answered_line = 0;
  for (std::size_t i = 0; i < count; ++i) {
    Pair& x = q[i];
    x.a = &p.a(i);
    x.b = &p.b(i);
    x.pa = &planes[2 * i];
    x.pb = &planes[2 * i + 1];
    x.b_in_a = p.pose_a(i).inverse() * p.pose_b(i);
    x.ca = x.a->bounding_sphere().center;
    x.d = x.b_in_a.apply(x.b->bounding_sphere().center) - x.ca;
    x.s.a = x.a->support(x.d);
    x.s.b = x.b_in_a.apply(x.b->support(x.b_in_a.rotate_inverse(-x.d)));
    x.s.w = x.s.a - x.s.b;
    const bool over = gjk::distance(*x.a, p.pose_a(i), *x.b, p.pose_b(i), off).intersect;
    const DistanceResult def = gjk::distance(*x.a, p.pose_a(i), *x.b, p.pose_b(i));
    Vec3 c;
    const bool line = line_test(x, c), pr = pair_test(x), ce = centres_test(x);
    if (!over && (line || pr || ce || support_line_test(x) || edges_test(x) || edge_points_test(x, 5))) ++false_sep;  // would be a wrong answer: must stay 0
    if (over) {
      ++n_over;
      if (def.iterations == 0) {
        cat[i] = 0;
        pay_over_answered_line += line;
      } else {
        cat[i] = 1;
        ++n_left;
        left_line += line;
        left_pair += pr;
        left_centres += ce;
        left_sline += support_line_test(x);
        left_edges += edges_test(x);
        for (int parts = 2; parts <= 5; ++parts) left_points[parts] += edge_points_test(x, parts);
        left_any += line || pr || ce;
      }
    } else if (x.d.dot(x.s.w) > 0) {
      cat[i] = 2;
      ++n_pay;
    } else {
      cat[i] = 3;
      ++n_apart;
    }
  }
  std::printf("N=%d: %zu pairs, %zu triangles in the first hull; %d overlapping, %d answered by first support / "
              "neighbours, %d left to GJK\n",
              n, count, p.a(0).faces().size(), n_over, n_over - n_left, n_left);
  std::printf("  left to GJK answered by: line %d, support-pair midpoint %d, centres midpoint %d, any %d; the line "
              "through the support pair %d; the support vertices' edges %d\n",
              left_line, left_pair, left_centres, left_any, left_sline, left_edges);
  std::printf("  the support vertices' edges' inner points (no clip): halves %d, thirds %d, quarters %d, fifths %d\n",
              left_points[2], left_points[3], left_points[4], left_points[5]);
  std::printf("  separated: %d pay (d . w > 0), %d shown apart by the first support plane; false answers %d\n", n_pay,
              n_apart, false_sep);
  for (std::size_t i = 0; i < count; ++i) {
    if (cat[i] != 1) continue;
    const Pair& x = q[i];
    const Interval ia = clip(*x.pa, x.ca, x.d);
    const Interval ib = clip(*x.pb, x.b_in_a.apply_inverse(x.ca), x.b_in_a.rotate_inverse(x.d));
    // t in units of the centres' distance: A's part ends at ia.hi, B's starts at ib.lo; a
    // negative overlap is the gap between them along the line.
    std::printf("    left pair %3zu: A's part ends at t %.3f, B's starts at %.3f: overlap %+.3f of |d| = %.3f\n", i, ia.hi,
                ib.lo, ia.hi - ib.lo, x.d.norm());
  }
  std::printf("  (line also answers %d of the %d overlaps answered now)\n", pay_over_answered_line, n_over - n_left);
  if (argc >= 3 && std::strcmp(argv[2], "cost") == 0) {
    // For callgrind (--toggle-collect='*line_test*' etc.): each test R times (argument 3) on
    // every pair that pays; the census above calls each test once per pair too, so the cost per
    // test is the difference of the counts at R = 10 and R = 0 over 10 x the pairs that pay.
    const int repeat = argc >= 4 ? std::atoi(argv[3]) : 1;
    int hits = 0;
    for (int r = 0; r < repeat; ++r) {
      for (std::size_t i = 0; i < count; ++i) {
        if (cat[i] != 1 && cat[i] != 2) continue;
        Vec3 c;
        hits += line_test(q[i], c) + pair_test(q[i]) + centres_test(q[i]);
      }
    }
    std::printf("  cost mode: %d pairs pay, %d hits\n", n_left + n_pay, hits);
    return 0;
  }
  if (!timing) return 0;

  volatile double sink = 0;
  std::vector<double> t_dist(count), t_line(count), t_pair(count), t_cent(count), t_edge(count);
  for (int pass = 0; pass < 2; ++pass) {
    for (std::size_t i = 0; i < count; ++i) {
      const Pair& x = q[i];
      const double td = tools::warm_ns(
          [&] { sink = sink + gjk::distance(*x.a, p.pose_a(i), *x.b, p.pose_b(i)).distance; });
      const double tl = tools::warm_ns([&] {
        Vec3 c;
        sink = sink + static_cast<double>(line_test(x, c));
      });
      const double tp = tools::warm_ns([&] { sink = sink + static_cast<double>(pair_test(x)); });
      const double tc = tools::warm_ns([&] { sink = sink + static_cast<double>(centres_test(x)); });
      const double te = tools::warm_ns([&] { sink = sink + static_cast<double>(edges_test(x)); });
      t_dist[i] = pass == 0 ? td : std::min(t_dist[i], td);
      t_line[i] = pass == 0 ? tl : std::min(t_line[i], tl);
      t_pair[i] = pass == 0 ? tp : std::min(t_pair[i], tp);
      t_cent[i] = pass == 0 ? tc : std::min(t_cent[i], tc);
      t_edge[i] = pass == 0 ? te : std::min(t_edge[i], te);
    }
  }
  std::vector<double> answered_now, cost_l, cost_p, cost_c, cost_e, sep_pay, left_t;
  for (std::size_t i = 0; i < count; ++i) {
    if (cat[i] == 0) answered_now.push_back(t_dist[i]);
    if (cat[i] == 1) left_t.push_back(t_dist[i]);
    if (cat[i] == 2) sep_pay.push_back(t_dist[i]);
    if (cat[i] == 1 || cat[i] == 2) {
      cost_l.push_back(t_line[i]);
      cost_p.push_back(t_pair[i]);
      cost_c.push_back(t_cent[i]);
      cost_e.push_back(t_edge[i]);
    }
  }
  const double base_answered = answered_now.empty() ? 0 : median(answered_now);
  std::printf("  warm gjk::distance (defaults, min of 2 passes): median %.0f ns; answered now %.0f, left to GJK %.0f, "
              "separated paying %.0f\n",
              median(t_dist), base_answered, left_t.empty() ? 0 : median(left_t), median(sep_pay));
  std::printf("  test cost on the pairs that pay: line %.1f ns, pair midpoint %.1f ns, centres midpoint %.1f ns, "
              "support vertices' edges %.1f ns\n",
              median(cost_l), median(cost_p), median(cost_c), median(cost_e));
  {
    // The bound of this whole direction: every overlap left to GJK answered at the median cost of
    // the overlaps answered now, nothing else paying.
    std::vector<double> est = t_dist;
    for (std::size_t i = 0; i < count; ++i) {
      if (cat[i] == 1) est[i] = base_answered;
    }
    std::printf("  bound: all %d left overlaps answered at %.0f ns, nothing paying: median %.0f ns\n", n_left,
                base_answered, median(est));
  }
  for (int variant = 0; variant < 4; ++variant) {
    std::vector<double> est(count);
    for (std::size_t i = 0; i < count; ++i) {
      const Pair& x = q[i];
      est[i] = t_dist[i];
      if (cat[i] != 1 && cat[i] != 2) continue;
      const double cost = variant == 0 ? t_line[i] : variant == 1 ? t_pair[i] : variant == 2 ? t_cent[i] : t_edge[i];
      Vec3 c;
      const bool hit = cat[i] == 1 && (variant == 0   ? line_test(x, c)
                                       : variant == 1 ? pair_test(x)
                                       : variant == 2 ? centres_test(x)
                                                      : edges_test(x));
      est[i] = hit ? base_answered + cost : t_dist[i] + cost;
    }
    std::printf("  estimated new median with %-16s %.0f ns (now %.0f)\n",
                variant == 0 ? "line:" : variant == 1 ? "pair midpoint:" : variant == 2 ? "centres midpoint:" : "edges:", median(est),
                median(t_dist));
  }
  return 0;
}
