// SPDX-License-Identifier: MIT
// Both screw_collisions modes keep their working vectors in a per-thread workspace across queries
// (src/ccd/glide_raster.cpp, src/ccd/screw_collisions.cpp): a query must not depend on what the
// thread ran before. Each query here is answered on a fresh thread (empty workspace) and again
// after queries on meshes of other sizes, at other resolutions and in the other mode, and after
// release_thread_storage(): the same collisions, bit for bit.
#include <proxima/ccd/screw_collisions.hpp>
#include <proxima/core/tolerance.hpp>
#include <proxima/mesh/generators.hpp>

#include "ccd/exact_runs.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace proxima::ccd {
namespace {

using mesh::Mesh;

struct Query {
  const Mesh* a;
  const Mesh* b;
  Pose a_start, a_end, b_start, b_end;
  ScrewOptions options;
};

void expect_same(const ScrewResult& x, const ScrewResult& y, const std::string& what) {
  ASSERT_EQ(x.collisions.size(), y.collisions.size()) << what;
  EXPECT_EQ(x.status, y.status) << what;
  EXPECT_EQ(x.candidate_pairs, y.candidate_pairs) << what;
  EXPECT_EQ(x.iterations, y.iterations) << what;
  for (std::size_t i = 0; i < x.collisions.size(); ++i) {
    const Collision& p = x.collisions[i];
    const Collision& q = y.collisions[i];
    EXPECT_TRUE(p.type == q.type && p.vertex == q.vertex && p.face == q.face && p.edge_a == q.edge_a &&
                p.edge_b == q.edge_b && p.time == q.time && p.point == q.point && p.normal == q.normal &&
                p.properness == q.properness)
        << what << ", collision " << i;
  }
}

TEST(CcdWorkspace, AQueryDoesNotDependOnTheQueriesBeforeIt) {
  const Mesh torus = mesh::make_torus(1, 0.3);
  const Mesh cube = mesh::make_box(Vec3(0.5, 0.5, 0.5));
  const Mesh prism = mesh::make_l_prism();
  auto turn = [](double angle, const Vec3& axis, const Vec3& t) {
    return Pose::from_matrix(Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix(), t);
  };
  std::vector<Query> queries;
  for (int mode = 0; mode < 2; ++mode) {
    ScrewOptions o;
    o.method = mode == 0 ? ScrewMethod::raster : ScrewMethod::exact;
    ScrewOptions fine = o;
    fine.pixel_size = kCcdRasterPixelSizeHigh;
    fine.time_resolution = kCcdRasterTimeResolutionHigh;
    // B passes through A while turning (tori: many records and candidates), a small pair, a
    // mixed pair, then the tori again at another resolution.
    queries.push_back({&torus, &torus, Pose(), turn(0.05, Vec3(0, 0, 1), Vec3(0.1, 0, 0)),
                       turn(0.3, Vec3(1, 0, 0), Vec3(2.9, 0.2, 0.1)), turn(0.9, Vec3(1, 1, 0), Vec3(-2.8, 0.1, 0)), o});
    queries.push_back({&cube, &cube, Pose(), Pose(), turn(0.2, Vec3(0, 1, 1), Vec3(2.5, 0.1, -0.2)),
                       turn(0.7, Vec3(0, 1, 0), Vec3(-0.4, 0.1, -0.2)), o});
    queries.push_back({&prism, &torus, Pose(), Pose(), turn(0.1, Vec3(1, 0, 1), Vec3(0.3, 3.0, 0)),
                       turn(0.6, Vec3(0, 0, 1), Vec3(0.2, -2.5, 0.1)), fine});
    queries.push_back({&torus, &torus, Pose(), Pose(), turn(0.2, Vec3(0, 1, 0), Vec3(0.2, 2.7, 0.1)),
                       turn(0.5, Vec3(1, 0, 0), Vec3(0.1, -2.6, 0)), fine});
  }
  auto answer = [](const Query& q) {
    return screw_collisions(*q.a, q.a_start, q.a_end, *q.b, q.b_start, q.b_end, q.options);
  };
  // Each on a thread of its own first: nothing ran there before.
  std::vector<ScrewResult> fresh(queries.size());
  for (std::size_t i = 0; i < queries.size(); ++i) {
    std::thread([&, i] { fresh[i] = answer(queries[i]); }).join();
  }
  std::size_t with_contact = 0;
  for (const ScrewResult& r : fresh) with_contact += r.contact ? 1 : 0;
  EXPECT_EQ(with_contact, queries.size()) << "every motion collides (2 to 10 collisions each)";
  // Then all on one thread, twice over, in order and in reverse.
  for (int pass = 0; pass < 2; ++pass) {
    for (std::size_t k = 0; k < queries.size(); ++k) {
      const std::size_t i = pass == 0 ? k : queries.size() - 1 - k;
      expect_same(fresh[i], answer(queries[i]), "query " + std::to_string(i) + ", pass " + std::to_string(pass));
    }
  }
  // And after release_thread_storage() between queries (the storage freed, then grown again).
  for (std::size_t i = 0; i < queries.size(); ++i) {
    release_thread_storage();
    expect_same(fresh[i], answer(queries[i]), "query " + std::to_string(i) + " after a release");
  }
}


// The exact mode keeps A's body, vertex grid and edge lines from the previous query when A's mesh
// holds the same geometry bit for bit (src/ccd/screw_collisions.cpp, MeshSnapshot): a mesh
// replaced in place (same address, same counts, other numbers) must not be taken for the old one,
// and an equal copy elsewhere must give the same answer.
TEST(CcdWorkspace, AMeshReplacedInPlaceIsNotTakenForThePreviousOne) {
  auto turn = [](double angle, const Vec3& axis, const Vec3& t) {
    return Pose::from_matrix(Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix(), t);
  };
  const Mesh b = mesh::make_torus(1, 0.3);
  const Pose a_end = turn(0.05, Vec3(0, 0, 1), Vec3(0.1, 0, 0));
  const Pose b_start = turn(0.3, Vec3(1, 0, 0), Vec3(2.9, 0.2, 0.1));
  const Pose b_end = turn(0.9, Vec3(1, 1, 0), Vec3(-2.8, 0.1, 0));
  ScrewOptions o;
  o.method = ScrewMethod::exact;
  const std::vector<Mesh> shapes = {mesh::make_torus(1, 0.3), mesh::make_torus(1, 0.34), mesh::make_torus(1.05, 0.3),
                                    mesh::make_torus(1, 0.3, 20, 14)};
  std::vector<ScrewResult> fresh(shapes.size());
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    std::thread([&, i] { fresh[i] = screw_collisions(shapes[i], Pose(), a_end, b, b_start, b_end, o); }).join();
  }
  for (std::size_t i = 1; i < shapes.size(); ++i) {
    const bool same_as_first =
        fresh[0].collisions.size() == fresh[i].collisions.size() && fresh[0].iterations == fresh[i].iterations;
    EXPECT_FALSE(same_as_first) << "shape " << i << " should answer otherwise than shape 0";
    EXPECT_TRUE(fresh[i].contact) << "shape " << i;
  }
  Mesh a = shapes[0];
  for (int pass = 0; pass < 2; ++pass) {
    for (std::size_t k = 0; k < shapes.size(); ++k) {
      const std::size_t i = pass == 0 ? k : (shapes.size() - k) % shapes.size();
      a = shapes[i];  // the same object, now another mesh (or the same one again)
      expect_same(fresh[i], screw_collisions(a, Pose(), a_end, b, b_start, b_end, o),
                  "shape " + std::to_string(i) + " in place, pass " + std::to_string(pass));
      const Mesh copy = shapes[i];  // an equal mesh at another address
      expect_same(fresh[i], screw_collisions(copy, Pose(), a_end, b, b_start, b_end, o),
                  "shape " + std::to_string(i) + " copied, pass " + std::to_string(pass));
    }
  }
}

