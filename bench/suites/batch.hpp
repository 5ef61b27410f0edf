// SPDX-License-Identifier: MIT
// The "batch" suite of proxima_bench (suites/batch.cpp): throughput of the batch API (issue 7's
// targets) on 1 and 2 threads.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

namespace proxima::bench {

/// Runs the suite, prints its table, writes JSON lines to `json` (when not null). Returns the
/// number of batch answers that differ from the scalar query on the same element (0 expected).
int run_batch_suite(std::uint64_t seed, bool quick, std::ostream* json, const std::string& label);

}  // namespace proxima::bench
