// SPDX-License-Identifier: MIT
#include "run_options.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace proxima::cli {

const char* const kRunHelp =
    "usage: proxima run SCENE.json|- [options]\n"
    "\n"
    "Answers every query of a scene file (docs/scene-format.md), in input order. A bad query gets\n"
    "an error line naming the problem; the other queries still run.\n"
    "\n"
    "options:\n"
    "  --format json|table   json (default): one JSON object per line per query;\n"
    "                        table: an aligned table for people (id, kind, method, answer, ...)\n"
    "  --method gjk|ipm|lp|glide|raster\n"
    "                        force this algorithm on every query (overrides each query's \"method\");\n"
    "                        a query it does not apply to gets an error line\n"
    "  --repeat N            run each query N more times and add \"time_us\" (median),\n"
    "                        \"time_min_us\" and \"repeats\" to its line (microseconds, this machine)\n"
    "  --check               answer each query again with a second algorithm (gjk vs ipm, gjk vs lp,\n"
    "                        epa vs a touching test, conservative advancement vs screw exact mode)\n"
    "                        and add \"check\" (agree|disagree|none), \"check_method\", \"check_detail\"\n"
    "  --check-tolerance X   agreement band relative to the query's scale (default 1e-6)\n"
    "  --progress | --no-progress\n"
    "                        progress on standard error: by default only when it is a terminal\n"
    "                        and the run takes more than a second\n"
    "  -h, --help            this text\n"
    "\n"
    "exit status: 0 every query answered (and agreed with --check), 1 some queries failed or\n"
    "disagreed (their lines say why), 2 bad invocation or a scene that cannot be read at all\n"
    "\n"
    "examples:\n"
    "  proxima run scene.json                        one JSON line per query\n"
    "  proxima run scene.json --format table         the same as a table\n"
    "  proxima run scene.json --repeat 1000 --format table   with median / min microseconds\n"
    "  proxima run scene.json --check                cross-check; exit status 1 on disagreement\n"
    "  proxima run scene.json --method ipm           force the interior-point solver\n"
    "  cat scene.json | proxima run - | jq -c 'select(.status == \"error\")'\n";

namespace {

bool parse_int(const std::string& text, long long max, long long& value) {
  if (text.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || end != text.c_str() + text.size() || v < 1 || v > max) return false;
  value = v;
  return true;
}

bool parse_positive(const std::string& text, double& value) {
  if (text.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (errno != 0 || end != text.c_str() + text.size() || !std::isfinite(v) || !(v > 0)) return false;
  value = v;
  return true;
}

}  // namespace

ParsedRunArgs parse_run_args(const std::vector<std::string>& args) {
  ParsedRunArgs parsed;
  RunOptions& o = parsed.options;
  bool have_source = false;
  bool options_done = false;
  auto error = [&](const std::string& message) {
    parsed.error = message;
    return parsed;
  };
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string arg = args[i];
    const bool is_option = !options_done && arg.size() > 1 && arg[0] == '-';
    if (!is_option) {
      if (have_source) return error("run takes one SCENE.json (or - for stdin), got a second: " + arg);
      o.source = arg;
      have_source = true;
      continue;
    }
    if (arg == "--") {
      options_done = true;
      continue;
    }
    // "--name=value" or "--name value".
    std::string value;
    bool has_inline_value = false;
    if (const auto eq = arg.find('='); arg.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg.resize(eq);
      has_inline_value = true;
    }
    auto take_value = [&](std::string& out) {
      if (has_inline_value) {
        out = value;
        return true;
      }
      if (i + 1 >= args.size()) return false;
      out = args[++i];
      return true;
    };
    auto no_value = [&] { return !has_inline_value; };

    if (arg == "-h" || arg == "--help") {
      parsed.help = true;
      return parsed;
    }
    if (arg == "--format") {
      std::string v;
      if (!take_value(v)) return error("--format: missing value (json or table)");
      if (v == "json") {
        o.format = OutputFormat::json;
      } else if (v == "table") {
        o.format = OutputFormat::table;
      } else {
        return error("--format: expected json or table, got \"" + v + "\"");
      }
    } else if (arg == "--method") {
      std::string v;
      if (!take_value(v)) return error("--method: missing value (gjk, ipm, lp, glide or raster)");
      if (v != "gjk" && v != "ipm" && v != "lp" && v != "glide" && v != "raster") {
        return error("--method: expected gjk, ipm, lp, glide or raster, got \"" + v + "\"");
      }
      o.method = v;
    } else if (arg == "--repeat") {
      std::string v;
      long long n = 0;
      if (!take_value(v)) return error("--repeat: missing value (a whole number >= 1)");
      if (!parse_int(v, kMaxRepeat, n)) {
        return error("--repeat: expected a whole number from 1 to " + std::to_string(kMaxRepeat) + ", got \"" + v + "\"");
      }
      o.repeat = static_cast<int>(n);
    } else if (arg == "--check" && no_value()) {
      o.check = true;
    } else if (arg == "--check-tolerance") {
      std::string v;
      if (!take_value(v)) return error("--check-tolerance: missing value (a number > 0)");
      if (!parse_positive(v, o.check_tolerance)) return error("--check-tolerance: expected a number > 0, got \"" + v + "\"");
    } else if (arg == "--progress" && no_value()) {
      o.progress = ProgressMode::always;
    } else if (arg == "--no-progress" && no_value()) {
      o.progress = ProgressMode::never;
    } else {
      return error("unknown option " + args[i] + " (see proxima run --help)");
    }
  }
  if (!have_source) return error("run needs a SCENE.json (or - for stdin)");
  return parsed;
}

}  // namespace proxima::cli
