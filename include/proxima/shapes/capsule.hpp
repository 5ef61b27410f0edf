// SPDX-License-Identifier: MIT
// Capsule: a segment along z swollen by a radius (Rounded<Segment>, so GJK sees the segment and
// adds the radius back exactly). Conventions per DESIGN.md: radius, half_length, axis z.
#pragma once

#include <proxima/shapes/rounded.hpp>
#include <proxima/shapes/segment.hpp>

namespace proxima {

/// The points within `radius` of the segment from (0, 0, -half_length) to (0, 0, half_length).
/// Total length along z is 2 * (half_length + radius).
class Capsule : public Rounded<Segment> {
 public:
  /// Throws InvalidInput("radius") / ("half_length") unless each is finite and > 0.
  Capsule(double radius, double half_length)
      : Rounded<Segment>(Segment::along_z(half_length), radius), half_length_(half_length) {}

  double half_length() const noexcept { return half_length_; }
  /// Tighter than the generic rounded bound: the box of the capsule itself.
  Aabb local_aabb() const {
    const double r = radius();
    return {Vec3(-r, -r, -half_length_ - r), Vec3(r, r, half_length_ + r)};
  }

 private:
  double half_length_;
};

}  // namespace proxima
