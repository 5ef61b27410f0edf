// SPDX-License-Identifier: MIT
// The raster method of screw_collisions: see glide_raster.hpp and seed 004 section 9.
#include "core/clamped_int.hpp"
#include "ccd/glide_raster.hpp"

#include <proxima/ccd/collision_screen.hpp>

#include "ccd/collision_list.hpp"
#include "ccd/plane_distance.hpp"
#include "ccd/polygon_tests.hpp"
#include "ccd/properness.hpp"
#include "ccd/raster_screen.hpp"
#include "ccd/roots.hpp"
#include "ccd/stable_sort.hpp"
#include "ccd/triple_product.hpp"
#include "ccd/turn_sincos.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cmath>
#include <limits>
#include <numbers>
#include <tuple>
#include <utility>

#if defined(__SSE2__)
#include <immintrin.h>
#define PROXIMA_RASTER_AVX2 1
#endif

namespace proxima::ccd::detail {
namespace {

// The small-mesh scans' pre-tests (raster_pretest_mask, glide_raster.hpp) as bit masks, so that
// the scans visit the passing entries in order without a mispredicted branch per entry. Entry i
// passes when k0[i] <= row_hi, k1[i] >= row_lo and (kH) neither hlo[i] > top nor hhi[i] < bottom.
template <bool kH>
void pretest_mask_portable(const int* k0, const int* k1, const double* hlo, const double* hhi, int n, int row_lo,
                           int row_hi, double bottom, double top, std::uint64_t* mask) {
  const int words = (n + 63) / 64;
  for (int w = 0; w < words; ++w) mask[w] = 0;
  for (int i = 0; i < n; ++i) {
    bool pass = (k0[i] <= row_hi) & (k1[i] >= row_lo);
    if constexpr (kH) pass = pass & !(hlo[i] > top) & !(hhi[i] < bottom);
    mask[i >> 6] |= std::uint64_t{pass} << (i & 63);
  }
}

#ifdef PROXIMA_RASTER_AVX2
const bool kRasterHaveAvx2 = __builtin_cpu_supports("avx2") != 0;
thread_local bool t_raster_avx2_allowed = true;

// Four entries per compare: the same comparisons as the portable loop (signed integers; ordered
// double compares, false with a NaN as > and < are), so the same bits. The arrays are read up to
// n rounded up to four; the bits past n are cleared.
template <bool kH>
__attribute__((target("avx2"))) void pretest_mask_avx2(const int* k0, const int* k1, const double* hlo,
                                                       const double* hhi, int n, int row_lo, int row_hi, double bottom,
                                                       double top, std::uint64_t* mask) {
  const __m128i lo = _mm_set1_epi32(row_lo), hi = _mm_set1_epi32(row_hi);
  const __m256d below = _mm256_set1_pd(bottom), above = _mm256_set1_pd(top);
  // Word by word (each made in a register, stored once), four entries at a time.
  for (int start = 0; start < n; start += 64) {
    const int end = std::min(n, start + 64);
    std::uint64_t word = 0;
    for (int i = start; i < end; i += 4) {
      const __m128i a0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(k0 + i));
      const __m128i a1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(k1 + i));
      const __m128i fail = _mm_or_si128(_mm_cmpgt_epi32(a0, hi), _mm_cmpgt_epi32(lo, a1));
      auto bits = static_cast<unsigned>(_mm_movemask_ps(_mm_castsi128_ps(fail)));
      if constexpr (kH) {
        const __m256d f = _mm256_or_pd(_mm256_cmp_pd(_mm256_loadu_pd(hlo + i), above, _CMP_GT_OQ),
                                       _mm256_cmp_pd(_mm256_loadu_pd(hhi + i), below, _CMP_LT_OQ));
        bits |= static_cast<unsigned>(_mm256_movemask_pd(f));
      }
      word |= std::uint64_t{~bits & 0xFu} << (i - start);
    }
    // The entries past n (read from the padding) cleared.
    if (end - start < 64) word &= (std::uint64_t{1} << (end - start)) - 1;
    mask[start >> 6] = word;
  }
}
#endif

template <bool kH>
[[gnu::always_inline]] inline void pretest_mask(const int* k0, const int* k1, const double* hlo, const double* hhi,
                                                int n, int row_lo, int row_hi, double bottom, double top,
                                                std::uint64_t* mask, [[maybe_unused]] bool avx2) {
#ifdef PROXIMA_RASTER_AVX2
  if (avx2) {
    pretest_mask_avx2<kH>(k0, k1, hlo, hhi, n, row_lo, row_hi, bottom, top, mask);
    return;
  }
#endif
  pretest_mask_portable<kH>(k0, k1, hlo, hhi, n, row_lo, row_hi, bottom, top, mask);
}

// Whether the scans take the AVX2 pre-tests on this thread.
bool use_raster_avx2() {
#ifdef PROXIMA_RASTER_AVX2
  return kRasterHaveAvx2 && t_raster_avx2_allowed;
#else
  return false;
#endif
}

// The pre-tests' lists for n entries: room for n rounded up to four (the AVX2 loop reads that far)
// and for the mask's words.
struct PretestLists {
  std::vector<int> k0, k1;
  std::vector<double> hlo, hhi;
  std::vector<std::uint64_t> mask;
  void resize(std::size_t n, bool h) {
    const std::size_t padded = (n + 3) / 4 * 4;
    k0.resize(padded);
    k1.resize(padded);
    if (h) {
      hlo.resize(padded);
      hhi.resize(padded);
    }
    mask.resize((n + 63) / 64);
  }
};

using mesh::Mesh;

// The branch and bound hands its monotone brackets straight to the regula falsi refinement (no
// coarse bisection first: unlike the exact mode, the raster has no cheap pre-check to run on a
// coarse bracket), so the coarse width is the whole step.
constexpr double kCoarseBracket = 1;
// Two reports of the same features closer in time than this are one collision (the same contact
// seen through two parts or two doppel copies), and a vertex meeting two faces within it meets
// their common edge or vertex (the seed's VE / VV case). A fraction of the step.
constexpr double kSameTime = 1e-9;
// Rounding allowance of a contact function evaluation, in ulps of its terms' magnitude (the exact
// mode's value).
constexpr double kRoundingUlps = 256;
// Edge-edge windows are searched in slabs of at most 1 / kEdgeSlabsPerStep of the step (cost only,
// see Resolver::edge_edge).
constexpr double kEdgeSlabsPerStep = 32;
// A crossing that report_edge_edge keeps has its two segments within 2 tolerance() of each other
// (the lines' intersection lies within tolerance() of each); one more tolerance() covers the gap
// left between the lines at a refined root. Used to clear slabs of edge-edge windows.
constexpr double kKeptContactReach = 3;
// Steps of an edge-edge root's refinement that the reach test follows (cost only, see
// Resolver::root_out_of_reach).
constexpr int kRootProbes = 8;
// Rows with fewer records than this are scanned from their start in the edge-crossing and
// vertex-in-face scans (cheaper than binary searches there). Cost only.
constexpr std::size_t kLinearScanRecords = 16;
// Queries whose meshes' edge counts multiply to at most this draw without writing their pixel
// records (RasterSettings::defer_records); cost only. 16384 takes in the bench's cubes (144), cars
// (676), car hulls (1764) and L-prism/torus (10,800; +1.7% instructions but 5% faster by the clock:
// the segment-pair scan's branches predict better than the row scan's), not the tori (360,000).
constexpr long long kDeferRecordsEdgePairs = 16384;
// Vertex-face candidate lists at least this long are sorted by counting on the vertex (cost only).
constexpr std::size_t kCountingSortPairs = 64;
// Cap on the samples of the bounding-sphere early out (cost only: with fewer, the test is looser).
constexpr int kMaxSphereSamples = 64;
// first_contact_only stops resolving edge-edge candidates once every remaining window starts later
// than the earliest contact + time_tolerance + this margin. The margin (a thousand kSameTime) keeps
// the merging of duplicates (resolve_duplicates, which joins reports of the same features up to
// kSameTime apart) identical to the full run's for every collision the first contact keeps.
constexpr double kFirstContactMargin = 1000 * kSameTime;

// One body in A's local frame at s = 0.
struct Geometry {
  const Mesh* mesh = nullptr;
  std::vector<Vec3> v, n;
  std::vector<double> d;
};

// Sized once and written by index (cost only: no capacity test per element).
void make_geometry(const Mesh& m, const Pose& to_a, Geometry& g) {
  g.mesh = &m;
  const std::vector<Vec3>& vertices = m.vertices();
  const std::size_t faces = static_cast<std::size_t>(m.num_faces());
  g.v.resize(vertices.size());
  g.n.resize(faces);
  g.d.resize(faces);
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    g.v[i] = to_a.apply(vertices[i]);
  }
  for (std::size_t f = 0; f < faces; ++f) {
    const int face = static_cast<int>(f);
    g.n[f] = to_a.rotate(m.face_normal(face));
    Vec3 c = Vec3::Zero();
    const std::span<const int> ids = m.face(face);
    for (int id : ids) {
      c += g.v[id];
    }
    g.d[f] = g.n[f].dot(c / static_cast<double>(ids.size()));
  }
}

// The squared distance of the closest points of two screen segments.
[[gnu::always_inline]] inline double squared_distance_2d(const ScreenSegment& p, const ScreenSegment& q) {
  const Eigen::Vector2d p0(p.r0, p.h0), d(p.r1 - p.r0, p.h1 - p.h0), q0(q.r0, q.h0), e(q.r1 - q.r0, q.h1 - q.h0);
  const Eigen::Vector2d w = p0 - q0;
  const double a = d.squaredNorm(), ee = e.squaredNorm(), b = d.dot(e), c = d.dot(w), f = e.dot(w);
  const double denom = a * ee - b * b;
  double s = denom > 0 ? std::clamp((b * f - c * ee) / denom, 0.0, 1.0) : 0.0;
  double t = ee > 0 ? (b * s + f) / ee : 0.0;
  if (t < 0) {
    t = 0;
    s = a > 0 ? std::clamp(-c / a, 0.0, 1.0) : 0.0;
  } else if (t > 1) {
    t = 1;
    s = a > 0 ? std::clamp((b - c) / a, 0.0, 1.0) : 0.0;
  }
  return (p0 + s * d - q0 - t * e).squaredNorm();
}

double point_segment_distance(double r, double h, const ScreenSegment& s) {
  return segment_distance_2d({r, h}, {s.r0, s.h0}, {s.r1, s.h1});
}

// Seed section 9, fifth step, for one direction: the (vertex of `points`, face of `faces`) pairs
// whose projections meet. A face part holds a projected vertex when the boundary pieces of the
// part that cross the vertex's r below its h are odd in number (half-open in r, so a piece end on
// the line counts once); it is also a candidate when a piece passes within `pad` (the projected
// boundary is only accurate to the drawing error, and the seed's VE / VV cases live there).
// Sorted, unique.
// A piece of the faces' body for the scan by pieces: its rows of records and its h extent, less
// and plus the rounding allowance of a record's interpolated h.
struct PieceRows {
  int k0, k1, piece;
  double hlo, hhi;
};

struct VertexFaceScratch {
  std::vector<unsigned char> state;
  std::vector<int> touched;
  std::vector<double> tallest;
  std::vector<int> bucket;
  std::vector<std::pair<int, int>> sorted;
  std::vector<PieceRows> pieces;  ///< vertex_face_candidates_by_pieces
  PretestLists piece_rows;        ///< the pieces' rows for its pre-test
};

