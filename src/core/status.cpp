// SPDX-License-Identifier: MIT
#include <proxima/core/status.hpp>

namespace proxima {

std::string_view to_string(Status status) noexcept {
  switch (status) {
    case Status::converged: return "converged";
    case Status::iteration_limit: return "iteration_limit";
    case Status::degenerate_input: return "degenerate_input";
    case Status::capacity_exceeded: return "capacity_exceeded";
  }
  return "unknown";
}

std::string_view to_string(Detail detail) noexcept {
  switch (detail) {
    case Detail::none: return "none";
    case Detail::duality_gap: return "duality_gap";
    case Detail::repeated_support: return "repeated_support";
    case Detail::no_progress: return "no_progress";
    case Detail::origin_enclosed: return "origin_enclosed";
    case Detail::separating_axis: return "separating_axis";
    case Detail::touching: return "touching";
    case Detail::non_finite: return "non_finite";
    case Detail::degenerate_simplex: return "degenerate_simplex";
    case Detail::face_capacity: return "face_capacity";
    case Detail::scale_out_of_range: return "scale_out_of_range";
  }
  return "unknown";
}

}  // namespace proxima
