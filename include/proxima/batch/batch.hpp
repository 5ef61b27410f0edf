// SPDX-License-Identifier: MIT
// Batched queries: one shape pair (or arrays of shapes) and arrays of poses in, arrays of results
// out, answered on a small thread pool.
//
// Layout (structure of arrays, the layout numpy and SIMD code want): every output is a flat array
// the caller owns (a std::vector, a numpy buffer); vectors are stored as consecutive x, y, z
// triples, so `point_a` of N results is a row-major N x 3 array. An output span left empty is not
// written (ask only for what you read).
//
// Semantics: element i of every batch query is, bit for bit, what the matching scalar function
// below (scalar_distance, ...) returns for (a[i], pose_a[i], b[i], pose_b[i]): a cold-started GJK
// (no warm start between elements), so a result depends only on its own inputs. Elements are cut
// into contiguous blocks (about 16 per thread, at least 256 elements each) that the threads take
// as they free up, so a thread slowed by another process does not hold up the batch; since each
// answer depends only on its element, the answers do not depend on the number of threads or on
// which thread took which block (tested for 1, 2, 3 and 4 threads). An array of length 1 is
// broadcast to the batch size.
//
// Shape dispatch: the scalar functions are the query layer's (query::intersect, ...): one
// resolution of the pair of runtime types per element, then the templated gjk kernels on the
// concrete shapes. intersect() on one pair of polytopes small enough for the scan support (fewer
// than kPolytopeHillClimbMinVertices vertices each, given as arrays of length 1) runs a kernel
// specialised for that pair instead, with the same answers bit for bit (every output field;
// src/batch/small_polytope.hpp): on a CPU with AVX2 (checked at run time) a structure-of-arrays
// GJK that answers 4 elements at a time in the lanes of the AVX2 registers, elsewhere a scalar
// kernel; both are tested against the scalar query.
//
// No heap allocation per query: results are written in place; the EPA workspace of a penetration
// query lives on the worker's stack. Cost: one GJK (and EPA) run per element plus one pose
// conversion; the pool adds a few microseconds per call.
#pragma once

#include <proxima/core/pose.hpp>
#include <proxima/core/results.hpp>
#include <proxima/gjk/options.hpp>
#include <proxima/shapes/any_convex.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace proxima::batch {

/// How the poses of a PoseArray are stored.
enum class PoseLayout : std::uint8_t {
  objects,     ///< proxima::Pose values (already validated)
  quaternion,  ///< rows of 7 doubles [tx, ty, tz, qw, qx, qy, qz]; the quaternion is normalised
  matrix,      ///< row-major 4 x 4 homogeneous matrices [R t; 0 0 0 1] (R orthonormal, det +1)
};

/// A non-owning view of N poses in one of the layouts above. A raw-array element that is not a
/// valid pose (a NaN or infinite entry, a quaternion shorter than kMinQuaternionNorm, a rotation
/// block that is not a rotation, a last matrix row other than [0 0 0 1]) is detected when the batch
/// reads it; see BadPosePolicy.
class PoseArray {
 public:
  /// An empty array.
  PoseArray() = default;
  /// A view of Pose objects.
  PoseArray(std::span<const Pose> poses)  // NOLINT: implicit on purpose
      : layout_(PoseLayout::objects), objects_(poses.data()), count_(poses.size()) {}
  /// A view of a vector of Pose objects (the vector must outlive the view).
  PoseArray(const std::vector<Pose>& poses)  // NOLINT: implicit on purpose
      : PoseArray(std::span<const Pose>(poses)) {}
  /// A view of `count` rows of 7 doubles [tx, ty, tz, qw, qx, qy, qz] (scalar-first quaternion).
  static PoseArray quaternions(const double* data, std::size_t count);
  /// A view of `count` row-major 4 x 4 matrices (16 doubles each).
  static PoseArray matrices(const double* data, std::size_t count);

