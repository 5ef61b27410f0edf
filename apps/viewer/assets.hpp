// SPDX-License-Identifier: MIT
// The page's front-end text, compiled in: apps/viewer/web/page.html and viewer.js, and three.js
// (the npm package pinned in apps/viewer/web/package-lock.json: build/three.module.min.js and
// examples/jsm/controls/OrbitControls.js) as base64 data: URLs for the page's import map. The
// definitions are generated at build time by apps/viewer/web/embed_assets.mjs; no file is read
// at run time.
#pragma once

#include <string_view>

namespace proxima::viewer::assets {

std::string_view page_template();
std::string_view viewer_script();
std::string_view three_module_url();
std::string_view orbit_controls_url();
/// The three.js version inlined ("0.160.1").
std::string_view three_version();

}  // namespace proxima::viewer::assets
