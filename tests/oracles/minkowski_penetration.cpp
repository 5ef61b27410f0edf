// SPDX-License-Identifier: MIT
// Exact hull of the Minkowski difference and its nearest facet to the origin.
#ifdef PROXIMA_HAVE_CGAL

#include "oracles/minkowski_penetration.hpp"

#include "oracles/cgal_polytope_distance.hpp"

#include <CGAL/Exact_predicates_exact_constructions_kernel.h>
#include <CGAL/Surface_mesh.h>
#include <CGAL/convex_hull_3.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

namespace proxima::oracles {
namespace {

using HullKernel = CGAL::Exact_predicates_exact_constructions_kernel;
using FT = HullKernel::FT;
using HullPoint = HullKernel::Point_3;
using HullVector = HullKernel::Vector_3;
using Mesh = CGAL::Surface_mesh<HullPoint>;

struct Facet {
  HullVector normal;  // outward, not normalised (exact)
  FT offset;          // normal . x <= offset on M (exact)
  FT squared_depth;   // offset^2 / |normal|^2 with the sign of offset (exact)
  double depth = 0;   // rounded |offset| / |normal|
};

bool same_plane(const Facet& f, const Facet& g) {
  if (CGAL::cross_product(f.normal, g.normal) != HullVector(0, 0, 0)) {
    return false;
  }
  const FT dot = f.normal * g.normal;
  return dot > 0 && f.offset * dot == g.offset * (f.normal * f.normal);
}

// True when some four points span 3-D space.
bool full_dimensional(const std::vector<HullPoint>& pts) {
  const std::size_t n = pts.size();
  std::size_t i1 = 1;
  while (i1 < n && pts[i1] == pts[0]) ++i1;
  if (i1 >= n) return false;
  std::size_t i2 = i1 + 1;
  while (i2 < n && CGAL::collinear(pts[0], pts[i1], pts[i2])) ++i2;
  if (i2 >= n) return false;
  for (std::size_t i3 = i2 + 1; i3 < n; ++i3) {
    if (CGAL::orientation(pts[0], pts[i1], pts[i2], pts[i3]) != CGAL::COPLANAR) return true;
  }
  return false;
}

// The extreme points of a point set (conv(A) - conv(B) = conv(ext A - ext B), so only these need
// differencing): the hull's vertices when the set is full-dimensional, else all points.
std::vector<HullPoint> extreme_points(std::span<const Vec3> points) {
  std::vector<HullPoint> pts;
  pts.reserve(points.size());
  for (const Vec3& p : points) pts.emplace_back(p.x(), p.y(), p.z());
  if (!full_dimensional(pts)) return pts;
  Mesh hull;
  CGAL::convex_hull_3(pts.begin(), pts.end(), hull);
  std::vector<HullPoint> out;
  for (const Mesh::Vertex_index v : hull.vertices()) out.push_back(hull.point(v));
  return out;
}

}  // namespace

ExactPenetration minkowski_penetration(std::span<const Vec3> points_a, std::span<const Vec3> points_b,
                                       double tie_tolerance) {
  if (points_a.empty() || points_b.empty()) {
    throw std::invalid_argument("minkowski_penetration: empty point set");
  }
  const std::vector<HullPoint> ext_a = extreme_points(points_a);
  const std::vector<HullPoint> ext_b = extreme_points(points_b);
  std::vector<HullPoint> diff;
  diff.reserve(ext_a.size() * ext_b.size());
  for (const HullPoint& a : ext_a) {
    for (const HullPoint& b : ext_b) {
      // Exact (lazy) differences: a - b of two doubles need not be a double.
      diff.push_back(CGAL::ORIGIN + (a - b));
    }
  }

  ExactPenetration out;
  if (!full_dimensional(diff)) {
    out.flat = true;
    out.intersect = cgal_polytope_distance(points_a, points_b).intersect;
    out.touching = out.intersect;  // a flat M has no interior: the origin is on its boundary
    out.depth = 0;
    return out;
  }

  Mesh hull;
  CGAL::convex_hull_3(diff.begin(), diff.end(), hull);
  std::vector<Facet> facets;
  facets.reserve(hull.number_of_faces());
  for (const Mesh::Face_index f : hull.faces()) {
    std::vector<HullPoint> corner;
    for (const Mesh::Vertex_index v : hull.vertices_around_face(hull.halfedge(f))) {
      corner.push_back(hull.point(v));
    }
    if (corner.size() != 3) {
      throw std::logic_error("minkowski_penetration: hull face is not a triangle");
    }
    Facet facet;
    // Faces are counter-clockwise seen from outside, so this normal points out of M.
    facet.normal = CGAL::cross_product(corner[1] - corner[0], corner[2] - corner[0]);
    facet.offset = facet.normal * (corner[0] - CGAL::ORIGIN);
    const FT nn = facet.normal * facet.normal;
    facet.squared_depth = (CGAL::sign(facet.offset) == CGAL::NEGATIVE ? -facet.offset : facet.offset) *
                          facet.offset / nn;
    facet.depth = std::sqrt(std::abs(CGAL::to_double(facet.squared_depth)));
    facets.push_back(facet);
  }
  out.facets = static_cast<int>(facets.size());

  bool outside = false;
  bool on_boundary = false;
  for (const Facet& f : facets) {
    const CGAL::Sign s = CGAL::sign(f.offset);
    outside = outside || s == CGAL::NEGATIVE;
    on_boundary = on_boundary || s == CGAL::ZERO;
  }
  out.intersect = !outside;
  out.touching = !outside && on_boundary;
  if (outside) {
    out.depth = 0;
    return out;
  }

  std::size_t best = 0;
  for (std::size_t i = 1; i < facets.size(); ++i) {
    if (facets[i].squared_depth < facets[best].squared_depth) best = i;
  }
  const Facet& nearest = facets[best];
  out.depth = out.touching ? 0.0 : nearest.depth;
  const double nx = CGAL::to_double(nearest.normal.x());
  const double ny = CGAL::to_double(nearest.normal.y());
  const double nz = CGAL::to_double(nearest.normal.z());
  out.normal = Vec3(nx, ny, nz).normalized();

  // The next distinct plane decides whether the normal is well-posed.
  double second = std::numeric_limits<double>::infinity();
  for (const Facet& f : facets) {
    if (!same_plane(f, nearest)) second = std::min(second, f.depth);
  }
  out.relative_gap = out.depth > 0 ? (second - out.depth) / out.depth : 0.0;
  out.unique = !out.touching && out.relative_gap > tie_tolerance;
  return out;
}

}  // namespace proxima::oracles

#endif  // PROXIMA_HAVE_CGAL
