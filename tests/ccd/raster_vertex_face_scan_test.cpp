// SPDX-License-Identifier: MIT
// The raster's vertex-in-face scan (src/ccd/glide_raster.cpp, step 5) against a brute force over
// every record. The scan visits few records per vertex (a sweep over each row's records for the
// vertices of a row, the crossing parity counted on the shorter side of the vertex, the pad test
// only where a record can be near); the brute force counts the crossings below the vertex over the
// whole row and tests every record of the three rows for the pad. They must list the same pairs,
// and so must the scan by pieces that the small bodies take (no records), and records drawn
// deferred (RasterSettings::defer_records) and built afterwards must be the records drawn directly
// (and the scan by pieces, which reads a deferred body's rows from its notes, the same pairs).
#include <proxima/ccd/collision_screen.hpp>
#include <proxima/mesh/generators.hpp>

#include "ccd/glide_raster.hpp"
#include "ccd/polygon_tests.hpp"
#include "ccd/raster_screen.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace proxima::ccd {
namespace {

using mesh::Mesh;

// Per vertex record of `points`: the parts of `faces` whose boundary crosses r = v.r below v.h an
// odd number of times in the vertex's row (half-open in r), or that have a record in the vertex's
// row or the two next to it within `pad` of the vertex (in h, then by the piece's distance).
std::vector<std::pair<int, int>> brute_force(const detail::BodyRaster& points, const detail::BodyRaster& faces,
                                             double pad) {
  std::vector<std::pair<int, int>> out;
  std::vector<unsigned char> odd(faces.parts.size()), near(faces.parts.size());
  for (const detail::VertexRecord& v : points.vertices) {
    std::fill(odd.begin(), odd.end(), 0);
    std::fill(near.begin(), near.end(), 0);
    for (int k = v.row - 1; k <= v.row + 1; ++k) {
      for (const detail::PixelRecord& rec : faces.row(k)) {
        const detail::ScreenSegment& s = faces.segments[static_cast<std::size_t>(rec.segment)];
        const std::size_t part = static_cast<std::size_t>(s.part);
        if (k == v.row && std::min(s.r0, s.r1) <= v.r && v.r < std::max(s.r0, s.r1)) {
          const double h = s.h0 + (v.r - s.r0) / (s.r1 - s.r0) * (s.h1 - s.h0);
          if (h < v.h) odd[part] ^= 1;
        }
        if (rec.hmin <= v.h + pad && rec.hmax >= v.h - pad &&
            detail::segment_distance_2d({v.r, v.h}, {s.r0, s.h0}, {s.r1, s.h1}) <= pad) {
          near[part] = 1;
        }
      }
    }
    for (std::size_t part = 0; part < faces.parts.size(); ++part) {
      if (odd[part] || near[part]) out.emplace_back(v.vertex, faces.parts[part].face);
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// Seeded screws; B (a torus or a box) drawn forward, A (a torus) backward with doppel in B's rows,
// B placed near A so that the two overlap on the screen. Pixel sizes from rows of a few records
// (scanned from their start) to rows of dozens (the sweep). Both directions of the scan.
TEST(RasterVertexFaceScan, SameCandidatesAsEveryRecord) {
  const std::uint64_t seed = 20261129;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(-1, 1);
  const Mesh torus = mesh::make_torus(1.0, 0.3);
  const Mesh box = mesh::make_box(Vec3(0.6, 0.4, 0.5));
  std::size_t pairs = 0, long_rows = 0, short_rows = 0;
  for (int trial = 0; trial < 24; ++trial) {
    const Mesh& b = trial % 3 == 2 ? box : torus;
    Screw screw;
    screw.axis = Vec3{unit(rng), unit(rng), unit(rng)}.normalized();
    screw.angle = trial % 4 == 3 ? 0.0 : 0.3 + 1.5 * (unit(rng) + 1) / 2;
    screw.glide = unit(rng);
    screw.axis_point = Vec3{unit(rng), unit(rng), unit(rng)};
    const CollisionScreen screen = make_collision_screen(screw, Vec3{unit(rng), unit(rng), 2});
    const Vec3 offset{0.5 * unit(rng), 0.5 * unit(rng), 0.5 * unit(rng)};
    auto canonical = [&](const Mesh& m, const Vec3& shift, std::vector<Vec3>& points, std::vector<Vec3>& normals) {
      for (const Vec3& p : m.vertices()) points.push_back(screen.to_canonical * (p + shift - screen.origin));
      for (int f = 0; f < m.num_faces(); ++f) normals.push_back(screen.to_canonical * m.face_normal(f));
    };
    std::vector<Vec3> a_points, a_normals, b_points, b_normals;
    canonical(torus, Vec3::Zero(), a_points, a_normals);
    canonical(b, offset, b_points, b_normals);
    const double pixels[] = {0.1, 0.04, 0.015};
    const double pixel = pixels[trial % 3];
    detail::RasterSettings settings;
    settings.pixel = pixel;
    settings.time_resolution = 0.02;
    settings.max_records = 1000000;
    settings.max_subdivision = 16;
    settings.keep_corners = false;
    const detail::BodyRaster raster_b = detail::draw_body(b, b_points, b_normals, screen, settings);
    ASSERT_LE(raster_b.row_min, raster_b.row_max);
    settings.backward = true;
    settings.doppel = screw.angle != 0;
    settings.row_lo = raster_b.row_min - 1;
    settings.row_hi = raster_b.row_max + 1;
    const detail::BodyRaster raster_a = detail::draw_body(torus, a_points, a_normals, screen, settings);
    for (const detail::BodyRaster* faces : {&raster_a, &raster_b}) {
      for (int k = faces->row_min; k <= faces->row_max; ++k) {
        (faces->row(k).size() >= 16 ? long_rows : short_rows) += 1;
      }
    }
    const double pad = detail::kCandidatePadPerPixel * pixel;
    const std::string label = "seed " + std::to_string(seed) + " trial " + std::to_string(trial);
    const auto vf = detail::vertex_face_scan(raster_a, raster_b, pad);
    EXPECT_EQ(vf, brute_force(raster_a, raster_b, pad)) << label << " (A's vertices)";
    const auto fv = detail::vertex_face_scan(raster_b, raster_a, pad);
    EXPECT_EQ(fv, brute_force(raster_b, raster_a, pad)) << label << " (B's vertices)";
    // The piece-by-piece scan of the small bodies (no records) lists the same pairs.
    EXPECT_EQ(detail::vertex_face_scan_by_pieces(raster_a, raster_b, pad, pixel), vf) << label << " (A's, pieces)";
    EXPECT_EQ(detail::vertex_face_scan_by_pieces(raster_b, raster_a, pad, pixel), fv) << label << " (B's, pieces)";
    // Deferred records, built afterwards, are the records drawn directly, bit for bit and in order.
    for (const bool backward : {false, true}) {
      detail::RasterSettings deferred = settings;
      deferred.backward = backward;
      deferred.doppel = backward && screw.angle != 0;
      if (!backward) {
        deferred.row_lo = std::numeric_limits<int>::min();
        deferred.row_hi = std::numeric_limits<int>::max();
      }
      const Mesh& m = backward ? torus : b;
      const auto& points = backward ? a_points : b_points;
      const auto& normals = backward ? a_normals : b_normals;
      const detail::BodyRaster& direct = backward ? raster_a : raster_b;
      deferred.defer_records = true;
      detail::BodyRaster late;
      detail::DrawScratch scratch;
      detail::draw_body(m, points, normals, screen, deferred, late, scratch);
      EXPECT_TRUE(late.records.empty()) << label;
      // The scan by pieces reads a deferred body's rows from its notes: the same pairs.
      if (backward) {
        EXPECT_EQ(detail::vertex_face_scan_by_pieces(raster_b, late, pad, pixel), fv) << label << " (deferred A)";
      } else {
        EXPECT_EQ(detail::vertex_face_scan_by_pieces(raster_a, late, pad, pixel), vf) << label << " (deferred B)";
      }
      // A deferred body's vertices stay in drawing order (their sort waits for build_records); as
      // the points of the scan by pieces they give the same pairs.
      if (backward) {
        EXPECT_EQ(detail::vertex_face_scan_by_pieces(late, raster_b, pad, pixel), vf) << label << " (A's unsorted)";
      } else {
        EXPECT_EQ(detail::vertex_face_scan_by_pieces(late, raster_a, pad, pixel), fv) << label << " (B's unsorted)";
      }
      EXPECT_EQ(late.record_count, direct.records.size()) << label;
      detail::build_records(late, pixel, scratch);
      ASSERT_EQ(late.records.size(), direct.records.size()) << label;
      EXPECT_EQ(late.row_start, direct.row_start) << label;
      EXPECT_EQ(late.row_min, direct.row_min) << label;
      EXPECT_EQ(late.row_max, direct.row_max) << label;
      for (std::size_t i = 0; i < late.records.size(); ++i) {
        const detail::PixelRecord &p = late.records[i], &q = direct.records[i];
        ASSERT_TRUE(p.hmin == q.hmin && p.hmax == q.hmax && p.row == q.row && p.segment == q.segment)
            << label << " record " << i;
      }
      // build_records sorts the vertices as draw_body does without deferring: the same order.
      ASSERT_EQ(late.vertices.size(), direct.vertices.size()) << label;
      for (std::size_t i = 0; i < late.vertices.size(); ++i) {
        const detail::VertexRecord &p = late.vertices[i], &q = direct.vertices[i];
        ASSERT_TRUE(p.row == q.row && p.h == q.h && p.r == q.r && p.t == q.t && p.vertex == q.vertex)
            << label << " vertex " << i;
      }
    }
    pairs += vf.size() + fv.size();
  }
  // The inputs exercise both kinds of rows and give many candidates.
  EXPECT_GT(pairs, 1000u);
  EXPECT_GT(long_rows, 100u);
  EXPECT_GT(short_rows, 100u);
}

}  // namespace
}  // namespace proxima::ccd
