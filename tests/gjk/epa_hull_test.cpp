// SPDX-License-Identifier: MIT
// BasicEpaHull::expand against an independent model of what an expansion must do, checked after
// every step of seeded random growths: the model takes the hull's live faces before the step,
// finds the faces visible from the new vertex by its own flood fill (a face is visible when its
// plane has the vertex strictly in front, or when it is a sliver), and from them the horizon, the
// expected outcome (bad_horizon unless the horizon is one simple loop of at least 3 edges;
// face_capacity when the free and fresh slots cannot hold the cone) and the expected faces (the
// old ones minus the visible ones plus one triangle (from, to, v) per horizon edge). After the
// step the hull must hold exactly those faces (as vertex triples), every edge linked to the face
// across it both ways, normals and plane distances recomputed from the vertices, and
// closest_face() the first nearest live, valid face by a plain scan; an expansion that does not
// end `done` must leave every face as it was. Growths are made the way EPA grows the hull and
// with points that break the rules (inside, on a face's plane, repeated vertices, far away), so
// all three outcomes occur; the seed, run and step are in every failure message.
#include <proxima/gjk/epa_hull.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace proxima::gjk {
namespace {

using Triple = std::array<int, 3>;

/// The triple rotated so that its smallest index comes first (orientation kept).
Triple canonical(const Triple& t) {
  const int k = static_cast<int>(std::min_element(t.begin(), t.end()) - t.begin());
  return {t[static_cast<std::size_t>(k)], t[static_cast<std::size_t>((k + 1) % 3)], t[static_cast<std::size_t>((k + 2) % 3)]};
}

/// A live face as the model sees it.
struct ModelFace {
  Triple vertex;
  std::array<int, 3> adjacent;
  bool valid;
  Vec3 normal;
  double distance;
};

template <class Hull>
std::map<int, ModelFace> live_faces(const Hull& hull) {
  std::map<int, ModelFace> out;
  for (int f = 0; f < hull.num_face_slots(); ++f) {
    const EpaFace& x = hull.face(f);
    if (x.alive) out[f] = {x.vertex, x.adjacent, x.valid, x.normal, x.distance};
  }
  return out;
}

/// The model's expectation for expand(face, v) on a hull whose live faces are `before`.
struct Expected {
  typename BasicEpaHull<4, 4>::Expansion outcome;
  std::multiset<Triple> faces;  // canonical triples after a `done`
};

template <class Hull>
Expected model_expand(const Hull& hull, const std::map<int, ModelFace>& before, int face, int v) {
  using Expansion = typename BasicEpaHull<4, 4>::Expansion;
  const Vec3& w = hull.vertex(v).w;
  const auto visible = [&](const ModelFace& f) { return !f.valid || f.normal.dot(w) > f.distance; };
  std::set<int> seen{face};
  std::vector<int> stack{face};
  std::vector<std::pair<int, int>> horizon;  // (from, to), the visible face's edge
  while (!stack.empty()) {
    const int f = stack.back();
    stack.pop_back();
    const ModelFace& ff = before.at(f);
    for (int e = 0; e < 3; ++e) {
      const int g = ff.adjacent[static_cast<std::size_t>(e)];
      if (seen.count(g) != 0) continue;
      if (visible(before.at(g))) {
        seen.insert(g);
        stack.push_back(g);
      } else {
        horizon.emplace_back(ff.vertex[static_cast<std::size_t>(e)], ff.vertex[static_cast<std::size_t>((e + 1) % 3)]);
      }
    }
  }
  std::map<int, int> starts, ends;
  for (const auto& [from, to] : horizon) ++starts[from], ++ends[to];
  bool simple = horizon.size() >= 3 && horizon.size() < static_cast<std::size_t>(Hull::kMaxFaces) &&
                starts.size() == horizon.size() && ends.size() == horizon.size();
  for (const auto& [x, n] : starts) simple = simple && ends.count(x) == 1;
  Expected out{Expansion::done, {}};
  if (!simple) {
    out.outcome = Expansion::bad_horizon;
    return out;
  }
  const int free_slots = hull.num_face_slots() - hull.num_live_faces();
  if (free_slots + (Hull::kMaxFaces - hull.num_face_slots()) + static_cast<int>(seen.size()) <
      static_cast<int>(horizon.size())) {
    out.outcome = Expansion::face_capacity;
    return out;
  }
  for (const auto& [f, mf] : before) {
    if (seen.count(f) == 0) out.faces.insert(canonical(mf.vertex));
  }
  for (const auto& [from, to] : horizon) out.faces.insert(canonical({from, to, v}));
  return out;
}

template <class Hull>
void expect_consistent(const Hull& hull, double min_area, const std::string& label) {
  const auto faces = live_faces(hull);
  ASSERT_EQ(static_cast<int>(faces.size()), hull.num_live_faces()) << label;
  for (const auto& [f, x] : faces) {
    for (int e = 0; e < 3; ++e) {
      const int a = x.vertex[static_cast<std::size_t>(e)];
      const int b = x.vertex[static_cast<std::size_t>((e + 1) % 3)];
      const auto g = faces.find(x.adjacent[static_cast<std::size_t>(e)]);
      ASSERT_NE(g, faces.end()) << label << " face " << f << " edge " << e << ": neighbour not live";
      int back = -1;
      for (int k = 0; k < 3; ++k) {
        if (g->second.vertex[static_cast<std::size_t>(k)] == b && g->second.vertex[static_cast<std::size_t>((k + 1) % 3)] == a) back = k;
      }
      ASSERT_GE(back, 0) << label << " face " << f << " edge " << e << ": neighbour lacks the reversed edge";
      ASSERT_EQ(g->second.adjacent[static_cast<std::size_t>(back)], f) << label << " face " << f << " edge " << e;
    }
    const Vec3& pa = hull.vertex(x.vertex[0]).w;
    const Vec3 n = (hull.vertex(x.vertex[1]).w - pa).cross(hull.vertex(x.vertex[2]).w - pa);
    const bool valid = n.norm() > min_area && std::isfinite(n.norm());
    ASSERT_EQ(x.valid, valid) << label << " face " << f;
    if (valid) {
      const double scale = pa.norm() + 1;
      ASSERT_LT((x.normal - n.normalized()).norm(), 1e-12) << label << " face " << f;
      ASSERT_NEAR(x.distance, n.normalized().dot(pa), 1e-12 * scale) << label << " face " << f;
    }
  }
  int nearest = -1;
  for (const auto& [f, x] : faces) {
    if (x.valid && (nearest < 0 || x.distance < faces.at(nearest).distance)) nearest = f;
  }
  ASSERT_EQ(hull.closest_face(), nearest) << label;
}

template <class Hull>
void grow_and_check(std::uint64_t seed, int runs, int& expansions, int& bad_horizons, int& capacity) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(-1, 1);
  const auto point = [](const Vec3& w) { return SupportPoint{w, 2 * w, w}; };
  // One workspace, reused across runs as EPA reuses its workspace across queries.
  auto hull = std::make_unique<Hull>();
  for (int run = 0; run < runs; ++run) {
    std::array<SupportPoint, 4> tet;
    for (auto& p : tet) p = point(Vec3{unit(rng), unit(rng), unit(rng)});
    const double min_area = run % 5 == 4 ? 0.05 : 1e-12;  // some runs with slivers
    hull->reset_tetrahedron(tet, min_area);
    const std::string head = "seed " + std::to_string(seed) + " run " + std::to_string(run);
    expect_consistent(*hull, min_area, head + " start");
    if (::testing::Test::HasFatalFailure()) return;
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
        const double lift = 0.05 + 0.5 * std::abs(unit(rng));
        w = c + lift * chosen.normal + 0.1 * Vec3{unit(rng), unit(rng), unit(rng)};
      } else if (kind == 6) {
        w = 3 * Vec3{unit(rng), unit(rng), unit(rng)};
      } else if (kind == 7) {
        w = hull->vertex(static_cast<int>(rng() % static_cast<unsigned>(hull->num_vertices()))).w;
      } else if (kind == 8) {
        w = c;  // on the nearest face's plane (up to rounding)
      } else {
        face = static_cast<int>(rng() % static_cast<unsigned>(hull->num_face_slots()));
        if (!hull->face(face).alive) continue;
        w = 20 * Vec3{unit(rng), unit(rng), unit(rng)};
      }
      const int v = hull->add_vertex(point(w));
      if (v < 0) break;
      const auto before = live_faces(*hull);
      const Expected expected = model_expand(*hull, before, face, v);
      const auto e = hull->expand(face, v);
      ASSERT_EQ(static_cast<int>(e), static_cast<int>(expected.outcome)) << label;
      ++expansions;
      if (e == Hull::Expansion::done) {
        std::multiset<Triple> got;
        for (const auto& [f, x] : live_faces(*hull)) got.insert(canonical(x.vertex));
        ASSERT_EQ(got, expected.faces) << label;
      } else {
        // Nothing changes unless the expansion is done (the flood fill's stamps aside).
        const auto after = live_faces(*hull);
        ASSERT_EQ(after.size(), before.size()) << label;
        for (const auto& [f, x] : before) {
          ASSERT_EQ(after.count(f), 1u) << label;
          ASSERT_EQ(after.at(f).vertex, x.vertex) << label;
          ASSERT_EQ(after.at(f).adjacent, x.adjacent) << label;
        }
        if (e == Hull::Expansion::bad_horizon) ++bad_horizons;
        if (e == Hull::Expansion::face_capacity) ++capacity;
      }
      expect_consistent(*hull, min_area, label);
      if (::testing::Test::HasFatalFailure()) return;
      if (e == Hull::Expansion::face_capacity) break;
    }
  }
}

