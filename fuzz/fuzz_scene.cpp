// SPDX-License-Identifier: MIT
// libFuzzer target: any bytes as a scene file (apps/scene): read_scene, then run every query.
// Accepted outcomes: SceneFormatError for an unusable file; per-query error lines for bad shapes
// and queries (InvalidInput turned into a message by the runner). Findings: a crash, a hang, a
// sanitizer report, any other exception escaping read_scene or Runner::run, an "internal error"
// or "cannot be built" outcome (the runner's and the shape builder's wrappers for an exception
// that is not InvalidInput), an output line that
// is not a JSON object, or an ok line with status other than "ok".
//
// Mesh files: a scene may name any path ("file": "/dev/zero"), which would make the fuzzer read
// the machine's files; queries whose shapes reference a file are skipped (the reader's handling
// of the name itself is still exercised). The mesh readers have their own target (fuzz_mesh).
#include "scene/reader.hpp"
#include "scene/runner.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <string_view>
#include <variant>

namespace {

using namespace proxima::scene;

// True when the shape or one of its operands loads a mesh file (named operands are stored
// resolved, as copies of the named spec, so walking the spec tree sees them).
bool uses_file(const SceneSpec& scene, const ShapeSpec& spec, int depth) {
  if (depth > 2 * kMaxShapeNesting) return true;
  return std::visit(
      [&](const auto& v) -> bool {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, MeshSpec>) {
          return !v.file.empty();
        } else if constexpr (std::is_same_v<T, MinkowskiSpec>) {
          for (const ShapeSpec& s : v.operands)
            if (uses_file(scene, s, depth + 1)) return true;
          return false;
        } else if constexpr (std::is_same_v<T, HullSpec>) {
          for (const ShapeSpec& s : v.of)
            if (uses_file(scene, s, depth + 1)) return true;
          return false;
        } else if constexpr (std::is_same_v<T, ImplicitSpec>) {
          for (const ShapeSpec& s : v.parts)
            if (uses_file(scene, s, depth + 1)) return true;
          return false;
        } else {
          return false;
        }
      },
      spec.value);
}

[[noreturn]] void finding(const std::string& what) {
  std::fprintf(stderr, "fuzz_scene finding: %s\n", what.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  SceneSpec scene;
  try {
    scene = read_scene(text, "/nonexistent-fuzz-dir");
  } catch (const SceneFormatError&) {
    return 0;  // unusable as a whole: the documented outcome
  }
  // Any other exception propagates: libFuzzer reports it as a crash (uncaught exception).
  // Named shapes may reference each other by name; a shape that loads a file taints its users.
  std::set<std::string> file_shapes;
  for (const ShapeEntry& e : scene.shapes)
    if (e.spec && uses_file(scene, *e.spec, 0)) file_shapes.insert(e.name);
  Runner runner(scene);
  for (const QuerySpec& q : scene.queries) {
    if (file_shapes.count(q.a) != 0 || file_shapes.count(q.b) != 0) continue;
    const Outcome out = runner.run(q);
    // The runner and the shape builder flag exceptions other than InvalidInput ("internal error",
    // "cannot be built"); the message text itself may echo fuzzed names and kinds.
    if (out.internal_error) finding(out.message);
    const nlohmann::json line = nlohmann::json::parse(out.json_line, nullptr, /*allow_exceptions=*/false);
    if (!line.is_object()) finding("output is not a JSON object: " + out.json_line);
    const auto status = line.find("status");
    if (status == line.end() || !status->is_string()) finding("no status: " + out.json_line);
    if (out.ok != (*status == "ok")) finding("ok flag and status disagree: " + out.json_line);
  }
  return 0;
}
