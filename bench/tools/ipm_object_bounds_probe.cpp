// SPDX-License-Identifier: MIT
// Does ipm::Object's bounding box (and sphere) contain the object? Builds random objects (a
// superquadric of semiaxes 0.5-2.5 cut by a halfspace near its centre), samples points uniformly
// in the superquadric's box [-a, a], keeps those Object::contains, and counts the objects with a
// kept point outside the box or the sphere (docs/reliability.md, "Implicit objects near
// exponent 1"). Exponents: "near1" (each either 1 + 10^-(1..9) or 1..4) or "regular" (1.3-4.3).
// Build and run (after building the library):
//   g++ -std=c++20 -O2 -Iinclude -isystem /usr/include/eigen3 bench/tools/ipm_object_bounds_probe.cpp
//       build/libproxima_ipm.a build/libproxima_core.a -o /tmp/ipm_bounds && /tmp/ipm_bounds near1 1
#include <proxima/core/error.hpp>
#include <proxima/ipm/object.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

using namespace proxima;

int main(int argc, char** argv) {
  const bool near1 = argc < 2 || std::string(argv[1]) != "regular";
  std::mt19937_64 rng(argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1);
  std::uniform_real_distribution<double> u(-1, 1);
  int bad = 0, built = 0, refused = 0;
  double worst_all = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const Vec3 a(0.5 + 2 * std::abs(u(rng)), 0.5 + 2 * std::abs(u(rng)), 0.5 + 2 * std::abs(u(rng)));
    Vec3 e;
    for (int i = 0; i < 3; ++i) {
      e[i] = near1 ? (u(rng) > 0 ? 1 + std::pow(10.0, -1 - 8 * std::abs(u(rng))) : 1 + 3 * std::abs(u(rng)))
                   : 1.3 + 3 * std::abs(u(rng));
    }
    const Vec3 n(u(rng), u(rng), u(rng));
    const double offset = 0.5 * u(rng);
    std::vector<ipm::Part> parts;
    parts.emplace_back(ipm::Superquadric(a, e));
    parts.emplace_back(ipm::Halfspace(n, offset));
    try {
      const ipm::Object o(std::move(parts));
      ++built;
      const Aabb& box = o.local_aabb();
      double worst = 0;
      for (int s = 0; s < 20000; ++s) {
        const Vec3 p(a[0] * u(rng), a[1] * u(rng), a[2] * u(rng));
        if (!o.contains(p)) continue;
        for (int i = 0; i < 3; ++i) worst = std::max({worst, box.min[i] - p[i], p[i] - box.max[i]});
        worst = std::max(worst, (p - o.bounding_sphere().center).norm() - o.bounding_sphere().radius);
      }
      if (worst > 1e-9) ++bad;
      worst_all = std::max(worst_all, worst);
    } catch (const InvalidInput&) {
      ++refused;
    }
  }
  std::printf("%s: built %d refused %d, with a point outside the box or sphere %d (largest excess %.3g)\n",
              near1 ? "near1" : "regular", built, refused, bad, worst_all);
}
