// SPDX-License-Identifier: MIT
// The status every result carries, and a finer reason code for diagnosis.
#pragma once

#include <cstdint>
#include <string_view>

namespace proxima {

/// How an iterative query stopped. Kept small on purpose: callers branch on it.
enum class Status : std::uint8_t {
  converged,          ///< the stopping certificate (duality gap, KKT residual, ...) was met
  iteration_limit,    ///< the iteration cap stopped it; the result is the best bound so far
  degenerate_input,   ///< the geometry left no way to progress (e.g. repeated supports); best bound
  capacity_exceeded,  ///< fixed workspace (EPA faces, LP tableau, ...) ran out; best bound so far
};

/// Why a query stopped, finer than Status; for logs and tests, not for control flow.
enum class Detail : std::uint8_t {
  none,                 ///< nothing to add to the status
  duality_gap,          ///< GJK/IPM: the gap between upper and lower bound fell below tolerance
  repeated_support,     ///< GJK/EPA: the new support point was already in the simplex/polytope
  no_progress,          ///< the bound stopped improving (numerical floor reached)
  origin_enclosed,      ///< GJK: the simplex contains the origin (the shapes intersect)
  separating_axis,      ///< GJK intersect: a separating axis was found
  touching,             ///< penetration: depth within tolerance of 0
  non_finite,           ///< a NaN or infinity appeared; the result is the last finite bound
  degenerate_simplex,   ///< EPA could not grow GJK's simplex to a full-dimensional one
  face_capacity,        ///< EPA ran out of face slots
  scale_out_of_range,   ///< GJK/EPA: the query's scale is outside [kGjkMinScale, kGjkMaxScale]; ccd screw: [kCcdMinScale, kCcdMaxScale]
};

/// Lower-case name of a status, as the scene runner prints it ("converged", ...).
std::string_view to_string(Status status) noexcept;
/// Lower-case name of a detail code ("duality_gap", ...).
std::string_view to_string(Detail detail) noexcept;

}  // namespace proxima
