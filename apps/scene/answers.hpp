// SPDX-License-Identifier: MIT
// Private to proxima_scene: answers one query on built shapes and lays out its JSON fields.
#pragma once

#include "scene/build.hpp"
#include "scene/spec.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace proxima::scene {

/// A query with its shapes resolved (a, b null for point-list LP queries).
struct QueryInput {
  const QuerySpec& query;
  const BuiltShape* a = nullptr;
  const BuiltShape* b = nullptr;
};

/// The answer fields of one query, or the reason there is none.
struct Answer {
  bool ok = false;
  std::string message;           // when !ok
  std::string method;            // the algorithm that answered
  nlohmann::ordered_json fields = nlohmann::ordered_json::object();  // answer fields, output order
  std::string summary;           // short text for the demo table
  int iterations = -1;           // -1 when not iterative
};

/// Answers the query. Throws InvalidInput only for input the library refuses at call time.
Answer answer_query(const QueryInput& input);

}  // namespace proxima::scene
