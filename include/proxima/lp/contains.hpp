// SPDX-License-Identifier: MIT
// Containment of vertex-form polytopes (seed 000, IsSubsetOf): conv(A) is a subset of conv(B)
// iff every point of A lies in conv(B), which is one point-in-polytope LP per point of A
// (lp/intersect.hpp, point_inside). When the answer is no, the first point of A found outside
// and a hyperplane separating it from conv(B) certify it.
#pragma once

#include <proxima/core/status.hpp>
#include <proxima/core/types.hpp>
#include <proxima/lp/workspace.hpp>

#include <Eigen/Core>

namespace proxima::lp {

/// Answer of lp::contains. Coordinates are those of the input points.
struct LpContainsResult {
  /// True when conv(A) is a subset of conv(B) (points of A on the boundary of conv(B), within the
  /// touching band of lp::intersect, count as inside). An empty A is a subset of anything; a
  /// non-empty A is not a subset of an empty B.
  bool contains = false;
  /// When !contains: index (column of A) of a point of A outside conv(B); -1 otherwise.
  int outside_vertex = -1;
  /// When !contains: unit normal pointing from conv(B) out towards that point, with
  /// normal . b <= separating_offset < normal . a_v for every point b of B (a_v the outside
  /// point). NaN when contains. For an empty B the normal is e_1 and the offset -inf.
  Eigen::VectorXd separating_normal;
  double separating_offset = kNaN;
  /// When !contains: normal . a_v - max_b normal . b > 0 (length units; +inf for an empty B).
  double margin = kNaN;
  /// Points of A tested (the loop stops at the first one outside).
  int points_checked = 0;
  /// Simplex pivots over all the point tests.
  int iterations = 0;
  /// True when every point test converged.
  bool converged = false;
  Status status = Status::converged;
  Detail detail = Detail::none;
};

/// Is conv(a) a subset of conv(b)? (Note the order: "a is contained in b", the seed's
/// a.IsSubsetOf(b).) `a`: n x |A|, `b`: n x |B|, columns are points, n >= 1.
/// Cost: up to |A| point-in-polytope LPs of size (n+2) x (1+|B|); consecutive ones warm-start
/// from each other through the workspace. Tolerance: as lp::intersect (touching band about 1e-9
/// of the half-extent of each point and B). Status: the first non-converged point test's status
/// (the answer is then false and uncertified).
/// Throws InvalidInput naming "points_a" / "points_b" as lp::intersect does.
LpContainsResult contains(const PointsRef& a, const PointsRef& b, LpWorkspace& workspace,
                          const LpOptions& options = {});
/// Same, with a temporary workspace.
LpContainsResult contains(const PointsRef& a, const PointsRef& b, const LpOptions& options = {});

}  // namespace proxima::lp
