// SPDX-License-Identifier: MIT
#include <proxima/mesh/mesh.hpp>

#include <proxima/core/error.hpp>

#include "core/power_of_two.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <string>
#include <utility>

namespace proxima::mesh {

using proxima::detail::times_power_of_two;

namespace {

std::string face_field(int f) { return "faces[" + std::to_string(f) + "]"; }

// Newell's normal: robust for non-convex and slightly warped polygons; its length is twice the
// polygon's area.
Vec3 newell_normal(const std::vector<Vec3>& v, std::span<const int> ids) {
  Vec3 n = Vec3::Zero();
  const std::size_t k = ids.size();
  for (std::size_t i = 0; i < k; ++i) {
    const Vec3& a = v[ids[i]];
    const Vec3& b = v[ids[(i + 1) % k]];
    n += a.cross(b);
  }
  return n;
}

// 2-D coordinates of a point in the plane with normal n (drop the dominant axis, keep the
// orientation so counter-clockwise stays counter-clockwise).
Eigen::Vector2d project(const Vec3& p, const Vec3& n) {
  int axis = 0;
  n.cwiseAbs().maxCoeff(&axis);
  const int i = (axis + 1) % 3;
  const int j = (axis + 2) % 3;
  return n[axis] >= 0 ? Eigen::Vector2d(p[i], p[j]) : Eigen::Vector2d(p[j], p[i]);
}

double cross2(const Eigen::Vector2d& a, const Eigen::Vector2d& b) { return a.x() * b.y() - a.y() * b.x(); }

}  // namespace

Mesh Mesh::from_faces(std::vector<Vec3> vertices, const std::vector<std::vector<int>>& faces,
                      const MeshOptions& options) {
  require_non_negative("planarity_tolerance", options.planarity_tolerance);
  require_non_negative("degenerate_tolerance", options.degenerate_tolerance);
  if (vertices.empty()) throw InvalidInput("vertices", "must not be empty");
  if (faces.empty()) throw InvalidInput("faces", "must not be empty");
  const int nv = static_cast<int>(vertices.size());
  for (int i = 0; i < nv; ++i) require_finite("vertices[" + std::to_string(i) + "]", vertices[i]);

  Mesh m;
  m.vertices_ = std::move(vertices);
  const auto& verts = m.vertices_;
  Vec3 lo = verts[0], hi = verts[0];
  for (const Vec3& p : verts) {
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
  m.aabb_ = {lo, hi};
  m.extent_ = (hi - lo).maxCoeff();
  if (!(m.extent_ > 0)) throw InvalidInput("vertices", "all vertices coincide: the mesh has no extent");
  // Lengths squared (norms, areas) and cubed (the volume) over- or underflow far from unit scale
  // (areas of a mesh 1e-200 wide are 0, its edge lengths' squares too, and 1e200 wide they are
  // infinite), so they are measured on the vertices times 2^-e, e the binary exponent of the
  // extent: a power of two scales exactly, so on meshes whose squares do not overflow these are
  // the same numbers (bit for bit) times 2^(-e k), and far from unit scale they stay finite.
  // (ldexp, not a multiplication by 2^-e: that factor overflows for a subnormal extent.)
  const int exponent = std::ilogb(m.extent_);
  std::vector<Vec3> unit(verts.size());
  for (std::size_t i = 0; i < verts.size(); ++i) unit[i] = times_power_of_two(verts[i], -exponent);
  const double unit_extent = std::ldexp(m.extent_, -exponent);
  m.sphere_.center = (lo + hi) / 2;
  const Vec3 unit_center = times_power_of_two(m.sphere_.center, -exponent);
  double unit_radius = 0;
  for (const Vec3& p : unit) unit_radius = std::max(unit_radius, (p - unit_center).norm());
  m.sphere_.radius = std::ldexp(unit_radius, exponent);

  // Faces: indices, repeats, degeneracy, planarity.
  const int nf = static_cast<int>(faces.size());
  m.face_start_.reserve(faces.size() + 1);
  m.face_start_.push_back(0);
  std::vector<int> used(nv, 0);
  // Edge lengths and areas in the unit coordinates (scaled back only for the messages).
  const double min_length = options.degenerate_tolerance * unit_extent;
  const double min_area = options.degenerate_tolerance * unit_extent * unit_extent;
  const double max_warp = options.planarity_tolerance * m.extent_;
  for (int f = 0; f < nf; ++f) {
    const auto& ids = faces[f];
    const int k = static_cast<int>(ids.size());
    if (k < 3) throw InvalidInput(face_field(f), "needs at least 3 vertices, got " + std::to_string(k));
    for (int j = 0; j < k; ++j) {
      if (ids[j] < 0 || ids[j] >= nv) {
        throw InvalidInput(face_field(f) + "[" + std::to_string(j) + "]",
                           "vertex index " + std::to_string(ids[j]) + " out of range [0, " + std::to_string(nv) + ")");
      }
      for (int l = 0; l < j; ++l) {
        if (ids[l] == ids[j]) {
          throw InvalidInput(face_field(f), "repeats vertex " + std::to_string(ids[j]) + " (degenerate face)");
        }
      }
      used[ids[j]] = 1;
    }
    for (int j = 0; j < k; ++j) {
      const double len = (unit[ids[(j + 1) % k]] - unit[ids[j]]).norm();
      if (!(len > min_length)) {
        throw InvalidInput(face_field(f), "degenerate face: edge " + std::to_string(ids[j]) + "-" +
                                              std::to_string(ids[(j + 1) % k]) + " has length " +
                                              format_number(std::ldexp(len, exponent)));
      }
    }
    const Vec3 n = newell_normal(unit, ids);
    const double area = n.norm() / 2;
    if (!(area > min_area)) {
      throw InvalidInput(face_field(f), "degenerate face: area " + format_number(std::ldexp(area, 2 * exponent)) +
                                            " (below " + format_number(std::ldexp(min_area, 2 * exponent)) + ")");
    }
    Plane plane;
    plane.normal = n / (2 * area);
    Vec3 centroid = Vec3::Zero();
    for (int id : ids) centroid += verts[id];
    centroid /= k;
    plane.offset = plane.normal.dot(centroid);
    double warp = 0;
    for (int id : ids) warp = std::max(warp, std::abs(plane.normal.dot(verts[id]) - plane.offset));
    if (warp > max_warp) {
      throw InvalidInput(face_field(f), "not planar: a vertex is " + format_number(warp) +
                                            " from the face plane (tolerance " + format_number(max_warp) + ")");
    }
    m.planes_.push_back(plane);
    m.face_vertices_.insert(m.face_vertices_.end(), ids.begin(), ids.end());
    m.face_start_.push_back(static_cast<int>(m.face_vertices_.size()));
  }
  for (int i = 0; i < nv; ++i) {
    if (!used[i]) throw InvalidInput("vertices[" + std::to_string(i) + "]", "is used by no face");
  }

  // Half-edges, twins, edges. A directed edge seen twice means two faces run it the same way.
  const int nh = static_cast<int>(m.face_vertices_.size());
  m.half_edges_.resize(nh);
  std::map<std::pair<int, int>, int> directed;
  for (int f = 0; f < nf; ++f) {
    const int s = m.face_start_[f], e = m.face_start_[f + 1];
    for (int h = s; h < e; ++h) {
      const int a = m.face_vertices_[h];
      const int b = m.face_vertices_[h + 1 < e ? h + 1 : s];
      m.half_edges_[h] = {a, h + 1 < e ? h + 1 : s, -1, f, -1};
      auto [it, inserted] = directed.emplace(std::make_pair(a, b), h);
      if (!inserted) {
        const int other = m.half_edges_[it->second].face;
        // A third face on the edge would also land here; tell the two cases apart.
        const bool reverse_taken = directed.count({b, a}) > 0;
        if (reverse_taken) {
          throw InvalidInput("mesh", "not manifold: edge " + std::to_string(a) + "-" + std::to_string(b) +
                                         " has more than two faces (" + face_field(other) + ", " +
                                         face_field(f) + ", ...)");
        }
        throw InvalidInput("mesh", "inconsistent orientation: " + face_field(other) + " and " + face_field(f) +
                                       " both run edge " + std::to_string(a) + "->" + std::to_string(b) +
                                       " in the same direction");
      }
    }
  }
  for (int h = 0; h < nh; ++h) {
    HalfEdge& he = m.half_edges_[h];
    const int b = m.half_edges_[he.next].origin;
    auto it = directed.find({b, he.origin});
    if (it != directed.end()) {
      he.twin = it->second;
    } else if (!options.allow_open) {
      throw InvalidInput("mesh", "not closed: edge " + std::to_string(he.origin) + "-" + std::to_string(b) +
                                     " has only one face (" + face_field(he.face) + "); set allow_open to accept");
    } else {
      m.closed_ = false;
    }
    if (he.edge >= 0) continue;
    Edge edge{he.origin, b, he.face, -1, h};
    he.edge = static_cast<int>(m.edges_.size());
    if (he.twin >= 0) {
      edge.face_right = m.half_edges_[he.twin].face;
      m.half_edges_[he.twin].edge = he.edge;
    }
    m.edges_.push_back(edge);
  }

  // Vertex-edge and vertex-face incidence (CSR).
  auto build_csr = [nv](const std::vector<std::pair<int, int>>& pairs, std::vector<int>& start, std::vector<int>& ids) {
    start.assign(nv + 1, 0);
    for (const auto& [v, x] : pairs) ++start[v + 1];
    for (int i = 0; i < nv; ++i) start[i + 1] += start[i];
    ids.resize(pairs.size());
    std::vector<int> fill(start.begin(), start.end() - 1);
    for (const auto& [v, x] : pairs) ids[fill[v]++] = x;
  };
  std::vector<std::pair<int, int>> ve, vf;
  for (int e = 0; e < m.num_edges(); ++e) {
    ve.emplace_back(m.edges_[e].v0, e);
    ve.emplace_back(m.edges_[e].v1, e);
  }
  for (int h = 0; h < nh; ++h) vf.emplace_back(m.half_edges_[h].origin, m.half_edges_[h].face);
  build_csr(ve, m.vertex_edge_start_, m.vertex_edge_ids_);
  build_csr(vf, m.vertex_face_start_, m.vertex_face_ids_);

  // Signed volume: sum over faces of (area vector . point on face) / 3, about the AABB centre
  // so that far-from-origin meshes keep their digits; in the unit coordinates, so that its sign
  // survives any scale (the stored value is 0 or infinite when the volume itself is out of range).
  double volume = 0;
  for (int f = 0; f < nf; ++f) {
    auto ids = m.face(f);
    Vec3 n = Vec3::Zero();
    const std::size_t k = ids.size();
    for (std::size_t i = 0; i < k; ++i) {
      n += (unit[ids[i]] - unit_center).cross(unit[ids[(i + 1) % k]] - unit_center);
    }
    volume += n.dot(unit[ids[0]] - unit_center) / 6;
  }
  m.volume_ = std::ldexp(volume, 3 * exponent);
  if (m.closed_ && !(volume > 0)) {
    throw InvalidInput("faces", "oriented inward: the signed volume is " + format_number(m.volume_) +
                                    " (list each face counter-clockwise seen from outside)");
  }
  return m;
}

std::uint64_t Mesh::ContentId::next() noexcept {
  static std::atomic<std::uint64_t> last{0};
  return last.fetch_add(1, std::memory_order_relaxed) + 1;
}

Mesh Mesh::scaled_by_power_of_two(int exponent) const {
  Mesh m = *this;
  m.id_.value = ContentId::next();  // other contents than this mesh's
  for (Vec3& p : m.vertices_) p = times_power_of_two(p, exponent);
  for (Plane& plane : m.planes_) plane.offset = std::ldexp(plane.offset, exponent);
  m.aabb_ = {times_power_of_two(m.aabb_.min, exponent), times_power_of_two(m.aabb_.max, exponent)};
  m.sphere_.center = times_power_of_two(m.sphere_.center, exponent);
  m.sphere_.radius = std::ldexp(m.sphere_.radius, exponent);
  m.extent_ = std::ldexp(m.extent_, exponent);
  m.volume_ = std::ldexp(m.volume_, 3 * exponent);
  return m;
}

std::vector<std::array<int, 3>> Mesh::triangulate_face(int f) const {
  auto ids = face(f);
  std::vector<int> poly(ids.begin(), ids.end());
  std::vector<Eigen::Vector2d> p;
  for (int id : poly) p.push_back(project(vertices_[id], planes_[f].normal));
  std::vector<int> idx(poly.size());
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = static_cast<int>(i);
  std::vector<std::array<int, 3>> out;
  // Ear clipping: each pass removes one ear; a k-gon needs k-3 ears. Capped at k^2 probes.
  const std::size_t cap = poly.size() * poly.size() + 3;
  std::size_t probes = 0;
  std::size_t i = 0;
  while (idx.size() > 3 && probes < cap) {
    ++probes;
    const std::size_t k = idx.size();
    const int a = idx[(i + k - 1) % k], b = idx[i % k], c = idx[(i + 1) % k];
    bool ear = cross2(p[b] - p[a], p[c] - p[b]) > 0;
    for (std::size_t j = 0; ear && j < k; ++j) {
      const int q = idx[j];
      if (q == a || q == b || q == c) continue;
      if (cross2(p[b] - p[a], p[q] - p[a]) >= 0 && cross2(p[c] - p[b], p[q] - p[b]) >= 0 &&
          cross2(p[a] - p[c], p[q] - p[c]) >= 0) {
        ear = false;
      }
    }
    if (ear) {
      out.push_back({poly[a], poly[b], poly[c]});
      idx.erase(idx.begin() + static_cast<std::ptrdiff_t>(i % k));
      i = 0;
    } else {
      ++i;
    }
  }
  // idx.size() == 3 unless the cap was hit by a self-intersecting polygon; then fan the rest.
  for (std::size_t j = 1; j + 1 < idx.size(); ++j) out.push_back({poly[idx[0]], poly[idx[j]], poly[idx[j + 1]]});
  return out;
}

std::vector<std::array<int, 3>> Mesh::triangulate() const {
  std::vector<std::array<int, 3>> out;
  for (int f = 0; f < num_faces(); ++f) {
    auto t = triangulate_face(f);
    out.insert(out.end(), t.begin(), t.end());
  }
  return out;
}

}  // namespace proxima::mesh
