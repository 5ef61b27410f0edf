// SPDX-License-Identifier: MIT
// One body drawn on the rasterised collision screen: see raster_screen.hpp.
#include "core/clamped_int.hpp"
#include "ccd/raster_screen.hpp"
#include "ccd/azimuth_atan2.hpp"
#include "ccd/stable_sort.hpp"
#include "ccd/turn_sincos.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace proxima::ccd::detail {

namespace {

// Number of Branch values (the per-edge, per-branch bookkeeping of Drawer).
constexpr std::size_t kBranches = 4;
// First guesses of a body's pieces and records per mesh edge (cost only: the vectors grow).
constexpr int kPiecesPerEdgeGuess = 4;
constexpr int kRecordsPerEdgeGuess = 16;
constexpr int kCornersPerFaceGuess = 8;
// A polygon needs this many corners.
constexpr std::size_t kMinCorners = 3;

}  // namespace

std::vector<RadialRange> face_radial_ranges(const mesh::Mesh& m, const std::vector<Vec3>& canonical, bool translation) {
  std::vector<RadialRange> out;
  face_radial_ranges(m, canonical, translation, out);
  return out;
}

void face_radial_ranges(const mesh::Mesh& m, const std::vector<Vec3>& canonical, bool translation,
                        std::vector<RadialRange>& out) {
  out.assign(static_cast<std::size_t>(m.num_faces()), RadialRange{});
  for (int f = 0; f < m.num_faces(); ++f) {
    RadialRange& range = out[static_cast<std::size_t>(f)];
    const auto ids = m.face(f);
    if (translation) {
      for (int id : ids) {
        range.lo = std::min(range.lo, canonical[id].x());
        range.hi = std::max(range.hi, canonical[id].x());
      }
      continue;
    }
    Eigen::Vector2d centre = Eigen::Vector2d::Zero();
    for (int id : ids) centre += Eigen::Vector2d(canonical[id].x(), canonical[id].z());
    centre /= static_cast<double>(ids.size());
    // The largest norms as the square roots of the largest squared norms: sqrt is monotone and
    // correctly rounded, so the same numbers with two square roots per face, not two per corner.
    double hi_sq = -std::numeric_limits<double>::infinity(), offset_sq = 0;
    for (int id : ids) {
      const Eigen::Vector2d radial(canonical[id].x(), canonical[id].z());
      hi_sq = std::max(hi_sq, radial.squaredNorm());
      offset_sq = std::max(offset_sq, (radial - centre).squaredNorm());
    }
    // (No number among the corners: sqrt(-inf) is NaN and std::max keeps -inf, as before.)
    range.hi = std::max(range.hi, std::sqrt(hi_sq));
    range.lo = std::max(0.0, centre.norm() - std::sqrt(offset_sq));
  }
}

RadialRange skip_faces_outside(const std::vector<RadialRange>& faces, const RadialRange& other, double margin,
                               std::vector<unsigned char>& skip) {
  RadialRange kept;
  skip.assign(faces.size(), 0);
  for (std::size_t f = 0; f < faces.size(); ++f) {
    if (faces[f].hi < other.lo - margin || faces[f].lo > other.hi + margin) {
      skip[f] = 1;
      continue;
    }
    kept.lo = std::min(kept.lo, faces[f].lo);
    kept.hi = std::max(kept.hi, faces[f].hi);
  }
  return kept;
}

// azimuth_atan2, not std::atan2 (cost only within the drawing: 94% of its results are the same
// double, the rest 1 or 2 ulp off). It is not bit-identical downstream: the edge-edge times are
// refined from windows of the records' screen times, and 522 of the 7,305 edge-edge collisions of
// bench/tools/ccd_answer_hash.sh (raster) came out up to 4 ulp different; the collisions, their
// features and the vertex-face times are the same (docs/benchmarks.md, session 20).
double branch_phi(const Vec3& c, Branch branch) {
  switch (branch) {
    case Branch::principal:
      return azimuth_atan2(c.x(), c.z());
    // The clipped parts may carry points a rounding error on the wrong side of x = 0, and points
    // on the cut with x = +-0: the sign of x is forced so that atan2 stays in the branch
    // (atan2(+0.0, z < 0) = pi, atan2(-0.0, z < 0) = -pi; std::min / max would keep either zero).
    case Branch::positive:
      return azimuth_atan2(c.x() > 0 ? c.x() : 0.0, c.z());
    case Branch::negative:
      return azimuth_atan2(c.x() < 0 ? c.x() : -0.0, c.z());
    case Branch::doppel:
      return azimuth_atan2(c.x() < 0 ? c.x() : -0.0, c.z()) + 2 * std::numbers::pi;
  }
  return 0;
}

