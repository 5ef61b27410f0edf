// SPDX-License-Identifier: MIT
// Private: one body drawn on the rasterised collision screen of seed 004 section 9 (steps two to
// four): its faces clipped to the backward- (A) or forward-facing (B) side of omega(x) . n = 0 and
// split into azimuth branches (doppeling for A), the part boundaries projected to (r, h, t) by
// divide and conquer to pixel and time resolution, and the resulting straight screen pieces
// walked through the screen's rows (the Bresenham step) into pixel records sorted by row and hmin.
#pragma once

#include <proxima/ccd/collision_screen.hpp>
#include "core/clamped_int.hpp"
#include <proxima/mesh/mesh.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>
#include <vector>

namespace proxima::ccd::detail {

/// Which continuous branch of the azimuth phi = atan2(x, z) a face part is projected with.
/// principal: the part stays off the seam phi = +-pi (all z > 0), atan2 as is; positive: x >= 0,
/// phi in [0, pi]; negative: x <= 0, phi in [-pi, 0]; doppel: A's points with phi in
/// [-pi, -pi + theta], projected a second time with phi + 2 pi (seed section 8). For a
/// translation every part is principal.
enum class Branch : std::uint8_t { principal, positive, negative, doppel };

/// A corner of a face part, in the canonical frame of the screen.
struct PartCorner {
  Vec3 x;
  int vertex = -1;  ///< mesh vertex id, or -1 for a point made by clipping
  int edge = -1;    ///< mesh edge of the boundary from this corner to the next, -1 if virtual
};

/// A planar polygon cut from one face (seed 004 figures 10 and 11: the cuts are virtual edges).
struct FacePart {
  int face = -1;
  Branch branch = Branch::principal;
  int first = 0;  ///< first corner in BodyRaster::corners (when kept: RasterSettings::keep_corners)
  int count = 0;
};

/// A straight piece of a projected part boundary on the screen, with the screen time at its ends.
struct ScreenSegment {
  double r0, h0, t0, r1, h1, t1;
  double time_error;  ///< how far the linear time may be off inside the piece (>= time resolution)
  int edge;           ///< mesh edge for the edge-crossing scan; -1 for a virtual edge or a repeat
  int part;           ///< index into BodyRaster::parts
};

/// Seed section 9's pixel record: the pixels of one screen segment within one row of the screen,
/// merged into one record (hmin, hmax) as the seed merges successive pixels of equal r.
/// (The doubles come first: 24 bytes, not 32 with an int before them. Cost only: the records are
/// copied by the sorts and scanned by every scan.)
struct PixelRecord {
  // Left uninitialised by default (cost only: draw_body sizes its record list for a piece and
  // then writes every new record).
  PixelRecord() {}  // NOLINT(modernize-use-equals-default): = default would zero them in resize
  PixelRecord(double lo, double hi, int k, int s) : hmin(lo), hmax(hi), row(k), segment(s) {}
  double hmin, hmax;
  int row;
  int segment;  ///< index into BodyRaster::segments (its times, edge and part)
};

/// A projected vertex (seed section 9: the "vertex flag" pixels). 32 bytes, doubles first.
struct VertexRecord {
  double r, h, t;
  int row;
  int vertex;
};

/// How far a drawn screen piece may stray from its projected boundary curve, as a fraction of the
/// pixel (the row height): a piece is halved until its midpoint is within this of its chord (and
/// until its time error moves a point by less than this). The scans pad by twice this
/// (kCandidatePadPerPixel), so two drawn pieces of one crossing stay within the pad. Smaller draws
/// more pieces (at the presets the time resolution decides most halvings anyway) and pairs fewer
/// records that do not cross. 1/8 since ccd-speed7 (it was 1/2, with a one-pixel pad):
/// docs/algorithms/ccd.md, "Drawing finer than the rows"; tests/ccd/raster_draw_error_test.cpp
/// checks the bound.
inline constexpr double kDrawErrorPerPixel = 1.0 / 8;
/// The candidate pad of the scans, as a fraction of the pixel: a vertex (projected exactly) within
/// it of the other body's drawn boundary, or two drawn edge pieces within it of each other, are
/// candidates. Twice the drawing error, the sum of the two bodies' errors.
inline constexpr double kCandidatePadPerPixel = 2 * kDrawErrorPerPixel;

/// What drawing a body needs to know.
struct RasterSettings {
  double pixel = 1;            ///< row height, and the screen distance unit of the tolerances (length)
  double time_resolution = 1;  ///< subdivide until the screen time interpolates to within this
  int max_records = 1;         ///< pixel record budget for the body
  int max_subdivision = 1;     ///< halvings per boundary piece
  bool backward = false;       ///< keep omega . n <= 0 (body A) instead of >= 0 (body B)
  bool doppel = false;         ///< add the doppeled parts (body A)
  double facing_slack = 0;     ///< |omega . n| below this counts as both facings (a speed)
  /// Keep the parts' corners in BodyRaster::corners (the scans do not read them; cost only).
  bool keep_corners = true;
  /// Faces f with skip_face[f] != 0 are not drawn (empty: every face is).
  std::span<const unsigned char> skip_face;
  /// Rows outside [row_lo, row_hi] get no record (the rows of the other body, drawn first).
  int row_lo = std::numeric_limits<int>::min();
  int row_hi = std::numeric_limits<int>::max();
  /// Count the pixel records (BodyRaster::record_count, rows, budget) but do not write or sort them,
  /// and leave the vertices in drawing order: build_records does both later if the caller needs
  /// them (cost only: the small bodies' scans work from the pieces, never read a record and do not
  /// depend on the vertices' order).
  bool defer_records = false;
};

/// One body on the screen.
struct BodyRaster {
  std::vector<FacePart> parts;
  std::vector<PartCorner> corners;  ///< empty unless RasterSettings::keep_corners
  std::vector<ScreenSegment> segments;
  std::vector<PixelRecord> records;               ///< sorted by (row, hmin)
  std::vector<int> row_start;                     ///< records of row k start at row_start[k - row_min]
  /// One per vertex and branch; sorted by (row, h) unless records_deferred (then in drawing order).
  std::vector<VertexRecord> vertices;
  int row_min = std::numeric_limits<int>::max();  ///< rows with records (none: row_min > row_max)
  int row_max = std::numeric_limits<int>::min();
  int row_lo = std::numeric_limits<int>::min();  ///< RasterSettings::row_lo / row_hi it was drawn with
  int row_hi = std::numeric_limits<int>::max();
  /// Pixel records drawn (records.size() once written; counted also when they are deferred).
  std::size_t record_count = 0;
  bool records_deferred = false;    ///< drawn with RasterSettings::defer_records, not built yet
  /// While records_deferred: per piece with records, {segment, first row, record count}, in order.
  std::vector<std::array<int, 3>> deferred_rows;
  bool out_of_records = false;      ///< max_records was reached: records are missing
  bool subdivision_capped = false;  ///< some piece hit max_subdivision (drawn straight there)

