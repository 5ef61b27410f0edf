// SPDX-License-Identifier: MIT
// Private to src/batch: the batch kernel for one pair of small polytopes (fewer than
// kPolytopeHillClimbMinVertices vertices each, so Polytope::support is a plain scan).
//
// Why: a batch element answered through the query layer pays, besides GJK itself, a runtime
// dispatch, a warm-start store nobody reads, a copy of both witness points per simplex vertex
// that an intersect test never reads, and two out-of-line vectorised scans per support call.
// Measured with callgrind on the bench's intersect/N=8 case: about 5,000 instructions per element
// before (20% of them pose conversion, mostly std::string field names built on the success path),
// about 2,100 with this kernel.
//
// What: the GJK loop of gjk::detail::run_gjk in intersect mode, restricted to what gjk::intersect
// reads (the simplex keeps w = a - b only), on a copy of the two vertex sets loaded once per
// batch, with one support call per iteration that scans both polytopes. The relative pose, the
// query scale, the first direction, every stopping test and the result use the same expressions in
// the same order as gjk::intersect and run_gjk, and the sub-distance routine is the same function
// (gjk::closest_point_to_origin). The answer is therefore gjk::intersect's, bit for bit (flag,
// separating axis, iterations, status, detail), on either CPU path; tests/batch/
// small_polytope_test.cpp checks both paths against the scalar query. With options.nesterov the
// kernel runs run_gjk itself on its own Minkowski difference (same supports), also bit for bit.
//
// Across pairs: on a CPU with AVX2 the batch runs intersect_small_polytopes_lanes instead
// (small_polytope_lanes.cpp): the same loop for 4 elements at a time, one per double lane of the
// AVX2 registers (structure of arrays), every lane computing exactly the scalar operations above,
// including the signed-volume sub-distance routine; a lane whose element is decided takes the next
// one; the relative poses come in as structure of arrays (PoseGroup), formed 4 rows at a time from
// [t q] rows. Same answers bit for bit (tested). On the bench's intersect/N=8 data batch::intersect
// takes about 1,470 instructions per element this way (pose conversion included), against 2,590
// with the one-element kernel and 5,040 through the query layer (callgrind).
//
// CPU paths of the one-element kernel: `portable` (2-wide scans in GCC vector extensions: SSE2 on
// x86-64) and `avx2`, which differs only with options.nesterov (run_gjk on a support call compiled
// for AVX2, multiply and add kept separate as in the polytope layer's scan, so no fused
// multiply-add changes a rounding); without momentum an AVX2 CPU runs the lanes instead.
// best_path() picks avx2 when __builtin_cpu_supports says so. Bit-for-bit equality assumes no
// floating-point contraction in either build (the default flags; -march=native builds with FMA may
// contract the portable code differently in the scalar query and here).
#pragma once

#include <proxima/core/bounds.hpp>
#include <proxima/core/pose.hpp>
#include <proxima/core/results.hpp>
#include <proxima/core/tolerance.hpp>
#include <proxima/gjk/first_support_overlap.hpp>
#include <proxima/gjk/options.hpp>
#include <proxima/shapes/any_convex.hpp>
#include <proxima/shapes/polytope.hpp>

#include <array>
#include <cstddef>