// Sorted and made unique. A long list: a counting sort on the vertex (dense ids), then an
// insertion sort of each vertex's few faces (the same list std::sort and std::unique give,
// cheaper there).
void sort_unique_pairs(VertexFaceScratch& scratch, std::vector<std::pair<int, int>>& out) {
  if (out.size() < kCountingSortPairs) {
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return;
  }
  int vertices = 0;
  for (const auto& [vertex, face] : out) vertices = std::max(vertices, vertex + 1);
  std::vector<int>& bucket = scratch.bucket;
  bucket.assign(static_cast<std::size_t>(vertices) + 1, 0);
  for (const auto& pair : out) ++bucket[static_cast<std::size_t>(pair.first) + 1];
  for (std::size_t k = 1; k < bucket.size(); ++k) bucket[k] += bucket[k - 1];
  std::vector<std::pair<int, int>>& sorted = scratch.sorted;
  sorted.resize(out.size());
  for (const auto& pair : out) sorted[static_cast<std::size_t>(bucket[static_cast<std::size_t>(pair.first)]++)] = pair;
  out.clear();
  for (std::size_t run = 0; run < sorted.size();) {
    std::size_t end = run + 1;
    while (end < sorted.size() && sorted[end].first == sorted[run].first) ++end;
    insertion_sort(sorted.data() + run, sorted.data() + end,
                   [](const std::pair<int, int>& p, const std::pair<int, int>& q) { return p.second < q.second; });
    for (std::size_t i = run; i < end; ++i) {
      if (i == run || sorted[i].second != sorted[i - 1].second) out.push_back(sorted[i]);
    }
    run = end;
  }
}

// What both vertex-in-face scans share around their different ways of finding a vertex's records
// (written once): per part of `faces` a state, cleared for the call; the vertices in or next to the
// faces' rows; the parts a vertex's records changed listed once in `touched`; after each vertex the
// pairs of its listed parts that are odd or near, and those parts' states cleared for the next one.
// Per part: crossing parity, near the boundary, already listed in `touched`.
constexpr unsigned char kOddCrossings = 1, kNearBoundary = 2, kListed = 4;

std::vector<unsigned char>& start_vertex_face_scan(const BodyRaster& faces, VertexFaceScratch& scratch,
                                                   std::vector<std::pair<int, int>>& out) {
  out.clear();
  scratch.state.assign(faces.parts.size(), 0);
  return scratch.state;
}

[[gnu::always_inline]] inline bool in_face_rows(const VertexRecord& v, const BodyRaster& faces) {
  return v.row >= faces.row_min - 1 && v.row <= faces.row_max + 1;
}

// The state of piece s's part changed from `before` to `st`: list the part for the vertex's pairs
// once. (Given the piece, not its part: its part is read only when listed, as before this was
// shared: 0.1% of the car's instructions.)
[[gnu::always_inline]] inline void list_part(std::vector<int>& touched, unsigned char& st, unsigned char before,
                                             const ScreenSegment& s) {
  if (st != before && !(st & kListed)) {
    st |= kListed;
    touched.push_back(s.part);
  }
}

[[gnu::always_inline]] inline void finish_vertex(const VertexRecord& v, const BodyRaster& faces,
                                                 std::vector<unsigned char>& state, const std::vector<int>& touched,
                                                 std::vector<std::pair<int, int>>& out) {
  for (int part : touched) {
    if (state[part] & (kOddCrossings | kNearBoundary)) out.emplace_back(v.vertex, faces.parts[part].face);
    state[part] = 0;
  }
}

void vertex_face_candidates(const BodyRaster& points, const BodyRaster& faces, double pad, VertexFaceScratch& scratch,
                            std::vector<std::pair<int, int>>& out) {
  std::vector<unsigned char>& state = start_vertex_face_scan(faces, scratch, out);
  std::vector<int>& touched = scratch.touched;
  // Per row: the tallest record, so that a scan for records reaching up to a height starts at a
  // binary search (records starting more than that below it end below it; one pad more against
  // rounding in hmax - hmin). Only rows of kLinearScanRecords or more records use it, so it is
  // found on a row's first use (cost only: the same maximum over the same records in the same
  // order); -1 marks a row not measured yet.
  std::vector<double>& tallest = scratch.tallest;
  tallest.clear();
  if (faces.records.size() >= kLinearScanRecords) {
    tallest.assign(static_cast<std::size_t>(faces.row_max - faces.row_min) + 1, -1);
  }
  using Iterator = std::span<const PixelRecord>::iterator;
  // The first record of `from`..end failing `pred` (true on a prefix of the row), for a `from` not
  // past it: a few steps, then a binary search of the rest. The same record std::partition_point
  // over the whole row gives.
  auto advance = [](Iterator from, Iterator end, const auto& pred) {
    for (int step = 0; step < 4 && from < end; ++step, ++from) {
      if (!pred(*from)) return from;
    }
    return std::partition_point(from, end, pred);
  };
  auto measure_tallest = [&](std::span<const PixelRecord> row, int k) {
    double& t = tallest[static_cast<std::size_t>(k - faces.row_min)];
    if (t < 0) {
      t = 0;
      for (const PixelRecord& rec : row) t = std::max(t, rec.hmax - rec.hmin);
    }
    return t;
  };
  // The crossing parity of one record's piece with r = v.r (below v.h, or above when count_below
  // is false).
  auto cross = [&](const ScreenSegment& s, const VertexRecord& v, bool count_below, unsigned char& st) {
    if (std::min(s.r0, s.r1) <= v.r && v.r < std::max(s.r0, s.r1)) {
      const double h = s.h0 + (v.r - s.r0) / (s.r1 - s.r0) * (s.h1 - s.h0);
      if ((h < v.h) == count_below) st ^= kOddCrossings;
    }
  };
  auto visit = [&](const PixelRecord& rec, const VertexRecord& v, bool own_row, bool count_below) {
    const ScreenSegment& s = faces.segments[rec.segment];
    unsigned char& st = state[s.part];
    const unsigned char before = st;
    if (own_row) cross(s, v, count_below, st);
    if (!(st & kNearBoundary) && rec.hmin <= v.h + pad && rec.hmax >= v.h - pad &&
        point_segment_distance(v.r, v.h, s) <= pad) {
      st |= kNearBoundary;
    }
    list_part(touched, st, before, s);
  };
  // A record whose h range is more than the pad away from v.h (below `reaching` or from `starting`
  // on) fails visit's near test: only its crossing counts. And the side of v.h its crossing lies on
  // is known: the crossing is a point of the record's piece in the vertex's row, so its h lies in
  // the record's h range, up to rounding far below the pad, and is below v.h when the record is
  // visited counting below and above otherwise. Cost only: the same parity without the division.
  auto visit_far = [&](const PixelRecord& rec, const VertexRecord& v) {
    const ScreenSegment& s = faces.segments[rec.segment];
    unsigned char& st = state[s.part];
    const unsigned char before = st;
    if (std::min(s.r0, s.r1) <= v.r && v.r < std::max(s.r0, s.r1)) st ^= kOddCrossings;
    list_part(touched, st, before, s);
  };
  auto row_of_faces = [&](int k) -> std::span<const PixelRecord> {
    if (k < faces.row_min || k > faces.row_max) return {};
    const std::size_t i = static_cast<std::size_t>(k - faces.row_min);
    return {faces.records.data() + faces.row_start[i],
            static_cast<std::size_t>(faces.row_start[i + 1] - faces.row_start[i])};
  };
  // The vertices come by row and then h, so within a row of vertices `reaching` and `starting` only
  // move forward in each of the three rows of faces: a sweep from where the previous vertex left
  // them (reset on a new row, or if h goes down, as only a NaN could make it) instead of two binary
  // searches per row and vertex (cost only: the same records, see advance).
  int swept_row = 0;
  double swept_h = 0;
  std::array<std::span<const PixelRecord>, 3> rows{};
  std::array<Iterator, 3> reach_from{}, start_from{};
  bool swept = false;
  for (const VertexRecord& v : points.vertices) {
    if (!in_face_rows(v, faces)) continue;
    if (!swept || v.row != swept_row || !(v.h >= swept_h)) {
      for (std::size_t i = 0; i < 3; ++i) {
        rows[i] = row_of_faces(v.row - 1 + static_cast<int>(i));
        reach_from[i] = start_from[i] = rows[i].begin();
      }
      swept = true;
      swept_row = v.row;
    }
    swept_h = v.h;
    touched.clear();
    for (std::size_t i = 0; i < 3; ++i) {
      const int k = v.row - 1 + static_cast<int>(i);
      const std::span<const PixelRecord> row = rows[i];
      // A short row is visited from its start, counting below v.h. Otherwise records starting more
      // than the tallest record (plus a pad against rounding in hmax - hmin) below v.h - pad end
      // below it.
      const bool short_row = row.size() < kLinearScanRecords;
      Iterator reaching = row.begin(), starting = row.begin();
      if (short_row) {
        while (starting < row.end() && starting->hmin <= v.h + pad) ++starting;
      } else {
        const double low = (v.h - pad) - (measure_tallest(row, k) + pad);
        reaching = reach_from[i] =
            advance(reach_from[i], row.end(), [&](const PixelRecord& rec) { return rec.hmin < low; });
        starting = start_from[i] =
            advance(start_from[i], row.end(), [&](const PixelRecord& rec) { return rec.hmin <= v.h + pad; });
      }
      const Iterator near_from = std::min(reaching, starting);
      if (k != v.row) {
        // Neighbouring rows only hold records near the vertex.
        for (Iterator it = near_from; it < starting; ++it) visit(*it, v, false, true);
        continue;
      }
      // The vertex's row: the parity of the part boundary's crossings of r = v.r below v.h, or,
      // when fewer records lie that way, above (h >= v.h: the same parity, since a closed boundary
      // crosses the line an even number of times and every crossing has a record in this row;
      // not relied on when records are missing).
      if (!short_row && !faces.out_of_records && row.end() - reaching < starting - row.begin()) {
        const Iterator near_to = std::max(reaching, starting);
        for (Iterator it = reaching; it < near_to; ++it) visit(*it, v, true, false);
        for (Iterator it = near_to; it < row.end(); ++it) visit_far(*it, v);
      } else {
        for (Iterator it = row.begin(); it < near_from; ++it) visit_far(*it, v);
        for (Iterator it = near_from; it < starting; ++it) visit(*it, v, true, true);
      }
    }
    finish_vertex(v, faces, state, touched, out);
  }
  sort_unique_pairs(scratch, out);
}

// Step 5 for small bodies, from the pieces instead of the pixel records (the segment-pair edge
// scan reads no record either, so such a query never writes or sorts them: cost only). The same
// pairs as vertex_face_candidates: a piece has a record in row k exactly when k is in its rows
// [k0, k1] (draw_body's clamp, within the budget: not used when records are missing), so
// - the crossing parity counts the pieces with a record in the vertex's row that cross r = v.r
//   (cross's test) below v.h: the records vertex_face_candidates visits there (it infers the side
//   of the far ones from their h range, the same side up to rounding far below the pad);
// - the near test is the records' h test on the piece's records in rows v.row - 1 .. v.row + 1
//   (record_span: the numbers draw_body writes), then the point-piece distance.
// Calls f(i, k0, k1) for each piece i of `body` with records, in order: k0 .. k1 are the rows of its
// records (row_of of its ends, clamped to the rows the body was drawn in, as draw_body clamps
// them). Drawn with deferred records and within the budget, those are the rows draw_body noted
// (every piece got all of them; cost only: no division).
template <class F>
[[gnu::always_inline]] inline void for_each_piece_rows(const BodyRaster& body, double pixel, F&& f) {
  if (body.records_deferred && !body.out_of_records) {
    for (const auto& [i, k0, count] : body.deferred_rows) f(static_cast<std::size_t>(i), k0, k0 + count - 1);
    return;
  }
  for (std::size_t i = 0; i < body.segments.size(); ++i) {
    const ScreenSegment& s = body.segments[i];
    const int k0 = std::max(row_of(std::min(s.r0, s.r1), pixel), body.row_lo);
    const int k1 = std::min(row_of(std::max(s.r0, s.r1), pixel), body.row_hi);
    if (k0 <= k1) f(i, k0, k1);
  }
}

