// SPDX-License-Identifier: MIT
// The `lp` suite (see lp.hpp). Rows: n = 3 with N = 8, 32, 128, 1024 points per set; N = 64 with
// n = 6, 10, 20. Each row holds seeded pairs of clouds on the unit sphere (every point a vertex),
// the second shifted along a random direction by a distance drawn so that about half of the
// pairs intersect. Implementations, all answering the same pairs in this process:
//  - glpk:             GLPK glp_simplex on the same LP, built per query, presolve off;
//  - proxima_lp:       lp::intersect_into, cold (basis forgotten before each query; workspace
//                      and result object reused, so no allocation);
//  - proxima_lp_bland: the same with PricingRule::bland;
//  - proxima_lp_warm:  the pair moves by 1e-3 between queries (alternating sign), the workspace
//                      keeps the basis (a different workload: a slowly moving pair);
//  - proxima_gjk:      gjk::intersect on the same pairs as Polytopes (hull built untimed), 3-D only.
// Checking (untimed): every proxima answer's certificate is verified (check_common_point /
// check_separation on the input points); the truth is CGAL's exact LP where cheap (N <= 128)
// and otherwise proxima's verified certificate; every implementation's answers are compared
// with it and the disagreements counted as wrong. Pivots per query: mean and max of the cold
// solves, and a separate growth table in N (n = 3, N = 8..4096) for both pricing rules.
// Timing as in harness.hpp (warm regime): per pair one untimed call, then a batch of >= 2 us
// timed; median over (pass, pair) samples; passes of the implementations interleaved.
#include "suites/lp.hpp"

#include <proxima/core/pose.hpp>
#include <proxima/gjk/intersect.hpp>
#include <proxima/lp/intersect.hpp>
#include <proxima/shapes/polytope.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace proxima::bench {

#ifndef PROXIMA_BENCH_HAVE_GLPK
bool have_glpk() { return false; }
bool glpk_intersect(const Eigen::MatrixXd&, const Eigen::MatrixXd&, bool& ok) {
  ok = false;
  return false;
}
#endif
#ifndef PROXIMA_BENCH_HAVE_CGAL
bool have_exact_lp() { return false; }
bool exact_lp_intersect(const Eigen::MatrixXd&, const Eigen::MatrixXd&) { return false; }
#endif