// The raster keeps A's geometry and A's unit edge directions (its properness bound's TurnBasis)
// across queries on a mesh with the same Mesh::content_id() (src/ccd/glide_raster.cpp): a query on
// A after queries on other A's, on the same A against other B's, or after a query on another A
// that ended before resolving anything, answers as on a fresh thread, bit for bit.
TEST(CcdWorkspace, TheRasterKeepsADirectionsOnlyForTheSameMesh) {
  auto turn = [](double angle, const Vec3& axis, const Vec3& t) {
    return Pose::from_matrix(Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix(), t);
  };
  const std::vector<Mesh> shapes = {mesh::make_torus(1, 0.3), mesh::make_torus(1, 0.34), mesh::make_torus(1.05, 0.3),
                                    mesh::make_torus(1, 0.3, 20, 14)};
  const std::vector<Mesh> others = {mesh::make_torus(1, 0.3), mesh::make_box(Vec3(0.5, 0.4, 0.3))};
  const Pose a_end = turn(0.05, Vec3(0, 0, 1), Vec3(0.1, 0, 0));
  const std::vector<std::pair<Pose, Pose>> b_motions = {
      {turn(0.3, Vec3(1, 0, 0), Vec3(2.9, 0.2, 0.1)), turn(0.9, Vec3(1, 1, 0), Vec3(-2.8, 0.1, 0))},
      {turn(0.2, Vec3(0, 1, 0), Vec3(0.2, 2.7, 0.1)), turn(0.5, Vec3(1, 0, 0), Vec3(0.1, -2.6, 0))}};
  // B far from A all step: answered before any resolution.
  const std::pair<Pose, Pose> apart = {turn(0.1, Vec3(0, 0, 1), Vec3(40, 0, 0)), turn(0.2, Vec3(0, 0, 1), Vec3(40, 1, 0))};
  ScrewOptions o;
  o.method = ScrewMethod::raster;
  auto answer = [&](const Mesh& a, std::size_t j, std::size_t m) {
    return screw_collisions(a, Pose(), a_end, others[j], b_motions[m].first, b_motions[m].second, o);
  };
  // fresh[i][j][m]: shape i against others[j] on motion m, each on a thread of its own.
  std::vector<std::vector<std::vector<ScrewResult>>> fresh(shapes.size());
  std::size_t with_contact = 0;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    fresh[i].resize(others.size());
    for (std::size_t j = 0; j < others.size(); ++j) {
      fresh[i][j].resize(b_motions.size());
      for (std::size_t m = 0; m < b_motions.size(); ++m) {
        std::thread([&, i, j, m] { fresh[i][j][m] = answer(shapes[i], j, m); }).join();
        with_contact += fresh[i][j][m].contact ? 1 : 0;
      }
    }
  }
  EXPECT_GE(with_contact, shapes.size() * b_motions.size()) << "most motions collide";
  Mesh a = shapes[0];
  for (int pass = 0; pass < 2; ++pass) {
    for (std::size_t k = 0; k < shapes.size(); ++k) {
      const std::size_t i = pass == 0 ? k : (shapes.size() - k) % shapes.size();
      a = shapes[i];  // the same object, now another mesh (or the same one again)
      for (std::size_t j = 0; j < others.size(); ++j) {
        for (std::size_t m = 0; m < b_motions.size(); ++m) {
          const std::string what = "shape " + std::to_string(i) + " against " + std::to_string(j) + " motion " +
                                   std::to_string(m) + ", pass " + std::to_string(pass);
          expect_same(fresh[i][j][m], answer(a, j, m), what);
          // Another A that stops early, then this A again.
          const ScrewResult early = screw_collisions(shapes[(i + 1) % shapes.size()], Pose(), a_end, others[j],
                                                     apart.first, apart.second, o);
          EXPECT_FALSE(early.contact) << what;
          expect_same(fresh[i][j][m], answer(a, j, m), what + " after an early stop");
        }
      }
    }
  }
}

