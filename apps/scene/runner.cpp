// SPDX-License-Identifier: MIT
#include "scene/runner.hpp"

#include "scene/answers.hpp"
#include "scene/build.hpp"
#include "scene/check.hpp"

#include <proxima/core/error.hpp>

#include <algorithm>
#include <chrono>
#include <vector>

namespace proxima::scene {

using Json = nlohmann::ordered_json;

class BuiltShapes {
 public:
  explicit BuiltShapes(const SceneSpec& scene) : scene_(scene) {}

  // The built shape named `name`, or the error that prevents it (message starts with its path).
  const BuiltShape& get(const std::string& name) {
    const auto it = cache_.find(name);
    if (it != cache_.end()) return it->second;
    BuiltShape built;
    const ShapeEntry* entry = scene_.find_shape(name);
    if (entry == nullptr) {
      built.error = "no shape named \"" + name + "\"";
    } else if (!entry->spec) {
      built.error = entry->error;
    } else {
      built = build_shape(*entry->spec, scene_.base_dir);
    }
    return cache_.emplace(name, std::move(built)).first->second;
  }

 private:
  const SceneSpec& scene_;
  std::map<std::string, BuiltShape> cache_;
};

namespace {

Json error_line(const QuerySpec& q, const std::string& message) {
  Json line;
  line["id"] = Json::parse(q.id_json);
  line["status"] = "error";
  if (!q.kind_name.empty()) line["kind"] = q.kind_name;
  line["message"] = message;
  return line;
}

}  // namespace

Runner::Runner(const SceneSpec& scene) : scene_(scene), built_(std::make_unique<BuiltShapes>(scene)) {}
Runner::~Runner() = default;

Outcome Runner::run(const QuerySpec& q, const TimingOptions& timing) {
  RunOptions options;
  options.timing = timing;
  return run(q, options);
}

Outcome Runner::run(const QuerySpec& q, const RunOptions& options) {
  const TimingOptions& timing = options.timing;
  Outcome out;
  auto fail = [&](const std::string& message) {
    out.ok = false;
    out.message = message;
    out.json_line = error_line(q, message).dump();
    return out;
  };
  if (!q.error.empty()) return fail(q.error);

  const std::string path = "queries[" + std::to_string(q.index) + "]";
  QueryInput input{q, nullptr, nullptr};
  if (!q.a.empty()) {
    const BuiltShape& a = built_->get(q.a);
    out.internal_error = a.internal_error;
    if (!a.error.empty()) return fail(path + ".a: shape \"" + q.a + "\" is invalid: " + a.error);
    const BuiltShape& b = built_->get(q.b);
    out.internal_error = b.internal_error;
    if (!b.error.empty()) return fail(path + ".b: shape \"" + q.b + "\" is invalid: " + b.error);
    input.a = &a;
    input.b = &b;
  }

  Answer answer;
  try {
    answer = answer_query(input);
    if (timing.max_repeats > 0 && answer.ok) {
      // Repeated runs, bounded by both a count and a time budget (the first, untimed run above
      // builds caches and warms the code).
      std::vector<double> times;
      double spent = 0;
      for (int r = 0; r < timing.max_repeats && spent < timing.budget_microseconds; ++r) {
        const auto start = std::chrono::steady_clock::now();
        const Answer again = answer_query(input);
        const auto stop = std::chrono::steady_clock::now();
        const double us = std::chrono::duration<double, std::micro>(stop - start).count();
        times.push_back(us);
        spent += us;
        if (!again.ok) break;
      }
      if (!times.empty()) {
        std::sort(times.begin(), times.end());
        const std::size_t n = times.size();
        out.microseconds = n % 2 == 1 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
        out.min_microseconds = times.front();
        out.timed_runs = static_cast<int>(n);
      }
    }
  } catch (const InvalidInput& e) {
    return fail(path + ": " + e.what());
  } catch (const std::exception& e) {
    out.internal_error = true;
    return fail(path + ": internal error: " + e.what());
  }
  if (!answer.ok) return fail(path + ": " + answer.message);

  Json line;
  line["id"] = Json::parse(q.id_json);
  line["status"] = "ok";
  line["kind"] = q.kind_name;
  line["method"] = answer.method;
  for (const auto& item : answer.fields.items()) line[item.key()] = item.value();
  // Additions of `proxima run` (docs/scene-format.md): new fields after the contract's fields.
  if (timing.add_fields && out.timed_runs > 0) {
    line["time_us"] = out.microseconds;
    line["time_min_us"] = out.min_microseconds;
    line["repeats"] = out.timed_runs;
  }
  if (options.check) {
    const CheckReport report = cross_check(input, answer, options.check_tolerance);
    out.check = report.verdict;
    out.check_method = report.method;
    out.check_detail = report.detail;
    line["check"] = report.verdict;
    line["check_method"] = report.method.empty() ? Json(nullptr) : Json(report.method);
    line["check_detail"] = report.detail;
  }
  out.ok = true;
  out.json_line = line.dump();
  out.method = answer.method;
  out.answer = answer.summary;
  out.iterations = answer.iterations;
  return out;
}

}  // namespace proxima::scene
