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
  /// Medians over the separated and over the intersecting pairs alone (reference classes).
  double median_separated_ns = kNaN;
  double median_intersecting_ns = kNaN;
  /// Cold regime (see time_queries): median of single calls made round-robin over the pairs.
  double cold_ns = kNaN;
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

/// Times the query of `suite` on every selected pair for each implementation, `repeat` passes.
/// Two regimes per pass and implementation:
///  - warm (the table's median): for each pair, one untimed call brings that pair's data into the
///    caches and TLB, then a batch of identical calls (>= kMinBatchNs in all) is timed; the
///    sample is (batch time - the clock's own cost) / batch size. The median over all (pass, pair)
///    samples is the per-query cost of the algorithm, independent of how many pairs the case set
///    holds.
///  - cold: one call per pair in turn, each call timed alone (minus the clock's own cost); the
///    median over all calls. Each query then starts on data the previous pairs pushed out, as in
///    an engine's narrow phase over many bodies: hill-climbing supports (random access) pay more
///    here than linear scans (docs/benchmarks.md, "warm and cold"). Timing calls one by one,
///    not whole passes, keeps the scheduler's preemptions out of the median.
/// The passes of the implementations are interleaved (pass r of every implementation before pass
/// r + 1 of any), so a change in machine load hits all of them alike.
void time_queries(const std::vector<Implementation*>& impls, Suite suite, const CaseSet& set,
                  const std::vector<std::size_t>& pairs, int repeat, std::vector<Row>& rows);

/// Shortest timed batch: the steady clock costs ~20-30 ns a read, so a batch of 2 us keeps its
/// share near 1%.
inline constexpr double kMinBatchNs = 2000;

}  // namespace proxima::bench
