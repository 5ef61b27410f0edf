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