TEST(EpaHullExpand, EveryExpansionMatchesAnIndependentModel) {
  int expansions = 0;
  int bad_horizons = 0;
  int capacity = 0;
  grow_and_check<BasicEpaHull<260, 512>>(20261126, 120, expansions, bad_horizons, capacity);
  grow_and_check<BasicEpaHull<40, 48>>(17, 300, expansions, bad_horizons, capacity);  // runs out of faces
  EXPECT_GT(expansions, 8000);
  EXPECT_GT(bad_horizons, 50);
  EXPECT_GT(capacity, 10);
}

// The small hull (64-bit masks for the flood fill and the horizon test, session 29) against the
// same model: at full size (34 vertices, 64 faces: it runs out of vertices, add_vertex -1) and at
// a size that runs out of faces first.
TEST(EpaHullExpand, SmallHullMatchesTheIndependentModel) {
  int expansions = 0;
  int bad_horizons = 0;
  int capacity = 0;
  grow_and_check<SmallEpaHull>(20261130, 400, expansions, bad_horizons, capacity);
  grow_and_check<BasicSmallEpaHull<40, 48>>(29, 300, expansions, bad_horizons, capacity);
  EXPECT_GT(expansions, 8000);
  EXPECT_GT(bad_horizons, 50);
  EXPECT_GT(capacity, 10);
}