  std::size_t size() const noexcept { return count_; }
  PoseLayout layout() const noexcept { return layout_; }
  /// The raw rows of the quaternion and matrix layouts (nullptr for objects).
  const double* data() const noexcept { return data_; }

  /// Element i as a Pose. Returns false (and leaves `out` alone) when it is not a valid pose.
  /// Never throws, never allocates on success.
  bool get(std::size_t i, Pose& out) const noexcept;
  /// Element i as a Pose; throws InvalidInput(field + "[i]") with the reason when it is invalid.
  Pose at(std::size_t i, const std::string& field) const;

 private:
  PoseLayout layout_ = PoseLayout::objects;
  const Pose* objects_ = nullptr;
  const double* data_ = nullptr;
  std::size_t count_ = 0;
};

/// What a batch does with an element whose pose is not valid.
enum class BadPosePolicy : std::uint8_t {
  /// Throw InvalidInput naming the argument and the first bad element ("poses_b[17]: ...") after
  /// the batch ran (outputs are then partially written).
  throw_invalid_input,
  /// Answer the rest: the bad element gets status degenerate_input, detail non_finite, NaN (or
  /// false) results and 0 iterations.
  mark_element,
};

/// Options of every batch query.
struct BatchOptions {
  /// Tolerances and caps of each GJK run (intersect, distance).
  gjk::GjkOptions gjk{};
  /// Tolerances and caps of each EPA run (penetration; its GJK phase uses epa.gjk).
  gjk::EpaOptions epa{};
  /// Number of threads; 0 = std::thread::hardware_concurrency().
  /// Capped at kMaxBatchThreads. Results do not depend on it.
  int threads = 0;
  /// Invalid poses: throw (default) or mark the element.
  BadPosePolicy bad_poses = BadPosePolicy::throw_invalid_input;
};

/// Upper bound on BatchOptions::threads (a larger value throws InvalidInput("threads")).
inline constexpr int kMaxBatchThreads = 256;

/// Where intersect() writes (each span empty = not wanted, or of the stated length).
struct IntersectOutputs {
  std::span<std::uint8_t> intersect{};      ///< N: 1 when the shapes overlap or touch
  std::span<double> separating_axis{};      ///< 3N: unit axis (world) when separated, NaN otherwise
  std::span<std::int32_t> iterations{};     ///< N
  std::span<std::uint8_t> status{};         ///< N: proxima::Status values
  std::span<std::uint8_t> detail{};         ///< N: proxima::Detail values
};

/// Where distance() writes (each span empty = not wanted, or of the stated length).
struct DistanceOutputs {
  std::span<double> distance{};             ///< N
  std::span<std::uint8_t> intersect{};      ///< N
  std::span<double> point_a{};              ///< 3N (world)
  std::span<double> point_b{};              ///< 3N (world)
  std::span<double> normal{};               ///< 3N (world), from A towards B; NaN when intersecting
  std::span<double> gap{};                  ///< N: duality-gap certificate
  std::span<std::int32_t> iterations{};     ///< N
  std::span<std::uint8_t> status{};         ///< N
  std::span<std::uint8_t> detail{};         ///< N
};

/// Where penetration() writes (each span empty = not wanted, or of the stated length).
struct PenetrationOutputs {
  std::span<std::uint8_t> intersect{};      ///< N
  std::span<double> depth{};                ///< N
  std::span<double> normal{};               ///< 3N (world), from A towards B
  std::span<double> point_a{};              ///< 3N (world)
  std::span<double> point_b{};              ///< 3N (world)
  std::span<std::int32_t> iterations{};     ///< N
  std::span<std::uint8_t> status{};         ///< N
  std::span<std::uint8_t> detail{};         ///< N
};

/// The batch size implied by the four inputs: their common length, where length 1 broadcasts.
/// Throws InvalidInput naming the argument ("a", "pose_a", "b", "pose_b") when a length is 0 or
/// differs from the others (and is not 1).
std::size_t batch_size(std::size_t a, std::size_t pose_a, std::size_t b, std::size_t pose_b);

