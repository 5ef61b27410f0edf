// SPDX-License-Identifier: MIT
// The public runtime entry points: pick the dispatch group of A's kind, which visits B and runs
// the concrete kernel (dispatch.hpp, kernels.hpp). Nothing here is instantiated per pair.
#include <proxima/query/query.hpp>

#include "query/dispatch.hpp"

#include <proxima/gjk/closed_form.hpp>

#include <cstddef>
#include <type_traits>
#include <utility>
#include <variant>

namespace proxima::query {
namespace {

static_assert(detail::kDispatchGroups == 3, "one case per group below and one <kernel>_<g>.cpp per group");

using Variant = AnyConvex::Variant;

/// Calls f(std::type_identity<S>{}) for each alternative S of AnyConvex's variant, in order,
/// until one returns true; true if one did.
template <class F>
constexpr bool any_alternative(F&& f) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return (f(std::type_identity<std::variant_alternative_t<I, Variant>>{}) || ...);
  }(std::make_index_sequence<std::variant_size_v<Variant>>{});
}

/// True when some kind B makes (A, B) a pair of gjk::has_closed_form_distance.
template <class A>
constexpr bool has_closed_form_partner = any_alternative(
    []<class B>(std::type_identity<B>) { return gjk::has_closed_form_distance<A, B>; });

/// gjk::closed_form_distance for exactly the pairs of gjk::has_closed_form_distance (derived from
/// it at compile time, so a new closed form reaches this path by itself); false for every other
/// pair. A chain of variant index tests over the few kinds with a closed form, not a double
/// visit: this runs before every cold runtime distance query.
bool closed_form_distance(const AnyConvex& a, const Pose& pose_a, const AnyConvex& b, const Pose& pose_b,
                          DistanceResult& r) {
  const Variant& va = a.variant();
  const Variant& vb = b.variant();
  return any_alternative([&]<class A>(std::type_identity<A>) {
    if constexpr (has_closed_form_partner<A>) {
      const A* sa = std::get_if<A>(&va);
      if (sa == nullptr) return false;
      return any_alternative([&]<class B>(std::type_identity<B>) {
        if constexpr (gjk::has_closed_form_distance<A, B>) {
          const B* sb = std::get_if<B>(&vb);
          if (sb == nullptr) return false;
          r = gjk::closed_form_distance(*sa, pose_a, *sb, pose_b);
          return true;
        } else {
          return false;
        }
      });
    } else {
      return false;
    }
  });
}

}  // namespace

DistanceResult distance(const AnyConvex& a, const Pose& pose_a, const AnyConvex& b, const Pose& pose_b,
                        const gjk::GjkOptions& options, gjk::WarmStart& warm) {
  switch (detail::group_of(a.variant().index())) {
    case 0:
      return detail::distance_group<0>(a, pose_a, b, pose_b, options, warm);
    case 1:
      return detail::distance_group<1>(a, pose_a, b, pose_b, options, warm);
    default:
      return detail::distance_group<2>(a, pose_a, b, pose_b, options, warm);
  }
}

DistanceResult distance(const AnyConvex& a, const Pose& pose_a, const AnyConvex& b, const Pose& pose_b,
                        const gjk::GjkOptions& options) {
  // As gjk::distance's cold overload: the closed-form pairs are answered before a WarmStart is
  // built and the group dispatch entered (the same answer, which the warm path gives from the
  // same closed form; measured in the bench's proxima_query row, docs/benchmarks.md session 15).
  if (options.closed_forms) {
    DistanceResult r;
    if (closed_form_distance(a, pose_a, b, pose_b, r)) return r;
  }
  gjk::WarmStart warm;
  return distance(a, pose_a, b, pose_b, options, warm);
}

IntersectResult intersect(const AnyConvex& a, const Pose& pose_a, const AnyConvex& b, const Pose& pose_b,
                          const gjk::GjkOptions& options) {
  switch (detail::group_of(a.variant().index())) {
    case 0:
      return detail::intersect_group<0>(a, pose_a, b, pose_b, options);
    case 1:
      return detail::intersect_group<1>(a, pose_a, b, pose_b, options);
    default:
      return detail::intersect_group<2>(a, pose_a, b, pose_b, options);
  }
}

PenetrationResult penetration(const AnyConvex& a, const Pose& pose_a, const AnyConvex& b, const Pose& pose_b,
                              const gjk::EpaOptions& options) {
  switch (detail::group_of(a.variant().index())) {
    case 0:
      return detail::penetration_group<0>(a, pose_a, b, pose_b, options);
    case 1:
      return detail::penetration_group<1>(a, pose_a, b, pose_b, options);
    default:
      return detail::penetration_group<2>(a, pose_a, b, pose_b, options);
  }
}

}  // namespace proxima::query
