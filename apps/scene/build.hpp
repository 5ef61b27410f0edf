// SPDX-License-Identifier: MIT
// Turns shape specs into library objects. Construction errors of the library (InvalidInput) are
// reported with the spec's JSON path in front ("shapes.rock.vertices: ...").
#pragma once

#include "scene/spec.hpp"

#include <string>

namespace proxima::scene {

/// One named shape, built. `error` is non-empty when it could not be built.
struct BuiltShape {
  const ShapeSpec* spec = nullptr;
  std::string error;
};

/// Builds the library objects for `spec`. Never throws: errors land in BuiltShape::error.
BuiltShape build_shape(const ShapeSpec& spec, const std::string& base_dir);

}  // namespace proxima::scene
