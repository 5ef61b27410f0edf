// SPDX-License-Identifier: MIT
// The drawing error that the raster's candidate pad relies on (src/ccd/raster_screen.hpp,
// kDrawErrorPerPixel and kCandidatePadPerPixel): every point of a drawn part boundary, projected
// exactly, lies within the drawing error of the screen pieces drawn for that part, for a body
// drawn forward-facing (B) and backward-facing with doppeling (A) under rotating screws. The scans
// pair a vertex (projected exactly) with a boundary within the pad, and two boundaries within the
// pad of each other, so a pad below twice this error could drop a real crossing.
#include <proxima/ccd/collision_screen.hpp>
#include <proxima/ccd/screw.hpp>
#include <proxima/mesh/generators.hpp>

#include "ccd/raster_screen.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace proxima::ccd {
namespace {

using mesh::Mesh;

static_assert(detail::kCandidatePadPerPixel >= 2 * detail::kDrawErrorPerPixel,
              "the pad must cover both bodies' drawing errors");

double point_segment_distance(double r, double h, const detail::ScreenSegment& s) {
  const double dr = s.r1 - s.r0, dh = s.h1 - s.h0;
  const double length_sq = dr * dr + dh * dh;
  const double u = length_sq > 0 ? std::clamp(((r - s.r0) * dr + (h - s.h0) * dh) / length_sq, 0.0, 1.0) : 0.0;
  return std::hypot(r - (s.r0 + u * dr), h - (s.h0 + u * dh));
}

// The largest distance from a sampled point of a part boundary (projected exactly) to the pieces
// drawn for that part, over every part of the body, in pixels.
double worst_boundary_error(const Mesh& m, const Screw& screw, const Vec3& facing, bool backward) {
  const CollisionScreen screen = make_collision_screen(screw, facing);
  std::vector<Vec3> points, normals;
  for (const Vec3& p : m.vertices()) points.push_back(screen.to_canonical * (p - screen.origin));
  for (int f = 0; f < m.num_faces(); ++f) normals.push_back(screen.to_canonical * m.face_normal(f));
  detail::RasterSettings settings;
  settings.pixel = 1.0 / 32 * 2 * m.bounding_sphere().radius;  // the medium preset for two such bodies
  settings.time_resolution = 1.0 / 64;
  settings.max_records = 1 << 22;
  settings.max_subdivision = 24;
  settings.backward = backward;
  settings.doppel = backward;
  const detail::BodyRaster raster = detail::draw_body(m, points, normals, screen, settings);
  EXPECT_FALSE(raster.out_of_records);
  EXPECT_FALSE(raster.subdivision_capped);
  EXPECT_FALSE(raster.parts.empty());
  std::vector<std::vector<int>> segments_of(raster.parts.size());
  for (std::size_t i = 0; i < raster.segments.size(); ++i) {
    segments_of[static_cast<std::size_t>(raster.segments[i].part)].push_back(static_cast<int>(i));
  }
  constexpr int kSamples = 40;
  double worst = 0;
  for (std::size_t p = 0; p < raster.parts.size(); ++p) {
    const detail::FacePart& part = raster.parts[p];
    for (int i = 0; i < part.count; ++i) {
      const Vec3& x0 = raster.corners[static_cast<std::size_t>(part.first + i)].x;
      const Vec3& x1 = raster.corners[static_cast<std::size_t>(part.first + (i + 1) % part.count)].x;
      for (int k = 0; k <= kSamples; ++k) {
        const Vec3 x = x0 + (x1 - x0) * (static_cast<double>(k) / kSamples);
        const ScreenPoint q = screen.project_canonical(x, detail::branch_phi(x, part.branch));
        double nearest = std::numeric_limits<double>::infinity();
        for (int s : segments_of[p]) {
          nearest = std::min(nearest, point_segment_distance(q.r, q.h, raster.segments[static_cast<std::size_t>(s)]));
        }
        worst = std::max(worst, nearest / settings.pixel);
      }
    }
  }
  return worst;
}

TEST(RasterDrawError, BoundariesStayWithinTheDrawingErrorOfTheirPieces) {
  const Mesh torus = mesh::make_torus(1, 0.3, 20, 15);
  const Mesh box = mesh::make_box(Vec3(0.5, 0.3, 0.2));
  // Screws about axes near and through the bodies, with and without glide: the projection curves
  // most near the axis.
  const std::vector<Screw> screws = [] {
    std::vector<Screw> out;
    for (const double angle : {0.3, 1.2, 2.5}) {
      for (const double glide : {0.0, 0.4}) {
        Screw s;
        s.axis = Vec3(0.3, 1, -0.2).normalized();
        s.axis_point = Vec3(0.4, 0, 0.6);
        s.angle = angle;
        s.glide = glide;
        out.push_back(s);
      }
    }
    return out;
  }();
  // The subdivision tests the chord at each piece's midpoint only, so a boundary may stray a little
  // further between samples; allow a tenth of the error for that (the pad is twice the error).
  const double allowed = 1.1 * detail::kDrawErrorPerPixel;
  for (const Screw& screw : screws) {
    for (const Mesh* m : {&torus, &box}) {
      for (const bool backward : {false, true}) {
        EXPECT_LE(worst_boundary_error(*m, screw, Vec3(0.8, 0.1, 0.9), backward), allowed)
            << "angle " << screw.angle << " glide " << screw.glide << (backward ? " backward" : " forward");
      }
    }
  }
}

}  // namespace
}  // namespace proxima::ccd