namespace {

constexpr double kNaNd = std::numeric_limits<double>::quiet_NaN();
/// Largest N per set whose pairs get the exact CGAL reference (it costs milliseconds per pair).
constexpr int kExactMaxPoints = 128;
/// Shortest timed batch (as harness.hpp's kMinBatchNs).
constexpr double kBatchNs = 2000;
/// Motion per query of the warm row, relative to the unit radius of the clouds.
constexpr double kWarmStep = 1e-3;
/// Common-point certificates must reproduce the point to this, times the extent of the sets.
constexpr double kCommonPointTolerance = 1e-9;

struct LpPair {
  Eigen::MatrixXd a;
  Eigen::MatrixXd b;
  Eigen::VectorXd direction;  // unit shift direction of b (the warm row moves along it)
};

struct LpRow {
  int n = 3;
  int points = 8;
  std::string name;
  std::vector<LpPair> pairs;
  std::vector<int> truth;  // 1 intersect, 0 separated, -1 unknown
  std::vector<bool> exact;  // truth from CGAL's exact LP
};

double now_ns() {
  return static_cast<double>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

Eigen::MatrixXd sphere_cloud(int n, int count, std::mt19937_64& rng) {
  std::normal_distribution<double> g;
  Eigen::MatrixXd p(n, count);
  for (int j = 0; j < count; ++j) {
    for (int i = 0; i < n; ++i) p(i, j) = g(rng);
    p.col(j).normalize();
  }
  return p;
}

LpRow make_row(int n, int points, int pairs, std::uint64_t seed) {
  LpRow row;
  row.n = n;
  row.points = points;
  row.name = "n=" + std::to_string(n) + " N=" + std::to_string(points);
  std::mt19937_64 rng(seed * 1000003u + static_cast<std::uint64_t>(n * 7919 + points));
  // Typical support value h of a cloud (mean over random directions of the largest u . p): two
  // clouds whose centres are d apart along u meet roughly when d < 2 h, so d uniform in
  // [0, 4 h] gives about half intersecting pairs in any dimension.
  const Eigen::MatrixXd probe = sphere_cloud(n, points, rng);
  double h = 0;
  constexpr int kProbeDirections = 64;
  for (int k = 0; k < kProbeDirections; ++k) h += (sphere_cloud(n, 1, rng).col(0).transpose() * probe).maxCoeff();
  h /= kProbeDirections;
  std::uniform_real_distribution<double> dist(0, 4 * h);
  for (int k = 0; k < pairs; ++k) {
    LpPair p{sphere_cloud(n, points, rng), sphere_cloud(n, points, rng), sphere_cloud(n, 1, rng).col(0)};
    p.b.colwise() += p.direction * dist(rng);
    row.pairs.push_back(std::move(p));
  }
  return row;
}

/// True when the answer is converged and its certificate holds on the input points.
bool certificate_holds(const LpPair& p, const lp::LpIntersectResult& r) {
  if (!r.converged) return false;
  if (r.intersect) {
    const double extent = std::max(p.a.cwiseAbs().maxCoeff(), p.b.cwiseAbs().maxCoeff());
    return lp::check_common_point(p.a, p.b, r.common_point, r.weights_a, r.weights_b, kCommonPointTolerance * extent)
        .valid;
  }
  return lp::check_separation(p.a, p.b, r.separating_normal, r.separating_offset).valid;
}

struct Impl {
  Impl(std::string impl_name, std::function<bool(std::size_t)> answer)
      : name(std::move(impl_name)), query(std::move(answer)) {}
  std::string name;
  std::function<bool(std::size_t)> query;  // answers pair k (what is timed)
  int wrong = 0;
  int checked = 0;
  double pivots_mean = kNaNd;
  int pivots_max = 0;
  long fallbacks = -1;
  std::vector<double> samples;
  std::vector<double> separated;
  std::vector<double> intersecting;
  int batch = 1;
  double median = kNaNd;
  double median_separated = kNaNd;
  double median_intersecting = kNaNd;
};

double median_of(std::vector<double> v) {
  if (v.empty()) return kNaNd;
  const std::size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  return v[mid];
}

std::string json_number(double x) {
  if (!std::isfinite(x)) return "null";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

volatile double g_lp_sink = 0;

void time_impls(std::vector<Impl*>& impls, const LpRow& row, int repeat) {
  double sink = 0;
  for (Impl* impl : impls) {
    const double t0 = now_ns();
    for (std::size_t k = 0; k < row.pairs.size(); ++k) sink += impl->query(k) ? 1 : 0;
    const double mean = (now_ns() - t0) / static_cast<double>(row.pairs.size());
    impl->batch = static_cast<int>(std::clamp(std::ceil(kBatchNs / std::max(mean, 1.0)), 1.0, 4096.0));
  }
  for (int r = 0; r < repeat; ++r) {
    for (Impl* impl : impls) {
      for (std::size_t k = 0; k < row.pairs.size(); ++k) {
        sink += impl->query(k) ? 1 : 0;  // untimed: this pair's data into the caches
        const double start = now_ns();
        for (int b = 0; b < impl->batch; ++b) sink += impl->query(k) ? 1 : 0;
        const double sample = (now_ns() - start) / impl->batch;
        impl->samples.push_back(sample);
        if (row.truth[k] >= 0) (row.truth[k] == 1 ? impl->intersecting : impl->separated).push_back(sample);
      }
    }
  }
  g_lp_sink = g_lp_sink + sink;
  for (Impl* impl : impls) {
    impl->median = median_of(impl->samples);
    impl->median_separated = median_of(impl->separated);
    impl->median_intersecting = median_of(impl->intersecting);
  }
}

/// Pivots per cold query against N (n = 3) for both pricing rules: the seed expects linear growth.
void pivot_growth(const LpSuiteConfig& config) {
  std::printf("# lp pivots per cold query, n = 3 (mean / max over the pairs)\n");
  std::printf("# %6s %18s %18s %10s\n", "N/set", "dantzig+bland", "bland", "fallbacks");
  for (int points : {8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096}) {
    const LpRow row = make_row(3, points, config.quick ? 12 : 64, config.seed + 17);
    lp::LpOptions bland;
    bland.simplex.pricing = lp::PricingRule::bland;
    lp::LpWorkspace ws;
    lp::LpIntersectResult r;
    double sum[2] = {0, 0};
    int max[2] = {0, 0};
    for (const LpPair& p : row.pairs) {
      for (int rule = 0; rule < 2; ++rule) {
        ws.forget_basis();
        lp::intersect_into(p.a, p.b, ws, r, rule == 0 ? lp::LpOptions{} : bland);
        sum[rule] += r.iterations;
        max[rule] = std::max(max[rule], r.iterations);
      }
    }
    const double count = static_cast<double>(row.pairs.size());
    std::printf("# %6d %12.2f / %3d %12.2f / %3d %10ld\n", points, sum[0] / count, max[0], sum[1] / count, max[1],
                ws.intersect_fallbacks());
    if (config.json != nullptr) {
      *config.json << "{\"suite\":\"lp_pivots\",\"case\":\"n=3 N=" << points << "\",\"n\":3,\"points_per_set\":" << points
                   << ",\"pairs\":" << row.pairs.size() << ",\"pivots_mean_dantzig_bland\":" << json_number(sum[0] / count)
                   << ",\"pivots_max_dantzig_bland\":" << max[0] << ",\"pivots_mean_bland\":" << json_number(sum[1] / count)
                   << ",\"pivots_max_bland\":" << max[1] << ",\"fallbacks\":" << ws.intersect_fallbacks()
                   << ",\"seed\":" << config.seed;
      if (!config.label.empty()) *config.json << ",\"machine\":\"" << config.label << "\"";
      *config.json << "}\n";
    }
  }
}

int run_row(const LpSuiteConfig& config, int n, int points) {
  const int pair_count = config.pairs > 0 ? config.pairs : (config.quick ? 12 : 64);
  LpRow row = make_row(n, points, pair_count, config.seed);
  const std::size_t count = row.pairs.size();

  // References: the exact LP where cheap, else proxima's certified answer (filled below).
  row.truth.assign(count, -1);
  row.exact.assign(count, false);
  if (have_exact_lp() && points <= kExactMaxPoints) {
    for (std::size_t k = 0; k < count; ++k) {
      row.truth[k] = exact_lp_intersect(row.pairs[k].a, row.pairs[k].b) ? 1 : 0;
      row.exact[k] = true;
    }
  }

  // proxima, cold: also the checking pass that fills the remaining references.
  lp::LpWorkspace cold_ws;
  lp::LpIntersectResult cold_r;
  Impl cold{"proxima_lp", [&](std::size_t k) {
              cold_ws.forget_basis();
              lp::intersect_into(row.pairs[k].a, row.pairs[k].b, cold_ws, cold_r);
              return cold_r.intersect;
            }};
  lp::LpOptions bland_options;
  bland_options.simplex.pricing = lp::PricingRule::bland;
  lp::LpWorkspace bland_ws;
  lp::LpIntersectResult bland_r;
  Impl bland{"proxima_lp_bland", [&](std::size_t k) {
               bland_ws.forget_basis();
               lp::intersect_into(row.pairs[k].a, row.pairs[k].b, bland_ws, bland_r, bland_options);
               return bland_r.intersect;
             }};
  std::vector<LpPair> moving = row.pairs;
  std::vector<lp::LpWorkspace> warm_ws(count);
  std::vector<int> flip(count, 1);
  lp::LpIntersectResult warm_r;
  Impl warm{"proxima_lp_warm", [&](std::size_t k) {
              moving[k].b.colwise() += (kWarmStep * flip[k]) * moving[k].direction;
              flip[k] = -flip[k];
              lp::intersect_into(moving[k].a, moving[k].b, warm_ws[k], warm_r);
              return warm_r.intersect;
            }};

  // Checking pass of the proxima rows: certificates, pivots, references.
  int hits = 0;
  for (auto [impl, result, ws] : {std::tuple{&cold, &cold_r, &cold_ws}, std::tuple{&bland, &bland_r, &bland_ws}}) {
    long pivots = 0;
    for (std::size_t k = 0; k < count; ++k) {
      const bool answer = impl->query(k);
      pivots += result->iterations;
      impl->pivots_max = std::max(impl->pivots_max, result->iterations);
      const bool certified = certificate_holds(row.pairs[k], *result);
      if (impl == &cold && row.truth[k] < 0 && certified) row.truth[k] = answer ? 1 : 0;
      ++impl->checked;
      if (!certified || (row.truth[k] >= 0 && (row.truth[k] == 1) != answer)) ++impl->wrong;
      if (impl == &cold) hits += answer ? 1 : 0;
    }
    impl->pivots_mean = static_cast<double>(pivots) / static_cast<double>(count);
    impl->fallbacks = ws->intersect_fallbacks();
  }
  {
    // The warm row moves its pairs: its certificates are checked on the moved pairs.
    long pivots = 0;
    long calls = 0;
    constexpr int kWarmCheckSteps = 8;
    for (std::size_t k = 0; k < count; ++k) {
      for (int step = 0; step < kWarmCheckSteps; ++step) {
        warm.query(k);
        pivots += warm_r.iterations;
        ++calls;
        warm.pivots_max = std::max(warm.pivots_max, warm_r.iterations);
        ++warm.checked;
        if (!certificate_holds(moving[k], warm_r)) ++warm.wrong;
      }
    }
    warm.pivots_mean = static_cast<double>(pivots) / static_cast<double>(calls);
    warm.fallbacks = 0;
    for (const auto& w : warm_ws) warm.fallbacks += w.intersect_fallbacks();
  }

  // GLPK and GJK against the references.
  Impl glpk{"glpk", [&](std::size_t k) {
              bool ok = false;
              return glpk_intersect(row.pairs[k].a, row.pairs[k].b, ok);
            }};
  std::vector<Polytope> poly_a;
  std::vector<Polytope> poly_b;
  const Pose identity;
  Impl gjk_impl{"proxima_gjk", [&](std::size_t k) {
                  return gjk::intersect(poly_a[k], identity, poly_b[k], identity).intersect;
                }};
  std::vector<Impl*> impls;
  const auto wanted = [&](const Impl& impl) {
    return config.impl_filter.empty() || impl.name.find(config.impl_filter) != std::string::npos ||
           impl.name == "proxima_lp";
  };
  if (have_glpk() && wanted(glpk)) {
    for (std::size_t k = 0; k < count; ++k) {
      bool ok = false;
      const bool answer = glpk_intersect(row.pairs[k].a, row.pairs[k].b, ok);
      if (row.truth[k] < 0) continue;
      ++glpk.checked;
      if (!ok || (row.truth[k] == 1) != answer) ++glpk.wrong;
    }
    impls.push_back(&glpk);
  }
  impls.push_back(&cold);
  if (wanted(bland)) impls.push_back(&bland);
  if (wanted(warm)) impls.push_back(&warm);
  if (n == 3 && wanted(gjk_impl)) {
    for (const LpPair& p : row.pairs) {
      std::vector<Vec3> va;
      std::vector<Vec3> vb;
      for (Eigen::Index j = 0; j < p.a.cols(); ++j) va.emplace_back(p.a.col(j));
      for (Eigen::Index j = 0; j < p.b.cols(); ++j) vb.emplace_back(p.b.col(j));
      poly_a.emplace_back(va);
      poly_b.emplace_back(vb);
    }
    for (std::size_t k = 0; k < count; ++k) {
      const bool answer = gjk_impl.query(k);
      if (row.truth[k] < 0) continue;
      ++gjk_impl.checked;
      if ((row.truth[k] == 1) != answer) ++gjk_impl.wrong;
    }
    impls.push_back(&gjk_impl);
  }

  time_impls(impls, row, config.repeat);

  int exact_count = 0;
  for (bool e : row.exact) exact_count += e ? 1 : 0;
  std::printf("# lp %s: %zu pairs, %d intersecting, %d with the exact reference\n", row.name.c_str(), count, hits,
              exact_count);
  for (const Impl* impl : impls) {
    const double ratio_proxima = cold.median / impl->median;
    const double ratio_glpk = glpk.median / impl->median;
    char pivots[32] = "-";
    if (std::isfinite(impl->pivots_mean)) std::snprintf(pivots, sizeof pivots, "%.2f/%d", impl->pivots_mean, impl->pivots_max);
    char wrong[32];
    std::snprintf(wrong, sizeof wrong, "%d/%d", impl->wrong, impl->checked);
    std::printf("%-14s %-20s %-22s %11.0f %11.0f %11.0f %10.2f %10.3f %12s %12s %5ld\n", "lp", row.name.c_str(),
                impl->name.c_str(), impl->median, impl->median_separated, impl->median_intersecting, ratio_glpk,
                ratio_proxima, wrong, pivots, impl->fallbacks);
    if (config.json != nullptr) {
      *config.json << "{\"suite\":\"lp\",\"case\":\"" << row.name << "\",\"implementation\":\"" << impl->name
                   << "\",\"median_ns\":" << json_number(impl->median)
                   << ",\"median_separated_ns\":" << json_number(impl->median_separated)
                   << ",\"median_intersecting_ns\":" << json_number(impl->median_intersecting)
                   << ",\"queries\":" << impl->samples.size() * static_cast<std::size_t>(impl->batch)
                   << ",\"pairs\":" << count << ",\"wrong\":" << impl->wrong << ",\"checked\":" << impl->checked
                   << ",\"ratio_proxima_over_impl\":" << json_number(ratio_proxima)
                   << ",\"ratio_glpk_over_impl\":" << json_number(ratio_glpk)
                   << ",\"pivots_mean\":" << json_number(impl->pivots_mean) << ",\"pivots_max\":" << impl->pivots_max
                   << ",\"fallbacks\":" << impl->fallbacks << ",\"n\":" << n << ",\"points_per_set\":" << points
                   << ",\"intersecting\":" << hits << ",\"exact_references\":" << exact_count
                   << ",\"seed\":" << config.seed << ",\"repeat\":" << config.repeat;
      if (!config.label.empty()) *config.json << ",\"machine\":\"" << config.label << "\"";
      *config.json << "}\n";
    }
  }
  std::fflush(stdout);
  return cold.wrong + bland.wrong + warm.wrong;
}

}  // namespace

int run_lp_suite(const LpSuiteConfig& config) {
  std::printf("# lp suite: glpk=%s exact-reference=%s (N <= %d)\n", have_glpk() ? "yes" : "no",
              have_exact_lp() ? "CGAL" : "none", kExactMaxPoints);
  std::printf("%-14s %-20s %-22s %11s %11s %11s %10s %10s %12s %12s %5s\n", "suite", "case", "implementation",
              "median_ns", "separated", "intersect", "glpk/impl", "lp/impl", "wrong/total", "pivots", "fallb");
  int wrong = 0;
  for (int points : {8, 32, 128, 1024}) wrong += run_row(config, 3, points);
  for (int n : {6, 10, 20}) wrong += run_row(config, n, 64);
  pivot_growth(config);
  return wrong;
}

}  // namespace proxima::bench
