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

ScreenPoint CollisionScreen::project_canonical(const Vec3& c, double phi) const {
  ScreenPoint p;
  if (theta == 0) {
    p.r = c.x();
    p.h = c.z();
    p.t = glide != 0 ? c.y() / glide : kNaN;
    p.phi = 0;
    return p;
  }
  p.r = std::sqrt(c.x() * c.x() + c.z() * c.z());
  p.phi = p.r > 0 ? phi : 0.0;
  const double arc = p.r * p.phi;
  const double speed_sq = p.r * p.r * theta * theta + glide * glide;
  if (!(speed_sq > 0)) {
    // On the axis of a pure rotation: h = y r theta / (r |theta|) = y for every r > 0, so y is the
    // continuous value here; t (phi / theta nearby) has no limit.
    p.h = c.y();
    return p;
  }
  p.t = (arc * p.r * theta + c.y() * glide) / speed_sq;
  p.h = (c.y() * p.r * theta - arc * glide) / std::sqrt(speed_sq);
  return p;
}

bool CollisionScreen::needs_doppel(const Vec3& point) const {
  if (theta == 0) return false;
  const Vec3 c = to_canonical * (point - origin);
  if (!(std::hypot(c.x(), c.z()) > 0)) return false;
  return std::atan2(c.x(), c.z()) <= -std::numbers::pi + theta;
}

}  // namespace proxima::ccd
