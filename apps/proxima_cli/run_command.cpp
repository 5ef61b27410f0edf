// SPDX-License-Identifier: MIT
// `proxima run`: reads a scene (file or standard input) and writes one JSON line per query, in
// input order. One bad query never loses the others' lines.
#include "commands.hpp"

#include "scene/reader.hpp"
#include "scene/runner.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>

namespace proxima::cli {

int run_command(const std::vector<std::string>& args) {
  if (args.size() != 1) {
    std::fprintf(stderr, "proxima: run takes exactly one SCENE.json (or - for stdin)\n");
    return kExitUsage;
  }
  const std::string& source = args[0];
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
  scene::SceneSpec scene;
  try {
    scene = scene::read_scene(text, base_dir);
  } catch (const scene::SceneFormatError& e) {
    std::fprintf(stderr, "proxima: %s: %s\n", source == "-" ? "<stdin>" : source.c_str(), e.what());
    return kExitUsage;
  }
  scene::Runner runner(scene);
  bool all_ok = true;
  for (const auto& query : scene.queries) {
    const scene::Outcome outcome = runner.run(query);
    all_ok = all_ok && outcome.ok;
    std::fwrite(outcome.json_line.data(), 1, outcome.json_line.size(), stdout);
    std::fputc('\n', stdout);
  }
  std::fflush(stdout);
  return all_ok ? kExitOk : kExitQueryFailed;
}

}  // namespace proxima::cli
