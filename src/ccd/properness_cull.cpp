// SPDX-License-Identifier: MIT
// The raster's properness face cull, lean form (session 35 measurement): see properness_cull.hpp.
#include "ccd/properness_cull.hpp"

#include "ccd/azimuth_atan2.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <array>
#include <numbers>

namespace proxima::ccd::detail {

namespace {

constexpr double kEstimateRounding = 1e-9;
constexpr double kAngleRounding = 1e-12;
constexpr double kInf = std::numeric_limits<double>::infinity();

struct Box {
  double r_lo, r_hi, y_lo, y_hi, phi, half;
};

double wrap(double d) {
  if (d > std::numbers::pi) return d - 2 * std::numbers::pi;
  if (d < -std::numbers::pi) return d + 2 * std::numbers::pi;
  return d;
}

bool meet(const Box& A, const Box& B, double theta, double glide) {
  if (A.r_hi < B.r_lo || B.r_hi < A.r_lo) return false;
  if (A.y_hi < B.y_lo + std::min(0.0, glide) || B.y_hi + std::max(0.0, glide) < A.y_lo) return false;
  if (A.half + B.half < std::numbers::pi) {
    const double d = wrap(A.phi - B.phi), w2 = A.half + B.half;
    double s0 = (d - w2) / theta, s1 = (d + w2) / theta;
    if (theta < 0) std::swap(s0, s1);
    if (glide != 0) {
      double t0 = (A.y_lo - B.y_hi) / glide, t1 = (A.y_hi - B.y_lo) / glide;
      if (glide < 0) std::swap(t0, t1);
      s0 = std::max(s0, t0);
      s1 = std::min(s1, t1);
    }
    if (s1 < 0 || s0 > 1 || s0 > s1) return false;
  }
  return true;
}

struct Vert {
  double r, cx, cz, phi;
};

// A local frame given by a radial unit (cx, cz).
Vec3 local(double cx, double cz, const Vec3& d) {
  return Vec3(d.x() * cx + d.z() * cz, d.x() * cz - d.z() * cx, d.y());
}

struct FaceD {
  Box box;
  Vec3 n;        // in the frame of its first vertex
  double drift;  // angle bound (>= chord) of any of its points from that frame; inf: keep
};

struct EdgeD {
  Box box;
  Vec3 u, nl, nr;
  bool has_right;
  double drift;
};

struct Body {
  std::vector<Vert> vert;
  std::vector<unsigned char> drawn;
  std::vector<FaceD> face;
  std::vector<EdgeD> edge;
  std::vector<Box> vbox;
  std::vector<Vec3> vdir;
  std::vector<int> vstart;  // per vertex its dirs [vstart[v], vstart[v+1]); empty: any
  std::vector<int> own_v, own_v_start, own_e, own_e_start;  // per face its owned vertices / edges
  std::vector<int> owner;  // scratch
  std::vector<unsigned char> need;
};

thread_local Body t_a, t_b;

// Azimuth range [lo, hi] of the points ids (relative to the first, unwrapped), half width, centre.
template <class Ids>
void azimuth_range(const Body& body, const Ids& ids, double& centre, double& half) {
  const double p0 = body.vert[static_cast<std::size_t>(ids[0])].phi;
  double lo = 0, hi = 0;
  for (int id : ids) {
    const double d = wrap(body.vert[static_cast<std::size_t>(id)].phi - p0);
    lo = std::min(lo, d);
    hi = std::max(hi, d);
  }
  centre = p0 + (lo + hi) / 2;
  half = (hi - lo) / 2 + kAngleRounding;
}

template <class Ids>
Box box_of(const Body& body, const std::vector<Vec3>& p, const Ids& ids, double pad) {
  double cx = 0, cz = 0, r_hi = 0, y_lo = kInf, y_hi = -kInf, n = 0;
  for (int id : ids) {
    cx += p[id].x();
    cz += p[id].z();
    r_hi = std::max(r_hi, body.vert[static_cast<std::size_t>(id)].r);
    y_lo = std::min(y_lo, p[id].y());
    y_hi = std::max(y_hi, p[id].y());
    n += 1;
  }
  cx /= n;
  cz /= n;
  double off_sq = 0;
  for (int id : ids) off_sq = std::max(off_sq, (p[id].x() - cx) * (p[id].x() - cx) + (p[id].z() - cz) * (p[id].z() - cz));
  const double rc = std::sqrt(cx * cx + cz * cz), off = std::sqrt(off_sq);
  Box b{std::max(0.0, rc - off) - pad, r_hi + pad, y_lo - pad, y_hi + pad, 0, std::numbers::pi};
  const double near = rc - off - pad;
  if (near > 0 && off + pad < 0.5 * rc) {
    // The projection misses the axis by more than pad: its azimuths span its vertices' range.
    azimuth_range(body, ids, b.phi, b.half);
    b.half += 1.6 * pad / near;
  }
  return b;
}

void make_body(const mesh::Mesh& m, const std::vector<Vec3>& p, const std::vector<Vec3>& normals, double pad,
               double theta, double glide, bool backward, double slack, Body& body) {
  const std::size_t nv = static_cast<std::size_t>(m.num_vertices()), nf = static_cast<std::size_t>(m.num_faces()),
                    ne = static_cast<std::size_t>(m.num_edges());
  body.vert.resize(nv);
  for (std::size_t v = 0; v < nv; ++v) {
    const double r = std::sqrt(p[v].x() * p[v].x() + p[v].z() * p[v].z());
    body.vert[v] = {r, p[v].x() / r, p[v].z() / r, azimuth_atan2(p[v].x(), p[v].z())};
  }
  body.drawn.resize(nf);
  for (std::size_t f = 0; f < nf; ++f) {
    bool drawn = false;
    for (int id : m.face(static_cast<int>(f))) {
      const double w = theta * (p[id].z() * normals[f].x() - p[id].x() * normals[f].z()) + glide * normals[f].y();
      drawn = drawn || (backward ? w - 2 * slack <= 0 : -w - 2 * slack <= 0);
    }
    body.drawn[f] = drawn;
  }
  // Owners: the first drawn face of each vertex and edge (features of no drawn face are not drawn).
  body.owner.assign(nv, -1);
  for (std::size_t f = 0; f < nf; ++f) {
    if (!body.drawn[f]) continue;
    for (int id : m.face(static_cast<int>(f))) {
      if (body.owner[static_cast<std::size_t>(id)] < 0) body.owner[static_cast<std::size_t>(id)] = static_cast<int>(f);
    }
  }
  body.own_v_start.assign(nf + 1, 0);
  for (std::size_t v = 0; v < nv; ++v) {
    if (body.owner[v] >= 0) ++body.own_v_start[static_cast<std::size_t>(body.owner[v]) + 1];
  }
  for (std::size_t f = 0; f < nf; ++f) body.own_v_start[f + 1] += body.own_v_start[f];
  body.own_v.resize(static_cast<std::size_t>(body.own_v_start[nf]));
  {
    std::vector<int>& fill = body.own_e;  // scratch before its own use below
    fill.assign(body.own_v_start.begin(), body.own_v_start.end() - 1);
    for (std::size_t v = 0; v < nv; ++v) {
      if (body.owner[v] >= 0) body.own_v[static_cast<std::size_t>(fill[static_cast<std::size_t>(body.owner[v])]++)] = static_cast<int>(v);
    }
  }
  body.vbox.resize(nv);
  body.vstart.resize(nv + 1);
  body.vdir.clear();
  for (std::size_t v = 0; v < nv; ++v) {
    body.vstart[v] = static_cast<int>(body.vdir.size());
    if (body.owner[v] < 0) continue;
    const Vert& q = body.vert[v];
    const double near = q.r - pad;
    body.vbox[v] = {q.r - pad, q.r + pad, p[v].y() - pad, p[v].y() + pad, q.phi,
                    near > 0 && pad < 0.5 * q.r ? 1.6 * pad / near + kAngleRounding : std::numbers::pi};
    if (!(q.r > 0)) continue;
    for (int e : m.vertex_edges(static_cast<int>(v))) {
      const mesh::Edge& ed = m.edge(e);
      const int other = ed.v0 == static_cast<int>(v) ? ed.v1 : ed.v0;
      body.vdir.push_back(local(q.cx, q.cz, (p[other] - p[v]).normalized()));
    }
  }
  body.vstart[nv] = static_cast<int>(body.vdir.size());
  body.face.resize(nf);
  for (std::size_t f = 0; f < nf; ++f) {
    if (!body.drawn[f]) continue;
    const auto ids = m.face(static_cast<int>(f));
    FaceD& d = body.face[f];
    d.box = box_of(body, p, ids, pad);
    const Vert& q = body.vert[static_cast<std::size_t>(ids[0])];
    if (d.box.half >= std::numbers::pi || !(q.r > 0)) {
      d.drift = kInf;
      continue;
    }
    d.n = local(q.cx, q.cz, normals[f]);
    double drift = 0;
    for (int id : ids) drift = std::max(drift, std::abs(wrap(body.vert[static_cast<std::size_t>(id)].phi - q.phi)));
    d.drift = drift + kAngleRounding;
  }
  // Edges: owned by their first drawn face.
  body.edge.resize(ne);
  body.own_e_start.assign(nf + 1, 0);
  body.owner.resize(ne);
  for (std::size_t e = 0; e < ne; ++e) {
    const mesh::Edge& ed = m.edge(static_cast<int>(e));
    int o = -1;
    if (body.drawn[static_cast<std::size_t>(ed.face_left)]) {
      o = ed.face_left;
    } else if (ed.face_right >= 0 && body.drawn[static_cast<std::size_t>(ed.face_right)]) {
      o = ed.face_right;
    }
    body.owner[e] = o;
    if (o < 0) continue;
    ++body.own_e_start[static_cast<std::size_t>(o) + 1];
    EdgeD& d = body.edge[e];
    const std::array<int, 2> ids{ed.v0, ed.v1};
    d.box = box_of(body, p, ids, pad);
    const Vert& q = body.vert[static_cast<std::size_t>(ed.v0)];
    d.has_right = ed.face_right >= 0;
    if (d.box.half >= std::numbers::pi || !(q.r > 0)) {
      d.drift = kInf;
      continue;
    }
    d.u = local(q.cx, q.cz, (p[ed.v1] - p[ed.v0]).normalized());
    d.nl = local(q.cx, q.cz, normals[ed.face_left]);
    d.nr = d.has_right ? local(q.cx, q.cz, normals[ed.face_right]) : Vec3::Zero();
    d.drift = std::abs(wrap(body.vert[static_cast<std::size_t>(ed.v1)].phi - q.phi)) + kAngleRounding;
  }
  for (std::size_t f = 0; f < nf; ++f) body.own_e_start[f + 1] += body.own_e_start[f];
  body.own_e.resize(static_cast<std::size_t>(body.own_e_start[nf]));
  {
    std::vector<int> fill(body.own_e_start.begin(), body.own_e_start.end() - 1);  // (prototype: allocates)
    for (std::size_t e = 0; e < ne; ++e) {
      if (body.owner[e] >= 0) body.own_e[static_cast<std::size_t>(fill[static_cast<std::size_t>(body.owner[e])]++)] = static_cast<int>(e);
    }
  }
  body.need.assign(nf, 0);
}

bool vertex_passes(const Body& body, int v, const FaceD& face, double t) {
  const int s0 = body.vstart[static_cast<std::size_t>(v)], s1 = body.vstart[static_cast<std::size_t>(v) + 1];
  if (s0 == s1 || !(face.drift < 2)) return true;
  double worst = kInf;
  for (int i = s0; i < s1; ++i) worst = std::min(worst, body.vdir[static_cast<std::size_t>(i)].dot(face.n));
  return worst + face.drift + kEstimateRounding >= t;
}

bool edges_pass(const EdgeD& ea, const EdgeD& eb, double t) {
  const double gamma = ea.drift + eb.drift;
  if (!(gamma < 2)) return true;
  const Vec3 m = ea.u.cross(eb.u);
  const double sn = m.norm();
  const double margin = 2 * gamma / sn + 2 * gamma + kEstimateRounding;
  if (!(margin < 2)) return true;
  const Vec3 n = m / sn;
  const Vec3 na = n.cross(ea.u), nb = n.cross(eb.u);
  double lo = na.dot(ea.nl), hi = lo;
  auto add = [&](double x) {
    lo = std::min(lo, x);
    hi = std::max(hi, x);
  };
  if (ea.has_right) add(-na.dot(ea.nr));
  add(-nb.dot(eb.nl));
  if (eb.has_right) add(nb.dot(eb.nr));
  return std::max(lo, -hi) + margin >= t;
}

void need_vertex(const mesh::Mesh& m, int v, Body& body) {
  for (int f : m.vertex_faces(v)) body.need[static_cast<std::size_t>(f)] = 1;
}

void need_edge(const mesh::Mesh& m, int e, Body& body) {
  const mesh::Edge& ed = m.edge(e);
  body.need[static_cast<std::size_t>(ed.face_left)] = 1;
  if (ed.face_right >= 0) body.need[static_cast<std::size_t>(ed.face_right)] = 1;
}

}  // namespace

bool properness_face_cull(const mesh::Mesh& a, const std::vector<Vec3>& a_points, const std::vector<Vec3>& a_normals,
                          const mesh::Mesh& b, const std::vector<Vec3>& b_points, const std::vector<Vec3>& b_normals,
                          double theta, double glide, double facing_slack, double threshold, double pad,
                          std::vector<unsigned char>& skip_a, std::vector<unsigned char>& skip_b) {
  if (theta == 0) return false;
  Body& A = t_a;
  Body& B = t_b;
  make_body(a, a_points, a_normals, pad, theta, glide, true, facing_slack, A);
  make_body(b, b_points, b_normals, pad, theta, glide, false, facing_slack, B);
  const std::size_t na = A.face.size(), nb = B.face.size();
  for (std::size_t fa = 0; fa < na; ++fa) {
    if (!A.drawn[fa] || skip_a[fa] != 0) continue;
    const FaceD& FA = A.face[fa];
    for (std::size_t fb = 0; fb < nb; ++fb) {
      if (!B.drawn[fb] || skip_b[fb] != 0) continue;
      const FaceD& FB = B.face[fb];
      if (!meet(FA.box, FB.box, theta, glide)) continue;
      for (int i = A.own_v_start[fa]; i < A.own_v_start[fa + 1]; ++i) {
        const int v = A.own_v[static_cast<std::size_t>(i)];
        if (meet(A.vbox[static_cast<std::size_t>(v)], FB.box, theta, glide) && vertex_passes(A, v, FB, threshold)) {
          need_vertex(a, v, A);
          B.need[fb] = 1;
        }
      }
      for (int i = B.own_v_start[fb]; i < B.own_v_start[fb + 1]; ++i) {
        const int v = B.own_v[static_cast<std::size_t>(i)];
        if (meet(FA.box, B.vbox[static_cast<std::size_t>(v)], theta, glide) && vertex_passes(B, v, FA, threshold)) {
          need_vertex(b, v, B);
          A.need[fa] = 1;
        }
      }
      for (int i = A.own_e_start[fa]; i < A.own_e_start[fa + 1]; ++i) {
        const int ea = A.own_e[static_cast<std::size_t>(i)];
        const EdgeD& EA = A.edge[static_cast<std::size_t>(ea)];
        for (int j = B.own_e_start[fb]; j < B.own_e_start[fb + 1]; ++j) {
          const int eb = B.own_e[static_cast<std::size_t>(j)];
          const EdgeD& EB = B.edge[static_cast<std::size_t>(eb)];
          if (meet(EA.box, EB.box, theta, glide) && edges_pass(EA, EB, threshold)) {
            need_edge(a, ea, A);
            need_edge(b, eb, B);
          }
        }
      }
    }
  }
  for (std::size_t f = 0; f < na; ++f) skip_a[f] = static_cast<unsigned char>(skip_a[f] | !A.need[f]);
  for (std::size_t f = 0; f < nb; ++f) skip_b[f] = static_cast<unsigned char>(skip_b[f] | !B.need[f]);
  return true;
}

}  // namespace proxima::ccd::detail
