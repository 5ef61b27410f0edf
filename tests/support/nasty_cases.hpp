// SPDX-License-Identifier: MIT
// The hard cases every convex-pair algorithm must survive, as seeded PairCase lists: exact touching
// (face-face, vertex-face, edge-edge), face-parallel boxes, duplicate and coplanar vertices, flat
// and needle shapes, deep overlap and one shape inside the other. The base cases use coordinates
// exactly representable in double with identity rotations, so "touching" is exact;
// randomly_moved() applies a random similarity (scale, rotation, translation) to a whole case.
#pragma once

#include "support/random_shapes.hpp"

#include <string>
#include <vector>

namespace proxima::testgen {

/// The 8 corners of the box [-h, h] (componentwise), centred at c.
inline std::vector<Vec3> box_corners(const Vec3& h, const Vec3& c = Vec3::Zero()) {
  std::vector<Vec3> out;
  for (int i = 0; i < 8; ++i) {
    out.push_back(c + Vec3((i & 1) ? h.x() : -h.x(), (i & 2) ? h.y() : -h.y(), (i & 4) ? h.z() : -h.z()));
  }
  return out;
}

/// The box corners plus a (k+1)^2 grid on each face: many coplanar vertices per facet.
inline std::vector<Vec3> box_with_face_grids(const Vec3& h, int k) {
  std::vector<Vec3> out = box_corners(h);
  for (int axis = 0; axis < 3; ++axis) {
    for (const double side : {-1.0, 1.0}) {
      for (int i = 0; i <= k; ++i) {
        for (int j = 0; j <= k; ++j) {
          Vec3 p;
          p[axis] = side * h[axis];
          p[(axis + 1) % 3] = h[(axis + 1) % 3] * (2.0 * i / k - 1);
          p[(axis + 2) % 3] = h[(axis + 2) % 3] * (2.0 * j / k - 1);
          out.push_back(p);
        }
      }
    }
  }
  return out;
}

/// A case of two polytopes given directly in world coordinates (identity poses).
inline PairCase world_polytopes(std::string label, std::vector<Vec3> a, std::vector<Vec3> b) {
  PairCase c;
  c.label = std::move(label);
  c.a = polytope_spec(std::move(a));
  c.b = polytope_spec(std::move(b));
  c.factor = 0;
  return c;
}

/// Hamilton product of quaternions (w, x, y, z).
inline Eigen::Vector4d quaternion_product(const Eigen::Vector4d& p, const Eigen::Vector4d& q) {
  return {p[0] * q[0] - p[1] * q[1] - p[2] * q[2] - p[3] * q[3],
          p[0] * q[1] + p[1] * q[0] + p[2] * q[3] - p[3] * q[2],
          p[0] * q[2] - p[1] * q[3] + p[2] * q[0] + p[3] * q[1],
          p[0] * q[3] + p[1] * q[2] - p[2] * q[1] + p[3] * q[0]};
}

/// The whole case scaled by s about the world origin, then rotated by q and translated by t.
/// Exact touching generally becomes near touching (within rounding), which is the point.
inline PairCase moved(const PairCase& c, double s, const Eigen::Vector4d& q, const Vec3& t) {
  PairCase out = c;
  out.label = c.label + "_moved";
  out.scale = c.scale * s;
  out.a = c.a.scaled(s);
  out.b = c.b.scaled(s);
  const Pose motion = PoseSpec{q, t}.pose();
  for (PoseSpec* p : {&out.pose_a, &out.pose_b}) {
    p->quaternion = quaternion_product(q, p->quaternion).normalized();
    p->translation = motion.apply(s * p->translation);
  }
  return out;
}

/// moved() with a random scale in [min_scale, max_scale] (log-uniform), rotation and translation.
inline PairCase randomly_moved(Rng& rng, const PairCase& c, double min_scale = 1e-3, double max_scale = 1e5,
                               double max_translation = 1e5) {
  const double s = log_uniform(rng, min_scale, max_scale);
  const Eigen::Vector4d q = random_quaternion(rng);
  const double reach = log_uniform(rng, 1e-2, max_translation);
  const Vec3 t = reach * random_unit_vector(rng);
  return moved(c, s, q, t);
}

/// What a nasty case is, for the tests' bookkeeping. Values are for the base (unmoved) case.
enum class Contact { separated, touching, overlapping };

struct NastyCase {
  PairCase pair;
  Contact contact;
};

/// The base nasty cases between polytopes (exact coordinates, identity poses). The touching ones
/// touch exactly in double arithmetic.
inline std::vector<NastyCase> nasty_polytope_cases(Rng& rng) {
  const Vec3 one(1, 1, 1);
  std::vector<NastyCase> out;
  // Touching, exactly.
  out.push_back({world_polytopes("touching_face_face", box_corners(one), box_corners(one, Vec3(2, 0.5, 0.25))),
                 Contact::touching});
  const std::vector<Vec3> octahedron = {Vec3(-1, 0, 0), Vec3(1, 0, 0), Vec3(0, -1, 0),
                                        Vec3(0, 1, 0),  Vec3(0, 0, -1), Vec3(0, 0, 1)};
  std::vector<Vec3> octa_shifted;
  for (const Vec3& v : octahedron) octa_shifted.push_back(v + Vec3(2, 0.25, -0.5));
  out.push_back({world_polytopes("touching_vertex_face", box_corners(one), octa_shifted), Contact::touching});
  // B's edge (0.5,1.5,0)-(1.5,0.5,0) crosses A's edge x = y = 1 at (1,1,0); plane x + y = 2 separates.
  out.push_back({world_polytopes("touching_edge_edge", box_corners(one),
                                 {Vec3(0.5, 1.5, 0), Vec3(1.5, 0.5, 0), Vec3(2, 2, 1), Vec3(2, 2, -1)}),
                 Contact::touching});
  // Face-parallel boxes: separated (closest points not unique) and overlapping (depth 0.4 along x).
  out.push_back({world_polytopes("face_parallel_separated", box_corners(one), box_corners(one, Vec3(2.5, 0.75, -0.5))),
                 Contact::separated});
  out.push_back({world_polytopes("face_parallel_overlap", box_corners(one), box_corners(one, Vec3(1.625, 0.5, 0.25))),
                 Contact::overlapping});
  out.push_back({world_polytopes("face_parallel_flush", box_corners(Vec3(1, 2, 0.5)),
                                 box_corners(Vec3(0.5, 0.5, 0.5), Vec3(1.25, 0, 0))),
                 Contact::overlapping});
  // Duplicate vertices (every vertex three times, plus interior points).
  {
    std::vector<Vec3> base = ellipsoid_points(rng, 16);
    std::vector<Vec3> dup;
    for (const Vec3& v : base) {
      dup.insert(dup.end(), {v, v, v, Vec3(0.5 * v)});
    }
    std::vector<Vec3> dup_b;
    for (const Vec3& v : dup) dup_b.push_back(v + Vec3(1.5, 0.25, 0));
    out.push_back({world_polytopes("duplicate_vertices_overlap", dup, dup_b), Contact::overlapping});
    std::vector<Vec3> dup_far;
    for (const Vec3& v : dup) dup_far.push_back(v + Vec3(2.5, 0.25, 0));
    out.push_back({world_polytopes("duplicate_vertices_separated", dup, dup_far), Contact::separated});
  }
  // Coplanar vertices: boxes with 5x5 grids on every face.
  {
    const std::vector<Vec3> a = box_with_face_grids(one, 4);
    std::vector<Vec3> b;
    for (const Vec3& v : box_with_face_grids(Vec3(0.5, 0.75, 1), 4)) b.push_back(v + Vec3(1.25, 1.5, 0.5));
    out.push_back({world_polytopes("coplanar_vertices_overlap", a, b), Contact::overlapping});
    std::vector<Vec3> c;
    for (const Vec3& v : box_with_face_grids(Vec3(0.5, 0.75, 1), 4)) c.push_back(v + Vec3(1.75, 1.5, 0.5));
    out.push_back({world_polytopes("coplanar_vertices_separated", a, c), Contact::separated});
  }
  // Flat shapes: a zero-thickness square through a box, and above it.
  {
    const std::vector<Vec3> square = {Vec3(-1, -1, 0), Vec3(1, -1, 0), Vec3(1, 1, 0), Vec3(-1, 1, 0)};
    std::vector<Vec3> through;
    std::vector<Vec3> above;
    for (const Vec3& v : square) {
      through.push_back(v + Vec3(1.5, 0.25, 0.125));
      above.push_back(v + Vec3(0.25, 0.5, 1.5));
    }
    out.push_back({world_polytopes("flat_square_through_box", box_corners(one), through), Contact::overlapping});
    out.push_back({world_polytopes("flat_square_above_box", box_corners(one), above), Contact::separated});
    out.push_back({world_polytopes("flat_triangle_vs_triangle_separated",
                                   {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)},
                                   {Vec3(0, 0, 0.5), Vec3(1, 0, 1), Vec3(0, 1, 0.75)}),
                   Contact::separated});
  }
  // Needles: a two-point segment and a very thin ellipsoid hull.
  {
    out.push_back({world_polytopes("needle_segment_through_box", box_corners(one), {Vec3(-3, 0.25, 0.5), Vec3(3, 0.5, 0.25)}),
                   Contact::overlapping});
    out.push_back({world_polytopes("needle_segment_beside_box", box_corners(one), {Vec3(-3, 1.25, 0.5), Vec3(3, 1.5, 0.25)}),
                   Contact::separated});
    std::vector<Vec3> needle = ellipsoid_points(rng, 32, Vec3(2, 1e-4, 1e-4));
    std::vector<Vec3> needle_b;
    for (const Vec3& v : needle) needle_b.push_back(Vec3(v.y(), v.x(), v.z()) + Vec3(0.5, 0, 0.00005));
    out.push_back({world_polytopes("needle_cross_overlap", needle, needle_b), Contact::overlapping});
    std::vector<Vec3> needle_c;
    for (const Vec3& v : needle) needle_c.push_back(Vec3(v.y(), v.x(), v.z()) + Vec3(0.5, 0, 0.001));
    out.push_back({world_polytopes("needle_cross_separated", needle, needle_c), Contact::separated});
  }
  // Deep overlap: two hulls with the same centre; one inside the other.
  {
    const std::vector<Vec3> a = ellipsoid_points(rng, 32);
    std::vector<Vec3> b;
    for (const Vec3& v : ellipsoid_points(rng, 32)) b.push_back(Vec3(v.z(), v.x(), v.y()));
    out.push_back({world_polytopes("deep_overlap_same_centre", a, b), Contact::overlapping});
    std::vector<Vec3> small;
    for (const Vec3& v : ellipsoid_points(rng, 16)) small.push_back(0.125 * v + Vec3(0.25, 0.125, 0));
    out.push_back({world_polytopes("b_inside_a", a, small), Contact::overlapping});
    out.push_back({world_polytopes("a_inside_b", small, a), Contact::overlapping});
  }
  return out;
}

}  // namespace proxima::testgen
