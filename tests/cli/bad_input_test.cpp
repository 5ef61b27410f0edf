// SPDX-License-Identifier: MIT
// Bad input through the command (issue 6 "Bad input"): text that is not JSON (line and column,
// exit 2), an unknown shape type or query kind, a query without a shape name, a mesh file that
// does not exist: each a clear message naming the place, exit status 1, and every other query's
// answer still written, in order.
#include "command_support.hpp"

#include <cstdio>
#include <string>

namespace proxima::test {
namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(BadInput, NotJsonGivesLineAndColumnAndExitsTwo) {
  struct Case {
    const char* text;
    const char* where;
  };
  const Case cases[] = {
      {"hello", "line 1, column 1"},
      {"{\"queries\": [\n  {\"id\": 1,}\n]}", "line 2, column 12"},
      {"{\"queries\": [", "line 1, column 14"},
      {"", "line 1, column 1"},
  };
  for (const Case& c : cases) {
    const std::string text = c.text;
    const CommandResult r = run_proxima("run -", &text);
    EXPECT_EQ(r.exit_code, 2) << c.text;
    EXPECT_EQ(r.out, "") << c.text;
    EXPECT_TRUE(contains(r.err, "<stdin>: scene is not valid JSON")) << r.err;
    EXPECT_TRUE(contains(r.err, c.where)) << c.text << " -> " << r.err;
  }
  // The same for a file, named in the message; and in table format.
  const CommandResult file = run_proxima("run '" + scene_path("malformed.json") + "' --format table", nullptr, false);
  EXPECT_EQ(file.exit_code, 2);
  EXPECT_TRUE(contains(file.err, "malformed.json: scene is not valid JSON")) << file.err;
  EXPECT_TRUE(contains(file.err, "line 2, column")) << file.err;
}

TEST(BadInput, ScenesThatAreJsonButNotScenesExitTwo) {
  const std::string array = "[1, 2]";
  const CommandResult r = run_proxima("run -", &array);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "scene must be a JSON object, got array")) << r.err;
  const std::string no_queries = R"({"shapes": {}})";
  const CommandResult q = run_proxima("run -", &no_queries);
  EXPECT_EQ(q.exit_code, 2);
  EXPECT_TRUE(contains(q.err, "queries: missing")) << q.err;
}

TEST(BadInput, ShapesFarFromUnitScaleAreAnsweredAsOutOfRangeNotAsBadShapes) {
  // A sphere of radius 1e200 has a support form but no implicit one (its quadric 1/r^2
  // underflows): GJK queries report the scale, interior-point queries say why they cannot run,
  // and a unit query in the same scene is answered.
  const std::string scene = R"({
    "shapes": {"huge": {"type": "sphere", "radius": 1e200}, "tiny": {"type": "box", "half_extents": [1e-40, 1e-40, 1e-40]},
               "unit": {"type": "sphere", "radius": 1}},
    "queries": [
      {"id": "huge", "kind": "distance", "a": "huge", "b": "huge", "pose_b": {"translation": [3e200, 0, 0]}},
      {"id": "tiny", "kind": "penetration", "a": "tiny", "b": "tiny", "pose_b": {"translation": [1e-40, 0, 0]}},
      {"id": "huge-ipm", "kind": "distance", "method": "ipm", "a": "huge", "b": "unit"},
      {"id": "unit", "kind": "distance", "a": "unit", "b": "unit", "pose_b": {"translation": [3, 0, 0]}}
    ]})";
  const CommandResult r = run_proxima("run -", &scene);
  ASSERT_EQ(r.lines.size(), 4u) << r.out << r.err;
  for (int i : {0, 1}) {
    EXPECT_EQ(r.lines[i]["status"], "ok") << r.out;
    EXPECT_EQ(r.lines[i]["solver_status"], "degenerate_input") << r.out;
    EXPECT_EQ(r.lines[i]["detail"], "scale_out_of_range") << r.out;
    EXPECT_EQ(r.lines[i]["converged"], false) << r.out;
  }
  EXPECT_TRUE(r.lines[0]["distance"].is_null()) << r.out;
  EXPECT_TRUE(r.lines[1]["depth"].is_null()) << r.out;
  EXPECT_EQ(r.lines[2]["status"], "error") << r.out;
  EXPECT_TRUE(contains(r.lines[2]["message"].get<std::string>(), "shape \"huge\" has no implicit form")) << r.out;
  EXPECT_EQ(r.lines[3]["status"], "ok") << r.out;
  EXPECT_NEAR(r.lines[3]["distance"].get<double>(), 1.0, 1e-12);
}

