// SPDX-License-Identifier: MIT
// The viewer page: one self-contained HTML file (three.js and the viewer script inlined, the
// scene's geometry and answers as JSON) that a browser opens from disk with no server.
#pragma once

#include "viewer/shape_tessellation.hpp"

#include "scene/spec.hpp"

#include <string>

namespace proxima::viewer {

struct PageOptions {
  /// Shown in the page's title and header.
  std::string title = "proxima scene";
  /// Icosphere level of smooth tessellations (shape_tessellation.hpp).
  int detail = kDefaultDetail;
  /// Id of the query shown first; empty = the first query that has shapes to draw.
  std::string initial_query;
  /// Samples of each motion (screw and translating queries) for the time slider.
  int motion_samples = 121;
};

/// What render_page produced.
struct Page {
  std::string html;
  int queries = 0;         ///< queries in the scene
  int failed_queries = 0;  ///< queries whose answer is an error (shown with their message)
  int shapes = 0;          ///< shapes drawn
};

/// Answers every query of `scene` (scene::Runner, the same answers as `proxima run`), tessellates
/// the shapes they use, samples their motions, and writes the page. Never throws on a bad query
/// or shape: the page shows its error. Cost: one run of each query plus the tessellations.
Page render_page(const scene::SceneSpec& scene, const PageOptions& options = {});

}  // namespace proxima::viewer
