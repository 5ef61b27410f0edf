// SPDX-License-Identifier: MIT
#include "viewer/page.hpp"

#include "viewer/assets.hpp"
#include "viewer/page_data.hpp"

#include <stdexcept>

namespace proxima::viewer {
namespace {

// Replaces the first `key` at or after `from` and returns the position after the inserted value,
// so text already inserted (user data) is never searched for the next key. A template without the
// key, in this order, is a build defect.
std::size_t fill(std::string& text, std::string_view key, std::string_view value, std::size_t from) {
  const std::size_t at = text.find(key, from);
  if (at == std::string::npos) throw std::logic_error("viewer page template lacks " + std::string(key));
  text.replace(at, key.size(), value);
  return at + value.size();
}

// Text placed inside a <script> element must not contain "</" (it could close the element);
// JSON allows "\/" for "/", and HTML-sensitive characters in titles are escaped.
std::string script_safe_json(const nlohmann::ordered_json& json) {
  std::string text = json.dump();
  std::string out;
  out.reserve(text.size() + 16);
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '<' && i + 1 < text.size() && text[i + 1] == '/') {
      out += "<\\/";
      ++i;
    } else {
      out += text[i];
    }
  }
  return out;
}

std::string html_escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace

Page render_page(const scene::SceneSpec& scene, const PageOptions& options) {
  const PageData data = build_page_data(scene, options);
  Page page;
  page.queries = data.queries;
  page.failed_queries = data.failed_queries;
  page.shapes = data.shapes;
  page.html = std::string(assets::page_template());
  // In template order (page.html).
  std::size_t at = 0;
  at = fill(page.html, "@TITLE@", html_escape(options.title), at);
  at = fill(page.html, "@THREE_URL@", assets::three_module_url(), at);
  at = fill(page.html, "@ORBIT_URL@", assets::orbit_controls_url(), at);
  at = fill(page.html, "@THREE_VERSION@", assets::three_version(), at);
  at = fill(page.html, "@DATA@", script_safe_json(data.json), at);
  fill(page.html, "@VIEWER_JS@", assets::viewer_script(), at);
  return page;
}

}  // namespace proxima::viewer