// The exact mode recognises the previous query's meshes by Mesh::content_id() before comparing
// their bytes (MeshSnapshot). Meshes that change between queries in every way a Mesh can (replaced
// in place by copy and by move, a scaled copy, which must not keep its source's id, a mesh moved
// into the place of another), A and B both, first contact and all collisions: the same answers,
// bit for bit, as on a fresh thread and as with the bytes compared alone
// (detail::set_snapshot_ids_for_tests(false)).
TEST(CcdWorkspace, MeshesRecognisedByTheirIdAnswerAsByTheirBytes) {
  auto turn = [](double angle, const Vec3& axis, const Vec3& t) {
    return Pose::from_matrix(Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix(), t);
  };
  const Mesh torus = mesh::make_torus(1, 0.3);
  const Mesh scaled = torus.scaled_by_power_of_two(-1);  // the same faces, other numbers
  const Mesh wide = mesh::make_torus(1, 0.34);
  const Pose a_end = turn(0.05, Vec3(0, 0, 1), Vec3(0.1, 0, 0));
  const Pose b_start = turn(0.3, Vec3(1, 0, 0), Vec3(2.9, 0.2, 0.1));
  const Pose b_end = turn(0.9, Vec3(1, 1, 0), Vec3(-2.8, 0.1, 0));
  // Which mesh each query's A and B are (0 torus, 1 scaled, 2 wide), and how they got into the
  // two mesh objects the queries use.
  enum class How { copy, move, same };
  struct Step {
    int a, b;
    How how;
    bool first;
  };
  const std::vector<Step> steps = {
      {0, 0, How::copy, true},  {1, 0, How::copy, true},  {0, 1, How::move, true}, {0, 1, How::same, false},
      {2, 2, How::move, false}, {2, 0, How::copy, true},  {1, 1, How::copy, true}, {1, 1, How::same, true},
      {0, 0, How::move, false}, {1, 2, How::copy, false}, {0, 0, How::copy, true}, {2, 1, How::move, true}};
  const std::vector<const Mesh*> shapes = {&torus, &scaled, &wide};
  auto options = [](bool first) {
    ScrewOptions o;
    o.method = ScrewMethod::exact;
    o.first_contact_only = first;
    return o;
  };
  std::vector<ScrewResult> fresh(steps.size());
  for (std::size_t i = 0; i < steps.size(); ++i) {
    std::thread([&, i] {
      fresh[i] = screw_collisions(*shapes[steps[i].a], Pose(), a_end, *shapes[steps[i].b], b_start, b_end,
                                  options(steps[i].first));
    }).join();
  }
  std::size_t with_contact = 0;
  for (const ScrewResult& r : fresh) with_contact += r.contact ? 1 : 0;
  EXPECT_GE(with_contact, steps.size() - 2) << "the motion collides for most meshes";
  EXPECT_FALSE(fresh[0].collisions.size() == fresh[1].collisions.size() && fresh[0].toi == fresh[1].toi)
      << "the scaled torus should answer otherwise than the torus";
  for (const bool ids : {true, false}) {
    detail::set_snapshot_ids_for_tests(ids);
    Mesh a = torus, b = torus;
    for (std::size_t i = 0; i < steps.size(); ++i) {
      const Step& st = steps[i];
      if (st.how == How::copy) {
        a = *shapes[st.a];
        b = *shapes[st.b];
      } else if (st.how == How::move) {
        Mesh next_a = *shapes[st.a], next_b = *shapes[st.b];
        a = std::move(next_a);
        b = std::move(next_b);
      }
      expect_same(fresh[i], screw_collisions(a, Pose(), a_end, b, b_start, b_end, options(st.first)),
                  "step " + std::to_string(i) + (ids ? ", ids" : ", bytes"));
    }
  }
  detail::set_snapshot_ids_for_tests(true);
}

}  // namespace
}  // namespace proxima::ccd
