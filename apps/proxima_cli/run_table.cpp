// SPDX-License-Identifier: MIT
#include "run_table.hpp"

#include <algorithm>
#include <cmath>

namespace proxima::cli {
namespace {

std::string microseconds(double us) {
  if (!std::isfinite(us)) return "-";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f", us);
  return buffer;
}

// A table cell holds one line: newlines and tabs of messages become spaces.
std::string one_line(std::string s) {
  std::replace_if(s.begin(), s.end(), [](char c) { return c == '\n' || c == '\r' || c == '\t'; }, ' ');
  return s;
}

}  // namespace

Table::Table(bool timed, bool checked) : timed_(timed), checked_(checked) {
  std::vector<std::string> header = {"id", "kind", "method", "status", "answer", "iterations"};
  right_aligned_ = {false, false, false, false, false, true};
  if (timed_) {
    header.insert(header.end(), {"median [us]", "min [us]"});
    right_aligned_.insert(right_aligned_.end(), {true, true});
  }
  if (checked_) {
    header.insert(header.end(), {"check", "check method"});
    right_aligned_.insert(right_aligned_.end(), {false, false});
  }
  rows_.push_back(std::move(header));
}

void Table::add(const scene::QuerySpec& query, const scene::Outcome& o) {
  const std::string id = query.id.empty() ? "(queries[" + std::to_string(query.index) + "])" : query.id;
  std::vector<std::string> row = {one_line(id),
                                  query.kind_name.empty() ? "-" : query.kind_name,
                                  o.ok ? o.method : "-",
                                  o.ok ? "ok" : "error",
                                  one_line(o.ok ? o.answer : o.message),
                                  o.iterations >= 0 ? std::to_string(o.iterations) : "-"};
  if (timed_) row.insert(row.end(), {microseconds(o.microseconds), microseconds(o.min_microseconds)});
  if (checked_) {
    row.push_back(o.check.empty() ? "-" : o.check);
    row.push_back(o.check_method.empty() ? "-" : o.check_method);
  }
  rows_.push_back(std::move(row));
}

void Table::print(std::FILE* out, std::size_t failed) const {
  std::vector<std::size_t> width(rows_.front().size(), 0);
  for (const auto& r : rows_) {
    for (std::size_t c = 0; c < r.size(); ++c) width[c] = std::max(width[c], r[c].size());
  }
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    const auto& r = rows_[i];
    std::string line;
    for (std::size_t c = 0; c < r.size(); ++c) {
      const std::string pad(width[c] - r[c].size(), ' ');
      const bool last = c + 1 == r.size();
      line += (c ? "  " : "") + (right_aligned_[c] ? pad + r[c] : r[c] + (last ? "" : pad));
    }
    std::fprintf(out, "%s\n", line.c_str());
    if (i == 0) {
      std::size_t total = 2 * (width.size() - 1);
      for (std::size_t w : width) total += w;
      std::fprintf(out, "%s\n", std::string(total, '-').c_str());
    }
  }
  std::fprintf(out, "%zu queries, %zu failed%s\n", rows_.size() - 1, failed, checked_ ? " or disagreed" : "");
}

}  // namespace proxima::cli
