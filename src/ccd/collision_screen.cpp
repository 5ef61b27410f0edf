// SPDX-License-Identifier: MIT
#include <proxima/ccd/collision_screen.hpp>

#include <cmath>
#include <numbers>

namespace proxima::ccd {

CollisionScreen make_collision_screen(const Screw& screw, const Vec3& facing) {
  CollisionScreen screen;
  screen.theta = screw.angle;
  screen.glide = screw.glide;
  const Vec3 y = screw.axis;
  screen.origin = screw.axis_point + (facing - screw.axis_point).dot(y) * y;
  Vec3 z = facing - screen.origin;
  z -= z.dot(y) * y;
  if (!(z.norm() > 0)) z = y.unitOrthogonal();  // facing on the axis: any azimuth will do
  z.normalize();
  const Vec3 x = y.cross(z);  // right-handed (x, y, z)
  screen.to_canonical.row(0) = x.transpose();
  screen.to_canonical.row(1) = y.transpose();
  screen.to_canonical.row(2) = z.transpose();
  if (screw.angle == 0) screen.origin = facing;  // a translation has no axis: any origin
  return screen;
}

ScreenPoint CollisionScreen::project(const Vec3& point, bool doppel) const {
  const Vec3 c = to_canonical * (point - origin);
  double phi = std::hypot(c.x(), c.z()) > 0 ? std::atan2(c.x(), c.z()) : 0.0;
  if (doppel) phi += 2 * std::numbers::pi;
  return project_canonical(c, phi);
}

bool CollisionScreen::needs_doppel(const Vec3& point) const {
  if (theta == 0) return false;
  const Vec3 c = to_canonical * (point - origin);
  if (!(std::hypot(c.x(), c.z()) > 0)) return false;
  return std::atan2(c.x(), c.z()) <= -std::numbers::pi + theta;
}

}  // namespace proxima::ccd
