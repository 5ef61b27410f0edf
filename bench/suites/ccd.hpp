// SPDX-License-Identifier: MIT
// The `ccd` suite of proxima_bench (suites/ccd.cpp): continuous collision of rigid polyhedra under
// screw motions (issue 5), proxima's exact / first-contact / raster modes and convex time of
// impact against FCL 0.7's continuous collision on the same seeded motions, judged against the
// first contact time of an independent CGAL oracle.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

namespace proxima::bench {

struct CcdSuiteConfig {
  std::uint64_t seed = 1;
  /// Timing passes; 0 = the suite's default (kCcdDefaultRepeat, 1 with quick).
  int repeat = 0;
  bool quick = false;
  /// Motions per case; 0 = the suite's default (the torus cases take half as many).
  int motions = 0;
  std::string impl_filter;
  std::string label;
  std::ostream* json = nullptr;  // JSON lines go here when set
};

/// Runs the suite, prints its table, writes JSON lines. Returns the wrong answers of the
/// available proxima rows.
int run_ccd_suite(const CcdSuiteConfig& config);

}  // namespace proxima::bench
