// SPDX-License-Identifier: MIT
// Continuous proximity for linearly translating implicit objects (seed 001, section VII):
//  - interval_translate: the minimum distance over t in [0, t_max] and when it occurs (eq. 17;
//    7 unknowns: both points and the time, so the Schur complement is 7 x 7);
//  - toi_translate: the first contact time and point (eq. 18; 4 unknowns: a common point and
//    the time), started from the eq. 17 answer when the objects meet;
//  - collision_intervals: along known straight paths, the ranges of path length over which each
//    object can collide with the other (eq. 19 and its three variants).
// Object X moves as pose_a.translation() + velocity_a * t (orientation fixed), likewise B.
#pragma once

#include <proxima/core/pose.hpp>
#include <proxima/core/results.hpp>
#include <proxima/ipm/object.hpp>
#include <proxima/ipm/solver.hpp>

namespace proxima::ipm {

/// Closest approach of two translating objects over [0, t_max] (world frame, at min_time).
struct IntervalResult {
  /// Minimum distance over the interval (0 when they meet).
  double min_distance = kNaN;
  /// A time in [0, t_max] at which it is reached. When the objects meet: a time at which they
  /// overlap (not necessarily the first; toi_translate gives that).
  double min_time = kNaN;
  /// True when the objects overlap (or touch, within the certificate) at some time.
  bool intersect = false;
  /// Closest points at min_time (equal, a common point, when intersect).
  Vec3 point_a = nan_vec3();
  Vec3 point_b = nan_vec3();
  /// Unit vector from A towards B at min_time; NaN when intersect.
  Vec3 normal = nan_vec3();
  /// Certificates as in DistanceReport (world units: length^2 and length).
  double complementarity = kNaN;
  double kkt_residual = kNaN;
  int iterations = 0;
  Status status = Status::converged;
  Detail detail = Detail::none;
};

/// Minimum distance between A (pose_a at t = 0, moving with velocity_a) and B over
/// [0, t_max] (seed 001, eq. 17). t_max must be finite and >= 0, velocities finite
/// (InvalidInput "t_max" / "velocity_a" / "velocity_b"). Cost: one 7-unknown interior-point
/// solve, O(#parts) per iteration.
IntervalResult interval_translate(const Object& a, const Pose& pose_a, const Vec3& velocity_a, const Object& b,
                                  const Pose& pose_b, const Vec3& velocity_b, double t_max,
                                  const IpmOptions& options = {});

/// First contact time over [0, t_max] (seed 001, eq. 18): solves eq. 17, and when the objects
/// meet, minimises t over the set of (common point, t). contact == false (toi NaN) when they
/// stay apart; toi == 0 when they already overlap at t = 0. `point` is the first contact point
/// (world, at toi) and `normal` the unit outward normal of A there (from A towards B).
/// iterations counts both solves. Touching-only motions (distance reaching 0 without overlap)
/// report contact at the time of closest approach.
ToiResult toi_translate(const Object& a, const Pose& pose_a, const Vec3& velocity_a, const Object& b,
                        const Pose& pose_b, const Vec3& velocity_b, double t_max, const IpmOptions& options = {});

/// Ranges of path length over which two objects moving along straight paths can collide.
struct CollisionIntervals {
  /// False when no pair of path positions brings the objects into overlap.
  bool collide = false;
  /// When collide: A at path length s_a in [s_a_min, s_a_max] (and B somewhere on its path)
  /// overlaps B; likewise for B. NaN otherwise.
  double s_a_min = kNaN, s_a_max = kNaN;
  double s_b_min = kNaN, s_b_max = kNaN;
  int iterations = 0;
  Status status = Status::converged;
  Detail detail = Detail::none;
};

/// Seed 001, eq. 19: A moves from pose_a along the direction `direction_a` (normalised here) by
/// a path length s_a in [0, length_a], B likewise; returns the min and max of s_a and of s_b over
/// all colliding configurations (five interior-point solves: one 8-unknown distance problem to
/// find a colliding configuration, then four 5-unknown problems). Zero direction, negative or
/// non-finite lengths throw InvalidInput naming the field.
CollisionIntervals collision_intervals(const Object& a, const Pose& pose_a, const Vec3& direction_a, double length_a,
                                       const Object& b, const Pose& pose_b, const Vec3& direction_b, double length_b,
                                       const IpmOptions& options = {});

}  // namespace proxima::ipm
