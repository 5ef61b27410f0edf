// SPDX-License-Identifier: MIT
// Penetration depth of two convex shapes: GJK decides overlap, then the Expanding Polytope
// Algorithm (seed 002, section 5; seed 003, section 3 and algorithm 3) finds the point of the
// Minkowski difference's boundary nearest the origin. Computed in A's local frame, returned in the
// world frame.
#pragma once

#include <proxima/gjk/distance.hpp>
#include <proxima/gjk/epa_hull.hpp>
#include <proxima/shapes/polytope.hpp>

#include <array>
#include <cmath>
#include <limits>
#include <type_traits>

namespace proxima::gjk {

namespace detail {

/// EPA's answer on the cores, in A's frame.
struct EpaRun {
  double depth = kNaN;         // >= 0
  Vec3 normal = nan_vec3();    // unit; translating B by depth * normal separates the cores
  Witnesses witnesses;         // witnesses.a - witnesses.b == depth * normal (up to rounding)
  double gap = kNaN;           // smallest support distance seen - depth (>= 0; +inf if none)
  int iterations = 0;
  Status status = Status::converged;
  Detail detail = Detail::none;
};

/// Barycentric weights of p, a point of the plane of triangle w, from the signed areas of the
/// sub-triangles measured along `normal`; `area` receives the whole triangle's (doubled, along
/// normal; not positive for a sliver or a triangle facing away).
inline std::array<double, 3> plane_weights(const std::array<Vec3, 3>& w, const Vec3& normal, const Vec3& p,
                                           double& area) {
  area = normal.dot((w[1] - w[0]).cross(w[2] - w[0]));
  std::array<double, 3> lambda{};
  for (std::size_t i = 0; i < 3; ++i) lambda[i] = normal.dot((w[(i + 1) % 3] - p).cross(w[(i + 2) % 3] - p)) / area;
  return lambda;
}

/// The answer at plane distance `distance` along `normal` with witnesses weighted by `lambda` on
/// the corners of a face (negative or NaN weights clamped to 0, then normalised).
inline EpaRun answer_from_weights(const std::array<SupportPoint, 3>& corners, std::array<double, 3> lambda,
                                  const Vec3& normal, double distance) {
  double sum = 0;
  for (double& l : lambda) {
    l = l == l ? std::max(l, 0.0) : 0.0;
    sum += l;
  }
  if (!(sum > 0)) lambda = {1, 0, 0}, sum = 1;
  EpaRun r;
  r.witnesses = {Vec3::Zero(), Vec3::Zero()};
  for (std::size_t i = 0; i < 3; ++i) {
    r.witnesses.a += (lambda[i] / sum) * corners[i].a;
    r.witnesses.b += (lambda[i] / sum) * corners[i].b;
  }
  r.depth = std::max(0.0, distance);
  r.normal = normal;
  return r;
}

/// The answer from one face alone (corners, unit normal, plane distance): witnesses at the
/// origin's projection onto its plane, by barycentric weights clamped to the triangle.
inline EpaRun answer_from_triangle(const std::array<SupportPoint, 3>& corners, const Vec3& normal, double distance) {
  double area = 0;
  const std::array<double, 3> lambda =
      plane_weights({corners[0].w, corners[1].w, corners[2].w}, normal, normal * distance, area);
  return answer_from_weights(corners, lambda, normal, distance);
}

/// Answer from the nearest hull face: its plane distance and normal, and witnesses at the
/// origin's projection p on that plane. Coplanar neighbours share the plane (a box/box facet of the
/// Minkowski difference is split into several triangles) and p may lie in a neighbour rather than
/// in `best` itself, so the search walks across coplanar edges towards p first (regression:
/// epa_test.cpp BoxBoxMatchesSeparatingAxes). `plane_tolerance` (length) decides coplanarity.
template <class Hull>
EpaRun answer_from_face(const Hull& hull, int best, double plane_tolerance) {
  const EpaFace& top = hull.face(best);
  const Vec3 p = top.normal * top.distance;
  int f = best;
  std::array<double, 3> lambda{};
  for (int step = 0; step < hull.num_face_slots(); ++step) {
    const EpaFace& face = hull.face(f);
    std::array<Vec3, 3> w;
    for (std::size_t i = 0; i < 3; ++i) w[i] = hull.vertex(face.vertex[i]).w;
    double area = 0;
    lambda = plane_weights(w, top.normal, p, area);
    int worst = 0;
    for (int i = 1; i < 3; ++i) {
      if (lambda[static_cast<std::size_t>(i)] < lambda[static_cast<std::size_t>(worst)]) worst = i;
    }
    if (!(area > 0) || lambda[static_cast<std::size_t>(worst)] >= 0) break;
    // p is beyond the edge opposite `worst`: step over it if the neighbour is coplanar.
    const int g = face.adjacent[static_cast<std::size_t>((worst + 1) % 3)];
    const EpaFace& next = hull.face(g);
    if (!next.valid || next.normal.dot(top.normal) <= 0 || std::abs(next.normal.dot(p) - next.distance) > plane_tolerance) {
      break;
    }
    f = g;
  }
  const EpaFace& face = hull.face(f);
  const std::array<SupportPoint, 3> corners = {hull.vertex(face.vertex[0]), hull.vertex(face.vertex[1]),
                                               hull.vertex(face.vertex[2])};
  return answer_from_weights(corners, lambda, top.normal, top.distance);
}

/// Grows GJK's final simplex to a tetrahedron (seed 003, footnote 4) by support points in
/// directions that add a dimension. Returns the number of points reached (4 = success); on less
/// than 4 the Minkowski difference is flat to kEpaFlatTolerance and `flat_normal` is a unit
/// direction along which it has no thickness.
template <class Md>
int grow_to_tetrahedron(Md& md, const Simplex& start, double scale, std::array<SupportPoint, 4>& tet,
                        Vec3& flat_normal) {
  const double flat = kEpaFlatTolerance * scale;
  int n = 0;
  for (int i = 0; i < start.size; ++i) {
    const SupportPoint& p = start.points[static_cast<std::size_t>(i)];
    bool duplicate = false;
    for (int j = 0; j < n; ++j) duplicate = duplicate || (p.w - tet[static_cast<std::size_t>(j)].w).norm() <= flat;
    if (!duplicate) tet[static_cast<std::size_t>(n++)] = p;
  }
  flat_normal = Vec3::UnitX();
  if (n == 0) {
    tet[0] = md.support(Vec3::UnitX());
    n = 1;
  }
  if (n == 1) {
    for (int axis = 0; axis < 6 && n == 1; ++axis) {
      Vec3 d = Vec3::Zero();
      d[axis % 3] = axis < 3 ? 1 : -1;
      const SupportPoint p = md.support(d);
      if ((p.w - tet[0].w).norm() > flat) tet[static_cast<std::size_t>(n++)] = p;
    }
  }
  if (n == 2) {
    const Vec3 u = (tet[1].w - tet[0].w).normalized();
    int axis = 0;
    if (std::abs(u[1]) < std::abs(u[axis])) axis = 1;
    if (std::abs(u[2]) < std::abs(u[axis])) axis = 2;
    const Vec3 d1 = u.cross(Vec3::Unit(axis)).normalized();
    const Vec3 d2 = u.cross(d1);
    flat_normal = d1;
    double best = flat;
    const std::array<Vec3, 4> dirs = {d1, -d1, d2, -d2};
    for (const Vec3& d : dirs) {
      const SupportPoint p = md.support(d);
      const Vec3 r = p.w - tet[0].w;
      const double off_line = (r - u * u.dot(r)).norm();
      if (off_line > best) {
        best = off_line;
        tet[2] = p;
        n = 3;
      }
    }
  }
  if (n == 3) {
    const Vec3 normal = (tet[1].w - tet[0].w).cross(tet[2].w - tet[0].w).normalized();
    flat_normal = normal;
    double best = flat;
    for (const Vec3& d : {normal, Vec3(-normal)}) {
      const SupportPoint p = md.support(d);
      const double off_plane = std::abs(normal.dot(p.w - tet[0].w));
      if (off_plane > best) {
        best = off_plane;
        tet[3] = p;
        n = 4;
      }
    }
  }
  return n;
}

/// EPA on core(A) - core(B) (A's frame), starting from GJK's simplex, which must contain the
/// origin (up to GJK's contact tolerance). `hull` is the caller's workspace.
template <class Md, class Hull>
EpaRun run_epa(Md& md, const Simplex& start, double scale, const EpaOptions& options, Hull& hull) {
  std::array<SupportPoint, 4> tet;
  Vec3 flat_normal;
  if (grow_to_tetrahedron(md, start, scale, tet, flat_normal) < 4) {
    // A flat Minkowski difference has no interior: the origin is on its boundary, depth 0.
    EpaRun r;
    r.depth = 0;
    r.normal = flat_normal;
    Simplex s = start;
    const Vec3 v = reduce_simplex(s);
    r.witnesses = v == v ? simplex_witnesses(s) : Witnesses{tet[0].a, tet[0].b};
    r.gap = 0;  // exact: a flat difference has the origin on its boundary
    r.status = Status::converged;
    r.detail = Detail::touching;
    return r;
  }
  hull.reset_tetrahedron(tet, kGjkDegenerateSimplexTolerance * scale * scale);
  // Two bounds on the depth (the smallest h(n) = max over the difference of n . x, |n| = 1):
  //  - upper: every support distance n . s(n) is one, so the smallest seen is kept;
  //  - lower: the nearest face of the hull, while the hull is convex and inside the difference.
  // In exact arithmetic the nearest face's distance never decreases. In double precision a hull
  // of long thin faces (the side of a cylinder: many support points on two rims) can lose its
  // convexity after many expansions; its nearest face then drops, and the answers built from it
  // were wrong by up to half the depth (sphere inside a cylinder, tests/gjk/epa_curved_test.cpp).
  // So the loop stops at such a drop and answers from the best face seen, kept as its plane and
  // its vertex indices (the hull never removes a vertex, only faces).
  double upper = std::numeric_limits<double>::infinity();
  double lower = -std::numeric_limits<double>::infinity();
  std::array<int, 3> lower_vertices{};
  Vec3 lower_normal = nan_vec3();
  const auto tolerance = [&](double depth) {
    return options.relative_tolerance * std::max(depth, 0.0) + options.absolute_tolerance * scale;
  };
  int best = -1;
  Status status = Status::iteration_limit;
  Detail detail = Detail::none;
  int iterations = 0;
  bool hull_degraded = false;
  for (int k = 0; k < options.max_iterations; ++k) {
    best = hull.closest_face();
    if (best < 0) {
      status = Status::degenerate_input;
      detail = Detail::degenerate_simplex;
      break;
    }
    const EpaFace& face = hull.face(best);
    if (face.distance < lower - tolerance(lower)) {
      hull_degraded = true;
      status = Status::degenerate_input;
      detail = Detail::no_progress;
      break;
    }
    if (face.distance > lower) {
      lower = face.distance;
      lower_normal = face.normal;
      lower_vertices = face.vertex;
    }
    const SupportPoint p = md.support(face.normal);
    iterations = k + 1;
    const double support_distance = face.normal.dot(p.w);
    if (!std::isfinite(support_distance)) {
      status = Status::degenerate_input;
      detail = Detail::non_finite;
      break;
    }
    upper = std::min(upper, support_distance);
    // Lower bound face.distance, upper bound the best support distance: stop when they agree.
    if (upper - face.distance <= tolerance(face.distance)) {
      status = Status::converged;
      detail = Detail::duality_gap;
      break;
    }
    if (hull.contains_vertex(p.w)) {
      // A support point beyond the nearest face that is already a vertex: the hull is no longer
      // convex (rounding), as above.
      hull_degraded = true;
      status = Status::degenerate_input;
      detail = Detail::repeated_support;
      break;
    }
    const int v = hull.add_vertex(p);
    if (v < 0) {
      status = Status::capacity_exceeded;
      detail = Detail::face_capacity;
      break;
    }
    const auto e = hull.expand(best, v);
    if (e == Hull::Expansion::face_capacity) {
      status = Status::capacity_exceeded;
      detail = Detail::face_capacity;
      break;
    }
    if (e == Hull::Expansion::bad_horizon) {
      status = Status::degenerate_input;
      detail = Detail::no_progress;
      break;
    }
    best = -1;
  }
  if (best < 0) best = hull.closest_face();
  EpaRun r;
  if (status != Status::converged && lower > -std::numeric_limits<double>::infinity() &&
      (hull_degraded || best < 0 || hull.face(best).distance < lower)) {
    // Stopped early on a hull that no longer holds its best face: the answer is that face's.
    const std::array<SupportPoint, 3> corners = {hull.vertex(lower_vertices[0]), hull.vertex(lower_vertices[1]),
                                                 hull.vertex(lower_vertices[2])};
    r = answer_from_triangle(corners, lower_normal, lower);
  } else if (best >= 0) {
    r = answer_from_face(hull, best, tolerance(hull.face(best).distance));
  } else {
    // No usable face at all (every face a sliver): report contact at GJK's point.
    Simplex s = start;
    (void)reduce_simplex(s);
    r.depth = 0;
    r.normal = flat_normal;
    r.witnesses = simplex_witnesses(s);
  }
  if (status != Status::converged) {
    if (upper - lower <= tolerance(lower)) {
      // Stopped for another reason with the bounds within the tolerance of each other.
      status = Status::converged;
      detail = Detail::duality_gap;
    } else if (hull_degraded && upper - lower <= kEpaRoundingFloor * scale) {
      // The rounding floor: the hull cannot be refined further in double precision, and the
      // bounds are this close (detail no_progress or repeated_support; `gap` says how close).
      status = Status::converged;
    }
  }
  r.gap = std::max(0.0, upper - r.depth);
  r.iterations = iterations;
  r.status = status;
  r.detail = detail;
  if (status == Status::converged && r.depth <= options.absolute_tolerance * scale) r.detail = Detail::touching;
  return r;
}

}  // namespace detail

/// Penetration depth of convex shapes A and B placed by pose_a and pose_b (GJK + EPA).
///
/// Result (world frame, results.hpp): when the shapes overlap or touch, intersect is true, depth
/// >= 0 and translating B by depth * normal brings them into touching contact; point_a and
/// point_b are the deepest points (point_b - point_a = -depth * normal). When they are separated,
/// intersect is false, depth 0, and normal/point_a/point_b are those of gjk::distance.
///  - GJK runs on the cores first. Rounded shapes (sphere, capsule) whose cores are apart but
///    within the margins need no EPA: depth = margins - core distance along GJK's normal. When the
///    cores overlap, EPA runs on the cores and the margins are added to its depth.
///  - EPA starts from GJK's final simplex, grown to a tetrahedron when GJK ended with fewer points
///    (seed 003, footnote 4); a Minkowski difference that is flat (coplanar flat shapes, crossing
///    capsule axes) has depth 0 on its cores, exactly, with its flat normal.
///  - Each iteration expands the face nearest the origin (linear scan over live faces) by the
///    support point along its normal; the visible region is found by flood fill and replaced by a
///    cone (gjk/epa_hull.hpp). The nearest face's distance is a lower bound on the core depth and
///    every support distance an upper bound; `gap` is the smallest upper bound minus the reported
///    depth. Stops when that gap <= relative_tolerance * depth + absolute_tolerance * scale
///    (converged, detail duality_gap or touching); on running out of kEpaMaxVertices /
///    kEpaMaxFaces (capacity_exceeded), on an inconsistent horizon (degenerate_input,
///    no_progress) or on max_iterations (iteration_limit), each converged instead if the bounds
///    already agree to the tolerance. When rounding has made the hull lose its convexity (its
///    nearest face moves closer to the origin, or a support point beyond the nearest face is
///    already a vertex: long thin faces, e.g. a sphere deep inside a cylinder), it stops there:
///    converged at the rounding floor (detail no_progress or repeated_support) when the gap is
///    <= kEpaRoundingFloor * scale, degenerate_input otherwise. In every stopped case the answer
///    is the best nearest face seen: a lower bound on the depth with matching witnesses, within
///    `gap` of the true depth.
/// Cost: the GJK run plus one support call and a flood fill per EPA iteration; a box pair takes
/// about 10 iterations in all (GJK + EPA, random overlapping box pairs), smooth shapes about 50.
/// No heap allocation; the hull (about 60 KB) is a local or `workspace`.
/// `iterations` counts GJK and EPA iterations together.
template <SupportMap A, SupportMap B, int MaxVertices, int MaxFaces>
PenetrationResult penetration(const A& a, const Pose& pose_a, const B& b, const Pose& pose_b,
                              const EpaOptions& options, WarmStart& warm,
                              BasicEpaHull<MaxVertices, MaxFaces>& workspace) {
  const Pose b_in_a = relative_pose(pose_a, pose_b);
  MinkowskiDifference<A, B> md(a, b, b_in_a);
  const double scale = detail::query_scale(a, b, b_in_a);
  if (!detail::scale_answered<A, B>(scale)) return detail::out_of_range_result<PenetrationResult>();
  // Two scanned polytopes: B's vertices placed in A's frame once for the whole query (GJK and
  // EPA call the support about 12 times at 32 vertices; MinkowskiDifference::place_b).
  alignas(32) std::array<double, std::is_same_v<A, Polytope> && std::is_same_v<B, Polytope>
                                     ? 3 * proxima::detail::kPolytopeScanMaxPadded
                                     : 1>
      placed_b;
  if constexpr (std::is_same_v<A, Polytope> && std::is_same_v<B, Polytope>) md.place_b(placed_b.data());
  const detail::GjkRun run = detail::run_warm_gjk(md, pose_a, scale, options.gjk, detail::GjkMode::distance, warm);

  const double margin_a = proxima::margin(a);
  const double margin_b = proxima::margin(b);
  const double margins = margin_a + margin_b;
  PenetrationResult r;
  r.iterations = run.iterations;
  r.status = run.status;
  r.detail = run.detail;
  if (!run.contact) {
    // distance()'s separated answer (detail::separated_core): the core distance is known to
    // within its gap (the depth, margins - distance, too).
    const detail::CoreSeparation c = detail::separated_core(run);
    r.intersect = c.distance <= margins;
    r.depth = r.intersect ? margins - c.distance : 0.0;
    r.gap = c.gap;
    r.normal = pose_a.rotate(c.normal);
    r.point_a = pose_a.apply(add_scaled(c.core.a, margin_a, c.normal));  // in line: see add_scaled
    r.point_b = pose_a.apply(add_scaled(c.core.b, -margin_b, c.normal));
    warm.direction = r.normal;
    return r;
  }
  detail::EpaRun epa;
  if constexpr (std::is_same_v<A, Polytope> && std::is_same_v<B, Polytope>) {
    // Polytope pairs end EPA on small hulls (about 10 vertices at N = 32): the small hull first,
    // and on the rare overflow the full hull from the same start (the hints restored, so it takes
    // the same steps and the answer is the full hull's, bit for bit).
    const int hint_a = md.hint_a_;
    const int hint_b = md.hint_b_;
    SmallEpaHull small;
    epa = detail::run_epa(md, run.simplex, scale, options, small);
    if (small.overflowed()) {
      md.hint_a_ = hint_a;
      md.hint_b_ = hint_b;
      epa = detail::run_epa(md, run.simplex, scale, options, workspace);
    }
  } else {
    epa = detail::run_epa(md, run.simplex, scale, options, workspace);
  }
  warm.hint_a = md.hint_a_;
  warm.hint_b = md.hint_b_;
  r.intersect = true;
  r.iterations = run.iterations + epa.iterations;
  r.status = epa.status;
  r.detail = epa.detail;
  r.depth = epa.depth + margins;
  r.gap = epa.gap;
  r.normal = pose_a.rotate(epa.normal);
  r.point_a = pose_a.apply(add_scaled(epa.witnesses.a, margin_a, epa.normal));
  r.point_b = pose_a.apply(add_scaled(epa.witnesses.b, -margin_b, epa.normal));
  warm.direction = r.normal;
  return r;
}

/// penetration() with a warm start and a local EPA workspace.
template <SupportMap A, SupportMap B>
PenetrationResult penetration(const A& a, const Pose& pose_a, const B& b, const Pose& pose_b,
                              const EpaOptions& options, WarmStart& warm) {
  EpaHull workspace;
  return penetration(a, pose_a, b, pose_b, options, warm, workspace);
}

/// Cold-start penetration().
template <SupportMap A, SupportMap B>
PenetrationResult penetration(const A& a, const Pose& pose_a, const B& b, const Pose& pose_b,
                              const EpaOptions& options = {}) {
  WarmStart warm;
  EpaHull workspace;
  return penetration(a, pose_a, b, pose_b, options, warm, workspace);
}

}  // namespace proxima::gjk
