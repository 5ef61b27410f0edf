// SPDX-License-Identifier: MIT
// The raster's two edge-crossing scans (src/ccd/glide_raster.cpp, step 6): by rows of pixel records
// and, for small bodies, by pairs of edge segments with their records recomputed. They must find
// the same record pairs, so the whole result is the same bit for bit whichever is taken.
#include <proxima/ccd/screw_collisions.hpp>
#include <proxima/core/tolerance.hpp>
#include <proxima/mesh/generators.hpp>

#include "ccd/glide_raster.hpp"

#include "support/ccd_motions.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace proxima::ccd {
namespace {

using mesh::Mesh;
using test::Motion;
using test::random_motion;

struct PairCase {
  const char* name;
  Mesh a, b;
  int count;
};

// Every field of two results equal, bit for bit (collisions in order, first contact, counts,
// status); returns whether x reported an edge-edge collision.
bool expect_same_result(const ScrewResult& x, const ScrewResult& y, const std::string& label) {
  EXPECT_EQ(x.collisions.size(), y.collisions.size()) << label;
  bool edge_edge = false;
  for (std::size_t i = 0; i < std::min(x.collisions.size(), y.collisions.size()); ++i) {
    const Collision &p = x.collisions[i], &q = y.collisions[i];
    EXPECT_EQ(p.type, q.type) << label << " collision " << i;
    EXPECT_EQ(p.vertex, q.vertex) << label << " collision " << i;
    EXPECT_EQ(p.face, q.face) << label << " collision " << i;
    EXPECT_EQ(p.edge_a, q.edge_a) << label << " collision " << i;
    EXPECT_EQ(p.edge_b, q.edge_b) << label << " collision " << i;
    EXPECT_EQ(p.time, q.time) << label << " collision " << i;
    EXPECT_EQ(p.point, q.point) << label << " collision " << i;
    EXPECT_EQ(p.normal, q.normal) << label << " collision " << i;
    EXPECT_EQ(p.properness, q.properness) << label << " collision " << i;
    edge_edge = edge_edge || p.type == CollisionType::ee;
  }
  EXPECT_EQ(x.contact, y.contact) << label;
  if (x.contact) {
    EXPECT_EQ(x.toi, y.toi) << label;
  }
  EXPECT_EQ(x.candidate_pairs, y.candidate_pairs) << label;
  EXPECT_EQ(x.iterations, y.iterations) << label;
  EXPECT_EQ(x.status, y.status) << label;
  return edge_edge;
}

// Every field of both results equal (collisions, first contact, counts, status): the scans are a
// cost choice only. Over seeded motions of five pairs, at the three resolution presets and several
// properness thresholds, with first_contact_only too; the segment scan is forced even on the tori,
// where the default rule takes the rows.
TEST(RasterEdgeScan, SegmentPairsGiveTheRowScansResult) {
  std::vector<PairCase> pairs;
  pairs.push_back({"cube-cube", mesh::make_box(Vec3(0.5, 0.5, 0.5)), mesh::make_box(Vec3(0.5, 0.5, 0.5)), 40});
  pairs.push_back({"car-car", mesh::make_car(), mesh::make_car(), 40});
  pairs.push_back({"tet-lprism", mesh::make_tetrahedron(), mesh::make_l_prism(), 40});
  pairs.push_back({"lprism-torus", mesh::make_l_prism(), mesh::make_torus(1, 0.3), 16});
  pairs.push_back({"torus-torus", mesh::make_torus(1, 0.3), mesh::make_torus(1, 0.3), 12});
  const std::uint64_t seed = 8123;
  std::mt19937_64 rng(seed);
  const double thresholds[] = {kCcdPropernessThreshold, -1, 0.3};
  const double pixels[] = {kCcdRasterPixelSizeMedium, kCcdRasterPixelSizeLow, kCcdRasterPixelSizeHigh};
  int with_edge_collisions = 0;
  for (const PairCase& pc : pairs) {
    for (int k = 0; k < pc.count; ++k) {
      const Motion m = random_motion(rng, pc.a, pc.b, k);
      ScrewOptions o;
      o.method = ScrewMethod::raster;
      o.properness_threshold = thresholds[k % 3];
      o.pixel_size = pixels[k % 4 == 3 ? 1 : k % 4 == 2 ? 2 : 0];
      o.first_contact_only = k % 5 == 4;
      const ScrewResult rows = detail::raster_screw_collisions(pc.a, m.a0, m.a1, pc.b, m.b0, m.b1, o, true,
                                                               detail::EdgeScan::rows);
      const ScrewResult segments = detail::raster_screw_collisions(pc.a, m.a0, m.a1, pc.b, m.b0, m.b1, o, true,
                                                                   detail::EdgeScan::segments);
      const std::string label = std::string(pc.name) + " seed " + std::to_string(seed) + " case " + std::to_string(k);
      const bool edge_edge = expect_same_result(rows, segments, label);
      with_edge_collisions += edge_edge ? 1 : 0;
    }
  }
  EXPECT_GT(with_edge_collisions, 20);  // the edge-edge candidates were put to use
}

// Both scans compare the squared distance of two pieces with squared_reach(pad) instead of the
// distance with the pad: x > squared_reach(pad) must hold exactly when sqrt(x) > pad. Checked at
// and around the threshold (the squares of the pad and its neighbours and the reach's neighbours,
// each with its own ten neighbours) and at random x, for the scans' pads over a range of pixel
// sizes, random pads, and the edge cases (0, the smallest and largest doubles, infinity, negative,
// NaN).
TEST(RasterEdgeScan, SquaredReachDecidesAsTheDistance) {
  const std::uint64_t seed = 5120;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> exponent(-300, 300);
  std::vector<double> pads = {0, std::numeric_limits<double>::denorm_min(), std::numeric_limits<double>::min(),
                              1, std::numeric_limits<double>::max(), std::numeric_limits<double>::infinity(), -1,
                              std::numeric_limits<double>::quiet_NaN()};
  for (double pixel : {kCcdRasterPixelSizeMedium, kCcdRasterPixelSizeLow, kCcdRasterPixelSizeHigh}) {
    for (double scale = 0.01; scale < 1000; scale *= 1.37) pads.push_back(pixel * scale / 4);
  }
  for (int k = 0; k < 2000; ++k) pads.push_back(std::pow(2.0, exponent(rng)) * (1 + static_cast<double>(k % 97) / 97));
  auto steps = [](double x, int by) {
    for (; by > 0 && x < std::numeric_limits<double>::infinity(); --by) x = std::nextafter(x, HUGE_VAL);
    for (; by < 0 && x > 0; ++by) x = std::nextafter(x, 0.0);
    return x;
  };
  int checked = 0, near_threshold = 0;
  for (const double pad : pads) {
    const double reach = detail::squared_reach(pad);
    std::vector<double> xs = {0, std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()};
    for (double centre : {pad * pad, reach, steps(pad, 1) * steps(pad, 1), steps(pad, -1) * steps(pad, -1)}) {
      if (!(centre >= 0)) continue;
      for (int by = -10; by <= 10; ++by) xs.push_back(steps(centre, by));
    }
    for (int k = 0; k < 20; ++k) xs.push_back(std::pow(2.0, exponent(rng)));
    for (const double x : xs) {
      ASSERT_EQ(x > reach, std::sqrt(x) > pad) << "seed " << seed << " pad " << pad << " x " << x;
      ++checked;
      near_threshold += std::abs(x - pad * pad) <= 1e-12 * pad * pad ? 1 : 0;
    }
  }
  EXPECT_GT(checked, 100000);
  EXPECT_GT(near_threshold, 50000);
}

// The small-mesh scans' pre-tests (detail::raster_pretest_mask): the AVX2 loop gives the portable
// loop's bits, so the scans visit the same pairs in the same order. Seeded random lists of every
// length 0 .. 200 (the lists padded to four as the scans pad them), rows around the bounds
// (equal rows included), h extents on and around the bounds, with NaN and infinities.
TEST(RasterEdgeScan, Avx2PretestsGiveThePortableBits) {
  const std::uint64_t seed = 27027;
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> row(-12, 12);
  std::uniform_real_distribution<double> h(-2, 2);
  const double specials[] = {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity(), 0.0, -0.0};
  int passing = 0, failing = 0;
  for (int round = 0; round < 4000; ++round) {
    const int n = round % 201;
    const std::size_t padded = (static_cast<std::size_t>(n) + 3) / 4 * 4;
    std::vector<int> k0(padded), k1(padded);
    std::vector<double> hlo(padded), hhi(padded);
    const double bottom = round % 17 == 0 ? specials[round % 5] : h(rng);
    const double top = round % 13 == 0 ? specials[(round / 13) % 5] : bottom + std::abs(h(rng));
    for (std::size_t i = 0; i < padded; ++i) {
      k0[i] = row(rng);
      k1[i] = k0[i] + std::abs(row(rng)) / 3;
      const int kind = static_cast<int>(rng() % 8);
      hlo[i] = kind == 0 ? top : kind == 1 ? specials[rng() % 5] : h(rng);
      hhi[i] = kind == 2 ? bottom : kind == 3 ? specials[rng() % 5] : hlo[i] + std::abs(h(rng));
    }
    const int lo = row(rng), hi = lo + static_cast<int>(rng() % 4);
    const bool with_h = round % 3 != 0;
    const std::size_t words = (static_cast<std::size_t>(n) + 63) / 64;
    std::vector<std::uint64_t> portable(words + 1, ~std::uint64_t{0}), avx2(words + 1, ~std::uint64_t{0});
    detail::raster_pretest_mask(k0.data(), k1.data(), with_h ? hlo.data() : nullptr, with_h ? hhi.data() : nullptr,
                                n, lo, hi, bottom, top, portable.data(), false);
    detail::raster_pretest_mask(k0.data(), k1.data(), with_h ? hlo.data() : nullptr, with_h ? hhi.data() : nullptr,
                                n, lo, hi, bottom, top, avx2.data(), true);
    const std::string label = "seed " + std::to_string(seed) + " round " + std::to_string(round);
    for (std::size_t w = 0; w < words; ++w) ASSERT_EQ(portable[w], avx2[w]) << label << " word " << w;
    EXPECT_EQ(portable[words], ~std::uint64_t{0}) << label;  // nothing written past the words
    EXPECT_EQ(avx2[words], ~std::uint64_t{0}) << label;
    // The portable bits are the definition's.
    for (int i = 0; i < n; ++i) {
      const std::size_t j = static_cast<std::size_t>(i);
      bool pass = k0[j] <= hi && k1[j] >= lo;
      if (with_h) {
        pass = pass && !(hlo[j] > top) && !(hhi[j] < bottom);
      }
      ASSERT_EQ(pass, ((portable[j / 64] >> (j % 64)) & 1) != 0) << label << " entry " << i;
      passing += pass ? 1 : 0;
      failing += pass ? 0 : 1;
    }
  }
  EXPECT_GT(passing, 10000);
  EXPECT_GT(failing, 10000);
}

// The scans with the AVX2 pre-tests and with the portable ones: the same result, field for field
// (the segment-pair edge scan forced, the vertex-in-face scan by pieces taken by the small bodies).
TEST(RasterEdgeScan, Avx2PretestsGiveThePortableScansResult) {
  std::vector<PairCase> pairs;
  pairs.push_back({"cube-cube", mesh::make_box(Vec3(0.5, 0.5, 0.5)), mesh::make_box(Vec3(0.5, 0.5, 0.5)), 40});
  pairs.push_back({"car-car", mesh::make_car(), mesh::make_car(), 40});
  pairs.push_back({"tet-lprism", mesh::make_tetrahedron(), mesh::make_l_prism(), 40});
  pairs.push_back({"lprism-torus", mesh::make_l_prism(), mesh::make_torus(1, 0.3), 8});
  const std::uint64_t seed = 27028;
  std::mt19937_64 rng(seed);
  const double pixels[] = {kCcdRasterPixelSizeMedium, kCcdRasterPixelSizeLow, kCcdRasterPixelSizeHigh};
  int collisions = 0;
  for (const PairCase& pc : pairs) {
    for (int k = 0; k < pc.count; ++k) {
      const Motion m = random_motion(rng, pc.a, pc.b, k);
      ScrewOptions o;
      o.method = ScrewMethod::raster;
      o.pixel_size = pixels[k % 3];
      detail::set_raster_avx2_for_tests(false);
      const ScrewResult portable = detail::raster_screw_collisions(pc.a, m.a0, m.a1, pc.b, m.b0, m.b1, o, true,
                                                                   detail::EdgeScan::segments);
      detail::set_raster_avx2_for_tests(true);
      const ScrewResult avx2 = detail::raster_screw_collisions(pc.a, m.a0, m.a1, pc.b, m.b0, m.b1, o, true,
                                                               detail::EdgeScan::segments);
      const std::string label = std::string(pc.name) + " seed " + std::to_string(seed) + " case " + std::to_string(k);
      expect_same_result(portable, avx2, label);
      collisions += static_cast<int>(portable.collisions.size());
    }
  }
  EXPECT_GT(collisions, 100);
}

}  // namespace
}  // namespace proxima::ccd
