// SPDX-License-Identifier: MIT
// The `proxima` command: dispatches to one subcommand per file (commands.hpp).
//   proxima run SCENE.json   answer every query of a scene file, one JSON line per query
//   proxima run -            the same, reading the scene from standard input
//   proxima view SCENE.json -o OUT.html   a self-contained 3-D page of the scene
//   proxima demo             a built-in scene showing each capability, as an aligned table
//   proxima --version | --help
// Exit status: 0 every query answered, 1 some queries failed (their lines say why), 2 bad usage
// or a scene that cannot be read at all.
#include "commands.hpp"
#include "demo.hpp"

#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr const char* kUsage =
    "usage: proxima run SCENE.json   answer the queries of a scene file (one JSON line each)\n"
    "       proxima run -            read the scene from standard input\n"
    "       proxima view SCENE.json -o OUT.html   write a 3-D page of the scene\n"
    "       proxima demo             run the built-in demonstration scene\n"
    "       proxima --version\n"
    "exit status: 0 all queries ok, 1 some queries failed, 2 bad usage or unreadable scene\n";

int usage_error(const std::string& message) {
  std::fprintf(stderr, "proxima: %s\n%s", message.c_str(), kUsage);
  return proxima::cli::kExitUsage;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace proxima::cli;
  if (argc < 2) return usage_error("missing command");
  const std::string command = argv[1];
  const std::vector<std::string> rest(argv + 2, argv + argc);
  if (command == "--version") {
    std::puts("proxima 0.1.0");
    return kExitOk;
  }
  if (command == "--help" || command == "-h" || command == "help") {
    std::fputs(kUsage, stdout);
    return kExitOk;
  }
  if (command == "run") return run_command(rest);
  if (command == "view") return view_command(rest);
  if (command == "demo") {
    if (!rest.empty()) return usage_error("demo takes no arguments");
    return run_demo(stdout);
  }
  return usage_error("unknown command \"" + command + "\"");
}
