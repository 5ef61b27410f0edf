// SPDX-License-Identifier: MIT
#include "scene/build.hpp"

namespace proxima::scene {

BuiltShape build_shape(const ShapeSpec& spec, const std::string& /*base_dir*/) {
  BuiltShape built;
  built.spec = &spec;
  return built;
}

}  // namespace proxima::scene
