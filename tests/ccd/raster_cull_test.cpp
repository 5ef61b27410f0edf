// SPDX-License-Identifier: MIT
// The raster's culls before resolving candidates (src/ccd/glide_raster.cpp: properness bounds over
// a time span, segment-distance probes of edge-edge root brackets): the closed-form turned dot
// product against sampling, the culled run against the run that resolves every candidate (the
// same collisions, bit for bit, at several properness thresholds and resolutions), and the culled
// run against the exact mode on convex pairs (the same collisions); and the exact mode's
// vertex-face skips (src/ccd/screw_collisions.cpp) against its run with nothing to skip.
#include <proxima/ccd/screw_collisions.hpp>
#include <proxima/core/tolerance.hpp>
#include <proxima/mesh/generators.hpp>
#include <proxima/shapes/polytope.hpp>

#include "ccd/glide_raster.hpp"
#include "ccd/properness.hpp"
#include "ccd/raster_screen.hpp"

#include "support/ccd_motions.hpp"
#include "support/env_int.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <numbers>
#include <random>
#include <string>

namespace proxima::ccd {
namespace {

using mesh::Mesh;

using test::Motion;
using test::random_motion;
using test::random_turn;
using test::random_unit;

// max over phi in [0, theta] of (R(phi) a) . b in closed form: never below a sampled turn (it is an
// upper bound, which the culls need) and at most a sampling gap above the sampled maximum (it is
// the maximum, so the culls lose nothing). R turns like Screw::rotate.
TEST(RasterCull, MaxTurnedDotIsTheMaximumOverTheTurn) {
  const std::uint64_t seed = 9001;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u01(0, 1);
  constexpr int kSamples = 2000;
  int interior = 0;
  for (int k = 0; k < 500; ++k) {
    Screw screw;
    screw.axis = random_unit(rng);
    screw.angle = k % 10 == 0 ? 0.0 : (std::numbers::pi - 1e-3) * u01(rng);
    const Vec3 a = random_unit(rng), b = random_unit(rng);
    const double bound = detail::max_turned_dot(screw.axis, screw.angle, std::cos(screw.angle), std::sin(screw.angle), a, b);
    double sampled = -2;
    int best = 0;
    for (int i = 0; i <= kSamples; ++i) {
      const double value = screw.rotate(a, static_cast<double>(i) / kSamples).dot(b);
      if (value > sampled) {
        sampled = value;
        best = i;
      }
    }
    interior += best > 0 && best < kSamples ? 1 : 0;
    const std::string label = "seed " + std::to_string(seed) + " case " + std::to_string(k);
    EXPECT_GE(bound, sampled - 1e-12) << label;
    // The turned dot product moves at most theta per unit of s.
    EXPECT_LE(bound, sampled + screw.angle / kSamples + 1e-12) << label;
  }
  EXPECT_GE(interior, 50);  // the maximum inside the turn (not at an end) is exercised
}

// The radial interval of a face holds the screen radius of every point of the face (sampled as
// random convex combinations of its vertices, placed at random in the canonical frame).
TEST(RasterCull, FaceRadialRangesHoldEverySampledPoint) {
  const std::uint64_t seed = 31337;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u01(0, 1);
  const Mesh meshes[] = {mesh::make_torus(1, 0.3), mesh::make_car(), mesh::make_l_prism()};
  int tight = 0, samples = 0;
  for (int k = 0; k < 60; ++k) {
    const Mesh& m = meshes[k % 3];
    const bool translation = k % 4 == 0;
    // Near the axis every few placements (the lower bound is then 0 or close to it).
    const double along = u01(rng);
    const Vec3 place_dir = random_unit(rng);
    const Pose place = random_turn(rng, std::numbers::pi, (k % 5 == 0 ? 0.3 : 3.0) * along * place_dir);
    std::vector<Vec3> canonical;
    for (const Vec3& v : m.vertices()) canonical.push_back(place.apply(v));
    const auto ranges = detail::face_radial_ranges(m, canonical, translation);
    for (int f = 0; f < m.num_faces(); ++f) {
      const auto ids = m.face(f);
      double r_min = std::numeric_limits<double>::infinity();
      for (int i = 0; i < 20; ++i) {
        Vec3 x = Vec3::Zero();
        double total = 0;
        for (int id : ids) {
          const double w = u01(rng);
          x += w * canonical[id];
          total += w;
        }
        x /= total;
        const double r = translation ? x.x() : std::hypot(x.x(), x.z());
        r_min = std::min(r_min, r);
        ++samples;
        const std::string label = "seed " + std::to_string(seed) + " case " + std::to_string(k) + " face " +
                                  std::to_string(f);
        ASSERT_GE(r, ranges[static_cast<std::size_t>(f)].lo - 1e-12) << label;
        ASSERT_LE(r, ranges[static_cast<std::size_t>(f)].hi + 1e-12) << label;
      }
      tight += r_min - ranges[static_cast<std::size_t>(f)].lo < 0.5 ? 1 : 0;
    }
  }
  EXPECT_GT(tight, samples / 40);  // the intervals are not vacuous
}

struct PairCase {
  const char* name;
  Mesh a, b;
  int count;
};

Mesh hull_mesh(const Mesh& m) {
  const Polytope hull(m.vertices());
  std::vector<std::vector<int>> faces;
  for (const auto& f : hull.faces()) faces.push_back({f[0], f[1], f[2]});
  return Mesh::from_faces(hull.vertices(), faces);
}

bool same_collision(const Collision& x, const Collision& y, double time_tolerance) {
  return x.type == y.type && x.vertex == y.vertex && x.face == y.face && x.edge_a == y.edge_a && x.edge_b == y.edge_b &&
         std::abs(x.time - y.time) <= time_tolerance;
}

// Every skip before the resolution must be conservative: the culled run reports exactly the
// collisions of the run that resolves every candidate (all fields, bit for bit), at the default
// properness threshold, with none (-1: only the distance probes cull), and stricter ones, at two
// resolutions, with first_contact_only too. The culls must also fire (fewer evaluations).
TEST(RasterCull, CulledRunReportsTheCollisionsOfTheFullResolution) {
  std::vector<PairCase> pairs;
  pairs.push_back({"cube-cube", mesh::make_box(Vec3(0.5, 0.5, 0.5)), mesh::make_box(Vec3(0.5, 0.5, 0.5)), 40});
  pairs.push_back({"car-car", mesh::make_car(), mesh::make_car(), 40});
  pairs.push_back({"tet-lprism", mesh::make_tetrahedron(), mesh::make_l_prism(), 40});
  pairs.push_back({"lprism-torus", mesh::make_l_prism(), mesh::make_torus(1, 0.3), 24});
  pairs.push_back({"torus-torus", mesh::make_torus(1, 0.3), mesh::make_torus(1, 0.3), 24});
  const std::uint64_t seed = 7321;
  std::mt19937_64 rng(seed);
  const double thresholds[] = {kCcdPropernessThreshold, -1, 0, 0.3};
  for (const PairCase& pc : pairs) {
    int contacts = 0, collisions = 0;
    long culled_work = 0, full_work = 0;
    for (int k = 0; k < pc.count; ++k) {
      const Motion m = random_motion(rng, pc.a, pc.b, k);
      ScrewOptions o;
      o.method = ScrewMethod::raster;
      o.properness_threshold = thresholds[k % 4];
      if (k % 5 == 1) o.pixel_size = kCcdRasterPixelSizeLow;
      o.first_contact_only = k % 7 == 3;
      const ScrewResult culled = detail::raster_screw_collisions(pc.a, m.a0, m.a1, pc.b, m.b0, m.b1, o, true);
      const ScrewResult full = detail::raster_screw_collisions(pc.a, m.a0, m.a1, pc.b, m.b0, m.b1, o, false);
      const std::string label = std::string(pc.name) + " seed " + std::to_string(seed) + " case " + std::to_string(k);
      ASSERT_EQ(culled.collisions.size(), full.collisions.size()) << label;
      for (std::size_t i = 0; i < full.collisions.size(); ++i) {
        const Collision &x = culled.collisions[i], &y = full.collisions[i];
        EXPECT_TRUE(same_collision(x, y, 0)) << label << " collision " << i;
        EXPECT_EQ(x.point, y.point) << label;
        EXPECT_EQ(x.normal, y.normal) << label;
        EXPECT_EQ(x.properness, y.properness) << label;
      }
      EXPECT_EQ(culled.contact, full.contact) << label;
      if (full.contact) {
        EXPECT_EQ(culled.toi, full.toi) << label;
      }
      contacts += full.contact ? 1 : 0;
      collisions += static_cast<int>(full.collisions.size());
      culled_work += culled.iterations;
      full_work += full.iterations;
    }
    EXPECT_GE(contacts, pc.count / 3) << pc.name;
    EXPECT_LT(culled_work, full_work) << pc.name;
    std::printf("[ %s ] %d motions, %d with contact, %d collisions; iterations %ld culled vs %ld resolving everything\n", pc.name,
                pc.count, contacts, collisions, culled_work, full_work);
  }
}

// An independent check: on convex pairs the raster (culls on) finds every collision of the exact
// mode, and nothing else, at the default properness threshold. (Not at -1: the exact mode then also
// reports the bodies' separations, which the raster's facing test leaves out by design.)
TEST(RasterCull, ConvexPairsMatchTheExactModeCollisionForCollision) {
  std::vector<PairCase> pairs;
  pairs.push_back({"cube-cube", mesh::make_box(Vec3(0.5, 0.5, 0.5)), mesh::make_box(Vec3(0.5, 0.5, 0.5)), 60});
  pairs.push_back({"carhull-carhull", hull_mesh(mesh::make_car()), hull_mesh(mesh::make_car()), 40});
  const std::uint64_t seed = 4242;
  std::mt19937_64 rng(seed);
  for (const PairCase& pc : pairs) {
    int compared = 0;
    for (int k = 0; k < pc.count; ++k) {
      const Motion m = random_motion(rng, pc.a, pc.b, k);
      if (k % 3 == 2) continue;  // the exact mode's motions turn at most 45 degrees
      ScrewOptions o;
      const ScrewResult exact = screw_collisions(pc.a, m.a0, m.a1, pc.b, m.b0, m.b1, o);
      o.method = ScrewMethod::raster;
      const ScrewResult raster = screw_collisions(pc.a, m.a0, m.a1, pc.b, m.b0, m.b1, o);
      const std::string label = std::string(pc.name) + " seed " + std::to_string(seed) + " case " + std::to_string(k);
      EXPECT_EQ(raster.collisions.size(), exact.collisions.size()) << label;
      for (const Collision& x : exact.collisions) {
        bool found = false;
        for (const Collision& y : raster.collisions) found = found || same_collision(x, y, 1e-9);
        EXPECT_TRUE(found) << label << ": exact collision at " << x.time << " missing";
      }
      compared += static_cast<int>(exact.collisions.size());
    }
    EXPECT_GE(compared, pc.count / 2) << pc.name;
    std::printf("[ %s ] %d exact-mode collisions, all found by the raster\n", pc.name, compared);
  }
}

// The exact mode skips vertex-face and face-vertex pairs whose properness stays below the
// threshold all step (detail::improper_all_step). Checked against the same mode with threshold -1,
// where nothing can be skipped (every properness is >= -1): its collisions of properness >= T
// must be exactly the collisions reported at threshold T (all fields, bit for bit).
TEST(ExactCull, ThresholdedRunIsTheUnthresholdedRunFiltered) {
  // PROXIMA_CCD_CULL_SWEEP=N: N times as many motions (a longer sweep than CI's).
  const int times = proxima::test::env_int("PROXIMA_CCD_CULL_SWEEP", 1, 100000, 1);
  std::vector<PairCase> pairs;
  pairs.push_back({"cube-cube", mesh::make_box(Vec3(0.5, 0.5, 0.5)), mesh::make_box(Vec3(0.5, 0.5, 0.5)), 30 * times});
  pairs.push_back({"car-car", mesh::make_car(), mesh::make_car(), 30 * times});
  pairs.push_back({"tet-lprism", mesh::make_tetrahedron(), mesh::make_l_prism(), 30 * times});
  pairs.push_back({"lprism-torus", mesh::make_l_prism(), mesh::make_torus(1, 0.3), 12 * times});
  pairs.push_back({"torus-torus", mesh::make_torus(1, 0.3), mesh::make_torus(1, 0.3), 6 * times});
  const std::uint64_t seed = 5151;
  std::mt19937_64 rng(seed);
  const double thresholds[] = {kCcdPropernessThreshold, 0, 0.3, -0.5};
  for (const PairCase& pc : pairs) {
    int kept = 0, dropped = 0;
    long culled_work = 0, full_work = 0;
    for (int k = 0; k < pc.count; ++k) {
      const Motion m = random_motion(rng, pc.a, pc.b, k);
      if (k % 3 == 2) continue;  // at most 45 degrees, as in the test above
      ScrewOptions o;
      o.properness_threshold = -1;
      const ScrewResult all = screw_collisions(pc.a, m.a0, m.a1, pc.b, m.b0, m.b1, o);
      o.properness_threshold = thresholds[k % 4];
      const ScrewResult culled = screw_collisions(pc.a, m.a0, m.a1, pc.b, m.b0, m.b1, o);
      const std::string label = std::string(pc.name) + " seed " + std::to_string(seed) + " case " + std::to_string(k);
      ASSERT_EQ(all.status, Status::converged) << label;
      ASSERT_EQ(culled.status, Status::converged) << label;
      std::vector<Collision> expected;
      for (const Collision& c : all.collisions) {
        if (c.properness >= o.properness_threshold) expected.push_back(c);
      }
      kept += static_cast<int>(expected.size());
      dropped += static_cast<int>(all.collisions.size() - expected.size());
      ASSERT_EQ(culled.collisions.size(), expected.size()) << label;
      for (std::size_t i = 0; i < expected.size(); ++i) {
        const Collision &x = culled.collisions[i], &y = expected[i];
        EXPECT_TRUE(same_collision(x, y, 0)) << label << " collision " << i;
        EXPECT_EQ(x.point, y.point) << label;
        EXPECT_EQ(x.normal, y.normal) << label;
        EXPECT_EQ(x.properness, y.properness) << label;
      }
      culled_work += culled.iterations;
      full_work += all.iterations;
    }
    EXPECT_GT(kept, 0) << pc.name;
    EXPECT_GT(dropped, 0) << pc.name;  // the threshold (and so the cull) has work to do
    EXPECT_LT(culled_work, full_work) << pc.name;
    std::printf("[ %s ] exact mode: %d collisions kept, %d below the threshold; iterations %ld vs %ld at -1\n",
                pc.name, kept, dropped, culled_work, full_work);
  }
}

}  // namespace
}  // namespace proxima::ccd