/// Batched gjk::intersect. Element i: scalar_intersect(a[i], pose_a[i], b[i], pose_b[i]).
/// Throws InvalidInput naming the argument on mismatched lengths ("pose_b"), an output span of the
/// wrong length ("out.separating_axis"), threads out of range ("threads"), and, with the default
/// policy, an invalid pose ("pose_a[3]"). The caller's thread takes part in the work.
void intersect(std::span<const AnyConvex> a, const PoseArray& pose_a, std::span<const AnyConvex> b,
               const PoseArray& pose_b, const IntersectOutputs& out, const BatchOptions& options = {});
/// Batched gjk::distance (see intersect for lengths, errors and threads).
void distance(std::span<const AnyConvex> a, const PoseArray& pose_a, std::span<const AnyConvex> b,
              const PoseArray& pose_b, const DistanceOutputs& out, const BatchOptions& options = {});
/// Batched gjk::penetration (GJK + EPA; see intersect for lengths, errors and threads).
void penetration(std::span<const AnyConvex> a, const PoseArray& pose_a, std::span<const AnyConvex> b,
                 const PoseArray& pose_b, const PenetrationOutputs& out, const BatchOptions& options = {});

/// The scalar reference of element i of intersect(): query::intersect (one dispatch, cold GJK).
IntersectResult scalar_intersect(const AnyConvex& a, const Pose& pose_a, const AnyConvex& b, const Pose& pose_b,
                                 const gjk::GjkOptions& options = {});
/// The scalar reference of element i of distance(): query::distance (one dispatch, cold GJK).
DistanceResult scalar_distance(const AnyConvex& a, const Pose& pose_a, const AnyConvex& b, const Pose& pose_b,
                               const gjk::GjkOptions& options = {});
/// The scalar reference of element i of penetration(): query::penetration (one dispatch, cold
/// GJK + EPA; EPA workspace on the stack, about 60 KB).
PenetrationResult scalar_penetration(const AnyConvex& a, const Pose& pose_a, const AnyConvex& b,
                                     const Pose& pose_b, const gjk::EpaOptions& options = {});

/// Owning results of a batch (std::vector per field) for C++ callers who do not bring buffers.
struct IntersectBatch {
  std::vector<std::uint8_t> intersect;
  std::vector<double> separating_axis;
  std::vector<std::int32_t> iterations;
  std::vector<std::uint8_t> status;
  std::vector<std::uint8_t> detail;
};
struct DistanceBatch {
  std::vector<double> distance;
  std::vector<std::uint8_t> intersect;
  std::vector<double> point_a, point_b, normal, gap;
  std::vector<std::int32_t> iterations;
  std::vector<std::uint8_t> status;
  std::vector<std::uint8_t> detail;
};
struct PenetrationBatch {
  std::vector<std::uint8_t> intersect;
  std::vector<double> depth, normal, point_a, point_b;
  std::vector<std::int32_t> iterations;
  std::vector<std::uint8_t> status;
  std::vector<std::uint8_t> detail;
};

/// Allocating conveniences: every field filled.
IntersectBatch intersect(std::span<const AnyConvex> a, const PoseArray& pose_a, std::span<const AnyConvex> b,
                         const PoseArray& pose_b, const BatchOptions& options = {});
DistanceBatch distance(std::span<const AnyConvex> a, const PoseArray& pose_a, std::span<const AnyConvex> b,
                       const PoseArray& pose_b, const BatchOptions& options = {});
PenetrationBatch penetration(std::span<const AnyConvex> a, const PoseArray& pose_a, std::span<const AnyConvex> b,
                             const PoseArray& pose_b, const BatchOptions& options = {});

/// Number of threads a batch with `options` uses (after resolving 0 = hardware concurrency).
int resolved_threads(const BatchOptions& options);

}  // namespace proxima::batch
