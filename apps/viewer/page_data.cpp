// SPDX-License-Identifier: MIT
#include "viewer/page_data.hpp"

#include "viewer/motion.hpp"

#include "scene/build.hpp"
#include "scene/runner.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <map>

namespace proxima::viewer {
namespace {

using Json = nlohmann::ordered_json;

// 7 significant digits: far below a pixel, and under half the text of full precision.
Json compact(double v) {
  if (!std::isfinite(v)) return nullptr;
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.7g", v);
  return std::strtod(buffer, nullptr);
}

Json pose_json(const Pose& pose) {
  const Eigen::Quaterniond q = pose.quaternion();
  const Vec3& t = pose.translation();
  return Json{{"p", Json::array({compact(t.x()), compact(t.y()), compact(t.z())})},
              {"q", Json::array({compact(q.x()), compact(q.y()), compact(q.z()), compact(q.w())})}};
}

// One shape's drawing, or the reason there is none.
Json shape_json(const scene::SceneSpec& scene, const std::string& name, int detail) {
  Json out;
  const scene::ShapeEntry* entry = scene.find_shape(name);
  if (entry == nullptr) {
    out["error"] = "no shape named \"" + name + "\"";
    return out;
  }
  if (!entry->spec) {
    out["error"] = entry->error;
    return out;
  }
  out["type"] = entry->spec->type;
  const scene::BuiltShape built = scene::build_shape(*entry->spec, scene.base_dir);
  if (!built.error.empty()) {
    out["error"] = built.error;
    return out;
  }
  try {
    const ShapeDrawing drawing = tessellate_shape(built, detail);
    Json positions = Json::array();
    for (const Vec3& v : drawing.mesh.vertices) {
      for (int i = 0; i < 3; ++i) positions.push_back(compact(v[i]));
    }
    Json triangles = Json::array();
    for (const auto& t : drawing.mesh.triangles) {
      for (int i = 0; i < 3; ++i) triangles.push_back(t[i]);
    }
    out["method"] = drawing.method;
    out["positions"] = std::move(positions);
    out["triangles"] = std::move(triangles);
  } catch (const std::exception& e) {
    out["error"] = std::string("cannot be drawn: ") + e.what();
  }
  return out;
}

}  // namespace

PageData build_page_data(const scene::SceneSpec& scene, const PageOptions& options) {
  PageData data;
  Json queries = Json::array();
  std::map<std::string, Json> shapes;  // the shapes the queries use, drawn once each
  scene::Runner runner(scene);
  std::string initial;
  for (const scene::QuerySpec& q : scene.queries) {
    const scene::Outcome outcome = runner.run(q);
    Json item;
    item["index"] = q.index;
    item["id"] = q.id;
    item["kind"] = q.kind_name;
    item["a"] = q.a;
    item["b"] = q.b;
    item["ok"] = outcome.ok;
    item["message"] = outcome.message;
    item["summary"] = outcome.answer;
    item["result"] = Json::parse(outcome.json_line);
    ++data.queries;
    if (!outcome.ok) ++data.failed_queries;
    if (q.error.empty() && !q.a.empty()) {
      item["pose_a"] = pose_json(q.pose_a);
      item["pose_b"] = pose_json(q.pose_b);
      for (const std::string* name : {&q.a, &q.b}) {
        if (shapes.find(*name) == shapes.end()) shapes.emplace(*name, shape_json(scene, *name, options.detail));
      }
      if (const auto motion = sample_motion(q, options.motion_samples)) {
        Json m{{"times", Json::array()}, {"a", Json::array()}, {"b", Json::array()}};
        for (std::size_t i = 0; i < motion->times.size(); ++i) {
          m["times"].push_back(compact(motion->times[i]));
          m["a"].push_back(pose_json(motion->a[i]));
          m["b"].push_back(pose_json(motion->b[i]));
        }
        item["motion"] = std::move(m);
      }
      if (initial.empty()) initial = q.id;
    }
    queries.push_back(std::move(item));
  }
  if (!options.initial_query.empty()) initial = options.initial_query;
  Json shape_map = Json::object();
  for (auto& [name, shape] : shapes) {
    if (!shape.contains("error")) ++data.shapes;
    shape_map[name] = std::move(shape);
  }
  data.json["title"] = options.title;
  data.json["initial"] = initial;
  data.json["shapes"] = std::move(shape_map);
  data.json["queries"] = std::move(queries);
  return data;
}

}  // namespace proxima::viewer
