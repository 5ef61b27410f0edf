// SPDX-License-Identifier: MIT
// `proxima run --format table`: the answers as an aligned table for people (the JSON lines stay
// the format for programs). Columns: id, kind, method, status, answer, iterations, and with
// --repeat the median / min microseconds, with --check the verdict and the second method.
#pragma once

#include "scene/runner.hpp"
#include "scene/spec.hpp"

#include <cstdio>
#include <string>
#include <vector>

namespace proxima::cli {

class Table {
 public:
  Table(bool timed, bool checked);

  /// One row per query, in input order.
  void add(const scene::QuerySpec& query, const scene::Outcome& outcome);

  /// Writes the header, a rule, the rows, and a summary line ("25 queries, 1 failed").
  void print(std::FILE* out, std::size_t failed) const;

 private:
  bool timed_;
  bool checked_;
  std::vector<std::vector<std::string>> rows_;
  std::vector<bool> right_aligned_;
};

}  // namespace proxima::cli
