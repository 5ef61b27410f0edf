// SPDX-License-Identifier: MIT
// How long ipm::Object construction takes on objects built like fuzz/fuzz_query.cpp's implicit()
// (1-3 parts: ellipsoids, superquadrics with exponents 1 + |number|, halfspaces; numbers drawn as
// fuzz_numbers.hpp does, from a seeded generator instead of fuzzer bytes). 20,000 objects, each
// built twice and the faster time kept; prints every object above 2 ms with its parts, then a
// summary: objects built and refused, total, median, p90, p99 and worst time, and the ten slowest
// (docs/reliability.md, "Implicit objects near exponent 1").
//   g++ -std=c++20 -O2 -Iinclude -isystem /usr/include/eigen3 bench/tools/ipm_object_build_times.cpp
//       build/libproxima_ipm.a build/libproxima_core.a -o /tmp/ipm_build_times
//   taskset -c 1 /tmp/ipm_build_times 1 | sort -t: -k2 -rn | head -30
//   /tmp/ipm_build_times 1 refused | grep REFUSED     # the refused objects and why
#include <proxima/ipm/object.hpp>
#include <proxima/ipm/distance.hpp>
#include <proxima/core/error.hpp>
#include <chrono>
#include <cstdio>
#include <random>
#include <cmath>
#include <algorithm>
#include <string>
#include <vector>
using namespace proxima;
std::mt19937_64 rng;
double uni(double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng); }
double number() {
  switch (rng() % 4) {
    case 0: return int(rng() % 17 - 8) / 4.0;
    case 1: return uni(-4, 4);
    case 2: return uni(-1, 1) * std::ldexp(1.0, int(rng() % 121) - 60);
    default: return uni(-1, 1) * std::pow(10.0, uni(-150, 150));
  }
}
double size() { return rng() % 2 ? int(rng() % 16 + 1) / 4.0 : number(); }
Vec3 vec() { return Vec3(number(), number(), number()); }
Pose pose() {
  switch (rng() % 3) { case 0: return Pose(); case 1: return Pose::from_translation(vec()); default: return Pose::from_euler_xyz(number(), number(), number(), vec()); }
}
int main(int argc, char** argv) {
  rng.seed(argc > 1 ? std::atoll(argv[1]) : 1);
  double worst = 0; long built = 0, refused = 0; double total = 0;
  std::vector<std::pair<double, std::string>> times;
  // A second argument "refused" also lists every refused object with its message (to compare the
  // accepted sets of two builds).
  const bool list_refused = argc > 2 && std::string(argv[2]) == "refused";
  for (int trial = 0; trial < 20000; ++trial) {
    const auto state = rng;
    double best = 1e30; std::string desc;
    for (int rep = 0; rep < 2; ++rep) { rng = state; desc.clear();
    const auto t0 = std::chrono::steady_clock::now();
    try {
      std::vector<ipm::Part> parts;
      const int n = 1 + rng() % 3;
      for (int i = 0; i < n; ++i) {
        switch (rng() % 3) {
          case 0: { Vec3 s(size(), size(), size()); const Pose p = pose(); char buf[64]; std::snprintf(buf, sizeof buf, "E(%.3g %.3g %.3g)@|t|=%.3g", s[0], s[1], s[2], p.translation().norm()); desc += buf; parts.emplace_back(ipm::Quadric::ellipsoid(s), p); break; }
          case 1: { Vec3 s(size(), size(), size()); Vec3 e(1 + std::fabs(number()), 1 + std::fabs(number()), 1 + std::fabs(number()));
            char buf[200]; std::snprintf(buf, sizeof buf, "S(%.3g %.3g %.3g | %.3g %.3g %.3g)", s[0], s[1], s[2], e[0], e[1], e[2]); desc += buf;
            const Pose p = pose(); std::snprintf(buf, sizeof buf, "@|t|=%.3g", p.translation().norm()); desc += buf;
            parts.emplace_back(ipm::Superquadric(s, e), p); break; }
          default: { Vec3 nn = vec(); double off = number(); parts.emplace_back(ipm::Halfspace(nn, off)); desc += "H"; break; }
        }
      }
      ipm::Object o(std::move(parts));
      if (rep == 0) ++built;
    } catch (const InvalidInput& e) { if (rep == 0) ++refused; if (rep == 0 && list_refused) std::printf("REFUSED %d %s %s\n", trial, desc.c_str(), e.what()); }
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    best = std::min(best, ms); }
    const double ms = best; total += ms;
    if (ms > 2) std::printf("trial %d: %.2f ms %s\n", trial, ms, desc.c_str());
    worst = std::max(worst, ms);
    times.emplace_back(ms, "trial " + std::to_string(trial) + ": " + desc);
  }
  std::sort(times.begin(), times.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  auto at = [&](double q) { return times[static_cast<std::size_t>(q * (times.size() - 1))].first; };
  std::printf("median %.4f ms p90 %.4f ms p99 %.4f ms\n", at(0.5), at(0.9), at(0.99));
  for (std::size_t i = times.size(); i-- > times.size() - 10;) {
    std::printf("slow %.2f ms %s\n", times[i].first, times[i].second.c_str());
  }
  std::printf("built %ld refused %ld total %.0f ms worst %.2f ms\n", built, refused, total, worst);
}
