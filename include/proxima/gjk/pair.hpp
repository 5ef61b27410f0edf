// SPDX-License-Identifier: MIT
// gjk::Pair: two shapes with their poses, answering collide / distance / penetration with cached
// answers and warm starts (seed 003, section 4 and figure 14: the GJK_EPA class and its state
// machine; STYLE.md point 10: warm starting is explicit state owned by the pair object).
//
// Usage:
//   gjk::Pair pair(Box(Vec3(1, 1, 1)), Sphere(0.5), pose_box, pose_ball);
//   if (pair.collide().intersect) depth = pair.penetration().depth;   // EPA reuses GJK's simplex
//   pair.set_pose_b(next_pose);                                       // next frame: warm GJK
//   double d = pair.distance().distance;
#pragma once

#include <proxima/gjk/distance.hpp>
#include <proxima/gjk/epa.hpp>
#include <proxima/gjk/intersect.hpp>

#include <cstdint>
#include <memory>
#include <utility>

namespace proxima::gjk {

/// What a Pair knows about its current configuration (seed 003, figure 14). The numbers of the
/// seed's states are given for reference.
enum class PairState : std::uint8_t {
  unknown,            ///< 0: nothing computed since the last change
  colliding,          ///< 1: collide() found an overlap
  penetration_known,  ///< 2: overlap and its penetration (EPA) are known
  separated,          ///< 3: collide() found a separating axis
  distance_known,     ///< 4: separated, with distance and closest points
};

/// Two convex shapes A and B with their poses, and the cache of what has been computed about them.
///
/// Queries (all results in the WORLD frame, as the free functions return them):
///  - collide(): gjk::intersect, with early exit (seed 003, algorithm 2);
///  - distance(): gjk::distance;
///  - penetration(): gjk::penetration (GJK + EPA); for a separated pair it returns depth 0 and the
///    distance fields, derived from distance() (seed 003: "a null value" in states 3 and 4).
/// Each answer is computed at most once per configuration, and answers feed each other: a known
/// distance answers collide() (its normal is a separating axis), a known penetration answers
/// collide(), a known separation lets penetration() skip EPA.
///
/// Cache invalidation (exactly):
///  - Answers are stored in A's local frame and keyed by the relative pose B-in-A
///    (pose_a^-1 * pose_b, compared bitwise). A pose setter that leaves it bit-identical (setting
///    the same pose again) keeps every answer, re-expressed in the world frame on return; any other
///    pose change drops all answers.
///  - set_shape_a / set_shape_b and set_options drop all answers.
///  - The warm start (last GJK simplex as shape-local points, polytope hill-climbing hints, last
///    normal) survives pose changes, which is what makes the next query fast on a moving pair
///    (temporal coherence); it is dropped by set_shape_a / set_shape_b, since it describes the old
///    shape. reset_warm_start() drops it explicitly.
/// Memory: the pair owns its EPA workspace (allocated once at construction, about 60 KB), so no
/// query allocates. Not thread-safe: one pair per thread.
///
/// Works for any SupportMap types, including AnyConvex (each support call then visits the variant;
/// use concrete types in hot loops).
template <SupportMap A, SupportMap B>
class Pair {
 public:
  Pair(A a, B b, const Pose& pose_a = Pose(), const Pose& pose_b = Pose(), const GjkOptions& gjk = {},
       const EpaOptions& epa = {})
      : a_(std::move(a)),
        b_(std::move(b)),
        pose_a_(pose_a),
        pose_b_(pose_b),
        gjk_options_(gjk),
        epa_options_(epa),
        hull_(std::make_unique<EpaHull>()) {
    b_in_a_ = relative_pose(pose_a_, pose_b_);
  }

  Pair(Pair&&) noexcept = default;
  Pair& operator=(Pair&&) noexcept = default;
  Pair(const Pair&) = delete;
  Pair& operator=(const Pair&) = delete;

  // ---- setters (seed 003: Set_shape_A / Set_shape_A_transformed, ...) ----------------------

  /// Replaces shape A, keeping its pose. Drops all answers and the warm start.
  void set_shape_a(A a) {
    a_ = std::move(a);
    drop_answers();
    warm_.reset();
  }
  /// Replaces shape A and its pose. Drops all answers and the warm start.
  void set_shape_a(A a, const Pose& pose) {
    pose_a_ = pose;
    b_in_a_ = relative_pose(pose_a_, pose_b_);
    set_shape_a(std::move(a));
  }
  /// Replaces shape B, keeping its pose. Drops all answers and the warm start.
  void set_shape_b(B b) {
    b_ = std::move(b);
    drop_answers();
    warm_.reset();
  }
  /// Replaces shape B and its pose. Drops all answers and the warm start.
  void set_shape_b(B b, const Pose& pose) {
    pose_b_ = pose;
    b_in_a_ = relative_pose(pose_a_, pose_b_);
    set_shape_b(std::move(b));
  }
  /// Moves A. Answers survive only if the relative pose stays bit-identical; warm start survives.
  void set_pose_a(const Pose& pose) { set_poses(pose, pose_b_); }
  /// Moves B (see set_pose_a).
  void set_pose_b(const Pose& pose) { set_poses(pose_a_, pose); }
  /// Moves both (see set_pose_a).
  void set_poses(const Pose& pose_a, const Pose& pose_b) {
    pose_a_ = pose_a;
    pose_b_ = pose_b;
    const Pose relative = relative_pose(pose_a_, pose_b_);
    if (!(relative == b_in_a_)) {
      b_in_a_ = relative;
      drop_answers();
    }
  }
  /// Replaces the options. Drops all answers (they were computed to the old tolerances).
  void set_options(const GjkOptions& gjk, const EpaOptions& epa) {
    gjk_options_ = gjk;
    epa_options_ = epa;
    drop_answers();
  }
  /// Forgets the warm start (the next query starts cold); answers are kept.
  void reset_warm_start() { warm_.reset(); }

