// SPDX-License-Identifier: MIT
// The README's example: two shapes placed by poses; distance, closest points, penetration.
#include <proxima/gjk/distance.hpp>
#include <proxima/gjk/epa.hpp>
#include <proxima/shapes/box.hpp>
#include <proxima/shapes/polytope.hpp>

#include <cstdio>
#include <string>

int main() {
  using namespace proxima;
  const Polytope rock({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}});
  const Box crate(Vec3(0.5, 0.5, 0.5));
  const Pose at_origin;
  const Pose crate_pose = Pose::from_euler_xyz(0.1, 0.2, 0.3, Vec3(2, 0, 0));

  const DistanceResult d = gjk::distance(rock, at_origin, crate, crate_pose);
  std::printf("distance %.6f between (%.3f %.3f %.3f) and (%.3f %.3f %.3f), %d iterations\n", d.distance,
              d.point_a.x(), d.point_a.y(), d.point_a.z(), d.point_b.x(), d.point_b.y(), d.point_b.z(),
              d.iterations);

  const PenetrationResult p = gjk::penetration(rock, at_origin, crate, Pose::from_translation(Vec3(0.8, 0, 0)));
  std::printf("overlap depth %.6f along (%.3f %.3f %.3f), status %s\n", p.depth, p.normal.x(), p.normal.y(),
              p.normal.z(), std::string(to_string(p.status)).c_str());
  return d.status == Status::converged && p.status == Status::converged ? 0 : 1;
}
