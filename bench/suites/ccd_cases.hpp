// SPDX-License-Identifier: MIT
// The inputs of the ccd suite: shape pairs (cube-cube, car-car, the car's convex hull, torus-torus,
// L-prism vs torus) and, per pair, seeded screw motions of B past or through A. Every
// implementation of the suite (proxima's modes, FCL's continuous collision) answers the same
// motions; the reference first contact times live here too, filled by the suite.
#pragma once

#include <proxima/core/pose.hpp>
#include <proxima/mesh/mesh.hpp>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace proxima::bench {

/// One step of both bodies: A from a_start to a_end, B from b_start to b_end (world frame).
struct CcdMotion {
  Pose a_start, a_end, b_start, b_end;
  /// B's poses in A's frame at the start and at the end of the step. The relative motion between
  /// them is the screw every implementation is asked about (seed 004 eq. (1)): peers that move
  /// both bodies by their own interpolation would answer a different motion, so they get A fixed
  /// at the identity and B moving from b_in_a_start to b_in_a_end.
  Pose b_in_a_start, b_in_a_end;
  /// Generated as a pass-through: B's bounding sphere is clear of A's at both ends of the step, so
  /// any contact begins and ends inside the step (the tunneling that discrete checks at the step's
  /// ends never see).
  bool tunneling = false;
};

/// A shape pair and its motions. When both bodies are convex, their convex views are set too
/// (a Box when the body is a box, always the hull's vertices for a Polytope).
struct CcdCase {
  CcdCase(std::string case_name, mesh::Mesh mesh_a, mesh::Mesh mesh_b)
      : name(std::move(case_name)), a(std::move(mesh_a)), b(std::move(mesh_b)) {}
  std::string name;
  mesh::Mesh a, b;
  bool convex = false;
  /// Half extents when the body is an axis-aligned box centred at its origin (the cube rows).
  std::optional<Vec3> box_a, box_b;
  std::vector<CcdMotion> motions;
  /// Reference first contact time per motion (NaN: no contact in the step); see suites/ccd.cpp.
  std::vector<double> reference_toi;
  /// Whether reference_toi[i] comes from the independent CGAL oracle (else from proxima's exact
  /// mode, which the oracle validated on the other motions).
  std::vector<bool> oracle_checked;
};

/// Seeded random screw motions for the pair (a, b): A turns by up to 0.1 rad and shifts by up to
/// 0.1; B starts with its bounding sphere just clear of A's (1.02 to 1.52 times the sum of the
/// radii from A's centre) and travels along a random line, turning by up to 45 degrees relative
/// to A. Half the motions are general (the line passes at up to 1.2 times the sum of the radii
/// from A's centre; B ends 0.5 to 3 sums of radii beyond A's centre, so some stop inside A, some
/// pass, some miss), half are pass-throughs (line within 0.4 sums of radii of A's centre, B ends
/// clear of A: `tunneling`). The same distributions as the ccd tests' random motions.
std::vector<CcdMotion> make_ccd_motions(const mesh::Mesh& a, const mesh::Mesh& b, int count, std::uint64_t seed);

/// The suite's cases with `motions` motions each (torus cases: motions / 2, rounded up, as they
/// cost about 100 times more per query).
std::vector<CcdCase> make_ccd_cases(int motions, std::uint64_t seed);

}  // namespace proxima::bench
