// SPDX-License-Identifier: MIT
// EPA status census on curved and flat shape pairs: for each pair of kinds (sphere, capsule,
// cylinder, cone, ellipsoid, superquadric, box, 32-point polytope), N random overlapping pairs
// (tests/support/random_shapes.hpp, unit scale, B at 0.1-0.98 of the touching distance, seed
// 12345), the count of each status/detail of gjk::penetration, mean and largest iterations; and,
// for sphere-cylinder, the depth against its closed form (r minus the signed distance of the
// centre to the cylinder): pairs off by more than 1e-8 and the largest relative error.
// docs/reliability.md ("EPA on curved shapes") quotes its output. Build from the repository root:
//   g++ -O2 -DNDEBUG -std=c++20 -Iinclude -Itests -isystem /usr/include/eigen3 bench/tools/epa_status_census.cpp \
//     build/libproxima_shapes.a build/libproxima_core.a -lqhull_r -o /tmp/epa_status_census && /tmp/epa_status_census 300
#include "oracles/brute_force.hpp"
#include "support/random_shapes.hpp"
#include "support/shape_builder.hpp"

#include <proxima/gjk/epa.hpp>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

using namespace proxima;
using namespace proxima::testgen;

int main(int argc, char** argv) {
  const int per = argc > 1 ? std::atoi(argv[1]) : 300;
  Rng rng(12345);
  const ShapeKind kinds[] = {ShapeKind::sphere,    ShapeKind::capsule,      ShapeKind::cylinder, ShapeKind::cone,
                             ShapeKind::ellipsoid, ShapeKind::superquadric, ShapeKind::box,      ShapeKind::polytope};
  const char* names[] = {"sphere", "capsule", "cylinder", "cone", "ellipsoid", "superquadric", "box", "polytope"};
  PlacementOptions placement;
  placement.min_factor = 0.1;
  placement.max_factor = 0.98;
  placement.min_scale = 1;
  placement.max_scale = 1;
  placement.max_translation = 1;
  gjk::EpaHull workspace;
  int total = 0;
  int not_converged = 0;
  for (int ia = 0; ia < 8; ++ia) {
    for (int ib = ia; ib < 8; ++ib) {
      std::map<std::string, int> statuses;
      int max_iterations = 0;
      long sum_iterations = 0;
      int n = 0;
      int wrong = 0;
      double worst = 0;
      for (int k = 0; k < per; ++k) {
        const PairCase c = place_pair(rng, "census", random_smooth_spec(rng, kinds[ia]), random_smooth_spec(rng, kinds[ib]),
                                      placement);
        const AnyConvex a = to_any_convex(c.a);
        const AnyConvex b = to_any_convex(c.b);
        const Pose pa = c.pose_a.pose();
        const Pose pb = c.pose_b.pose();
        gjk::WarmStart warm;
        const PenetrationResult r = gjk::penetration(a, pa, b, pb, gjk::EpaOptions{}, warm, workspace);
        if (!r.intersect) continue;
        ++n;
        ++statuses[std::string(to_string(r.status)) + "/" + std::string(to_string(r.detail))];
        if (r.status != Status::converged) ++not_converged;
        max_iterations = std::max(max_iterations, r.iterations);
        sum_iterations += r.iterations;
        if (kinds[ia] == ShapeKind::sphere && kinds[ib] == ShapeKind::cylinder) {
          const double exact =
              oracles::sphere_cylinder_depth(pb.inverse().apply(pa.translation()), c.a.radius, c.b.radius, c.b.half_length);
          const double error = std::abs(r.depth - exact);
          worst = std::max(worst, error / exact);
          if (error > 1e-8) ++wrong;
        }
      }
      total += n;
      std::printf("%-12s %-12s n=%4d mean_it=%6.1f max_it=%4d ", names[ia], names[ib], n,
                  n > 0 ? static_cast<double>(sum_iterations) / n : 0.0, max_iterations);
      for (const auto& [key, count] : statuses) std::printf(" %s:%d", key.c_str(), count);
      if (kinds[ia] == ShapeKind::sphere && kinds[ib] == ShapeKind::cylinder) {
        std::printf("  [closed form: %d off by > 1e-8, largest relative error %.2e]", wrong, worst);
      }
      std::printf("\n");
    }
  }
  std::printf("pairs %d, not converged %d\n", total, not_converged);
  return 0;
}
