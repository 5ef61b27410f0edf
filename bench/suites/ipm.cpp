// SPDX-License-Identifier: MIT
// Suite "ipm": interior-point distance between the paper's implicit objects (seed 001, section
// VIII), beside Ipopt solving the same problem in this process on the same seeded poses.
// Rows (one JSON line each, suite "ipm"):
//  - distance/<pair>: proxima cold (from the interior points), proxima warm (the same pair moved
//    by a small rigid step, warm-started from the previous answer) and Ipopt; median ns per
//    query and uncertified/failed answers of each;
//  - toi/<pair>: time of first contact (eq. 17 then 18) over colliding translations (table II);
//  - deform/<kind>: 10-step deformations (table III), warm-started vs cold per step;
//  - halfspaces/N=<n>: an n-halfspace polytope against an ellipsoid (figures 6-8), ns per query.
#include "suites/ipm.hpp"

#include "draws.hpp"

#ifdef PROXIMA_BENCH_HAVE_IPOPT
#include "oracles/ipopt_distance.hpp"  // tests/oracles: the same problem as the ipm oracle test
#endif

#include <proxima/ipm/continuous.hpp>
#include <proxima/ipm/distance.hpp>
#include <proxima/ipm/presets.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace proxima::bench {
namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
  if (v.empty()) return kNaN;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

template <class F>
double time_ns(F&& f) {
  const auto t0 = Clock::now();
  f();
  return std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
}

Pose random_pose(std::mt19937_64& rng, double spread) {
  std::normal_distribution<double> n(0, 1);
  std::uniform_real_distribution<double> u(-spread, spread);
  // One draw per statement, last argument first (bench/draws.hpp).
  const Vec3 translation = vec3_z_first([&] { return u(rng); });
  const double qz = n(rng);
  const double qy = n(rng);
  const double qx = n(rng);
  const double qw = n(rng);
  return Pose::from_quaternion(qw, qx, qy, qz, translation);
}

struct IpmRow {
  std::string case_name, implementation;
  double median_ns = kNaN;
  int failures = 0, queries = 0;
  double ratio = kNaN;  // proxima cold median / this median
  double median_iterations = kNaN;
};

class Printer {
 public:
  Printer(std::ostream* json, std::string label, std::uint64_t seed) : json_(json), label_(std::move(label)), seed_(seed) {}
  void add(const IpmRow& r) {
    std::printf("%-14s %-28s %-16s %12.0f %10.2e %9d/%-7d %6.1f\n", "ipm", r.case_name.c_str(), r.implementation.c_str(),
                r.median_ns, r.ratio, r.failures, r.queries, r.median_iterations);
    if (json_ != nullptr) {
      auto num = [](double x) { return std::isfinite(x) ? std::to_string(x) : std::string("null"); };
      *json_ << "{\"suite\":\"ipm\",\"case\":\"" << r.case_name << "\",\"implementation\":\"" << r.implementation
             << "\",\"median_ns\":" << num(r.median_ns) << ",\"failures\":" << r.failures << ",\"queries\":" << r.queries
             << ",\"ratio_proxima_over_impl\":" << num(r.ratio) << ",\"median_iterations\":" << num(r.median_iterations)
             << ",\"seed\":" << seed_;
      if (!label_.empty()) *json_ << ",\"machine\":\"" << label_ << "\"";
      *json_ << "}\n";
    }
    std::fflush(stdout);
  }

 private:
  std::ostream* json_;
  std::string label_;
  std::uint64_t seed_;
};

bool certified(const ipm::DistanceReport& r) { return r.result.status == Status::converged; }

}  // namespace

