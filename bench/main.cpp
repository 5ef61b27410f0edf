// SPDX-License-Identifier: MIT
// proxima_bench: the one benchmark program (STYLE.md point 14).
//
//   proxima_bench [--suite=NAME|all] [--seed=N] [--repeat=N] [--quick] [--json=FILE]
//                 [--pairs=N] [--impl=SUBSTRING] [--label=MACHINE] [--pin=CPU|-1] [--dump=IMPL]
//                 [--check]   (exit status 1 when proxima gave a wrong answer)
//
// Suites: gjk_intersect, gjk_distance, epa (polytopes of N = 8, 32, 128, 1024 vertices) and
// primitives (box-box, sphere-box, capsule-capsule, cylinder-cone, ellipsoid-ellipsoid distance),
// lp (lp::intersect vs GLPK in n dimensions, suites/lp.cpp) and ipm (interior-point distance on
// the paper's implicit objects vs Ipopt, time of first contact, deformations, halfspace scaling;
// suites/ipm.cpp), batch (queries per second of the batch API on 1 and 2 threads,
// suites/batch.cpp) and ccd (continuous collision under screw motions vs FCL, suites/ccd.cpp;
// --pairs sets its motions per case).
// Every implementation (proxima and each peer library found at build time) answers the same
// seeded pairs in this one process. Per row: the median ns per query, proxima's median over the
// row's, and the wrong answers among the pairs that have a reference.
#include "common.hpp"
#include "harness.hpp"
#include "inputs.hpp"
#include "reference/reference.hpp"
#ifdef PROXIMA_BENCH_HAVE_LP
#include "suites/lp.hpp"
#endif
#ifdef PROXIMA_BENCH_HAVE_IPM
#include "suites/ipm.hpp"
#endif
#ifdef PROXIMA_BENCH_HAVE_BATCH
#include "suites/batch.hpp"
#endif
#ifdef PROXIMA_BENCH_HAVE_CCD
#include "suites/ccd.hpp"
#endif

#include <chrono>
#ifdef __linux__
#include <sched.h>
#include <unistd.h>
#endif
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

