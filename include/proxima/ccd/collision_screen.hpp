// SPDX-License-Identifier: MIT
// The collision screen of seed 004 sections 7-8: the projection of points to screen coordinates
// (r, h) and a screen time t such that a moving point of B and a fixed point of A can meet only
// if they share (r, h), and then meet at time t_A - t_B. The raster method of screw_collisions
// (ScrewMethod::raster, src/ccd/glide_raster.cpp) draws both bodies on this screen.
#pragma once

#include <proxima/ccd/screw.hpp>

#include <cmath>

namespace proxima::ccd {

/// Screen coordinates of one point.
struct ScreenPoint {
  double r = kNaN;    ///< distance from the screw axis (translation: first screen coordinate)
  double h = kNaN;    ///< position along the screen curve at that r, orthogonal to the flow (length)
  double t = kNaN;    ///< time the flow needs to carry the screen point (r, h) to this point
  double phi = kNaN;  ///< azimuth about the axis used (radians; 0 for a translation)
};

/// The screen of one screw motion, in a canonical frame whose y axis is the screw axis
/// (seed 004 eq. (2)): x_canonical = to_canonical * (x - origin).
///
/// Projection (our derivation; seed 004 section 7 prints phi where the arc length r * phi is
/// meant, which only agrees at r = 1): in cylindrical coordinates (r, phi, y) with
/// phi = atan2(x, z), unroll the cylinder of radius r into the plane (r phi, y). The flow moves
/// every point by D = (r theta, g) per unit time, so
///   t = (r phi * r theta + y g) / |D|^2,   h = (y * r theta - r phi * g) / |D|,
/// with |D| = sqrt(r^2 theta^2 + g^2). A point carried for time s keeps r and h and gains s in t.
/// For a pure translation the screen is the plane orthogonal to the motion: (r, h) = (x, z) and
/// t = y / g. A point with |D| = 0 (on the axis of a pure rotation) never moves: t is NaN and h
/// is y, the limit of h there.
struct CollisionScreen {
  Mat3 to_canonical = Mat3::Identity();
  Vec3 origin = Vec3::Zero();
  double theta = 0;
  double glide = 0;

  /// Projects a point given in the screw's frame (A's local frame for screw_collisions). With
  /// `doppel`, phi is taken one turn higher (phi + 2 pi): seed 004 section 8 projects the fixed
  /// body's points with phi in [-pi, -pi + theta] twice so that a moving point whose azimuth passes
  /// +pi during the step still finds them.
  ScreenPoint project(const Vec3& x, bool doppel = false) const;
  /// The same projection for a point already in the canonical frame (c = to_canonical * (x -
  /// origin)) with its azimuth phi given by the caller: the raster method projects each face part
  /// with one continuous branch of the azimuth (phi in [-pi, 0], [0, pi], or doppeled [pi, pi +
  /// theta]). phi is ignored for a translation. A point on the axis of a pure rotation (no motion)
  /// gets t = NaN, as in project().
  /// Defined inline below: the raster calls it once per drawn point, from another translation
  /// unit (an inline call costs the same operations in the same order, so the same numbers).
  ScreenPoint project_canonical(const Vec3& c, double phi) const;
  /// True when the fixed body's point x needs the second (doppeled) projection: its azimuth lies in
  /// [-pi, -pi + theta]. Always false for a translation.
  bool needs_doppel(const Vec3& x) const;
};

inline ScreenPoint CollisionScreen::project_canonical(const Vec3& c, double phi) const {
  ScreenPoint p;
  if (theta == 0) {
    p.r = c.x();
    p.h = c.z();
    p.t = glide != 0 ? c.y() / glide : kNaN;
    p.phi = 0;
    return p;
  }
  p.r = std::sqrt(c.x() * c.x() + c.z() * c.z());
  p.phi = p.r > 0 ? phi : 0.0;
  const double arc = p.r * p.phi;
  const double speed_sq = p.r * p.r * theta * theta + glide * glide;
  if (!(speed_sq > 0)) {
    // On the axis of a pure rotation: h = y r theta / (r |theta|) = y for every r > 0, so y is the
    // continuous value here; t (phi / theta nearby) has no limit.
    p.h = c.y();
    return p;
  }
  p.t = (arc * p.r * theta + c.y() * glide) / speed_sq;
  p.h = (c.y() * p.r * theta - arc * glide) / std::sqrt(speed_sq);
  return p;
}

/// Builds the screen of `screw`, choosing the canonical z axis (azimuth 0) towards `facing`
/// (typically the midpoint of the two bodies' bounding-sphere centres) so that the bodies sit near
/// azimuth 0, far from the +-pi seam, and as little as possible needs doppeling (seed 004
/// section 9, first step). The origin is the axis point closest to `facing`.
CollisionScreen make_collision_screen(const Screw& screw, const Vec3& facing);

}  // namespace proxima::ccd
