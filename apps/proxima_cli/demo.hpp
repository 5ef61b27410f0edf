// SPDX-License-Identifier: MIT
// `proxima demo`: runs a built-in scene (no files needed) that exercises every query the library
// answers today and prints an aligned table: query, kind, method, answer, iterations, time.
#pragma once

#include <cstdio>

namespace proxima::cli {

/// Prints the demo table to `out`. Returns 0 when every demo query was answered, 1 otherwise.
int run_demo(std::FILE* out);

/// The built-in scene (DESIGN.md scene format), exposed so tests can check it parses and that
/// each of its answers matches an independent computation.
const char* demo_scene();

}  // namespace proxima::cli
