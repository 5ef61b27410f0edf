// SPDX-License-Identifier: MIT
#include "demo.hpp"

#include "scene/reader.hpp"
#include "scene/runner.hpp"
#include "viewer/page.hpp"

#include <proxima/mesh/generators.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

namespace proxima::cli {
namespace {

// Each query shows one capability; ids say which. Poses use every accepted rotation form.
// @TORUS@ is replaced by the inline mesh of mesh::make_torus() (300 quads, seed 004 section 9.1).
constexpr const char* kDemoScene = R"json({
  "shapes": {
    "ball":     {"type": "sphere", "radius": 0.5},
    "ball2":    {"type": "sphere", "radius": 1.0},
    "crate":    {"type": "box", "half_extents": [1, 0.5, 0.25]},
    "cube":     {"type": "box", "half_extents": [0.5, 0.5, 0.5]},
    "pill":     {"type": "capsule", "radius": 0.25, "half_length": 1},
    "drum":     {"type": "cylinder", "radius": 0.6, "half_height": 0.4},
    "spike":    {"type": "cone", "radius": 0.5, "half_height": 1},
    "egg":      {"type": "ellipsoid", "semiaxes": [1.5, 1, 0.75]},
    "rock":     {"type": "polytope", "vertices": [[0,0,0],[1,0,0],[0,1,0],[0,0,1]]},
    "gem":      {"type": "polytope", "vertices": [[1,0,0],[-1,0,0],[0,1,0],[0,-1,0],[0,0,1.5],[0,0,-1.5]]},
    "can":      {"type": "superquadric", "semiaxes": [1, 1, 1.7], "exponents": [2.0909, 2.2, 13.769]},
    "rounded":  {"type": "minkowski", "a": "cube", "b": {"type": "sphere", "radius": 0.2}},
    "mouse":    {"type": "implicit", "parts": [
                   {"type": "superquadric", "semiaxes": [2, 1, 1.7], "exponents": [2.0909090909090908, 3.4, 2.4285714285714284]},
                   {"type": "halfspace", "normal": [-1, 0, 0], "offset": 0.5},
                   {"type": "halfspace", "normal": [1, 0, 0], "offset": 0.5},
                   {"type": "halfspace", "normal": [0, -1, 0], "offset": 0.75},
                   {"type": "halfspace", "normal": [0, 0, -1], "offset": -0.4}]},
    "diamond":  {"type": "superquadric", "semiaxes": [1, 0.7, 1.5], "exponents": [1.3333333333333333, 1.4, 1.1538461538461537]},
    "cuboid":   {"type": "superquadric", "semiaxes": [1, 1, 1.5], "exponents": [8.4444444444444446, 14.2, 13.769230769230770]},
    "nut":      {"type": "hyperquadric", "terms": [
                   {"plane": [0, 1, 0, 0], "exponent": 16}, {"plane": [1, 0.5, 0, 0], "exponent": 16},
                   {"plane": [1, -0.5, 0, 0], "exponent": 16}, {"plane": [0, 0, 2.5, 0], "exponent": 2}]},
    "pyramid":  {"type": "hyperquadric", "terms": [
                   {"plane": [1, 0, 1, 0], "exponent": 16}, {"plane": [0, 1, 1, 0], "exponent": 16},
                   {"plane": [0, 0, 1, 0], "exponent": 16}, {"plane": [1, 0, -1, 0], "exponent": 16},
                   {"plane": [0, 1, -1, 0], "exponent": 16}]},
    "box_mesh": {"type": "mesh",
                 "vertices": [[-0.5,-0.5,-0.5],[0.5,-0.5,-0.5],[0.5,0.5,-0.5],[-0.5,0.5,-0.5],
                              [-0.5,-0.5,0.5],[0.5,-0.5,0.5],[0.5,0.5,0.5],[-0.5,0.5,0.5]],
                 "faces": [[0,3,2,1],[4,5,6,7],[0,1,5,4],[2,3,7,6],[1,2,6,5],[0,4,7,3]]},
    "bundle":   {"type": "hull", "of": ["ball", {"type": "sphere", "radius": 0.5, "pose": {"translation": [2, 0, 0]}}]},
    "torus":    @TORUS@
  },
  "queries": [
    {"id": "spheres-apart", "kind": "distance", "a": "ball", "b": "ball2",
     "pose_b": {"translation": [3, 0, 0]}},
    {"id": "box-box-apart", "kind": "distance", "a": "crate", "b": "cube",
     "pose_b": {"translation": [0.5, 2, 0.3], "euler_xyz": [0.3, 0.2, 0.1]}},
    {"id": "capsule-cylinder", "kind": "distance", "a": "pill", "b": "drum",
     "pose_a": {"quaternion": [0.9238795325112867, 0.3826834323650898, 0, 0]},
     "pose_b": {"translation": [1.5, 0.2, 0.1]}},
    {"id": "cone-ellipsoid", "kind": "distance", "a": "spike", "b": "egg",
     "pose_b": {"translation": [0, 3, 0.5]}},
    {"id": "tetra-octa", "kind": "distance", "a": "rock", "b": "gem",
     "pose_b": {"translation": [2.5, 1, 0.5], "matrix": [[0,-1,0],[1,0,0],[0,0,1]]}},
    {"id": "superquadric-tetra", "kind": "distance", "a": "can", "b": "rock",
     "pose_b": {"translation": [3, 0, 0], "euler_xyz": [0.1, 0.2, 0.3]}},
    {"id": "rounded-cube-ball", "kind": "distance", "a": "rounded", "b": "ball",
     "pose_b": {"translation": [2, 0.3, 0]}},
    {"id": "hull-ball", "kind": "distance", "a": "bundle", "b": "ball",
     "pose_b": {"translation": [1, 2, 0]}},
    {"id": "spheres-overlap", "kind": "penetration", "a": "ball", "b": "ball2",
     "pose_b": {"translation": [1.2, 0, 0]}},
    {"id": "box-box-overlap", "kind": "penetration", "a": "crate", "b": "cube",
     "pose_b": {"translation": [0.8, 0.6, 0], "euler_xyz": [0, 0, 0.2]}},
    {"id": "tetra-octa-overlap", "kind": "penetration", "a": "rock", "b": "gem",
     "pose_b": {"translation": [0.9, 0.3, 0.2]}},
    {"id": "capsule-cone-overlap", "kind": "penetration", "a": "pill", "b": "spike",
     "pose_b": {"translation": [0.5, 0, 0.3]}},
    {"id": "box-cylinder-hit", "kind": "intersect", "a": "cube", "b": "drum",
     "pose_b": {"translation": [0.9, 0.5, 0]}},
    {"id": "box-cylinder-miss", "kind": "intersect", "a": "cube", "b": "drum",
     "pose_b": {"translation": [1.5, 0.5, 0]}},
    {"id": "toi-spheres", "kind": "toi_translate", "a": "ball", "b": "ball2",
     "pose_b": {"translation": [5, 0, 0]}, "velocity_a": [1, 0, 0], "velocity_b": [-1, 0, 0], "t_max": 3},
    {"id": "toi-box-capsule", "kind": "toi_translate", "a": "cube", "b": "pill",
     "pose_b": {"translation": [0, 4, 0], "euler_xyz": [1.5707963267948966, 0, 0]}, "velocity_b": [0, -2, 0], "t_max": 2},
    {"id": "ipm-can-mouse", "kind": "distance", "a": "can", "b": "mouse",
     "pose_b": {"translation": [4, 0.5, 0], "euler_xyz": [0, 0, 0.3]}},
    {"id": "ipm-diamond-can", "kind": "distance", "method": "ipm", "a": "diamond", "b": "can",
     "pose_b": {"translation": [3, 0.4, 0], "euler_xyz": [0.2, 0, 0]}},
    {"id": "ipm-cuboid-mouse", "kind": "distance", "method": "ipm", "a": "cuboid", "b": "mouse",
     "pose_b": {"translation": [0, 3.5, 0], "euler_xyz": [0, 0, 0.4]}},
    {"id": "ipm-nut-pyramid", "kind": "distance", "a": "nut", "b": "pyramid",
     "pose_b": {"translation": [0.5, 0.3, 2.2], "euler_xyz": [0.3, 0.2, 0]}},
    {"id": "ipm-spheres", "kind": "distance", "method": "ipm", "a": "ball", "b": "ball2",
     "pose_b": {"translation": [3, 0, 0]}},
    {"id": "ipm-flyby", "kind": "interval_translate", "a": "ball", "b": "ball2",
     "pose_b": {"translation": [5, 2, 0]}, "velocity_b": [-1, 0, 0], "t_max": 10},
    {"id": "screw-cubes", "kind": "screw", "a": "box_mesh", "b": "box_mesh",
     "pose_b": {"translation": [2, 0.3, 0.2]}, "pose_b_end": {"translation": [0.2, 0.1, 0.3], "euler_xyz": [0.4, 0.3, 0.5]}},
    {"id": "screw-torus-through-torus", "kind": "screw", "a": "torus", "b": "torus",
     "pose_b": {"translation": [1, 0, 1.6], "euler_xyz": [1.5707963267948966, 0, 0]},
     "pose_b_end": {"translation": [1, 0, -1.6], "euler_xyz": [1.5707963267948966, 0, 1.2]}},
    {"id": "lp-4d-segments", "kind": "lp_intersect",
     "points_a": [[0,0,0,0],[1,0,0,0]], "points_b": [[0.5,0,0,0],[2,2,2,2]]},
    {"id": "lp-6d-simplex-hit", "kind": "lp_intersect",
     "points_a": [[0,0,0,0,0,0],[1,0,0,0,0,0],[0,1,0,0,0,0],[0,0,1,0,0,0],[0,0,0,1,0,0],[0,0,0,0,1,0],[0,0,0,0,0,1]],
     "points_b": [[0.1,0.1,0.1,0.1,0.1,0.1],[2,2,2,2,2,2],[0.1,0.1,3,0.1,0.1,0.1]]},
    {"id": "lp-6d-simplex-miss", "kind": "lp_intersect",
     "points_a": [[0,0,0,0,0,0],[1,0,0,0,0,0],[0,1,0,0,0,0],[0,0,1,0,0,0],[0,0,0,1,0,0],[0,0,0,0,1,0],[0,0,0,0,0,1]],
     "points_b": [[0.5,0.5,0.5,0.5,0.5,0.5],[1,1,1,1,1,1],[0.4,0.6,0.5,0.5,0.5,0.5]]},
    {"id": "lp-polytopes-apart", "kind": "lp_intersect", "a": "rock", "b": "gem",
     "pose_b": {"translation": [2.5, 1, 0.5]}},
    {"id": "lp-polytopes-overlap", "kind": "lp_intersect", "a": "rock", "b": "gem",
     "pose_b": {"translation": [0.9, 0.3, 0.2]}},
    {"id": "lp-tetra-in-octa", "kind": "lp_contains", "a": "rock", "b": "gem",
     "pose_a": {"translation": [-0.2, -0.2, -0.2]}, "pose_b": {"euler_xyz": [0, 0, 0.3]}}
  ]
})json";

