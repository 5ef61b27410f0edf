// SPDX-License-Identifier: MIT
// `proxima run`: reads a scene (file or standard input) and answers its queries in input order,
// as JSON lines (the public contract, docs/scene-format.md) or as a table. One bad query never
// loses the others' lines. Options: run_options.hpp; the table: run_table.hpp.
#include "commands.hpp"
#include "run_options.hpp"
#include "run_table.hpp"

#include "scene/reader.hpp"
#include "scene/runner.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <limits>
#include <sstream>
#include <string>
#include <unistd.h>

namespace proxima::cli {
namespace {

// Progress appears once a run has taken this long (automatic mode), and is redrawn at most this
// often, so short runs and pipelines never see it.
constexpr double kProgressDelaySeconds = 1.0;
constexpr double kProgressIntervalSeconds = 0.2;

// A one-line counter on standard error, redrawn in place and erased at the end.
class Progress {
 public:
  Progress(ProgressMode mode, std::size_t total)
      : enabled_(mode == ProgressMode::always || (mode == ProgressMode::automatic && ::isatty(STDERR_FILENO) == 1)),
        delay_(mode == ProgressMode::always ? 0.0 : kProgressDelaySeconds),
        total_(total),
        start_(Clock::now()) {}

  void update(std::size_t done, std::size_t failed) {
    if (!enabled_) return;
    const double now = seconds_since(start_);
    if (now < delay_ || (shown_ && now - last_ < kProgressIntervalSeconds && done < total_)) return;
    std::fprintf(stderr, "\rproxima run: %zu/%zu queries, %zu failed, %.1f s", done, total_, failed, now);
    std::fflush(stderr);
    shown_ = true;
    last_ = now;
  }

  ~Progress() {
    if (shown_) {
      std::fputs("\n", stderr);
      std::fflush(stderr);
    }
  }

  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

 private:
  using Clock = std::chrono::steady_clock;
  static double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

  bool enabled_;
  double delay_;
  std::size_t total_;
  Clock::time_point start_;
  bool shown_ = false;
  double last_ = 0;
};

// Reads the whole scene text; false (with a message on stderr) when it cannot.
bool read_source(const std::string& source, std::string& text, std::string& base_dir) {
  if (source == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    return true;
  }
  std::error_code ec;
  std::ifstream file(source, std::ios::binary);
  if (!file || std::filesystem::is_directory(source, ec)) {
    std::fprintf(stderr, "proxima: cannot read %s\n", source.c_str());
    return false;
  }
  std::ostringstream buffer;
  buffer << file.rdbuf();
  text = buffer.str();
  base_dir = std::filesystem::path(source).parent_path().string();
  return true;
}

}  // namespace

int run_command(const std::vector<std::string>& args) {
  const ParsedRunArgs parsed = parse_run_args(args);
  if (parsed.help) {
    std::fputs(kRunHelp, stdout);
    return kExitOk;
  }
  if (!parsed.error.empty()) {
    std::fprintf(stderr, "proxima run: %s\nusage: proxima run SCENE.json|- [options]; see proxima run --help\n",
                 parsed.error.c_str());
    return kExitUsage;
  }
  const RunOptions& options = parsed.options;

  std::string text;
  std::string base_dir;
  if (!read_source(options.source, text, base_dir)) return kExitUsage;
  scene::SceneSpec scene;
  try {
    scene = scene::read_scene(text, base_dir);
  } catch (const scene::SceneFormatError& e) {
    std::fprintf(stderr, "proxima: %s: %s\n", options.source == "-" ? "<stdin>" : options.source.c_str(), e.what());
    return kExitUsage;
  }
  if (!options.method.empty()) {
    for (scene::QuerySpec& q : scene.queries) q.method = options.method;
  }

  scene::RunOptions run;
  if (options.repeat > 0) {
    run.timing.max_repeats = options.repeat;
    run.timing.budget_microseconds = std::numeric_limits<double>::infinity();
    run.timing.add_fields = true;
  }
  run.check = options.check;
  run.check_tolerance = options.check_tolerance;

  scene::Runner runner(scene);
  Table table(options.repeat > 0, options.check);
  Progress progress(options.progress, scene.queries.size());
  std::size_t failed = 0;
  std::size_t done = 0;
  bool all_ok = true;
  for (const auto& query : scene.queries) {
    const scene::Outcome outcome = runner.run(query, run);
    const bool ok = outcome.ok && outcome.check != "disagree";
    all_ok = all_ok && ok;
    failed += ok ? 0 : 1;
    if (options.format == OutputFormat::json) {
      std::fwrite(outcome.json_line.data(), 1, outcome.json_line.size(), stdout);
      std::fputc('\n', stdout);
      std::fflush(stdout);  // lines appear as they are answered, for pipelines on long runs
    } else {
      table.add(query, outcome);
    }
    progress.update(++done, failed);
  }
  if (options.format == OutputFormat::table) table.print(stdout, failed);
  std::fflush(stdout);
  return all_ok ? kExitOk : kExitQueryFailed;
}

}  // namespace proxima::cli
