// SPDX-License-Identifier: MIT
// The README's example: place two shapes and ask how far apart they are.
#include <proxima/core/pose.hpp>
#include <proxima/shapes/box.hpp>
#include <proxima/shapes/sphere.hpp>

#include <cstdio>

int main() {
  using namespace proxima;
  const Box box(Vec3(1, 1, 1));
  const Sphere ball(0.5);
  const Pose pose_box = Pose::from_euler_xyz(0, 0, 0.3);
  const Pose pose_ball = Pose::from_translation(Vec3(3, 0, 0));
  // Farthest point of the box towards the ball, in world coordinates.
  const Vec3 dir = pose_box.rotate_inverse(pose_ball.translation() - pose_box.translation());
  const Vec3 p = pose_box.apply(box.support(dir));
  std::printf("box support towards the ball: %.6f %.6f %.6f (ball radius %.2f)\n", p.x(), p.y(), p.z(), ball.radius());
  return 0;
}