void vertex_face_candidates_by_pieces(const BodyRaster& points, const BodyRaster& faces, double pad, double pixel,
                                      VertexFaceScratch& scratch, std::vector<std::pair<int, int>>& out) {
  std::vector<unsigned char>& state = start_vertex_face_scan(faces, scratch, out);
  std::vector<int>& touched = scratch.touched;
  std::vector<PieceRows>& pieces = scratch.pieces;
  pieces.clear();
  for_each_piece_rows(faces, pixel, [&](std::size_t i, int k0, int k1) {
    const ScreenSegment& s = faces.segments[i];
    // A record's h is interpolated between h0 and h1: within their range up to rounding, far below
    // this allowance (as in edge_windows_by_segments).
    const double hlo = std::min(s.h0, s.h1), hhi = std::max(s.h0, s.h1);
    const double allowance = 1e-12 * (std::abs(hlo) + std::abs(hhi));
    pieces.push_back({k0, k1, static_cast<int>(i), hlo - allowance, hhi + allowance});
  });
  // The row test (v.row within k0 - 1 .. k1 + 1) of every piece as bits, four per AVX2 compare
  // where it runs; the passing pieces visited in order (cost only: the same pieces in the same
  // order).
  PretestLists& lists = scratch.piece_rows;
  const int n = static_cast<int>(pieces.size());
  lists.resize(pieces.size(), false);
  for (std::size_t j = 0; j < pieces.size(); ++j) {
    lists.k0[j] = pieces[j].k0;
    lists.k1[j] = pieces[j].k1;
  }
  const bool avx2 = use_raster_avx2();
  const int words = (n + 63) / 64;
  for (const VertexRecord& v : points.vertices) {
    if (!in_face_rows(v, faces)) continue;
    touched.clear();
    const double h_up = v.h + pad, h_down = v.h - pad;
    pretest_mask<false>(lists.k0.data(), lists.k1.data(), nullptr, nullptr, n, v.row - 1, v.row + 1, 0, 0,
                        lists.mask.data(), avx2);
    for (int w = 0; w < words; ++w) {
      // (Each pass clears one bit: at most 64.)
      for (std::uint64_t bits = lists.mask[static_cast<std::size_t>(w)]; bits != 0; bits &= bits - 1) {
        const auto& [k0, k1, i, hlo, hhi] = pieces[static_cast<std::size_t>(64 * w + std::countr_zero(bits))];
        const ScreenSegment& s = faces.segments[static_cast<std::size_t>(i)];
        unsigned char& st = state[s.part];
        const unsigned char before = st;
        if (k0 <= v.row && v.row <= k1 && std::min(s.r0, s.r1) <= v.r && v.r < std::max(s.r0, s.r1)) {
          const double h = s.h0 + (v.r - s.r0) / (s.r1 - s.r0) * (s.h1 - s.h0);
          if (h < v.h) st ^= kOddCrossings;
        }
        // (No record of a piece whose h extent is beyond the pad passes the records' h test.)
        if (!(st & kNearBoundary) && hlo <= h_up && hhi >= h_down) {
          for (int k = std::max(k0, v.row - 1); k <= std::min(k1, v.row + 1); ++k) {
            const auto [hmin, hmax] = record_span(s, k, pixel);
            if (hmin <= h_up && hmax >= h_down) {
              if (point_segment_distance(v.r, v.h, s) <= pad) st |= kNearBoundary;
              break;
            }
          }
        }
        list_part(touched, st, before, s);
      }
    }
    finish_vertex(v, faces, state, touched, out);
  }
  sort_unique_pairs(scratch, out);
}

// An edge pair with the time window in which the screen says they cross.
struct EdgeCandidate {
  // Left uninitialised by default (cost only: the counting sorts size their output and then write
  // every entry).
  EdgeCandidate() {}  // NOLINT(modernize-use-equals-default): = default would zero them in resize
  EdgeCandidate(int a, int b, double l, double h) : edge_a(a), edge_b(b), lo(l), hi(h) {}
  int edge_a, edge_b;
  double lo, hi;
};

// The screen times of a piece between the band fractions u of one row (band_fractions): the
// part of the piece a record stands for.
[[gnu::always_inline]] inline std::pair<double, double> times_between(const ScreenSegment& s,
                                                                      std::pair<double, double> u) {
  const double ta = s.t0 + u.first * (s.t1 - s.t0), tb = s.t0 + u.second * (s.t1 - s.t0);
  return {std::min(ta, tb), std::max(ta, tb)};
}

// The screen times of a piece within one row band [row pixel, (row + 1) pixel].
[[gnu::always_inline]] inline std::pair<double, double> row_times(const ScreenSegment& s, int row, double pixel) {
  return times_between(s, band_fractions(s, row, pixel));
}

// Seed section 9, sixth step: per row, the non-virtual edge records of A and B whose screen pieces
// come within `pad` of each other (B's records of the row and of the two next to it: each
// polyline is only accurate to the drawing error, below a pixel, so near a row boundary the two
// may sit in neighbouring rows).
// The time window is the difference of the two records' time ranges, widened by the pieces' time
// errors and by the time each needs to move by `pad` along itself. It is deliberately not the
// single estimate t_A - t_B at the crossing of the two pieces: two nearly parallel projections
// cross far from where their times match (a regression found by seeded stress, tet vs L-prism).
// Windows of the same edge pair that overlap or touch are merged (the merged windows are the
// connected parts of the union of the closed windows, whatever order they are found in), and the
// result is ordered by (edge_a, edge_b, lo).
struct RecordTimes {
  double lo = std::numeric_limits<double>::quiet_NaN(), hi = 0, per_length = 0;
};

// An edge segment for the segment-pair scan: its rows of records and its h extent.
struct EdgeSegment {
  int segment;
  int k0, k1;
  int first;  ///< its row k's RowRecord is EdgeScratch::rows_a / rows_b[first + k - k0]
  double hlo, hhi;
  /// Its share of the pair tests' rounding allowance, 1e-12 (|hlo| + |hhi|), and its h extent
  /// widened by it (made once per segment, not per pair: cost only; see the pair loop).
  double allowance, hlo_low, hhi_high;
};

// A segment's record in one row for the segment-pair scan: record_span's h range and row_times'
// time range, computed on first use (each is asked for by many segment pairs).
struct RowRecord {
  double hmin, hmax, tlo, thi;
  unsigned stamp;  ///< computed in the call of edge_windows_by_segments with this EdgeScratch::stamp
};

struct EdgeScratch {
  std::vector<EdgeSegment> segments_a, segments_b;
  std::vector<RowRecord> rows_a, rows_b;  ///< edge_windows_by_segments
  unsigned stamp = 0;                      ///< its calls (0: never; rows start unstamped)
  std::vector<EdgeCandidate> found, sorted;
  std::vector<RecordTimes> times_a, times_b;
  std::vector<PixelRecord> records_b;
  std::vector<int> row_start_b;
  std::vector<double> tallest_b;
  std::vector<int> group;
  std::vector<std::array<int, 2>> tested_b;
  std::vector<int> window_of_b;
  PretestLists pretest_b;  ///< B's segments' rows and widened h extents (edge_windows_by_segments)
};

// The screen time per screen length of a piece (how far its time moves along the pad).
double time_per_length(const ScreenSegment& s) {
  const double len = std::sqrt((s.r1 - s.r0) * (s.r1 - s.r0) + (s.h1 - s.h0) * (s.h1 - s.h0));
  return len > 0 ? std::abs(s.t1 - s.t0) / len : 0.0;
}

// The window of a record pair (A's piece sa in row ka with its times ta, B's sb in row kb with
// tb), or nothing when it misses the step; joined with an earlier window when it is the same edge
// pair and they overlap or touch (as the merge in edge_candidates would join them: the merged
// windows are the connected parts of the union of the closed windows, whichever are joined
// first). The earlier window is the last one found, or, given `window_of_b` (per edge of B, the
// index in `out` of the last window found with it, -1 for none), the last one found with sb's edge
// (it is the last one when that is the same edge pair).
[[gnu::always_inline]] inline void add_window(const ScreenSegment& sa, const ScreenSegment& sb, const RecordTimes& ta,
                                              const RecordTimes& tb, double pad, std::vector<EdgeCandidate>& out,
                                              int* window_of_b = nullptr) {
  const double w = 2 * (sa.time_error + sb.time_error) + 2 * pad * (ta.per_length + tb.per_length);
  const double lo = ta.lo - tb.hi - w, hi = ta.hi - tb.lo + w;
  if (hi < 0 || lo > 1) return;
  auto join = [&](EdgeCandidate& earlier) {
    if (earlier.edge_a == sa.edge && earlier.edge_b == sb.edge && lo <= earlier.hi && earlier.lo <= hi) {
      earlier.lo = std::min(earlier.lo, lo);
      earlier.hi = std::max(earlier.hi, hi);
      return true;
    }
    return false;
  };
  if (window_of_b != nullptr) {
    int& last = window_of_b[sb.edge];
    if (last >= 0 && join(out[static_cast<std::size_t>(last)])) return;
    last = static_cast<int>(out.size());
  } else if (!out.empty() && join(out.back())) {
    return;
  }
  out.push_back({sa.edge, sb.edge, lo, hi});
}

