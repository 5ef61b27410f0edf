// SPDX-License-Identifier: MIT
// Instantiates penetration for the pairs whose A kind lies in dispatch group 1 (see dispatch.hpp).
#include "query/kernels.hpp"

namespace proxima::query::detail {

template PenetrationResult penetration_group<1>(const AnyConvex&, const Pose&, const AnyConvex&, const Pose&, const gjk::EpaOptions&);

}  // namespace proxima::query::detail
