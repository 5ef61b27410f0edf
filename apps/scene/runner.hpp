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

/// How `Runner::run` measures time (the demo table). Tests never time anything.
struct TimingOptions {
  /// Repeat each query to take a median time; 0 = run once and do not time.
  int max_repeats = 0;
  /// Stop repeating once this much time (microseconds) has been spent on one query.
  double budget_microseconds = 0;
};

/// One query's answer.
struct Outcome {
  /// The output line: a JSON object with id, status, the answer fields, iterations, converged
  /// (and message on errors). Numbers in shortest round-trip form; NaN fields as null.
  std::string json_line;
  bool ok = false;
  /// The error text when !ok ("queries[2].pose_a.quaternion: ..."), empty otherwise.
  std::string message;
  /// For the demo table: the algorithm that answered ("gjk", "epa", ...), a short human-readable
  /// answer, the iteration count (-1 when not iterative), and the median time when timed (NaN
  /// otherwise).
  std::string method;
  std::string answer;
  int iterations = -1;
  double microseconds = kNaN;
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

 private:
  const SceneSpec& scene_;
  std::unique_ptr<BuiltShapes> built_;
};

}  // namespace proxima::scene