namespace proxima::bench {
namespace {

struct Options {
  std::vector<Suite> suites;
  std::uint64_t seed = 1;
  int repeat = 0;
  bool quick = false;
  int pairs = 0;  // 0 = per-case default
  std::string json;
  std::string impl_filter;
  std::string label;
  std::string dump;  // implementation whose answers are printed pair by pair
  int pin = -2;      // CPU to pin to; -2 = the one we start on, -1 = no pinning
  bool check = false;  // exit status 1 when proxima gave a wrong answer
  bool lp = false;     // the lp suite (suites/lp.cpp), outside the Suite enum
  bool ipm = false;    // the ipm suite (suites/ipm.cpp), outside the Suite enum
  bool batch = false;  // the batch suite (suites/batch.cpp), outside the Suite enum
  bool ccd = false;    // the ccd suite (suites/ccd.cpp), outside the Suite enum
  bool repeat_given = false;  // --repeat given (suites with their own default use it only then)
};

const char* suite_name(Suite s) {
  switch (s) {
    case Suite::gjk_intersect: return "gjk_intersect";
    case Suite::gjk_distance: return "gjk_distance";
    case Suite::epa: return "epa";
    case Suite::primitives: return "primitives";
  }
  return "?";
}

const std::vector<Suite> kAllSuites{Suite::gjk_intersect, Suite::gjk_distance, Suite::epa, Suite::primitives};

[[noreturn]] void usage(const std::string& error) {
  std::fprintf(stderr,
               "%s\nusage: proxima_bench [--suite=gjk_intersect|gjk_distance|epa|primitives|lp|ipm|batch|ccd|all[,...]]\n"
               "                     [--seed=N] [--repeat=N] [--quick] [--json=FILE] [--pairs=N]\n"
               "                     [--impl=SUBSTRING] [--label=MACHINE] [--pin=CPU|-1] [--dump=IMPL] [--check]\n",
               error.c_str());
  std::exit(2);
}

/// Default timing passes: enough passes that the median sees the quiet stretches of a shared
/// machine (docs/benchmarks.md, "noise"); quick mode is a smoke test.
constexpr int kFullRepeat = 30;
constexpr int kQuickRepeat = 3;
/// Acceptable fraction of intersecting pairs in a case set (warn_mix).
constexpr double kMinHitFraction = 0.3;
constexpr double kMaxHitFraction = 0.7;
/// Largest polytope size whose references are re-derived from the N^2 pairwise differences (all
/// pairs up to N = 32, the first 16 at N = 128).
constexpr int kSelfCheckMaxVertices = 128;

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&](const std::string& key) -> std::string {
      return arg.rfind(key + "=", 0) == 0 ? arg.substr(key.size() + 1) : std::string();
    };
    if (arg == "--quick") {
      o.quick = true;
    } else if (arg == "--check") {
      o.check = true;
    } else if (arg == "--help" || arg == "-h") {
      usage("");
    } else if (!value("--suite").empty()) {
      std::string list = value("--suite");
      std::size_t pos = 0;
      while (pos <= list.size()) {
        const std::size_t comma = list.find(',', pos);
        const std::string name = list.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        if (name == "all") {
          o.suites = kAllSuites;
          o.lp = true;
          o.ipm = true;
          o.batch = true;
          o.ccd = true;
        } else if (name == "batch") {
          o.batch = true;
        } else if (name == "ccd") {
          o.ccd = true;
        } else if (name == "lp") {
          o.lp = true;
        } else if (name == "ipm") {
          o.ipm = true;
        } else {
          bool found = false;
          for (Suite s : kAllSuites) {
            if (name == suite_name(s)) {
              o.suites.push_back(s);
              found = true;
            }
          }
          if (!found) usage("unknown suite: " + name);
        }
        if (comma == std::string::npos) break;
        pos = comma + 1;
      }
    } else if (!value("--seed").empty()) {
      o.seed = std::stoull(value("--seed"));
    } else if (!value("--repeat").empty()) {
      o.repeat = std::max(1, std::stoi(value("--repeat")));
      o.repeat_given = true;
    } else if (!value("--pairs").empty()) {
      o.pairs = std::max(1, std::stoi(value("--pairs")));
    } else if (!value("--json").empty()) {
      o.json = value("--json");
    } else if (!value("--impl").empty()) {
      o.impl_filter = value("--impl");
    } else if (!value("--pin").empty()) {
      o.pin = std::stoi(value("--pin"));
    } else if (!value("--dump").empty()) {
      o.dump = value("--dump");
    } else if (!value("--label").empty()) {
      o.label = value("--label");
    } else {
      usage("unknown argument: " + arg);
    }
  }
  if (o.suites.empty() && !o.lp && !o.ipm && !o.batch && !o.ccd) {
    o.suites = kAllSuites;
    o.lp = true;
    o.ipm = true;
    o.batch = true;
    o.ccd = true;
  }
  if (!o.repeat_given) o.repeat = o.quick ? kQuickRepeat : kFullRepeat;
  return o;
}

bool selected(const Options& o, Suite s) {
  for (Suite x : o.suites) {
    if (x == s) return true;
  }
  return false;
}

int default_pairs(const Options& o, const std::string& case_name) {
  if (o.pairs > 0) return o.pairs;
  if (case_name == "N=1024") return o.quick ? 12 : 64;
  return o.quick ? 24 : 256;
}