// A cube mesh of half side 0.5 f (vertices written with printf's %.17g) and a screw query that
// moves a copy of it from (0, -3, 0) f past the first one, turning, in the given method.
std::string cube_mesh(double f) {
  std::string v;
  for (int i = 0; i < 8; ++i) {
    const double x = ((i == 1 || i == 2 || i == 5 || i == 6) ? 0.5 : -0.5) * f;
    const double y = ((i == 2 || i == 3 || i == 6 || i == 7) ? 0.5 : -0.5) * f;
    const double z = (i >= 4 ? 0.5 : -0.5) * f;
    char buf[96];
    std::snprintf(buf, sizeof buf, "%s[%.17g, %.17g, %.17g]", i == 0 ? "" : ", ", x, y, z);
    v += buf;
  }
  return R"({"type": "mesh", "vertices": [)" + v +
         R"(], "faces": [[0,3,2,1], [4,5,6,7], [0,1,5,4], [2,3,7,6], [0,4,7,3], [1,2,6,5]]})";
}

std::string screw_query(const std::string& id, const std::string& shape, double f, const std::string& method) {
  auto g = [&](double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", x * f);
    return std::string(buf);
  };
  return R"({"id": ")" + id + R"(", "kind": "screw", "method": ")" + method + R"(", "a": ")" + shape + R"(", "b": ")" +
         shape + R"(", "pose_b": {"translation": [0, )" + g(-3) + R"(, 0]}, "pose_b_end": {"translation": [)" + g(0.2) +
         ", " + g(3) + ", " + g(0.1) + R"(], "euler_xyz": [0.3, 0, 0.2]}})";
}

TEST(BadInput, ScrewQueriesOutsideTheCcdScaleRangeAreRefusedAndTheOthersAnswered) {
  // kCcdMaxScale = 1e290: cubes of size 1e300 are refused per query; cubes of size 1e200 (whose
  // triple products overflowed before the ccd rescaling) give the unit cube's answer scaled.
  const std::string scene = R"({"shapes": {"huge": )" + cube_mesh(1e300) + R"(, "big": )" + cube_mesh(1e200) +
                            R"(, "unit": )" + cube_mesh(1) + R"(}, "queries": [)" +
                            screw_query("huge", "huge", 1e300, "glide") + ", " +
                            screw_query("huge-raster", "huge", 1e300, "raster") + ", " +
                            screw_query("big", "big", 1e200, "glide") + ", " +
                            screw_query("big-raster", "big", 1e200, "raster") + ", " +
                            screw_query("unit", "unit", 1, "glide") + ", " +
                            screw_query("unit-raster", "unit", 1, "raster") + "]}";
  const CommandResult r = run_proxima("run -", &scene);
  ASSERT_EQ(r.lines.size(), 6u) << r.out << r.err;
  for (int i : {0, 1}) {
    EXPECT_EQ(r.lines[i]["status"], "ok") << r.out;
    EXPECT_EQ(r.lines[i]["solver_status"], "degenerate_input") << r.out;
    EXPECT_EQ(r.lines[i]["detail"], "scale_out_of_range") << r.out;
    EXPECT_EQ(r.lines[i]["converged"], false) << r.out;
    EXPECT_EQ(r.lines[i]["contact"], false) << r.out;
    EXPECT_TRUE(r.lines[i]["toi"].is_null()) << r.out;
    EXPECT_TRUE(r.lines[i]["collisions"].empty()) << r.out;
  }
  for (int i : {2, 3}) {
    const auto& big = r.lines[i];
    const auto& unit = r.lines[i + 2];
    EXPECT_EQ(unit["solver_status"], "converged") << r.out;
    EXPECT_EQ(unit["contact"], true) << r.out;
    EXPECT_EQ(big["solver_status"], "converged") << r.out;
    EXPECT_EQ(big["contact"], true) << r.out;
    EXPECT_NEAR(big["toi"].get<double>(), unit["toi"].get<double>(), 1e-9) << r.out;
    ASSERT_EQ(big["collisions"].size(), unit["collisions"].size()) << r.out;
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(big["point"][k].get<double>() / 1e200, unit["point"][k].get<double>(), 1e-9) << r.out;
      EXPECT_NEAR(big["normal"][k].get<double>(), unit["normal"][k].get<double>(), 1e-9) << r.out;
    }
  }
}

