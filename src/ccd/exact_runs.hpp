// SPDX-License-Identifier: MIT
// Internal: a check of the exact mode's runs of B's features, a switch for its runs of A's, one for
// its first-contact window and one for its grids' AVX2 loop (src/ccd/screw_collisions.cpp), for tests/ccd/exact_cull_test.cpp.
#pragma once

#include <proxima/core/pose.hpp>
#include <proxima/mesh/mesh.hpp>

namespace proxima::ccd::detail {

// For the motion's screw, over every run of kChunk consecutive faces, vertices and edges of B
// placed as a query places them (from B's frame): the largest of (|c - C| + r - R) / R, by which a
// feature sphere (c, r) placed as the query places it sticks out of its run's sphere (C, R), and
// g / G - 1, by which a feature's growth g exceeds the bound G the query uses before the run's
// growths are made. The slab loop's skips are sound when this is <= 0. (-inf for a B with no runs.)
double exact_run_bound_excess(const Pose& a_start, const Pose& a_end, const mesh::Mesh& b, const Pose& b_start,
                              const Pose& b_end);

// How the exact mode's first-contact slab loop uses the runs of A's features (the cull of B's runs
// before their features' grid queries), for tests/ccd/exact_cull_test.cpp: as made (used), not
// at all (off: the answers the cull must not change), or with every run's radius halved (shrunk:
// a deliberately broken cull, which the test must catch). Per thread; queries read it at their start.
enum class ARunsUse { used, off, shrunk };
void set_a_runs_use_for_tests(ARunsUse use);

// The window on which the exact mode's first-contact slab loop culls its pairs once the slab has
// a collision, for tests/ccd/exact_cull_test.cpp: up to just past the earliest collision found
// (narrowed, as made), the whole slab (slab: the answers the narrowing must not change, but for
// fewer pairs searched), or up to halfway to that collision (early: a deliberately broken window,
// which the test must catch). Per thread; queries read it at their start.
enum class FirstWindow { narrowed, slab, early };
void set_first_window_for_tests(FirstWindow window);

// Whether the exact mode makes B's placed edge spheres only for the runs the slab loop reaches,
// taking the slab count from B's mean edge in its own frame where that decides it (true, as made),
// or all of them up front and the count from their mean (false: the answers that must not change),
// for tests/ccd/exact_cull_test.cpp. Per thread; queries read it at their start.
void set_b_edges_later_for_tests(bool later);

// Whether the exact mode's slab loop places B's vertices at a slab's (or window's) middle run by
// run of kChunk vertices as its runs of vertices and edges need them (true, as made) or all of
// them at the first need (false: the answers that must not change), for
// tests/ccd/exact_cull_test.cpp. Per thread; queries read it at their start.
void set_b_vertices_by_run_for_tests(bool by_run);

// Whether the exact mode's workspace recognises the previous query's meshes by
// Mesh::content_id() before comparing their bytes (true, as made) or by the bytes alone (false:
// the answers the ids must not change), for tests/ccd/workspace_test.cpp. Per thread.
void set_snapshot_ids_for_tests(bool use);

// Whether the exact mode may swap the bodies' roles when B has far more features than A (true,
// as made: screw_collisions) or always walks B's features against A's grids (false: the answers
// the swap must reproduce up to rounding), for tests/ccd/exact_cull_test.cpp. Per thread.
void set_exact_swap_for_tests(bool allowed);

// Whether the exact mode's feature grids may test four spheres at a time with AVX2 (where the
// processor has it; else they take the SSE2 loop), for tests/ccd/exact_cull_test.cpp: both loops
// must give the same answers bit for bit. Per thread; queries read it at their start.
void set_grid_avx2_for_tests(bool allowed);
// True when the processor has AVX2 and the library was built with the SSE2 loops it stands in for.
bool grid_avx2_available();

// The exact mode's growths of B's features made four at a time with AVX2 (growths_avx2), against
// the scalar form, for every face, vertex and edge sphere of mesh m placed in A's frame as a query
// places B, under the motion's screw: returns how many differ bit for bit (0 expected) and sets
// `compared` to how many were compared (0 without AVX2), for tests/ccd/exact_cull_test.cpp.
int exact_setup_avx2_mismatches(const Pose& a_start, const Pose& a_end, const mesh::Mesh& m, const Pose& b_start,
                                const Pose& b_end, int& compared);

}  // namespace proxima::ccd::detail