// Small bodies: the record pairs of the row scan below, found by pairs of edge segments instead of
// rows. Each segment's records are recomputed (record_span, the numbers draw_body stored) in its
// rows (row_of of its ends, clamped to the rows its body was drawn in, as draw_body clamps them):
// for every pair of segments whose rows come within one and whose h extents within the pad (plus a
// rounding allowance, since a record's ends are interpolated), and that come within the pad of each
// other, every A record and B record of them in rows at most one apart that pass the row scan's h
// tests give the row scan's window. The row scan finds exactly those pairs (its skips only pass
// records that fail the h tests), so the windows are the same and so is their union, which is all
// the merge keeps.
void edge_windows_by_segments(const BodyRaster& a, const BodyRaster& b, double pad, double pixel, EdgeScratch& scratch,
                              std::vector<EdgeCandidate>& out) {
  auto list = [&](const BodyRaster& body, std::vector<EdgeSegment>& segments, std::vector<RowRecord>& rows) {
    segments.clear();
    int first = 0;
    for_each_piece_rows(body, pixel, [&](std::size_t i, int k0, int k1) {
      const ScreenSegment& s = body.segments[i];
      if (s.edge < 0) return;
      const double hlo = std::min(s.h0, s.h1), hhi = std::max(s.h0, s.h1);
      const double allowance = 1e-12 * (std::abs(hlo) + std::abs(hhi));
      segments.push_back(
          {static_cast<int>(i), k0, k1, first, hlo, hhi, allowance, hlo - allowance, hhi + allowance});
      // (At most the body's record count in all: these are the rows its records were counted in.)
      first += k1 - k0 + 1;
    });
    if (rows.size() < static_cast<std::size_t>(first)) rows.resize(static_cast<std::size_t>(first));
  };
  // Records of an earlier call count as not computed (on wrap-around, every stamp is cleared).
  if (++scratch.stamp == 0) {
    for (RowRecord& r : scratch.rows_a) r.stamp = 0;
    for (RowRecord& r : scratch.rows_b) r.stamp = 0;
    scratch.stamp = 1;
  }
  const unsigned stamp = scratch.stamp;
  list(a, scratch.segments_a, scratch.rows_a);
  list(b, scratch.segments_b, scratch.rows_b);
  // The record of segment s (listed as e) in row k: record_span and row_times (the same numbers).
  auto record = [&](std::vector<RowRecord>& rows, const EdgeSegment& e, const ScreenSegment& s,
                    int k) -> const RowRecord& {
    RowRecord& r = rows[static_cast<std::size_t>(e.first + (k - e.k0))];
    if (r.stamp != stamp) {
      // record_span and row_times of one band fractions (cost only: the same numbers).
      const std::pair<double, double> u = band_fractions(s, k, pixel);
      std::tie(r.hmin, r.hmax) = span_between(s, u);
      std::tie(r.tlo, r.thi) = times_between(s, u);
      r.stamp = stamp;
    }
    return r;
  };
  // B's rows and widened h extents, for the pair pre-tests four per AVX2 compare (where it runs) as
  // bits; the passing B segments are visited in order (cost only: the same pairs in the same order).
  PretestLists& lists = scratch.pretest_b;
  const std::vector<EdgeSegment>& segments_b = scratch.segments_b;
  const int n = static_cast<int>(segments_b.size());
  lists.resize(segments_b.size(), true);
  for (std::size_t j = 0; j < segments_b.size(); ++j) {
    lists.k0[j] = segments_b[j].k0;
    lists.k1[j] = segments_b[j].k1;
    lists.hlo[j] = segments_b[j].hlo_low;
    lists.hhi[j] = segments_b[j].hhi_high;
  }
  const bool avx2 = use_raster_avx2();
  const int words = (n + 63) / 64;
  const double reach = squared_reach(pad);
  for (const EdgeSegment& ea : scratch.segments_a) {
    const ScreenSegment& sa = a.segments[static_cast<std::size_t>(ea.segment)];
    const double tpl_a = time_per_length(sa);
    // B's rows k0 .. k1 come within one of A's: k0 <= ea.k1 + 1 and k1 >= ea.k0 - 1.
    // A record's h is interpolated between its piece's h0 and h1, so it lies in [hlo, hhi] up to a
    // few ulp of max(|h0|, |h1|); each segment's allowance (1e-12 of those) is far above that, so the
    // extent tests below, each side widened by its own allowance, only drop pairs that the records'
    // own h tests would drop (the rounding of the widened bounds does not matter for that).
    const double a_top = ea.hhi + pad + ea.allowance, a_bottom = ea.hlo - pad - ea.allowance;
    // The pair pre-tests: B's rows within one of A's, and no eb.hlo_low > a_top or eb.hhi_high <
    // a_bottom.
    pretest_mask<true>(lists.k0.data(), lists.k1.data(), lists.hlo.data(), lists.hhi.data(), n, ea.k0 - 1,
                       ea.k1 + 1, a_bottom, a_top, lists.mask.data(), avx2);
    for (int w = 0; w < words; ++w) {
      // (Each pass clears one bit: at most 64.)
      for (std::uint64_t bits = lists.mask[static_cast<std::size_t>(w)]; bits != 0; bits &= bits - 1) {
        const EdgeSegment& eb = segments_b[static_cast<std::size_t>(64 * w + std::countr_zero(bits))];
        const ScreenSegment& sb = b.segments[static_cast<std::size_t>(eb.segment)];
        if (squared_distance_2d(sa, sb) > reach) continue;
        const double tpl_b = time_per_length(sb);
        // A's rows within one of B's.
        const int ka0 = std::max(ea.k0, eb.k0 - 1), ka1 = std::min(ea.k1, eb.k1 + 1);
        for (int ka = ka0; ka <= ka1; ++ka) {
          const RowRecord& ra = record(scratch.rows_a, ea, sa, ka);
          const double amin = ra.hmin, amax = ra.hmax;
          if (eb.hlo_low > amax + pad + ea.allowance || eb.hhi_high < amin - pad - ea.allowance) continue;
          const RecordTimes ta{ra.tlo, ra.thi, tpl_a};
          for (int kb = std::max(eb.k0, ka - 1); kb <= std::min(eb.k1, ka + 1); ++kb) {
            const RowRecord& rb = record(scratch.rows_b, eb, sb, kb);
            if (rb.hmin > amax + pad || rb.hmax < amin - pad) continue;
            add_window(sa, sb, ta, RecordTimes{rb.tlo, rb.thi, tpl_b}, pad, out);
          }
        }
      }
    }
  }
}

// The row scan (seed section 9, sixth step); inlined, as are the merge below and
// squared_distance_2d (out of line they cost the tori about 0.5% more instructions).
[[gnu::always_inline]] inline void edge_windows_by_rows(const BodyRaster& a, const BodyRaster& b, double pad,
                                                        double pixel, EdgeScratch& scratch,
                                                        std::vector<EdgeCandidate>& out) {
  const int k0 = std::max(a.row_min, b.row_min - 1), k1 = std::min(a.row_max, b.row_max + 1);
  // Per record, its time range in its row (each record meets several of the other body's):
  // computed on first use.
  // B's records of mesh edges (the others, virtual or drawn already, pair with nothing) by row, in
  // hmin order, and per row the tallest of them plus two pads: A's record can only meet those that
  // start where hmin reaches A's hmin less this (records starting lower end lower; one pad more than
  // needed, so that rounding in hmax - hmin cannot drop a record). A's records of a row come in
  // hmin order too, so that start only moves forward.
  std::vector<PixelRecord>& records_b = scratch.records_b;
  std::vector<int>& row_start_b = scratch.row_start_b;
  std::vector<double>& tallest_b = scratch.tallest_b;
  records_b.clear();
  row_start_b.clear();
  tallest_b.clear();
  if (b.row_min <= b.row_max) {
    const std::size_t rows = static_cast<std::size_t>(b.row_max - b.row_min) + 1;
    row_start_b.assign(rows + 1, 0);
    tallest_b.assign(rows, 0);
    for (std::size_t k = 0; k < rows; ++k) {
      row_start_b[k] = static_cast<int>(records_b.size());
      for (const PixelRecord& pb : b.row(b.row_min + static_cast<int>(k))) {
        if (b.segments[pb.segment].edge < 0) continue;
        records_b.push_back(pb);
        tallest_b[k] = std::max(tallest_b[k], pb.hmax - pb.hmin);
      }
    }
    row_start_b[rows] = static_cast<int>(records_b.size());
  }
  // Per piece of B, the last two pieces of A measured against it, each as 2 index + 1 when within
  // the pad, 2 index when not (-1: none). A pair of pieces has a record pair in each pair of their
  // rows at most one apart that pass the h tests (on the tori two on average): their distance is
  // measured once for most pairs (cost only: the same function of the same two pieces).
  std::vector<std::array<int, 2>>& tested_b = scratch.tested_b;
  tested_b.assign(b.segments.size(), {-1, -1});
  const double reach = squared_reach(pad);
  auto near = [&](int ia, const ScreenSegment& sa, int ib) {
    std::array<int, 2>& tested = tested_b[static_cast<std::size_t>(ib)];
    const int within = 2 * ia + 1;
    if ((tested[0] | 1) == within) return tested[0] == within;
    if ((tested[1] | 1) == within) return tested[1] == within;
    const bool result = !(squared_distance_2d(sa, b.segments[ib]) > reach);
    tested[1] = tested[0];
    tested[0] = result ? within : within - 1;
    return result;
  };
  // Per edge of B, the window last found with it (add_window).
  int edges_b = 0;
  for (const ScreenSegment& sb : b.segments) edges_b = std::max(edges_b, sb.edge + 1);
  std::vector<int>& window_of_b = scratch.window_of_b;
  window_of_b.assign(static_cast<std::size_t>(edges_b), -1);
  auto edge_row_b = [&](int kb) -> std::span<const PixelRecord> {
    if (kb < b.row_min || kb > b.row_max) return {};
    const std::size_t k = static_cast<std::size_t>(kb - b.row_min);
    return {records_b.data() + row_start_b[k], static_cast<std::size_t>(row_start_b[k + 1] - row_start_b[k])};
  };
  std::vector<RecordTimes>& times_a = scratch.times_a;
  std::vector<RecordTimes>& times_b = scratch.times_b;
  times_a.assign(a.records.size(), RecordTimes{});
  times_b.assign(records_b.size(), RecordTimes{});
  auto record_times = [&](const std::vector<PixelRecord>& records, const std::vector<ScreenSegment>& segments,
                          std::vector<RecordTimes>& times, const PixelRecord& rec) {
    RecordTimes& t = times[static_cast<std::size_t>(&rec - records.data())];
    if (std::isnan(t.lo)) {
      const ScreenSegment& seg = segments[rec.segment];
      std::tie(t.lo, t.hi) = row_times(seg, rec.row, pixel);
      t.per_length = time_per_length(seg);
    }
    return t;
  };
  for (int k = k0; k <= k1; ++k) {
    const auto ra = a.row(k);
    if (ra.empty()) continue;
    // B's rows k - 1, k, k + 1.
    std::array<std::span<const PixelRecord>, 3> rb;
    std::array<double, 3> reach_back{};
    std::array<std::size_t, 3> start{};
    for (std::size_t i = 0; i < 3; ++i) {
      const int kb = k - 1 + static_cast<int>(i);
      rb[i] = edge_row_b(kb);
      if (!rb[i].empty()) reach_back[i] = tallest_b[static_cast<std::size_t>(kb - b.row_min)] + 2 * pad;
    }
    for (const PixelRecord& pa : ra) {
      const ScreenSegment& sa = a.segments[pa.segment];
      if (sa.edge < 0) continue;
      for (std::size_t i = 0; i < 3; ++i) {
        const std::span<const PixelRecord> row = rb[i];
        std::size_t j = start[i];
        while (j < row.size() && row[j].hmin < pa.hmin - reach_back[i]) ++j;
        start[i] = j;
        for (; j < row.size(); ++j) {
          const PixelRecord& pb = row[j];
          if (pb.hmin > pa.hmax + pad) break;
          if (pb.hmax < pa.hmin - pad) continue;
          if (!near(pa.segment, sa, pb.segment)) continue;
          const ScreenSegment& sb = b.segments[pb.segment];
          const RecordTimes ta = record_times(a.records, a.segments, times_a, pa);
          const RecordTimes tb = record_times(records_b, b.segments, times_b, pb);
          add_window(sa, sb, ta, tb, pad, out, window_of_b.data());
        }
      }
    }
  }
}

// The windows found, ordered by (edge_a, edge_b, lo) and merged into `merged`.
[[gnu::always_inline]] inline void sort_and_merge_windows(EdgeScratch& scratch, std::vector<EdgeCandidate>& merged) {
  std::vector<EdgeCandidate>& out = scratch.found;
  // Ordered by (edge_a, edge_b, lo): stable counting sorts on B's edge, then on A's (dense ids),
  // then an insertion sort on lo of each run of one edge pair (a few entries). Entries equal in all
  // three keys may come in any order: the merge below joins them the same way.
  int edges_a = 0, edges_b = 0;
  for (const EdgeCandidate& c : out) {
    edges_a = std::max(edges_a, c.edge_a + 1);
    edges_b = std::max(edges_b, c.edge_b + 1);
  }
  std::vector<int>& next = scratch.group;
  auto counting_sort = [&](const std::vector<EdgeCandidate>& from, std::vector<EdgeCandidate>& to, int keys,
                           auto key) {
    next.assign(static_cast<std::size_t>(keys) + 1, 0);
    for (const EdgeCandidate& c : from) ++next[static_cast<std::size_t>(key(c)) + 1];
    for (std::size_t k = 1; k < next.size(); ++k) next[k] += next[k - 1];
    to.resize(from.size());
    for (const EdgeCandidate& c : from) to[static_cast<std::size_t>(next[static_cast<std::size_t>(key(c))]++)] = c;
  };
  std::vector<EdgeCandidate>& sorted = scratch.sorted;
  counting_sort(out, sorted, edges_b, [](const EdgeCandidate& c) { return c.edge_b; });
  counting_sort(sorted, out, edges_a, [](const EdgeCandidate& c) { return c.edge_a; });
  for (std::size_t run = 0; run < out.size();) {
    std::size_t end = run + 1;
    while (end < out.size() && out[end].edge_a == out[run].edge_a && out[end].edge_b == out[run].edge_b) ++end;
    insertion_sort(out.data() + run, out.data() + end, [](const EdgeCandidate& p, const EdgeCandidate& q) { return p.lo < q.lo; });
    run = end;
  }
  for (const EdgeCandidate& c : out) {
    if (!merged.empty() && merged.back().edge_a == c.edge_a && merged.back().edge_b == c.edge_b &&
        c.lo <= merged.back().hi) {
      merged.back().hi = std::max(merged.back().hi, c.hi);
    } else {
      merged.push_back(c);
    }
  }
}

