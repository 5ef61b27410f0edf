// SPDX-License-Identifier: MIT
// The subcommands of `proxima`, one file each, so the command line grows without one big main.
// Each takes the arguments after its own name and returns the process exit status.
#pragma once

#include <string>
#include <vector>

namespace proxima::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitQueryFailed = 1;
inline constexpr int kExitUsage = 2;

/// `proxima run SCENE.json|- [options]`: answer every query of a scene (run_command.cpp).
int run_command(const std::vector<std::string>& args);

/// `proxima view SCENE.json -o OUT.html`: write a self-contained 3-D page of a scene
/// (view_command.cpp).
int view_command(const std::vector<std::string>& args);

}  // namespace proxima::cli
