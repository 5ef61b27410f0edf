// SPDX-License-Identifier: MIT
// Turns shape specs into library objects. Construction errors of the library (InvalidInput) are
// reported with the spec's JSON path in front ("shapes.rock.vertices: ...").
#pragma once

#include "scene/spec.hpp"

#include <proxima/ipm/object.hpp>
#include <proxima/mesh/mesh.hpp>
#include <proxima/shapes/any_convex.hpp>

#include <memory>
#include <optional>
#include <string>

namespace proxima::scene {

/// One named shape, built into whichever library forms it has. `error` is non-empty when the
/// library refused it.
struct BuiltShape {
  const ShapeSpec* spec = nullptr;
  /// The support-mapping form (GJK / EPA), for every type except implicit, hyperquadric and mesh.
  std::optional<AnyConvex> convex;
  /// The polyhedral mesh form (screw queries): mesh shapes, and full-dimensional polytopes
  /// (their hull triangles).
  std::shared_ptr<const mesh::Mesh> mesh;
  /// The implicit form (interior-point queries): implicit, hyperquadric, superquadric, ellipsoid
  /// and sphere shapes.
  std::shared_ptr<const ipm::Object> implicit;
  /// Why the implicit form of a shape that has a support form could not be built (a sphere or
  /// ellipsoid whose quadric matrix 1/r^2 overflows, say): the shape stays usable by GJK / EPA,
  /// and interior-point queries on it report this.
  std::string implicit_error;
  std::string error;
  /// True when `error` comes from an exception other than InvalidInput: a library bug, not bad
  /// input (the fuzzers fail on it).
  bool internal_error = false;
};

/// Builds the library objects for `spec`. Never throws: errors land in BuiltShape::error.
BuiltShape build_shape(const ShapeSpec& spec, const std::string& base_dir);

/// The support-mapping form of a spec (compound operands included, with their "pose").
/// Throws InvalidInput naming the JSON path when the library refuses a value, or when the type
/// has no support mapping (implicit, hyperquadric, halfspace, mesh).
AnyConvex build_convex(const ShapeSpec& spec);

}  // namespace proxima::scene
