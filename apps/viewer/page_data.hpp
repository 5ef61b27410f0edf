// SPDX-License-Identifier: MIT
// The JSON the viewer page reads (private to proxima_viewer and its tests). Layout:
//   {"title", "shapes": {name: {"type", "method", "positions": [x0,y0,z0,...], "triangles":
//    [i0,j0,k0,...]} or {"type", "error"}}, "queries": [{"index", "id", "kind", "a", "b",
//    "ok", "message", "summary", "result": <the `proxima run` output line>, "pose_a", "pose_b":
//    {"p": [x,y,z], "q": [x,y,z,w]}, "motion": {"times", "a", "b"} (optional)}], "initial"}
// Coordinates are local (shapes) or world (answers, poses), rounded to 7 significant digits.
#pragma once

#include "viewer/page.hpp"

#include <nlohmann/json.hpp>

namespace proxima::viewer {

struct PageData {
  nlohmann::ordered_json json;
  int queries = 0;
  int failed_queries = 0;
  int shapes = 0;
};

/// Runs the queries and builds the page's data (see the layout above).
PageData build_page_data(const scene::SceneSpec& scene, const PageOptions& options);

}  // namespace proxima::viewer
