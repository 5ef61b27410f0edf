// SPDX-License-Identifier: MIT
// The polytope distance as an exact quadratic program solved by CGAL's QP solver (Gmpzf).
//
// Variables: convex weights lambda_i >= 0 of A's points, mu_j >= 0 of B's points, and the free
// difference vector y (3 entries). Constraints: sum lambda_i a_i - sum mu_j b_j - y = 0,
// sum lambda = 1, sum mu = 1. Objective: y.y. (CGAL's own Polytope_distance_d wraps the same
// problem, but its fixed pricing strategy did not terminate on a random 32 + 32 point case of
// polytope_intersect_test; stating the program here lets us choose Bland's rule.)
#ifdef PROXIMA_HAVE_CGAL

#include "oracles/cgal_polytope_distance.hpp"

#include "oracles/exact_number.hpp"

#include <CGAL/Gmpzf.h>
#include <CGAL/QP_functions.h>
#include <CGAL/QP_models.h>

#include <cmath>
#include <stdexcept>
#include <vector>

namespace proxima::oracles {
namespace {

using Program = CGAL::Quadratic_program<double>;
using Solution = CGAL::Quadratic_program_solution<CGAL::Gmpzf>;

// Literal messages only: GCC 12 flags string concatenation here with a bogus -Wstringop-overflow.
void check_points(std::span<const Vec3> points) {
  if (points.empty()) throw std::invalid_argument("cgal_polytope_distance: empty point set");
  for (const Vec3& p : points) {
    if (!p.allFinite()) throw std::invalid_argument("cgal_polytope_distance: non-finite point");
  }
}

void set_from_gmpzf(detail::Rational& q, const CGAL::Gmpzf& value) {
  detail::set_scaled(q, value.man(), value.exp());
}

// sum_i w_i p_i / den over the given variable range, each coordinate rounded to nearest.
Vec3 combination(const std::vector<CGAL::Gmpzf>& numerators, std::size_t first, std::span<const Vec3> points,
                 const detail::Rational& den) {
  Vec3 out;
  for (int k = 0; k < 3; ++k) {
    detail::Rational sum;
    for (std::size_t i = 0; i < points.size(); ++i) {
      const CGAL::Gmpzf& w = numerators[first + i];
      if (CGAL::is_zero(w)) continue;
      detail::Rational term;
      set_from_gmpzf(term, w * CGAL::Gmpzf(points[i][k]));
      mpq_add(sum.get(), sum.get(), term.get());
    }
    mpq_div(sum.get(), sum.get(), den.get());
    out[k] = detail::round_to_double(sum);
  }
  return out;
}

}  // namespace

ExactDistance cgal_polytope_distance(std::span<const Vec3> points_a, std::span<const Vec3> points_b) {
  check_points(points_a);
  check_points(points_b);
  const int n = static_cast<int>(points_a.size());
  const int m = static_cast<int>(points_b.size());
  const int y0 = n + m;  // index of the first difference variable
  // Rows 0..2: the difference; row 3: sum lambda = 1; row 4: sum mu = 1. Default bounds x >= 0.
  Program qp(CGAL::EQUAL, true, 0, false, 0);
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < 3; ++k) qp.set_a(i, k, points_a[static_cast<std::size_t>(i)][k]);
    qp.set_a(i, 3, 1);
  }
  for (int j = 0; j < m; ++j) {
    for (int k = 0; k < 3; ++k) qp.set_a(n + j, k, -points_b[static_cast<std::size_t>(j)][k]);
    qp.set_a(n + j, 4, 1);
  }
  for (int k = 0; k < 3; ++k) {
    qp.set_a(y0 + k, k, -1);
    qp.set_l(y0 + k, false);
    qp.set_u(y0 + k, false);
    qp.set_d(y0 + k, y0 + k, 2);  // CGAL takes 2D: objective y.y
    qp.set_b(k, 0);
  }
  qp.set_b(3, 1);
  qp.set_b(4, 1);
  // Bland's rule: the nasty cases (duplicate and coplanar points, a witness on a face) make the
  // program degenerate, and the default Dantzig pricing did not terminate on one of them.
  CGAL::Quadratic_program_options options;
  options.set_pricing_strategy(CGAL::QP_BLAND);
  const Solution s = CGAL::solve_quadratic_program(qp, CGAL::Gmpzf(), options);
  if (!s.is_optimal()) throw std::logic_error("cgal_polytope_distance: QP not solved to optimality");

  detail::Rational squared;
  detail::Rational den;
  set_from_gmpzf(squared, s.objective_value_numerator());
  set_from_gmpzf(den, s.objective_value_denominator());
  mpq_div(squared.get(), squared.get(), den.get());

  ExactDistance out;
  out.intersect = mpq_sgn(squared.get()) == 0;
  out.squared_distance = detail::round_to_double(squared);
  out.distance = detail::round_sqrt_to_double(squared);
  const std::vector<CGAL::Gmpzf> numerators(s.variable_numerators_begin(), s.variable_numerators_end());
  detail::Rational var_den;
  set_from_gmpzf(var_den, s.variables_common_denominator());
  out.point_a = combination(numerators, 0, points_a, var_den);
  out.point_b = combination(numerators, static_cast<std::size_t>(n), points_b, var_den);
  return out;
}

ExactDistance cgal_point_polytope_distance(const Vec3& point, std::span<const Vec3> points) {
  const Vec3 single[1] = {point};
  return cgal_polytope_distance(std::span<const Vec3>(single, 1), points);
}

}  // namespace proxima::oracles

#endif  // PROXIMA_HAVE_CGAL
