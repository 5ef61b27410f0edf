// SPDX-License-Identifier: MIT
// `proxima run` options as a user scripts them: --format, --method, --repeat, --check, progress,
// --help / --version, and the exit status rules (0 ok, 1 failed or disagreed, 2 bad invocation).
#include "command_support.hpp"

#include <proxima/version.hpp>

#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace proxima::test {
namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// Built by appending: GCC 12 -O3 reports a false -Wstringop-overflow on "'" + std::string&&.
std::string scene_arg(const std::string& name) {
  std::string quoted(1, '\'');
  quoted.append(scene_path(name));
  quoted.push_back('\'');
  return quoted;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

// The line without the fields `proxima run` options add, for comparing with a plain run.
nlohmann::json without_additions(nlohmann::json line) {
  for (const char* key : {"time_us", "time_min_us", "repeats", "check", "check_method", "check_detail"}) line.erase(key);
  return line;
}

TEST(RunOptions, HelpHasExamplesAndExitsZero) {
  for (const char* args : {"--help", "-h", "run --help", "run -h"}) {
    const CommandResult r = run_proxima(args, nullptr, false);
    EXPECT_EQ(r.exit_code, 0) << args;
    EXPECT_TRUE(contains(r.out, "examples:")) << args << "\n" << r.out;
    EXPECT_TRUE(contains(r.out, "proxima run")) << args;
    EXPECT_EQ(r.err, "") << args;
  }
  const CommandResult run_help = run_proxima("run --help", nullptr, false);
  for (const char* option : {"--format", "--method", "--repeat", "--check", "--progress", "exit status"}) {
    EXPECT_TRUE(contains(run_help.out, option)) << option;
  }
}

TEST(RunOptions, VersionIsTheProjectVersion) {
  const CommandResult r = run_proxima("--version", nullptr, false);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, std::string("proxima ") + kVersionString + "\n");
  EXPECT_EQ(std::to_string(kVersionMajor) + "." + std::to_string(kVersionMinor) + "." + std::to_string(kVersionPatch),
            kVersionString);
}