// The segment-pair scan is taken when the pairs of edge segments number at most this many times the
// two bodies' records (cost only: both scans give the same windows). Callgrind over the bench
// motions of seed 1: at 1 the cubes -5% and the others within +0.8%; at 4 the L-prism/torus +5.7%
// and the car hulls +3% (docs/benchmarks.md, session 14).
constexpr std::size_t kSegmentPairsPerRecord = 1;
// The same for a query whose records are deferred (small meshes): there the segment-pair scan also
// saves writing and sorting the records and the vertex-in-face scan by records. Callgrind over the
// bench motions of seed 1 at 1, 2, 4, 8: cube 4.729, 4.653, 4.633, 4.633 M; car 9.148, 8.661,
// 8.554, 8.561 M; car hull 15.276, 14.565, 14.432, 14.456 M (docs/benchmarks.md, session 23).
constexpr std::size_t kSegmentPairsPerDeferredRecord = 4;

// Whether step 6 takes the segment-pair scan (EdgeScan), from the pieces and the record counts
// (the records themselves may not be built yet).
bool edge_scan_by_segments(const BodyRaster& a, const BodyRaster& b, EdgeScan scan) {
  if (a.out_of_records || b.out_of_records || scan == EdgeScan::rows) return false;
  if (scan == EdgeScan::segments) return true;
  std::size_t edges_drawn_a = 0, edges_drawn_b = 0;
  for (const ScreenSegment& s : a.segments) edges_drawn_a += s.edge >= 0;
  for (const ScreenSegment& s : b.segments) edges_drawn_b += s.edge >= 0;
  const std::size_t per_record = a.records_deferred ? kSegmentPairsPerDeferredRecord : kSegmentPairsPerRecord;
  return edges_drawn_a * edges_drawn_b <= per_record * (a.record_count + b.record_count);
}

void edge_candidates(const BodyRaster& a, const BodyRaster& b, double pad, double pixel, bool by_segments,
                     EdgeScratch& scratch, std::vector<EdgeCandidate>& merged) {
  std::vector<EdgeCandidate>& out = scratch.found;
  out.clear();
  merged.clear();
  if (by_segments) {
    edge_windows_by_segments(a, b, pad, pixel, scratch, out);
  } else {
    edge_windows_by_rows(a, b, pad, pixel, scratch, out);
  }
  sort_and_merge_windows(scratch, merged);
}

// What the edge-edge properness bound (properness.hpp, edge_improper_near) turns with the screw,
// made once per query and feature on first use instead of once per test (cost only: the same
// vectors from the same operations): A's unit edge directions; B's unit edge directions d with
// v x d and v x (v x d), and v x n, v x (v x n) for B's face normals n (v the screw axis), so that
// turning by s theta is d + sin v x d + (1 - cos) v x (v x d) without the cross products.
// A's unit directions depend on A's geometry alone (its mesh in its own frame), so they are kept
// across queries on a mesh with the same content id (cost only: the same vectors).
struct TurnBasis {
  std::vector<Vec3> a_unit;
  std::vector<std::array<Vec3, 3>> b_unit;
  std::vector<std::array<Vec3, 2>> b_normal;
  std::vector<unsigned char> a_ready, b_ready, normal_ready;
  /// Mesh::content_id() of the A whose a_unit / a_ready these are (0: none).
  std::uint64_t a_id = 0;
};

// The analytic resolution of the candidates (the seed's Newton step and pixel-record times, made
// exact), producing collisions in A's frame.
class Resolver {
 public:
  // Collisions go to `found` (cleared first).
  // `a_id`: the content id of A's mesh (a's geometry is a function of it), 0 if unknown.
  Resolver(const Geometry& a, std::uint64_t a_id, const Geometry& b, const Screw& screw, const ScrewOptions& opt,
           double scale, bool cull, std::vector<Collision>& found, TurnBasis& basis)
      : a_(a), b_(b), screw_(screw), inverse_(screw.inverse()), opt_(opt), scale_(scale), cull_(cull), found_(found),
        basis_(basis) {
    limits_ = {opt.time_tolerance, kCoarseBracket, opt.max_root_iterations, opt.max_intervals, 0};
    found_.clear();
    if (a_id == 0 || basis_.a_id != a_id) {
      basis_.a_ready.assign(static_cast<std::size_t>(a.mesh->num_edges()), 0);
      basis_.a_id = a_id;
    }
    basis_.b_ready.assign(static_cast<std::size_t>(b.mesh->num_edges()), 0);
    basis_.normal_ready.assign(b.n.size(), 0);
    basis_.a_unit.resize(basis_.a_ready.size());
    basis_.b_unit.resize(basis_.b_ready.size());
    basis_.b_normal.resize(basis_.normal_ready.size());
  }

  // VF: vertex va of A against face fb of B (B moves; seen from B, A's vertex moves by the inverse).
  void vertex_face(int va, int fb) {
    const Vec3& p = a_.v[va];
    if (improper_all_step(*a_.mesh, a_.v, va, b_.n[fb], false)) return;
    const PlaneDistance plane(inverse_, p, b_.n[fb], b_.d[fb]);
    const double slack = slack_factor() * (p.norm() + std::abs(b_.d[fb]) + scale_);
    entering_roots(plane, slack, [&](double s) {
      if (!inside_polygon(b_.v, b_.mesh->face(fb), b_.n[fb], inverse_.apply(p, s), tolerance(), false)) return;
      const Vec3 nb = screw_.rotate(b_.n[fb], s);
      Collision c;
      c.type = CollisionType::vf;
      c.vertex = va;
      c.face = fb;
      c.time = s;
      c.point = p;
      c.normal = -nb;
      c.properness = vertex_properness(
          *a_.mesh, a_.v, va, [](const Vec3& e) { return e; }, nb);
      found_.push_back(c);
    });
  }

  // FV: face fa of A against vertex vb of B.
  void face_vertex(int fa, int vb) {
    const Vec3& x = b_.v[vb];
    if (improper_all_step(*b_.mesh, b_.v, vb, a_.n[fa], true)) return;
    const PlaneDistance plane(screw_, x, a_.n[fa], a_.d[fa]);
    const double slack = slack_factor() * (x.norm() + std::abs(a_.d[fa]) + scale_);
    entering_roots(plane, slack, [&](double s) {
      const Vec3 q = screw_.apply(x, s);
      if (!inside_polygon(a_.v, a_.mesh->face(fa), a_.n[fa], q, tolerance(), false)) return;
      Collision c;
      c.type = CollisionType::fv;
      c.vertex = vb;
      c.face = fa;
      c.time = s;
      c.point = q;
      c.normal = a_.n[fa];
      c.properness = vertex_properness(
          *b_.mesh, b_.v, vb, [&](const Vec3& e) { return screw_.rotate(e, s); }, a_.n[fa]);
      found_.push_back(c);
    });
  }

  // EE: the sign changes of the triple product (q(s) - pa) . (da x e(s)) in the candidate's
  // window, isolated by the exact mode's branch and bound (rigorous slope bounds, so none is
  // missed inside the window), each kept when the two segments meet there.
  void edge_edge(const EdgeCandidate& cand) {
    const double lo = std::max(0.0, cand.lo), hi = std::min(1.0, cand.hi);
    if (!(lo < hi)) return;
    // Most candidates of bodies that pass through each other can only give improper crossings:
    // that test (no sincos of the triple product) comes first.
    const double centre = (lo + hi) / 2;
    const std::pair<double, double> centre_turn = turn_at(centre, screw_.angle);
    if (improper_near(cand.edge_a, cand.edge_b, centre_turn, (hi - lo) / 2 + limits_.time_tolerance)) {
      return;
    }
    edge_edge_past_centre(cand, centre_turn);
  }

