// SPDX-License-Identifier: MIT
// Batched time of impact: arrays of poses and velocities (translation) or of start/end pose pairs
// (screw motions) in, arrays of contact flags, times, points, normals and statuses out, on the
// batch layer's thread pool (batch.hpp: same layout, broadcasting, blocks and thread-count
// independence).
//
// Three queries, each element answered by the matching scalar function below, bit for bit:
//  - toi_translate: ccd::toi_translate on two convex shapes (conservative advancement on GJK),
//    A moving with velocity_a[i] and B with velocity_b[i] from their poses over [0, t_max];
//  - toi_screw: ccd::toi_screw on two convex shapes whose relative motion from (a_start, b_start)
//    to (a_end, b_end) is taken as a screw (seed 004), time in [0, 1];
//  - screw_first_contact: ccd::screw_collisions on two meshes (convex or not), reporting the
//    earliest collision of the step (the same relative screw motion).
//
// Bad elements: an element whose pose is invalid (NaN, zero quaternion, ...), whose velocity is
// not finite, or which its scalar function refuses (InvalidInput, e.g. a relative rotation at or
// beyond pi for the screw queries) is, under BadPosePolicy::mark_element, answered with contact 0,
// NaN time, point and normal, 0 iterations and status degenerate_input (detail non_finite for
// NaN/infinite input, none for a refused motion); the rest of the batch is answered. Under the
// default policy the batch runs and then throws the InvalidInput of the lowest bad element with
// the argument and index in the field ("velocity_b[3]", "a_end[7]", "element[5]: rotation ...").
//
// Allocation: none per element for toi_translate and toi_screw (GJK runs on the stack). The mesh
// query allocates inside ccd::screw_collisions (its candidate lists and the collision vector),
// which this layer does not control.
#pragma once

#include <proxima/batch/batch.hpp>
#include <proxima/ccd/screw_collisions.hpp>
#include <proxima/ccd/toi.hpp>
#include <proxima/mesh/mesh.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace proxima::batch {

/// A non-owning view of N vectors (velocities): Vec3 values or rows of 3 doubles.
class VectorArray {
 public:
  VectorArray() = default;
  /// A view of Vec3 values.
  VectorArray(std::span<const Vec3> vectors)  // NOLINT: implicit on purpose
      : objects_(vectors.data()), count_(vectors.size()) {}
  VectorArray(const std::vector<Vec3>& vectors)  // NOLINT: implicit on purpose
      : VectorArray(std::span<const Vec3>(vectors)) {}
  /// A view of `count` rows of 3 doubles (row-major N x 3).
  static VectorArray rows(const double* data, std::size_t count);

  std::size_t size() const noexcept { return count_; }
  /// Element i (no check; may be non-finite).
  Vec3 operator[](std::size_t i) const noexcept {
    if (objects_ != nullptr) return objects_[i];
    return Vec3(data_[3 * i], data_[3 * i + 1], data_[3 * i + 2]);
  }

 private:
  const Vec3* objects_ = nullptr;
  const double* data_ = nullptr;
  std::size_t count_ = 0;
};

/// Options of the convex time-of-impact batches.
struct ToiBatchOptions {
  /// Options of each conservative-advancement run (tolerance, step cap, GJK options).
  ccd::ToiOptions toi{};
  /// Threads (0 = all cores, at most kMaxBatchThreads); results do not depend on it.
  int threads = 0;
  /// Bad elements: throw after the batch (default) or mark them and answer the rest.
  BadPosePolicy bad_poses = BadPosePolicy::throw_invalid_input;
};

/// Options of the mesh screw batch.
struct ScrewBatchOptions {
  /// Options of each screw_collisions run. first_contact_only defaults to true here: the batch
  /// reports only the earliest collision, so the later ones need not be searched.
  ccd::ScrewOptions screw = [] {
    ccd::ScrewOptions o;
    o.first_contact_only = true;
    return o;
  }();
  int threads = 0;
  BadPosePolicy bad_poses = BadPosePolicy::throw_invalid_input;
};

