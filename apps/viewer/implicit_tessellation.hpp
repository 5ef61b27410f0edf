// SPDX-License-Identifier: MIT
// Tessellation of an implicit object (ipm::Object: the intersection of convex parts f_i <= 0,
// e.g. a superquadric cut by a half-space, hyperquadrics) by radial projection: from the object's
// strictly interior point c, each direction d of a unit icosphere meets the boundary exactly once
// (the set is convex and c is interior), where F(c + t d) = max_i f_i(c + t d) changes sign; t is
// found by bisection. The mesh keeps the icosphere's connectivity, so it is closed and outward
// oriented, and every vertex lies on the surface to the bisection width. Sharp creases (where two
// parts meet) are sampled, not followed: they look bevelled at the scale of the sampling.
#pragma once

#include "viewer/tri_mesh.hpp"

#include <proxima/ipm/object.hpp>

namespace proxima::viewer {

/// Cap on bisection steps per direction (each halves the bracket; 80 reach double precision from
/// any bracket the bounding box gives).
inline constexpr int kRadialBisectionSteps = 80;

/// F(p) = max over parts of the part's value at p (object frame): <= 0 exactly on the object.
double implicit_value(const ipm::Object& object, const Vec3& p);

/// The radial projection of unit_icosphere(level) onto the object's surface, object frame.
/// Each vertex p has F(p) <= 0 and F(p + w d) > 0 for its direction d, with w the final bracket
/// width (relative 1e-12 of the bounding radius, or the step cap). Throws InvalidInput("level").
TriMesh tessellate_implicit(const ipm::Object& object, int level);

}  // namespace proxima::viewer