namespace proxima::batch::detail {

/// The vertices of a small polytope as structure of arrays, padded to a multiple of 4 with
/// copies of vertex 0 (which the first-maximum scans never pick), in the polytope's own vertex
/// order, so scan indices equal Polytope::scan's.
struct SmallPolytope {
  static constexpr std::size_t kCapacity = (static_cast<std::size_t>(kPolytopeHillClimbMinVertices) + 3) / 4 * 4;
  alignas(32) std::array<double, kCapacity> x{};
  alignas(32) std::array<double, kCapacity> y{};
  alignas(32) std::array<double, kCapacity> z{};
  std::size_t padded = 0;  ///< number of entries scanned (size rounded up to a multiple of 4)
  int size = 0;            ///< number of hull vertices
  BoundingSphere sphere;   ///< Polytope::bounding_sphere()
  const Polytope* polytope = nullptr;  ///< the polytope itself (its interior test)
};

/// gjk::intersect's first-support-pair test (gjk::detail::first_support_common_point on the two
/// Polytopes, GjkOptions::first_support_overlap) for the kernels below: b_in_a (a Pose, or an
/// element of a PoseGroup with Pose::apply_inverse's arithmetic), the first direction d and the
/// first support pair s (w, A's vertex, B's vertex placed in A's frame), all bit for bit the
/// values gjk::intersect computes. True: the element overlaps and its answer is
/// gjk::detail::common_point_intersect_answer(). Call it only on elements whose scale is in range
/// and with options.first_support_overlap set. One implementation with the scalar query, so the
/// two cannot drift apart.
template <class Frame>
bool first_support_overlap(const SmallPolytope& a, const SmallPolytope& b, const Frame& b_in_a, const Vec3& d,
                           const gjk::SupportPoint& s) {
  Vec3 common;
  return gjk::detail::first_support_common_point(*a.polytope, *b.polytope, b_in_a, d, s, common);
}

/// Fills `out` and returns true when `shape` holds a Polytope whose support is a scan (fewer than
/// kPolytopeHillClimbMinVertices vertices); returns false otherwise. No allocation.
bool load_small_polytope(const AnyConvex& shape, SmallPolytope& out);

/// The two implementations of the kernel.
enum class KernelPath { portable, avx2 };

/// avx2 when the CPU runs AVX2 (and the build targets x86), else portable.
KernelPath best_path();

/// gjk::intersect(a, pose_a, b, pose_b, options) with a cold start, for polytopes loaded by
/// load_small_polytope, where b_in_a = pose_a.inverse() * pose_b (the caller computes it, once
/// per element, or hoists pose_a.inverse() when pose_a is broadcast). `path` avx2 requires
/// best_path() == avx2. No allocation.
IntersectResult intersect_small_polytopes(const SmallPolytope& a, const Pose& pose_a, const SmallPolytope& b,
                                          const Pose& b_in_a, const gjk::GjkOptions& options, KernelPath path);

/// The support point w = a - b of the Minkowski difference in direction d (A's frame), exactly as
/// MinkowskiDifference<Polytope, Polytope>::support computes it (portable scans).
Vec3 support_w_portable(const SmallPolytope& a, const SmallPolytope& b, const Pose& b_in_a, const Vec3& d);

/// True when intersect_small_polytopes_lanes can run (x86 with AVX2).
bool lanes_available();

/// Up to kSize relative poses b_in_a (B placed in A's frame), structure of arrays: r[3 i + j][e] is
/// R(i, j) and t[i][e] is t(i) of element e, the values of pose_a.inverse() * pose_b.
struct PoseGroup {
  static constexpr std::size_t kSize = 64;
  alignas(32) double r[9][kSize];
  alignas(32) double t[3][kSize];
  /// Stores b_in_a as element e.
  void set(std::size_t e, const Pose& b_in_a);
  /// Copies element `from` to element `to`.
  void move(std::size_t from, std::size_t to);
};

/// For `count` (<= PoseGroup::kSize) rows [tx, ty, tz, qw, qx, qy, qz]: stores
/// inverse_a * Pose::from_quaternion(qw, qx, qy, qz, t) as elements [0, count) of `out`, bit for
/// bit (Eigen's toRotationMatrix and Pose's products, in Eigen's association), 4 rows at a time,
/// and valid[e] = whether from_quaternion accepts row e (every entry finite, quaternion norm at
/// least kMinQuaternionNorm); the elements of invalid rows hold garbage. Requires lanes_available().
void relative_poses_from_quaternions(const Pose& inverse_a, const double* rows, std::size_t count, PoseGroup& out,
                                     bool* valid);

/// The same answers as intersect_small_polytopes for `count` (<= PoseGroup::kSize) elements
/// (element e: b_in_a element e of `poses`), computed 4 at a time in the lanes of AVX2 registers
/// (small_polytope_lanes.cpp), except that out[e].separating_axis is in A's frame: the caller
/// rotates it by pose_a. Requires lanes_available() and options.nesterov false. No allocation.
void intersect_small_polytopes_lanes(const SmallPolytope& a, const SmallPolytope& b, const PoseGroup& poses,
                                     std::size_t count, const gjk::GjkOptions& options, IntersectResult* out);

}  // namespace proxima::batch::detail
