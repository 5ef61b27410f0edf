// SPDX-License-Identifier: MIT
// The raster's properness face cull: see properness_cull.hpp.
#include "ccd/properness_cull.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <array>
#include <cstdio>
#include <cstdlib>
static const double kDriftScale = std::getenv("CULL_DRIFT") ? std::atof(std::getenv("CULL_DRIFT")) : 1.0;
static const double kThrShift = std::getenv("CULL_NOEST") ? -1e9 : 0.0;
static const bool kStats = std::getenv("CULL_STATS") != nullptr;

namespace proxima::ccd::detail {

namespace {

// Allowance for rounding in the estimates (unitless, as the properness).
constexpr double kEstimateRounding = 1e-9;

// The local cylindrical frame of a point off the axis: e_r = (x, 0, z) / r, e_t = (z, 0, -x) / r
// (the direction of increasing phi = atan2(x, z)), e_y.
struct Frame {
  double cx = 0, cz = 0;  // e_r's x and z
  bool ok = false;        // the point is off the axis
};

Frame frame_of(double x, double z) {
  const double r = std::hypot(x, z);
  Frame f;
  if (!(r > 0)) return f;
  f.cx = x / r;
  f.cz = z / r;
  f.ok = true;
  return f;
}

Vec3 local(const Frame& f, const Vec3& d) {
  return Vec3(d.x() * f.cx + d.z() * f.cz, d.x() * f.cz - d.z() * f.cx, d.y());
}

// The chord |e_r(p) - e_r(f)| between two radial directions: a rotation about y that carries one
// frame to the other moves a unit vector by at most this.
double chord(const Frame& f, const Frame& p) { return std::hypot(f.cx - p.cx, f.cz - p.cz); }


struct Box {
  double r_lo, r_hi, y_lo, y_hi, phi, half;
};

template <class Ids>
Box box_of(const std::vector<Vec3>& p, const Ids& ids, double pad) {
  const double inf = std::numeric_limits<double>::infinity();
  double cx = 0, cz = 0, r_hi_sq = 0, y_lo = inf, y_hi = -inf, n = 0;
  for (int id : ids) {
    cx += p[id].x();
    cz += p[id].z();
    r_hi_sq = std::max(r_hi_sq, p[id].x() * p[id].x() + p[id].z() * p[id].z());
    y_lo = std::min(y_lo, p[id].y());
    y_hi = std::max(y_hi, p[id].y());
    n += 1;
  }
  cx /= n;
  cz /= n;
  double off_sq = 0;
  for (int id : ids) off_sq = std::max(off_sq, (p[id].x() - cx) * (p[id].x() - cx) + (p[id].z() - cz) * (p[id].z() - cz));
  const double rc = std::hypot(cx, cz), off = std::sqrt(off_sq);
  Box b{std::max(0.0, rc - off) - pad, std::sqrt(r_hi_sq) + pad, y_lo - pad, y_hi + pad, std::atan2(cx, cz), 0};
  const double near = rc - off - pad;
  b.half = (!(near > 0) || off + pad >= 0.5 * rc) ? std::numbers::pi : 1.6 * (off / rc + pad / near) + 1e-12;
  return b;
}

double wrap(double d);

template <class X, class Y>
bool meet(const X& A, const Y& B, double theta, double glide) {
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
static long g_vf_meet = 0, g_ee_meet = 0, g_vf_pass = 0, g_ee_pass = 0;
static const bool kFeat = std::getenv("CULL_FEAT") != nullptr;

// Per face: the swept cylindrical box (r, y, azimuth centre and half width) and the normal in the
// frame of the centroid's azimuth with its drift chord (infinite: near the axis, always kept).
struct FaceData {
  double r_lo, r_hi, y_lo, y_hi, phi, half;
  Vec3 n;
  double drift;
  bool drawn;  // the drawing keeps a part of it (its facing test, with twice its slack)
};

struct EdgeData {
  Vec3 u, n_left, n_right;
  bool has_right;
  double drift;
};

struct Body {
  std::vector<FaceData> faces;
  std::vector<EdgeData> edges;
  std::vector<Vec3> vertex_dirs;  // per vertex, its edges' unit directions away from it, local
  std::vector<int> vertex_start;  // vertex v's directions: [start[v], start[v + 1]); none: any
  std::vector<unsigned char> need;
  std::vector<Box> vbox, ebox;
};

struct CullScratch {
  Body a, b;
};

thread_local CullScratch t_cull;

double wrap(double d) {
  if (d > std::numbers::pi) return d - 2 * std::numbers::pi;
  if (d < -std::numbers::pi) return d + 2 * std::numbers::pi;
  return d;
}

void make_body(const mesh::Mesh& m, const std::vector<Vec3>& p, const std::vector<Vec3>& normals, double pad,
               double theta, double glide, bool backward, double slack, Body& body) {
  const double inf = std::numeric_limits<double>::infinity();
  const std::size_t nf = static_cast<std::size_t>(m.num_faces());
  body.faces.resize(nf);
  for (std::size_t f = 0; f < nf; ++f) {
    FaceData& fd = body.faces[f];
    const auto ids = m.face(static_cast<int>(f));
    double cx = 0, cz = 0, r_hi_sq = 0, y_lo = inf, y_hi = -inf;
    for (int id : ids) {
      cx += p[id].x();
      cz += p[id].z();
      r_hi_sq = std::max(r_hi_sq, p[id].x() * p[id].x() + p[id].z() * p[id].z());
      y_lo = std::min(y_lo, p[id].y());
      y_hi = std::max(y_hi, p[id].y());
    }
    // As draw_body: omega . n at a corner, kept on the body's side of zero.
    fd.drawn = false;
    for (int id : ids) {
      const double w = theta * (p[id].z() * normals[f].x() - p[id].x() * normals[f].z()) + glide * normals[f].y();
      fd.drawn = fd.drawn || (backward ? w - 2 * slack <= 0 : -w - 2 * slack <= 0);
    }
    cx /= static_cast<double>(ids.size());
    cz /= static_cast<double>(ids.size());
    double off_sq = 0;
    for (int id : ids) off_sq = std::max(off_sq, (p[id].x() - cx) * (p[id].x() - cx) + (p[id].z() - cz) * (p[id].z() - cz));
    const double rc = std::hypot(cx, cz), off = std::sqrt(off_sq);
    fd.r_lo = std::max(0.0, rc - off) - pad;
    fd.r_hi = std::sqrt(r_hi_sq) + pad;
    fd.y_lo = y_lo - pad;
    fd.y_hi = y_hi + pad;
    fd.phi = std::atan2(cx, cz);
    // The face's projection lies in the disc of radius off about the centroid's: seen from the
    // axis it spans at most asin(off / rc) either side, and the pad adds asin(pad / (rc - off)).
    const double near = rc - off - pad;
    if (!(near > 0) || off + pad >= 0.5 * rc) {
      fd.half = std::numbers::pi;
      fd.drift = inf;
      fd.n = normals[f];
      continue;
    }
    fd.half = 1.6 * (off / rc + pad / near) + 1e-12;  // asin(x) <= pi x / 2 on [0, 1]
    const Frame fc = frame_of(cx, cz);
    fd.n = local(fc, normals[f]);
    double drift = 0;
    for (int id : ids) drift = std::max(drift, chord(fc, frame_of(p[id].x(), p[id].z())));
    fd.drift = drift * kDriftScale;
  }
  const std::size_t ne = static_cast<std::size_t>(m.num_edges());
  body.edges.resize(ne);
  for (std::size_t e = 0; e < ne; ++e) {
    const mesh::Edge& ed = m.edge(static_cast<int>(e));
    EdgeData& d = body.edges[e];
    const Vec3 v0 = p[ed.v0], v1 = p[ed.v1];
    const Vec3 mid = (v0 + v1) / 2;
    const double half_len = std::hypot(v1.x() - v0.x(), v1.z() - v0.z()) / 2;
    const Frame fm = frame_of(mid.x(), mid.z());
    d.has_right = ed.face_right >= 0;
    if (!fm.ok || !(std::hypot(mid.x(), mid.z()) - half_len > 0)) {
      d.drift = inf;
      continue;
    }
    d.u = local(fm, (v1 - v0).normalized());
    d.n_left = local(fm, normals[ed.face_left]);
    d.n_right = d.has_right ? local(fm, normals[ed.face_right]) : Vec3::Zero();
    d.drift = kDriftScale * std::max(chord(fm, frame_of(v0.x(), v0.z())), chord(fm, frame_of(v1.x(), v1.z())));
  }
  const std::size_t nv = static_cast<std::size_t>(m.num_vertices());
  body.vertex_start.resize(nv + 1);
  body.vertex_dirs.clear();
  for (std::size_t v = 0; v < nv; ++v) {
    body.vertex_start[v] = static_cast<int>(body.vertex_dirs.size());
    const Frame fv = frame_of(p[v].x(), p[v].z());
    if (!fv.ok) continue;  // no directions: any partner passes
    for (int e : m.vertex_edges(static_cast<int>(v))) {
      const mesh::Edge& ed = m.edge(e);
      const int other = ed.v0 == static_cast<int>(v) ? ed.v1 : ed.v0;
      body.vertex_dirs.push_back(local(fv, (p[other] - p[v]).normalized()));
    }
  }
  body.vertex_start[nv] = static_cast<int>(body.vertex_dirs.size());
  body.need.assign(nf, 0);
  body.vbox.resize(nv);
  body.ebox.resize(ne);
  if (kFeat) {
    for (std::size_t v = 0; v < nv; ++v) body.vbox[v] = box_of(p, std::array<int, 1>{static_cast<int>(v)}, pad);
    for (std::size_t e = 0; e < ne; ++e) body.ebox[e] = box_of(p, std::array<int, 2>{m.edge(static_cast<int>(e)).v0, m.edge(static_cast<int>(e)).v1}, pad);
  }
}

// Whether vertex v (its local directions) against a face normal n with drift chord can reach t.
bool vertex_passes(const Body& body, int v, const FaceData& face, double t) {
  const int s0 = body.vertex_start[static_cast<std::size_t>(v)], s1 = body.vertex_start[static_cast<std::size_t>(v) + 1];
  if (s0 == s1 || !(face.drift < 2)) return true;
  double worst = std::numeric_limits<double>::infinity();
  for (int i = s0; i < s1; ++i) worst = std::min(worst, body.vertex_dirs[static_cast<std::size_t>(i)].dot(face.n));
  return worst + face.drift + kEstimateRounding >= t;
}

// Formula (7) for both orientations of n = ua x ub, with B's vectors turned by a rotation about
// y of chord gamma at most: n moves by at most 2 gamma / |ua x ub|, every term by that plus
// (B's terms) 2 gamma.
bool edges_pass(const EdgeData& ea, const EdgeData& eb, double t) {
  const double gamma = ea.drift + eb.drift;
  if (!(gamma < 2)) return true;
  const Vec3 m = ea.u.cross(eb.u);
  const double sn = m.norm();
  const double margin = 2 * gamma / sn + 2 * gamma + kEstimateRounding;
  if (!(margin < 2)) return true;
  const Vec3 n = m / sn;
  const Vec3 na = n.cross(ea.u), nb = n.cross(eb.u);
  double lo = na.dot(ea.n_left), hi = lo;
  auto add = [&](double x) {
    lo = std::min(lo, x);
    hi = std::max(hi, x);
  };
  if (ea.has_right) add(-na.dot(ea.n_right));
  add(-nb.dot(eb.n_left));
  if (eb.has_right) add(nb.dot(eb.n_right));
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
                          double theta, double glide, double facing_slack, double threshold, double pad, std::vector<unsigned char>& skip_a,
                          std::vector<unsigned char>& skip_b) {
  if (theta == 0) return false;
  threshold += kThrShift;
  CullScratch& w = t_cull;
  make_body(a, a_points, a_normals, pad, theta, glide, true, facing_slack, w.a);
  make_body(b, b_points, b_normals, pad, theta, glide, false, facing_slack, w.b);
  const std::size_t na = w.a.faces.size(), nb = w.b.faces.size();
  long pairs_seen = 0, pass_r = 0, pass_y = 0, wide = 0;
  for (auto& f : w.a.faces) wide += f.half >= 1.5;
  for (std::size_t fa = 0; fa < na; ++fa) {
    if (!skip_a.empty() && skip_a[fa] != 0) continue;
    const FaceData& A = w.a.faces[fa];
    if (!A.drawn) continue;
    for (std::size_t fb = 0; fb < nb; ++fb) {
      if (!skip_b.empty() && skip_b[fb] != 0) continue;
      const FaceData& B = w.b.faces[fb];
      if (!B.drawn) continue;
      if (A.r_hi < B.r_lo || B.r_hi < A.r_lo) continue;
      ++pass_r;
      if (A.y_hi < B.y_lo + std::min(0.0, glide) || B.y_hi + std::max(0.0, glide) < A.y_lo) continue;
      ++pass_y;
      // A common point at a time s in [0, 1]: B's azimuth phi_b + theta s and height y_b + glide s
      // meet A's. Each gives an interval of s; they must meet each other and [0, 1].
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
        if (s1 < 0 || s0 > 1 || s0 > s1) continue;
      }
      ++pairs_seen;
      // The pair's features: A's vertices in B's face, B's vertices in A's face, edge pairs.
      const auto ia = a.face(static_cast<int>(fa));
      const auto ib = b.face(static_cast<int>(fb));
      for (int v : ia) {
        const bool mt = (!kFeat || meet(w.a.vbox[static_cast<std::size_t>(v)], B, theta, glide));
        g_vf_meet += mt;
        if (mt && vertex_passes(w.a, v, B, threshold)) {
          ++g_vf_pass;
          need_vertex(a, v, w.a);
          w.b.need[fb] = 1;
        }
      }
      for (int v : ib) {
        const bool mt = (!kFeat || meet(A, w.b.vbox[static_cast<std::size_t>(v)], theta, glide));
        g_vf_meet += mt;
        if (mt && vertex_passes(w.b, v, A, threshold)) {
          ++g_vf_pass;
          need_vertex(b, v, w.b);
          w.a.need[fa] = 1;
        }
      }
      int ha = a.face_half_edge(static_cast<int>(fa));
      for (std::size_t i = 0; i < ia.size(); ++i, ha = a.half_edge(ha).next) {
        const int ea = a.half_edge(ha).edge;
        int hb = b.face_half_edge(static_cast<int>(fb));
        for (std::size_t j = 0; j < ib.size(); ++j, hb = b.half_edge(hb).next) {
          const int eb = b.half_edge(hb).edge;
          const bool mt = (!kFeat || meet(w.a.ebox[static_cast<std::size_t>(ea)], w.b.ebox[static_cast<std::size_t>(eb)], theta, glide));
          g_ee_meet += mt;
          if (mt && (++g_ee_pass, true) && edges_pass(w.a.edges[static_cast<std::size_t>(ea)], w.b.edges[static_cast<std::size_t>(eb)], threshold)) {
            need_edge(a, ea, w.a);
            need_edge(b, eb, w.b);
          }
        }
      }
    }
  }
  if (skip_a.empty()) skip_a.assign(na, 0);
  if (skip_b.empty()) skip_b.assign(nb, 0);
  for (std::size_t f = 0; f < na; ++f) skip_a[f] = static_cast<unsigned char>(skip_a[f] | !w.a.need[f]);
  for (std::size_t f = 0; f < nb; ++f) skip_b[f] = static_cast<unsigned char>(skip_b[f] | !w.b.need[f]);
  if (kStats) {
    long ka = 0, kb = 0, ra = 0, rb = 0;
    double da = 0, db = 0, ea = 0;
    for (std::size_t f = 0; f < na; ++f) { ka += !skip_a[f]; ra += w.a.need[f]; da += w.a.faces[f].drift < 2 ? w.a.faces[f].drift : 0; }
    for (std::size_t f = 0; f < nb; ++f) { kb += !skip_b[f]; rb += w.b.need[f]; db += w.b.faces[f].drift < 2 ? w.b.faces[f].drift : 0; }
    for (auto& e : w.a.edges) ea += e.drift < 2 ? e.drift : 0;
    std::fprintf(stderr, "vfmeet=%ld eemeet=%ld vfpass=%ld eetested=%ld ", g_vf_meet, g_ee_meet, g_vf_pass, g_ee_pass); g_vf_meet = g_ee_meet = g_vf_pass = g_ee_pass = 0; std::fprintf(stderr, "r=%ld y=%ld wideA=%ld ", pass_r, pass_y, wide); std::fprintf(stderr, "CULL pairs=%ld keptA=%ld/%zu keptB=%ld/%zu meanFaceDriftA=%.4f B=%.4f edgeDriftA=%.4f theta=%.3f\n", pairs_seen, ka, na, kb, nb, da / double(na), db / double(nb), ea / double(w.a.edges.size()), theta);
  }
  return true;
}

}  // namespace proxima::ccd::detail
