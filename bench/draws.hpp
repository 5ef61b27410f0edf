// SPDX-License-Identifier: MIT
// Random vectors for the bench inputs, one draw per statement. The bench once wrote
// Vec3(d(rng), d(rng), d(rng)), whose argument order C++ leaves unspecified: GCC 12 evaluated the
// last argument first. vec3_z_first draws in that order explicitly, so a seed gives the inputs of
// every earlier run (and of docs/benchmarks.md), now with any compiler.
#pragma once

#include <proxima/core/types.hpp>

namespace proxima::bench {

/// (x, y, z) from three calls of draw(), z first, then y, then x.
template <class Draw>
Vec3 vec3_z_first(const Draw& draw) {
  const double z = draw();
  const double y = draw();
  const double x = draw();
  return {x, y, z};
}

}  // namespace proxima::bench
