// SPDX-License-Identifier: MIT
// Exact distance between the convex hulls of two point sets: CGAL's Polytope_distance_d solves
// the quadratic program with an exact number type (Gmpzf represents every double exactly), so
// the squared distance is exact up to the final conversion to double. Compiled only when CGAL
// is found.
#include "../common.hpp"

#include <CGAL/Cartesian.h>
#include <CGAL/Gmpzf.h>
#include <CGAL/Polytope_distance_d.h>
#include <CGAL/Polytope_distance_d_traits_3.h>
#include <CGAL/Quotient.h>

#include <cmath>

namespace proxima::bench {

bool exact_polytope_distance(const std::vector<Vec3>& a, const std::vector<Vec3>& b, double& distance) {
  using Kernel = CGAL::Cartesian<double>;
  using Point = Kernel::Point_3;
  using Traits = CGAL::Polytope_distance_d_traits_3<Kernel, CGAL::Gmpzf, double>;
  std::vector<Point> pa;
  std::vector<Point> pb;
  pa.reserve(a.size());
  pb.reserve(b.size());
  for (const Vec3& v : a) pa.emplace_back(v.x(), v.y(), v.z());
  for (const Vec3& v : b) pb.emplace_back(v.x(), v.y(), v.z());
  CGAL::Polytope_distance_d<Traits> pd(pa.begin(), pa.end(), pb.begin(), pb.end());
  const CGAL::Quotient<CGAL::Gmpzf> squared(pd.squared_distance_numerator(), pd.squared_distance_denominator());
  distance = std::sqrt(CGAL::to_double(squared));
  return true;
}

}  // namespace proxima::bench