std::span<const PixelRecord> BodyRaster::row(int r) const {
  if (r < row_min || r > row_max) return {};
  const std::size_t k = static_cast<std::size_t>(r - row_min);
  return {records.data() + row_start[k], static_cast<std::size_t>(row_start[k + 1] - row_start[k])};
}

void BodyRaster::clear() {
  parts.clear();
  corners.clear();
  segments.clear();
  records.clear();
  row_start.clear();
  vertices.clear();
  row_min = std::numeric_limits<int>::max();
  row_max = std::numeric_limits<int>::min();
  row_lo = std::numeric_limits<int>::min();
  row_hi = std::numeric_limits<int>::max();
  record_count = 0;
  records_deferred = false;
  deferred_rows.clear();
  out_of_records = false;
  subdivision_capped = false;
}

namespace {

using Polygon = std::vector<PartCorner>;

// Sutherland-Hodgman clip of a polygon to value(x) <= 0 (value affine in x), carrying the corner
// labels: a kept piece of a boundary keeps its mesh edge, the new boundary along the cut is virtual.
// Returns `poly` itself when every corner is kept (cost only: no copy), else `out`, written here
// (its capacity is reused across faces: no allocation per face once warm); fewer than three
// corners left gives an empty polygon. `out` must not be `poly`.
// The same clip given values[i] = value(poly[i].x) (values.size() == poly.size()).
const Polygon& clip_by_values(const Polygon& poly, const std::vector<double>& values, Polygon& out) {
  out.clear();
  const std::size_t k = poly.size();
  if (k == 0) return out;
  bool all_in = true;
  for (std::size_t i = 0; i < k; ++i) all_in = all_in && values[i] <= 0;
  if (all_in) return poly;
  for (std::size_t i = 0; i < k; ++i) {
    const std::size_t j = (i + 1) % k;
    const PartCorner& cur = poly[i];
    const bool cur_in = values[i] <= 0, next_in = values[j] <= 0;
    auto cut = [&] { return Vec3(cur.x + (poly[j].x - cur.x) * (values[i] / (values[i] - values[j]))); };
    if (cur_in) {
      out.push_back(cur);
      if (!next_in) out.push_back({cut(), -1, -1});
    } else if (next_in) {
      out.push_back({cut(), -1, cur.edge});
    }
  }
  if (out.size() < kMinCorners) out.clear();
  return out;
}

template <class Value>
const Polygon& clip(const Polygon& poly, const Value& value, std::vector<double>& values, Polygon& out) {
  values.resize(poly.size());
  for (std::size_t i = 0; i < poly.size(); ++i) values[i] = value(poly[i].x);
  return clip_by_values(poly, values, out);
}

// One row's records [first, first + count) by hmin, count > kInsertionRun: a counting sort on
// buckets, the row's hmin range [least, largest] cut into `count` equal buckets ((hmin - least) *
// scale rounds monotonically in hmin), then an insertion sort orders the few records sharing a
// bucket.
void sort_long_row(PixelRecord* first, std::size_t count, DrawScratch& scratch) {
  double least = std::numeric_limits<double>::infinity(), largest = -least;
  for (std::size_t i = 0; i < count; ++i) {
    least = std::min(least, first[i].hmin);
    largest = std::max(largest, first[i].hmin);
  }
  const double n = static_cast<double>(count), scale = n / (largest - least);
  std::vector<int>& bucket = scratch.bucket;
  std::vector<int>& fill = scratch.row_fill;
  bucket.resize(count);
  fill.assign(count + 1, 0);
  for (std::size_t i = 0; i < count; ++i) {
    const double q = (first[i].hmin - least) * scale;
    // q >= 0 is false for NaN (a row of equal hmin gives 0 * inf, a NaN hmin NaN): bucket 0, left
    // to the insertion sort. The bound keeps the cast defined.
    bucket[i] = q >= 0 ? (q < n ? static_cast<int>(q) : static_cast<int>(count) - 1) : 0;
    ++fill[static_cast<std::size_t>(bucket[i]) + 1];
  }
  for (std::size_t b = 1; b <= count; ++b) fill[b] += fill[b - 1];
  std::vector<PixelRecord>& row = scratch.row;
  row.resize(count);
  for (std::size_t i = 0; i < count; ++i) row[static_cast<std::size_t>(fill[static_cast<std::size_t>(bucket[i])]++)] = first[i];
  std::copy(row.begin(), row.end(), first);
}

// The records by (row, hmin): a counting sort by row, then each row by hmin (an insertion sort,
// after sort_long_row for a long row). Cost only: it replaced std::sort within each row, whose
// comparisons mispredicted on the tori's rows of about 50 records. Records of equal hmin may come
// in another order than std::sort's (for rows of up to 16 records the same: both sort by
// insertion); the scans depend on the hmin order only (the answers and the candidate counts are
// bit-identical, bench/tools/ccd_answer_hash.sh).
void sort_records(BodyRaster& out, DrawScratch& scratch) {
  const std::size_t rows = static_cast<std::size_t>(out.row_max - out.row_min) + 1;
  out.row_start.assign(rows + 1, 0);
  for (const PixelRecord& p : out.records) ++out.row_start[static_cast<std::size_t>(p.row - out.row_min) + 1];
  for (std::size_t k = 1; k < out.row_start.size(); ++k) out.row_start[k] += out.row_start[k - 1];
  std::vector<PixelRecord>& sorted = scratch.sorted;
  sorted.resize(out.records.size());
  std::vector<int>& fill = scratch.fill;
  fill.assign(out.row_start.begin(), out.row_start.end() - 1);
  for (const PixelRecord& p : out.records)
    sorted[static_cast<std::size_t>(fill[static_cast<std::size_t>(p.row - out.row_min)]++)] = p;
  for (std::size_t k = 0; k < rows; ++k) {
    PixelRecord* const first = sorted.data() + out.row_start[k];
    const std::size_t count = static_cast<std::size_t>(out.row_start[k + 1] - out.row_start[k]);
    if (count > kInsertionRun) sort_long_row(first, count, scratch);
    insertion_sort(first, first + count, [](const PixelRecord& p, const PixelRecord& q) { return p.hmin < q.hmin; });
  }
  out.records.swap(sorted);  // the old records' storage becomes the next call's scratch
}

// The vertex records (one per vertex and branch, made at its first projection) by row and h: a
// counting sort by row, then an insertion sort of each row's few vertices by h. Cost only (it was
// one std::sort by (row, h)); vertices of equal row and h may come in another order, which the
// vertex-face scan does not depend on (it sorts its pairs).
void sort_vertices(BodyRaster& out, DrawScratch& scratch) {
  if (out.vertices.size() < 2) return;
  int lo = std::numeric_limits<int>::max(), hi = std::numeric_limits<int>::min();
  for (const VertexRecord& v : out.vertices) {
    lo = std::min(lo, v.row);
    hi = std::max(hi, v.row);
  }
  const std::size_t rows = static_cast<std::size_t>(static_cast<long long>(hi) - lo) + 1;
  auto by_h = [](const VertexRecord& p, const VertexRecord& q) { return p.h < q.h; };
  // A few vertices, or vertices far apart (rows clamped at +-kFarRow would need a long count): one
  // sort (std::sort sorts up to 16 by insertion).
  if (out.vertices.size() <= kInsertionRun || rows > 4 * out.vertices.size()) {
    std::sort(out.vertices.begin(), out.vertices.end(),
              [](const VertexRecord& p, const VertexRecord& q) { return p.row != q.row ? p.row < q.row : p.h < q.h; });
    return;
  }
  std::vector<int>& fill = scratch.fill;
  fill.assign(rows + 1, 0);
  for (const VertexRecord& v : out.vertices) ++fill[static_cast<std::size_t>(v.row - lo) + 1];
  for (std::size_t k = 1; k <= rows; ++k) fill[k] += fill[k - 1];
  std::vector<VertexRecord>& sorted = scratch.sorted_vertices;
  sorted.resize(out.vertices.size());
  for (const VertexRecord& v : out.vertices) sorted[static_cast<std::size_t>(fill[static_cast<std::size_t>(v.row - lo)]++)] = v;
  // fill[k] is now the end of row k, fill[k - 1] its start.
  for (std::size_t k = 0; k < rows; ++k) insertion_sort(sorted.data() + (k == 0 ? 0 : fill[k - 1]), sorted.data() + fill[k], by_h);
  out.vertices.swap(sorted);
}

// The rows of piece s's records: those its r range crosses, clamped to [row_lo, row_hi] (none when
// k0 > k1).
[[gnu::always_inline]] inline std::pair<int, int> piece_rows(const ScreenSegment& s, double pixel, int row_lo, int row_hi) {
  return {std::max(row_of(std::min(s.r0, s.r1), pixel), row_lo), std::min(row_of(std::max(s.r0, s.r1), pixel), row_hi)};
}

// The records of piece s (index `segment`) in rows k0 .. k0 + count - 1, written to rec[0 ..
// count). Always inlined (cost only: out of line it cost the tori 1.1% more instructions).
[[gnu::always_inline]] inline void write_records(const ScreenSegment& s, int segment, int k0, std::size_t count, double pixel, PixelRecord* rec) {
  const double dr = s.r1 - s.r0;
  // record_span's h at the band border k pixel, the upper end of row k - 1 and the lower end of
  // row k: computed once for both rows (cost only; the same operations on the same numbers, so
  // every record is record_span's bit for bit, which the edge scan relies on).
  auto border_h = [&](int k) {
    const double u = std::clamp((k * pixel - s.r0) / dr, 0.0, 1.0);
    return s.h0 + u * (s.h1 - s.h0);
  };
  const int k_end = k0 + static_cast<int>(count);  // one past the last row written
  if (dr == 0) {
    for (int k = k0; k < k_end; ++k, ++rec) {
      const auto [hmin, hmax] = record_span(s, k, pixel);
      *rec = PixelRecord(hmin, hmax, k, segment);
    }
  } else {
    double h_low = border_h(k0);
    for (int k = k0; k < k_end; ++k, ++rec) {
      const double h_high = border_h(k + 1);
      *rec = PixelRecord(std::min(h_low, h_high), std::max(h_low, h_high), k, segment);
      h_low = h_high;
    }
  }
}

class Drawer {
 public:
  Drawer(const CollisionScreen& screen, const RasterSettings& settings, BodyRaster& out, DrawScratch& scratch,
         int edges, int vertices)
      : screen_(screen),
        set_(settings),
        out_(out),
        projected_(scratch.projected),
        whole_drawn_(scratch.whole_drawn),
        edge_midpoint_(scratch.edge_midpoint),
        vertex_projection_(scratch.vertex_projection) {
    whole_drawn_.assign(kBranches * static_cast<std::size_t>(edges), 0);
    // Read only where whole_drawn_ is set, so left as it was (cost only: no fill per call).
    edge_midpoint_.resize(kBranches * static_cast<std::size_t>(edges));
    vertex_projection_.assign(kBranches * static_cast<std::size_t>(vertices), ScreenPoint{});
  }

