// SPDX-License-Identifier: MIT
// The structured simplex behind lp::intersect: phase one of the same LP as the general solver
// (lp/simplex_method.hpp), written for its shape. Every structural column is a point with a 1 in
// one of the two convexity rows, so
//  - Dantzig pricing is two support queries: the reduced cost of point p of A is
//    -(y_x . p' + y_n), of point q of B is -(-y_x . q' + y_{n+1}); one matrix-vector product over
//    the points, stored one per row (vectorised axpys), prices every column;
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

/// Sets up storage.points (normalised by the frame in storage.box, which the caller filled) and
/// solves. `n` is the dimension, a and b non-empty and finite, half_extent > 0.
FastResult solve_intersect_fast(const PointsRef& a, const PointsRef& b, double half_extent, IntersectStorage& s,
                                const SimplexOptions& options);

}  // namespace proxima::lp::detail
