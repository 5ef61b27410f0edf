// SPDX-License-Identifier: MIT
// BasicEpaHull::expand (session 16: horizon marks offset per expansion instead of cleared, the
// loop test folded into one pass, the cone built and linked in one pass) against the hull as it
// was (tests/gjk/epa_hull_reference.hpp): the same operations on both, then every field of every
// face slot compared bit for bit, with the expansion's outcome, the counts and closest_face().
// Seeded random hulls grown the way EPA grows them and with points that break the rules (inside
// the hull, on a face's plane, repeated vertices, far away), so the bad_horizon and face_capacity
// outcomes are compared too; the seed, run and step are in every failure message.
#include "epa_hull_reference.hpp"

#include <proxima/gjk/epa_hull.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>

namespace proxima::gjk {
namespace {

bool same_bits(double x, double y) { return std::memcmp(&x, &y, sizeof(double)) == 0; }
bool same_bits(const Vec3& x, const Vec3& y) { return std::memcmp(x.data(), y.data(), sizeof(double) * 3) == 0; }

template <class Hull, class Reference>
void expect_same_hull(const Hull& hull, const Reference& reference, const std::string& label) {
  ASSERT_EQ(hull.num_vertices(), reference.num_vertices()) << label;
  ASSERT_EQ(hull.num_face_slots(), reference.num_face_slots()) << label;
  ASSERT_EQ(hull.num_live_faces(), reference.num_live_faces()) << label;
  for (int f = 0; f < hull.num_face_slots(); ++f) {
    const EpaFace& x = hull.face(f);
    const EpaFace& y = reference.face(f);
    ASSERT_EQ(x.alive, y.alive) << label << " face " << f;
    if (!x.alive) continue;  // a released slot's other fields are not read again
    ASSERT_EQ(x.vertex, y.vertex) << label << " face " << f;
    ASSERT_EQ(x.adjacent, y.adjacent) << label << " face " << f;
    ASSERT_EQ(x.valid, y.valid) << label << " face " << f;
    ASSERT_EQ(x.stamp, y.stamp) << label << " face " << f;
    ASSERT_TRUE(same_bits(x.distance, y.distance)) << label << " face " << f;
    if (x.valid) {
      ASSERT_TRUE(same_bits(x.normal, y.normal)) << label << " face " << f;
    }
  }
  ASSERT_EQ(hull.closest_face(), reference.closest_face()) << label;
}

template <int V, int F>
void grow_and_compare(std::uint64_t seed, int runs, int& expansions, int& bad_horizons, int& capacity) {
  using Hull = BasicEpaHull<V, F>;
  using Reference = test_reference::ReferenceEpaHull<V, F>;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(-1, 1);
  const auto point = [](const Vec3& w) { return SupportPoint{w, 2 * w, w}; };
  // One workspace each, reused across runs as EPA reuses its workspace across queries.
  auto hull = std::make_unique<Hull>();
  auto reference = std::make_unique<Reference>();
  for (int run = 0; run < runs; ++run) {
    std::array<SupportPoint, 4> tet;
    for (auto& p : tet) p = point(Vec3(unit(rng), unit(rng), unit(rng)));
    const double min_area = run % 5 == 4 ? 0.05 : 1e-12;  // some runs with slivers
    hull->reset_tetrahedron(tet, min_area);
    reference->reset_tetrahedron(tet, min_area);
    const std::string head = "seed " + std::to_string(seed) + " run " + std::to_string(run);
    expect_same_hull(*hull, *reference, head + " start");
    for (int step = 0; step < 300; ++step) {
      const std::string label = head + " step " + std::to_string(step);
      int face = hull->closest_face();
      if (face < 0) break;
      // Mostly EPA's own moves: a point beyond the nearest face. Sometimes a point that breaks
      // the rules: anywhere (inside, far), an existing vertex, on a face's plane, or from any face.
      const int kind = static_cast<int>(rng() % 10);
      const EpaFace& chosen = hull->face(face);
      Vec3 c = Vec3::Zero();
      for (int v : chosen.vertex) c += hull->vertex(v).w / 3;
      Vec3 w;
      if (kind < 6) {
        w = c + (0.05 + 0.5 * std::abs(unit(rng))) * chosen.normal + 0.1 * Vec3(unit(rng), unit(rng), unit(rng));
      } else if (kind == 6) {
        w = 3 * Vec3(unit(rng), unit(rng), unit(rng));
      } else if (kind == 7) {
        w = hull->vertex(static_cast<int>(rng() % static_cast<unsigned>(hull->num_vertices()))).w;
      } else if (kind == 8) {
        w = c;  // on the nearest face's plane (up to rounding)
      } else {
        face = static_cast<int>(rng() % static_cast<unsigned>(hull->num_face_slots()));
        if (!hull->face(face).alive) continue;
        w = 20 * Vec3(unit(rng), unit(rng), unit(rng));
      }
      const int v = hull->add_vertex(point(w));
      const int vr = reference->add_vertex(point(w));
      ASSERT_EQ(v, vr) << label;
      if (v < 0) break;
      const auto e = hull->expand(face, v);
      const auto er = reference->expand(face, v);
      ASSERT_EQ(static_cast<int>(e), static_cast<int>(er)) << label;
      ++expansions;
      if (e == Hull::Expansion::bad_horizon) ++bad_horizons;
      if (e == Hull::Expansion::face_capacity) ++capacity;
      expect_same_hull(*hull, *reference, label);
      if (::testing::Test::HasFatalFailure()) return;
      if (e == Hull::Expansion::face_capacity) break;
    }
  }
}

TEST(EpaHullExpand, SameHullAsTheReferenceAfterEveryExpansion) {
  int expansions = 0;
  int bad_horizons = 0;
  int capacity = 0;
  grow_and_compare<260, 512>(20261126, 300, expansions, bad_horizons, capacity);
  grow_and_compare<40, 48>(17, 300, expansions, bad_horizons, capacity);  // runs out of faces
  EXPECT_GT(expansions, 20000);
  EXPECT_GT(bad_horizons, 100);
  EXPECT_GT(capacity, 10);
}

}  // namespace
}  // namespace proxima::gjk
