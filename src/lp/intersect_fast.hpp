// SPDX-License-Identifier: MIT
// The structured simplex behind lp::intersect: phase one of the same LP as the general solver
// (lp/simplex_method.hpp), written for its shape. Every structural column is a point with a 1 in
// one of the two convexity rows, so
//  - Dantzig pricing is two support queries: the reduced cost of point p of A is
//    -(y_x . p' + y_n), of point q of B is -(-y_x . q' + y_{n+1}); one pass over the points,
//    stored one per row, finds the column of largest value without storing the values
//    (dense_kernels.hpp, largest_column_combination); from kMultiplePricingColumns columns the
//    pass's runners-up are priced again first, and a full pass only when none improves;
//  - a crash basis needs no artificial column in the convexity rows: the support point of A
//    towards B, the support point of B towards A, and n artificial columns on the coordinate
//    rows signed by the residual, with a closed-form inverse (two pivots fewer than the
//    all-artificial start of the general solver);
//  - the basis inverse is (n+2) x (n+2), updated per pivot in O(m^2) (product form applied to
//    an explicit inverse), refactorised every SimplexOptions::refactor_interval pivots.
// Pivot rules, tolerances and the iteration cap are the general solver's: Dantzig with Bland
// fallback (or Bland alone), Harris two-pass ratio test with Bland's leaving rule on degenerate
// steps. No final refactorisation: the caller checks the certificate (weights reproduce a common
// point; the hyperplane separates the input points) and falls back to the general solver when it
// fails.
#pragma once

#include <proxima/lp/workspace.hpp>

namespace proxima::lp::detail {

enum class FastOutcome : std::uint8_t {
  feasible,         ///< the basis in storage is feasible: weights from storage.xb
  infeasible,       ///< phase-one optimum > 0: storage.y is a Farkas ray
  iteration_limit,  ///< the cap stopped it
  failed,           ///< singular refactorisation or no progress: use the general solver
};

struct FastResult {
  FastOutcome outcome = FastOutcome::failed;
  int iterations = 0;
  bool warm_started = false;
};

/// Sizes the storage for (n, |A|, |B|) (a and b non-empty, n rows each) and writes the bounding
/// boxes of A and of B into storage.box, in one read-only pass over the input. Returns false
/// when a coordinate is NaN or infinite (the caller then reports which), and may also return
/// false for finite coordinates near DBL_MAX whose sum overflows (at n = 3 below 32 points per
/// set): the caller's exact check then finds nothing to report and the query goes on.
bool load_points(const PointsRef& a, const PointsRef& b, IntersectStorage& s);

/// Completes storage.box with the centre of both boxes and returns the half-extent (inf-norm)
/// of their union; when it is > 0, stores the points one per row, normalised: (a - centre) /
/// half-extent for A, (centre - b) / half-extent for B (B's negated).
double normalise_points(const PointsRef& a, const PointsRef& b, IntersectStorage& s);

/// Phase one on the normalised points in storage (see the file comment).
FastResult solve_intersect_fast(int n, int na, int nb, IntersectStorage& s, const SimplexOptions& options);

}  // namespace proxima::lp::detail
