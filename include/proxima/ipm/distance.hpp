// SPDX-License-Identifier: MIT
// Distance between two implicit objects by the interior-point solver (seed 001, eq. 8):
//   minimise |x - y|^2  subject to  x in A (every part of A), y in B.
// The 6 x 6 Schur complement makes each Newton step O(#parts) (seed 001, section VI).
#pragma once

#include <proxima/core/pose.hpp>
#include <proxima/core/results.hpp>
#include <proxima/ipm/object.hpp>
#include <proxima/ipm/solver.hpp>

#include <array>
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
  /// True when the warm start's Newton polish gave the answer (see distance_warm); its gap is
  /// then the separating-plane bound and support_certified is true as well. complementarity and
  /// kkt_residual are then those of the Newton point, before its points were moved inside by
  /// about 1e-15 of the scale (kIpmPolishPullback).
  bool polished = false;
  /// True when the answer came from the epigraph reformulation (see DistanceSolver).
  bool reformulated = false;
  /// True when result.gap comes from the separating-plane bound (support_lower_bound) rather
  /// than the KKT residuals (see DistanceSolver).
  bool support_certified = false;
};

/// One power term |w|^n (n in [1, 2)) carried by an epigraph variable in the reformulated
/// problem: r >= |w| (two linear constraints, w - r <= 0 and -w - r <= 0) and r^n replaces
/// |w|^n in its part's sum. Multipliers in world units (like DistanceSolver::multipliers());
/// r is unitless, like w.
struct EpigraphTerm {
  std::size_t part = 0;   ///< index into the multipliers: A's parts, then B's
  int term = 0;           ///< superquadric coordinate or hyperquadric term index
  double exponent = kNaN;
  double r = kNaN;
  double lambda_plus = kNaN;   ///< of  w - r <= 0
  double lambda_minus = kNaN;  ///< of -w - r <= 0
};

/// Reusable distance solver: owns the per-constraint buffers (no allocation once they have grown
/// to the largest pair seen) and the warm start (the last solution in the objects' own frames,
/// with its multipliers). Not thread-safe; use one per thread.
///
/// Exponents in [1, 2) (the paper's failure case). The direct formulation evaluates |w|^n at
/// w = (map z + offset)_i, which near a sharp tip is known only to ~1e-16 absolute; the slope
/// n |w|^(n-1) there is ~1e-2 for n = 15/13, so stationarity cannot be certified when the optimum
/// sits at a tip. When the direct solve does not certify within IpmOptions::fast_path_iterations,
/// its answer is certified by the separating-plane bound (support_lower_bound) when one of the
/// objects is a single superquadric (the paper's diamond): the gap is then the distance minus
/// that lower bound. Otherwise, or when that bound is not tight enough, and (IpmOptions::fast_path_iterations for
/// pairs with such terms), the query is solved again with each such term replaced by an
/// epigraph variable r >= |w| (12 unknowns, at most 6 terms; more stay direct), r^n taking the
/// term's place in its part's sum. w now enters only linearly (exact, constant gradients: no
/// Newton model has to cross the point w = 0 where |w|^n's curvature blows up), and r approaches
/// 0 only from above, carrying tiny values to full relative precision, so the certificates are
/// met. The KKT conditions of that problem are exposed by epigraph_terms() for independent
/// checking.
class DistanceSolver {
 public:
  explicit DistanceSolver(const IpmOptions& options = {}) : options_(options) {}

  /// Cold solve from the objects' interior points. Cost: O(#parts of A + #parts of B) per
  /// iteration, typically 10-30 iterations.
  DistanceReport distance(const Object& a, const Pose& pose_a, const Object& b, const Pose& pose_b);

  /// Warm solve: starts from the previous solution when the part counts match, else solves
  /// cold. Meant for coherent motion and for deforming objects (changed semiaxes, exponents or
  /// affine maps between calls: seed 001, table III). Two stages (the paper's future work: an
  /// interior-point method combined with an SQP-like step):
  ///  1. Newton polish (IpmOptions::warm_polish): Newton's method on the KKT equations of the
  ///     previous active set (the parts with a non-negligible multiplier), at most
  ///     kIpmPolishIterations steps with no barrier and no line search. Its answer is kept only
  ///     when the multipliers are positive, the other parts strictly inside, and the separating
  ///     plane certifies it: result.gap = distance - (a lower bound from each side's Lagrangian
  ///     at its point) <= kIpmSupportGapRelative * scale (support_certified is then true).
  ///  2. Otherwise the interior-point method from the previous solution moved slightly inside
  ///     the objects, with the previous multipliers and a small barrier.
  /// result.iterations counts the Newton steps of both stages.
  DistanceReport distance_warm(const Object& a, const Pose& pose_a, const Object& b, const Pose& pose_b);

