// SPDX-License-Identifier: MIT
// The ccd suite's independent reference (suites/ccd_oracle.cpp, compiled into the CGAL library
// because CGAL's -frounding-math must not reach the timed code): the first contact time under
// the exact screw motion, from the ccd tests' oracle (tests/ccd/reference.hpp: CGAL's exact
// triangle-triangle predicate at sampled times, the first intersecting sample bisected against the
// previous one). The motion is re-evaluated there with Eigen's AngleAxis, not ccd::Screw::apply.
#pragma once

#include <proxima/ccd/screw.hpp>
#include <proxima/mesh/mesh.hpp>

namespace proxima::bench {

/// Whether this build has the oracle (CGAL found).
bool have_ccd_oracle();

/// First contact time in [0, 1] of A (fixed, its local frame) and B (placed by b_in_a at s = 0
/// and moved by `screw`), NaN when the surfaces never meet. Uniform samples, then bisection to
/// kCcdOracleTolerance. Samples can step over a contact shorter than their spacing, so when the
/// caller has a candidate time (`candidate`, e.g. proxima's answer; NaN for none) that is earlier
/// than the samples' answer, the oracle also searches densely just around it and takes a
/// contact found there. Cost: up to a few hundred surface intersection tests.
double oracle_first_contact(const mesh::Mesh& a, const mesh::Mesh& b, const Pose& b_in_a, const ccd::Screw& screw,
                            double candidate);

/// Bisection width of the oracle's contact times: far below the 1e-9 agreement asked of the
/// exact mode.
inline constexpr double kCcdOracleTolerance = 1e-11;

}  // namespace proxima::bench
