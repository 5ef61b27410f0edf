// SPDX-License-Identifier: MIT
#include "minkowski.hpp"

#include "support.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace proxima::bench {

double body_outside(const Body& body, const Vec3& p) {
  const Vec3& s = body.size;
  switch (body.kind) {
    case ShapeKind::polytope:
    case ShapeKind::box: {
      double worst = -std::numeric_limits<double>::infinity();
      for (std::size_t f = 0; f < body.hull.faces.size(); ++f) {
        const Vec3& n = body.hull.face_normals[f];
        const Vec3& v = body.hull.vertices[static_cast<std::size_t>(body.hull.faces[f][0])];
        worst = std::max(worst, n.dot(p - v));
      }
      return worst;
    }
    case ShapeKind::sphere: return p.norm() - s.x();
    case ShapeKind::capsule: {
      const double z = std::clamp(p.z(), -s.y(), s.y());
      return (p - Vec3(0, 0, z)).norm() - s.x();
    }
    case ShapeKind::cylinder: return std::max(std::hypot(p.x(), p.y()) - s.x(), std::abs(p.z()) - s.y());
    case ShapeKind::cone: {
      // Inside iff |z| <= h and rho <= r * (h - z) / (2h); scaled to a length by the slant.
      const double rho = std::hypot(p.x(), p.y());
      const double slant = std::hypot(s.x(), 2 * s.y());
      const double side = (2 * s.y() * rho - s.x() * (s.y() - p.z())) / slant;
      return std::max({side, p.z() - s.y(), -s.y() - p.z()});
    }
    case ShapeKind::ellipsoid: {
      // Scaled algebraic distance: exact sign, a length near the surface.
      const double q = p.cwiseQuotient(s).norm();
      return (q - 1) * s.minCoeff();
    }
  }
  return 0;
}

std::vector<FacetPlane> minkowski_facets(const Body& a, const Mat3& ra, const Body& b, const Mat3& rb) {
  std::vector<FacetPlane> planes;
  const Hull& ha = a.hull;
  const Hull& hb = b.hull;
  const Mat3 b_to_a = ra.transpose() * rb;  // B-local direction -> A-local
  // Faces of A: outward normal n_f (A-local); h_K = n_f . v_f + h_B(-n_f in B's frame).
  for (std::size_t f = 0; f < ha.faces.size(); ++f) {
    const Vec3& n = ha.face_normals[f];
    const double offset = n.dot(ha.vertices[static_cast<std::size_t>(ha.faces[f][0])]) +
                          body_support_value(b, -(b_to_a.transpose() * n));
    planes.push_back({ra * n, offset});
  }
  // Faces of B: K's normal is -m_g (world -R_b m_g); h_K = h_A(-m_g in A's frame) + m_g . v_g.
  for (std::size_t g = 0; g < hb.faces.size(); ++g) {
    const Vec3& m = hb.face_normals[g];
    const double offset = body_support_value(a, -(b_to_a * m)) +
                          m.dot(hb.vertices[static_cast<std::size_t>(hb.faces[g][0])]);
    planes.push_back({-(rb * m), offset});
  }
  // Edge pairs whose Gauss-map arcs cross (Minkowski faces), all in world directions.
  std::vector<Vec3> na(ha.face_normals.size());
  std::vector<Vec3> nb(hb.face_normals.size());
  for (std::size_t i = 0; i < na.size(); ++i) na[i] = ra * ha.face_normals[i];
  for (std::size_t i = 0; i < nb.size(); ++i) nb[i] = -(rb * hb.face_normals[i]);
  std::vector<Vec3> va(ha.vertices.size());
  std::vector<Vec3> vb(hb.vertices.size());
  for (std::size_t i = 0; i < va.size(); ++i) va[i] = ra * ha.vertices[i];
  for (std::size_t i = 0; i < vb.size(); ++i) vb[i] = rb * hb.vertices[i];
  for (const Hull::Edge& ea : ha.edges) {
    const Vec3& n1 = na[static_cast<std::size_t>(ea.f0)];
    const Vec3& n2 = na[static_cast<std::size_t>(ea.f1)];
    const Vec3 arc_a = n2.cross(n1);
    if (arc_a.squaredNorm() == 0) continue;  // two coplanar triangles: not an edge of the solid
    const Vec3 dir_a = va[static_cast<std::size_t>(ea.v1)] - va[static_cast<std::size_t>(ea.v0)];
    for (const Hull::Edge& eb : hb.edges) {
      const Vec3& m1 = nb[static_cast<std::size_t>(eb.f0)];
      const Vec3& m2 = nb[static_cast<std::size_t>(eb.f1)];
      const double c_ba = m1.dot(arc_a);
      const double d_ba = m2.dot(arc_a);
      if (c_ba * d_ba >= 0) continue;
      const Vec3 arc_b = m2.cross(m1);
      const double a_dc = n1.dot(arc_b);
      const double b_dc = n2.dot(arc_b);
      if (a_dc * b_dc >= 0 || c_ba * b_dc <= 0) continue;
      const Vec3 dir_b = vb[static_cast<std::size_t>(eb.v1)] - vb[static_cast<std::size_t>(eb.v0)];
      Vec3 n = dir_a.cross(dir_b);
      const double len = n.norm();
      if (!(len > 1e-14 * dir_a.norm() * dir_b.norm())) continue;  // parallel edges
      n /= len;
      if (n.dot(n1 + n2) < 0) n = -n;
      planes.push_back({n, n.dot(va[static_cast<std::size_t>(ea.v0)] - vb[static_cast<std::size_t>(eb.v0)])});
    }
  }
  return planes;
}