// The torus as scene JSON: {"type": "mesh", "vertices": [...], "faces": [...]}.
std::string torus_json() {
  const mesh::Mesh torus = mesh::make_torus();
  std::string out = "{\"type\": \"mesh\", \"vertices\": [";
  char buffer[96];
  for (int v = 0; v < torus.num_vertices(); ++v) {
    const Vec3& p = torus.vertex(v);
    std::snprintf(buffer, sizeof buffer, "%s[%.17g,%.17g,%.17g]", v ? "," : "", p.x(), p.y(), p.z());
    out += buffer;
  }
  out += "], \"faces\": [";
  for (int f = 0; f < torus.num_faces(); ++f) {
    out += f ? ",[" : "[";
    bool first = true;
    for (int id : torus.face(f)) {
      if (!first) out += ',';
      out += std::to_string(id);
      first = false;
    }
    out += ']';
  }
  return out + "]}";
}

std::string format_time(double us) {
  if (!std::isfinite(us)) return "-";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f", us);
  return buffer;
}

// Writes the demo scene's viewer page to kDemoPage in the working directory and says so.
bool write_demo_page(const scene::SceneSpec& spec, std::FILE* out) {
  viewer::PageOptions options;
  options.title = "proxima demo";
  options.initial_query = "screw-torus-through-torus";
  const viewer::Page page = viewer::render_page(spec, options);
  std::ofstream file(kDemoPage, std::ios::binary | std::ios::trunc);
  file.write(page.html.data(), static_cast<std::streamsize>(page.html.size()));
  file.close();
  if (!file) {
    std::fprintf(stderr, "proxima demo: cannot write %s in the working directory\n", kDemoPage);
    return false;
  }
  std::fprintf(out, "\nwrote %s: the scene in 3-D (open it in a browser; no server needed)\n", kDemoPage);
  std::fflush(out);
  return true;
}

}  // namespace

