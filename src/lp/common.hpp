// SPDX-License-Identifier: MIT
// Private helpers of the lp queries: argument checks and the normalisation of two point sets
// into [-1, 1]^n (translate by the centre of their common bounding box, divide by its
// half-extent), which makes every tolerance of the solver relative to the sets' size.
#pragma once

#include <proxima/lp/workspace.hpp>

#include <proxima/core/tolerance.hpp>

#include <Eigen/Core>

#include <cmath>

namespace proxima::lp::detail {

/// Validates two point sets (names as the caller spells them) and returns the dimension n >= 1.
/// Throws InvalidInput for n = 0, mismatched dimensions or NaN/Inf coordinates.
int validate_pair(const PointsRef& a, const char* name_a, const PointsRef& b, const char* name_b);
/// The dimension checks of validate_pair alone (no pass over the coordinates).
int pair_dimension(const PointsRef& a, const char* name_a, const PointsRef& b, const char* name_b);

/// Centre and half-extent (inf-norm) of the bounding box of the union of two non-empty sets.
struct Frame {
  Eigen::VectorXd center;
  double half_extent = 0;
};
Frame common_frame(const PointsRef& a, const PointsRef& b);

/// Writes the normalised columns [(a_i - c) / h; ...] of `points` into rows 0..n-1 of `block`,
/// negated when `negate` is set.
void write_normalised(const PointsRef& points, const Frame& frame, bool negate, Eigen::Ref<Eigen::MatrixXd> block);

/// The caller's simplex options with equilibration off (the data is normalised already).
inline SimplexOptions unscaled(SimplexOptions options) {
  options.equilibrate = false;
  return options;
}

/// Clamps negative entries to 0 and rescales to sum 1. Returns false if the sum is not positive.
bool make_convex(Eigen::Ref<Eigen::VectorXd> weights);

/// Smallest and largest of normal . p over the columns p.
double min_dot(const PointsRef& points, const Eigen::VectorXd& normal);
/// Scales `v` to unit length, first by its largest magnitude so that neither the squares of a
/// tiny ray (a Farkas ray in input units near 1e-162) underflow nor those of a huge one
/// overflow. Returns false, leaving `v` unchanged, for a zero or non-finite v.
bool normalise_direction(Eigen::VectorXd& v);
double max_dot(const PointsRef& points, const Eigen::VectorXd& normal);

/// The simplex solvers' guard against cycling through rounding (kLpStallPivots): fed the phase's
/// objective at each new basis, it reports when kLpStallPivots of them in a row have not improved
/// on the best one by more than kLpStallImprovement * (1 + |best|). The first value fed after
/// construction or restart() is the reference.
class StallCounter {
 public:
  void restart() { active_ = false; }
  bool active() const { return active_; }
  /// Records `objective`; true when the run has stalled.
  bool stalled(double objective) {
    if (!active_ || objective < best_ - kLpStallImprovement * (1 + std::abs(best_))) {
      best_ = objective;
      count_ = 0;
      active_ = true;
      return false;
    }
    return ++count_ >= kLpStallPivots;
  }

 private:
  double best_ = 0;
  int count_ = 0;
  bool active_ = false;
};

}  // namespace proxima::lp::detail
