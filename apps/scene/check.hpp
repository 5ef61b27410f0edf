// SPDX-License-Identifier: MIT
// Private to proxima_scene: `proxima run --check`. Answers a query a second time with an
// independent algorithm of the library and says whether the two answers agree (docs/cli.md):
//   distance      gjk <-> ipm on shapes with both forms (spheres, ellipsoids, superquadrics);
//                 gjk -> lp 1-norm / infinity-norm bounds on two polytopes (d_inf <= d_2 <= d_1)
//   intersect     gjk -> lp on two polytopes; gjk -> ipm distance on implicit-capable shapes
//   penetration   gjk+epa -> gjk: B moved by (depth +/- tol) * normal must just separate / touch
//   lp_intersect  lp -> gjk on 3-D point sets (polytope shapes or 3-D point lists)
//   toi_translate gjk-advance -> screw exact mode on polytopes (translation as a screw)
//   screw         glide exact -> convex conservative advancement (ccd::toi_screw) on polytopes
//   interval_translate ipm -> gjk distance at the reported min_time on convex shapes
// Anything else has no second algorithm here ("none", with the reason).
#pragma once

#include "scene/answers.hpp"

#include <string>

namespace proxima::scene {

/// Agreement band of --check, relative to the query's scale (the two bounding radii plus the
/// distance between the bounding centres): two lengths agree when they differ by at most
/// tolerance * scale; two times of contact when they differ by at most tolerance * t_max. Far
/// looser than any solver tolerance of core/tolerance.hpp (those bound each algorithm's own
/// error, 1e-9 and below), so a disagreement means a wrong answer, not rounding.
inline constexpr double kDefaultCheckTolerance = 1e-6;

/// The verdict of one cross-check.
struct CheckReport {
  /// "agree", "disagree", or "none" (no second algorithm applies; `detail` says why).
  std::string verdict = "none";
  /// The second algorithm ("ipm", "lp", "gjk", "gjk-touch", "screw-exact", "gjk-advance-screw"),
  /// empty for "none".
  std::string method;
  /// What was compared, with both values, e.g. "distance gjk 1.25 vs ipm 1.25000000001".
  std::string detail;
};

/// Cross-checks `primary`, the answer of answer_query(input). Never throws: a second algorithm
/// that throws or does not converge gives "none" with the reason. `tolerance` > 0.
CheckReport cross_check(const QueryInput& input, const Answer& primary, double tolerance);

}  // namespace proxima::scene
