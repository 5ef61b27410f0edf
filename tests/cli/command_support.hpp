// SPDX-License-Identifier: MIT
// Runs the built `proxima` command (PROXIMA_CLI_PATH) and parses its JSON lines.
#pragma once

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <cstdio>
#include <vector>

namespace proxima::test {

struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
  std::vector<nlohmann::json> lines;  // stdout parsed line by line (each must be JSON)
};

inline std::string read_text(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

inline std::string scene_path(const std::string& name) {
  // Appending piecewise: GCC 12 warns (-Warray-bounds, a known false positive) on
  // std::string(literal) + literal + name here.
  std::string path(PROXIMA_TEST_DATA_DIR);
  path.append("/scenes/").append(name);
  return path;
}

/// Runs `proxima <args>`, with standard input from `stdin_text` when given. With `json_lines`,
/// every stdout line must be a JSON object (the scene runner's contract).
inline CommandResult run_proxima(const std::string& args, const std::string* stdin_text = nullptr,
                                 bool json_lines = true) {
  // ctest runs test processes in parallel: the file names carry the process id and a call
  // counter so two runs never share a file.
  static int call = 0;
  const std::string dir = ::testing::TempDir();
  const std::string stem = dir + "proxima_cli_" + std::to_string(::getpid()) + "_" + std::to_string(call++);
  const std::string in = stem + "_stdin.txt";
  const std::string out = stem + "_stdout.txt";
  const std::string err = stem + "_stderr.txt";
  if (stdin_text != nullptr) {
    std::ofstream(in, std::ios::binary) << *stdin_text;
  }
  const std::string command = std::string("'") + PROXIMA_CLI_PATH + "' " + args + (stdin_text ? " < '" + in + "'" : " < /dev/null") +
                              " > '" + out + "' 2> '" + err + "'";
  const int status = std::system(command.c_str());
  CommandResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_text(out);
  r.err = read_text(err);
  std::remove(in.c_str());
  std::remove(out.c_str());
  std::remove(err.c_str());
  std::istringstream lines(r.out);
  std::string line;
  while (json_lines && std::getline(lines, line)) {
    try {
      r.lines.push_back(nlohmann::json::parse(line));
    } catch (const nlohmann::json::exception& e) {
      ADD_FAILURE() << "output line is not JSON: " << line << " (" << e.what() << ")";
    }
  }
  return r;
}

/// Runs `proxima run -` on a scene given as text.
inline CommandResult run_scene_text(const std::string& scene) { return run_proxima("run -", &scene); }

}  // namespace proxima::test