  void add_part(int face, Branch branch, const Polygon& poly) {
    if (poly.size() < kMinCorners) return;
    const int part = static_cast<int>(out_.parts.size());
    out_.parts.push_back({face, branch, static_cast<int>(out_.corners.size()), static_cast<int>(poly.size())});
    if (set_.keep_corners) out_.corners.insert(out_.corners.end(), poly.begin(), poly.end());
    std::vector<ScreenPoint>& proj = projected_;
    proj.resize(poly.size());
    for (std::size_t i = 0; i < poly.size(); ++i) {
      if (poly[i].vertex < 0) {
        proj[i] = project(poly[i].x, branch);
        continue;
      }
      // A mesh vertex is a corner of several parts: projected once per branch (its corner is the
      // same point in each).
      // Its vertex record is made with that first projection: one per vertex and branch.
      const std::size_t key = kBranches * static_cast<std::size_t>(poly[i].vertex) + static_cast<std::size_t>(branch);
      if (std::isnan(vertex_projection_[key].r)) {
        vertex_projection_[key] = project(poly[i].x, branch);
        const ScreenPoint& p = vertex_projection_[key];
        out_.vertices.push_back({.r = p.r, .h = p.h, .t = p.t, .row = row_of(p.r, set_.pixel), .vertex = poly[i].vertex});
      }
      proj[i] = vertex_projection_[key];
    }
    for (std::size_t i = 0; i < poly.size(); ++i) {
      const std::size_t j = (i + 1) % poly.size();
      // An edge between two kept faces is drawn by both of their parts: both boundaries count
      // for the crossing parity, but the edge-crossing scan needs it once. A whole edge (both
      // ends are mesh vertices) already drawn whole in this branch is marked virtual for it.
      // The other part drawing a whole edge (the other face's, the other way round) projects the
      // same midpoint: (x0 + x1) / 2 is (x1 + x0) / 2 bit for bit, so it takes the first part's
      // (cost only: nearly every edge is drawn as one piece, so this was most of the edge's cost).
      int crossing_edge = poly[i].edge;
      const Vec3 xm = (poly[i].x + poly[j].x) / 2;
      ScreenPoint pm;
      if (crossing_edge >= 0 && poly[i].vertex >= 0 && poly[j].vertex >= 0) {
        const std::size_t key = kBranches * static_cast<std::size_t>(crossing_edge) + static_cast<std::size_t>(branch);
        if (whole_drawn_[key]) {
          crossing_edge = -1;
          pm = edge_midpoint_[key];
        } else {
          pm = project(xm, branch);
          edge_midpoint_[key] = pm;
        }
        whole_drawn_[key] = 1;
      } else {
        pm = project(xm, branch);
      }
      draw_piece(poly[i].x, proj[i], poly[j].x, proj[j], xm, pm, branch, crossing_edge, part, 0);
    }
  }