  /// Multipliers of the last solve, one per part (A's parts, then B's), in world units: at a
  /// separated answer 2 (x - y) + sum_A lambda_k grad c_k(x) = 0 with c_k(x) the part's value at
  /// the world point x (likewise for y), the KKT condition tests check independently.
  std::span<const double> multipliers() const noexcept { return multipliers_; }
  /// The epigraph terms of the last solve when it was reformulated (empty otherwise).
  std::span<const EpigraphTerm> epigraph_terms() const noexcept { return epigraph_; }
  /// Forgets the warm start.
  void clear_warm_start() noexcept { warm_valid_ = false; }
  const IpmOptions& options() const noexcept { return options_; }

 private:
  DistanceReport run(const Object& a, const Pose& pose_a, const Object& b, const Pose& pose_b, bool warm);
  /// Newton polish (see distance_warm) from z_start (normalised frame of run(): origin, scale,
  /// with constraints_ built) and normalised multipliers lambda_start (one per part): true and
  /// `report` filled when its answer is certified by the separating plane; false otherwise,
  /// after `steps` Newton steps.
  bool polish(const Object& a, const Pose& pose_a, const Object& b, const Pose& pose_b, const Vec3& origin,
              double scale, const Eigen::Matrix<double, 6, 1>& z_start, std::span<const double> lambda_start,
              DistanceReport& report, int& steps);
  /// Saves the answer (world points x on A, y on B; multipliers_; the barrier it ended at) as
  /// the next distance_warm's start, in each object's frame so that a new pose moves it along.
  void remember_warm_start(const Pose& pose_a, const Vec3& x, const Pose& pose_b, const Vec3& y, double barrier);
  /// The power-cone reformulation (cold start from the interior points), see above, within
  /// `max_iterations` (what the query's budget has left).
  DistanceReport run_reformulated(const Object& a, const Pose& pose_a, const Object& b, const Pose& pose_b,
                                  int max_iterations);

  IpmOptions options_;
  Workspace<6> ws_;
  std::vector<Constraint<6>> constraints_;
  Workspace<12> ws12_;
  std::vector<Constraint<12>> constraints12_;
  std::vector<EpigraphTerm> epigraph_;
  std::array<double, 12> exponents_{};
  std::vector<double> multipliers_;
  std::vector<double> plane_multipliers_;  // scratch of the separating-plane checks (world units)
  std::vector<double> warm_lambda_;
  std::vector<double> polish_lambda_;  // the polish's starting multipliers (normalised)
  // Warm start: the last points in each object's frame, multipliers (world units), barrier.
  bool warm_valid_ = false;
  Vec3 warm_a_ = nan_vec3();
  Vec3 warm_b_ = nan_vec3();
  double warm_mu_ = kNaN;
};

/// Relative tolerance (of the query scale) of the separating-plane certificate.
inline constexpr double kIpmSupportGapRelative = 1e-10;

/// A lower bound on the distance from an answer (x in A, y in B, world) and its multipliers (world
/// units, A's parts then B's): with n = (y - x) / |y - x|, distance >= min_B n.b - max_A n.a.
/// Each side's support is bounded by the superquadric conjugate (a single-part superquadric
/// object: exact to rounding, whatever the exponents) or else by that side's Lagrangian at its
/// point (tight when its KKT residual is). O(#parts) plus ~60 bisection steps per superquadric.
double support_lower_bound(const Object& a, const Pose& pose_a, const Object& b, const Pose& pose_b,
                           const Vec3& x, const Vec3& y, std::span<const double> multipliers);

/// The same bound for a given unit normal n (world, from A towards B): a lower bound of
/// min_B n.b - max_A n.a, negative when the plane does not separate. x in A and y in B are the
/// points whose KKT data bound the supports of objects that are not a single superquadric, with
/// nu (A's parts then B's) the multipliers of max n.a over A and of max -n.b over B there; any
/// nu >= 0 gives a valid bound, tight when n = sum nu_k grad c_k holds at the points.
double plane_separation(const Object& a, const Pose& pose_a, const Object& b, const Pose& pose_b, const Vec3& n,
                        const Vec3& x, const Vec3& y, std::span<const double> nu);

/// Power terms with exponents below this are carried by epigraph variables in the reformulated
/// problem: below 2 the curvature of |w|^n is unbounded at 0, below 3 it is not Lipschitz there
/// (it vanishes like |w|^(n-2)), and both slow Newton's method near w = 0.
inline constexpr double kIpmReformulateBelow = 3;

/// True when some part of the object has a power term with exponent below kIpmReformulateBelow
/// (superquadric coordinate or hyperquadric term): the pairs the reformulation applies to.
bool has_power_terms(const Object& object);

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
