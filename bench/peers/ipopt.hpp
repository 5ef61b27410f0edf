// SPDX-License-Identifier: MIT
// Ipopt as the peer of the ipm suite: the same distance problem min |x - y|^2 over x in A, y in B
// (one constraint per part, gradients by the chain rule, Hessian by Ipopt's L-BFGS), started from
// the objects' interior points like proxima's cold start. Compiled only when pkg-config finds
// Ipopt (PROXIMA_BENCH_HAVE_IPOPT).
#pragma once

#include <proxima/ipm/object.hpp>

namespace proxima::bench {

struct IpoptAnswer {
  bool solved = false;  ///< Ipopt returned Solve_Succeeded
  double distance = 0;
};

/// One Ipopt solve (a fresh application per call, options set once per process).
IpoptAnswer ipopt_distance(const ipm::Object& a, const Pose& pose_a, const ipm::Object& b, const Pose& pose_b);

}  // namespace proxima::bench
