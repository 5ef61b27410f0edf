// SPDX-License-Identifier: MIT
// The world poses of both bodies along a query's motion, sampled for the page's time slider:
// screw queries (A by its own screw interpolation, B by A's pose times the relative screw, exactly
// the frames in which ccd::screw_collisions reports its contact points) and the translating kinds
// (toi_translate, interval_translate: pose + velocity * t).
#pragma once

#include "scene/spec.hpp"

#include <proxima/core/pose.hpp>

#include <optional>
#include <vector>

namespace proxima::viewer {

/// World poses of A and B at one time.
struct BodyPoses {
  Pose a;
  Pose b;
};

/// The poses at time t: the step fraction s in [0, 1] for screw queries, the query's own time
/// (any t, usually in [0, t_max]) for translating ones. nullopt for kinds without motion,
/// malformed queries, and screw steps the library refuses (rotation near a half turn).
std::optional<BodyPoses> poses_at(const scene::QuerySpec& query, double t);

/// Poses at increasing times.
struct MotionSamples {
  std::vector<double> times;
  std::vector<Pose> a;
  std::vector<Pose> b;
};

/// `samples` (at least 2) evenly spaced samples over [0, 1] (screw) or [0, t_max] (translating);
/// nullopt when poses_at() has none.
std::optional<MotionSamples> sample_motion(const scene::QuerySpec& query, int samples);

}  // namespace proxima::viewer