  // edge_edge for all of a query's candidates in their order, in passes: the window centres'
  // turns (one sincos each) for every candidate, then the centre's properness test for every
  // candidate, then the rest of edge_edge for those it keeps (about one in eight on the cube).
  // Called one candidate at a time, each centre test was one long dependent chain (sincos, cross
  // products, a square root, a division) ending in a data-dependent branch, too long for the core
  // to overlap two of them; split into short independent chains in tight loops that store their
  // results (the verdict by a branch-free compaction), neighbouring candidates overlap (cost
  // only: the same tests with the same operations, the survivors resolved in the same order, so
  // the same collisions in the same order; session 36 measured the single-loop version, centre
  // turn and test together, no faster). `candidates` is compacted to the survivors; `turns` is
  // scratch, grown to the largest query seen.
  void edge_edges(std::vector<EdgeCandidate>& candidates, std::vector<std::pair<double, double>>& turns) {
    const std::size_t n = candidates.size();
    turns.resize(n);
    // The centres' turns, with the bases' first-use normalisations (out of the test's loop).
    for (std::size_t i = 0; i < n; ++i) {
      const double lo = std::max(0.0, candidates[i].lo), hi = std::min(1.0, candidates[i].hi);
      turns[i] = turn_at((lo + hi) / 2, screw_.angle);
      if (cull_) prepare_basis(candidates[i].edge_a, candidates[i].edge_b);
    }
    std::size_t kept = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const EdgeCandidate cand = candidates[i];
      const std::pair<double, double> centre_turn = turns[i];
      const double lo = std::max(0.0, cand.lo), hi = std::min(1.0, cand.hi);
      const bool skip =
          !(lo < hi) ||
          (cull_ && improper_near_prepared(cand.edge_a, cand.edge_b, centre_turn, (hi - lo) / 2 + limits_.time_tolerance));
      candidates[kept] = cand;
      turns[kept] = centre_turn;
      kept += skip ? 0 : 1;
    }
    candidates.resize(kept);
    for (std::size_t i = 0; i < kept; ++i) edge_edge_past_centre(candidates[i], turns[i]);
  }

 private:
  // edge_edge after the window centre's properness test let the candidate through (the window is
  // not empty; centre_turn is turn_at at its centre). Flattened (cost only: every call inside
  // inlined, the same operations; without it GCC kept segment_distance, EdgeTripleProduct::motion
  // and the slabs' improper_near as calls; what is left is libm and screw.cpp's Screw functions):
  // session 36 measured 1.1-1.2% fewer instructions and 1-2% less time on the cube and the car.
  [[gnu::flatten]] void edge_edge_past_centre(const EdgeCandidate& cand, std::pair<double, double> centre_turn) {
    const mesh::Edge& edge_a = a_.mesh->edge(cand.edge_a);
    const mesh::Edge& edge_b = b_.mesh->edge(cand.edge_b);
    const Vec3& pa = a_.v[edge_a.v0];
    const Vec3 da = a_.v[edge_a.v1] - pa;
    const Vec3& qb = b_.v[edge_b.v0];
    const Vec3 db = b_.v[edge_b.v1] - qb;
    const double lo = std::max(0.0, cand.lo), hi = std::min(1.0, cand.hi);
    const double centre = (lo + hi) / 2;
    // The coefficients of the triple product wait until a slab needs its roots (cost only: the
    // centre's distance test below ends most candidates that pass the properness bound), and the
    // centre's turn is the one just computed (cost only: one sincos less).
    EdgeTripleProduct triple(screw_, pa, da, qb, db, EdgeTripleProduct::DeferCoefficients{});
    if (triple.stays_parallel(opt_.parallel_tolerance)) return;
    triple.remember_turn(centre, centre_turn);
    auto f = [&](double s) { return triple.value(s); };
    auto slope = [&](double s) { return triple.slope(s); };
    auto bounds = [&](double l, double h, double& b1, double& b2) { triple.bounds(l, h, b1, b2); };
    RootLimits lim = limits_;
    lim.slack = slack_factor() * triple.la * triple.lb * ((pa - qb).norm() + scale_);
    const double edge_speed = screw_.speed(triple.r0 + triple.lb);
    // A long window (an edge nearly along the flow has a poorly known screen time) is cut into
    // slabs like the exact mode's, each first excluded cheaply (one sincos) when the segments stay
    // farther apart than B's edge can travel in half of it. Besides saving work this keeps the
    // branch and bound away from places where the edges are parallel and far apart (e.g. a step
    // that ends with B's original orientation), where the triple product has a double zero and
    // the bisection would spend its interval budget.
    //
    // Each distance d measured at a time m also clears the slabs around it: B's edge moves at most
    // edge_speed, so the segments stay farther apart than kKeptContactReach tolerance() within
    // m +- (d - kKeptContactReach tolerance()) / edge_speed, and a crossing report_edge_edge keeps has
    // them closer (the lines' intersection lies within tolerance() of each segment). Slabs inside
    // such a cleared span are skipped without a sincos; they hold no collision the slab test would
    // have let through, so the result is unchanged.
    auto clearance = [&](double d) { return (d - kKeptContactReach * tolerance()) / edge_speed; };
    double centre_lo = 0, centre_hi = -1;  // cleared around the window's centre
    {
      // The whole window first (rarely excluded on its own, its distance clears the middle slabs).
      Vec3 q, e;
      triple.motion(centre, q, e);
      const double d = segment_distance(pa, da, q, e);
      if (d > edge_speed * (hi - lo) / 2 + tolerance()) return;
      centre_lo = centre - clearance(d);
      centre_hi = centre + clearance(d);
    }
    const int slabs = proxima::detail::clamped_int(std::ceil((hi - lo) * kEdgeSlabsPerStep), 1, static_cast<int>(kEdgeSlabsPerStep));
    double cleared_until = lo;  // cleared by the slab tests so far
    bool have_coefficients = false;
    for (int k = 0; k < slabs; ++k) {
      const double s0 = lo + (hi - lo) * k / slabs, s1 = lo + (hi - lo) * (k + 1) / slabs;
      if (s1 <= cleared_until || (centre_lo <= s0 && s1 <= centre_hi)) continue;
      Vec3 q, e;
      const double mid = (s0 + s1) / 2;
      triple.motion(mid, q, e);
      const double d = segment_distance(pa, da, q, e);
      if (d > edge_speed * (s1 - s0) / 2 + tolerance()) {
        cleared_until = std::max(cleared_until, mid + clearance(d));
        continue;
      }
      if (improper_near(cand.edge_a, cand.edge_b, triple.turn(mid), (s1 - s0) / 2 + lim.time_tolerance)) {
        continue;
      }
      if (!have_coefficients) {
        triple.compute_coefficients();
        have_coefficients = true;
      }
      find_sign_changes(f, slope, bounds, s0, s1, lim, stats_, [&](double l, double h, int direction, double fl, double fh) {
        // The reach test rides on the refinement's first steps (see root_out_of_reach), which start
        // from the bracket's values as the search evaluated them (cost only: the same numbers).
        RootRefiner<decltype(f)> refiner(f, l, h, fl, fh, direction, lim);
        if (root_out_of_reach(triple, l, h, lim, edge_speed, cand.edge_a, cand.edge_b, refiner)) {
          stats_.evaluations += refiner.evaluations();
          return;
        }
        const double s = refiner.finish(stats_);
        report_edge_edge(cand.edge_a, cand.edge_b, pa, da, qb, db, s);
      });
    }
  }

 public:
  std::vector<Collision>& collisions() { return found_; }
  const RootStats& stats() const { return stats_; }

 private:
  // Relative evaluation error allowed before a sign change counts (as in the exact mode).
  static double slack_factor() { return kRoundingUlps * std::numeric_limits<double>::epsilon(); }
  double tolerance() const { return opt_.feature_tolerance * scale_; }
  // A bracket [l, h] of a sign change of the triple product, during its refinement: true when the
  // root cannot be a crossing that report_edge_edge keeps (or only an improper one). Takes the
  // refinement's steps (at most kRootProbes of them) and measures the segment distance d at each
  // iterate c (the triple product's turn there is already taken: no sincos more). A kept root r
  // has both lines' closest points within tolerance() of their segments, and those points are
  // |f(r)| / |da x e(r)| apart, where |da x e| > parallel_tolerance la lb (else it is not kept)
  // and |f(r)| <= max(slack, |f'| max time_tolerance / 2) (the refinement's two ways of stopping):
  // the segments are within 2 tolerance() + that gap at r. The refinement's brackets are nested
  // and c is an end of the current one (or r itself), so r, which lies in all of them, is within
  // the bracket's width w of c; B's edge moves at most edge_speed, so r is not kept when d
  // exceeds that plus edge_speed (w + time_tolerance). The same test after the steps, with the
  // properness bound, at the last iterate over w + time_tolerance. The refinement goes on from
  // where the test left it, so the roots that are kept are bit for bit those of a plain
  // refinement. (Until session 35 the test took its own bisection probes before the refinement:
  // a serial chain of eight evaluations, each with its sincos, against about five steps of the
  // refinement.)
  template <class Refiner>
  bool root_out_of_reach(const EdgeTripleProduct& triple, double l, double h, const RootLimits& lim,
                         double edge_speed, int ea, int eb, Refiner& refiner) {
    if (!cull_) return false;
    double slope_bound = 0, unused = 0;
    triple.bounds(l, h, slope_bound, unused);
    const double gap = std::max(lim.slack, slope_bound * lim.time_tolerance / 2) /
                       (opt_.parallel_tolerance * triple.la * triple.lb);
    // Before any step: the bracket's middle, where bounds() just took the turn, over its width.
    std::pair<double, double> turned = triple.turn((l + h) / 2);
    double width = h - l;
    for (int k = 0; k < kRootProbes && !refiner.done(); ++k) {
      refiner.step();
      const double c = refiner.last();
      width = refiner.width();
      Vec3 q, e;
      triple.motion(c, q, e);
      turned = triple.turn(c);
      const double reach = edge_speed * (width + lim.time_tolerance) + 2 * tolerance() + gap;
      if (segment_distance(triple.pa, triple.da, q, e) > reach) return true;
    }
    return improper_near(ea, eb, turned, width + lim.time_tolerance);
  }

  // True when an edge-edge crossing of edges ea (unit direction ua) and eb (unit direction ub0 at
  // s = 0) at any time within `width` of s cannot pass the properness threshold, for either
  // orientation of the normal (properness.hpp, edge_improper_near).

  // detail::edge_improper_near (properness.hpp) for edges ea and eb at the time whose
  // {sin(s theta), 1 - cos(s theta)} is `turned`, on the per-query TurnBasis: the same operations
  // in the same order, so the same answer.
  bool improper_near(int ea, int eb, std::pair<double, double> turned, double width) {
    if (!cull_) return false;
    prepare_basis(ea, eb);
    return improper_near_prepared(ea, eb, turned, width);
  }

  // The TurnBasis entries improper_near reads for edges ea and eb, made on first use. B's edge is
  // marked ready together with its faces' normals (make_b_basis), so one flag a side is read on
  // the hot path.
  [[gnu::always_inline]] void prepare_basis(int ea, int eb) {
    const std::size_t ia = static_cast<std::size_t>(ea), ib = static_cast<std::size_t>(eb);
    if (!basis_.a_ready[ia]) make_a_basis(ia);
    if (!basis_.b_ready[ib]) make_b_basis(ib);
  }

  [[gnu::noinline]] void make_a_basis(std::size_t ia) {
    const mesh::Edge& edge_a = a_.mesh->edge(static_cast<int>(ia));
    basis_.a_unit[ia] = (a_.v[edge_a.v1] - a_.v[edge_a.v0]).normalized();
    basis_.a_ready[ia] = 1;
  }

  [[gnu::noinline]] void make_b_basis(std::size_t ib) {
    const mesh::Edge& edge_b = b_.mesh->edge(static_cast<int>(ib));
    const Vec3& axis = screw_.axis;
    const Vec3 d = (b_.v[edge_b.v1] - b_.v[edge_b.v0]).normalized();
    const Vec3 vd = axis.cross(d);
    basis_.b_unit[ib] = {d, vd, Vec3(axis.cross(vd))};
    basis_.b_ready[ib] = 1;
    auto normal = [&](int f) {
      const std::size_t i = static_cast<std::size_t>(f);
      if (!basis_.normal_ready[i]) {
        const Vec3 vn = axis.cross(b_.n[i]);
        basis_.b_normal[i] = {vn, Vec3(axis.cross(vn))};
        basis_.normal_ready[i] = 1;
      }
    };
    normal(edge_b.face_left);
    if (edge_b.face_right >= 0) normal(edge_b.face_right);
  }

  // improper_near once prepare_basis(ea, eb) has run (with cull_ on). Where the sine is not
  // positive the terms are still computed and discarded, and the answer is false, as
  // improper_near's early return gave: no branch on the data before the verdict. Those terms
  // divide by 1 instead of by the length and the sine, which are 0 for parallel edges: 0 / 0 and
  // 1 / 0 would raise FE_INVALID / FE_DIVBYZERO (a trap in users' debug builds,
  // docs/reliability.md). Where the sine is positive the divisors are unchanged: the same bits.
  [[gnu::always_inline]] bool improper_near_prepared(int ea, int eb, std::pair<double, double> turned,
                                                     double width) const {
    const mesh::Edge& edge_a = a_.mesh->edge(ea);
    const mesh::Edge& edge_b = b_.mesh->edge(eb);
    const std::size_t ia = static_cast<std::size_t>(ea), ib = static_cast<std::size_t>(eb);
    const double theta = screw_.angle;
    const double sn = turned.first, vers = turned.second;
    const Vec3& ua = basis_.a_unit[ia];
    const std::array<Vec3, 3>& b_unit = basis_.b_unit[ib];
    const Vec3 ub = b_unit[0] + sn * b_unit[1] + vers * b_unit[2];
    const Vec3 cr = ua.cross(ub);
    const double length = cr.norm();
    const double sine = length - theta * width;
    const bool proper = sine > 0;
    // edge_properness_terms with n = cr / length and B's normals turned.
    const Vec3 n(cr / (proper ? length : 1.0));
    const Vec3 na = n.cross(ua), nb = n.cross(ub);
    // The terms taken into the running min and max as they come, in edge_properness_terms' order
    // (the same std::min / std::max calls in the same order as over a stored array, so the same
    // bits; cost only: no array indexed by a running count, which kept the terms in memory).
    double low = std::numeric_limits<double>::infinity(), high = -low;
    auto take = [&](double term) {
      low = std::min(low, term);
      high = std::max(high, term);
    };
    take(na.dot(a_.n[edge_a.face_left]));
    if (edge_a.face_right >= 0) take(-na.dot(a_.n[edge_a.face_right]));
    {
      const std::array<Vec3, 2>& t = basis_.b_normal[static_cast<std::size_t>(edge_b.face_left)];
      const Vec3 turned_normal = b_.n[edge_b.face_left] + sn * t[0] + vers * t[1];
      take(-nb.dot(turned_normal));
    }
    if (edge_b.face_right >= 0) {
      const std::array<Vec3, 2>& t = basis_.b_normal[static_cast<std::size_t>(edge_b.face_right)];
      const Vec3 turned_normal = b_.n[edge_b.face_right] + sn * t[0] + vers * t[1];
      take(nb.dot(turned_normal));
    }
    const double drift = theta * width * (1 / (proper ? sine : 1.0) + 1) + kPropernessMargin;
    return proper & (std::max(low, -high) + drift < opt_.properness_threshold);
  }

  // True when the vertex's properness against the face stays below the threshold at every time
  // of the step: min_i e_i . n(s) <= min_i max_s e_i . n(s), with either the face normal n (VF:
  // B's face turns) or the vertex's edges e_i (FV: B's vertex turns) carried by the screw.
  bool improper_all_step(const Mesh& m, const std::vector<Vec3>& positions, int vertex, const Vec3& n,
                         bool edges_turn) const {
    return cull_ && detail::improper_all_step(m, positions, vertex, n, edges_turn, screw_.axis, screw_.angle,
                                              cos_theta_, sin_theta_, opt_.properness_threshold);
  }

  // The entering roots (f from > 0 to <= 0) of a plane distance on [0, 1]. f' = alpha (c1
  // cos(s alpha) + c2 sin(s alpha)) + c3 vanishes where cos(s alpha - psi) = -c3 / (alpha R),
  // R = hypot(c1, c2), psi = atan2(c2, c1): at most twice per turn, and the step turns less
  // than half a turn, so splitting [0, 1] there leaves at most three monotone pieces, each with at
  // most one root. This replaces the seed's Newton iteration with one that cannot miss or stray.
  template <class OnRoot>
  void entering_roots(const PlaneDistance& f, double slack, const OnRoot& on_root) {
    // 0, at most two turning points per k (three k: more than the step can hold), 1.
    std::array<double, 8> cuts{};
    int n = 0;
    cuts[n++] = 0;
    const double alpha = f.alpha, radius = std::hypot(f.c1, f.c2);
    if (alpha != 0 && radius > 0) {
      const double kappa = -f.c3 / (alpha * radius);
      if (std::abs(kappa) <= 1) {
        const double psi = std::atan2(f.c2, f.c1), spread = std::acos(kappa);
        for (int k = -1; k <= 1; ++k) {
          for (double x : {psi + spread, psi - spread}) {
            const double s = (x + 2 * std::numbers::pi * k) / alpha;
            if (s > 0 && s < 1 && n < static_cast<int>(cuts.size()) - 1) cuts[n++] = s;
          }
        }
      }
    }
    // At most six cuts: an insertion sort (std::sort on a short std::array trips GCC 12's
    // -Warray-bounds).
    for (int i = 2; i < n; ++i) {
      for (int j = i; j > 1 && cuts[j - 1] > cuts[j]; --j) std::swap(cuts[j - 1], cuts[j]);
    }
    cuts[n++] = 1;
    auto value = [&](double s) { return f.value(s); };
    for (int i = 0; i + 1 < n; ++i) {
      const double s0 = cuts[i], s1 = cuts[i + 1];
      const double f0 = value(s0), f1 = value(s1);
      stats_.evaluations += 2;
      if (!(f0 > 0 && f1 <= 0) || std::max(std::abs(f0), std::abs(f1)) <= slack) continue;
      RootLimits lim = limits_;
      lim.slack = slack;
      on_root(refine_root(value, s0, s1, -1, lim, stats_));
    }
  }

  void report_edge_edge(int ea, int eb, const Vec3& pa, const Vec3& da, const Vec3& qb, const Vec3& db, double s) {
    const double la = da.norm(), lb = db.norm();
    const Vec3 q = screw_.apply(qb, s);
    const Vec3 e = screw_.rotate(db, s);
    const Vec3 cr = da.cross(e);
    const double cr_norm = cr.norm();
    if (!(cr_norm > opt_.parallel_tolerance * la * lb)) return;
    const Vec3 w = q - pa;
    const double alpha = w.cross(e).dot(cr) / (cr_norm * cr_norm);
    const double beta = w.cross(da).dot(cr) / (cr_norm * cr_norm);
    const double tol = tolerance();
    if (alpha * la < -tol || (alpha - 1) * la > tol || beta * lb < -tol || (beta - 1) * lb > tol) return;
    Vec3 n = cr / cr_norm;
    // Orient n from A to B: B's point at the contact moves against n.
    if (screw_.velocity(qb + beta * db, s).dot(n) > 0) n = -n;
    Collision c;
    c.type = CollisionType::ee;
    c.edge_a = ea;
    c.edge_b = eb;
    c.time = s;
    c.point = pa + std::clamp(alpha, 0.0, 1.0) * da;
    c.normal = n;
    c.properness = edge_properness(a_.mesh->edge(ea), b_.mesh->edge(eb), a_.n, b_.n, da / la, e / lb, n,
                                   [&](const Vec3& dir) { return screw_.rotate(dir, s); });
    found_.push_back(c);
  }

  const Geometry& a_;
  const Geometry& b_;
  const Screw screw_;
  const Screw inverse_;
  const ScrewOptions& opt_;
  const double scale_;
  const bool cull_;
  RootLimits limits_{};
  const SinCos turn_ = turn_sincos(screw_.angle);
  const double cos_theta_ = turn_.cos, sin_theta_ = turn_.sin;
  RootStats stats_;
  std::vector<Collision>& found_;
  TurnBasis& basis_;
};

