// SPDX-License-Identifier: MIT
// `proxima view SCENE.json -o OUT.html`: answers the scene's queries (as `proxima run` does) and
// writes one self-contained HTML page that shows them in 3-D (apps/viewer/page.hpp).
#include "commands.hpp"

#include "scene/reader.hpp"
#include "viewer/page.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>

namespace proxima::cli {
namespace {

constexpr const char* kViewUsage =
    "usage: proxima view SCENE.json -o OUT.html [--detail LEVEL] [--query ID] [--title TEXT]\n"
    "       proxima view - -o OUT.html          (scene from standard input)\n"
    "\n"
    "Answers every query of the scene (the same answers as `proxima run`) and writes ONE\n"
    "self-contained HTML file (three.js inlined; no server, no network) that shows, per query:\n"
    "  the two shapes at their poses (polytopes and meshes by their faces, smooth shapes as fine\n"
    "  tessellations of their exact surfaces), closest points and segment (distance), penetration\n"
    "  vector and normal (penetration), separating axis or plane, contact points and normals, and\n"
    "  for screw / toi_translate / interval_translate queries the motion path with a time slider.\n"
    "  A list picks the query; drag to orbit, right-drag to pan, wheel to zoom.\n"
    "\n"
    "options:\n"
    "  -o, --output OUT.html  the page to write (required)\n"
    "  --detail LEVEL         tessellation of smooth shapes: icosphere level 1..6 (default 4:\n"
    "                         2562 sampling directions per shape; each level quadruples it)\n"
    "  --query ID             the query shown when the page opens (default: the first one with\n"
    "                         shapes; a page URL ending in #ID does the same)\n"
    "  --title TEXT           page title (default: the scene file name)\n"
    "\n"
    "examples:\n"
    "  proxima view scene.json -o scene.html && xdg-open scene.html\n"
    "  proxima view scene.json -o scene.html --query screw-step --detail 5\n"
    "\n"
    "exit status: 0 page written and every query answered, 1 page written but some queries\n"
    "failed (the page shows why), 2 bad usage, unreadable scene or unwritable output\n";

int usage(const std::string& message) {
  std::fprintf(stderr, "proxima view: %s\n\n%s", message.c_str(), kViewUsage);
  return kExitUsage;
}

}  // namespace

int view_command(const std::vector<std::string>& args) {
  std::string source;
  std::string output;
  viewer::PageOptions options;
  bool have_title = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const bool has_value = i + 1 < args.size();
    if (arg == "-h" || arg == "--help") {
      std::fputs(kViewUsage, stdout);
      return kExitOk;
    }
    if (arg == "-o" || arg == "--output" || arg == "--detail" || arg == "--query" || arg == "--title") {
      if (!has_value) return usage(arg + " needs a value");
      const std::string& value = args[++i];
      if (arg == "-o" || arg == "--output") {
        output = value;
      } else if (arg == "--query") {
        options.initial_query = value;
      } else if (arg == "--title") {
        options.title = value;
        have_title = true;
      } else {
        char* end = nullptr;
        const long level = std::strtol(value.c_str(), &end, 10);
        if (end == value.c_str() || *end != '\0' || level < 1 || level > 6) {
          return usage("--detail must be an integer from 1 to 6, got \"" + value + "\"");
        }
        options.detail = static_cast<int>(level);
      }
    } else if (arg.size() > 1 && arg[0] == '-') {
      return usage("unknown option \"" + arg + "\"");
    } else if (source.empty()) {
      source = arg;
    } else {
      return usage("more than one scene given (\"" + source + "\", \"" + arg + "\")");
    }
  }
  if (source.empty()) return usage("missing SCENE.json");
  if (output.empty()) return usage("missing -o OUT.html (the page to write)");

  std::string text;
  std::string base_dir;
  if (source == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else {
    std::ifstream file(source, std::ios::binary);
    if (!file || std::filesystem::is_directory(source)) {
      std::fprintf(stderr, "proxima view: cannot read %s\n", source.c_str());
      return kExitUsage;
    }
    std::ostringstream buffer;
    buffer << file.rdbuf();
    text = buffer.str();
    base_dir = std::filesystem::path(source).parent_path().string();
  }
  if (!have_title) options.title = "proxima view: " + (source == "-" ? std::string("<stdin>") : std::filesystem::path(source).filename().string());

  scene::SceneSpec scene;
  try {
    scene = scene::read_scene(text, base_dir);
  } catch (const scene::SceneFormatError& e) {
    std::fprintf(stderr, "proxima view: %s: %s\n", source == "-" ? "<stdin>" : source.c_str(), e.what());
    return kExitUsage;
  }
  bool known = options.initial_query.empty();
  for (const auto& q : scene.queries) known = known || q.id == options.initial_query;
  if (!known) return usage("--query: the scene has no query with id \"" + options.initial_query + "\"");

  const viewer::Page page = viewer::render_page(scene, options);
  std::ofstream out(output, std::ios::binary | std::ios::trunc);
  out.write(page.html.data(), static_cast<std::streamsize>(page.html.size()));
  out.close();
  if (!out) {
    std::fprintf(stderr, "proxima view: cannot write %s\n", output.c_str());
    return kExitUsage;
  }
  std::fprintf(stdout, "proxima view: wrote %s (%d queries, %d failed; %d shapes; %.1f MB). Open it in a browser.\n",
               output.c_str(), page.queries, page.failed_queries, page.shapes,
               static_cast<double>(page.html.size()) / 1e6);
  return page.failed_queries == 0 ? kExitOk : kExitQueryFailed;
}

}  // namespace proxima::cli