 private:
  ScreenPoint project(const Vec3& c, Branch branch) const {
    ScreenPoint p = screen_.project_canonical(c, branch_phi(c, branch));
    if (std::isnan(p.t)) p.t = 0;  // on the axis of a pure rotation: never moves, any time will do
    return p;
  }

  // Seed section 9, third step: halve the 3-D piece until its projection is straight to within
  // kDrawErrorPerPixel of a pixel and its screen time linear to within the time resolution.
  // xm = (x0 + x1) / 2 and pm its projection come from the caller.
  void draw_piece(const Vec3& x0, const ScreenPoint& p0, const Vec3& x1, const ScreenPoint& p1, const Vec3& xm,
                  const ScreenPoint& pm, Branch branch, int edge, int part, int depth) {
    if (out_.out_of_records) return;
    const double dr = pm.r - (p0.r + p1.r) / 2, dh = pm.h - (p0.h + p1.h) / 2, dt = pm.t - (p0.t + p1.t) / 2;
    // A time error that the flow turns into less travel than the drawing error is as good as the
    // time resolution: near the axis of a pure rotation the screen time jumps (t = phi / theta)
    // while the points hardly move, and no subdivision would make it linear there.
    auto speed = [&] { return std::sqrt(pm.r * pm.r * screen_.theta * screen_.theta + screen_.glide * screen_.glide); };
    const double error = kDrawErrorPerPixel * set_.pixel;
    const bool timely = std::abs(dt) <= set_.time_resolution || std::abs(dt) * speed() <= error;
    const bool straight = dr * dr + dh * dh <= error * error && timely;
    if (!straight && depth < set_.max_subdivision) {
      const Vec3 xa = (x0 + xm) / 2, xb = (xm + x1) / 2;
      const ScreenPoint pa = project(xa, branch), pb = project(xb, branch);
      draw_piece(x0, p0, xm, pm, xa, pa, branch, edge, part, depth + 1);
      draw_piece(xm, pm, x1, p1, xb, pb, branch, edge, part, depth + 1);
      return;
    }
    if (!straight) out_.subdivision_capped = true;
    emit({p0.r, p0.h, p0.t, p1.r, p1.h, p1.t, std::max(set_.time_resolution, std::abs(dt)), edge, part});
  }