  // ---- queries -------------------------------------------------------------------------------

  /// Overlap test with its separating-axis certificate (gjk::intersect semantics, world frame).
  IntersectResult collide() {
    if (!has_intersect_) {
      if (has_distance_) {
        intersect_ = from_distance(distance_);
      } else if (has_penetration_) {
        intersect_ = from_penetration(penetration_);
      } else {
        intersect_ = gjk::intersect(a_, Pose(), b_, b_in_a_, gjk_options_, warm_);
      }
      has_intersect_ = true;
    }
    IntersectResult r = intersect_;
    r.separating_axis = pose_a_.rotate(r.separating_axis);
    return r;
  }

  /// Distance, closest points, normal (gjk::distance semantics, world frame).
  DistanceResult distance() {
    if (!has_distance_) {
      distance_ = gjk::distance(a_, Pose(), b_, b_in_a_, gjk_options_, warm_);
      has_distance_ = true;
    }
    DistanceResult r = distance_;
    r.point_a = pose_a_.apply(r.point_a);
    r.point_b = pose_a_.apply(r.point_b);
    r.normal = pose_a_.rotate(r.normal);
    return r;
  }

  /// Penetration depth, normal and witnesses (gjk::penetration semantics, world frame).
  PenetrationResult penetration() {
    if (!has_penetration_) {
      const bool known_separated = (has_intersect_ && !intersect_.intersect) || (has_distance_ && !distance_.intersect);
      if (known_separated) {
        (void)distance();
        penetration_ = from_separated_distance(distance_);
      } else {
        EpaOptions options = epa_options_;
        options.gjk = gjk_options_;
        penetration_ = gjk::penetration(a_, Pose(), b_, b_in_a_, options, warm_, *hull_);
      }
      has_penetration_ = true;
    }
    PenetrationResult r = penetration_;
    r.point_a = pose_a_.apply(r.point_a);
    r.point_b = pose_a_.apply(r.point_b);
    r.normal = pose_a_.rotate(r.normal);
    return r;
  }

  // ---- inspection ----------------------------------------------------------------------------

  /// The seed-003 state of the cache (figure 14).
  PairState state() const {
    bool known = has_intersect_ || has_distance_ || has_penetration_;
    if (!known) return PairState::unknown;
    const bool overlap = has_intersect_ ? intersect_.intersect
                                        : (has_distance_ ? distance_.intersect : penetration_.intersect);
    if (overlap) return has_penetration_ ? PairState::penetration_known : PairState::colliding;
    return has_distance_ ? PairState::distance_known : PairState::separated;
  }
  bool has_cached_intersect() const noexcept { return has_intersect_; }
  bool has_cached_distance() const noexcept { return has_distance_; }
  bool has_cached_penetration() const noexcept { return has_penetration_; }
  const WarmStart& warm_start() const noexcept { return warm_; }
  const A& shape_a() const noexcept { return a_; }
  const B& shape_b() const noexcept { return b_; }
  const Pose& pose_a() const noexcept { return pose_a_; }
  const Pose& pose_b() const noexcept { return pose_b_; }

 private:
  void drop_answers() { has_intersect_ = has_distance_ = has_penetration_ = false; }

  // Derivations between cached answers (all in A's frame).
  static IntersectResult from_distance(const DistanceResult& d) {
    IntersectResult r;
    r.intersect = d.intersect;
    r.separating_axis = d.intersect ? nan_vec3() : d.normal;
    r.iterations = 0;
    r.status = d.status;
    r.detail = d.intersect ? Detail::origin_enclosed : Detail::separating_axis;
    return r;
  }
  static IntersectResult from_penetration(const PenetrationResult& p) {
    IntersectResult r;
    r.intersect = p.intersect;
    r.separating_axis = p.intersect ? nan_vec3() : p.normal;
    r.iterations = 0;
    r.status = p.status;
    r.detail = p.intersect ? Detail::origin_enclosed : Detail::separating_axis;
    return r;
  }
  static PenetrationResult from_separated_distance(const DistanceResult& d) {
    PenetrationResult r;
    r.intersect = d.intersect;
    r.depth = 0;
    r.normal = d.normal;
    r.point_a = d.point_a;
    r.point_b = d.point_b;
    r.iterations = d.iterations;
    r.status = d.status;
    r.detail = d.detail;
    return r;
  }

  A a_;
  B b_;
  Pose pose_a_;
  Pose pose_b_;
  Pose b_in_a_;
  GjkOptions gjk_options_;
  EpaOptions epa_options_;
  WarmStart warm_;
  std::unique_ptr<EpaHull> hull_;
  bool has_intersect_ = false;
  bool has_distance_ = false;
  bool has_penetration_ = false;
  IntersectResult intersect_;
  DistanceResult distance_;
  PenetrationResult penetration_;
};

}  // namespace proxima::gjk
