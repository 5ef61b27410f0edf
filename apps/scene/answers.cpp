// SPDX-License-Identifier: MIT
#include "scene/answers.hpp"

namespace proxima::scene {

Answer answer_query(const QueryInput& input) {
  Answer a;
  a.message = std::string("query kind ") + to_string(input.query.kind) + " not available yet";
  return a;
}

}  // namespace proxima::scene