// Seed section 5: the same contact reported twice (two parts, two doppel copies) is kept once, and
// a vertex that meets several faces at the same time (VE, VV: it hits their common edge or vertex)
// keeps the face that maximises properness. `found` is sorted here.
void resolve_duplicates(std::vector<Collision>& found) {
  auto key = [](const Collision& c) {
    return std::array<int, 3>{static_cast<int>(c.type), c.type == CollisionType::ee ? c.edge_a : c.vertex, c.edge_b};
  };
  std::sort(found.begin(), found.end(), [&](const Collision& x, const Collision& y) {
    const auto kx = key(x), ky = key(y);
    return kx != ky ? kx < ky : x.time < y.time;
  });
  // Compacted in place: found[0, kept) are the collisions kept so far.
  std::size_t kept = 0;
  for (std::size_t i = 0; i < found.size(); ++i) {
    if (kept > 0 && key(found[kept - 1]) == key(found[i]) && found[i].time - found[kept - 1].time <= kSameTime) {
      if (found[i].properness > found[kept - 1].properness) found[kept - 1] = found[i];
      continue;
    }
    if (kept != i) found[kept] = found[i];
    ++kept;
  }
  found.erase(found.begin() + static_cast<std::ptrdiff_t>(kept), found.end());
}

// first_contact_only: resolves the edge-edge candidates in order of the start of their time
// windows and stops at the first window that starts after the earliest contact found so far (of
// any kind, passing the properness threshold) + time_tolerance + kFirstContactMargin. A candidate
// only reports roots inside its window, so none of the skipped ones could report a collision the
// first contact keeps, nor one that merges with such a collision: the answer is the full run's.
// The vertex-face candidates (no time window from the screen) must be resolved before. Returns
// the number of candidates resolved.
std::size_t resolve_edges_until_first_contact(Resolver& resolver, std::vector<EdgeCandidate>& candidates,
                                              std::vector<EdgeCandidate>& sort_buffer, const ScrewOptions& options) {
  // Where Resolver::edge_edge starts searching: max(0, lo), and 0 for a NaN lo as std::max gives
  // there (so a degenerate window cannot upset the order or be skipped).
  auto search_start = [](const EdgeCandidate& c) { return c.lo > 0 ? c.lo : 0.0; };
  stable_sort_with_buffer(candidates, sort_buffer, [&](const EdgeCandidate& x, const EdgeCandidate& y) {
    return search_start(x) < search_start(y);
  });
  const std::vector<Collision>& found = resolver.collisions();
  double earliest = std::numeric_limits<double>::infinity();
  std::size_t seen = 0;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    for (; seen < found.size(); ++seen) {
      if (found[seen].properness >= options.properness_threshold) earliest = std::min(earliest, found[seen].time);
    }
    if (search_start(candidates[i]) > earliest + options.time_tolerance + kFirstContactMargin) return i;
    resolver.edge_edge(candidates[i]);
  }
  return candidates.size();
}

// Everything a query needs beyond its result, kept per thread across queries (cost only: once
// warm, a query allocates nothing but its result; the storage grows to the largest query seen).
struct Workspace {
  Geometry ga, gb;
  /// Mesh::content_id() of the mesh ga was made from (0: none). A's geometry is its mesh in its own
  /// frame, a function of the mesh alone, so a query on a mesh with that id keeps it (cost only).
  std::uint64_t ga_id = 0;
  std::vector<Vec3> a_points, a_normals, b_points, b_normals;
  std::vector<RadialRange> ranges_a, ranges_b;
  std::vector<unsigned char> skip_a, skip_b;
  BodyRaster raster_a, raster_b;
  DrawScratch draw;
  VertexFaceScratch vertex_face;
  EdgeScratch edge;
  std::vector<std::pair<int, int>> vf, fv;
  std::vector<EdgeCandidate> ee, ee_buffer;  // ee_buffer: resolve_edges_until_first_contact's sort
  std::vector<std::pair<double, double>> ee_turns;  // Resolver::edge_edges's scratch
  std::vector<Collision> found, found_buffer;  // found_buffer: finish_collisions's sort
  TurnBasis basis;
};

// The calling thread's workspace (release_raster_storage frees it).
thread_local Workspace t_workspace;

}  // namespace

void raster_pretest_mask(const int* k0, const int* k1, const double* hlo, const double* hhi, int n, int row_lo,
                         int row_hi, double bottom, double top, std::uint64_t* mask, bool avx2) {
  avx2 = avx2 && raster_avx2_available();
  if (hlo != nullptr && hhi != nullptr) {
    pretest_mask<true>(k0, k1, hlo, hhi, n, row_lo, row_hi, bottom, top, mask, avx2);
  } else {
    pretest_mask<false>(k0, k1, hlo, hhi, n, row_lo, row_hi, bottom, top, mask, avx2);
  }
}

bool raster_avx2_available() {
#ifdef PROXIMA_RASTER_AVX2
  return kRasterHaveAvx2;
#else
  return false;
#endif
}

void set_raster_avx2_for_tests([[maybe_unused]] bool allowed) {
#ifdef PROXIMA_RASTER_AVX2
  t_raster_avx2_allowed = allowed;
#endif
}

// Cold, as ccd::release_thread_storage (screw_collisions.cpp).
[[gnu::cold]] void release_raster_storage() { t_workspace = Workspace{}; }