std::string json_number(double x) {
  if (!std::isfinite(x)) return "null";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

class Output {
 public:
  explicit Output(const Options& o) : options_(o) {
    if (!o.json.empty()) {
      json_.open(o.json);
      if (!json_) usage("cannot write " + o.json);
    }
    std::printf("%-14s %-20s %-22s %11s %11s %13s %12s %10s\n", "suite", "case", "implementation", "median_ns",
                "cold_ns", "proxima/impl", "wrong/total", "max_err");
  }

  /// Wrong answers proxima (any proxima_* row) gave so far (for --check).
  int proxima_wrong = 0;
  /// The JSON lines stream, for suites that write their own lines (lp); null without --json.
  std::ostream* json_stream() { return json_.is_open() ? &json_ : nullptr; }

  void add(const std::vector<Row>& rows) {
    double proxima_ns = kNaN;
    for (const Row& r : rows) {
      if (r.implementation == "proxima") proxima_ns = r.median_ns;
      if (r.implementation.rfind("proxima", 0) == 0) proxima_wrong += r.wrong;  // and its variants
    }
    for (Row r : rows) {
      r.ratio = proxima_ns / r.median_ns;
      char wrong[32];
      std::snprintf(wrong, sizeof wrong, "%d/%d", r.wrong, r.checked);
      std::printf("%-14s %-20s %-22s %11.0f %11.0f %13.3f %12s %10.1e\n", r.suite.c_str(), r.case_name.c_str(),
                  r.implementation.c_str(), r.median_ns, r.cold_ns, r.ratio, wrong, r.max_error);
      if (json_) {
        json_ << "{\"suite\":\"" << r.suite << "\",\"case\":\"" << r.case_name << "\",\"implementation\":\""
              << r.implementation << "\",\"median_ns\":" << json_number(r.median_ns) << ",\"median_separated_ns\":" << json_number(r.median_separated_ns)
              << ",\"median_intersecting_ns\":" << json_number(r.median_intersecting_ns)
              << ",\"cold_ns\":" << json_number(r.cold_ns) << ",\"queries\":" << r.queries
              << ",\"pairs\":" << r.pairs << ",\"wrong\":" << r.wrong << ",\"checked\":" << r.checked
              << ",\"max_error\":" << json_number(r.max_error) << ",\"ratio_proxima_over_impl\":"
              << json_number(r.ratio)
              << ",\"seed\":" << options_.seed << ",\"repeat\":" << options_.repeat;
        if (!options_.label.empty()) json_ << ",\"machine\":\"" << options_.label << "\"";
        json_ << "}\n";
      }
    }
    std::fflush(stdout);
  }

 private:
  const Options& options_;
  std::ofstream json_;
};

/// Prints one implementation's answers beside the references (--dump=IMPL, for investigating).
void dump(const CaseSet& set, Suite suite, const std::vector<std::size_t>& pairs, const Answers& a,
          const std::string& name) {
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const Reference& r = set.refs[pairs[k]];
    std::printf("# dump %s %s %s pair %zu: ref intersect=%d near=%d distance=%.17g depth=%.17g | ", name.c_str(),
                suite_name(suite), set.name.c_str(), pairs[k], r.intersect ? 1 : 0, r.near_touching ? 1 : 0,
                r.distance, r.depth);
    if (suite == Suite::gjk_intersect) std::printf("intersect=%d\n", a.intersect[k] ? 1 : 0);
    if (suite == Suite::epa) std::printf("intersect=%d depth=%.17g\n", a.depth[k].intersect ? 1 : 0, a.depth[k].depth);
    if (suite == Suite::gjk_distance || suite == Suite::primitives) {
      std::printf("intersect=%d distance=%.17g\n", a.distance[k].intersect ? 1 : 0, a.distance[k].distance);
    }
  }
}

