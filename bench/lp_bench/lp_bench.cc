// SPDX-License-Identifier: MIT
// Standalone benchmark of the lp layer (not part of the CMake build: bench/'s harness has no
// suite registration yet, and its glob takes *.cpp only, hence the .cc). Build and run, from the
// repository root, after building proxima_lp / proxima_shapes in build-lp:
//
//   g++ -O3 -DNDEBUG -std=c++20 -Iinclude -I/usr/include/eigen3 bench/lp_bench/lp_bench.cc
//       build-lp/libproxima_lp.a build-lp/libproxima_shapes.a build-lp/libproxima_core.a
//       -lqhull_r -lglpk -o /tmp/lp_bench && /tmp/lp_bench
//
// What it measures, per query, on seeded pairs of point clouds (points on a sphere of radius 1,
// so every point is a vertex; centres 0..2.5 apart, about half of the pairs intersecting):
//  - proxima lp::intersect, cold (basis forgotten before each query, workspace reused), with the
//    default pricing and with PricingRule::bland,
//  - proxima lp::intersect, warm (the same pair moved by 1e-3 between queries, basis kept),
//  - GLPK glp_simplex on the same feasibility LP, presolve off, the LP built each query,
//  - gjk::intersect on the same pairs (3-D rows only),
// and the pivots per query against N (the seed claims linear growth) for both pricing rules.
// Every answer of every implementation is checked against the cold proxima answer's certificate.
#include <proxima/core/pose.hpp>
#include <proxima/gjk/intersect.hpp>
#include <proxima/lp/intersect.hpp>
#include <proxima/shapes/polytope.hpp>

#include <glpk.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
using proxima::lp::LpIntersectResult;
using proxima::lp::LpWorkspace;

struct Pair {
  Eigen::MatrixXd a;
  Eigen::MatrixXd b;
};

Eigen::MatrixXd sphere_cloud(int n, int count, std::mt19937& rng) {
  std::normal_distribution<double> g;
  Eigen::MatrixXd p(n, count);
  for (int j = 0; j < count; ++j) {
    for (int i = 0; i < n; ++i) p(i, j) = g(rng);
    p.col(j).normalize();
  }
  return p;
}

std::vector<Pair> make_pairs(int n, int count, int pairs, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> dist(0, 2.5);
  std::vector<Pair> out;
  for (int k = 0; k < pairs; ++k) {
    Pair p{sphere_cloud(n, count, rng), sphere_cloud(n, count, rng)};
    Eigen::VectorXd dir = sphere_cloud(n, 1, rng).col(0);
    p.b.colwise() += dir * dist(rng);
    out.push_back(std::move(p));
  }
  return out;
}

/// GLPK on the same LP: rows 0..n-1 A l - B m = 0, rows n, n+1 the weight sums; zero objective.
bool glpk_intersect(const Pair& p) {
  const int n = static_cast<int>(p.a.rows());
  const int na = static_cast<int>(p.a.cols());
  const int nb = static_cast<int>(p.b.cols());
  glp_prob* lp = glp_create_prob();
  glp_add_rows(lp, n + 2);
  for (int i = 1; i <= n; ++i) glp_set_row_bnds(lp, i, GLP_FX, 0, 0);
  glp_set_row_bnds(lp, n + 1, GLP_FX, 1, 1);
  glp_set_row_bnds(lp, n + 2, GLP_FX, 1, 1);
  glp_add_cols(lp, na + nb);
  std::vector<int> ia(1);
  std::vector<int> ja(1);
  std::vector<double> ar(1);
  for (int j = 0; j < na + nb; ++j) {
    glp_set_col_bnds(lp, j + 1, GLP_LO, 0, 0);
    const bool in_a = j < na;
    for (int i = 0; i < n; ++i) {
      ia.push_back(i + 1);
      ja.push_back(j + 1);
      ar.push_back(in_a ? p.a(i, j) : -p.b(i, j - na));
    }
    ia.push_back(in_a ? n + 1 : n + 2);
    ja.push_back(j + 1);
    ar.push_back(1);
  }
  glp_load_matrix(lp, static_cast<int>(ia.size()) - 1, ia.data(), ja.data(), ar.data());
  glp_smcp parm;
  glp_init_smcp(&parm);
  parm.msg_lev = GLP_MSG_OFF;
  parm.presolve = GLP_OFF;
  glp_simplex(lp, &parm);
  const bool feasible = glp_get_prim_stat(lp) == GLP_FEAS;
  glp_delete_prob(lp);
  return feasible;
}

template <class F>
double median_ns_per_query(const std::vector<Pair>& pairs, F&& query) {
  // For each pair: one untimed call, then a batch of >= 20 us; sample = batch time / calls.
  std::vector<double> samples;
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    query(k);
    int calls = 0;
    const auto t0 = Clock::now();
    double elapsed = 0;
    while (elapsed < 20000 && calls < 100000) {
      query(k);
      ++calls;
      elapsed = std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
    }
    samples.push_back(elapsed / calls);
  }
  std::nth_element(samples.begin(), samples.begin() + static_cast<long>(samples.size() / 2), samples.end());
  return samples[samples.size() / 2];
}

