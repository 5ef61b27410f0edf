// SPDX-License-Identifier: MIT
// Runs the queries of a scene and formats each answer as one JSON line (DESIGN.md "Scene files",
// output). Shapes are built from their specs on first use and reused by later queries; a shape
// that cannot be built fails only the queries that use it.
#pragma once

#include "scene/spec.hpp"

#include <proxima/core/types.hpp>

#include <map>
#include <memory>
#include <string>

namespace proxima::scene {

/// How `Runner::run` measures time (the demo table, `proxima run --repeat N`). Tests never
/// assert on times.
struct TimingOptions {
  /// Repeat each query to take a median time; 0 = run once and do not time.
  int max_repeats = 0;
  /// Stop repeating once this much time (microseconds) has been spent on one query.
  double budget_microseconds = 0;
  /// Add the timing to the JSON line as new fields: "time_us" (median), "time_min_us" and
  /// "repeats" (the number of timed runs). Off for the demo, on for `proxima run --repeat`.
  bool add_fields = false;
};

/// Everything `Runner::run` may do beyond answering.
struct RunOptions {
  TimingOptions timing;
  /// Answer a second time with an independent algorithm (check.hpp) and add "check",
  /// "check_method" and "check_detail" to the JSON line.
  bool check = false;
  /// Agreement band of the check, relative to the query's scale (check.hpp).
  double check_tolerance = 1e-6;
};

/// One query's answer.
struct Outcome {
  /// The output line: a JSON object with id, status, the answer fields, iterations, converged
  /// (and message on errors). Numbers in shortest round-trip form; NaN fields as null.
  std::string json_line;
  bool ok = false;
  /// The error text when !ok ("queries[2].pose_a.quaternion: ..."), empty otherwise.
  std::string message;
  /// True when the error is not the input's fault: an exception other than InvalidInput inside
  /// the library or the shape builder ("internal error", "cannot be built"). Always a bug.
  bool internal_error = false;
  /// For the demo table: the algorithm that answered ("gjk", "epa", ...), a short human-readable
  /// answer, the iteration count (-1 when not iterative), and the median time when timed (NaN
  /// otherwise).
  std::string method;
  std::string answer;
  int iterations = -1;
  double microseconds = kNaN;
  /// Fastest timed run (NaN when not timed) and the number of timed runs.
  double min_microseconds = kNaN;
  int timed_runs = 0;
  /// With RunOptions::check: "agree", "disagree" or "none" (no second algorithm applies);
  /// empty when not checked or when the query failed. `check_detail` says what was compared.
  std::string check;
  std::string check_method;
  std::string check_detail;
};

class BuiltShapes;  // the shapes built so far (runner.cpp)

/// Runs the queries of one scene. Holds the scene by reference: it must outlive the runner.
class Runner {
 public:
  explicit Runner(const SceneSpec& scene);
  ~Runner();
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;

  /// Answers one query of the scene; never throws on bad input (that becomes an error outcome).
  Outcome run(const QuerySpec& query, const TimingOptions& timing = {});
  /// The same, with a cross-check when options.check is set.
  Outcome run(const QuerySpec& query, const RunOptions& options);

 private:
  const SceneSpec& scene_;
  std::unique_ptr<BuiltShapes> built_;
};

}  // namespace proxima::scene
