// SPDX-License-Identifier: MIT
// Private: the last step of screw_collisions shared by its exact and raster modes: order the
// collisions found in A's start frame, keep the first ones when asked, move them to the world
// frame, and fill the result's summary of the earliest one.
#pragma once

#include <proxima/ccd/screw.hpp>
#include <proxima/ccd/screw_collisions.hpp>

#include <algorithm>
#include <utility>
#include <vector>

namespace proxima::ccd::detail {

/// Sorts `found` (points and normals in A's frame at the start) by time; with
/// options.first_contact_only keeps those within options.time_tolerance of the earliest; maps each
/// point and normal to the world frame at its time (A placed by its own screw `a_motion` from
/// `a_start`); moves them into result.collisions and sets contact / toi / point / normal from the
/// earliest. The stable sort keeps the order of simultaneous collisions as found.
inline void finish_collisions(std::vector<Collision>& found, const ScrewOptions& options, const Screw& a_motion,
                              const Pose& a_start, ScrewResult& result) {
  // A stable sort's order is unique (by time, ties as found; collision times are never NaN), so
  // every stable sort gives the same one. std::stable_sort takes a temporary buffer from the heap
  // even for one collision; the few of a typical query are sorted by insertion instead, which
  // allocates nothing (cost only: the same order).
  constexpr std::size_t kInsertionSortMax = 16;
  if (found.size() <= kInsertionSortMax) {
    for (std::size_t i = 1; i < found.size(); ++i) {
      if (!(found[i].time < found[i - 1].time)) continue;
      Collision moving = std::move(found[i]);
      std::size_t j = i;
      for (; j > 0 && moving.time < found[j - 1].time; --j) found[j] = std::move(found[j - 1]);
      found[j] = std::move(moving);
    }
  } else {
    std::stable_sort(found.begin(), found.end(), [](const Collision& x, const Collision& y) { return x.time < y.time; });
  }
  if (options.first_contact_only && !found.empty()) {
    const double first = found.front().time;
    std::size_t keep = 0;
    while (keep < found.size() && found[keep].time <= first + options.time_tolerance) ++keep;
    found.resize(keep);
  }
  for (Collision& c : found) {
    const Pose pose_a = a_motion.pose(c.time) * a_start;
    c.point = pose_a.apply(c.point);
    c.normal = pose_a.rotate(c.normal);
  }
  result.collisions = std::move(found);
  if (!result.collisions.empty()) {
    result.contact = true;
    result.toi = result.collisions.front().time;
    result.point = result.collisions.front().point;
    result.normal = result.collisions.front().normal;
  }
}

}  // namespace proxima::ccd::detail
