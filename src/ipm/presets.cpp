// SPDX-License-Identifier: MIT
#include <proxima/ipm/presets.hpp>

#include <proxima/core/error.hpp>

#include <string>

namespace proxima::ipm {

Object diamond() { return Object(Superquadric({1, 0.7, 1.5}, {4.0 / 3, 7.0 / 5, 15.0 / 13})); }

Object soda_can() { return Object(Superquadric({1, 1, 1.7}, {23.0 / 11, 11.0 / 5, 179.0 / 13})); }

Object rounded_cuboid() { return Object(Superquadric({1, 1, 1.5}, {76.0 / 9, 71.0 / 5, 179.0 / 13})); }

Object mouse() {
  // The halfspaces as normal . x <= offset.
  return Object(std::vector<Part>{
      Part(Superquadric({2, 1, 1.7}, {23.0 / 11, 17.0 / 5, 17.0 / 7})),
      Part(Halfspace({-1, 0, 0}, 0.5)),   // x1 >= -1/2
      Part(Halfspace({1, 0, 0}, 0.5)),    // x1 <= 1/2
      Part(Halfspace({0, -1, 0}, 0.75)),  // x2 >= -0.75
      Part(Halfspace({0, 0, -1}, -0.4)),  // x3 >= 0.4
  });
}

Object hexagonal_nut() {
  return Object(Hyperquadric({{{0, 1, 0, 0}, 16}, {{1, 0.5, 0, 0}, 16}, {{1, -0.5, 0, 0}, 16}, {{0, 0, 2.5, 0}, 2}}));
}

Object pyramid() {
  return Object(Hyperquadric(
      {{{1, 0, 1, 0}, 16}, {{0, 1, 1, 0}, 16}, {{0, 0, 1, 0}, 16}, {{1, 0, -1, 0}, 16}, {{0, 1, -1, 0}, 16}}));
}

Object preset(std::string_view name) {
  if (name == "diamond") return diamond();
  if (name == "soda_can") return soda_can();
  if (name == "rounded_cuboid") return rounded_cuboid();
  if (name == "mouse") return mouse();
  if (name == "hexagonal_nut") return hexagonal_nut();
  if (name == "pyramid") return pyramid();
  throw InvalidInput("preset", "unknown implicit preset '" + std::string(name) +
                                   "' (diamond, soda_can, rounded_cuboid, mouse, hexagonal_nut, pyramid)");
}

}  // namespace proxima::ipm
