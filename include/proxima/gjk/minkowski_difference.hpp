// SPDX-License-Identifier: MIT
// The Minkowski difference A - B as a support mapping, in A's LOCAL frame (STYLE.md point 3:
// compute in A's frame, convert to world once at the end). Shared by GJK and EPA.
#pragma once

#include <proxima/core/pose.hpp>
#include <proxima/shapes/concepts.hpp>
#include <proxima/shapes/polytope.hpp>

#include <array>
#include <type_traits>

namespace proxima::gjk {

/// One vertex of a GJK or EPA simplex: w = a - b, with a a support point of A's core and b one
/// of B's core, all three in A's local frame. Keeping a and b gives the witness points (seed 003,
/// section 2.2: closest points are the same barycentric combination of the a's and b's).
struct SupportPoint {
  Vec3 w;
  Vec3 a;
  Vec3 b;
};

/// A simplex of 0..4 support points: GJK's state, warm start and hand-over to EPA. After
/// reduce_simplex (gjk/simplex.hpp), `lambda[i]` are the barycentric weights of the simplex's point
/// closest to the origin (each > 0, summing to 1), so the witness points are sum lambda_i a_i and
/// sum lambda_i b_i (seed 003, section 2.2).
struct Simplex {
  std::array<SupportPoint, 4> points{};
  std::array<double, 4> lambda{};
  int size = 0;
};

/// Support mapping of core(A) - core(B) in A's local frame, where B is placed in A's frame by
/// `b_in_a` (= pose_a.inverse() * pose_b). Margins of rounded shapes are NOT included: GJK adds
/// them back (see RoundedSupportMap). Holds references: valid only during one query.
template <SupportMap A, SupportMap B>
class MinkowskiDifference {
 public:
  MinkowskiDifference(const A& a, const B& b, const Pose& b_in_a) : a_(a), b_(b), b_in_a_(b_in_a) {
    if constexpr (kPolytopePair) {
      fused_ = proxima::detail::kPolytopeHaveAvx2 && a.size() < kPolytopeHillClimbMinVertices &&
               b.size() < kPolytopeHillClimbMinVertices;
    }
  }

  /// Support point of core(A) - core(B) in direction d (A's frame), with its two witnesses.
  /// Uses and updates the hill-climbing hints of shapes that offer them.
  SupportPoint support(const Vec3& d) {
    if constexpr (kPolytopePair) {
      if (fused_) {  // two scanned polytopes: both scans in one call, same answer bit for bit
        // (with B's block placed in A's frame by place_b: the same up to B's near-ties)
        const proxima::detail::PolytopePairSupport s =
            proxima::detail::polytope_pair_support_avx2(a_, b_, b_in_a_, d, placed_b_);
        hint_a_ = s.index_a;
        hint_b_ = s.index_b;
        return {s.w, s.a, s.b};
      }
    }
    const Vec3 sa = core_support(a_, d, hint_a_);
    const Vec3 sb = b_in_a_.apply(core_support(b_, b_in_a_.rotate_inverse(-d), hint_b_));
    return {sa - sb, sa, sb};
  }

  /// For a query that calls support() many times (penetration: GJK then EPA) on two scanned
  /// polytopes: places B's scan block in A's frame once, into `buffer` (3 *
  /// kPolytopeScanMaxPadded doubles, 32-byte aligned, alive while this object is used), so each
  /// support() call scans it with -d and no longer rotates d or places B's vertex (both were on
  /// the support's dependent chain). Costs one pass over B's vertices; does nothing unless the
  /// pair takes the fused support. support() then equals the unplaced one except where two of B's
  /// products tie to within rounding (see polytope_pair_support_placed_avx2); support_w() is not
  /// changed.
  void place_b(double* buffer) {
    if constexpr (kPolytopePair) {
      if (fused_) {
        proxima::detail::polytope_place_coords_avx2(b_, b_in_a_, buffer);
        placed_b_ = buffer;
      }
    }
  }

  /// support(d).w alone (the same bits), for loops that never read the witnesses.
  Vec3 support_w(const Vec3& d) {
    if constexpr (kPolytopePair) {
      if (fused_) return proxima::detail::polytope_pair_support_w_avx2(a_, b_, b_in_a_, d, hint_a_, hint_b_);
    }
    const Vec3 sa = core_support(a_, d, hint_a_);
    const Vec3 sb = b_in_a_.apply(core_support(b_, b_in_a_.rotate_inverse(-d), hint_b_));
    return sa - sb;
  }

  const A& shape_a() const noexcept { return a_; }
  const B& shape_b() const noexcept { return b_; }
  const Pose& b_in_a() const noexcept { return b_in_a_; }
  /// Sum of the two margins (radii of rounded shapes).
  double margin() const { return proxima::margin(a_) + proxima::margin(b_); }

  /// Hill-climbing hints (vertex indices), readable so a pair object can keep them between calls.
  int hint_a_ = -1;
  int hint_b_ = -1;

 private:
  static constexpr bool kPolytopePair = std::is_same_v<A, Polytope> && std::is_same_v<B, Polytope>;
  const A& a_;
  const B& b_;
  Pose b_in_a_;
  bool fused_ = false;  // kPolytopePair and both scan, on an AVX2 CPU
  const double* placed_b_ = nullptr;  // B's scan block in A's frame (place_b), or none
};

}  // namespace proxima::gjk