TEST(RunOptions, BadInvocationsExitTwoWithAMessage) {
  struct Case {
    std::string args;
    const char* message;
  };
  const std::string scene = scene_arg("closed_forms.json");
  const Case cases[] = {
      {"run " + scene + " --format xml", "--format: expected json or table, got \"xml\""},
      {"run " + scene + " --format", "--format: missing value"},
      {"run " + scene + " --method simplex", "--method: expected gjk, ipm, lp, glide or raster"},
      {"run " + scene + " --repeat 0", "--repeat: expected a whole number"},
      {"run " + scene + " --repeat 2x", "--repeat: expected a whole number"},
      {"run " + scene + " --repeat=-3", "--repeat: expected a whole number"},
      {"run " + scene + " --check-tolerance 0", "--check-tolerance: expected a number > 0"},
      {"run " + scene + " --frobnicate", "unknown option --frobnicate"},
      {"run --check", "run needs a SCENE.json"},
      {"run " + scene + " " + scene, "got a second"},
  };
  for (const Case& c : cases) {
    const CommandResult r = run_proxima(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args;
    EXPECT_TRUE(contains(r.err, c.message)) << c.args << "\n" << r.err;
    EXPECT_EQ(r.out, "") << c.args;
  }
}

TEST(RunOptions, FormatJsonIsTheDefaultAndEqualsName) {
  const CommandResult plain = run_proxima("run " + scene_arg("closed_forms.json"));
  const CommandResult json = run_proxima("run --format json " + scene_arg("closed_forms.json"));
  const CommandResult eq = run_proxima("run " + scene_arg("closed_forms.json") + " --format=json");
  EXPECT_EQ(plain.exit_code, 0);
  EXPECT_FALSE(plain.out.empty());
  EXPECT_EQ(json.out, plain.out);
  EXPECT_EQ(eq.out, plain.out);
}

TEST(RunOptions, FormatTableIsAlignedWithOneRowPerQuery) {
  const CommandResult r = run_proxima("run " + scene_arg("bad_inputs.json") + " --format table", nullptr, false);
  EXPECT_EQ(r.exit_code, 1);  // every query of bad_inputs.json fails
  const std::vector<std::string> lines = split_lines(r.out);
  ASSERT_EQ(lines.size(), 2u + 9u + 1u) << r.out;  // header, rule, 9 rows, summary
  const std::size_t status_col = lines[0].find("status");
  const std::size_t answer_col = lines[0].find("answer");
  ASSERT_NE(status_col, std::string::npos);
  EXPECT_EQ(lines[1].find_first_not_of('-'), std::string::npos) << lines[1];
  for (std::size_t i = 2; i < 11; ++i) {
    EXPECT_EQ(lines[i].substr(status_col, 5), "error") << lines[i];
    EXPECT_EQ(lines[i].substr(answer_col, 8), "queries[") << lines[i];
  }
  EXPECT_EQ(lines[2].rfind("uses-nan-shape", 0), 0u) << lines[2];
  EXPECT_EQ(lines.back(), "9 queries, 9 failed");

  const CommandResult ok = run_proxima("run " + scene_arg("closed_forms.json") + " --format table", nullptr, false);
  EXPECT_EQ(ok.exit_code, 0);
  const std::vector<std::string> ok_lines = split_lines(ok.out);
  ASSERT_EQ(ok_lines.size(), 2u + 7u + 1u) << ok.out;
  EXPECT_TRUE(contains(ok_lines[2], "distance 3.25")) << ok_lines[2];  // spheres-apart, closed form 3.25
  EXPECT_EQ(ok_lines.back(), "7 queries, 0 failed");
}

TEST(RunOptions, MethodForcesTheAlgorithmOrFailsThatQueryAlone) {
  const CommandResult automatic = run_proxima("run " + scene_arg("closed_forms.json"));
  const CommandResult ipm = run_proxima("run " + scene_arg("closed_forms.json") + " --method ipm");
  EXPECT_EQ(ipm.exit_code, 1);
  ASSERT_EQ(ipm.lines.size(), automatic.lines.size());
  // spheres-apart: distance between spheres, which the interior-point solver answers too.
  EXPECT_EQ(automatic.lines[0]["method"], "gjk");
  EXPECT_EQ(ipm.lines[0]["status"], "ok") << ipm.lines[0];
  EXPECT_EQ(ipm.lines[0]["method"], "ipm");
  EXPECT_NEAR(ipm.lines[0]["distance"].get<double>(), 3.25, 1e-9);
  // spheres-hit is an intersect query: GJK only, so --method ipm is refused for that query.
  EXPECT_EQ(ipm.lines[2]["status"], "error");
  EXPECT_TRUE(contains(ipm.lines[2]["message"].get<std::string>(), "method: \"ipm\" does not apply to kind intersect"))
      << ipm.lines[2];
  // sphere-cube-face: a box has no implicit form.
  EXPECT_EQ(ipm.lines[4]["status"], "error");
  EXPECT_TRUE(contains(ipm.lines[4]["message"].get<std::string>(), "no implicit form")) << ipm.lines[4];

  // --method gjk is what the automatic choice takes here: identical lines.
  const CommandResult gjk = run_proxima("run " + scene_arg("closed_forms.json") + " --method gjk");
  EXPECT_EQ(gjk.exit_code, 0);
  EXPECT_EQ(gjk.out, automatic.out);
}

TEST(RunOptions, RepeatAddsTimesAndChangesNoExistingField) {
  const CommandResult plain = run_proxima("run " + scene_arg("closed_forms.json"));
  const CommandResult timed = run_proxima("run " + scene_arg("closed_forms.json") + " --repeat 5");
  EXPECT_EQ(timed.exit_code, 0);
  ASSERT_EQ(timed.lines.size(), plain.lines.size());
  for (std::size_t i = 0; i < timed.lines.size(); ++i) {
    const nlohmann::json& line = timed.lines[i];
    EXPECT_EQ(line["repeats"], 5) << line;
    const double median = line["time_us"].get<double>();
    const double fastest = line["time_min_us"].get<double>();
    EXPECT_GE(fastest, 0.0) << line;
    EXPECT_GE(median, fastest) << line;
    EXPECT_EQ(without_additions(line), plain.lines[i]);  // same fields, same values, same order
  }
  // Error lines carry no time.
  const CommandResult bad = run_proxima("run " + scene_arg("bad_inputs.json") + " --repeat 2");
  for (const auto& line : bad.lines) EXPECT_FALSE(line.contains("time_us")) << line;
}

TEST(RunOptions, CheckAgreesOnEveryQueryWithASecondAlgorithm) {
  const CommandResult plain = run_proxima("run " + scene_arg("check.json"));
  const CommandResult r = run_proxima("run " + scene_arg("check.json") + " --check");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  ASSERT_EQ(r.lines.size(), 14u) << r.out;
  std::map<std::string, std::string> second;
  for (std::size_t i = 0; i < r.lines.size(); ++i) {
    const nlohmann::json& line = r.lines[i];
    ASSERT_EQ(line["status"], "ok") << line;
    EXPECT_NE(line["check"], "disagree") << line;
    EXPECT_TRUE(line["check_detail"].is_string()) << line;
    EXPECT_EQ(without_additions(line), plain.lines[i]);
    second[line["id"].get<std::string>()] =
        line["check"] == "agree" ? line["check_method"].get<std::string>() : "none";
  }
  // Which second algorithm answered each query (apps/scene/check.hpp).
  const std::map<std::string, std::string> expected = {
      {"poly-distance", "lp"},  {"poly-hit", "lp"},        {"poly-miss", "lp"},
      {"poly-overlap", "gjk-touch"}, {"egg-can", "ipm"},   {"egg-ball-hit", "ipm"},
      {"lp-3d", "gjk"},         {"lp-points-3d", "gjk"},   {"lp-4d", "none"},
      {"toi-polytopes", "screw-exact"}, {"screw-polytopes", "gjk-advance-screw"},
      {"flyby", "gjk"},         {"contains", "none"},      {"box-ball", "none"}};
  EXPECT_EQ(second, expected);
}

TEST(RunOptions, CheckDisagreementExitsOne) {
  // GJK and the interior-point solver agree to about 1e-12 on ellipsoids; a band of 1e-300 is
  // below their rounding, so at least one of these queries must be reported as a disagreement.
  const std::string text = R"({"shapes": {"e": {"type": "ellipsoid", "semiaxes": [1.5, 1, 0.75]},
      "f": {"type": "ellipsoid", "semiaxes": [0.3, 1.1, 0.9]}},
    "queries": [
      {"id": 1, "kind": "distance", "a": "e", "b": "f", "pose_b": {"translation": [3, 0.4, 0.2], "euler_xyz": [0.3, 0.2, 0.1]}},
      {"id": 2, "kind": "distance", "a": "e", "b": "f", "pose_b": {"translation": [0.5, 2.9, 0.7], "euler_xyz": [1, 0, 2]}},
      {"id": 3, "kind": "distance", "a": "f", "b": "e", "pose_b": {"translation": [-1, -1, 2.5], "euler_xyz": [0, 0.7, 0]}}]})";
  const CommandResult agree = run_proxima("run - --check", &text);
  EXPECT_EQ(agree.exit_code, 0) << agree.out;
  for (const auto& line : agree.lines) EXPECT_EQ(line["check"], "agree") << line;
  const CommandResult strict = run_proxima("run - --check --check-tolerance 1e-300", &text);
  EXPECT_EQ(strict.exit_code, 1) << strict.out;
  int disagreements = 0;
  for (const auto& line : strict.lines) {
    EXPECT_EQ(line["status"], "ok") << line;  // the answer stands; only the check disagrees
    if (line["check"] == "disagree") {
      ++disagreements;
      EXPECT_TRUE(contains(line["check_detail"].get<std::string>(), "vs ipm")) << line;
    }
  }
  EXPECT_GE(disagreements, 1) << strict.out;
  const CommandResult table = run_proxima("run - --check --check-tolerance 1e-300 --format table", &text, false);
  EXPECT_EQ(table.exit_code, 1);
  EXPECT_TRUE(contains(table.out, "disagree")) << table.out;
}

TEST(RunOptions, ProgressOnlyWhenAskedOrOnATerminal) {
  // Standard error is a file here, not a terminal: automatic mode stays silent.
  const CommandResult quiet = run_proxima("run " + scene_arg("closed_forms.json") + " --repeat 3");
  EXPECT_EQ(quiet.err, "");
  const CommandResult forced = run_proxima("run " + scene_arg("closed_forms.json") + " --progress");
  EXPECT_EQ(forced.exit_code, 0);
  EXPECT_TRUE(contains(forced.err, "7/7 queries, 0 failed")) << forced.err;
  const CommandResult plain = run_proxima("run " + scene_arg("closed_forms.json"));
  EXPECT_EQ(forced.out, plain.out);  // progress never touches standard output
  const CommandResult never = run_proxima("run " + scene_arg("closed_forms.json") + " --no-progress");
  EXPECT_EQ(never.err, "");
}

}  // namespace
}  // namespace proxima::test
