// SPDX-License-Identifier: MIT
// Tests the `proxima` command as a user runs it: exit statuses, one JSON line per query in input
// order, error lines that name the problem while the other queries still answer, stdin input.
#include "command_support.hpp"

#include <string>

namespace proxima::test {
namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(Command, UsageErrorsExitTwo) {
  EXPECT_EQ(run_proxima("").exit_code, 2);
  EXPECT_EQ(run_proxima("frobnicate").exit_code, 2);
  EXPECT_EQ(run_proxima("run").exit_code, 2);
  EXPECT_EQ(run_proxima("run a.json b.json").exit_code, 2);
  const CommandResult missing = run_proxima("run '" + scene_path("does_not_exist.json") + "'");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_TRUE(contains(missing.err, "cannot read")) << missing.err;
  EXPECT_EQ(missing.out, "");
  const CommandResult version = run_proxima("--version", nullptr, false);
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_TRUE(contains(version.out, "proxima")) << version.out;
}

TEST(Command, MalformedJsonExitsTwoWithThePosition) {
  const CommandResult r = run_proxima("run '" + scene_path("malformed.json") + "'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(contains(r.err, "not valid JSON")) << r.err;
  EXPECT_TRUE(contains(r.err, "line 2")) << r.err;
}

TEST(Command, UnknownTopLevelFieldExitsTwo) {
  const CommandResult r = run_proxima("run '" + scene_path("unknown_top_level.json") + "'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "units: unknown top-level field")) << r.err;
}

TEST(Command, EveryBadInputGetsItsOwnErrorLineInOrder) {
  const CommandResult r = run_proxima("run '" + scene_path("bad_inputs.json") + "'");
  EXPECT_EQ(r.exit_code, 1);
  ASSERT_EQ(r.lines.size(), 9u) << r.out;
  struct Expect {
    const char* id;
    const char* message_part;
  };
  const Expect expected[] = {
      {"uses-nan-shape", "queries[0].b: shape \"rock\" is invalid: shapes.rock.vertices[3]: must be finite"},
      {"unknown-shape-type", "shapes.blob.type: unknown shape type \"spline\""},
      {"unknown-shape-field", "shapes.shiny.colour: unknown field"},
      {"unknown-shape-name", "queries[3].b: no shape named \"stone\""},
      {"zero-quaternion", "queries[4].pose_b.quaternion: must not be zero"},
      {"nan-translation", "queries[5].pose_b.translation: must be finite"},
      {"unknown-query-field", "queries[6].velocity_a: unknown field for kind distance"},
      {"unknown-kind", "queries[7].kind: unknown query kind \"closest\""},
      {nullptr, "queries[8].id: missing"},
  };
  for (std::size_t i = 0; i < r.lines.size(); ++i) {
    const nlohmann::json& line = r.lines[i];
    if (expected[i].id != nullptr) {
      EXPECT_EQ(line["id"], expected[i].id) << line;
    } else {
      EXPECT_TRUE(line["id"].is_null()) << line;
    }
    EXPECT_EQ(line["status"], "error") << line;
    EXPECT_TRUE(contains(line["message"].get<std::string>(), expected[i].message_part)) << line;
  }
}

TEST(Command, EmptySceneAnswersNothingAndSucceeds) {
  const CommandResult r = run_scene_text(R"({"queries": []})");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "");
}

}  // namespace
}  // namespace proxima::test

