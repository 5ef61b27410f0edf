// SPDX-License-Identifier: MIT
#include <proxima/lp/contains.hpp>

#include <proxima/lp/intersect.hpp>

#include "lp/common.hpp"

#include <limits>

namespace proxima::lp {

LpContainsResult contains(const PointsRef& a, const PointsRef& b, LpWorkspace& ws, const LpOptions& options) {
  const int n = detail::validate_pair(a, "points_a", b, "points_b");
  LpContainsResult r;
  r.separating_normal = Eigen::VectorXd::Constant(n, kNaN);
  r.converged = true;
  if (a.cols() == 0) {
    r.contains = true;
    return r;
  }
  if (b.cols() == 0) {
    r.outside_vertex = 0;
    r.points_checked = 1;
    r.separating_normal = Eigen::VectorXd::Unit(n, 0);
    r.separating_offset = -std::numeric_limits<double>::infinity();
    r.margin = std::numeric_limits<double>::infinity();
    return r;
  }
  for (Eigen::Index i = 0; i < a.cols(); ++i) {
    const LpIntersectResult p = intersect(a.col(i), b, ws, options);
    ++r.points_checked;
    r.iterations += p.iterations;
    if (!p.converged) {
      r.converged = false;
      r.status = p.status;
      r.detail = p.detail;
      return r;
    }
    if (!p.intersect) {
      // intersect's normal points from the point towards B; flip it to point out of B.
      r.outside_vertex = static_cast<int>(i);
      r.separating_normal = -p.separating_normal;
      r.separating_offset = -p.separating_offset;
      r.margin = p.margin;
      return r;
    }
  }
  r.contains = true;
  return r;
}

LpContainsResult contains(const PointsRef& a, const PointsRef& b, const LpOptions& options) {
  LpWorkspace ws;
  return contains(a, b, ws, options);
}

}  // namespace proxima::lp