  // The Bresenham step, row by row: the piece's h range inside each row band it crosses. With
  // defer_records the records are only counted (build_records writes the same ones later).
  void emit(const ScreenSegment& s) {
    const int segment = static_cast<int>(out_.segments.size());
    out_.segments.push_back(s);
    const auto [k0, k1] = piece_rows(s, set_.pixel, set_.row_lo, set_.row_hi);
    if (k0 > k1) return;
    // The piece's records are written in place after one size check (cost only): the records
    // that fit the budget, as a push_back per row with the check before each would leave.
    const std::size_t first = out_.record_count;
    const std::size_t budget = static_cast<std::size_t>(std::max(set_.max_records, 0));
    const std::size_t room = budget - std::min(first, budget);
    const std::size_t wanted = static_cast<std::size_t>(k1 - k0) + 1;
    const std::size_t count = std::min(wanted, room);
    out_.record_count = first + count;
    if (set_.defer_records) {
      if (count > 0) out_.deferred_rows.push_back({segment, k0, static_cast<int>(count)});
    } else {
      out_.records.resize(first + count);
      write_records(s, segment, k0, count, set_.pixel, out_.records.data() + first);
    }
    // The body's row range is widened once per piece, by the rows it got records in (cost only).
    const int k_last = count < wanted ? k0 + static_cast<int>(count) - 1 : k1;
    if (count < wanted) out_.out_of_records = true;
    if (k0 <= k_last) {
      out_.row_min = std::min(out_.row_min, k0);
      out_.row_max = std::max(out_.row_max, k_last);
    }
  }

