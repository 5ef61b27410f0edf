// SPDX-License-Identifier: MIT
#include "lp/common.hpp"

#include <proxima/core/error.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace proxima::lp {

void LpOptions::validate() const {
  simplex.validate();
  if (!(contact_tolerance > 0) || !std::isfinite(contact_tolerance)) {
    throw InvalidInput("contact_tolerance", "must be finite and > 0, got " + format_number(contact_tolerance));
  }
  if (!(max_matrix_entries > 0)) {
    throw InvalidInput("max_matrix_entries", "must be > 0 (+inf for no bound), got " + format_number(max_matrix_entries));
  }
}

Eigen::Block<Eigen::MatrixXd> LpWorkspace::matrix(int rows, int cols) {
  if (a_.rows() < rows || a_.cols() < cols) {
    a_.resize(std::max<Eigen::Index>(rows, a_.rows()), std::max<Eigen::Index>(cols, a_.cols()));
  }
  return a_.topLeftCorner(rows, cols);
}

Eigen::VectorXd::SegmentReturnType LpWorkspace::rhs(int rows) {
  if (b_.size() < rows) b_.resize(rows);
  return b_.head(rows);
}

Eigen::VectorXd::SegmentReturnType LpWorkspace::costs(int cols) {
  if (c_.size() < cols) c_.resize(cols);
  return c_.head(cols);
}

namespace detail {

namespace {
void require_finite_points(const PointsRef& p, const char* name) {
  if (p.allFinite()) return;
  for (Eigen::Index j = 0; j < p.cols(); ++j) {
    for (Eigen::Index i = 0; i < p.rows(); ++i) {
      if (!std::isfinite(p(i, j))) {
        throw InvalidInput(std::string(name) + "[" + std::to_string(j) + "][" + std::to_string(i) + "]",
                           "must be finite, got " + format_number(p(i, j)));
      }
    }
  }
}
}  // namespace

int pair_dimension(const PointsRef& a, const char* name_a, const PointsRef& b, const char* name_b) {
  // A 0 x 0 matrix is an empty set of any dimension; otherwise the row count is the dimension.
  const bool a_free = a.rows() == 0 && a.cols() == 0;
  const bool b_free = b.rows() == 0 && b.cols() == 0;
  const Eigen::Index n = a_free ? b.rows() : a.rows();
  if (n == 0) {
    throw InvalidInput(a_free ? name_b : name_a, "dimension n (rows) must be >= 1, got 0");
  }
  if (!a_free && !b_free && a.rows() != b.rows()) {
    throw InvalidInput(name_b, "dimension " + std::to_string(b.rows()) + " differs from " + name_a + "'s " +
                                   std::to_string(a.rows()));
  }
  return static_cast<int>(n);
}

int validate_pair(const PointsRef& a, const char* name_a, const PointsRef& b, const char* name_b) {
  const int n = pair_dimension(a, name_a, b, name_b);
  require_finite_points(a, name_a);
  require_finite_points(b, name_b);
  return n;
}

Frame common_frame(const PointsRef& a, const PointsRef& b) {
  const Eigen::VectorXd lo = a.rowwise().minCoeff().cwiseMin(b.rowwise().minCoeff());
  const Eigen::VectorXd hi = a.rowwise().maxCoeff().cwiseMax(b.rowwise().maxCoeff());
  Frame f;
  // Halve before adding: (hi - lo) / 2 overflows to inf for finite coordinates near +-DBL_MAX,
  // and an infinite half-extent scales every point to 0 (fuzz_lp, corpus regress_lp_extent_overflow).
  f.center = lo / 2 + hi / 2;
  f.half_extent = (hi / 2 - lo / 2).maxCoeff();
  return f;
}

void write_normalised(const PointsRef& points, const Frame& frame, bool negate, Eigen::Ref<Eigen::MatrixXd> block) {
  const double s = (negate ? -1.0 : 1.0) / frame.half_extent;
  block = ((points.colwise() - frame.center) * s);
}

bool make_convex(Eigen::Ref<Eigen::VectorXd> weights) {
  weights = weights.cwiseMax(0.0);
  const double sum = weights.sum();
  if (!(sum > 0)) return false;
  weights /= sum;
  return true;
}

namespace {

/// normal . p summed in index order, as lp::intersect's certificate loops (intersect.cpp,
/// fast_answer) sum it: with coordinates of very different magnitudes (1e150 next to 1) the sum
/// is decided by its order, and the plane a query reports must pass check_separation, which
/// uses these functions, bit for bit (fuzz_lp finding: Eigen's pairwise order disagreed).
double ordered_dot(const double* p, const Eigen::VectorXd& normal) {
  double dot = 0;
  for (Eigen::Index i = 0; i < normal.size(); ++i) dot += normal[i] * p[i];
  return dot;
}

}  // namespace

bool normalise_direction(Eigen::VectorXd& v) {
  const double largest = v.lpNorm<Eigen::Infinity>();
  if (!(largest > 0) || !std::isfinite(largest)) return false;
  v /= largest;  // divided: 1 / largest overflows for a subnormal largest
  v /= v.norm();  // in [1, sqrt(n)]
  return true;
}

double min_dot(const PointsRef& points, const Eigen::VectorXd& normal) {
  double low = std::numeric_limits<double>::infinity();
  for (Eigen::Index j = 0; j < points.cols(); ++j) {
    low = std::min(low, ordered_dot(points.data() + j * points.outerStride(), normal));
  }
  return low;
}

double max_dot(const PointsRef& points, const Eigen::VectorXd& normal) {
  double high = -std::numeric_limits<double>::infinity();
  for (Eigen::Index j = 0; j < points.cols(); ++j) {
    high = std::max(high, ordered_dot(points.data() + j * points.outerStride(), normal));
  }
  return high;
}

}  // namespace detail
}  // namespace proxima::lp
