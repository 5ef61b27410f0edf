// SPDX-License-Identifier: MIT
// Private: the last step of screw_collisions shared by its exact and raster modes: order the
// collisions found in A's start frame, keep the first ones when asked, copy them to the result in
// the world frame, and fill the result's summary of the earliest one.
#pragma once

#include <proxima/ccd/screw.hpp>
#include <proxima/ccd/screw_collisions.hpp>

#include "ccd/stable_sort.hpp"

#include <cstddef>
#include <vector>

namespace proxima::ccd::detail {

/// Sorts `found` (points and normals in A's frame at the start) by time, stable (simultaneous
/// collisions keep the order they were found in); with options.first_contact_only keeps those
/// within options.time_tolerance of the earliest; copies them into result.collisions (its one
/// allocation), each point and normal mapped to the world frame at its time (A placed by its own
/// screw `a_motion` from `a_start`); sets contact / toi / point / normal from the earliest.
/// `found` and `sort_buffer` are the caller's workspace: they keep their storage for the next
/// query (`found` is left sorted).
inline void finish_collisions(std::vector<Collision>& found, std::vector<Collision>& sort_buffer,
                              const ScrewOptions& options, const Screw& a_motion, const Pose& a_start,
                              ScrewResult& result) {
  // Collision times are never NaN, so the order is strict weak.
  stable_sort_with_buffer(found, sort_buffer, [](const Collision& x, const Collision& y) { return x.time < y.time; });
  std::size_t keep = found.size();
  if (options.first_contact_only && !found.empty()) {
    const double first = found.front().time;
    keep = 0;
    while (keep < found.size() && found[keep].time <= first + options.time_tolerance) ++keep;
  }
  result.collisions.assign(found.begin(), found.begin() + static_cast<std::ptrdiff_t>(keep));
  for (Collision& c : result.collisions) {
    const Pose pose_a = a_motion.pose(c.time) * a_start;
    c.point = pose_a.apply(c.point);
    c.normal = pose_a.rotate(c.normal);
  }
  if (!result.collisions.empty()) {
    result.contact = true;
    result.toi = result.collisions.front().time;
    result.point = result.collisions.front().point;
    result.normal = result.collisions.front().normal;
  }
}

}  // namespace proxima::ccd::detail
