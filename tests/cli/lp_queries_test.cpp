// SPDX-License-Identifier: MIT
// The LP query kinds through the command: answers decided by hand (membership in the standard
// tetrahedron x, y, z >= 0, x + y + z <= 1, and in segments), certificates re-checked here on the
// input points.
#include "command_support.hpp"

#include <Eigen/Core>

#include <vector>

namespace proxima::test {
namespace {

Eigen::VectorXd vec(const nlohmann::json& j) {
  Eigen::VectorXd v(static_cast<Eigen::Index>(j.size()));
  for (std::size_t i = 0; i < j.size(); ++i) v[static_cast<Eigen::Index>(i)] = j[i].get<double>();
  return v;
}

Eigen::MatrixXd columns(const std::vector<std::vector<double>>& points) {
  Eigen::MatrixXd m(static_cast<Eigen::Index>(points.front().size()), static_cast<Eigen::Index>(points.size()));
  for (std::size_t c = 0; c < points.size(); ++c) {
    for (std::size_t r = 0; r < points[c].size(); ++r) m(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) = points[c][r];
  }
  return m;
}

// Checks a common-point certificate: convex weights reproducing the same point from both sets.
void expect_common_point(const nlohmann::json& line, const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  ASSERT_TRUE(line["weights_a"].is_array()) << line;
  const Eigen::VectorXd wa = vec(line["weights_a"]);
  const Eigen::VectorXd wb = vec(line["weights_b"]);
  EXPECT_GE(wa.minCoeff(), -1e-12);
  EXPECT_GE(wb.minCoeff(), -1e-12);
  EXPECT_NEAR(wa.sum(), 1.0, 1e-12);
  EXPECT_NEAR(wb.sum(), 1.0, 1e-12);
  EXPECT_LT((a * wa - b * wb).lpNorm<Eigen::Infinity>(), 1e-9) << line;
}

// Checks a separating-hyperplane certificate: n.a <= offset <= n.b for every input point.
void expect_separation(const nlohmann::json& line, const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  ASSERT_TRUE(line["separating_normal"].is_array()) << line;
  const Eigen::VectorXd n = vec(line["separating_normal"]);
  const double offset = line["separating_offset"].get<double>();
  EXPECT_NEAR(n.norm(), 1.0, 1e-12);
  EXPECT_LE((n.transpose() * a).maxCoeff(), offset + 1e-12) << line;
  EXPECT_GE((n.transpose() * b).minCoeff(), offset - 1e-12) << line;
}

TEST(CommandLp, IntersectAndContainsWithCertificates) {
  const CommandResult r = run_proxima("run '" + scene_path("lp.json") + "'");
  EXPECT_EQ(r.exit_code, 1);  // two deliberately bad queries
  ASSERT_EQ(r.lines.size(), 8u) << r.out;
  const Eigen::MatrixXd tetra = columns({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}});

  // (0.5, 0, 0, 0) lies on segment A and is an end of segment B.
  const auto& meet = r.lines[0];
  EXPECT_EQ(meet["status"], "ok") << meet;
  EXPECT_TRUE(meet["intersect"].get<bool>());
  expect_common_point(meet, columns({{0, 0, 0, 0}, {1, 0, 0, 0}}), columns({{0.5, 0, 0, 0}, {2, 2, 2, 2}}));
  // Segment A has y = 0, segment B has y >= 1.
  const auto& apart = r.lines[1];
  EXPECT_FALSE(apart["intersect"].get<bool>()) << apart;
  expect_separation(apart, columns({{0, 0}, {1, 0}}), columns({{0, 1}, {1, 2}}));
  // Tetra shifted by (0.5, 0.5, 0.5) has x + y + z >= 1.5 > 1: apart. Shifted by 0.2: the corner
  // (0.2, 0.2, 0.2) has sum 0.6 <= 1: overlap.
  Eigen::MatrixXd shifted = tetra.colwise() + Eigen::Vector3d(0.5, 0.5, 0.5);
  EXPECT_FALSE(r.lines[2]["intersect"].get<bool>()) << r.lines[2];
  expect_separation(r.lines[2], tetra, shifted);
  shifted = tetra.colwise() + Eigen::Vector3d(0.2, 0.2, 0.2);
  EXPECT_TRUE(r.lines[3]["intersect"].get<bool>()) << r.lines[3];
  expect_common_point(r.lines[3], tetra, shifted);
  // Points and shapes together are refused.
  EXPECT_EQ(r.lines[4]["status"], "error");
  EXPECT_NE(r.lines[4]["message"].get<std::string>().find("either points_a + points_b or shapes"), std::string::npos);
  // (0.2, 0.2, 0.2) is inside; (0.5, 0.5, 0.5) (sum 1.5) is not: the second point, index 1.
  EXPECT_TRUE(r.lines[5]["contains"].get<bool>()) << r.lines[5];
  const auto& outside = r.lines[6];
  EXPECT_FALSE(outside["contains"].get<bool>()) << outside;
  EXPECT_EQ(outside["outside_vertex"], 1);
  const Eigen::VectorXd n = vec(outside["separating_normal"]);
  EXPECT_GT(n.dot(Eigen::Vector3d(0.5, 0.5, 0.5)), outside["separating_offset"].get<double>());
  EXPECT_LE((n.transpose() * tetra).maxCoeff(), outside["separating_offset"].get<double>() + 1e-12);
  // A sphere is not a vertex set.
  EXPECT_EQ(r.lines[7]["status"], "error");
  EXPECT_NE(r.lines[7]["message"].get<std::string>().find("LP queries need polytopes"), std::string::npos) << r.lines[7];
}

}  // namespace
}  // namespace proxima::test

