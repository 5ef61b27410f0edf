// SPDX-License-Identifier: MIT
// Private: the scale range of screw_collisions (kCcdMinScale / kCcdMaxScale in core/tolerance.hpp
// say why). A query near unit scale runs as given; one far from it runs on copies of its meshes
// and poses with every length multiplied by a power of two (exact), and its lengths are scaled
// back; one outside the range is refused with status degenerate_input, detail scale_out_of_range
// and no collisions.
#pragma once

#include <proxima/ccd/screw_collisions.hpp>

namespace proxima::ccd::detail {

/// True when a query of this scale (sum of the two bounding radii, length units) runs as given:
/// within [2^-64, 2^64] (about 5e-20 to 2e19), well inside the scales at which the unscaled
/// algorithms were measured right (1e-78 to 1e76: beyond, their products of three and four
/// lengths over- and underflow; kCcdMinScale in core/tolerance.hpp).
/// Cost only: any band inside that range gives the same answers up to rounding; the band keeps
/// the copies off every common query.
inline bool near_unit_scale(double scale) { return scale >= 0x1p-64 && scale <= 0x1p64; }

/// screw_collisions of a query whose scale is outside near_unit_scale: refused (degenerate_input,
/// scale_out_of_range, contact false, no collisions, default screw) when the scale is outside
/// [kCcdMinScale, kCcdMaxScale] or a pose's translation is not finite at unit scale; otherwise
/// the query with every length times 2^-e, e = ilogb(scale) (meshes by
/// Mesh::scaled_by_power_of_two, pose translations), answered by screw_collisions, with the
/// points, the screw's axis point and its glide times 2^e. Times, normals and properness are
/// those of the scaled query. Cost: copies of both meshes (O(V + F)) on top of the query.
ScrewResult rescaled_screw_collisions(const mesh::Mesh& a, const Pose& a_start, const Pose& a_end, const mesh::Mesh& b,
                                      const Pose& b_start, const Pose& b_end, const ScrewOptions& options,
                                      double scale);

}  // namespace proxima::ccd::detail