const char* demo_scene() {
  static const std::string scene = [] {
    std::string text = kDemoScene;
    const std::string key = "@TORUS@";
    text.replace(text.find(key), key.size(), torus_json());
    return text;
  }();
  return scene.c_str();
}

int run_demo(std::FILE* out) {
  const scene::SceneSpec spec = scene::read_scene(demo_scene());
  scene::Runner runner(spec);
  // Median over up to 2000 runs or 20 ms per query: enough for a stable microsecond figure.
  const scene::TimingOptions timing{2000, 20000};

  using Row = std::array<std::string, 6>;
  std::vector<Row> rows = {{"query", "kind", "method", "answer", "iterations", "time [us]"}};
  bool all_ok = true;
  for (const auto& query : spec.queries) {
    const scene::Outcome o = runner.run(query, timing);
    all_ok = all_ok && o.ok;
    rows.push_back({query.id, query.kind_name, o.ok ? o.method : "-", o.ok ? o.answer : "error: " + o.message,
                    o.iterations >= 0 ? std::to_string(o.iterations) : "-", format_time(o.microseconds)});
  }
  std::array<std::size_t, 6> width{};
  for (const Row& r : rows) {
    for (std::size_t c = 0; c < r.size(); ++c) width[c] = std::max(width[c], r[c].size());
  }
  std::fprintf(out, "proxima demo: built-in scene, %zu queries (world frame; normals point from a to b;\n"
                    "time = median of repeated runs on this machine)\n\n",
               spec.queries.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    std::string line;
    for (std::size_t c = 0; c < r.size(); ++c) {
      const bool right = c >= 4;  // numbers right-aligned
      const std::string pad(width[c] - r[c].size(), ' ');
      line += (c ? "  " : "") + (right ? pad + r[c] : r[c] + (c + 1 < r.size() ? pad : ""));
    }
    std::fprintf(out, "%s\n", line.c_str());
    if (i == 0) {
      std::size_t total = 0;
      for (std::size_t w : width) total += w;
      std::fprintf(out, "%s\n", std::string(total + 2 * (width.size() - 1), '-').c_str());
    }
  }
  std::fflush(out);
  return write_demo_page(spec, out) && all_ok ? 0 : 1;
}

}  // namespace proxima::cli
