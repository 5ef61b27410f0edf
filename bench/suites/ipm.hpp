// SPDX-License-Identifier: MIT
// The "ipm" suite of proxima_bench (suites/ipm.cpp): implicit objects, proxima's interior-point
// distance, time of first contact, deformations and halfspace scaling, with Ipopt as the peer.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

namespace proxima::bench {

/// Runs the suite, prints its table, writes JSON lines to `json` (when not null); returns the
/// number of proxima answers that were not certified.
int run_ipm_suite(std::uint64_t seed, bool quick, std::ostream* json, const std::string& label);

}  // namespace proxima::bench
