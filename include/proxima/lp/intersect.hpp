// SPDX-License-Identifier: MIT
// Do two convex polytopes given by their corners meet? (seed 000, "Collision Detection" and
// "Algorithm"). conv(S) and conv(T) intersect iff 0 lies in conv(S) - conv(T), i.e. iff
//
//     sum_i l_i s_i - sum_j m_j t_j = 0,   sum_i l_i = 1,   sum_j m_j = 1,   l, m >= 0
//
// is feasible: an LP with n + 2 rows and |S| + |T| columns, solved by phase one of the simplex
// method (lp/simplex_method.hpp). Either way the answer carries a certificate that is cheap to
// check: the weights of a common point, or (from the phase-one multipliers, Farkas' lemma) a
// separating hyperplane.
#pragma once

#include <proxima/core/status.hpp>
#include <proxima/core/types.hpp>
#include <proxima/lp/workspace.hpp>

#include <Eigen/Core>

namespace proxima::lp {

/// Answer of lp::intersect / lp::point_inside. Field names follow DESIGN.md (scene output).
/// Coordinates are those of the input points (the lp layer has no poses).
struct LpIntersectResult {
  /// True when conv(A) and conv(B) share a point (touching counts; see the touching band below).
  bool intersect = false;
  /// When intersecting: a common point, (A weights_a + B weights_b) / 2. NaN otherwise.
  Eigen::VectorXd common_point;
  /// When intersecting: convex weights (>= 0, sum 1) on the points of A and of B with
  /// A weights_a = B weights_b = common_point up to `residual`. NaN otherwise.
  Eigen::VectorXd weights_a;
  Eigen::VectorXd weights_b;
  /// |A weights_a - B weights_b|_inf, in length units (when intersecting).
  double residual = kNaN;
  /// When separated: unit normal pointing from A towards B, with
  /// separating_normal . a <= separating_offset <= separating_normal . b for every point a of A
  /// and b of B. NaN when intersecting.
  Eigen::VectorXd separating_normal;
  double separating_offset = kNaN;
  /// When separated: min_b normal . b - max_a normal . a > 0, the width of the empty slab between
  /// the sets along the normal (a lower bound on their Euclidean distance). +inf when a set is
  /// empty.
  double margin = kNaN;
  /// Simplex pivots.
  int iterations = 0;
  /// True when the answer is certified (status converged).
  bool converged = false;
  /// True when the solve started from the workspace's previous basis.
  bool warm_started = false;
  Status status = Status::converged;
  Detail detail = Detail::none;
};

/// Does conv(a) meet conv(b)? `a` is n x |A|, `b` is n x |B| (columns are points, any n >= 1).
///
/// Special cases: an empty set meets nothing (answered, with a vacuous hyperplane: normal e_1,
/// margin +inf); sets whose points all coincide are answered without an LP; single points,
/// duplicates, affinely dependent sets and n > |A| + |B| need no special code (the LP handles
/// redundant and all-zero rows).
///
/// Touching band: both sets are translated and scaled into [-1, 1]^n; pairs whose LP residual is
/// below options.simplex.infeasibility_tolerance there (about 1e-10 of the half-extent h), or
/// whose recovered weights reproduce a common point to contact_tolerance * h, are reported as
/// intersecting. Separated pairs further apart than about 1e-9 h are reported as separated with
/// a hyperplane whose margin is checked on the input points in double precision. If the Farkas
/// hyperplane fails that check (only possible inside the band) the answer is intersect = false
/// with status degenerate_input and detail touching.
///
/// Status: converged; iteration_limit when options.simplex.max_iterations stopped it (then
/// intersect is false and uncertified); degenerate_input as above or on a singular basis, and
/// with detail non_finite when coordinates near DBL_MAX make the plane's offset or margin
/// overflow (the plane cannot be stated in double precision; not certified).
/// Solver: phase one of the simplex method on the (n+2) x (|A|+|B|) LP by a structured revised
/// simplex (src/lp/intersect_fast.hpp: pricing as one support scan over the normalised points,
/// partial between full scans from 512 points in all, a crash basis of the two support points
/// towards the other set's box centre (when the line between the box centres already separates
/// the sets by more than 16 infeasibility tolerances, that direction is the Farkas ray and the
/// answer takes 0 pivots), an explicit
/// (n+2) x (n+2) basis inverse); when its certificate fails (singular basis, touching band) the
/// general solver (simplex_method.hpp) decides from scratch, and `iterations` counts both.
/// Cost: O(n (|A|+|B|) + n^2) per pivot. Pivots per query grow slowly with |A| + |B|
/// (proxima_bench --suite=lp reports them; docs/benchmarks.md, LP section), not linearly as the
/// seed expects; a warm start on a slowly moving pair needs far fewer.
/// Allocation: none when `workspace` and the result (intersect_into) have seen these sizes and
/// the structured path certifies its answer (tests/lp/allocation_test.cpp); intersect() allocates
/// the result's vectors.
/// Throws InvalidInput naming "points_a" or "points_b" for n = 0, mismatched dimensions or a
/// NaN/Inf coordinate ("points_a[col][row]"), or the field of an invalid option.
LpIntersectResult intersect(const PointsRef& a, const PointsRef& b, LpWorkspace& workspace,
                            const LpOptions& options = {});
/// Same, writing into `result`, whose vectors are resized only when the sizes change: with a
/// workspace and a result kept across queries the query allocates nothing.
void intersect_into(const PointsRef& a, const PointsRef& b, LpWorkspace& workspace, LpIntersectResult& result,
                    const LpOptions& options = {});
/// Same, with a temporary workspace (cold start).
LpIntersectResult intersect(const PointsRef& a, const PointsRef& b, const LpOptions& options = {});

/// Is the point p (n x 1) in conv(b)? The seed's motivating question; intersect({p}, b) with
/// the same certificates (weights_a is the single weight 1).
LpIntersectResult point_inside(const Eigen::Ref<const Eigen::VectorXd>& p, const PointsRef& b,
                               LpWorkspace& workspace, const LpOptions& options = {});

/// Outcome of a certificate check: whether it holds, and by how much it is violated (or the
/// slack when it holds), in length units.
struct CertificateCheck {
  bool valid = false;
  /// Common point: the largest of |A w_a - p|_inf, |B w_b - p|_inf, the weight-sum errors times
  /// the extent and the most negative weight times the extent. Hyperplane: the margin
  /// (min_b n.b - max_a n.a), valid when > 0.
  double value = kNaN;
};

/// Checks a common-point certificate: weights >= 0, each summing to 1 within 1e-12 per point,
/// and A w_a and B w_b within `tolerance` (length units, inf-norm) of `point`. O(n (|A| + |B|)).
CertificateCheck check_common_point(const PointsRef& a, const PointsRef& b, const Eigen::VectorXd& point,
                                    const Eigen::VectorXd& weights_a, const Eigen::VectorXd& weights_b,
                                    double tolerance);

/// Checks a separating-hyperplane certificate in double precision: |normal| = 1 within 1e-12,
/// normal . a <= offset for every point of A, normal . b >= offset for every point of B, and a
/// positive margin. O(n (|A| + |B|)).
CertificateCheck check_separation(const PointsRef& a, const PointsRef& b, const Eigen::VectorXd& normal,
                                  double offset);

}  // namespace proxima::lp