int run_ipm_suite(std::uint64_t seed, bool quick, std::ostream* json, const std::string& label) {
  Printer out(json, label, seed);
  std::printf("%-14s %-28s %-16s %12s %10s %17s %6s\n", "suite", "case", "implementation", "median_ns", "prox/impl",
              "failures/queries", "iters");
  int proxima_failures = 0;
  const int configs = quick ? 100 : 2000;
  const int ipopt_configs = quick ? 20 : 300;
  using namespace ipm;
  const Object objects[] = {diamond(), soda_can(), rounded_cuboid(), mouse(), hexagonal_nut(), pyramid()};
  const char* names[] = {"diamond", "can", "cuboid", "mouse", "nut", "pyramid"};
  // Table I's pairs (I-II, I-III, II-III, III-IV, II-IV, III-V, V-VI, III-VI).
  const std::pair<int, int> pairs[] = {{0, 1}, {0, 2}, {1, 2}, {2, 3}, {1, 3}, {2, 4}, {4, 5}, {2, 5}};
  DistanceSolver cold, warm;
  for (const auto& [i, j] : pairs) {
    const std::string name = std::string("distance/") + names[i] + "-" + names[j];
    std::mt19937_64 rng(seed * 1000 + static_cast<std::uint64_t>(i * 10 + j));
    std::vector<double> tc, tw, its;
    IpmRow rc{name, "proxima_ipm"}, rw{name, "proxima_ipm_warm"};
    std::vector<std::pair<Pose, Pose>> poses;
    for (int q = 0; q < configs; ++q) {
      const Pose pa = random_pose(rng, 2.5), pb = random_pose(rng, 2.5);
      poses.emplace_back(pa, pb);
      DistanceReport r;
      tc.push_back(time_ns([&] { r = cold.distance(objects[i], pa, objects[j], pb); }));
      its.push_back(r.result.iterations);
      rc.failures += certified(r) ? 0 : 1;
      // Coherent motion: B moved by a small rigid step, warm-started from the answer above.
      warm.distance_warm(objects[i], pa, objects[j], pb);
      const Pose pb2 = Pose::from_matrix(pb.rotation() * Eigen::AngleAxisd(0.01, Vec3::UnitZ()).toRotationMatrix(),
                                         pb.translation() + Vec3(0.003, -0.002, 0.001));
      DistanceReport r2;
      tw.push_back(time_ns([&] { r2 = warm.distance_warm(objects[i], pa, objects[j], pb2); }));
      rw.failures += certified(r2) ? 0 : 1;
    }
    rc.median_ns = median(tc);
    rc.queries = rw.queries = configs;
    rc.median_iterations = median(its);
    rc.ratio = 1;
    rw.median_ns = median(tw);
    rw.ratio = rc.median_ns / rw.median_ns;
    out.add(rc);
    out.add(rw);
    proxima_failures += rc.failures + rw.failures;
#ifdef PROXIMA_BENCH_HAVE_IPOPT
    IpmRow ri{name, "ipopt"};
    std::vector<double> ti;
    for (int q = 0; q < ipopt_configs; ++q) {
      const auto& [pa, pb] = poses[static_cast<std::size_t>(q)];
      oracles::IpoptDistanceAnswer a;
      // Same start as proxima's cold solve (the interior points), tolerance 1e-8 (proxima's
      // answers are certified to about that), exact Hessians (Ipopt's default; MUMPS).
      ti.push_back(time_ns([&] {
        a = oracles::ipopt_distance(objects[i], pa, objects[j], pb, pa.apply(objects[i].interior_point()),
                                    pb.apply(objects[j].interior_point()), {.tolerance = 1e-8});
      }));
      ri.failures += a.solved ? 0 : 1;
    }
    ri.queries = ipopt_configs;
    ri.median_ns = median(ti);
    ri.ratio = rc.median_ns / ri.median_ns;
    out.add(ri);
#endif
  }

  // Time of first contact (table II): B starts 4 units away and moves through A's region.
  for (const auto& [i, j] : {std::pair<int, int>{0, 2}, {1, 2}}) {
    const std::string name = std::string("toi/") + names[i] + "-" + names[j];
    std::mt19937_64 rng(seed * 2000 + static_cast<std::uint64_t>(i * 10 + j));
    std::uniform_real_distribution<double> off(-0.8, 0.8);
    std::vector<double> t, its;
    IpmRow row{name, "proxima_ipm"};
    int colliding = 0;
    for (int q = 0; q < configs; ++q) {
      const Pose pa = random_pose(rng, 0);
      Pose pb = random_pose(rng, 0);
      const Vec3 dir = vec3_z_first([&] { return off(rng); }).normalized();
      pb = Pose::from_matrix(pb.rotation(), -4 * dir + vec3_z_first([&] { return off(rng); }));
      ToiResult r;
      const double ns = time_ns([&] { r = toi_translate(objects[i], pa, Vec3::Zero(), objects[j], pb, 8 * dir, 1); });
      if (r.status != Status::converged) ++row.failures;
      if (!r.contact) continue;
      ++colliding;
      t.push_back(ns);
      its.push_back(r.iterations);
    }
    row.median_ns = median(t);
    row.queries = colliding;
    row.median_iterations = median(its);
    out.add(row);
    proxima_failures += row.failures;
  }

  // Deformations (table III), 10 steps each: cold vs warm-started per step.
  struct Deform {
    const char* name;
    int other;
    std::function<Object(double)> shape;
  };
  const Object& cuboid = objects[2];
  const std::vector<Deform> deforms = {
      {"deform/scale-diamond-cuboid", 2, [&](double f) { return objects[0].deformed(Vec3(1, 1 - f / 2, 1 + f).asDiagonal()); }},
      {"deform/scale-can-cuboid", 2,
       [&](double f) { return objects[1].deformed(Vec3(1 - f / 2, 1 + 2 * f, 1 - f / 3).asDiagonal()); }},
      {"deform/index-diamond>cuboid", 2,
       [&](double f) {
         return Object(Superquadric({1, 0.7 + 0.3 * f, 1.5}, {4.0 / 3 + f * (76.0 / 9 - 4.0 / 3),
                                                              7.0 / 5 + f * (71.0 / 5 - 7.0 / 5),
                                                              15.0 / 13 + f * (179.0 / 13 - 15.0 / 13)}));
       }},
      {"deform/index-can>cuboid", 2, [&](double f) {
         return Object(Superquadric({1, 1, 1.7 - 0.2 * f}, {23.0 / 11 + f * (76.0 / 9 - 23.0 / 11),
                                                           11.0 / 5 + f * (71.0 / 5 - 11.0 / 5), 179.0 / 13}));
       }}};
  for (const Deform& d : deforms) {
    std::vector<Object> steps;
    for (int s = 0; s <= 10; ++s) steps.push_back(d.shape(s / 10.0));
    std::mt19937_64 rng(seed * 3000 + static_cast<std::uint64_t>(steps.size()));
    std::vector<double> tc, tw;
    IpmRow rc{d.name, "proxima_ipm"}, rw{d.name, "proxima_ipm_warm"};
    const int runs = configs / 10;
    for (int q = 0; q < runs; ++q) {
      const Pose pa = random_pose(rng, 2.5), pb = random_pose(rng, 2.5);
      warm.clear_warm_start();
      for (int s = 0; s <= 10; ++s) {
        DistanceReport r1, r2;
        tc.push_back(time_ns([&] { r1 = cold.distance(steps[static_cast<std::size_t>(s)], pa, cuboid, pb); }));
        const double w = time_ns([&] { r2 = warm.distance_warm(steps[static_cast<std::size_t>(s)], pa, cuboid, pb); });
        if (s > 0) tw.push_back(w);  // step 0 has nothing to start from
        rc.failures += certified(r1) ? 0 : 1;
        rw.failures += certified(r2) ? 0 : 1;
      }
    }
    rc.median_ns = median(tc);
    rw.median_ns = median(tw);
    rc.queries = static_cast<int>(tc.size());
    rw.queries = static_cast<int>(tw.size());
    rc.ratio = 1;
    rw.ratio = rc.median_ns / rw.median_ns;
    out.add(rc);
    out.add(rw);
    proxima_failures += rc.failures + rw.failures;
  }

  // Halfspace count: a polytope of n tangent planes of the unit sphere against an ellipsoid.
  for (int n : {8, 16, 32, 64, 128, 256, 512, 1000}) {
    std::mt19937_64 rng(seed * 4000 + static_cast<std::uint64_t>(n));
    std::normal_distribution<double> g(0, 1);
    std::vector<Part> parts;
    for (int k = 0; k < 6; ++k) {
      Vec3 axis = Vec3::Zero();
      axis[k / 2] = k % 2 == 0 ? 1 : -1;
      parts.emplace_back(Halfspace(axis, 1));
    }
    while (static_cast<int>(parts.size()) < n) parts.emplace_back(Halfspace(vec3_z_first([&] { return g(rng); }), 1));
    const Object poly(std::move(parts));
    const Object ell(Quadric::ellipsoid({0.8, 0.5, 0.3}));
    std::vector<double> t, its;
    IpmRow row{"halfspaces/N=" + std::to_string(n), "proxima_ipm"};
    const int queries = std::max(20, (quick ? 2000 : 20000) / n);
    for (int q = 0; q < queries; ++q) {
      const Pose pa = random_pose(rng, 0), pb = random_pose(rng, 2.5);
      DistanceReport r;
      t.push_back(time_ns([&] { r = cold.distance(poly, pa, ell, pb); }));
      its.push_back(r.result.iterations);
      row.failures += certified(r) ? 0 : 1;
    }
    row.median_ns = median(t);
    row.queries = queries;
    row.median_iterations = median(its);
    row.ratio = row.median_ns / n;  // ns per halfspace, for the linearity check
    out.add(row);
    proxima_failures += row.failures;
  }
  std::printf("# ipm: proxima failures (uncertified answers) %d%s\n", proxima_failures,
#ifdef PROXIMA_BENCH_HAVE_IPOPT
              ""
#else
              " (Ipopt not found: no peer rows)"
#endif
  );
  return proxima_failures;
}

}  // namespace proxima::bench
