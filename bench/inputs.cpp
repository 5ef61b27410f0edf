// SPDX-License-Identifier: MIT
#include "inputs.hpp"

#include "draws.hpp"

#include "reference/minkowski.hpp"
#include "reference/support.hpp"

extern "C" {
#include <libqhull_r/qhull_ra.h>
}

#include <cmath>
#include <map>
#include <numbers>
#include <stdexcept>

namespace proxima::bench {

double Rng::normal() {
  // 1 - uniform() is in (0, 1], so the logarithm is finite.
  const double u1 = 1.0 - uniform();
  const double u2 = uniform();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

Vec3 Rng::unit_vector() {
  for (int attempt = 0; attempt < 64; ++attempt) {
    const Vec3 v(normal(), normal(), normal());
    const double n = v.norm();
    if (n > 1e-6) return v / n;
  }
  return Vec3::UnitX();
}

Eigen::Quaterniond Rng::rotation() {
  for (int attempt = 0; attempt < 64; ++attempt) {
    Eigen::Quaterniond q(normal(), normal(), normal(), normal());
    if (q.norm() > 1e-6) return q.normalized();
  }
  return Eigen::Quaterniond::Identity();
}

Hull convex_hull(const std::vector<Vec3>& points) {
  std::vector<coordT> coords;
  coords.reserve(3 * points.size());
  for (const Vec3& p : points) {
    coords.push_back(p.x());
    coords.push_back(p.y());
    coords.push_back(p.z());
  }
  qhT qh_storage;
  qhT* qh = &qh_storage;
  qh_zero(qh, stderr);
  char options[] = "qhull Qt";
  const int exit_code =
      qh_new_qhull(qh, 3, static_cast<int>(points.size()), coords.data(), False, options, nullptr, stderr);
  Hull hull;
  if (exit_code == 0) {
    std::map<int, int> vertex_index;  // qhull point id -> hull vertex index
    std::map<std::pair<int, int>, std::vector<int>> edge_faces;
    facetT* facet = nullptr;
    vertexT* vertex = nullptr;
    vertexT** vertexp = nullptr;
    FORALLfacets {
      std::array<int, 3> tri{};
      int k = 0;
      FOREACHvertex_(facet->vertices) {
        if (k == 3) break;
        const int id = qh_pointid(qh, vertex->point);
        auto [it, inserted] = vertex_index.try_emplace(id, static_cast<int>(hull.vertices.size()));
        if (inserted) hull.vertices.push_back(points[static_cast<std::size_t>(id)]);
        tri[static_cast<std::size_t>(k++)] = it->second;
      }
      if (k != 3) continue;
      const Vec3 n(facet->normal[0], facet->normal[1], facet->normal[2]);
      const Vec3& p0 = hull.vertices[static_cast<std::size_t>(tri[0])];
      const Vec3& p1 = hull.vertices[static_cast<std::size_t>(tri[1])];
      const Vec3& p2 = hull.vertices[static_cast<std::size_t>(tri[2])];
      if ((p1 - p0).cross(p2 - p0).dot(n) < 0) std::swap(tri[1], tri[2]);
      const int f = static_cast<int>(hull.faces.size());
      hull.faces.push_back(tri);
      hull.face_normals.push_back(n.normalized());
      for (int e = 0; e < 3; ++e) {
        const int u = tri[static_cast<std::size_t>(e)];
        const int v = tri[static_cast<std::size_t>((e + 1) % 3)];
        edge_faces[{std::min(u, v), std::max(u, v)}].push_back(f);
      }
    }
    for (const auto& [key, faces] : edge_faces) {
      if (faces.size() != 2) continue;  // cannot happen on a closed triangulated hull
      hull.edges.push_back({key.first, key.second, faces[0], faces[1]});
    }
  }
  qh_freeqhull(qh, !qh_ALL);
  int curlong = 0;
  int totlong = 0;
  qh_memfreeshort(qh, &curlong, &totlong);
  if (exit_code != 0 || hull.faces.empty()) throw std::runtime_error("bench: qhull failed");
  return hull;
}

namespace {

Placement make_placement(const Eigen::Quaterniond& q, const Vec3& t) {
  Placement p;
  p.quaternion = q;
  p.rotation = q.toRotationMatrix();
  p.translation = t;
  return p;
}

double bounding_radius(const Body& body) {
  const Vec3& s = body.size;
  switch (body.kind) {
    case ShapeKind::polytope:
    case ShapeKind::box: {
      double r = 0;
      for (const Vec3& v : body.hull.vertices) r = std::max(r, v.norm());
      return r;
    }
    case ShapeKind::sphere: return s.x();
    case ShapeKind::capsule: return s.x() + s.y();
    case ShapeKind::cylinder:
    case ShapeKind::cone: return std::hypot(s.x(), s.y());
    case ShapeKind::ellipsoid: return s.maxCoeff();
  }
  return 0;
}

/// Places pair (a, b) at factor * touching distance along a random direction.
void place_pair(CaseSet& set, int a, int b, Rng& rng) {
  PairCase pc;
  pc.body_a = a;
  pc.body_b = b;
  const Eigen::Quaterniond qa = rng.rotation();
  const Eigen::Quaterniond qb = rng.rotation();
  const Vec3 ta = vec3_z_first([&] { return rng.uniform(-1, 1); });
  const Vec3 u = rng.unit_vector();
  const double factor = rng.uniform(kPlacementLow, kPlacementHigh);
  pc.pose_a = make_placement(qa, ta);
  pc.pose_b = make_placement(qb, ta);
  const double touching = touching_distance(set.bodies[static_cast<std::size_t>(a)], pc.pose_a.rotation,
                                            set.bodies[static_cast<std::size_t>(b)], pc.pose_b.rotation, u);
  pc.pose_b.translation = ta + factor * touching * u;
  set.pairs.push_back(pc);
}

void finish(CaseSet& set) {
  set.scale = 0;
  for (Body& body : set.bodies) {
    body.bounding_radius = bounding_radius(body);
    set.scale = std::max(set.scale, body.bounding_radius);
  }
}

}  // namespace

CaseSet make_polytope_set(int vertices, int pairs, std::uint64_t seed) {
  CaseSet set;
  set.name = "N=" + std::to_string(vertices);
  Rng rng(seed * 1000003ULL + static_cast<std::uint64_t>(vertices));
  for (int i = 0; i < 2 * pairs; ++i) {
    std::vector<Vec3> points;
    points.reserve(static_cast<std::size_t>(vertices));
    for (int k = 0; k < vertices; ++k) points.push_back(rng.unit_vector().cwiseProduct(kPolytopeEllipsoid));
    // Centre on the vertex mean so the local origin is inside the hull (needed by the placement
    // rule: the touching distance is measured from origin to origin).
    Vec3 mean = Vec3::Zero();
    for (const Vec3& p : points) mean += p;
    mean /= static_cast<double>(points.size());
    for (Vec3& p : points) p -= mean;
    Body body;
    body.kind = ShapeKind::polytope;
    body.hull = convex_hull(points);
    set.bodies.push_back(std::move(body));
  }
  finish(set);
  for (int i = 0; i < pairs; ++i) place_pair(set, 2 * i, 2 * i + 1, rng);
  return set;
}

std::vector<std::string> primitive_rows() {
  return {"box-box", "sphere-box", "capsule-capsule", "cylinder-cone", "ellipsoid-ellipsoid"};
}

namespace {

Body make_primitive(ShapeKind kind, Rng& rng) {
  constexpr double kLo = 0.3;
  constexpr double kHi = 1.0;
  Body body;
  body.kind = kind;
  body.size = vec3_z_first([&] { return rng.uniform(kLo, kHi); });
  if (kind == ShapeKind::box) {
    std::vector<Vec3> corners;
    for (int i = 0; i < 8; ++i) {
      corners.emplace_back((i & 1) ? body.size.x() : -body.size.x(), (i & 2) ? body.size.y() : -body.size.y(),
                           (i & 4) ? body.size.z() : -body.size.z());
    }
    body.hull = convex_hull(corners);
  }
  return body;
}

}  // namespace

CaseSet make_primitive_set(const std::string& row, int pairs, std::uint64_t seed) {
  ShapeKind ka = ShapeKind::box;
  ShapeKind kb = ShapeKind::box;
  std::uint64_t salt = 1;
  if (row == "box-box") {
    ka = kb = ShapeKind::box;
    salt = 11;
  } else if (row == "sphere-box") {
    ka = ShapeKind::sphere;
    kb = ShapeKind::box;
    salt = 12;
  } else if (row == "capsule-capsule") {
    ka = kb = ShapeKind::capsule;
    salt = 13;
  } else if (row == "cylinder-cone") {
    ka = ShapeKind::cylinder;
    kb = ShapeKind::cone;
    salt = 14;
  } else if (row == "ellipsoid-ellipsoid") {
    ka = kb = ShapeKind::ellipsoid;
    salt = 15;
  } else {
    throw std::invalid_argument("bench: unknown primitive row " + row);
  }
  CaseSet set;
  set.name = row;
  Rng rng(seed * 1000003ULL + salt);
  for (int i = 0; i < pairs; ++i) {
    set.bodies.push_back(make_primitive(ka, rng));
    set.bodies.push_back(make_primitive(kb, rng));
  }
  finish(set);
  for (int i = 0; i < pairs; ++i) place_pair(set, 2 * i, 2 * i + 1, rng);
  return set;
}

}  // namespace proxima::bench
