// SPDX-License-Identifier: MIT
// InvalidInput: the one exception type proxima throws for bad input. It is thrown where an object
// is built (shapes, poses, options, scene files), never from inside a query on valid objects.
#pragma once

#include <proxima/core/types.hpp>

#include <cmath>
#include <span>
#include <stdexcept>
#include <string>

namespace proxima {

/// Bad input refused at construction. `field()` names the offending field (e.g. "radius",
/// "vertices[3].y", "quaternion"), `what()` says the field, the value and the rule it broke.
class InvalidInput : public std::invalid_argument {
 public:
  InvalidInput(std::string field, const std::string& message)
      : std::invalid_argument(field + ": " + message), field_(std::move(field)) {}

  /// The name of the offending field, as the caller would write it.
  const std::string& field() const noexcept { return field_; }

 private:
  std::string field_;
};

/// Formats a double the way the messages print it (shortest round-trip form, "nan", "inf").
std::string format_number(double value);

/// Throws InvalidInput unless `value` is finite.
void require_finite(const std::string& field, double value);
/// Throws InvalidInput unless every entry of `v` is finite; names the component ("field.x").
void require_finite(const std::string& field, const Vec3& v);
/// Throws InvalidInput unless `value` is finite and > 0.
void require_positive(const std::string& field, double value);
/// Throws InvalidInput unless `value` is finite and >= 0.
void require_non_negative(const std::string& field, double value);
/// Throws InvalidInput unless every entry is finite and > 0.
void require_positive(const std::string& field, const Vec3& v);

}  // namespace proxima
