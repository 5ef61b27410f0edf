// SPDX-License-Identifier: MIT
// `proxima demo`: runs a built-in scene (no files needed) that exercises every query the library
// answers today and prints an aligned table: query, kind, method, answer, iterations, time; then
// writes the scene's 3-D page (apps/viewer/page.hpp) to proxima-demo.html in the working directory.
#pragma once

#include <cstdio>

namespace proxima::cli {

/// The page the demo writes, in the working directory.
inline constexpr const char* kDemoPage = "proxima-demo.html";

/// Prints the demo table to `out`, writes kDemoPage and prints its name. Returns 0 when every demo
/// query was answered and the page was written, 1 otherwise.
int run_demo(std::FILE* out);

/// The built-in scene (DESIGN.md scene format), exposed so tests can check it parses and that
/// each of its answers matches an independent computation.
const char* demo_scene();

}  // namespace proxima::cli