  /// Records of one row, in hmin order.
  std::span<const PixelRecord> row(int r) const;
  /// Empties the body (keeping the vectors' storage, so drawing again allocates nothing once warm).
  void clear();
};

/// Scratch storage of draw_body, kept by the caller across calls (cost only: a warm query
/// allocates nothing). Its contents between calls mean nothing.
struct DrawScratch {
  std::vector<PartCorner> poly, kept, half, wedge;
  std::vector<double> values;
  std::vector<ScreenPoint> projected;
  std::vector<unsigned char> whole_drawn;       ///< per (mesh edge, branch)
  /// Per (mesh edge, branch): the projected midpoint of the whole edge, set when whole_drawn is.
  std::vector<ScreenPoint> edge_midpoint;
  std::vector<ScreenPoint> vertex_projection;  ///< per (mesh vertex, branch)
  std::vector<PixelRecord> sorted;
  std::vector<VertexRecord> sorted_vertices;
  std::vector<int> fill;
  std::vector<int> bucket, row_fill;  ///< a long row's buckets (see sort_long_row)
  std::vector<PixelRecord> row;
};

/// Draws a body: `canonical` are its vertex positions and `normals` its face normals in the
/// screen's canonical frame (the body as placed at s = 0). Cost: O(faces + pieces * rows crossed).
BodyRaster draw_body(const mesh::Mesh& m, const std::vector<Vec3>& canonical, const std::vector<Vec3>& normals,
                     const CollisionScreen& screen, const RasterSettings& settings);
/// The same into `out` (cleared first), with the caller's scratch storage.
void draw_body(const mesh::Mesh& m, const std::vector<Vec3>& canonical, const std::vector<Vec3>& normals,
               const CollisionScreen& screen, const RasterSettings& settings, BodyRaster& out, DrawScratch& scratch);

/// The records of a body drawn with RasterSettings::defer_records (and the same `pixel`): the same
/// records in the same order as draw_body writes them without deferring (the rows and counts it
/// noted per piece), then sorted by row and hmin, and the vertices sorted by row and h (as draw_body
/// leaves a body it draws without deferring). Does nothing for a body whose records are built.
void build_records(BodyRaster& out, double pixel, DrawScratch& scratch);

/// An interval holding the screen radius r of every point of a face: r (the distance from the
/// screw axis, the canonical y axis; for a translation the screen's x) never changes along the
/// flow, so faces of two bodies whose intervals are apart never meet.
struct RadialRange {
  double lo = std::numeric_limits<double>::infinity(), hi = -std::numeric_limits<double>::infinity();
};

/// Per face of m (vertex positions `canonical` in the screen's canonical frame): above, the
/// vertices' largest r (r is convex along a face); below, the centroid's r less the largest radial
/// offset of a vertex from the centroid (|P(x - c)| is convex too and the face lies in the convex
/// hull of its vertices; P drops the axis component). For a translation r = x, linear: the
/// vertices' range.
std::vector<RadialRange> face_radial_ranges(const mesh::Mesh& m, const std::vector<Vec3>& canonical, bool translation);
/// The same into `out`.
void face_radial_ranges(const mesh::Mesh& m, const std::vector<Vec3>& canonical, bool translation,
                        std::vector<RadialRange>& out);

/// Sets skip[f] = 1 for the faces whose interval is farther than `margin` from `other` (0 for the
/// others) and returns the span of the others' intervals.
RadialRange skip_faces_outside(const std::vector<RadialRange>& faces, const RadialRange& other, double margin,
                               std::vector<unsigned char>& skip);

/// Rows beyond this (in pixels from the axis or the screen origin) are clamped so that the int
/// conversion is defined; no body drawn at a useful resolution reaches them.
inline constexpr double kFarRow = 1e9;

/// Row of a screen radius r (rows are [k pixel, (k + 1) pixel)). Inline: called per drawn piece
/// and per record scan (cost only, the same operations).
inline int row_of(double r, double pixel) {
  const double q = r / pixel;
  // Within the clamp, floor is the truncation less one below a negative non-integer: the same
  // row as std::floor, which costs more without SSE4.1's roundsd (cost only). NaN and |q| beyond
  // kFarRow take std::floor and the clamp.
  if (std::abs(q) <= kFarRow) {
    const int k = static_cast<int>(q);
    return static_cast<double>(k) > q ? k - 1 : k;
  }
  const double k = std::floor(q);
  return proxima::detail::clamped_int(k, static_cast<int>(-kFarRow), static_cast<int>(kFarRow));
}

/// Where segment s enters and leaves the row band [k pixel, (k + 1) pixel], as fractions {ua, ub}
/// of the way from its first end to its second, clamped to [0, 1] ({0, 1} for a piece of constant
/// r). The record's h range (record_span) and its time range (the edge scan's row_times) both
/// interpolate at these: a caller that needs both computes them once (cost only: two divisions).
inline std::pair<double, double> band_fractions(const ScreenSegment& s, int k, double pixel) {
  double ua = 0, ub = 1;
  const double dr = s.r1 - s.r0;
  if (dr != 0) {
    const double band_lo = k * pixel, band_hi = (k + 1) * pixel;
    ua = std::clamp((band_lo - s.r0) / dr, 0.0, 1.0);
    ub = std::clamp((band_hi - s.r0) / dr, 0.0, 1.0);
  }
  return {ua, ub};
}

/// The h range of segment s between the band fractions {ua, ub} (band_fractions).
inline std::pair<double, double> span_between(const ScreenSegment& s, std::pair<double, double> u) {
  const double ha = s.h0 + u.first * (s.h1 - s.h0), hb = s.h0 + u.second * (s.h1 - s.h0);
  return {std::min(ha, hb), std::max(ha, hb)};
}

/// The h range [hmin, hmax] of the pixel record of segment s in row k (the Bresenham step of
/// draw_body, which calls this): the piece's h at its ends within the row band [k pixel, (k + 1)
/// pixel]. Inline so that the edge-crossing scan, which recomputes records of segments, gets the
/// same numbers bit for bit.
inline std::pair<double, double> record_span(const ScreenSegment& s, int k, double pixel) {
  return span_between(s, band_fractions(s, k, pixel));
}

/// The azimuth of canonical point c in a branch (see Branch).
double branch_phi(const Vec3& c, Branch branch);

}  // namespace proxima::ccd::detail