namespace proxima::test {
namespace {

// Time of impact under translation, closed forms: head-on spheres close a gap of
// 5 - 0.5 - 1.25 = 3.25 at speed 2, so touch at t = 1.625 at x = 1.625 + 0.5 = 2.125.
// A sphere of radius 0.5 dropped at speed 2 from z = 4 onto the unit cube's top face (z = 1)
// touches at t = (4 - 0.5 - 1) / 2 = 1.25; with t_max 1 (the default) it does not.
TEST(CommandToi, TranslationalTimeOfImpactMatchesClosedForms) {
  const CommandResult r = run_proxima("run '" + scene_path("toi.json") + "'");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  ASSERT_EQ(r.lines.size(), 5u) << r.out;
  const auto& hit = r.lines[0];
  EXPECT_TRUE(hit["contact"].get<bool>()) << hit;
  // Contact is declared within kCcdToiDistanceTolerance * scale (6.75e-9) of touching: early by
  // at most that over the closing speed 2.
  EXPECT_LE(hit["toi"].get<double>(), 1.625 + 1e-12);
  EXPECT_GE(hit["toi"].get<double>(), 1.625 - 1e-8);
  EXPECT_NEAR(hit["point"][0].get<double>(), 2.125, 1e-8);
  EXPECT_NEAR(hit["normal"][0].get<double>(), 1.0, 1e-9);
  EXPECT_FALSE(r.lines[1]["contact"].get<bool>()) << r.lines[1];
  EXPECT_TRUE(r.lines[1]["toi"].is_null()) << r.lines[1];
  EXPECT_FALSE(r.lines[2]["contact"].get<bool>()) << r.lines[2];
  EXPECT_FALSE(r.lines[3]["contact"].get<bool>()) << r.lines[3];
  const auto& drop = r.lines[4];
  EXPECT_TRUE(drop["contact"].get<bool>()) << drop;
  EXPECT_LE(drop["toi"].get<double>(), 1.25 + 1e-12);
  EXPECT_GE(drop["toi"].get<double>(), 1.25 - 1e-8);
  EXPECT_NEAR(drop["point"][2].get<double>(), 1.0, 1e-8);  // on the top face
  EXPECT_NEAR(drop["normal"][2].get<double>(), 1.0, 1e-9);
}

}  // namespace
}  // namespace proxima::test