  const CollisionScreen& screen_;
  const RasterSettings& set_;
  BodyRaster& out_;
  std::vector<ScreenPoint>& projected_;
  std::vector<unsigned char>& whole_drawn_;        // per (mesh edge, branch): drawn whole already
  std::vector<ScreenPoint>& edge_midpoint_;        // per (mesh edge, branch): its projected midpoint
  std::vector<ScreenPoint>& vertex_projection_;  // per (mesh vertex, branch); r NaN: not yet
};

}  // namespace

BodyRaster draw_body(const mesh::Mesh& m, const std::vector<Vec3>& canonical, const std::vector<Vec3>& normals,
                     const CollisionScreen& screen, const RasterSettings& settings) {
  BodyRaster out;
  DrawScratch scratch;
  draw_body(m, canonical, normals, screen, settings, out, scratch);
  return out;
}

void draw_body(const mesh::Mesh& m, const std::vector<Vec3>& canonical, const std::vector<Vec3>& normals,
               const CollisionScreen& screen, const RasterSettings& settings, BodyRaster& out, DrawScratch& scratch) {
  out.clear();
  out.row_lo = settings.row_lo;
  out.row_hi = settings.row_hi;
  // A first guess of the sizes (each edge is drawn for both of its faces, a few pieces and rows
  // each) saves most of the regrowth copies.
  out.segments.reserve(static_cast<std::size_t>(kPiecesPerEdgeGuess * m.num_edges()));
  if (!settings.defer_records) out.records.reserve(static_cast<std::size_t>(kRecordsPerEdgeGuess * m.num_edges()));
  out.vertices.reserve(static_cast<std::size_t>(2 * m.num_vertices()));
  out.parts.reserve(static_cast<std::size_t>(2 * m.num_faces()));
  if (settings.keep_corners) out.corners.reserve(static_cast<std::size_t>(kCornersPerFaceGuess * m.num_faces()));
  Drawer drawer(screen, settings, out, scratch, m.num_edges(), m.num_vertices());
  const double theta = screen.theta, g = screen.glide;
  // omega(x) = theta j x x + g j = (theta z, g, -theta x) in the canonical frame (seed eq. (4)).
  auto facing = [&](const Vec3& x, const Vec3& n) { return theta * (x.z() * n.x() - x.x() * n.z()) + g * n.y(); };
  // The doppel wedge phi in [-pi, -pi + theta] is {x <= 0} and {sin(phi - alpha) <= 0}, alpha =
  // -pi + theta: -x cos(theta) + z sin(theta) <= 0 (a wedge of angle theta < pi is convex).
  // (Only body A's doppeled parts use them: body B's drawing skips the sincos, cost only.)
  const SinCos turn = settings.doppel ? turn_sincos(theta) : SinCos{0.0, 0.0};
  const double cos_t = turn.cos, sin_t = turn.sin;
  Polygon &poly = scratch.poly, &half = scratch.half, &wedge = scratch.wedge;
  std::vector<double>& values = scratch.values;
  for (int f = 0; f < m.num_faces(); ++f) {
    if (!settings.skip_face.empty() && settings.skip_face[static_cast<std::size_t>(f)] != 0) continue;
    const auto ids = m.face(f);
    const Vec3& n = normals[f];
    // Seed section 4.2: omega . n is affine in x; keep the part on the body's side of zero (the
    // corners where this is <= 0). A face with no such corner has no part (the clip would keep
    // nothing): it is passed over before its polygon is made (cost only; about half the faces).
    values.resize(ids.size());
    bool any_in = false;
    for (std::size_t i = 0; i < ids.size(); ++i) {
      const double w = facing(canonical[ids[i]], n);
      values[i] = settings.backward ? w - settings.facing_slack : -w - settings.facing_slack;
      any_in = any_in || values[i] <= 0;
    }
    if (!any_in) continue;
    poly.clear();
    int h = m.face_half_edge(f);
    for (std::size_t i = 0; i < ids.size(); ++i) {
      poly.push_back({canonical[ids[i]], ids[i], m.half_edge(h).edge});
      h = m.half_edge(h).next;
    }
    const Polygon& kept = clip_by_values(poly, values, scratch.kept);
    if (kept.empty()) continue;
    if (theta == 0) {
      drawer.add_part(f, Branch::principal, kept);
      continue;
    }
    const bool off_seam = std::all_of(kept.begin(), kept.end(), [](const PartCorner& c) { return c.x.z() > 0; });
    if (off_seam) {
      drawer.add_part(f, Branch::principal, kept);
    } else {
      // Seed figures 10 and 11: the part is cut along the half-planes x = 0 so that each piece
      // has a continuous azimuth; a cut through the axis shows on the screen as a boundary
      // through (r, h) = (0, 0), where the whole axis projects.
      drawer.add_part(f, Branch::positive, clip(
          kept, [](const Vec3& x) { return -x.x(); }, values, half));
      drawer.add_part(f, Branch::negative, clip(
          kept, [](const Vec3& x) { return x.x(); }, values, half));
    }
    if (settings.doppel) {
      const Polygon& west = clip(
          kept, [](const Vec3& x) { return x.x(); }, values, half);
      drawer.add_part(f, Branch::doppel, clip(
          west, [&](const Vec3& x) { return -x.x() * cos_t + x.z() * sin_t; }, values, wedge));
    }
  }
  // Seed section 9, fourth step: the records by row and hmin, the vertices by row and h. Deferred
  // records defer the vertices' sort too: only the scan by records needs that order (the scan by
  // pieces visits each vertex on its own and sorts its pairs), and build_records sorts them then.
  out.records_deferred = settings.defer_records;
  if (settings.defer_records) return;
  if (out.row_min <= out.row_max) sort_records(out, scratch);
  sort_vertices(out, scratch);
}

void build_records(BodyRaster& out, double pixel, DrawScratch& scratch) {
  if (!out.records_deferred) return;
  out.records_deferred = false;
  out.records.resize(out.record_count);
  // emit's records, piece by piece in the order it drew them (its rows and its count within the
  // budget kept by emit).
  PixelRecord* rec = out.records.data();
  for (const auto& [segment, k0, count] : out.deferred_rows) {
    write_records(out.segments[static_cast<std::size_t>(segment)], segment, k0, static_cast<std::size_t>(count), pixel,
                  rec);
    rec += count;
  }
  if (out.row_min <= out.row_max) sort_records(out, scratch);
  sort_vertices(out, scratch);
}

}  // namespace proxima::ccd::detail
