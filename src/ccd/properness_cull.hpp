// SPDX-License-Identifier: MIT
// Private (raster mode): a face cull before drawing by the time-independent properness estimate
// (docs/benchmarks.md, sessions 29 and 35). In the screen's canonical frame the screw turns about
// the y axis and glides along it, so a direction expressed in the cylindrical frame (radial,
// tangential, axial) of its own point never changes along the motion; at a contact A's and B's
// points coincide and share that frame, so the properness of a feature pair is a function of the
// pair alone, up to where on the features the contact lies (the drift, bounded by the features'
// azimuth spans as chords of their radial directions).
#pragma once

#include <vector>

#include <proxima/mesh/mesh.hpp>

namespace proxima::ccd::detail {

/// Marks in skip_a / skip_b (sized num_faces, 0 or 1; faces already marked stay marked) the faces
/// of A and B none of whose feature pairs with a feature of the other body that its swept
/// cylindrical box can reach can have properness >= threshold. Points and normals are in the
/// screen's canonical frame (A fixed, B at s = 0); B turns by theta about y and glides by glide
/// over the step. pad: a length that covers the contact tolerance and rounding (the boxes are
/// widened by it). Conservative: every face that takes part in a reported collision is kept.
/// Returns false (and marks nothing) when it declines (a translation).
bool properness_face_cull(const mesh::Mesh& a, const std::vector<Vec3>& a_points, const std::vector<Vec3>& a_normals,
                          const mesh::Mesh& b, const std::vector<Vec3>& b_points, const std::vector<Vec3>& b_normals,
                          double theta, double glide, double facing_slack, double threshold, double pad, std::vector<unsigned char>& skip_a,
                          std::vector<unsigned char>& skip_b);

}  // namespace proxima::ccd::detail