/// Where the time-of-impact batches write (each span empty = not wanted, or of the stated length).
struct ToiOutputs {
  std::span<std::uint8_t> contact{};     ///< N: 1 when the shapes touch within the time range
  std::span<double> toi{};               ///< N: first contact time (NaN when none)
  std::span<double> point{};             ///< 3N (world, at toi)
  std::span<double> normal{};            ///< 3N (world, from A towards B)
  std::span<std::int32_t> iterations{};  ///< N: advancement steps (mesh: intervals + bisections)
  std::span<std::uint8_t> status{};      ///< N: proxima::Status values
  std::span<std::uint8_t> detail{};      ///< N: proxima::Detail values
};

/// The batch size of several arguments (names and lengths; 1 broadcasts). Throws InvalidInput
/// naming the first argument that is empty or of another length than the others.
std::size_t batch_size(std::span<const std::pair<const char*, std::size_t>> arguments);

/// Batched ccd::toi_translate. Element i: scalar_toi_translate(a[i], pose_a[i], velocity_a[i],
/// b[i], pose_b[i], velocity_b[i], t_max, options.toi). t_max (finite, >= 0) and options are
/// validated once (InvalidInput "t_max", "distance_tolerance", ...); lengths as batch.hpp.
void toi_translate(std::span<const AnyConvex> a, const PoseArray& pose_a, const VectorArray& velocity_a,
                   std::span<const AnyConvex> b, const PoseArray& pose_b, const VectorArray& velocity_b, double t_max,
                   const ToiOutputs& out, const ToiBatchOptions& options = {});

/// Batched ccd::toi_screw (time in [0, 1]). Element i: scalar_toi_screw(a[i], a_start[i],
/// a_end[i], b[i], b_start[i], b_end[i], options.toi).
void toi_screw(std::span<const AnyConvex> a, const PoseArray& a_start, const PoseArray& a_end,
               std::span<const AnyConvex> b, const PoseArray& b_start, const PoseArray& b_end, const ToiOutputs& out,
               const ToiBatchOptions& options = {});

/// Batched first contact of ccd::screw_collisions on meshes. Element i:
/// scalar_screw_first_contact(a[i], a_start[i], a_end[i], b[i], b_start[i], b_end[i], options.screw).
void screw_first_contact(std::span<const mesh::Mesh> a, const PoseArray& a_start, const PoseArray& a_end,
                         std::span<const mesh::Mesh> b, const PoseArray& b_start, const PoseArray& b_end,
                         const ToiOutputs& out, const ScrewBatchOptions& options = {});

/// The scalar reference of toi_translate: ccd::toi_translate on the runtime shapes.
ToiResult scalar_toi_translate(const AnyConvex& a, const Pose& pose_a, const Vec3& velocity_a, const AnyConvex& b,
                               const Pose& pose_b, const Vec3& velocity_b, double t_max,
                               const ccd::ToiOptions& options = {});
/// The scalar reference of toi_screw: ccd::toi_screw on the runtime shapes.
ToiResult scalar_toi_screw(const AnyConvex& a, const Pose& a_start, const Pose& a_end, const AnyConvex& b,
                           const Pose& b_start, const Pose& b_end, const ccd::ToiOptions& options = {});
/// The scalar reference of screw_first_contact: ccd::screw_collisions reduced to its earliest
/// collision (contact, toi, point, normal, iterations, status, detail of the ScrewResult).
ToiResult scalar_screw_first_contact(const mesh::Mesh& a, const Pose& a_start, const Pose& a_end, const mesh::Mesh& b,
                                     const Pose& b_start, const Pose& b_end, const ccd::ScrewOptions& options = {});

/// Owning results for C++ callers who do not bring buffers (every field filled).
struct ToiBatch {
  std::vector<std::uint8_t> contact;
  std::vector<double> toi, point, normal;
  std::vector<std::int32_t> iterations;
  std::vector<std::uint8_t> status;
  std::vector<std::uint8_t> detail;
  /// Spans of every field, for the functions above.
  ToiOutputs outputs();
  /// Sized for n elements.
  explicit ToiBatch(std::size_t n = 0);
};

}  // namespace proxima::batch
