// SPDX-License-Identifier: MIT
// Instantiates distance for the pairs whose A kind lies in dispatch group 1 (see dispatch.hpp).
#include "query/kernels.hpp"

namespace proxima::query::detail {

template DistanceResult distance_group<1>(const AnyConvex&, const Pose&, const AnyConvex&, const Pose&, const gjk::GjkOptions&, gjk::WarmStart&);

}  // namespace proxima::query::detail