namespace proxima::test {
namespace {

// Screw step, closed forms: a unit cube B sliding along -x from x = 3 to x = 0 (offset 0.2 in y,
// 0.1 in z) first touches the unit cube A at rest when their faces x = 0.5 and x = b - 0.5 meet,
// b = 1, i.e. at t = 2/3 with normal +x. Sliding past at y = 2 (gap 1 in y) never touches.
TEST(CommandScrew, CubesSlidingIntoEachOther) {
  const CommandResult r = run_proxima("run '" + scene_path("screw.json") + "'");
  EXPECT_EQ(r.exit_code, 1);  // the sphere is not a mesh
  ASSERT_EQ(r.lines.size(), 5u) << r.out;
  const auto& hit = r.lines[0];
  ASSERT_EQ(hit["status"], "ok") << hit;
  EXPECT_TRUE(hit["contact"].get<bool>()) << hit;
  EXPECT_NEAR(hit["toi"].get<double>(), 2.0 / 3.0, 1e-6) << hit;
  EXPECT_NEAR(hit["normal"][0].get<double>(), 1.0, 1e-6) << hit;
  EXPECT_NEAR(hit["point"][0].get<double>(), 0.5, 1e-6) << hit;
  ASSERT_TRUE(hit["collisions"].is_array());
  EXPECT_GE(hit["collisions"].size(), 1u);
  for (const auto& c : hit["collisions"]) {
    const std::string type = c["type"].get<std::string>();
    EXPECT_TRUE(type == "VF" || type == "FV" || type == "EE") << c;
    EXPECT_GE(c["time"].get<double>(), 2.0 / 3.0 - 1e-6) << c;
  }
  EXPECT_FALSE(r.lines[1]["contact"].get<bool>()) << r.lines[1];
  EXPECT_TRUE(r.lines[1]["collisions"].empty()) << r.lines[1];
  EXPECT_EQ(r.lines[2]["status"], "error");
  EXPECT_NE(r.lines[2]["message"].get<std::string>().find("screw queries need mesh shapes"), std::string::npos);
  // The same cube read from an OBJ file next to the scene gives the same first contact.
  EXPECT_EQ(r.lines[3]["status"], "ok") << r.lines[3];
  EXPECT_NEAR(r.lines[3]["toi"].get<double>(), 2.0 / 3.0, 1e-6) << r.lines[3];
  EXPECT_EQ(r.lines[4]["status"], "error");
  EXPECT_NE(r.lines[4]["message"].get<std::string>().find("shapes.missing_file"), std::string::npos) << r.lines[4];
}

// The same scene with the seed's raster method forced: the same first contact, named "raster".
TEST(CommandScrew, RasterMethodGivesTheSameFirstContact) {
  const CommandResult r = run_proxima("run '" + scene_path("screw.json") + "' --method raster");
  EXPECT_EQ(r.exit_code, 1);  // the sphere is still not a mesh
  ASSERT_EQ(r.lines.size(), 5u) << r.out;
  const auto& hit = r.lines[0];
  ASSERT_EQ(hit["status"], "ok") << hit;
  EXPECT_EQ(hit["method"], "raster") << hit;
  EXPECT_NEAR(hit["toi"].get<double>(), 2.0 / 3.0, 1e-9) << hit;
  EXPECT_NEAR(hit["normal"][0].get<double>(), 1.0, 1e-9) << hit;
  EXPECT_FALSE(r.lines[1]["contact"].get<bool>()) << r.lines[1];
  EXPECT_NEAR(r.lines[3]["toi"].get<double>(), 2.0 / 3.0, 1e-9) << r.lines[3];
}

}  // namespace
}  // namespace proxima::test

namespace proxima::test {
namespace {

// Interior-point queries, closed forms: spheres 3 apart with radii 0.5 and 1 are 1.5 apart; the
// unit ball cut by x <= 0.5 reaches x = 0.5 towards a radius-0.5 ball centred at x = 3, so 2.0
// apart; a radius-1 ball flying from (5, 2, 0) along -x past a radius-0.5 ball at the origin is
// closest at t = 5, at centre distance 2: 0.5 apart.
TEST(CommandIpm, DistanceAndClosestApproachMatchClosedForms) {
  const CommandResult r = run_proxima("run '" + scene_path("ipm.json") + "'");
  EXPECT_EQ(r.exit_code, 1);  // the box has no implicit form
  ASSERT_EQ(r.lines.size(), 4u) << r.out;
  EXPECT_EQ(r.lines[0]["method"], "ipm") << r.lines[0];
  EXPECT_NEAR(r.lines[0]["distance"].get<double>(), 1.5, 1e-6) << r.lines[0];
  EXPECT_NEAR(r.lines[0]["normal"][1].get<double>(), 1.0, 1e-6) << r.lines[0];
  EXPECT_EQ(r.lines[1]["method"], "ipm") << r.lines[1];
  EXPECT_NEAR(r.lines[1]["distance"].get<double>(), 2.0, 1e-6) << r.lines[1];
  EXPECT_NEAR(r.lines[1]["point_a"][0].get<double>(), 0.5, 1e-6) << r.lines[1];
  const auto& fly = r.lines[2];
  EXPECT_EQ(fly["status"], "ok") << fly;
  EXPECT_FALSE(fly["intersect"].get<bool>()) << fly;
  EXPECT_NEAR(fly["min_distance"].get<double>(), 0.5, 1e-6) << fly;
  EXPECT_NEAR(fly["min_time"].get<double>(), 5.0, 1e-3) << fly;
  EXPECT_EQ(r.lines[3]["status"], "error");
  EXPECT_NE(r.lines[3]["message"].get<std::string>().find("no implicit form"), std::string::npos) << r.lines[3];
}

}  // namespace
}  // namespace proxima::test
