// SPDX-License-Identifier: MIT
// The options of `proxima run` and their parser (docs/cli.md). Parsing never exits the process:
// it returns the options, a request for help, or the message of a usage error.
#pragma once

#include <string>
#include <vector>

namespace proxima::cli {

enum class OutputFormat { json, table };
enum class ProgressMode { automatic, always, never };

struct RunOptions {
  /// SCENE.json, or "-" for standard input.
  std::string source;
  OutputFormat format = OutputFormat::json;
  /// "" = each query's own "method" (or automatic); else gjk / ipm / lp / glide / raster for every query.
  std::string method;
  /// Times each query this many extra times (0 = no timing); adds time_us / time_min_us / repeats.
  int repeat = 0;
  /// Cross-check every query with a second algorithm (apps/scene/check.hpp).
  bool check = false;
  double check_tolerance = 1e-6;
  /// automatic: progress on standard error only when it is a terminal and the run is long.
  ProgressMode progress = ProgressMode::automatic;
};

/// The outcome of parsing the arguments after `run`.
struct ParsedRunArgs {
  RunOptions options;
  bool help = false;
  /// Non-empty: a usage error (exit status 2), e.g. "--repeat: expected a whole number >= 1, got x".
  std::string error;
};

/// Parses `proxima run` arguments: one SCENE.json or -, and the options in any order; both
/// "--name value" and "--name=value" forms; "--" ends the options.
ParsedRunArgs parse_run_args(const std::vector<std::string>& args);

/// `proxima run --help` text, with examples.
extern const char* const kRunHelp;

/// Upper bound on --repeat (keeps a typo such as --repeat 1000000000 from running for hours).
inline constexpr int kMaxRepeat = 1000000;

}  // namespace proxima::cli
