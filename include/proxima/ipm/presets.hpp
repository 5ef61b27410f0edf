// SPDX-License-Identifier: MIT
// The six example objects of seed 001, section VIII (figure 11), with the paper's numbers.
#pragma once

#include <proxima/ipm/object.hpp>

#include <array>
#include <string_view>

namespace proxima::ipm {

/// Object I, "diamond": superquadric, semiaxes (1, 0.7, 1.5), exponents (4/3, 7/5, 15/13).
/// Every exponent is below 2: the case where the paper's solver failed 0.4% of the time.
Object diamond();
/// Object II, "soda can": superquadric, semiaxes (1, 1, 1.7), exponents (23/11, 11/5, 179/13).
Object soda_can();
/// Object III, "rounded cuboid": superquadric, semiaxes (1, 1, 1.5), exponents (76/9, 71/5, 179/13).
Object rounded_cuboid();
/// Object IV, "mouse": superquadric with semiaxes (2, 1, 1.7) and exponents (23/11, 17/5, 17/7),
/// cut by four halfspaces x1 >= -1/2, x1 <= 1/2, x2 >= -0.75, x3 >= 0.4 (local coordinates).
Object mouse();
/// Object V, "hexagonal nut": the hyperquadric
/// |x2|^16 + |x1 + 0.5 x2|^16 + |x1 - 0.5 x2|^16 + |2.5 x3|^2 <= 1.
Object hexagonal_nut();
/// Object VI, "pyramid": the hyperquadric
/// |x1 + x3|^16 + |x2 + x3|^16 + |x3|^16 + |x1 - x3|^16 + |x2 - x3|^16 <= 1.
Object pyramid();

/// The preset names, in the paper's order I-VI: diamond, soda_can, rounded_cuboid, mouse,
/// hexagonal_nut, pyramid.
inline constexpr std::array<std::string_view, 6> kPresetNames = {"diamond", "soda_can", "rounded_cuboid",
                                                                 "mouse", "hexagonal_nut", "pyramid"};

/// The preset of that name; throws InvalidInput "preset" for an unknown name.
Object preset(std::string_view name);

}  // namespace proxima::ipm