namespace proxima::test {
namespace {

void expect_vec(const nlohmann::json& v, double x, double y, double z, double tol) {
  ASSERT_TRUE(v.is_array()) << v;
  ASSERT_EQ(v.size(), 3u) << v;
  EXPECT_NEAR(v[0].get<double>(), x, tol) << v;
  EXPECT_NEAR(v[1].get<double>(), y, tol) << v;
  EXPECT_NEAR(v[2].get<double>(), z, tol) << v;
}

// Answers checked against closed forms worked out by hand in the comments (not from our output).
TEST(Command, AnswersMatchClosedForms) {
  const CommandResult r = run_proxima("run '" + scene_path("closed_forms.json") + "'");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  ASSERT_EQ(r.lines.size(), 7u) << r.out;
  for (const auto& line : r.lines) {
    EXPECT_EQ(line["status"], "ok") << line;
    EXPECT_TRUE(line["converged"].get<bool>()) << line;
    EXPECT_TRUE(line["iterations"].is_number_integer()) << line;
  }
  constexpr double kTol = 1e-12;
  // Centres (1,2,3) and (4,6,3): 5 apart, radii 0.5 and 1.25 -> distance 3.25, normal (0.6, 0.8, 0),
  // closest points centre_a + 0.5 n = (1.3, 2.4, 3) and centre_b - 1.25 n = (3.25, 5, 3).
  const auto& apart = r.lines[0];
  EXPECT_EQ(apart["id"], "spheres-apart");
  EXPECT_FALSE(apart["intersect"].get<bool>());
  EXPECT_NEAR(apart["distance"].get<double>(), 3.25, kTol);
  expect_vec(apart["normal"], 0.6, 0.8, 0, kTol);
  expect_vec(apart["point_a"], 1.3, 2.4, 3, kTol);
  expect_vec(apart["point_b"], 3.25, 5, 3, kTol);
  // Centres 1.5 apart along z: depth 0.5 + 1.25 - 1.5 = 0.25 along +z.
  const auto& overlap = r.lines[1];
  EXPECT_TRUE(overlap["intersect"].get<bool>());
  EXPECT_NEAR(overlap["depth"].get<double>(), 0.25, kTol);
  expect_vec(overlap["normal"], 0, 0, 1, 1e-9);
  // Centre distance 1.7 < 1.75 touches; 1.8 > 1.75 does not.
  EXPECT_TRUE(r.lines[2]["intersect"].get<bool>());
  EXPECT_FALSE(r.lines[3]["intersect"].get<bool>());
  expect_vec(r.lines[3]["separating_axis"], 0, 1, 0, 1e-9);
  // A rotation about z keeps the cube's top face at z = 1: sphere centre at z = 2.5, radius 0.5.
  const auto& face = r.lines[4];
  EXPECT_NEAR(face["distance"].get<double>(), 1.0, kTol);
  expect_vec(face["normal"], 0, 0, 1, kTol);
  expect_vec(face["point_b"], 0, 0, 2, kTol);
  EXPECT_NEAR(face["point_a"][2].get<double>(), 1.0, kTol);
  // Slab (half extents 2, 0.5, 3) at y = 1.3 overlaps the unit cube by 1 - 0.8 = 0.2 along y; the
  // other axes need 3 (x) and 4 (z).
  const auto& boxes = r.lines[5];
  EXPECT_NEAR(boxes["depth"].get<double>(), 0.2, kTol);
  expect_vec(boxes["normal"], 0, 1, 0, 1e-9);
  // No poses = identity: concentric spheres of radius 0.5 need 1.0 in any direction.
  const auto& concentric = r.lines[6];
  EXPECT_NEAR(concentric["depth"].get<double>(), 1.0, kTol);
  const auto& n = concentric["normal"];
  EXPECT_NEAR(std::hypot(n[0].get<double>(), n[1].get<double>(), n[2].get<double>()), 1.0, 1e-12);
}

TEST(Command, StdinGivesTheSameLinesAsTheFile) {
  const std::string text = read_text(scene_path("closed_forms.json"));
  const CommandResult from_file = run_proxima("run '" + scene_path("closed_forms.json") + "'");
  const CommandResult from_stdin = run_scene_text(text);
  EXPECT_EQ(from_stdin.exit_code, 0);
  EXPECT_EQ(from_stdin.out, from_file.out);
  EXPECT_FALSE(from_stdin.out.empty());
}

TEST(Command, OneBadQueryAmongGoodOnesFailsAloneAndExitsOne) {
  const CommandResult r = run_scene_text(R"({
    "shapes": {"s": {"type": "sphere", "radius": 1}, "bad": {"type": "box", "half_extents": [1, -1, 1]}},
    "queries": [
      {"id": "before", "kind": "distance", "a": "s", "b": "s", "pose_b": {"translation": [3, 0, 0]}},
      {"id": "broken", "kind": "distance", "a": "s", "b": "bad"},
      {"id": "after", "kind": "distance", "a": "s", "b": "s", "pose_b": {"translation": [0, 0, -5]}}
    ]})");
  EXPECT_EQ(r.exit_code, 1);
  ASSERT_EQ(r.lines.size(), 3u) << r.out;
  EXPECT_EQ(r.lines[0]["status"], "ok");
  EXPECT_NEAR(r.lines[0]["distance"].get<double>(), 1.0, 1e-12);  // 3 - 1 - 1
  EXPECT_EQ(r.lines[1]["status"], "error");
  EXPECT_EQ(r.lines[1]["message"], "queries[1].b: shape \"bad\" is invalid: shapes.bad.half_extents[1]: must be > 0, got -1");
  EXPECT_FALSE(r.lines[1].contains("distance"));
  EXPECT_EQ(r.lines[2]["status"], "ok");
  EXPECT_NEAR(r.lines[2]["distance"].get<double>(), 3.0, 1e-12);  // 5 - 1 - 1
}

TEST(Command, NumbersKeepFullPrecisionAndUnsetFieldsAreNull) {
  // Radius-0.05 spheres with centres 0.07 apart overlap: distance 0 and no normal (null).
  // Centres 0.300000001234567 apart: distance 0.200000001234567, which 6 significant digits
  // would print as 0.2; the output must keep (at least) 15.
  const CommandResult r = run_scene_text(R"({"shapes": {"s": {"type": "sphere", "radius": 0.05}},
    "queries": [{"id": 1, "kind": "distance", "a": "s", "b": "s", "pose_b": {"translation": [0.07, 0, 0]}},
                {"id": 2, "kind": "distance", "a": "s", "b": "s", "pose_b": {"translation": [0.300000001234567, 0, 0]}}]})");
  ASSERT_EQ(r.lines.size(), 2u) << r.out;
  EXPECT_EQ(r.lines[0]["id"], 1);
  EXPECT_TRUE(r.lines[0]["intersect"].get<bool>());
  EXPECT_EQ(r.lines[0]["distance"].get<double>(), 0.0);
  EXPECT_TRUE(r.lines[0]["normal"].is_null()) << r.lines[0];
  EXPECT_NEAR(r.lines[1]["distance"].get<double>(), 0.200000001234567, 1e-15);
}

TEST(Command, DemoRunsAndPrintsATable) {
  const CommandResult r = run_proxima("demo", nullptr, false);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("spheres-apart"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("time [us]"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("error"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace proxima::test
