// SPDX-License-Identifier: MIT
// Reference answers and the rule that judges an implementation's answer against them.
//
// Polytopes and boxes: intersect and depth from the facets of the Minkowski difference
// (minkowski.hpp), distance of separated pairs from CGAL's Polytope_distance_d with an exact
// number type (when CGAL is found). Sphere-box and capsule-capsule: closed forms. Smooth pairs
// without a closed form (cylinder-cone, ellipsoid-ellipsoid): a certified bracket built from the
// implementations' own witness points (see certify_smooth_distance), else no reference.
#pragma once

#include "../common.hpp"

namespace proxima::bench {

/// Distance answers within kDistanceTolerance * max(scale, distance) of the reference are right
/// (issue 2: 1e-6 relative).
inline constexpr double kDistanceTolerance = 1e-6;
/// Depth answers within kDepthTolerance * scale of the reference are right (issue 2: 1e-7).
inline constexpr double kDepthTolerance = 1e-7;
/// Pairs within kTouchingBand * scale of touching accept either intersect answer (issue 2: 1e-9).
inline constexpr double kTouchingBand = 1e-9;

/// Fills set.refs (one per pair). Polytope/box distances need CGAL; `with_distance` false skips
/// them (the intersect and EPA suites do not need them). Returns the seconds it took.
double compute_references(CaseSet& set, bool with_distance);

/// Whether this build has the exact CGAL distance.
bool have_exact_distance();

/// Self-check of the facet enumeration (minkowski.hpp) on the hull bodies of `set` with at most
/// `max_vertices` vertices each (the first `max_pairs` such pairs): qhull's hull of all pairwise vertex differences gives the facets
/// of the Minkowski difference directly; returns the largest |margin difference| over the pairs
/// (length units) and counts the pairs compared and the intersect classes that disagree.
struct SelfCheck {
  int pairs = 0;
  int class_mismatches = 0;
  double max_deviation = 0;
};
SelfCheck self_check_facets(const CaseSet& set, std::size_t max_vertices, int max_pairs);

enum class Verdict { right, wrong, unknown };

Verdict judge_intersect(const Reference& ref, bool answer);
Verdict judge_distance(const Reference& ref, const DistanceAnswer& answer, double scale);
Verdict judge_depth(const Reference& ref, const DepthAnswer& answer, double scale);

/// For pairs whose distance reference is unknown (smooth shapes): builds a certified bracket
/// [lower, upper] from witness answers. upper = min |x - y| over witness pairs with x in A and
/// y in B (checked by membership); lower = max over their directions u of the separation
/// -h_A(u) - h_B(-u) (any u gives a valid lower bound). When upper - lower is within the
/// distance tolerance the reference becomes known. Returns the number of pairs certified.
int certify_smooth_distance(CaseSet& set, const std::vector<std::vector<DistanceAnswer>>& answers);

}  // namespace proxima::bench
