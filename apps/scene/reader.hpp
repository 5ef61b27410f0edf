// SPDX-License-Identifier: MIT
// Reads a scene file (DESIGN.md "Scene files") into plain specs (spec.hpp).
//
// Two kinds of failure, on purpose:
//  - the scene as a whole is unusable (not JSON, not an object, no "queries" list, an unknown
//    top-level field): SceneFormatError, and nothing runs;
//  - one shape or one query is bad (unknown field, wrong type, NaN, negative size, zero
//    quaternion, unknown shape name, ...): the entry records an error message that starts with
//    the JSON path of the offending value ("shapes.rock.vertices[3]: must be finite ..."), and
//    every other query still runs. A bad shape fails only the queries that use it.
//
// Numbers: JSON has no NaN or infinity, but Python's json module writes the tokens NaN,
// Infinity and -Infinity; they are read as those values so that the error names the field
// ("must be finite") instead of failing the whole file with a parse error.
#pragma once

#include "scene/spec.hpp"

#include <stdexcept>
#include <string>
#include <string_view>

namespace proxima::scene {

/// The scene cannot be read at all; what() says why (with line and column for JSON errors).
class SceneFormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Parses a scene. `base_dir` is stored in the result for mesh files (may be empty).
/// Throws SceneFormatError when the scene is unusable as a whole; per-shape and per-query
/// problems are recorded in the entries instead. Cost: linear in the text size.
SceneSpec read_scene(std::string_view text, const std::string& base_dir = "");

/// Deepest nesting of compound shapes (hull / minkowski / implicit, including named references)
/// accepted; deeper scenes (or reference cycles) are refused with a message naming the path.
inline constexpr int kMaxShapeNesting = 16;

}  // namespace proxima::scene
