// SPDX-License-Identifier: MIT
#include "viewer/motion.hpp"

#include <proxima/ccd/screw.hpp>
#include <proxima/core/error.hpp>

#include <algorithm>

namespace proxima::viewer {

std::optional<BodyPoses> poses_at(const scene::QuerySpec& q, double t) {
  if (!q.error.empty()) return std::nullopt;
  if (q.kind == scene::QueryKind::screw) {
    if (!q.pose_a_end || !q.pose_b_end) return std::nullopt;
    try {
      // ccd::screw_collisions: A moves by its own screw, B relative to A by the relative screw.
      const ccd::Screw relative = ccd::decompose(ccd::relative_motion(q.pose_a, *q.pose_a_end, q.pose_b, *q.pose_b_end));
      const Pose a = ccd::interpolate(q.pose_a, *q.pose_a_end, t);
      return BodyPoses{a, a * relative.pose(t) * (q.pose_a.inverse() * q.pose_b)};
    } catch (const InvalidInput&) {
      return std::nullopt;
    }
  }
  if (q.kind == scene::QueryKind::toi_translate || q.kind == scene::QueryKind::interval_translate) {
    return BodyPoses{Pose::from_translation(t * q.velocity_a) * q.pose_a, Pose::from_translation(t * q.velocity_b) * q.pose_b};
  }
  return std::nullopt;
}

std::optional<MotionSamples> sample_motion(const scene::QuerySpec& q, int samples) {
  samples = std::max(samples, 2);
  const double end = q.kind == scene::QueryKind::screw ? 1.0 : q.t_max;
  MotionSamples out;
  for (int i = 0; i < samples; ++i) {
    const double t = end * i / (samples - 1);
    const std::optional<BodyPoses> poses = poses_at(q, t);
    if (!poses) return std::nullopt;
    out.times.push_back(t);
    out.a.push_back(poses->a);
    out.b.push_back(poses->b);
  }
  return out;
}

}  // namespace proxima::viewer
