// SPDX-License-Identifier: MIT
#include "viewer/implicit_tessellation.hpp"

#include "viewer/sphere_grid.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace proxima::viewer {

double implicit_value(const ipm::Object& object, const Vec3& p) {
  double value = -std::numeric_limits<double>::infinity();
  for (const ipm::Part& part : object.parts()) {
    const double v = part.value(p);
    // An overflowing or undefined value far outside counts as outside.
    value = std::max(value, std::isnan(v) ? std::numeric_limits<double>::infinity() : v);
  }
  return value;
}

TriMesh tessellate_implicit(const ipm::Object& object, int level) {
  TriMesh mesh = unit_icosphere(level);
  const Vec3 centre = object.interior_point();
  const Aabb& box = object.local_aabb();
  // Every point of the object lies in its box, so beyond the farthest box corner is outside.
  double reach = 0;
  for (int corner = 0; corner < 8; ++corner) {
    const Vec3 p((corner & 1) ? box.max.x() : box.min.x(), (corner & 2) ? box.max.y() : box.min.y(),
                 (corner & 4) ? box.max.z() : box.min.z());
    reach = std::max(reach, (p - centre).norm());
  }
  reach = 1.01 * reach + 1e-9;
  const double width = 1e-12 * reach;
  for (Vec3& d : mesh.vertices) {
    double inside = 0;  // F(centre + inside * d) <= 0
    double outside = reach;
    for (int step = 0; step < kRadialBisectionSteps && outside - inside > width; ++step) {
      const double t = (inside + outside) / 2;
      (implicit_value(object, centre + t * d) <= 0 ? inside : outside) = t;
    }
    d = centre + inside * d;
  }
  return mesh;
}

}  // namespace proxima::viewer