// Bit for bit: the small hull takes the same steps as BasicEpaHull (the same faces in the same
// slots, the same normals and distances, the same nearest face) on seeded random growths, until
// it runs out of room; overflowed() is set exactly when it does.
TEST(EpaHullExpand, SmallHullIsTheFullHullBitForBit) {
  const std::uint64_t seed = 20261130;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(-1, 1);
  const auto point = [](const Vec3& w) { return SupportPoint{w, 2 * w, w}; };
  auto big = std::make_unique<EpaHull>();
  auto small = std::make_unique<SmallEpaHull>();
  int steps = 0;
  int overflows = 0;
  for (int run = 0; run < 300; ++run) {
    std::array<SupportPoint, 4> tet;
    for (auto& p : tet) p = point(Vec3{unit(rng), unit(rng), unit(rng)});
    const double min_area = run % 5 == 4 ? 0.05 : 1e-12;
    big->reset_tetrahedron(tet, min_area);
    small->reset_tetrahedron(tet, min_area);
    for (int step = 0; step < 60; ++step) {
      const std::string label = "seed " + std::to_string(seed) + " run " + std::to_string(run) + " step " +
                                std::to_string(step);
      const int face = big->closest_face();
      ASSERT_EQ(small->closest_face(), face) << label;
      ASSERT_EQ(small->num_face_slots(), big->num_face_slots()) << label;
      for (int f = 0; f < big->num_face_slots(); ++f) {
        const EpaFace& x = big->face(f);
        const EpaFace& y = small->face(f);
        ASSERT_EQ(y.alive, x.alive) << label << " slot " << f;
        if (!x.alive) continue;
        ASSERT_EQ(y.vertex, x.vertex) << label << " slot " << f;
        ASSERT_EQ(y.adjacent, x.adjacent) << label << " slot " << f;
        ASSERT_EQ(y.valid, x.valid) << label << " slot " << f;
        ASSERT_EQ(std::memcmp(&y.distance, &x.distance, sizeof(double)), 0) << label << " slot " << f;
        if (x.valid) {
          ASSERT_EQ(std::memcmp(y.normal.data(), x.normal.data(), 3 * sizeof(double)), 0) << label << " slot " << f;
        }
      }
      if (face < 0) break;
      const EpaFace& chosen = big->face(face);
      Vec3 c = Vec3::Zero();
      for (int v : chosen.vertex) c += big->vertex(v).w / 3;
      Vec3 w;
      if (rng() % 8 == 0) {
        w = 3 * Vec3{unit(rng), unit(rng), unit(rng)};
      } else {
        const double lift = 0.05 + 0.5 * std::abs(unit(rng));
        w = c + lift * chosen.normal + 0.1 * Vec3{unit(rng), unit(rng), unit(rng)};
      }
      const int v = big->add_vertex(point(w));
      const int u = small->add_vertex(point(w));
      if (u < 0) {
        ASSERT_TRUE(small->overflowed()) << label;
        ++overflows;
        break;
      }
      ASSERT_EQ(u, v) << label;
      const auto e = big->expand(face, v);
      const auto es = small->expand(face, u);
      if (es == SmallEpaHull::Expansion::face_capacity) {
        ASSERT_TRUE(small->overflowed()) << label;
        ++overflows;
        break;
      }
      ASSERT_FALSE(small->overflowed()) << label;
      ASSERT_EQ(static_cast<int>(es), static_cast<int>(e)) << label;
      ++steps;
      if (e != EpaHull::Expansion::done) break;
    }
  }
  EXPECT_GT(steps, 3000);
  EXPECT_GT(overflows, 10);
}

}  // namespace
}  // namespace proxima::gjk