double facet_margin(const std::vector<FacetPlane>& facets, const Vec3& c) {
  double margin = std::numeric_limits<double>::infinity();
  for (const FacetPlane& p : facets) margin = std::min(margin, p.offset - p.normal.dot(c));
  return margin;
}

namespace {

double ratio(const Body& a, const Mat3& ra, const Body& b, const Mat3& rb, const Vec3& u, const Vec3& n) {
  const double nu = n.dot(u);
  if (nu <= 0) return std::numeric_limits<double>::infinity();
  const double h = body_support_value(a, ra.transpose() * n) + body_support_value(b, -(rb.transpose() * n));
  return h / nu;
}

}  // namespace

double touching_distance(const Body& a, const Mat3& ra, const Body& b, const Mat3& rb, const Vec3& u) {
  const bool hulls = (a.kind == ShapeKind::polytope || a.kind == ShapeKind::box) &&
                     (b.kind == ShapeKind::polytope || b.kind == ShapeKind::box);
  if (hulls) {
    double best = std::numeric_limits<double>::infinity();
    for (const FacetPlane& p : minkowski_facets(a, ra, b, rb)) {
      const double nu = p.normal.dot(u);
      if (nu > 0) best = std::min(best, p.offset / nu);
    }
    return best;
  }
  // Smooth bodies: sample unit n on a Fibonacci sphere, then shrink a local search around the best.
  constexpr int kSamples = 4000;
  constexpr int kRefineSteps = 200;
  const double golden = std::numbers::pi * (3.0 - std::sqrt(5.0));
  Vec3 best_n = u;
  double best = ratio(a, ra, b, rb, u, u);
  for (int i = 0; i < kSamples; ++i) {
    const double z = 1.0 - 2.0 * (i + 0.5) / kSamples;
    const double r = std::sqrt(std::max(0.0, 1.0 - z * z));
    const Vec3 n(r * std::cos(golden * i), r * std::sin(golden * i), z);
    const double value = ratio(a, ra, b, rb, u, n);
    if (value < best) {
      best = value;
      best_n = n;
    }
  }
  double step = 0.05;
  for (int it = 0; it < kRefineSteps && step > 1e-9; ++it) {
    const Vec3 t1 = best_n.unitOrthogonal();
    const Vec3 t2 = best_n.cross(t1);
    bool improved = false;
    for (int k = 0; k < 8; ++k) {
      const double angle = 2 * std::numbers::pi * k / 8;
      const Vec3 n = (best_n + step * (std::cos(angle) * t1 + std::sin(angle) * t2)).normalized();
      const double value = ratio(a, ra, b, rb, u, n);
      if (value < best) {
        best = value;
        best_n = n;
        improved = true;
      }
    }
    if (!improved) step *= 0.5;
  }
  return best;
}

}  // namespace proxima::bench