TEST(BadInput, MissingMeshFileAndMissingShapeNameFailOnlyTheirQueries) {
  const CommandResult r = run_proxima("run '" + scene_path("missing_mesh.json") + "'");
  EXPECT_EQ(r.exit_code, 1);
  ASSERT_EQ(r.lines.size(), 4u) << r.out;
  EXPECT_EQ(r.lines[0]["id"], "before");
  EXPECT_EQ(r.lines[0]["status"], "ok");
  EXPECT_NEAR(r.lines[0]["distance"].get<double>(), 1.0, 1e-12);  // centres 3 apart, radii 1

  EXPECT_EQ(r.lines[1]["id"], "missing-file");
  EXPECT_EQ(r.lines[1]["status"], "error");
  const std::string missing = r.lines[1]["message"].get<std::string>();
  EXPECT_TRUE(contains(missing, "queries[1].b: shape \"ghost\" is invalid: shapes.ghost.file: cannot open")) << missing;
  EXPECT_TRUE(contains(missing, "no_such_mesh.obj")) << missing;

  EXPECT_EQ(r.lines[2]["id"], "no-b");
  EXPECT_EQ(r.lines[2]["status"], "error");
  EXPECT_EQ(r.lines[2]["message"], "queries[2].b: missing");

  // The mesh file next to the scene (relative path) loads: the cube slides into the cube.
  EXPECT_EQ(r.lines[3]["id"], "from-file");
  EXPECT_EQ(r.lines[3]["status"], "ok") << r.lines[3];
  EXPECT_TRUE(r.lines[3]["contact"].get<bool>()) << r.lines[3];
}

TEST(BadInput, UnknownTypeAndKindAreNamedWithTheirAlternativesInEveryFormat) {
  const std::string text = R"({"shapes": {"s": {"type": "sphere", "radius": 1}, "t": {"type": "teapot"}},
    "queries": [
      {"id": "a", "kind": "distance", "a": "s", "b": "t"},
      {"id": "b", "kind": "nearest", "a": "s", "b": "s"},
      {"id": "c", "kind": "distance", "a": "s", "b": "s", "pose_b": {"translation": [0, 4, 0]}}]})";
  const CommandResult r = run_proxima("run -", &text);
  EXPECT_EQ(r.exit_code, 1);
  ASSERT_EQ(r.lines.size(), 3u);
  const std::string type = r.lines[0]["message"].get<std::string>();
  EXPECT_TRUE(contains(type, "shapes.t.type: unknown shape type \"teapot\" (expected one of sphere, box")) << type;
  const std::string kind = r.lines[1]["message"].get<std::string>();
  EXPECT_TRUE(contains(kind, "queries[1].kind: unknown query kind \"nearest\" (expected one of intersect, distance")) << kind;
  EXPECT_EQ(r.lines[1]["kind"], "nearest");
  EXPECT_EQ(r.lines[2]["status"], "ok");
  EXPECT_NEAR(r.lines[2]["distance"].get<double>(), 2.0, 1e-12);

  const CommandResult table = run_proxima("run - --format table", &text, false);
  EXPECT_EQ(table.exit_code, 1);
  EXPECT_TRUE(contains(table.out, "unknown shape type \"teapot\"")) << table.out;
  EXPECT_TRUE(contains(table.out, "unknown query kind \"nearest\"")) << table.out;
  EXPECT_TRUE(contains(table.out, "3 queries, 2 failed")) << table.out;
}

}  // namespace
}  // namespace proxima::test