// The AVX2 cone planes (detail::cone_planes_avx2, the small hull's expansion) against
// set_face_plane, face by face, bit for bit: normal, distance, valid and key, for 1-9 faces an
// expansion (full groups of four and every partial last group), on triangles that make slivers
// (repeated and collinear corners), overflow the norm (1e200), carry NaN or infinite coordinates,
// and ordinary ones at many scales. Slots the edges do not name must stay untouched.
TEST(EpaHullExpand, ConePlanesAvx2AreSetFacePlaneBitForBit) {
  if (!proxima::detail::kPolytopeHaveAvx2) GTEST_SKIP() << "no AVX2: the kernel is never called";
  using proxima::Vec3;
  using proxima::gjk::EpaFace;
  using proxima::gjk::SupportPoint;
  namespace gd = proxima::gjk::detail;
  const std::uint64_t seed = 20261130;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::uniform_int_distribution<int> kind(0, 9);
  std::uniform_int_distribution<int> exponent(-30, 30);
  constexpr int kVerts = 12;
  constexpr int kSlots = 16;
  const auto draw = [&](Vec3 prev) {
    const int k = kind(rng);
    if (k == 0) return prev;  // a repeated corner: a sliver
    if (k == 1) return Vec3(prev * 2.0);  // collinear with the origin and prev
    const double s = k == 2 ? 1e200 : std::ldexp(1.0, exponent(rng));
    const double x = unit(rng);
    const double y = unit(rng);
    const double z = unit(rng);
    Vec3 p(x * s, y * s, z * s);
    if (k == 3) p.y() = std::numeric_limits<double>::quiet_NaN();
    if (k == 4) p.z() = std::numeric_limits<double>::infinity();
    return p;
  };
  for (int trial = 0; trial < 3000; ++trial) {
    std::array<SupportPoint, kVerts> verts{};
    Vec3 prev = Vec3::UnitX();
    for (auto& sp : verts) {
      sp.w = draw(prev);
      prev = sp.w;
    }
    const int count = 1 + trial % 9;
    const int v = trial % kVerts;
    const double min_area = trial % 3 == 0 ? 0.0 : std::ldexp(1.0, exponent(rng));
    std::array<gd::ConeEdge, kSlots> edges{};
    std::array<int, kSlots> slots{};
    for (int i = 0; i < kSlots; ++i) slots[static_cast<std::size_t>(i)] = i;
    std::shuffle(slots.begin(), slots.end(), rng);
    std::uniform_int_distribution<int> vertex(0, kVerts - 1);
    for (int h = 0; h < count; ++h) {
      gd::ConeEdge& e = edges[static_cast<std::size_t>(h)];
      e.from = vertex(rng);
      e.to = vertex(rng);
      e.created = slots[static_cast<std::size_t>(h)];
    }
    std::array<EpaFace, kSlots> got{};
    std::array<double, kSlots> got_keys{};
    for (int f = 0; f < kSlots; ++f) {
      got[static_cast<std::size_t>(f)].distance = -7.0;  // a marker for untouched slots
      got_keys[static_cast<std::size_t>(f)] = -7.0;
    }
    gd::cone_planes_avx2(verts.data(), edges.data(), count, v, min_area, got.data(), got_keys.data());
    std::array<bool, kSlots> named{};
    for (int h = 0; h < count; ++h) {
      const gd::ConeEdge& e = edges[static_cast<std::size_t>(h)];
      named[static_cast<std::size_t>(e.created)] = true;
      EpaFace want{};
      gd::set_face_plane(want, verts[static_cast<std::size_t>(e.from)].w, verts[static_cast<std::size_t>(e.to)].w,
                             verts[static_cast<std::size_t>(v)].w, min_area);
      const EpaFace& x = got[static_cast<std::size_t>(e.created)];
      const std::string label = "seed " + std::to_string(seed) + " trial " + std::to_string(trial) + " edge " +
                                std::to_string(h) + " of " + std::to_string(count);
      ASSERT_EQ(x.valid, want.valid) << label;
      ASSERT_EQ(std::memcmp(&x.distance, &want.distance, sizeof(double)), 0) << label << " " << x.distance << " vs "
                                                                             << want.distance;
      ASSERT_EQ(std::memcmp(&got_keys[static_cast<std::size_t>(e.created)], &want.distance, sizeof(double)), 0) << label;
      if (want.valid) {
        ASSERT_EQ(std::memcmp(x.normal.data(), want.normal.data(), 3 * sizeof(double)), 0) << label;
      } else {
        ASSERT_TRUE(std::isnan(x.normal.x()) && std::isnan(x.normal.y()) && std::isnan(x.normal.z())) << label;
      }
    }
    for (int f = 0; f < kSlots; ++f) {
      if (named[static_cast<std::size_t>(f)]) continue;
      ASSERT_EQ(got[static_cast<std::size_t>(f)].distance, -7.0) << "seed " << seed << " trial " << trial << " slot " << f;
      ASSERT_EQ(got_keys[static_cast<std::size_t>(f)], -7.0) << "seed " << seed << " trial " << trial << " slot " << f;
    }
  }
}