// sqrt is correctly rounded, hence monotone, so x > the largest x' with sqrt(x') <= pad exactly
// when sqrt(x) > pad (NaN: neither). The edge scans compare the squared distance of two pieces
// with it: the same decision as comparing their distance (Eigen's norm() is the square root of
// squaredNorm()), without the square root's latency. Cost only.
double squared_reach(double pad) {
  // A negative pad: sqrt(x) > pad for every x but NaN; a NaN pad: for none.
  if (!(pad >= 0)) return pad < 0 ? -std::numeric_limits<double>::infinity() : pad;
  // The neighbours of a non-negative double are one apart in its bits (no libm call).
  auto down = [](double x) { return std::bit_cast<double>(std::bit_cast<std::uint64_t>(x) - 1); };
  auto up = [](double x) { return std::bit_cast<double>(std::bit_cast<std::uint64_t>(x) + 1); };
  // pad * pad is within an ulp of the answer's neighbourhood (sqrt and the product are correctly
  // rounded), so each walk takes at most a few steps; the cap only bounds the loops. The result is
  // checked in tests/ccd/raster_edge_scan_test.cpp (SquaredReachDecidesAsTheDistance).
  constexpr int kMaxSteps = 16;
  double x = pad * pad;
  for (int step = 0; step < kMaxSteps && x > 0 && std::sqrt(x) > pad; ++step) x = down(x);
  for (int step = 0; step < kMaxSteps && x < std::numeric_limits<double>::infinity() && std::sqrt(up(x)) <= pad; ++step) {
    x = up(x);
  }
  return x;
}

std::vector<std::pair<int, int>> vertex_face_scan(const BodyRaster& points, const BodyRaster& faces, double pad) {
  VertexFaceScratch scratch;
  std::vector<std::pair<int, int>> out;
  vertex_face_candidates(points, faces, pad, scratch, out);
  return out;
}

std::vector<std::pair<int, int>> vertex_face_scan_by_pieces(const BodyRaster& points, const BodyRaster& faces,
                                                            double pad, double pixel) {
  VertexFaceScratch scratch;
  std::vector<std::pair<int, int>> out;
  vertex_face_candidates_by_pieces(points, faces, pad, pixel, scratch, out);
  return out;
}

namespace {

// Throws decompose's InvalidInput "rotation" when A's own rotation over the step is at or beyond
// pi - kScrewPiMargin, as the exact mode does (the public header promises it for both modes).
// The raster needs A's screw only to carry reported collisions back to the world frame, so it
// checks the angle first by the trace: cos(theta) = (tr(R_end R_start^T) - 1) / 2, nine products.
// Above -1 + 1e-9 the angle is below pi - 4e-5, far inside the limit whatever the rounding (the
// limit's cosine is -1 + 5e-13); otherwise decompose decides, so the verdict is decompose's.
void require_own_rotation_below_pi(const Pose& start, const Pose& end) {
  const double trace = (end.rotation().array() * start.rotation().array()).sum();
  if ((trace - 1) / 2 > -1 + 1e-9) return;
  (void)decompose(end * start.inverse());
}

}  // namespace

ScrewResult raster_screw_collisions(const Mesh& a, const Pose& a_start, const Pose& a_end, const Mesh& b,
                                    const Pose& b_start, const Pose& b_end, const ScrewOptions& options, bool cull,
                                    EdgeScan edge_scan) {
  ScrewResult result;
  const Screw screw = decompose(relative_motion(a_start, a_end, b_start, b_end));
  // Before any early return, in the exact mode's order (relative motion, then A's own).
  require_own_rotation_below_pi(a_start, a_end);
  result.screw = screw;
  if (screw.angle == 0 && screw.glide == 0) return result;  // no relative motion: nothing crosses

  const Vec3 center_a = a.bounding_sphere().center;
  // B's start pose in A's start frame, made once (cost only: the same product where it was made twice).
  const Pose b_in_a = relative_pose(a_start, b_start);
  const Vec3 center_b = b_in_a.apply(b.bounding_sphere().center);
  const double radius_a = a.bounding_sphere().radius, radius_b = b.bounding_sphere().radius;
  const double scale = radius_a + radius_b;

  // Step 1, the bounding-sphere early out: r (the distance from the axis, or x for a translation)
  // never changes along the flow, so spheres whose r ranges are apart never meet; otherwise the
  // centre distance is sampled along the step, with B's centre speed bounding it in between.
  {
    const double reach = radius_a + radius_b + options.feature_tolerance * scale;
    const bool translation = screw.angle == 0;
    const double ra = translation ? 0 : screw.axis_distance(center_a),
                 rb = translation ? 0 : screw.axis_distance(center_b);
    if (!translation && std::abs(ra - rb) > reach) return result;
    const double speed = screw.speed(rb);
    const int samples =
        proxima::detail::clamped_int(std::ceil(2 * speed / reach), 1, kMaxSphereSamples, kMaxSphereSamples);
    bool apart = true;
    // At s = 0 the screw adds only signed zeros to B's centre, which leave the norm as it is (cost
    // only: no sincos of 0).
    double previous = (center_b - center_a).norm();
    for (int i = 1; i <= samples && apart; ++i) {
      const double next = (screw.apply(center_b, static_cast<double>(i) / samples) - center_a).norm();
      // |d'| <= speed, so between two samples the distance dips at most speed * spacing / 2
      // below the smaller end value.
      apart = std::min(previous, next) - speed / (2.0 * samples) > reach;
      previous = next;
    }
    if (apart) return result;
  }

  Workspace& work = t_workspace;
  const Geometry& ga = work.ga;
  const Geometry& gb = work.gb;
  if (work.ga_id != a.content_id()) {
    make_geometry(a, Pose(), work.ga);
    work.ga_id = a.content_id();
  }
  work.ga.mesh = &a;  // (a mesh with the id: the same contents, perhaps another copy)
  make_geometry(b, b_in_a, work.gb);

  // Step 1: the screen faces the bodies (A and B half way through the step), away from the seam.
  const CollisionScreen screen = make_collision_screen(screw, (center_a + screw.apply(center_b, 0.5)) / 2);
  auto to_canonical = [&](const Geometry& g, std::vector<Vec3>& points, std::vector<Vec3>& normals) {
    points.clear();
    normals.clear();
    for (const Vec3& p : g.v) points.push_back(screen.to_canonical * (p - screen.origin));
    for (const Vec3& n : g.n) normals.push_back(screen.to_canonical * n);
  };
  std::vector<Vec3>& a_points = work.a_points;
  std::vector<Vec3>& a_normals = work.a_normals;
  std::vector<Vec3>& b_points = work.b_points;
  std::vector<Vec3>& b_normals = work.b_normals;
  to_canonical(ga, a_points, a_normals);
  to_canonical(gb, b_points, b_normals);

  // Steps 2-4: B first, so that A only draws the rows B occupies.
  const double pixel = options.pixel_size * scale;
  const double max_speed = std::max(screw.speed(screw.axis_distance(center_a) + radius_a),
                                    screw.speed(screw.axis_distance(center_b) + radius_b));
  RasterSettings settings;
  settings.pixel = pixel;
  settings.time_resolution = options.time_resolution;
  settings.max_records = options.max_pixel_records;
  settings.max_subdivision = options.max_subdivision;
  settings.keep_corners = false;
  // Small meshes: the records are written and sorted only if the scans by rows need them (cost only:
  // deferring costs a second pass over the pieces when they are needed).
  settings.defer_records = static_cast<long long>(a.num_edges()) * b.num_edges() <= kDeferRecordsEdgePairs;
  // omega . n is a speed: faces within a relative feature tolerance of the fastest point's speed
  // count as both facings (a face sliding along the motion stays a candidate).
  settings.facing_slack = options.feature_tolerance * max_speed;
  // Faces of B whose radial interval is apart from every face of A's, then faces of A apart from
  // every face of B that is left, are not drawn: none of their points, edges or vertices shares an
  // r with the other body, so they take part in no collision (a pixel of margin covers rounding
  // and the contact tolerance many times over).
  std::vector<unsigned char>& skip_a = work.skip_a;
  std::vector<unsigned char>& skip_b = work.skip_b;
  skip_a.clear();
  skip_b.clear();
  if (cull) {
    const bool translation = screw.angle == 0;
    face_radial_ranges(a, a_points, translation, work.ranges_a);
    face_radial_ranges(b, b_points, translation, work.ranges_b);
    RadialRange all_a;
    for (const RadialRange& r : work.ranges_a) all_a = {std::min(all_a.lo, r.lo), std::max(all_a.hi, r.hi)};
    const RadialRange kept_b = skip_faces_outside(work.ranges_b, all_a, pixel, skip_b);
    skip_faces_outside(work.ranges_a, kept_b, pixel, skip_a);
  }
  settings.skip_face = skip_b;
  const BodyRaster& raster_b = work.raster_b;
  draw_body(b, b_points, b_normals, screen, settings, work.raster_b, work.draw);
  if (raster_b.row_min > raster_b.row_max) return result;
  settings.backward = true;
  settings.doppel = screw.angle != 0;
  settings.row_lo = raster_b.row_min - 1;
  settings.row_hi = raster_b.row_max + 1;
  settings.skip_face = skip_a;
  const BodyRaster& raster_a = work.raster_a;
  draw_body(a, a_points, a_normals, screen, settings, work.raster_a, work.draw);

  // Steps 5-6: the candidates, then their analytic resolution.
  // Twice the drawing error (each body's pieces stray at most kDrawErrorPerPixel of a pixel).
  const double pad = kCandidatePadPerPixel * pixel;
  Resolver resolver(ga, work.ga_id, gb, screw, options, scale, cull, work.found, work.basis);
  std::vector<std::pair<int, int>>& vf = work.vf;
  std::vector<std::pair<int, int>>& fv = work.fv;
  std::vector<EdgeCandidate>& ee = work.ee;
  // Small bodies (few pieces) are scanned piece by piece and need no pixel records; the others by
  // rows of records, written and sorted here.
  const bool by_segments = edge_scan_by_segments(raster_a, raster_b, edge_scan);
  if (by_segments) {
    vertex_face_candidates_by_pieces(raster_a, raster_b, pad, pixel, work.vertex_face, vf);
    vertex_face_candidates_by_pieces(raster_b, raster_a, pad, pixel, work.vertex_face, fv);
  } else {
    build_records(work.raster_a, pixel, work.draw);
    build_records(work.raster_b, pixel, work.draw);
    vertex_face_candidates(raster_a, raster_b, pad, work.vertex_face, vf);
    vertex_face_candidates(raster_b, raster_a, pad, work.vertex_face, fv);
  }
  edge_candidates(raster_a, raster_b, pad, pixel, by_segments, work.edge, ee);
  for (const auto& [va, fb] : vf) resolver.vertex_face(va, fb);
  for (const auto& [vb, fa] : fv) resolver.face_vertex(fa, vb);
  std::size_t edge_pairs = ee.size();
  if (options.first_contact_only) {
    edge_pairs = resolve_edges_until_first_contact(resolver, ee, work.ee_buffer, options);
  } else {
    resolver.edge_edges(ee, work.ee_turns);
  }
  result.candidate_pairs = static_cast<int>(vf.size() + fv.size() + edge_pairs);

  std::vector<Collision>& found = resolver.collisions();
  resolve_duplicates(found);
  std::erase_if(found, [&](const Collision& c) { return !(c.properness >= options.properness_threshold); });
  // A's own motion carries the reported collisions back to the world frame, and only them: a query
  // that reports none skips its decomposition (its angle was checked at the start).
  const Screw a_motion = found.empty() ? Screw{} : decompose(a_end * a_start.inverse());
  finish_collisions(found, work.found_buffer, options, a_motion, a_start, result);
  result.iterations = static_cast<int>(raster_a.record_count + raster_b.record_count) + resolver.stats().intervals +
                      resolver.stats().evaluations;
  if (raster_a.out_of_records || raster_b.out_of_records) {
    result.status = Status::capacity_exceeded;
  } else if (raster_a.subdivision_capped || raster_b.subdivision_capped || resolver.stats().capped) {
    result.status = Status::iteration_limit;
    result.detail = Detail::no_progress;
  }
  return result;
}

}  // namespace proxima::ccd::detail