/// Runs one suite on one case set: answers (untimed) from every implementation, the smooth
/// certificate where needed, judging, then timing.
void run_case(const Options& o, Suite suite, CaseSet& set, std::vector<std::unique_ptr<Implementation>>& impls,
              Output& out) {
  std::vector<std::size_t> pairs;
  for (std::size_t i = 0; i < set.pairs.size(); ++i) {
    if (suite == Suite::epa && !(set.refs[i].known_intersect && set.refs[i].intersect)) continue;
    pairs.push_back(i);
  }
  std::vector<Implementation*> active;
  for (auto& impl : impls) {
    if (impl->supports(suite, set)) active.push_back(impl.get());
  }
  std::vector<Answers> answers;
  for (Implementation* impl : active) {
    impl->prepare(set);
    answers.push_back(collect_answers(*impl, suite, pairs));
  }
  if (suite == Suite::primitives) {
    std::vector<std::vector<DistanceAnswer>> by_impl;
    for (const Answers& a : answers) {
      std::vector<DistanceAnswer> full(set.pairs.size());
      for (std::size_t k = 0; k < pairs.size(); ++k) full[pairs[k]] = a.distance[k];
      by_impl.push_back(std::move(full));
    }
    certify_smooth_distance(set, by_impl);
  }
  std::vector<Row> rows(active.size());
  for (std::size_t k = 0; k < active.size(); ++k) {
    rows[k].suite = suite_name(suite);
    rows[k].case_name = set.name;
    rows[k].implementation = active[k]->name();
    judge(set, suite, pairs, answers[k], rows[k]);
    if (o.dump == rows[k].implementation) dump(set, suite, pairs, answers[k], rows[k].implementation);
  }
  time_queries(active, suite, set, pairs, o.repeat, rows);
  out.add(rows);
}

/// The placement rule aims at about half the pairs intersecting; a mix far from that would make
/// the medians describe one class only, so say so.
void warn_mix(const std::string& name, int hits, std::size_t pairs) {
  const double fraction = pairs > 0 ? static_cast<double>(hits) / static_cast<double>(pairs) : 0.0;
  if (fraction < kMinHitFraction || fraction > kMaxHitFraction) {
    std::printf("# WARNING %s: %.0f%% of the pairs intersect (expected about half)\n", name.c_str(), 100 * fraction);
  }
}

/// Pins the process to one CPU so the scheduler cannot migrate it mid-measurement (a migration
/// leaves the private L1/L2 caches behind, which costs hill-climbing supports far more than scans).
/// Returns the CPU, or -1 when not pinned.
int pin_cpu(int requested) {
#ifdef __linux__
  if (requested == -1) return -1;
  const int cpu = requested >= 0 ? requested : sched_getcpu();
  if (cpu < 0) return -1;
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return sched_setaffinity(0, sizeof set, &set) == 0 ? cpu : -1;
#else
  (void)requested;
  return -1;
#endif
}

/// Undoes pin_cpu: every CPU the machine has (threads started afterwards may use them all).
void unpin_cpu() {
#ifdef __linux__
  cpu_set_t set;
  CPU_ZERO(&set);
  const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  for (long c = 0; c < cpus && c < CPU_SETSIZE; ++c) CPU_SET(static_cast<int>(c), &set);
  sched_setaffinity(0, sizeof set, &set);
#endif
}

