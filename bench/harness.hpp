// SPDX-License-Identifier: MIT
// Timing and judging: one (suite, case set, implementation) cell of the table.
#pragma once

#include "common.hpp"
#include "reference/reference.hpp"

#include <string>
#include <vector>

namespace proxima::bench {

/// One row of the output table / one JSON line.
struct Row {
  std::string suite;
  std::string case_name;
  std::string implementation;
  double median_ns = kNaN;
  /// Timed queries (samples x batch) and the pairs they cover.
  std::size_t queries = 0;
  std::size_t pairs = 0;
  int wrong = 0;
  int checked = 0;
  /// Largest |answer - reference| among checked numeric answers (distance or depth), length units.
  double max_error = 0;
  /// proxima's median / this median (filled once all rows of the case are known).
  double ratio = kNaN;
};

/// Answers of one implementation on the selected pairs, from the untimed checking pass.
struct Answers {
  std::vector<bool> intersect;
  std::vector<DistanceAnswer> distance;
  std::vector<DepthAnswer> depth;
};

/// Runs every selected pair once (untimed) and keeps the answers.
Answers collect_answers(Implementation& impl, Suite suite, const std::vector<std::size_t>& pairs);

/// Judges answers against set.refs, filling wrong / checked / max_error of `row`.
void judge(const CaseSet& set, Suite suite, const std::vector<std::size_t>& pairs, const Answers& answers,
           Row& row);

/// Times the query of `suite` on every selected pair, `repeat` passes, each sample a batch of
/// identical calls long enough (>= kMinBatchNs) to dwarf the clock's own cost. Fills median_ns
/// (median over all per-query samples) and queries.
void time_queries(Implementation& impl, Suite suite, const std::vector<std::size_t>& pairs, int repeat, Row& row);

/// Shortest timed batch: the steady clock costs ~20-30 ns a read, so a batch of 2 us keeps its
/// share near 1%.
inline constexpr double kMinBatchNs = 2000;

}  // namespace proxima::bench
