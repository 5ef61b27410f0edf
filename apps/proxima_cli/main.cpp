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

#include <proxima/version.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr const char* kUsage =
    "usage: proxima run SCENE.json|- [options]   answer the queries of a scene (JSON lines or a table)\n"
    "       proxima view SCENE.json -o OUT.html  write a self-contained 3-D page of the scene\n"
    "       proxima demo                         run the built-in demonstration scene\n"
    "       proxima --version | --help\n"
    "exit status: 0 all queries ok, 1 some queries failed (or disagreed with --check),\n"
    "2 bad usage or a scene that cannot be read\n";

constexpr const char* kExamples =
    "\n"
    "examples:\n"
    "  proxima demo                                  what proxima does, in one table + a web page\n"
    "  proxima run scene.json                        one JSON line per query\n"
    "  proxima run scene.json --format table --repeat 100   a table with median / min microseconds\n"
    "  proxima run scene.json --check                cross-check each answer with a second algorithm\n"
    "  proxima run - < scene.json                    read the scene from standard input\n"
    "  proxima view scene.json -o scene.html         look at it in a browser\n"
    "\n"
    "proxima run --help lists the run options; docs/cli.md and docs/scene-format.md have the rest.\n";

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
    std::printf("proxima %s\n", proxima::kVersionString);
    return kExitOk;
  }
  if (command == "--help" || command == "-h" || command == "help") {
    std::fputs(kUsage, stdout);
    std::fputs(kExamples, stdout);
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