int run(int argc, char** argv) {
  const Options o = parse(argc, argv);
  const int cpu = pin_cpu(o.pin);
  std::vector<std::unique_ptr<Implementation>> impls;
  for (auto* factory : {&make_proxima, &make_proxima_query, &make_proxima_lp, &make_libccd, &make_fcl, &make_bullet}) {
    for (auto& impl : factory()) {
      if (o.impl_filter.empty() || impl->name().find(o.impl_filter) != std::string::npos ||
          impl->name() == "proxima") {
        impls.push_back(std::move(impl));
      }
    }
  }
  std::printf("# proxima_bench seed=%llu repeat=%d%s pinned-cpu=%d exact-distance-reference=%s implementations:",
              static_cast<unsigned long long>(o.seed), o.repeat, o.quick ? " quick" : "", cpu,
              have_exact_distance() ? "CGAL" : "none");
  for (const auto& impl : impls) std::printf(" %s", impl->name().c_str());
  std::printf("\n");
  Output out(o);
  const auto start = std::chrono::steady_clock::now();
  const bool polytopes =
      selected(o, Suite::gjk_intersect) || selected(o, Suite::gjk_distance) || selected(o, Suite::epa);
  if (polytopes) {
    for (int n : {8, 32, 128, 1024}) {
      const std::string name = "N=" + std::to_string(n);
      CaseSet set = make_polytope_set(n, default_pairs(o, name), o.seed);
      const double ref_seconds = compute_references(set, selected(o, Suite::gjk_distance));
      int hits = 0;
      for (const Reference& r : set.refs) hits += r.intersect ? 1 : 0;
      std::printf("# %s: %zu pairs, %d intersecting, references in %.2f s\n", name.c_str(), set.pairs.size(), hits,
                  ref_seconds);
      warn_mix(name, hits, set.pairs.size());
      if (n <= kSelfCheckMaxVertices) {
        // The facet enumeration against qhull's hull of all pairwise differences (N^2 points).
        const SelfCheck check =
            self_check_facets(set, static_cast<std::size_t>(kSelfCheckMaxVertices), n <= 32 ? 1 << 20 : 16);
        std::printf("# %s: reference self-check on %d pairs: %d class mismatches, max margin deviation %.1e\n",
                    name.c_str(), check.pairs, check.class_mismatches, check.max_deviation);
      }
      for (Suite s : {Suite::gjk_intersect, Suite::gjk_distance, Suite::epa}) {
        if (selected(o, s)) run_case(o, s, set, impls, out);
      }
    }
  }
  if (selected(o, Suite::primitives)) {
    for (const std::string& row : primitive_rows()) {
      CaseSet set = make_primitive_set(row, default_pairs(o, row), o.seed);
      compute_references(set, true);
      run_case(o, Suite::primitives, set, impls, out);
      int known = 0;
      int hits = 0;
      for (const Reference& r : set.refs) {
        known += r.known_distance ? 1 : 0;
        hits += r.known_intersect && r.intersect ? 1 : 0;
      }
      std::printf("# %s: %zu pairs, %d with a reference (%d intersecting)\n", row.c_str(), set.pairs.size(), known,
                  hits);
      warn_mix(row, hits, set.pairs.size());
    }
  }
#ifdef PROXIMA_BENCH_HAVE_LP
  if (o.lp) {
    const LpSuiteConfig lp_config{o.seed, o.repeat, o.quick, o.pairs, o.impl_filter, o.label, out.json_stream()};
    out.proxima_wrong += run_lp_suite(lp_config);
  }
#endif
#ifdef PROXIMA_BENCH_HAVE_IPM
  // Uncertified interior-point answers count as wrong: the target is zero of them.
  if (o.ipm) out.proxima_wrong += run_ipm_suite(o.seed, o.quick, out.json_stream(), o.label);
#endif
#ifdef PROXIMA_BENCH_HAVE_CCD
  if (o.ccd) {
    // Its own default passes and motions per case (--repeat, --pairs override them).
    const CcdSuiteConfig ccd_config{o.seed, o.repeat_given ? o.repeat : 0, o.quick, o.pairs, o.impl_filter, o.label,
                                    out.json_stream()};
    out.proxima_wrong += run_ccd_suite(ccd_config);
  }
#endif
#ifdef PROXIMA_BENCH_HAVE_BATCH
  // Not pinned to one CPU: the two-thread rows need both cores.
  if (o.batch) {
    unpin_cpu();
    out.proxima_wrong += run_batch_suite(o.seed, o.quick, out.json_stream(), o.label);
  }
#endif
  std::printf("# total %.1f s, proxima wrong answers: %d\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), out.proxima_wrong);
  return o.check && out.proxima_wrong > 0 ? 1 : 0;
}

}  // namespace
}  // namespace proxima::bench

int main(int argc, char** argv) { return proxima::bench::run(argc, argv); }
