// SPDX-License-Identifier: MIT
// Distances between vertex-form polytopes that are linear programs (seed 000, "Remarks"):
//  - the exact distance between conv(A) and conv(B) in the 1-norm and in the infinity-norm, with
//    the two closest points and a dual lower bound that certifies them; the seed stops at a
//    bound, these are the actual optima;
//  - the seed's own 1-norm quantity, min e^T (b - A x) over A x <= b, x >= 0 (its problem P2),
//    computed exactly as posed and documented for what it is (see seed_residual below).
#pragma once

#include <proxima/core/status.hpp>
#include <proxima/core/types.hpp>
#include <proxima/lp/workspace.hpp>

#include <Eigen/Core>

#include <cstdint>

namespace proxima::lp {

/// The norm in which lp::distance measures.
enum class DistanceNorm : std::uint8_t {
  l1,    ///< |x|_1 = sum |x_i|
  linf,  ///< |x|_inf = max |x_i|
};

/// Answer of lp::distance. Coordinates are those of the input points.
struct LpDistanceResult {
  /// min |p - q| over p in conv(A), q in conv(B), in the chosen norm: the norm of
  /// point_b - point_a (an attained value, hence never below the true minimum by more than
  /// rounding). 0 when the sets intersect; +inf when a set is empty.
  double distance = kNaN;
  /// Certified lower bound from the LP dual: with w = dual_direction,
  /// (min_b w . b - max_a w . a) / |w|_dual <= distance for every pair of points (Hoelder; the
  /// dual norm is inf for l1 and 1 for linf). At the optimum it equals `distance` up to rounding;
  /// distance - lower_bound is the certificate's gap. 0 when intersecting.
  double lower_bound = kNaN;
  /// Closest points (point_a in conv(A), point_b in conv(B)) and their convex weights.
  Eigen::VectorXd point_a;
  Eigen::VectorXd point_b;
  Eigen::VectorXd weights_a;
  Eigen::VectorXd weights_b;
  /// The dual direction w (pointing from A towards B); NaN when distance is 0.
  Eigen::VectorXd dual_direction;
  int iterations = 0;
  bool converged = false;
  bool warm_started = false;
  Status status = Status::converged;
  Detail detail = Detail::none;
};

/// Exact distance between conv(a) and conv(b) in the 1-norm or the infinity-norm.
/// 1-norm LP: A l - B m - u + v = 0, sum l = sum m = 1, minimise sum (u + v): (n+2) rows,
/// |A| + |B| + 2n columns. Infinity-norm LP: -r <= (A l - B m)_k <= r, minimise r: (2n+2) rows,
/// |A| + |B| + 2n + 1 columns. Both in the normalised frame of lp::intersect, so the absolute
/// error is about kLpOptimalityTolerance times the half-extent. Special cases as lp::intersect
/// (empty: +inf; all points equal: 0 without an LP).
/// The Euclidean distance d_2 satisfies d_inf <= d_2 <= d_1 and d_2 <= sqrt(n) d_inf.
/// Cost: phase one plus phase two of the simplex method on that LP.
/// Throws InvalidInput naming "points_a" / "points_b" as lp::intersect does.
LpDistanceResult distance(const PointsRef& a, const PointsRef& b, DistanceNorm norm, LpWorkspace& workspace,
                          const LpOptions& options = {});
/// Same, with a temporary workspace.
LpDistanceResult distance(const PointsRef& a, const PointsRef& b, DistanceNorm norm, const LpOptions& options = {});

/// The seed's problem P2 and its optimum.
struct SeedResidualResult {
  /// f* = min e^T (b - A x) subject to A x <= b, x >= 0, where A has the columns (a_i; 1; 0) and
  /// (-b_j; 0; 1) and b = (0, ..., 0, 1, 1): the 1-norm of the residual of the best "partial"
  /// mixture. What it is, honestly:
  ///  - f* = 0 exactly when conv(A) and conv(B) intersect, and 0 < f* <= 2 otherwise
  ///    (x = 0 is feasible with value 2), so it decides collision;
  ///  - it is NOT a distance: it adds coordinates (length) to weight deficits (unitless), changes
  ///    when both sets are translated together, and only sees pairs p in conv(A), q in conv(B)
  ///    (scaled by their weights) with p <= q componentwise;
  ///  - what it does bound: if some p in conv(A), q in conv(B) have p <= q componentwise, then
  ///    f* <= |q - p|_1; in particular f* <= dist_1 when the closest pair is so ordered;
  ///  - it is not a lower bound on the 1-norm distance, contrary to the seed's remark: for
  ///    A = {0.5}, B = {0} in R^1, f* = 1 > dist_1 = 0.5 (tests/lp/distance_test.cpp). Use
  ///    lp::distance for the actual distance.
  double value = kNaN;
  /// value == 0 within the solver's infeasibility tolerance.
  bool intersect = false;
  int iterations = 0;
  bool converged = false;
  Status status = Status::converged;
  Detail detail = Detail::none;
};

/// Solves the seed's problem P2 as posed, in the input coordinates (no normalisation: the value
/// depends on them). Empty sets are posed as they are (the weight row of an empty set keeps its
/// deficit of 1, so f* >= 1). Cost: one simplex solve with
/// n + 2 rows and |A| + |B| + n + 2 columns.
/// Throws InvalidInput naming "points_a" / "points_b" as lp::intersect does.
SeedResidualResult seed_residual(const PointsRef& a, const PointsRef& b, LpWorkspace& workspace,
                                 const LpOptions& options = {});

}  // namespace proxima::lp
