// SPDX-License-Identifier: MIT
// Distance between two implicit objects by the interior-point solver (seed 001, eq. 8):
//   minimise |x - y|^2  subject to  x in A (every part of A), y in B.
// The 6 x 6 Schur complement makes each Newton step O(#parts) (seed 001, section VI).
#pragma once

#include <proxima/core/pose.hpp>
#include <proxima/core/results.hpp>
#include <proxima/ipm/object.hpp>
#include <proxima/ipm/solver.hpp>

#include <span>
#include <vector>

namespace proxima::ipm {

/// A distance answer with the solver's certificates.
struct DistanceReport {
  /// distance, intersect, point_a, point_b (world), normal (unit, A to B; NaN when they overlap),
  /// gap (upper bound on distance - true distance from the certificates below), iterations,
  /// status (converged / iteration_limit / degenerate_input) and detail (duality_gap when
  /// separated or touching; origin_enclosed when a common point was found: then distance == 0,
  /// intersect == true and point_a == point_b is a point strictly inside both objects).
  DistanceResult result;
  /// Complementarity s^T lambda at the answer, world units (length^2): objective - optimum is
  /// at most this plus kkt_residual times the objects' diameter.
  double complementarity = kNaN;
  /// |gradient of the Lagrangian|_inf at the answer, world units (length).
  double kkt_residual = kNaN;
  /// True when the solve started from the previous solution.
  bool warm_started = false;
};

/// Reusable distance solver: owns the per-constraint buffers (no allocation once they have grown
/// to the largest pair seen) and the warm start (the last solution in the objects' own frames,
/// with its multipliers). Not thread-safe; use one per thread.
class DistanceSolver {
 public:
  explicit DistanceSolver(const IpmOptions& options = {}) : options_(options) {}

  /// Cold solve from the objects' interior points. Cost: O(#parts of A + #parts of B) per
  /// iteration, typically 10-30 iterations.
  DistanceReport distance(const Object& a, const Pose& pose_a, const Object& b, const Pose& pose_b);

  /// Warm solve: starts from the previous solution (moved slightly inside the objects) when the
  /// part counts match, else solves cold. Meant for coherent motion and for deforming objects
  /// (changed semiaxes, exponents or affine maps between calls: seed 001, table III).
  DistanceReport distance_warm(const Object& a, const Pose& pose_a, const Object& b, const Pose& pose_b);

  /// Multipliers of the last solve, one per part (A's parts, then B's), in world units: at a
  /// separated answer 2 (x - y) + sum_A lambda_k grad c_k(x) = 0 with c_k(x) the part's value at
  /// the world point x (likewise for y), the KKT condition tests check independently.
  std::span<const double> multipliers() const noexcept { return multipliers_; }
  /// Forgets the warm start.
  void clear_warm_start() noexcept { warm_valid_ = false; }
  const IpmOptions& options() const noexcept { return options_; }

 private:
  DistanceReport run(const Object& a, const Pose& pose_a, const Object& b, const Pose& pose_b, bool warm);

  IpmOptions options_;
  Workspace<6> ws_;
  std::vector<Constraint<6>> constraints_;
  std::vector<double> multipliers_;
  std::vector<double> warm_lambda_;
  // Warm start: the last points in each object's frame, multipliers (world units), barrier.
  bool warm_valid_ = false;
  Vec3 warm_a_ = nan_vec3();
  Vec3 warm_b_ = nan_vec3();
  double warm_mu_ = kNaN;
};

/// Distance between implicit objects a (placed by pose_a) and b (pose_b), world frame, cold
/// start. Convenience wrapper over DistanceSolver (allocates its buffers once per call).
DistanceResult distance(const Object& a, const Pose& pose_a, const Object& b, const Pose& pose_b,
                        const IpmOptions& options = {});

/// The same with the certificates.
DistanceReport distance_report(const Object& a, const Pose& pose_a, const Object& b, const Pose& pose_b,
                               const IpmOptions& options = {});

namespace detail {

/// Query frame: world = origin + scale * normalised. Scale = sum of the bounding radii plus the
/// distance of the bounding-sphere centres (core/tolerance.hpp).
struct Frame {
  Vec3 origin;
  double scale;
};
Frame query_frame(const Object& a, const Pose& pose_a, const Object& b, const Pose& pose_b);

/// Appends one constraint per part of `object` (placed by `pose`), acting on the normalised point
/// z.segment<3>(column) of a problem of size N: part value at (origin + scale * point).
template <int N>
void append_object(const Object& object, const Pose& pose, const Frame& frame, int column,
                   std::vector<Constraint<N>>& out) {
  for (const auto& part : object.parts()) {
    Constraint<N> c;
    c.primitive = &part.primitive();
    const Mat3 m = part.inverse_linear() * pose.rotation().transpose();
    c.map.template middleCols<3>(column) = frame.scale * m;
    c.offset = m * (frame.origin - pose.translation()) - part.inverse_linear() * part.translation();
    out.push_back(c);
  }
}

}  // namespace detail

}  // namespace proxima::ipm
