// SPDX-License-Identifier: MIT
// CGAL Polytope_distance_d with an exact number type, rounded to double at the end.
#ifdef PROXIMA_HAVE_CGAL

#include "oracles/cgal_polytope_distance.hpp"

#include "oracles/exact_number.hpp"

#include <CGAL/Cartesian.h>
#include <CGAL/Gmpzf.h>
#include <CGAL/Polytope_distance_d.h>
#include <CGAL/Polytope_distance_d_traits_3.h>

#include <cmath>
#include <stdexcept>
#include <vector>

namespace proxima::oracles {
namespace {

// Cartesian<double> points are read coordinate by coordinate into the QP as exact Gmpzf values
// (every double is a Gmpzf), so nothing is rounded before the answer.
using QpKernel = CGAL::Cartesian<double>;
using QpPoint = QpKernel::Point_3;
using Traits = CGAL::Polytope_distance_d_traits_3<QpKernel, CGAL::Gmpzf, double>;
using PolytopeDistance = CGAL::Polytope_distance_d<Traits>;

std::vector<QpPoint> to_qp_points(std::span<const Vec3> points, const char* which) {
  if (points.empty()) {
    throw std::invalid_argument(std::string("cgal_polytope_distance: empty ") + which);
  }
  std::vector<QpPoint> out;
  out.reserve(points.size());
  for (const Vec3& p : points) {
    if (!p.allFinite()) {
      throw std::invalid_argument(std::string("cgal_polytope_distance: non-finite point in ") + which);
    }
    out.emplace_back(p.x(), p.y(), p.z());
  }
  return out;
}

void set_from_gmpzf(detail::Rational& q, const CGAL::Gmpzf& value) {
  detail::set_scaled(q, value.man(), value.exp());
}

// Realizing point: coordinates c[0..2] over the common denominator c[3].
template <class It>
Vec3 realizing_point(It begin, It end) {
  std::vector<CGAL::Gmpzf> c(begin, end);
  detail::Rational den;
  set_from_gmpzf(den, c[3]);
  Vec3 p;
  for (int i = 0; i < 3; ++i) {
    detail::Rational q;
    set_from_gmpzf(q, c[static_cast<std::size_t>(i)]);
    mpq_div(q.get(), q.get(), den.get());
    p[i] = detail::round_to_double(q);
  }
  return p;
}

}  // namespace

ExactDistance cgal_polytope_distance(std::span<const Vec3> points_a, std::span<const Vec3> points_b) {
  const std::vector<QpPoint> pa = to_qp_points(points_a, "points_a");
  const std::vector<QpPoint> pb = to_qp_points(points_b, "points_b");
  const PolytopeDistance solver(pa.begin(), pa.end(), pb.begin(), pb.end());

  detail::Rational squared;
  detail::Rational den;
  set_from_gmpzf(squared, solver.squared_distance_numerator());
  set_from_gmpzf(den, solver.squared_distance_denominator());
  mpq_div(squared.get(), squared.get(), den.get());

  ExactDistance out;
  out.intersect = mpq_sgn(squared.get()) == 0;
  out.squared_distance = detail::round_to_double(squared);
  out.distance = detail::round_sqrt_to_double(squared);
  out.point_a = realizing_point(solver.realizing_point_p_coordinates_begin(),
                                solver.realizing_point_p_coordinates_end());
  out.point_b = realizing_point(solver.realizing_point_q_coordinates_begin(),
                                solver.realizing_point_q_coordinates_end());
  return out;
}

ExactDistance cgal_point_polytope_distance(const Vec3& point, std::span<const Vec3> points) {
  const Vec3 single[1] = {point};
  return cgal_polytope_distance(std::span<const Vec3>(single, 1), points);
}

}  // namespace proxima::oracles

#endif  // PROXIMA_HAVE_CGAL
