// SPDX-License-Identifier: MIT
// Exact-ish references from the Minkowski difference K = A - B of two placed bodies.
//
// With A's origin at t_a and B's at t_b, the bodies intersect iff c = t_b - t_a lies in
// K = R_a A (+) (-R_b B), and for c inside K the penetration depth is the distance from c to the
// boundary of K: min over unit n of (h_K(n) - n . c). For polytopes the minimum is attained at a
// facet normal of K, and every facet normal of K is a face normal of A, a negated face normal of
// B, or the cross product of an edge of A and an edge of B whose Gauss-map arcs cross (the
// Minkowski-face test). Enumerating those candidates gives depth and the intersect decision to
// rounding error: extra candidates can never lower the minimum (any unit n bounds it from above),
// so the only way to be wrong is to miss a facet, which the arc test does not do.
#pragma once

#include "../common.hpp"

#include <vector>

namespace proxima::bench {

/// A supporting half-space of K: K lies in {x : normal . x <= offset}, normal unit.
struct FacetPlane {
  Vec3 normal;
  double offset;
};

/// Every facet plane of K = R_a A (+) (-R_b B) for two polytope or box bodies (with hulls).
/// Cost O(F_a N_b + F_b N_a + E_a E_b).
std::vector<FacetPlane> minkowski_facets(const Body& a, const Mat3& ra, const Body& b, const Mat3& rb);

/// min over the facets of (offset - normal . c): > 0 is the penetration depth of a point c inside
/// K, < 0 certifies that c is outside (its magnitude is then a lower bound on the distance).
double facet_margin(const std::vector<FacetPlane>& facets, const Vec3& c);

/// Largest s with s * u in K (u unit): B's origin at t_a + s * u touches A. Exact via facets for
/// hull bodies; for smooth bodies the minimum of h_K(n) / (n . u) over sampled and refined unit n
/// (an over-estimate by a relative 1e-6 or so: good enough to place pairs, not a reference).
double touching_distance(const Body& a, const Mat3& ra, const Body& b, const Mat3& rb, const Vec3& u);

}  // namespace proxima::bench
