// SPDX-License-Identifier: MIT
// Options of the GJK and EPA queries, and the explicit warm-start state (STYLE.md points 5, 10).
// Every default comes from core/tolerance.hpp; the Options structs are plain aggregates so a
// caller can override one field: `gjk::distance(a, pa, b, pb, {.max_iterations = 16})`.
#pragma once

#include <proxima/core/tolerance.hpp>
#include <proxima/core/types.hpp>

#include <array>

namespace proxima::gjk {

/// Options of gjk::distance and gjk::intersect.
struct GjkOptions {
  /// Stop when the Frank-Wolfe duality gap |v|^2 - |v| * lower_bound falls below this times
  /// |v|^2 (van den Bergen's relative test). Unitless.
  double relative_tolerance = kGjkRelativeTolerance;
  /// ... or below this times scale^2; also: |v|^2 below this times scale^2 is contact. Unitless,
  /// relative to scale^2 (scale = both bounding-sphere radii + their centres' distance).
  double absolute_tolerance = kGjkAbsoluteTolerance;
  /// Iteration cap (one support call per iteration); reaching it gives Status::iteration_limit.
  int max_iterations = kGjkMaxIterations;
  /// Nesterov-accelerated support directions (Montaut et al., "Collision detection accelerated:
  /// an optimization perspective", RSS 2022). Pays off on smooth, non-rounded shapes (ellipsoids,
  /// superquadrics) where plain GJK converges linearly; the result certificate is the same.
  bool nesterov = false;
  /// gjk::distance answers sphere-sphere, sphere-box, sphere-capsule and capsule-capsule pairs by
  /// their exact closed forms (gjk/closed_form.hpp) instead of GJK. Off: GJK for every pair.
  bool closed_forms = true;
  /// gjk::distance answers ellipsoid-ellipsoid and ellipsoid-sphere pairs by Newton's method on
  /// the support functions (gjk/ellipsoid_newton.hpp: same certificate and tolerances, GJK when it
  /// does not certify). Only when max_iterations >= kEllipsoidNewtonMaxIterations: under a smaller
  /// cap these pairs run GJK as with the option off. Off: GJK for those pairs.
  bool ellipsoid_newton = true;
  /// gjk::distance answers Box-Box pairs by the separating-axis test and the closest points of
  /// the features it names (gjk/box_box.hpp: same certificate and tolerances, GJK when it does
  /// not certify). Only when max_iterations >= kBoxBoxMinIterations: under a smaller cap these
  /// pairs run GJK as with the option off. Off: GJK for those pairs.
  bool box_box = true;
  /// gjk::distance polishes Cylinder and Cone pairs (any combination) that GJK has proven
  /// separated but not settled within kRevolutionPolishAfter iterations by Newton's method on the
  /// features holding the closest points (gjk/revolution_polish.hpp: same certificate and
  /// tolerances, GJK goes on when it does not certify); before GJK it tries a cone's apex and
  /// the other solid's nearest point to it, with the same certificate (revolution_apex_step).
  /// Only when max_iterations > kRevolutionPolishAfter. Off: GJK alone for those pairs.
  bool revolution_polish = true;
  /// gjk::distance and gjk::intersect first look for a common point of Cylinder and Cone pairs
  /// (any combination) between their axes (gjk/revolution_overlap.hpp: closed form, no loop);
  /// when they find one the pair overlaps (that point is distance()'s common point) without GJK.
  /// A cold query also tests its first GJK support pair, taken in the direction between the axes'
  /// closest points (a point of one surface strictly inside the other solid is a common point).
  /// When they find none, GJK decides, and a cold run starts from that support pair; with the
  /// polish (revolution_polish), gjk::distance also tests GJK's witness points for a common point
  /// while no support plane has shown the pair apart (RevolutionWitnessProbe). Off: GJK decides
  /// every pair from its usual start.
  bool revolution_overlap = true;
  /// gjk::distance and gjk::intersect, on a cold start with two solids that have an interior test
  /// (Polytope, Box, Ellipsoid, Cylinder, Cone; cylinder / cone pairs have revolution_overlap
  /// instead), test GJK's first support pair (made in the run's first direction) for a common
  /// point: a support point of one strictly inside the other solid (for a Polytope,
  /// Polytope::strictly_contains) answers the overlap without GJK (that point is distance()'s
  /// common point; gjk/first_support_overlap.hpp). Otherwise GJK runs from that support point, the
  /// run it would make without the test. Off: GJK decides every pair.
  bool first_support_overlap = true;
  /// With first_support_overlap, on two Polytopes of at least kNeighbourSupportMinVertices (12)
  /// vertices each, in distance() only: when the first support pair has no common point, the
  /// second and third farthest vertices of each body along the same direction (found among the
  /// support vertex's hull neighbours) are tested inside the other body the same way
  /// (gjk/first_support_overlap.hpp, neighbour_support_common_point). Off: the first pair alone.
  bool neighbour_support_overlap = true;
  /// With first_support_overlap, on two Polytopes, in distance() only: when neither the first
  /// support pair nor (neighbour_support_overlap) the next farthest vertices give a common point
  /// and the first support plane does not show the pair apart, the hull edges at each support
  /// vertex are clipped against the other body's triangle planes (Polytope::strictly_crossed_by);
  /// a point of an edge strictly inside the other body answers the overlap
  /// (gjk/first_support_overlap.hpp, support_edges_common_point). Off: GJK decides those pairs.
  bool support_edge_overlap = true;
};

/// Options of gjk::penetration (EPA). The GJK phase that precedes EPA uses `gjk`.
struct EpaOptions {
  /// Stop when the support distance along the closest face's normal exceeds the face distance by
  /// less than this times the face distance ... (unitless)
  double relative_tolerance = kEpaRelativeTolerance;
  /// ... plus this times scale (unitless, relative to scale).
  double absolute_tolerance = kEpaAbsoluteTolerance;
  /// Iteration cap (one support call and one hull update each): Status::iteration_limit.
  int max_iterations = kEpaMaxIterations;
  /// Options of the GJK run that decides overlap and hands its simplex to EPA.
  GjkOptions gjk{};
};

/// Warm-start state of GJK, kept by the caller (or by gjk::Pair) between queries on the same two
/// shapes. Points are stored in each shape's OWN local frame, so they stay valid points of the
/// shapes whatever the poses become; GJK re-places them with the new relative pose and starts
/// from their closest point instead of from scratch. A default-constructed WarmStart is "cold".
struct WarmStart {
  /// Support points of A (A's frame) and of B (B's frame) of the last simplex; `size` of them.
  std::array<Vec3, 4> point_a{};
  std::array<Vec3, 4> point_b{};
  int size = 0;
  /// Hill-climbing hints (vertex indices) of polytopes; -1 = none.
  int hint_a = -1;
  int hint_b = -1;
  /// Optional first search direction in the WORLD frame, used when size == 0: a guess of the
  /// normal from A towards B (e.g. the previous query's normal). NaN = none.
  Vec3 direction = nan_vec3();

  /// Forget everything (the next query starts cold).
  void reset() {
    size = 0;
    hint_a = -1;
    hint_b = -1;
    direction = nan_vec3();
  }
};

}  // namespace proxima::gjk
