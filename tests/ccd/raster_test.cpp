// SPDX-License-Identifier: MIT
// Raster (seed 004 collision screen) screw collisions: the screen drawing itself, the seed's
// figure 2 properness examples, head-on and edge-edge cases, translation and axis-crossing
// motions, caps, and seeded random motions against the exact mode and the CGAL reference.
#include <proxima/ccd/screw_collisions.hpp>
#include <proxima/core/error.hpp>
#include <proxima/core/tolerance.hpp>
#include <proxima/mesh/generators.hpp>

#include "ccd/raster_screen.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <vector>

#ifdef PROXIMA_HAVE_CGAL
#include "ccd/reference.hpp"
#endif

namespace proxima::ccd {
namespace {

using mesh::Mesh;

Pose at(double x, double y = 0, double z = 0) { return Pose::from_translation(Vec3(x, y, z)); }

ScrewOptions raster_options() {
  ScrewOptions o;
  o.method = ScrewMethod::raster;
  return o;
}

// B = unit cube translating along +y: its forward part is the +y face plus the four side faces
// (omega . n = 0 there, kept as both facings); on the screen (r, h) = (x, z) the +y face covers
// [-0.5, 0.5]^2 and its pixel records span that square row by row.
/// Drawing settings of the screen tests: pixel size, time resolution, record budget, subdivision
/// cap 16, and whether the backward faces (and their doppels) are drawn.
detail::RasterSettings screen_settings(double pixel, double time_resolution, int budget, bool backward, bool doppel) {
  detail::RasterSettings settings;
  settings.pixel = pixel;
  settings.time_resolution = time_resolution;
  settings.max_records = budget;
  settings.max_subdivision = 16;
  settings.backward = backward;
  settings.doppel = doppel;
  return settings;
}

TEST(RasterScreen, TranslatingBoxDrawsItsFrontFaceRowByRow) {
  const Mesh cube = mesh::make_box(Vec3(0.5, 0.5, 0.5));
  Screw screw;
  screw.axis = Vec3::UnitY();
  screw.glide = 2;
  const CollisionScreen screen = make_collision_screen(screw, Vec3::Zero());
  std::vector<Vec3> points, normals;
  for (const Vec3& p : cube.vertices()) points.push_back(screen.to_canonical * (p - screen.origin));
  for (int f = 0; f < cube.num_faces(); ++f) normals.push_back(screen.to_canonical * cube.face_normal(f));
  detail::RasterSettings settings;
  settings.pixel = 0.1;
  settings.time_resolution = 0.01;
  settings.max_records = 100000;
  settings.max_subdivision = 10;
  const detail::BodyRaster raster = detail::draw_body(cube, points, normals, screen, settings);
  EXPECT_FALSE(raster.out_of_records);
  EXPECT_FALSE(raster.subdivision_capped);
  EXPECT_EQ(raster.parts.size(), 5u) << "the +y face and four side faces; -y is backward";
  EXPECT_EQ(raster.row_min, detail::row_of(-0.5, 0.1));
  EXPECT_EQ(raster.row_max, detail::row_of(0.5, 0.1));
  EXPECT_EQ(raster.vertices.size(), 8u) << "every vertex lies on a kept part";
  for (const detail::VertexRecord& v : raster.vertices) {
    EXPECT_NEAR(std::abs(v.r), 0.5, 1e-12);
    EXPECT_NEAR(std::abs(v.h), 0.5, 1e-12);
    EXPECT_NEAR(std::abs(v.t), 0.25, 1e-12) << "t = y / g";
  }
  // Straight edges are drawn as single pieces (a translation's screen is a plane).
  EXPECT_EQ(raster.segments.size(), 20u);
  // Records are sorted by row then hmin, and every row of the square has one.
  for (std::size_t i = 1; i < raster.records.size(); ++i) {
    const auto& p = raster.records[i - 1];
    const auto& q = raster.records[i];
    EXPECT_TRUE(p.row < q.row || (p.row == q.row && p.hmin <= q.hmin));
  }
  for (int k = raster.row_min; k <= raster.row_max; ++k) EXPECT_FALSE(raster.row(k).empty()) << k;
}

// A rotating screw: an edge far from the axis is curved on the screen and gets subdivided until
// straight to the pixel; the doppeled parts of A appear only for points with phi in [-pi, -pi +
// theta].
TEST(RasterScreen, RotationSubdividesCurvedEdgesAndDoppelsBehindTheAxis) {
  const Mesh cube = mesh::make_box(Vec3(0.5, 0.5, 0.5));
  Screw screw;
  screw.axis = Vec3::UnitY();
  screw.angle = 1.0;
  screw.glide = 0.3;
  screw.axis_point = Vec3(0, 0, 0);
  // Facing +z: a cube centred on the axis straddles the seam, so the seam split and the doppel
  // wedge both cut faces.
  const CollisionScreen screen = make_collision_screen(screw, Vec3(0, 0, 1));
  std::vector<Vec3> points, normals;
  for (const Vec3& p : cube.vertices()) points.push_back(screen.to_canonical * (p - screen.origin));
  for (int f = 0; f < cube.num_faces(); ++f) normals.push_back(screen.to_canonical * cube.face_normal(f));
  const detail::RasterSettings settings = screen_settings(0.02, 0.01, 1000000, true, true);
  const detail::BodyRaster raster = detail::draw_body(cube, points, normals, screen, settings);
  EXPECT_FALSE(raster.out_of_records);
  int doppel = 0, split = 0;
  for (const detail::FacePart& p : raster.parts) {
    doppel += p.branch == detail::Branch::doppel;
    split += p.branch == detail::Branch::positive || p.branch == detail::Branch::negative;
  }
  EXPECT_GT(doppel, 0);
  EXPECT_GT(split, 0);
  // Every doppel part lies in the wedge phi in [-pi, -pi + theta].
  for (const detail::FacePart& p : raster.parts) {
    if (p.branch != detail::Branch::doppel) continue;
    for (int i = p.first; i < p.first + p.count; ++i) {
      const Vec3& x = raster.corners[i].x;
      if (std::hypot(x.x(), x.z()) < 1e-12) continue;
      const double phi = detail::branch_phi(x, detail::Branch::doppel);
      EXPECT_GE(phi, std::numbers::pi - 1e-9);
      EXPECT_LE(phi, std::numbers::pi + screw.angle + 1e-9);
    }
  }
  EXPECT_GT(raster.segments.size(), 2 * raster.corners.size()) << "curved edges are subdivided";
}

// draw_body computes each band border's h once for the two rows it bounds (cost only): every
// record must still be record_span's of its segment and row, bit for bit (the edge-crossing scan
// recomputes records with record_span), with its row within the body's rows, also when the record
// budget runs out mid-piece.
TEST(RasterScreen, RecordsAreRecordSpansOfTheirSegments) {
  const Mesh torus = mesh::make_torus(1.0, 0.3, 12, 8);
  Screw screw;
  screw.axis = Vec3(0.2, 1, 0.1).normalized();
  screw.angle = 0.8;
  screw.glide = 0.4;
  screw.axis_point = Vec3(0.3, 0, -0.2);
  const CollisionScreen screen = make_collision_screen(screw, Vec3(0.5, 0.2, 2));
  std::vector<Vec3> points, normals;
  for (const Vec3& p : torus.vertices()) points.push_back(screen.to_canonical * (p - screen.origin));
  for (int f = 0; f < torus.num_faces(); ++f) normals.push_back(screen.to_canonical * torus.face_normal(f));
  for (int budget : {1000000, 500, 37}) {
    for (bool backward : {false, true}) {
      const detail::RasterSettings settings = screen_settings(0.01, 0.01, budget, backward, backward);
      const detail::BodyRaster raster = detail::draw_body(torus, points, normals, screen, settings);
      EXPECT_EQ(raster.out_of_records, budget < 1000000);
      ASSERT_FALSE(raster.records.empty());
      for (const detail::PixelRecord& rec : raster.records) {
        const auto [hmin, hmax] = detail::record_span(raster.segments[static_cast<std::size_t>(rec.segment)], rec.row,
                                                      settings.pixel);
        EXPECT_EQ(std::bit_cast<std::uint64_t>(rec.hmin), std::bit_cast<std::uint64_t>(hmin));
        EXPECT_EQ(std::bit_cast<std::uint64_t>(rec.hmax), std::bit_cast<std::uint64_t>(hmax));
        EXPECT_GE(rec.row, raster.row_min);
        EXPECT_LE(rec.row, raster.row_max);
      }
    }
  }
}

// draw_body writes each piece's records after one budget check (cost only, session 16): a drawing
// whose budget runs out must hold exactly the records a check before every record leaves, i.e. the
// first `budget` records of the unlimited drawing in the order they are made (by piece, then row
// upwards), with its row range the range of those records and out_of_records set exactly when
// records were left out. Seeded screws; the seed is printed on failure.
/// A random screw, its collision screen and a body's vertices and face normals in the screen's
/// canonical frame: what detail::draw_body takes. `trial % 4 == 3` draws a pure glide (angle 0).
struct DrawnBody {
  Screw screw;
  CollisionScreen screen;
  std::vector<Vec3> points, normals;
};

DrawnBody draw_random_screen(const Mesh& body, int trial, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> unit(-1, 1);
  DrawnBody out;
  out.screw.axis = Vec3{unit(rng), unit(rng), unit(rng)}.normalized();
  out.screw.angle = trial % 4 == 3 ? 0.0 : 0.3 + 1.5 * (unit(rng) + 1) / 2;
  out.screw.glide = unit(rng);
  out.screw.axis_point = Vec3{unit(rng), unit(rng), unit(rng)};
  out.screen = make_collision_screen(out.screw, Vec3{unit(rng), unit(rng), 2});
  for (const Vec3& p : body.vertices()) out.points.push_back(out.screen.to_canonical * (p - out.screen.origin));
  for (int f = 0; f < body.num_faces(); ++f) out.normals.push_back(out.screen.to_canonical * body.face_normal(f));
  return out;
}

TEST(RasterScreen, ABudgetKeepsTheFirstRecordsOfTheUnlimitedDrawing) {
  const Mesh torus = mesh::make_torus(1.0, 0.3, 10, 6);
  const Mesh cube = mesh::make_box(Vec3(0.5, 0.4, 0.3));
  const std::uint64_t seed = 16;
  std::mt19937_64 rng(seed);
  int truncated = 0;
  for (int trial = 0; trial < 12; ++trial) {
    const Mesh& body = trial % 2 == 0 ? torus : cube;
    const DrawnBody drawn = draw_random_screen(body, trial, rng);
    const bool backward = trial % 3 == 1;
    // Named members, not a structured binding: clang 14 does not capture bindings in a lambda.
    auto draw = [&](int budget) {
      return detail::draw_body(body, drawn.points, drawn.normals, drawn.screen,
                               screen_settings(0.02, 0.02, budget, backward, backward && drawn.screw.angle != 0));
    };
    const detail::BodyRaster full = draw(1 << 22);
    ASSERT_FALSE(full.out_of_records) << "seed " << seed << " trial " << trial;
    ASSERT_GT(full.records.size(), 20u) << "seed " << seed << " trial " << trial;
    // The unlimited drawing's records in the order they are made.
    auto made_order = [](std::vector<detail::PixelRecord> records) {
      std::sort(records.begin(), records.end(), [](const detail::PixelRecord& p, const detail::PixelRecord& q) {
        return p.segment != q.segment ? p.segment < q.segment : p.row < q.row;
      });
      return records;
    };
    const std::vector<detail::PixelRecord> order = made_order(full.records);
    const int total = static_cast<int>(order.size());
    for (int budget : {1, 2, 7, total / 3, total / 2 + 1, total - 1, total, total + 5}) {
      const detail::BodyRaster cut = draw(budget);
      const std::vector<detail::PixelRecord> got = made_order(cut.records);
      const std::size_t expected = static_cast<std::size_t>(std::min(budget, total));
      ASSERT_EQ(got.size(), expected) << "seed " << seed << " trial " << trial << " budget " << budget;
      EXPECT_EQ(cut.out_of_records, budget < total) << "seed " << seed << " trial " << trial << " budget " << budget;
      truncated += cut.out_of_records ? 1 : 0;
      int row_min = std::numeric_limits<int>::max(), row_max = std::numeric_limits<int>::min();
      for (std::size_t i = 0; i < got.size(); ++i) {
        EXPECT_EQ(got[i].segment, order[i].segment) << "seed " << seed << " trial " << trial << " budget " << budget;
        EXPECT_EQ(got[i].row, order[i].row) << "seed " << seed << " trial " << trial << " budget " << budget;
        EXPECT_EQ(std::bit_cast<std::uint64_t>(got[i].hmin), std::bit_cast<std::uint64_t>(order[i].hmin));
        EXPECT_EQ(std::bit_cast<std::uint64_t>(got[i].hmax), std::bit_cast<std::uint64_t>(order[i].hmax));
        row_min = std::min(row_min, got[i].row);
        row_max = std::max(row_max, got[i].row);
      }
      EXPECT_EQ(cut.row_min, row_min) << "seed " << seed << " trial " << trial << " budget " << budget;
      EXPECT_EQ(cut.row_max, row_max) << "seed " << seed << " trial " << trial << " budget " << budget;
    }
  }
  EXPECT_GE(truncated, 12 * 5) << "seed " << seed << ": most budgets must cut the drawing short";
}

// The query draws without keeping the parts' corners (cost only, session 16): everything else the
// drawing holds must be the same, bit for bit, and the corners left empty. Seeded screws; the
// seed is printed on failure.
TEST(RasterScreen, DrawingWithoutCornersKeepsEverythingElse) {
  const Mesh torus = mesh::make_torus(1.0, 0.3, 10, 6);
  const std::uint64_t seed = 161;
  std::mt19937_64 rng(seed);
  auto bits = [](double x) { return std::bit_cast<std::uint64_t>(x); };
  for (int trial = 0; trial < 8; ++trial) {
    const auto [screw, screen, points, normals] = draw_random_screen(torus, trial, rng);
    const bool backward = trial % 2 == 1;
    detail::RasterSettings settings = screen_settings(0.02, 0.02, 1 << 22, backward, backward && screw.angle != 0);
    const detail::BodyRaster with = detail::draw_body(torus, points, normals, screen, settings);
    settings.keep_corners = false;
    const detail::BodyRaster without = detail::draw_body(torus, points, normals, screen, settings);
    ASSERT_FALSE(with.corners.empty()) << "seed " << seed << " trial " << trial;
    EXPECT_TRUE(without.corners.empty()) << "seed " << seed << " trial " << trial;
    ASSERT_EQ(with.parts.size(), without.parts.size()) << "seed " << seed << " trial " << trial;
    for (std::size_t i = 0; i < with.parts.size(); ++i) {
      EXPECT_EQ(with.parts[i].face, without.parts[i].face);
      EXPECT_EQ(with.parts[i].branch, without.parts[i].branch);
      EXPECT_EQ(with.parts[i].count, without.parts[i].count);
    }
    ASSERT_EQ(with.segments.size(), without.segments.size()) << "seed " << seed << " trial " << trial;
    for (std::size_t i = 0; i < with.segments.size(); ++i) {
      const detail::ScreenSegment &p = with.segments[i], &q = without.segments[i];
      EXPECT_TRUE(bits(p.r0) == bits(q.r0) && bits(p.h0) == bits(q.h0) && bits(p.t0) == bits(q.t0) &&
                  bits(p.r1) == bits(q.r1) && bits(p.h1) == bits(q.h1) && bits(p.t1) == bits(q.t1) &&
                  bits(p.time_error) == bits(q.time_error) && p.edge == q.edge && p.part == q.part)
          << "seed " << seed << " trial " << trial << " segment " << i;
    }
    ASSERT_EQ(with.records.size(), without.records.size()) << "seed " << seed << " trial " << trial;
    for (std::size_t i = 0; i < with.records.size(); ++i) {
      const detail::PixelRecord &p = with.records[i], &q = without.records[i];
      EXPECT_TRUE(p.row == q.row && p.segment == q.segment && bits(p.hmin) == bits(q.hmin) &&
                  bits(p.hmax) == bits(q.hmax))
          << "seed " << seed << " trial " << trial << " record " << i;
    }
    ASSERT_EQ(with.vertices.size(), without.vertices.size()) << "seed " << seed << " trial " << trial;
    for (std::size_t i = 0; i < with.vertices.size(); ++i) {
      const detail::VertexRecord &p = with.vertices[i], &q = without.vertices[i];
      EXPECT_TRUE(p.row == q.row && p.vertex == q.vertex && bits(p.r) == bits(q.r) && bits(p.h) == bits(q.h) &&
                  bits(p.t) == bits(q.t))
          << "seed " << seed << " trial " << trial << " vertex " << i;
    }
    EXPECT_EQ(with.row_start, without.row_start);
    EXPECT_EQ(with.row_min, without.row_min);
    EXPECT_EQ(with.row_max, without.row_max);
  }
}

// row_of takes floor by truncation within kFarRow rows (cost only): it must give std::floor's row
// with the clamp everywhere, on integers, negatives, signed zeros, values next to row borders,
// the clamp's edge, beyond it, infinities and NaN.
TEST(RasterScreen, RowOfIsTheClampedFloor) {
  auto reference = [](double r, double pixel) {
    return proxima::detail::clamped_int(std::floor(r / pixel), static_cast<int>(-detail::kFarRow),
                                        static_cast<int>(detail::kFarRow));
  };
  std::vector<double> rs = {0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 1e9, -1e9, 1e9 + 0.5, -1e9 - 0.5,
                            3e9, -3e9, std::numeric_limits<double>::infinity(),
                            -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN(),
                            std::numeric_limits<double>::denorm_min(), -std::numeric_limits<double>::denorm_min()};
  for (double k = -5; k <= 5; ++k) {
    rs.push_back(std::nextafter(k, -1e300));
    rs.push_back(std::nextafter(k, 1e300));
  }
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> uniform(-50, 50);
  for (int i = 0; i < 10000; ++i) rs.push_back(uniform(rng));
  for (double pixel : {1.0, 0.1, 0.0125, 3.0, 1e-12}) {
    for (double r : rs) EXPECT_EQ(detail::row_of(r, pixel), reference(r, pixel)) << "r " << r << " pixel " << pixel;
    for (int k = -20; k <= 20; ++k) {
      const double border = k * pixel;
      for (double r : {border, std::nextafter(border, -1e300), std::nextafter(border, 1e300)}) {
        EXPECT_EQ(detail::row_of(r, pixel), reference(r, pixel)) << "r " << r << " pixel " << pixel;
      }
    }
  }
}

TEST(Raster, HeadOnBoxesGiveFourProperFaceVertexContacts) {
  const Mesh a = mesh::make_box(Vec3(1, 1, 1));
  const Mesh b = mesh::make_box(Vec3(0.5, 0.5, 0.5));
  const ScrewResult r =
      screw_collisions(a, Pose(), Pose(), b, at(3.5, 0.1, -0.2), at(-0.5, 0.1, -0.2), raster_options());
  ASSERT_TRUE(r.contact);
  EXPECT_NEAR(r.toi, 0.5, 1e-12);
  int at_toi = 0;
  for (const Collision& c : r.collisions) {
    if (std::abs(c.time - 0.5) > 1e-9) continue;
    ++at_toi;
    EXPECT_EQ(c.type, CollisionType::fv);
    EXPECT_GE(c.properness, 0) << "head-on contacts are proper";
    EXPECT_LT((c.normal - Vec3::UnitX()).norm(), 1e-12);
    EXPECT_NEAR(c.point.x(), 1, 1e-12);
  }
  EXPECT_EQ(at_toi, 4) << "B's four left vertices land inside A's right face";
  EXPECT_EQ(r.status, Status::converged);
}

TEST(Raster, SeedFigure2TiltedSquareGivesProperThenSlightlyImproper) {
  // Seed 004 figure 2(b): B tilted by alpha translates into the fixed A; its lower left edge
  // lands first (proper, value 0), its upper left edge later (slightly improper, -sin(alpha)).
  const double alpha = -0.05;
  const Mesh a = mesh::make_box(Vec3(1, 2, 1));
  const Mesh b = mesh::make_box(Vec3(0.5, 0.5, 0.5));
  const Mat3 tilt = Eigen::AngleAxisd(alpha, Vec3::UnitZ()).toRotationMatrix();
  const Pose b0 = Pose::from_matrix(tilt, Vec3(2, 0, 0));
  const Pose b1 = Pose::from_matrix(tilt, Vec3(1, 0, 0));
  ScrewOptions keep_all = raster_options();
  keep_all.properness_threshold = -1;
  const ScrewResult r = screw_collisions(a, Pose(), Pose(), b, b0, b1, keep_all);
  const double lower = 1 + (tilt * Vec3(-0.5, -0.5, 0)).x();
  const double upper = 1 + (tilt * Vec3(-0.5, 0.5, 0)).x();
  ASSERT_EQ(r.collisions.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    const Collision& c = r.collisions[i];
    EXPECT_EQ(c.type, CollisionType::fv);
    EXPECT_EQ(c.face, 1) << "A's +x face";
    EXPECT_NEAR(c.time, i < 2 ? lower : upper, 1e-12);
    if (i < 2) {
      EXPECT_NEAR(c.properness, 0, 1e-12) << "proper";
    } else {
      EXPECT_NEAR(c.properness, -std::sin(std::abs(alpha)), 1e-12) << "slightly improper";
    }
  }
  ScrewOptions proper_only = raster_options();
  proper_only.properness_threshold = 0;
  EXPECT_EQ(screw_collisions(a, Pose(), Pose(), b, b0, b1, proper_only).collisions.size(), 2u);
  EXPECT_EQ(screw_collisions(a, Pose(), Pose(), b, b0, b1, raster_options()).collisions.size(), 4u);
}

TEST(Raster, SeedFigure2AlignedSquaresTouchTogether) {
  const Mesh a = mesh::make_box(Vec3(1, 2, 1));
  const Mesh b = mesh::make_box(Vec3(0.5, 0.5, 0.5));
  const ScrewResult r = screw_collisions(a, Pose(), Pose(), b, at(2), at(1), raster_options());
  ASSERT_EQ(r.collisions.size(), 4u);
  for (const Collision& c : r.collisions) {
    EXPECT_NEAR(c.time, 0.5, 1e-12);
    EXPECT_GE(c.properness, 0);
  }
}

// Seed section 5: a vertex that lands exactly on an edge (a VE collision) is resolved into one
// vertex-face collision, against the adjacent face that maximises properness. B, a cube turned
// corner first, slides diagonally onto A's edge {x = 1, z = 1}; the exact mode reports the vertex
// against both faces of that edge, the raster the better one only.
TEST(Raster, VertexOnEdgeResolvesToTheMostProperFace) {
  const Mesh a = mesh::make_box(Vec3(1, 1, 1));
  const Mesh b = mesh::make_box(Vec3(0.3, 0.3, 0.3));
  // Turn B's corner (-1, -1, -1) towards (-1, 0, -1), and a little about that axis so that the two
  // faces of A's edge see the vertex's edges differently.
  const Vec3 from = Vec3(-1, -1, -1).normalized(), to = Vec3(-1, 0, -1).normalized();
  const Mat3 turn = Eigen::AngleAxisd(0.2, to).toRotationMatrix() *
                    Eigen::Quaterniond::FromTwoVectors(from, to).toRotationMatrix();
  const Vec3 corner = turn * Vec3(-0.3, -0.3, -0.3);
  const Vec3 hit(1, 0.2, 1);  // where the corner meets the edge
  const Pose b0 = Pose::from_matrix(turn, hit - corner + Vec3(1, 0, 1));
  const Pose b1 = Pose::from_matrix(turn, hit - corner - Vec3(1, 0, 1));
  ScrewOptions all = raster_options();
  all.properness_threshold = -1;
  ScrewOptions exact_all;
  exact_all.properness_threshold = -1;
  const ScrewResult e = screw_collisions(a, Pose(), Pose(), b, b0, b1, exact_all);
  const ScrewResult r = screw_collisions(a, Pose(), Pose(), b, b0, b1, all);
  ASSERT_TRUE(e.contact);
  ASSERT_TRUE(r.contact);
  EXPECT_NEAR(r.toi, 0.5, 1e-9);
  auto face_vertex_at_toi = [](const ScrewResult& res) {
    std::vector<Collision> out;
    for (const Collision& c : res.collisions) {
      if (c.type == CollisionType::fv && std::abs(c.time - res.toi) < 1e-9) out.push_back(c);
    }
    return out;
  };
  const auto exact_fv = face_vertex_at_toi(e), raster_fv = face_vertex_at_toi(r);
  ASSERT_EQ(exact_fv.size(), 2u) << "the vertex against both faces of the edge";
  ASSERT_EQ(raster_fv.size(), 1u) << "resolved to one face";
  EXPECT_EQ(raster_fv[0].vertex, exact_fv[0].vertex);
  EXPECT_NEAR(raster_fv[0].properness, std::max(exact_fv[0].properness, exact_fv[1].properness), 1e-12);
}

TEST(Raster, CrossedRidgesGiveOneProperEdgeEdgeContact) {
  const Mesh cube = mesh::make_box(Vec3(0.5, 0.5, 0.5));
  const double q = std::numbers::pi / 4, ridge = std::sqrt(0.5);
  const Pose a = Pose::from_euler_xyz(q, 0, 0);
  const Pose b0 = Pose::from_euler_xyz(0, q, 0, Vec3(0.1, -0.05, 3));
  const Pose b1 = Pose::from_euler_xyz(0, q, 0, Vec3(0.1, -0.05, -1));
  const ScrewResult r = screw_collisions(cube, a, a, cube, b0, b1, raster_options());
  ASSERT_TRUE(r.contact);
  const Collision& c = r.collisions.front();
  EXPECT_EQ(c.type, CollisionType::ee);
  EXPECT_NEAR(c.time, (3 - 2 * ridge) / 4, 1e-12);
  EXPECT_LT((c.normal - Vec3::UnitZ()).norm(), 1e-12);
  EXPECT_LT((c.point - Vec3(0.1, 0, ridge)).norm(), 1e-12);
  EXPECT_NEAR(c.properness, std::sqrt(0.5), 1e-12);
}

TEST(Raster, TunnelingThroughInOneStepIsCaught) {
  const Mesh plate = mesh::make_box(Vec3(0.05, 2, 2));
  const Mesh cube = mesh::make_box(Vec3(0.2, 0.2, 0.2));
  const Mat3 turn = Eigen::AngleAxisd(0.7, Vec3(0, 1, 1).normalized()).toRotationMatrix();
  const Pose b0 = at(-5), b1 = Pose::from_matrix(turn, Vec3(5, 0.3, 0));
  const ScrewResult exact = screw_collisions(plate, Pose(), Pose(), cube, b0, b1);
  const ScrewResult r = screw_collisions(plate, Pose(), Pose(), cube, b0, b1, raster_options());
  ASSERT_TRUE(r.contact);
  EXPECT_NEAR(r.toi, exact.toi, 1e-12);
  EXPECT_LT(r.normal.x(), 0);
  ScrewOptions first = raster_options();
  first.first_contact_only = true;
  const ScrewResult f = screw_collisions(plate, Pose(), Pose(), cube, b0, b1, first);
  ASSERT_TRUE(f.contact);
  EXPECT_EQ(f.toi, r.toi);
  EXPECT_LE(f.collisions.size(), r.collisions.size());
}

// A spin about an axis through the moving body (the screen's seam and the axis cut its faces,
// seed figures 10 and 11): the raster finds what the exact mode finds.
TEST(Raster, SpinAboutAnAxisThroughTheBodyMatchesExact) {
  const Mesh bar = mesh::make_box(Vec3(1.5, 0.2, 0.2));
  const Mesh post = mesh::make_box(Vec3(0.2, 0.2, 1));
  // B, a bar centred on the z axis, turns 60 degrees about z while rising a little; A, a post,
  // stands in the way of one of its ends.
  const Pose a = at(0.2, 1.0, 0);
  const Pose b0 = Pose::from_euler_xyz(0, 0, 0, Vec3(0, 0, 0.1));
  const Pose b1 = Pose::from_euler_xyz(0, 0, std::numbers::pi / 3, Vec3(0, 0, 0.3));
  const ScrewResult exact = screw_collisions(post, a, a, bar, b0, b1);
  const ScrewResult r = screw_collisions(post, a, a, bar, b0, b1, raster_options());
  ASSERT_TRUE(exact.contact);
  ASSERT_TRUE(r.contact);
  EXPECT_NEAR(r.toi, exact.toi, 1e-9);
  EXPECT_EQ(r.status, Status::converged);
}

// A pure rotation (no glide): points on the axis do not move and get no screen time; a bar
// turning about its own centre sweeps into a post.
TEST(Raster, PureRotationMatchesExact) {
  const Mesh bar = mesh::make_box(Vec3(1.5, 0.2, 0.2));
  const Mesh post = mesh::make_box(Vec3(0.2, 0.2, 1));
  const Pose a = at(0.3, 1.2, 0);
  const Pose b1 = Pose::from_euler_xyz(0, 0, 1.2);
  const ScrewResult exact = screw_collisions(post, a, a, bar, Pose(), b1);
  const ScrewResult r = screw_collisions(post, a, a, bar, Pose(), b1, raster_options());
  ASSERT_TRUE(exact.contact);
  ASSERT_TRUE(r.contact);
  EXPECT_NEAR(r.screw.glide, 0, 1e-12);
  EXPECT_NEAR(r.toi, exact.toi, 1e-9);
  EXPECT_EQ(r.status, Status::converged);
}

TEST(Raster, OpenMeshesWork) {
  mesh::MeshOptions open;
  open.allow_open = true;
  const Mesh sheet =
      Mesh::from_faces({Vec3(-1, -1, 0), Vec3(1, -1, 0), Vec3(1, 1, 0), Vec3(-1, 1, 0)}, {{0, 1, 2, 3}}, open);
  const Mesh cube = mesh::make_box(Vec3(0.3, 0.3, 0.3));
  const ScrewResult r = screw_collisions(sheet, Pose(), Pose(), cube, at(0.1, 0, 2), at(0.1, 0, -2), raster_options());
  ASSERT_TRUE(r.contact);
  EXPECT_NEAR(r.toi, (2 - 0.3) / 4, 1e-12);
  EXPECT_LT((r.normal - Vec3::UnitZ()).norm(), 1e-12);
}

// Regression (seeded stress, tet vs L-prism): the first contact is an edge-edge one between two
// edges whose screen projections are nearly parallel, so where the two pieces cross on the screen
// is far from where their screen times match; a time window taken around the crossing missed it.
TEST(Raster, NearlyParallelProjectedEdgesKeepTheirContact) {
  const Mesh tet = mesh::make_tetrahedron();
  const Mesh lprism = mesh::make_l_prism();
  const Pose a0 =
      Pose::from_quaternion(0.75212953299259144, 0.19907713360484733, 0.52890633117951591, 0.33900966551744238);
  const Pose a1 =
      Pose::from_quaternion(0.76370918302134072, 0.19579564632440499, 0.49660287766532502, 0.36303984704685388);
  const Pose b0 =
      Pose::from_quaternion(0.99712975679965721, 0.036522617346491947, -0.046422559474047928, -0.047363408858493432,
                            Vec3(-1.487927309813974, -2.2262465091869768, 0.58185830284324236));
  const Pose b1 =
      Pose::from_quaternion(0.97484859058698292, 0.20257430298041365, 0.09190413251778197, -0.013693342496498439,
                            Vec3(-0.071108866435949547, 1.7113635580292959, -1.4057778052362508));
  const ScrewResult e = screw_collisions(tet, a0, a1, lprism, b0, b1);
  const ScrewResult r = screw_collisions(tet, a0, a1, lprism, b0, b1, raster_options());
  ASSERT_TRUE(e.contact);
  ASSERT_EQ(e.collisions.front().type, CollisionType::ee);
  ASSERT_TRUE(r.contact);
  EXPECT_NEAR(r.toi, e.toi, 1e-9);
}

TEST(Raster, NoMotionOrFarApartGivesNothing) {
  const Mesh a = mesh::make_box(Vec3(1, 1, 1));
  EXPECT_FALSE(screw_collisions(a, Pose(), Pose(), a, at(5), at(5), raster_options()).contact);
  EXPECT_FALSE(screw_collisions(a, Pose(), Pose(), a, at(5), at(5, 4), raster_options()).contact);
  EXPECT_FALSE(screw_collisions(a, Pose(), at(0, 3), a, at(5), at(5, 3), raster_options()).contact);
}

// Overlapping starts, one body inside the other, scales from 1e-3 to 1e5, a step that only
// rotates B in place: finite answers with a status, agreeing with the exact mode on contact.
TEST(Raster, DegenerateSituationsGiveFiniteAnswers) {
  const Mesh cube = mesh::make_box(Vec3(0.5, 0.5, 0.5));
  const Mesh small = mesh::make_box(Vec3(0.1, 0.1, 0.1));
  struct Step {
    const char* name;
    const Mesh& a;
    const Mesh& b;
    Pose b0, b1;
  };
  const Pose turned = Pose::from_euler_xyz(0.3, 0.2, 0.1);
  const std::vector<Step> steps = {
      {"overlapping start", cube, cube, at(0.5), at(-3)},
      {"inside", cube, small, Pose(), Pose::from_euler_xyz(0, 0, 0.4, Vec3(0.1, 0, 0))},
      {"spin in place", cube, cube, at(1.2), Pose::from_euler_xyz(0, 0, 0.7, Vec3(1.2, 0, 0))},
      {"far", cube, cube, at(1e5), at(1e5 - 3, 0.2)},
      {"tiny", small, small, turned * at(0.3), at(-0.3)},
  };
  for (const Step& st : steps) {
    const ScrewResult e = screw_collisions(st.a, Pose(), Pose(), st.b, st.b0, st.b1);
    const ScrewResult r = screw_collisions(st.a, Pose(), Pose(), st.b, st.b0, st.b1, raster_options());
    EXPECT_EQ(r.status, Status::converged) << st.name;
    EXPECT_EQ(r.contact, e.contact) << st.name;
    if (r.contact && e.contact) {
      EXPECT_NEAR(r.toi, e.toi, 1e-9) << st.name;
    }
    for (const Collision& c : r.collisions) {
      EXPECT_TRUE(c.time >= 0 && c.time <= 1) << st.name;
      EXPECT_TRUE(c.point.allFinite() && c.normal.allFinite() && std::isfinite(c.properness)) << st.name;
    }
  }
}

TEST(Raster, CapsGiveAStatusAndBadOptionsAreRefused) {
  const Mesh a = mesh::make_box(Vec3(1, 1, 1));
  const Mesh b = mesh::make_box(Vec3(0.5, 0.5, 0.5));
  ScrewOptions tiny = raster_options();
  tiny.max_pixel_records = 3;
  const ScrewResult r = screw_collisions(a, Pose(), Pose(), b, at(3.5), at(-0.5), tiny);
  EXPECT_EQ(r.status, Status::capacity_exceeded);
  for (const Collision& c : r.collisions) EXPECT_TRUE(std::isfinite(c.time));
  // A fine pixel with no subdivision allowed on a curved screen: drawn straight, flagged.
  ScrewOptions flat = raster_options();
  flat.max_subdivision = 0;
  flat.pixel_size = 1e-4;
  const Pose spin = Pose::from_euler_xyz(0, 0, 0.7, Vec3(-0.5, 0, 0));
  const ScrewResult s = screw_collisions(a, Pose(), Pose(), b, at(3.5), spin, flat);
  EXPECT_EQ(s.status, Status::iteration_limit);
  for (double bad : {0.0, -1.0, std::nan("")}) {
    ScrewOptions o = raster_options();
    o.pixel_size = bad;
    EXPECT_THROW(screw_collisions(a, Pose(), Pose(), b, at(3), at(0), o), InvalidInput);
    o = raster_options();
    o.time_resolution = bad;
    EXPECT_THROW(screw_collisions(a, Pose(), Pose(), b, at(3), at(0), o), InvalidInput);
  }
  ScrewOptions no_records = raster_options();
  no_records.max_pixel_records = 0;
  EXPECT_THROW(screw_collisions(a, Pose(), Pose(), b, at(3), at(0), no_records), InvalidInput);
}

Pose random_rotation_pose(std::mt19937_64& rng, double max_angle, const Vec3& translation) {
  std::uniform_real_distribution<double> u(-1, 1);
  Vec3 axis{u(rng), u(rng), u(rng)};
  while (axis.norm() < 0.1) axis = Vec3{u(rng), u(rng), u(rng)};
  const double angle = max_angle * (u(rng) + 1) / 2;
  return Pose::from_matrix(Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix(), translation);
}

Vec3 random_unit(std::mt19937_64& rng) {
  std::normal_distribution<double> n;
  return Vec3{n(rng), n(rng), n(rng)}.normalized();
}

// first_contact_only stops resolving edge-edge candidates once every remaining time window starts
// after the earliest contact found: it must still return exactly the full run's first collisions
// (all within time_tolerance of the earliest), bit for bit, for passing and spinning motions of
// every benchmark pair, at two resolutions and with and without the properness threshold.
TEST(RasterRandom, FirstContactOnlyEqualsTheFullRunsFirstCollisions) {
  struct Case {
    const char* name;
    Mesh a, b;
    int count;
  };
  std::vector<Case> cases;
  cases.push_back({"cube-cube", mesh::make_box(Vec3(0.5, 0.5, 0.5)), mesh::make_box(Vec3(0.5, 0.5, 0.5)), 60});
  cases.push_back({"car-car", mesh::make_car(), mesh::make_car(), 60});
  cases.push_back({"tet-lprism", mesh::make_tetrahedron(), mesh::make_l_prism(), 60});
  cases.push_back({"lprism-torus", mesh::make_l_prism(), mesh::make_torus(1, 0.3), 30});
  cases.push_back({"torus-torus", mesh::make_torus(1, 0.3), mesh::make_torus(1, 0.3), 30});
  const std::uint64_t seed = 5411;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u01(0, 1);
  for (const Case& pc : cases) {
    int contacts = 0, multiple = 0;
    for (int k = 0; k < pc.count; ++k) {
      const double reach = pc.a.bounding_sphere().radius + pc.b.bounding_sphere().radius;
      const Pose a0 = random_rotation_pose(rng, std::numbers::pi, Vec3::Zero());
      const Pose a_turn = random_rotation_pose(rng, 0.1, Vec3::Zero());
      const Pose a1 = a_turn * a0 * at(0.1 * u01(rng));
      const Vec3 dir = random_unit(rng);
      const Pose turn = random_rotation_pose(rng, std::numbers::pi, Vec3::Zero());
      const double along = u01(rng);
      const Vec3 offset = reach * 0.8 * along * random_unit(rng);
      const Pose b0 = Pose::from_matrix(turn.rotation(), reach * (1.02 + 0.5 * u01(rng)) * dir + offset);
      // Every other motion turns a lot (up to 2.5 rad), the others pass by with a moderate spin.
      const double spin = k % 2 == 0 ? std::numbers::pi / 4 : 2.5;
      const Mat3 r_end = random_rotation_pose(rng, spin, Vec3::Zero()).rotation() * turn.rotation();
      const Pose b1 = Pose::from_matrix(r_end, -reach * (0.2 + 2.5 * u01(rng)) * dir + offset);
      ScrewOptions full = raster_options();
      if (k % 3 == 1) full.pixel_size = kCcdRasterPixelSizeLow;
      if (k % 4 == 3) full.properness_threshold = -1;
      ScrewOptions first = full;
      first.first_contact_only = true;
      const ScrewResult r = screw_collisions(pc.a, a0, a1, pc.b, b0, b1, full);
      const ScrewResult f = screw_collisions(pc.a, a0, a1, pc.b, b0, b1, first);
      const std::string label = std::string(pc.name) + " seed " + std::to_string(seed) + " case " + std::to_string(k);
      ASSERT_EQ(f.contact, r.contact) << label;
      if (!r.contact) {
        EXPECT_TRUE(f.collisions.empty()) << label;
        continue;
      }
      ++contacts;
      std::size_t expected = 0;
      while (expected < r.collisions.size() && r.collisions[expected].time <= r.toi + full.time_tolerance) ++expected;
      multiple += expected > 1 ? 1 : 0;
      ASSERT_EQ(f.collisions.size(), expected) << label;
      for (std::size_t i = 0; i < expected; ++i) {
        const Collision &x = f.collisions[i], &y = r.collisions[i];
        EXPECT_EQ(x.type, y.type) << label;
        EXPECT_EQ(x.vertex, y.vertex) << label;
        EXPECT_EQ(x.face, y.face) << label;
        EXPECT_EQ(x.edge_a, y.edge_a) << label;
        EXPECT_EQ(x.edge_b, y.edge_b) << label;
        EXPECT_EQ(x.time, y.time) << label;
        EXPECT_EQ(x.point, y.point) << label;
        EXPECT_EQ(x.normal, y.normal) << label;
        EXPECT_EQ(x.properness, y.properness) << label;
      }
      EXPECT_EQ(f.toi, r.toi) << label;
      EXPECT_LE(f.candidate_pairs, r.candidate_pairs) << label;
    }
    EXPECT_GE(contacts, pc.count / 4) << pc.name;
    std::printf("[ %s ] %d motions: %d contacts (%d with several first collisions), first == full run's\n", pc.name,
                pc.count, contacts, multiple);
  }
}

#ifdef PROXIMA_HAVE_CGAL

struct PairCase {
  const char* name;
  Mesh a, b;
  int count;
};

// The motions of the exact mode's random test (B passes by or through A, often completely within
// the step, rotating up to 45 degrees relative to A). The raster's first collision must match the
// reference first contact to within time_resolution + pixel / speed (in fact to 1e-9: its times
// are analytic) with zero misses, and must agree with the exact mode.
TEST(RasterRandom, MatchesReferenceAndExactWithZeroMisses) {
  std::vector<PairCase> pairs;
  pairs.push_back({"cube-cube", mesh::make_box(Vec3(0.5, 0.5, 0.5)), mesh::make_box(Vec3(0.5, 0.5, 0.5)), 100});
  pairs.push_back({"car-car", mesh::make_car(), mesh::make_car(), 100});
  pairs.push_back({"lprism-torus", mesh::make_l_prism(), mesh::make_torus(1, 0.3), 40});
  pairs.push_back({"torus-torus", mesh::make_torus(1, 0.3), mesh::make_torus(1, 0.3), 40});
  const std::uint64_t seed = 5404;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u01(0, 1);
  const ScrewOptions raster = raster_options();
  for (const PairCase& pc : pairs) {
    int hits = 0, misses = 0, tunnel = 0, all_exact = 0, all_missed = 0;
    double worst = 0, worst_vs_exact = 0;
    for (int k = 0; k < pc.count; ++k) {
      const double ra = pc.a.bounding_sphere().radius, rb = pc.b.bounding_sphere().radius;
      const double reach = ra + rb;
      const Pose a_start = random_rotation_pose(rng, std::numbers::pi, Vec3::Zero());
      const Pose a_turn = random_rotation_pose(rng, 0.1, Vec3::Zero());
      const Pose a_end = a_turn * a_start * at(0.1 * u01(rng), 0, 0);
      const Vec3 dir = random_unit(rng);
      Vec3 side = random_unit(rng);
      side = (side - side.dot(dir) * dir).normalized();
      const Pose b_rot = random_rotation_pose(rng, std::numbers::pi, Vec3::Zero());
      const Vec3 offset = reach * 1.2 * u01(rng) * side;
      const Vec3 start_c =
          a_start.apply(pc.a.bounding_sphere().center) + reach * (1.02 + 0.5 * u01(rng)) * dir + offset;
      const Vec3 end_c = a_start.apply(pc.a.bounding_sphere().center) - reach * (0.5 + 2.5 * u01(rng)) * dir + offset;
      const Pose b_start = Pose::from_matrix(b_rot.rotation(), start_c - b_rot.rotate(pc.b.bounding_sphere().center));
      const Pose spin = random_rotation_pose(rng, std::numbers::pi / 4 - 0.1, Vec3::Zero());
      const Mat3 r_end = spin.rotation() * b_rot.rotation();
      const Pose b_end = Pose::from_matrix(r_end, end_c - r_end * pc.b.bounding_sphere().center);

      const ScrewResult e = screw_collisions(pc.a, a_start, a_end, pc.b, b_start, b_end);
      const ScrewResult r = screw_collisions(pc.a, a_start, a_end, pc.b, b_start, b_end, raster);
      const std::string label = std::string(pc.name) + " seed " + std::to_string(seed) + " case " + std::to_string(k);
      EXPECT_EQ(r.status, Status::converged) << label;
      const Pose b_in_a = a_start.inverse() * b_start;
      const testing::Reference ref(pc.a, pc.b, b_in_a, r.screw);
      double expected = ref.first_contact(100, 1e-11);
      if (r.contact && (std::isnan(expected) || r.toi < expected - 1e-9)) {
        const double refined = ref.first_contact(50, 1e-11, std::max(0.0, r.toi - 1e-6), std::min(1.0, r.toi + 5e-3));
        if (!std::isnan(refined)) expected = refined;
      }
      // The allowed error: the time resolution plus the time B needs to cross a pixel at its
      // slowest point.
      const double pixel = raster.pixel_size * reach;
      const Vec3 cb = b_in_a.apply(pc.b.bounding_sphere().center);
      const double slowest = r.screw.speed(std::max(0.0, r.screw.axis_distance(cb) - rb));
      const double allowed = raster.time_resolution + pixel / slowest;
      if (std::isnan(expected)) {
        ++misses;
        EXPECT_FALSE(r.contact) << label << " reported toi " << r.toi << " the reference cannot confirm";
      } else {
        ++hits;
        if (!ref.intersect(1)) ++tunnel;
        ASSERT_TRUE(r.contact) << label << ": MISSED a contact at " << expected;
        EXPECT_NEAR(r.toi, expected, allowed) << label;
        worst = std::max(worst, std::abs(r.toi - expected));
        EXPECT_GE(r.collisions.front().properness, -1e-9) << label << ": the first contact is proper";
      }
      ASSERT_EQ(r.contact, e.contact) << label;
      for (const Collision& c : e.collisions) {
        ++all_exact;
        bool found = false;
        for (const Collision& d : r.collisions) {
          found = found || (d.type == c.type && d.vertex == c.vertex && d.face == c.face && d.edge_a == c.edge_a &&
                            d.edge_b == c.edge_b && std::abs(d.time - c.time) < 1e-9);
        }
        all_missed += found ? 0 : 1;
      }
      if (r.contact) {
        EXPECT_NEAR(r.toi, e.toi, allowed) << label;
        worst_vs_exact = std::max(worst_vs_exact, std::abs(r.toi - e.toi));
      }
      for (std::size_t i = 1; i < r.collisions.size(); ++i) EXPECT_GE(r.collisions[i].time, r.collisions[i - 1].time);
    }
    EXPECT_GE(hits, pc.count / 4) << pc.name;
    EXPECT_GE(misses, pc.count / 10) << pc.name;
    std::printf(
        "[ %s ] %d motions: %d hits (%d tunneling through), %d no contact, 0 missed; worst |toi - reference| "
        "%.2g, |toi - exact| %.2g\n",
        pc.name, pc.count, hits, tunnel, misses, worst, worst_vs_exact);
    // See AxisThroughTheBodiesMatchesExact for the later collisions the raster may leave out.
    EXPECT_LE(all_missed, all_exact / 20) << pc.name;
    std::printf("   every collision of the step: %d from the exact mode, %d of them not reported by the raster\n",
                all_exact, all_missed);
  }
}

// Rotation-dominated motions: B turns by up to 160 degrees about an axis that passes near or
// through both bodies, with a small glide, so faces straddle the screen's seam, cross the axis and
// need doppeling (seed sections 8 and figures 10, 11). Starting poses that already overlap are
// skipped. The raster must find every first contact the exact mode finds, at the same time.
TEST(RasterRandom, AxisThroughTheBodiesMatchesExact) {
  struct Case {
    const char* name;
    Mesh a, b;
  };
  std::vector<Case> cases;
  cases.push_back({"cube-cube", mesh::make_box(Vec3(0.5, 0.5, 0.5)), mesh::make_box(Vec3(0.5, 0.5, 0.5))});
  cases.push_back({"car-lprism", mesh::make_car(), mesh::make_l_prism()});
  cases.push_back({"torus-torus", mesh::make_torus(1, 0.3), mesh::make_torus(1, 0.3)});
  const std::uint64_t seed = 5405;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u01(0, 1);
  const ScrewOptions raster = raster_options();
  for (const Case& pc : cases) {
    int hits = 0, runs = 0, through_axis = 0, all_exact = 0, all_missed = 0;
    double worst = 0;
    for (int k = 0; runs < 80 && k < 800; ++k) {
      const double reach = pc.a.bounding_sphere().radius + pc.b.bounding_sphere().radius;
      const double spread = 0.5 + 0.5 * u01(rng);
      const Vec3 start_dir = random_unit(rng);
      const Pose b_start = random_rotation_pose(rng, std::numbers::pi, reach * spread * start_dir);
      Screw motion;
      motion.axis = random_unit(rng);
      // Every other motion turns about an axis through B's bounding sphere.
      const Vec3 near = k % 2 == 0 ? Vec3::Zero() : b_start.apply(pc.b.bounding_sphere().center);
      const double off_axis = u01(rng);
      motion.axis_point = near + reach * (k % 2 == 0 ? 0.6 : 0.2) * off_axis * random_unit(rng);
      motion.angle = 2.8 * u01(rng);
      motion.glide = reach * 0.4 * (u01(rng) - 0.5);
      const Pose b_end = motion.pose(1) * b_start;
      const testing::Reference start_check(pc.a, pc.b, b_start, Screw{});
      if (start_check.intersect(0)) continue;
      ++runs;
      const ScrewResult e = screw_collisions(pc.a, Pose(), Pose(), pc.b, b_start, b_end);
      const ScrewResult r = screw_collisions(pc.a, Pose(), Pose(), pc.b, b_start, b_end, raster);
      const std::string label = std::string(pc.name) + " seed " + std::to_string(seed) + " case " + std::to_string(k);
      EXPECT_EQ(r.status, Status::converged) << label;
      if (r.screw.angle > 0 &&
          r.screw.axis_distance(b_start.apply(pc.b.bounding_sphere().center)) < pc.b.bounding_sphere().radius) {
        ++through_axis;
      }
      ASSERT_EQ(r.contact, e.contact) << label
                                      << (e.contact ? ": MISSED a contact at " + std::to_string(e.toi) : ": extra");
      // Every collision of the step, not only the first: the later ones involve the far sides of
      // the bodies, where the seam and the doppeled parts matter.
      for (const Collision& c : e.collisions) {
        ++all_exact;
        bool found = false;
        for (const Collision& d : r.collisions) {
          found = found || (d.type == c.type && d.vertex == c.vertex && d.face == c.face && d.edge_a == c.edge_a &&
                            d.edge_b == c.edge_b && std::abs(d.time - c.time) < 1e-9);
        }
        all_missed += found ? 0 : 1;
      }
      if (!e.contact) continue;
      ++hits;
      EXPECT_NEAR(r.toi, e.toi, 1e-9) << label;
      worst = std::max(worst, std::abs(r.toi - e.toi));
    }
    EXPECT_EQ(runs, 80) << pc.name;
    EXPECT_GE(hits, 10) << pc.name;
    EXPECT_GE(through_axis, 20) << pc.name;
    std::printf(
        "[ %s ] %d rotation-dominated motions: %d hits, 0 missed, %d with the axis through B; worst |toi - "
        "exact| %.2g\n",
        pc.name, runs, hits, through_axis, worst);
    // The later collisions the raster may leave out are those of a reflex vertex (the L-prism's
    // inner corner) whose faces all face away from the motion: seed 4.2 culls them because such a
    // vertex cannot touch first (the body's material ahead of it gets there before), although
    // the edge-only properness formula of section 5 can rate them proper.
    EXPECT_LE(all_missed, all_exact / 20) << pc.name;
    std::printf("   every collision of the step: %d from the exact mode, %d of them not reported by the raster\n",
                all_exact, all_missed);
  }
}

// Pure translations (theta = 0: the screen is the plane orthogonal to the motion, no seam, no
// doppeling): B keeps its orientation and crosses A's sphere along a random line.
TEST(RasterRandom, TranslationsMatchExact) {
  struct Case {
    const char* name;
    Mesh a, b;
  };
  std::vector<Case> cases;
  cases.push_back({"cube-car", mesh::make_box(Vec3(0.5, 0.5, 0.5)), mesh::make_car()});
  cases.push_back({"torus-lprism", mesh::make_torus(1, 0.3), mesh::make_l_prism()});
  const std::uint64_t seed = 5406;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u01(0, 1);
  for (const Case& pc : cases) {
    int hits = 0;
    for (int k = 0; k < 60; ++k) {
      const double reach = pc.a.bounding_sphere().radius + pc.b.bounding_sphere().radius;
      const Vec3 dir = random_unit(rng);
      Vec3 side = random_unit(rng);
      side = (side - side.dot(dir) * dir).normalized();
      const Mat3 turn = random_rotation_pose(rng, std::numbers::pi, Vec3::Zero()).rotation();
      const Vec3 offset = reach * u01(rng) * side;
      const Pose b_start = Pose::from_matrix(turn, reach * (1.05 + u01(rng)) * dir + offset);
      const Pose b_end = Pose::from_matrix(turn, -reach * (0.3 + 2 * u01(rng)) * dir + offset);
      const ScrewResult e = screw_collisions(pc.a, Pose(), Pose(), pc.b, b_start, b_end);
      const ScrewResult r = screw_collisions(pc.a, Pose(), Pose(), pc.b, b_start, b_end, raster_options());
      const std::string label = std::string(pc.name) + " seed " + std::to_string(seed) + " case " + std::to_string(k);
      EXPECT_TRUE(r.screw.is_translation()) << label;
      EXPECT_EQ(r.status, Status::converged) << label;
      ASSERT_EQ(r.contact, e.contact) << label;
      if (!e.contact) continue;
      ++hits;
      EXPECT_NEAR(r.toi, e.toi, 1e-9) << label;
    }
    EXPECT_GE(hits, 15) << pc.name;
    std::printf("[ %s ] 60 translations: %d hits, 0 missed\n", pc.name, hits);
  }
}

// Large relative rotations (up to 143 degrees) while B passes by or through A: the case that once
// missed a proper edge-edge first contact (tet vs L-prism: two nearly parallel projected edges
// whose crossing on the screen is far from where their screen times match). Starts that overlap
// are skipped.
TEST(RasterRandom, LargeRotationsMatchExact) {
  struct Case {
    const char* name;
    Mesh a, b;
  };
  std::vector<Case> cases;
  cases.push_back({"tet-lprism", mesh::make_tetrahedron(), mesh::make_l_prism()});
  cases.push_back({"car-torus", mesh::make_car(), mesh::make_torus(1, 0.3)});
  const std::uint64_t seed = 5407;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u01(0, 1);
  for (const Case& pc : cases) {
    int hits = 0, runs = 0;
    for (int k = 0; runs < 100 && k < 400; ++k) {
      const double reach = pc.a.bounding_sphere().radius + pc.b.bounding_sphere().radius;
      const Pose a0 = random_rotation_pose(rng, std::numbers::pi, Vec3::Zero());
      const Pose a1 = random_rotation_pose(rng, 0.1, Vec3::Zero()) * a0;
      const Vec3 dir = random_unit(rng);
      const Pose turn = random_rotation_pose(rng, std::numbers::pi, Vec3::Zero());
      const double along = u01(rng);
      const Vec3 offset = reach * 1.2 * along * random_unit(rng);
      const Pose b0 = Pose::from_matrix(turn.rotation(), reach * (1.02 + 0.5 * u01(rng)) * dir + offset);
      const Mat3 r_end = random_rotation_pose(rng, 2.5, Vec3::Zero()).rotation() * turn.rotation();
      const Pose b1 = Pose::from_matrix(r_end, -reach * (0.2 + 2.5 * u01(rng)) * dir + offset);
      const ScrewResult e = screw_collisions(pc.a, a0, a1, pc.b, b0, b1);
      const testing::Reference start(pc.a, pc.b, a0.inverse() * b0, e.screw);
      if (start.intersect(0)) continue;
      ++runs;
      const ScrewResult r = screw_collisions(pc.a, a0, a1, pc.b, b0, b1, raster_options());
      const std::string label = std::string(pc.name) + " seed " + std::to_string(seed) + " case " + std::to_string(k);
      EXPECT_EQ(r.status, Status::converged) << label;
      ASSERT_EQ(r.contact, e.contact) << label << (e.contact ? ": MISSED a contact at " + std::to_string(e.toi) : "");
      if (!e.contact) continue;
      ++hits;
      EXPECT_NEAR(r.toi, e.toi, 1e-9) << label;
    }
    EXPECT_EQ(runs, 100) << pc.name;
    EXPECT_GE(hits, 25) << pc.name;
    std::printf("[ %s ] %d motions with large rotations: %d hits, 0 missed\n", pc.name, runs, hits);
  }
}

#endif

}  // namespace
}  // namespace proxima::ccd
