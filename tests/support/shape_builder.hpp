// SPDX-License-Identifier: MIT
// Builds the proxima shape described by a ShapeSpec (tests/support/random_shapes.hpp): the one
// place where the generators meet the shapes under test. Header-only, shapes headers only.
#pragma once

#include "support/random_shapes.hpp"

#include <proxima/shapes/any_convex.hpp>
#include <proxima/shapes/box.hpp>
#include <proxima/shapes/capsule.hpp>
#include <proxima/shapes/cone.hpp>
#include <proxima/shapes/cylinder.hpp>
#include <proxima/shapes/ellipsoid.hpp>
#include <proxima/shapes/polytope.hpp>
#include <proxima/shapes/sphere.hpp>
#include <proxima/shapes/superquadric.hpp>

namespace proxima::testgen {

/// The spec as a run-time shape (AnyConvex). Throws what the shape constructors throw.
inline AnyConvex to_any_convex(const ShapeSpec& s) {
  switch (s.kind) {
    case ShapeKind::polytope:
      return Polytope(std::span<const Vec3>(s.vertices));
    case ShapeKind::sphere:
      return Sphere(s.radius);
    case ShapeKind::box:
      return Box(s.semiaxes);
    case ShapeKind::capsule:
      return Capsule(s.radius, s.half_length);
    case ShapeKind::cylinder:
      return Cylinder(s.radius, s.half_length);
    case ShapeKind::cone:
      return Cone(s.radius, s.half_length);
    case ShapeKind::ellipsoid:
      return Ellipsoid(s.semiaxes);
    case ShapeKind::superquadric:
      return Superquadric(s.semiaxes, s.exponents);
  }
  return Sphere(s.radius);
}

}  // namespace proxima::testgen
