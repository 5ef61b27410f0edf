// SPDX-License-Identifier: MIT
// Private: the raster ("glide rotation") method of screw_collisions, seed 004 sections 4-9.
#pragma once

#include <proxima/ccd/screw_collisions.hpp>

#include <cstdint>
#include <utility>
#include <vector>

namespace proxima::ccd::detail {

/// screw_collisions with ScrewMethod::raster (options already validated). Steps (seed section 9):
/// 1. screw decomposition and the screen's canonical frame, facing the two bodies;
/// 2.-4. both bodies drawn on the screen (raster_screen.hpp): B's forward-facing and A's
///    backward-facing face parts, A doppeled, edges to pixel records sorted by row and hmin;
/// 5. vertex-in-face scans: per projected vertex, the other body's parts whose projection holds it
///    (crossing parity along the row) or passes within the pad, a quarter pixel (the seed's VE / VV
///    cases; raster_screen.hpp, kCandidatePadPerPixel);
/// 6. edge-crossing scan: per row, pairs of non-virtual edge records of A and B whose screen
///    pieces meet within the pad, with the time estimate t_A - t_B from the pieces (small bodies:
///    the same record pairs found by pairs of edge segments, EdgeScan below);
/// then each candidate is resolved analytically: vertex-face times by the entering roots of the
/// closed-form plane distance (the seed's Newton step, made safe by splitting at the function's
/// turning points), edge-edge times by bracketing the triple product around the screen estimate.
/// A vertex that meets several faces at once (VE, VV) keeps the face of largest properness (seed
/// section 5).
///
/// Before resolving, candidates that cannot give a reported collision are skipped (`cull`): a
/// vertex-face pair whose properness stays below the threshold all step, an edge-edge window or
/// slab whose crossings all would, and an edge-edge root whose segments stay apart or whose
/// properness stays below the threshold near it. `cull` = false resolves them all (the reference
/// the tests check the culls against: the same collisions, bit for bit).
///
/// The working vectors live in a per-thread workspace that keeps its storage between calls (it
/// grows to the largest query the thread has run): a warm query allocates only its result.
/// Which edge-crossing scan step 6 takes (cost only: both give the same candidates, so the same
/// result bit for bit). by_size: pairs of edge segments when they number at most the two bodies'
/// pixel records, else rows; rows and segments force one (the tests compare them). A body that ran
/// out of records is always scanned by rows.
enum class EdgeScan : std::uint8_t { by_size, rows, segments };

ScrewResult raster_screw_collisions(const mesh::Mesh& a, const Pose& a_start, const Pose& a_end, const mesh::Mesh& b,
                                    const Pose& b_start, const Pose& b_end, const ScrewOptions& options,
                                    bool cull = true, EdgeScan edge_scan = EdgeScan::by_size);

struct BodyRaster;

/// The largest x with sqrt(x) <= pad (-inf for a negative pad, NaN for a NaN one): for every x,
/// NaN included, x > squared_reach(pad) exactly when sqrt(x) > pad. The edge-crossing scans
/// compare squared distances with it.
double squared_reach(double pad);

/// Step 5 for one direction: the (vertex of `points`, face of `faces`) candidate pairs, sorted and
/// unique, as raster_screw_collisions finds them (for the tests, which compare the scan with a
/// brute force over every record).
std::vector<std::pair<int, int>> vertex_face_scan(const BodyRaster& points, const BodyRaster& faces, double pad);

/// Step 5 for one direction from the pieces instead of the pixel records (what
/// raster_screw_collisions does for small bodies, whose records it never builds): the same pairs as
/// vertex_face_scan for bodies drawn with `pixel` (for the tests, which compare the two).
std::vector<std::pair<int, int>> vertex_face_scan_by_pieces(const BodyRaster& points, const BodyRaster& faces,
                                                            double pad, double pixel);

/// The small-mesh scans' pre-tests as bit masks (bit i of word i / 64 for entry i, i < n; the
/// words' higher bits zero): entry i passes when k0[i] <= row_hi and k1[i] >= row_lo and, given
/// hlo and hhi, neither hlo[i] > top nor hhi[i] < bottom. k0, k1, hlo and hhi must be readable up
/// to n rounded up to four. `avx2`: four entries per AVX2 compare where the processor has it
/// (raster_avx2_available), else the portable loop; the same bits (the tests compare them).
void raster_pretest_mask(const int* k0, const int* k1, const double* hlo, const double* hhi, int n, int row_lo,
                         int row_hi, double bottom, double top, std::uint64_t* mask, bool avx2);

/// Whether raster_pretest_mask can take AVX2 here, and (for the tests) whether the scans may take it
/// (true by default; false makes them take the portable loop on the calling thread).
bool raster_avx2_available();
void set_raster_avx2_for_tests(bool allowed);

/// Frees the calling thread's raster workspace (ccd::release_thread_storage).
void release_raster_storage();

}  // namespace proxima::ccd::detail
