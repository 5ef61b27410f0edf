// SPDX-License-Identifier: MIT
// The `proxima` command:
//   proxima run SCENE.json   answer every query of a scene file, one JSON line per query
//   proxima run -            the same, reading the scene from standard input
//   proxima demo             a built-in scene showing each capability, as an aligned table
//   proxima --version | --help
// Exit status: 0 every query answered, 1 some queries failed (their lines say why), 2 bad usage
// or a scene that cannot be read at all.
#include "demo.hpp"

#include "scene/reader.hpp"
#include "scene/runner.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>

namespace {

constexpr int kExitOk = 0;
constexpr int kExitQueryFailed = 1;
constexpr int kExitUsage = 2;

constexpr const char* kUsage =
    "usage: proxima run SCENE.json   answer the queries of a scene file (one JSON line each)\n"
    "       proxima run -            read the scene from standard input\n"
    "       proxima demo             run the built-in demonstration scene\n"
    "       proxima --version\n"
    "exit status: 0 all queries ok, 1 some queries failed, 2 bad usage or unreadable scene\n";

int usage_error(const std::string& message) {
  std::fprintf(stderr, "proxima: %s\n%s", message.c_str(), kUsage);
  return kExitUsage;
}

int run_scene(const std::string& source) {
  std::string text;
  std::string base_dir;
  if (source == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else {
    std::ifstream file(source, std::ios::binary);
    if (!file || std::filesystem::is_directory(source)) {
      std::fprintf(stderr, "proxima: cannot read %s\n", source.c_str());
      return kExitUsage;
    }
    std::ostringstream buffer;
    buffer << file.rdbuf();
    text = buffer.str();
    base_dir = std::filesystem::path(source).parent_path().string();
  }
  proxima::scene::SceneSpec scene;
  try {
    scene = proxima::scene::read_scene(text, base_dir);
  } catch (const proxima::scene::SceneFormatError& e) {
    std::fprintf(stderr, "proxima: %s: %s\n", source == "-" ? "<stdin>" : source.c_str(), e.what());
    return kExitUsage;
  }
  proxima::scene::Runner runner(scene);
  bool all_ok = true;
  for (const auto& query : scene.queries) {
    const proxima::scene::Outcome outcome = runner.run(query);
    all_ok = all_ok && outcome.ok;
    std::fwrite(outcome.json_line.data(), 1, outcome.json_line.size(), stdout);
    std::fputc('\n', stdout);
  }
  std::fflush(stdout);
  return all_ok ? kExitOk : kExitQueryFailed;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage_error("missing command");
  const std::string command = argv[1];
  if (command == "--version") {
    std::puts("proxima 0.1.0");
    return kExitOk;
  }
  if (command == "--help" || command == "-h" || command == "help") {
    std::fputs(kUsage, stdout);
    return kExitOk;
  }
  if (command == "run") {
    if (argc != 3) return usage_error("run takes exactly one SCENE.json (or - for stdin)");
    return run_scene(argv[2]);
  }
  if (command == "demo") {
    if (argc != 2) return usage_error("demo takes no arguments");
    return proxima::cli::run_demo(stdout);
  }
  return usage_error("unknown command \"" + command + "\"");
}
