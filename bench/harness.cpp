// SPDX-License-Identifier: MIT
#include "harness.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace proxima::bench {

namespace {

/// Keeps the optimiser from dropping a query whose answer is unused.
volatile double g_sink = 0;

double run_one(Implementation& impl, Suite suite, std::size_t i) {
  switch (suite) {
    case Suite::gjk_intersect: return impl.intersect(i) ? 1.0 : 0.0;
    case Suite::gjk_distance:
    case Suite::primitives: return impl.distance(i).distance;
    case Suite::epa: return impl.penetration(i).depth;
  }
  return 0;
}

double now_ns() {
  return static_cast<double>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

}  // namespace

Answers collect_answers(Implementation& impl, Suite suite, const std::vector<std::size_t>& pairs) {
  Answers out;
  for (std::size_t i : pairs) {
    switch (suite) {
      case Suite::gjk_intersect: out.intersect.push_back(impl.intersect(i)); break;
      case Suite::gjk_distance:
      case Suite::primitives: out.distance.push_back(impl.distance(i)); break;
      case Suite::epa: out.depth.push_back(impl.penetration(i)); break;
    }
  }
  return out;
}

void judge(const CaseSet& set, Suite suite, const std::vector<std::size_t>& pairs, const Answers& answers,
           Row& row) {
  row.wrong = 0;
  row.checked = 0;
  row.max_error = 0;
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const Reference& ref = set.refs[pairs[k]];
    Verdict v = Verdict::unknown;
    switch (suite) {
      case Suite::gjk_intersect: v = judge_intersect(ref, answers.intersect[k]); break;
      case Suite::gjk_distance:
      case Suite::primitives: {
        const DistanceAnswer& a = answers.distance[k];
        v = judge_distance(ref, a, set.scale);
        if (v != Verdict::unknown) {
          const double got = a.intersect ? 0.0 : a.distance;
          row.max_error = std::max(row.max_error, std::isfinite(got) ? std::abs(got - ref.distance) : INFINITY);
        }
        break;
      }
      case Suite::epa: {
        const DepthAnswer& a = answers.depth[k];
        v = judge_depth(ref, a, set.scale);
        if (v != Verdict::unknown) {
          const double got = a.intersect ? a.depth : 0.0;
          row.max_error = std::max(row.max_error, std::isfinite(got) ? std::abs(got - ref.depth) : INFINITY);
        }
        break;
      }
    }
    if (v != Verdict::unknown) ++row.checked;
    if (v == Verdict::wrong) ++row.wrong;
  }
}

namespace {

double median_of(std::vector<double>& v) {
  if (v.empty()) return kNaN;
  const std::size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  double median = v[mid];
  if (v.size() % 2 == 0) median = (median + *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid))) / 2;
  return median;
}

/// Median cost of one steady_clock read pair, subtracted from single-call samples.
double clock_overhead_ns() {
  constexpr int kReads = 1001;
  std::vector<double> d;
  d.reserve(kReads);
  for (int i = 0; i < kReads; ++i) {
    const double a = now_ns();
    d.push_back(now_ns() - a);
  }
  return median_of(d);
}

}  // namespace

void time_queries(const std::vector<Implementation*>& impls, Suite suite, const CaseSet& set,
                  const std::vector<std::size_t>& pairs, int repeat, std::vector<Row>& rows) {
  const std::size_t n = impls.size();
  std::vector<int> batch(n, 1);
  std::vector<std::vector<double>> samples(n);
  std::vector<std::vector<double>> separated(n);
  std::vector<std::vector<double>> intersecting(n);
  std::vector<std::vector<double>> cold(n);
  double sink = 0;
  if (pairs.empty()) return;
  const double clock_cost = clock_overhead_ns();
  for (std::size_t k = 0; k < n; ++k) {
    rows[k].pairs = pairs.size();
    // Warm-up pass, which also sizes the batches.
    const double t0 = now_ns();
    for (std::size_t i : pairs) sink += run_one(*impls[k], suite, i);
    const double mean = (now_ns() - t0) / static_cast<double>(pairs.size());
    batch[k] = static_cast<int>(std::clamp(std::ceil(kMinBatchNs / std::max(mean, 1.0)), 1.0, 4096.0));
  }
  for (int r = 0; r < repeat; ++r) {
    for (std::size_t k = 0; k < n; ++k) {
      for (std::size_t i : pairs) {
        const double start = now_ns();
        sink += run_one(*impls[k], suite, i);
        cold[k].push_back(now_ns() - start - clock_cost);
      }
      for (std::size_t i : pairs) {
        sink += run_one(*impls[k], suite, i);  // untimed: this pair's data into the caches
        const double start = now_ns();
        for (int b = 0; b < batch[k]; ++b) sink += run_one(*impls[k], suite, i);
        const double sample = (now_ns() - start - clock_cost) / batch[k];
        samples[k].push_back(sample);
        const Reference& ref = set.refs[i];
        if (ref.known_intersect) (ref.intersect ? intersecting[k] : separated[k]).push_back(sample);
      }
    }
  }
  g_sink = g_sink + sink;
  for (std::size_t k = 0; k < n; ++k) {
    rows[k].queries = samples[k].size() * static_cast<std::size_t>(batch[k]) + cold[k].size();
    rows[k].median_ns = median_of(samples[k]);
    rows[k].median_separated_ns = median_of(separated[k]);
    rows[k].median_intersecting_ns = median_of(intersecting[k]);
    rows[k].cold_ns = median_of(cold[k]);
  }
}

}  // namespace proxima::bench
