// SPDX-License-Identifier: MIT
// Screw collisions far from unit scale: see scale_range.hpp.
#include "ccd/scale_range.hpp"

#include "core/power_of_two.hpp"

#include <proxima/core/tolerance.hpp>

#include <cmath>

namespace proxima::ccd::detail {

using proxima::detail::times_power_of_two;

ScrewResult rescaled_screw_collisions(const mesh::Mesh& a, const Pose& a_start, const Pose& a_end, const mesh::Mesh& b,
                                      const Pose& b_start, const Pose& b_end, const ScrewOptions& options,
                                      double scale) {
  ScrewResult refused;
  refused.status = Status::degenerate_input;
  refused.detail = Detail::scale_out_of_range;
  if (!(scale >= kCcdMinScale && scale <= kCcdMaxScale)) return refused;
  const int exponent = std::ilogb(scale);
  auto unit_translation = [&](const Pose& p) { return times_power_of_two(p.translation(), -exponent); };
  for (const Pose* p : {&a_start, &a_end, &b_start, &b_end}) {
    if (!unit_translation(*p).allFinite()) return refused;
  }
  // A rotation that came out of a Pose factory is kept bit for bit by from_matrix.
  auto unit_pose = [&](const Pose& p) { return Pose::from_matrix(p.rotation(), unit_translation(p)); };
  const mesh::Mesh unit_a = a.scaled_by_power_of_two(-exponent);
  const mesh::Mesh unit_b = b.scaled_by_power_of_two(-exponent);
  ScrewResult r = screw_collisions(unit_a, unit_pose(a_start), unit_pose(a_end), unit_b, unit_pose(b_start),
                                   unit_pose(b_end), options);
  for (Collision& c : r.collisions) c.point = times_power_of_two(c.point, exponent);
  r.point = times_power_of_two(r.point, exponent);
  r.screw.axis_point = times_power_of_two(r.screw.axis_point, exponent);
  r.screw.glide = std::ldexp(r.screw.glide, exponent);
  return r;
}

}  // namespace proxima::ccd::detail
