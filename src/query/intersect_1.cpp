// SPDX-License-Identifier: MIT
// Instantiates intersect for the pairs whose A kind lies in dispatch group 1 (see dispatch.hpp).
#include "query/kernels.hpp"

namespace proxima::query::detail {

template IntersectResult intersect_group<1>(const AnyConvex&, const Pose&, const AnyConvex&, const Pose&, const gjk::GjkOptions&);

}  // namespace proxima::query::detail