void timing_row(int n, int count, int npairs) {
  const std::vector<Pair> pairs = make_pairs(n, count, npairs, 1000u + static_cast<unsigned>(n * 7919 + count));
  LpWorkspace ws;
  int hits = 0;
  int wrong_glpk = 0;
  int wrong_gjk = 0;
  long pivots = 0;
  std::vector<bool> truth;
  for (const Pair& p : pairs) {
    ws.forget_basis();
    const LpIntersectResult r = proxima::lp::intersect(p.a, p.b, ws);
    truth.push_back(r.intersect);
    hits += r.intersect ? 1 : 0;
    pivots += r.iterations;
    if (glpk_intersect(p) != r.intersect) ++wrong_glpk;
  }
  const double cold = median_ns_per_query(pairs, [&](std::size_t k) {
    ws.forget_basis();
    return proxima::lp::intersect(pairs[k].a, pairs[k].b, ws).intersect;
  });
  proxima::lp::LpOptions other;
  other.simplex.pricing = other.simplex.pricing == proxima::lp::PricingRule::bland
                              ? proxima::lp::PricingRule::dantzig_bland_fallback
                              : proxima::lp::PricingRule::bland;
  const double cold_other = median_ns_per_query(pairs, [&](std::size_t k) {
    ws.forget_basis();
    return proxima::lp::intersect(pairs[k].a, pairs[k].b, ws, other).intersect;
  });
  // Warm: the pair moves by 1e-3 along a fixed direction between queries (alternating sign, so
  // it stays where it is on average); the workspace keeps the basis.
  std::vector<Pair> moving = pairs;
  std::vector<LpWorkspace> pair_ws(pairs.size());
  std::vector<int> flip(pairs.size(), 1);
  long warm_pivots = 0;
  long warm_calls = 0;
  const double warm = median_ns_per_query(moving, [&](std::size_t k) {
    moving[k].b.row(0).array() += 1e-3 * flip[k];
    flip[k] = -flip[k];
    const LpIntersectResult r = proxima::lp::intersect(moving[k].a, moving[k].b, pair_ws[k]);
    warm_pivots += r.iterations;
    ++warm_calls;
    return r.intersect;
  });
  const double glpk = median_ns_per_query(pairs, [&](std::size_t k) { return glpk_intersect(pairs[k]); });
  double gjk = -1;
  if (n == 3) {
    std::vector<proxima::Polytope> pa;
    std::vector<proxima::Polytope> pb;
    for (const Pair& p : pairs) {
      std::vector<proxima::Vec3> va;
      std::vector<proxima::Vec3> vb;
      for (Eigen::Index j = 0; j < p.a.cols(); ++j) va.emplace_back(p.a.col(j));
      for (Eigen::Index j = 0; j < p.b.cols(); ++j) vb.emplace_back(p.b.col(j));
      pa.emplace_back(va);
      pb.emplace_back(vb);
    }
    const proxima::Pose id;
    for (std::size_t k = 0; k < pairs.size(); ++k) {
      if (proxima::gjk::intersect(pa[k], id, pb[k], id).intersect != truth[k]) ++wrong_gjk;
    }
    gjk = median_ns_per_query(pairs, [&](std::size_t k) { return proxima::gjk::intersect(pa[k], id, pb[k], id).intersect; });
  }
  std::printf("| %2d | %5d | %4.0f%% | %9.2f | %9.2f | %9.2f | %9.2f | %6.1fx | %9s | %6.1f | %6.2f | %d/%d |\n", n,
              count, 100.0 * hits / npairs, cold / 1000, cold_other / 1000, warm / 1000, glpk / 1000, glpk / cold,
              gjk < 0 ? "-" : std::to_string(gjk / 1000).substr(0, 6).c_str(), static_cast<double>(pivots) / npairs,
              static_cast<double>(warm_pivots) / static_cast<double>(warm_calls), wrong_glpk, wrong_gjk);
}

void pivot_row(int count) {
  const std::vector<Pair> pairs = make_pairs(3, count, 64, 77u + static_cast<unsigned>(count));
  proxima::lp::LpOptions bland;
  bland.simplex.pricing = proxima::lp::PricingRule::bland;
  proxima::lp::LpOptions dantzig;
  dantzig.simplex.pricing = proxima::lp::PricingRule::dantzig_bland_fallback;
  LpWorkspace ws;
  double pb = 0;
  double pd = 0;
  int max_b = 0;
  for (const Pair& p : pairs) {
    ws.forget_basis();
    const int ib = proxima::lp::intersect(p.a, p.b, ws, bland).iterations;
    ws.forget_basis();
    const int id = proxima::lp::intersect(p.a, p.b, ws, dantzig).iterations;
    pb += ib;
    pd += id;
    max_b = std::max(max_b, ib);
  }
  std::printf("| %5d | %7.1f | %7.1f | %5d | %6.3f |\n", count, pb / 64, pd / 64, max_b, pb / 64 / (2.0 * count));
}

}  // namespace

int main() {
  std::printf("lp::intersect vs GLPK (glp_simplex, presolve off, LP built per query) vs gjk::intersect\n");
  std::printf("median us per query over 64 seeded pairs; 'cold' uses the default pricing (Dantzig with Bland\n");
  std::printf("fallback), 'other rule' Bland's rule; pivots are means per query (cold default / warm)\n\n");
  std::printf("| n | N/set | hits | cold (us) | cold, other rule (us) | warm (us) | GLPK (us) | GLPK/cold | GJK (us) | pivots | warm pivots | wrong glpk/gjk |\n");
  std::printf("|---|-------|------|-----------|----------|-----------|-----------|--------|----------|--------|--------|-----|\n");
  for (const int count : {8, 32, 128, 1024}) timing_row(3, count, 64);
  timing_row(6, 64, 64);
  timing_row(10, 64, 64);
  std::printf("\npivots per query vs N (n = 3, 64 pairs, cold): Bland vs Dantzig with Bland fallback\n\n");
  std::printf("| N/set | Bland | Dantzig | max Bland | Bland / (2N) |\n|-------|-------|---------|-----------|--------------|\n");
  for (const int count : {8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096}) pivot_row(count);
  return 0;
}
