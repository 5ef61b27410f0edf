// SPDX-License-Identifier: MIT
#include <proxima/core/error.hpp>

#include <charconv>

namespace proxima {

std::string format_number(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[32];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return ec == std::errc{} ? std::string(buffer, end) : std::string("?");
}

void require_finite(const std::string& field, double value) {
  if (!std::isfinite(value)) throw InvalidInput(field, "must be finite, got " + format_number(value));
}

void require_finite(const std::string& field, const Vec3& v) {
  static constexpr const char* kAxis[3] = {".x", ".y", ".z"};
  for (int i = 0; i < 3; ++i) require_finite(field + kAxis[i], v[i]);
}

void require_positive(const std::string& field, double value) {
  require_finite(field, value);
  if (!(value > 0)) throw InvalidInput(field, "must be > 0, got " + format_number(value));
}

void require_non_negative(const std::string& field, double value) {
  require_finite(field, value);
  if (!(value >= 0)) throw InvalidInput(field, "must be >= 0, got " + format_number(value));
}

void require_positive(const std::string& field, const Vec3& v) {
  static constexpr const char* kAxis[3] = {".x", ".y", ".z"};
  for (int i = 0; i < 3; ++i) require_positive(field + kAxis[i], v[i]);
}

}  // namespace proxima
