// SPDX-License-Identifier: MIT
#include <proxima/batch/batch.hpp>

#include "batch/small_polytope.hpp"
#include "batch/thread_pool.hpp"

#include <proxima/core/error.hpp>
#include <proxima/core/tolerance.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <thread>

namespace proxima::batch {

namespace {

constexpr std::size_t kQuaternionRow = 7;
constexpr std::size_t kMatrixRow = 16;
constexpr std::size_t kNone = detail::kNoElement;

bool all_finite(const double* p, std::size_t n) {
  for (std::size_t k = 0; k < n; ++k) {
    if (!std::isfinite(p[k])) return false;
  }
  return true;
}

// Element i of a raw layout as a Pose; throws InvalidInput (field names inside the pose).
Pose convert(PoseLayout layout, const double* row) {
  if (layout == PoseLayout::quaternion) {
    // Finite: callers check the whole row first (from_quaternion checks it again, cheaply).
    const Vec3 t(row[0], row[1], row[2]);
    return Pose::from_quaternion(row[3], row[4], row[5], row[6], t);
  }
  Mat3 r;
  Vec3 t;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) r(i, j) = row[4 * i + j];
    t[i] = row[4 * i + 3];
  }
  require_finite("translation", t);
  constexpr int kLastRow = 12;
  if (!(row[kLastRow] == 0.0 && row[kLastRow + 1] == 0.0 && row[kLastRow + 2] == 0.0 && row[kLastRow + 3] == 1.0)) {
    throw InvalidInput("matrix", "last row must be [0, 0, 0, 1], got [" + format_number(row[kLastRow]) + ", " +
                                     format_number(row[kLastRow + 1]) + ", " + format_number(row[kLastRow + 2]) +
                                     ", " + format_number(row[kLastRow + 3]) + "]");
  }
  return Pose::from_matrix(r, t);
}

std::size_t row_size(PoseLayout layout) { return layout == PoseLayout::quaternion ? kQuaternionRow : kMatrixRow; }

std::string indexed(const std::string& field, std::size_t i) { return field + "[" + std::to_string(i) + "]"; }

void check_length(const char* field, std::size_t size, std::size_t expected, std::size_t n) {
  if (size != 0 && size != expected) {
    throw InvalidInput(field, "has " + std::to_string(size) + " entries, expected " + std::to_string(expected) +
                                  (expected == n ? " (the batch size)" : " (3 x the batch size)") +
                                  " or 0 (not wanted)");
  }
}

void put3(std::span<double> out, std::size_t i, const Vec3& v) {
  if (out.empty()) return;
  out[3 * i] = v.x();
  out[3 * i + 1] = v.y();
  out[3 * i + 2] = v.z();
}
template <class T, class V>
void put(std::span<T> out, std::size_t i, V v) {
  if (!out.empty()) out[i] = static_cast<T>(v);
}

void write(const IntersectOutputs& o, std::size_t i, const IntersectResult& r) {
  put(o.intersect, i, r.intersect ? 1 : 0);
  put3(o.separating_axis, i, r.separating_axis);
  put(o.iterations, i, r.iterations);
  put(o.status, i, static_cast<std::uint8_t>(r.status));
  put(o.detail, i, static_cast<std::uint8_t>(r.detail));
}
void write(const DistanceOutputs& o, std::size_t i, const DistanceResult& r) {
  put(o.distance, i, r.distance);
  put(o.intersect, i, r.intersect ? 1 : 0);
  put3(o.point_a, i, r.point_a);
  put3(o.point_b, i, r.point_b);
  put3(o.normal, i, r.normal);
  put(o.gap, i, r.gap);
  put(o.iterations, i, r.iterations);
  put(o.status, i, static_cast<std::uint8_t>(r.status));
  put(o.detail, i, static_cast<std::uint8_t>(r.detail));
}
void write(const PenetrationOutputs& o, std::size_t i, const PenetrationResult& r) {
  put(o.intersect, i, r.intersect ? 1 : 0);
  put(o.depth, i, r.depth);
  put3(o.normal, i, r.normal);
  put3(o.point_a, i, r.point_a);
  put3(o.point_b, i, r.point_b);
  put(o.iterations, i, r.iterations);
  put(o.status, i, static_cast<std::uint8_t>(r.status));
  put(o.detail, i, static_cast<std::uint8_t>(r.detail));
}

void check_outputs(const IntersectOutputs& o, std::size_t n) {
  check_length("out.intersect", o.intersect.size(), n, n);
  check_length("out.separating_axis", o.separating_axis.size(), 3 * n, n);
  check_length("out.iterations", o.iterations.size(), n, n);
  check_length("out.status", o.status.size(), n, n);
  check_length("out.detail", o.detail.size(), n, n);
}
void check_outputs(const DistanceOutputs& o, std::size_t n) {
  check_length("out.distance", o.distance.size(), n, n);
  check_length("out.intersect", o.intersect.size(), n, n);
  check_length("out.point_a", o.point_a.size(), 3 * n, n);
  check_length("out.point_b", o.point_b.size(), 3 * n, n);
  check_length("out.normal", o.normal.size(), 3 * n, n);
  check_length("out.gap", o.gap.size(), n, n);
  check_length("out.iterations", o.iterations.size(), n, n);
  check_length("out.status", o.status.size(), n, n);
  check_length("out.detail", o.detail.size(), n, n);
}
void check_outputs(const PenetrationOutputs& o, std::size_t n) {
  check_length("out.intersect", o.intersect.size(), n, n);
  check_length("out.depth", o.depth.size(), n, n);
  check_length("out.normal", o.normal.size(), 3 * n, n);
  check_length("out.point_a", o.point_a.size(), 3 * n, n);
  check_length("out.point_b", o.point_b.size(), 3 * n, n);
  check_length("out.iterations", o.iterations.size(), n, n);
  check_length("out.status", o.status.size(), n, n);
  check_length("out.detail", o.detail.size(), n, n);
}

// The common driver: validates, cuts [0, n) into contiguous blocks (detail::batch_blocks) that the
// threads take as they free up, and calls solve(begin, end), which answers and writes elements
// [begin, end) and returns the first of them whose pose is invalid (kNone: none); then applies
// the bad-pose policy.
template <class Outputs, class Solve>
void run_blocks(std::span<const AnyConvex> a, const PoseArray& pose_a, std::span<const AnyConvex> b,
                const PoseArray& pose_b, const Outputs& out, const BatchOptions& options, const Solve& solve) {
  const std::size_t n = batch_size(a.size(), pose_a.size(), b.size(), pose_b.size());
  check_outputs(out, n);
  const int threads = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(resolved_threads(options)), n));
  const std::size_t bad = detail::first_marked_in_blocks(n, threads, solve);
  if (options.bad_poses == BadPosePolicy::throw_invalid_input) {
    if (bad != kNone) {
      Pose unused;
      if (!pose_a.get(pose_a.size() == 1 ? 0 : bad, unused)) (void)pose_a.at(pose_a.size() == 1 ? 0 : bad, "pose_a");
      (void)pose_b.at(pose_b.size() == 1 ? 0 : bad, "pose_b");
    }
  }
}

// Element i's poses; false when one is invalid (then the element is written as bad).
bool element_poses(const PoseArray& pose_a, const PoseArray& pose_b, std::size_t i, Pose& pa, Pose& pb) {
  const bool ok_a = pose_a.get(pose_a.size() == 1 ? 0 : i, pa);
  const bool ok_b = pose_b.get(pose_b.size() == 1 ? 0 : i, pb);
  return ok_a && ok_b;
}

template <class Result, class Outputs>
void write_bad(const Outputs& out, std::size_t i) {
  Result bad;
  bad.status = Status::degenerate_input;
  bad.detail = Detail::non_finite;
  write(out, i, bad);
}

// run_blocks with one query(a_i, pose_a_i, b_i, pose_b_i) per element.
template <class Result, class Outputs, class Query>
void run_batch(std::span<const AnyConvex> a, const PoseArray& pose_a, std::span<const AnyConvex> b,
               const PoseArray& pose_b, const Outputs& out, const BatchOptions& options, const Query& query) {
  run_blocks(a, pose_a, b, pose_b, out, options, [&](std::size_t begin, std::size_t end) {
    std::size_t first_bad = kNone;
    Pose pa;
    Pose pb;
    for (std::size_t i = begin; i < end; ++i) {
      if (!element_poses(pose_a, pose_b, i, pa, pb)) {
        if (first_bad == kNone) first_bad = i;
        write_bad<Result>(out, i);
        continue;
      }
      const AnyConvex& sa = a[a.size() == 1 ? 0 : i];
      const AnyConvex& sb = b[b.size() == 1 ? 0 : i];
      write(out, i, query(sa, pa, sb, pb));
    }
    return first_bad;
  });
}

// batch::intersect on one pair of small polytopes (small_polytope.hpp): the elements of a block
// go through in groups; each group's relative poses are formed first (from quaternion rows 4 at a
// time when pose_a is broadcast), then answered 4 at a time in AVX2 lanes when the CPU has them,
// else one by one by the scalar kernel.
void intersect_small_pair(const detail::SmallPolytope& small_a, const detail::SmallPolytope& small_b,
                          std::span<const AnyConvex> a, const PoseArray& pose_a, std::span<const AnyConvex> b,
                          const PoseArray& pose_b, const IntersectOutputs& out, const BatchOptions& options) {
  const detail::KernelPath path = detail::best_path();
  const bool lanes = path == detail::KernelPath::avx2 && detail::lanes_available() && !options.gjk.nesterov;
  // pose_a.inverse() once when pose_a is broadcast (the same value every element computes).
  Pose pose_a0;
  const bool hoist = pose_a.size() == 1 && pose_a.get(0, pose_a0);
  const Pose inverse_a0 = hoist ? pose_a0.inverse() : Pose();
  const bool quaternion_rows = lanes && hoist && pose_b.layout() == PoseLayout::quaternion && pose_b.size() > 1;
  run_blocks(a, pose_a, b, pose_b, out, options, [&](std::size_t begin, std::size_t end) {
    constexpr std::size_t kGroup = detail::PoseGroup::kSize;
    detail::PoseGroup group_poses;        // lanes: the relative poses
    std::array<Pose, kGroup> b_in_a;      // scalar kernel: the relative poses
    std::array<Pose, kGroup> pa_of;       // pose_a per element (when not broadcast)
    std::array<std::size_t, kGroup> index{};
    std::array<IntersectResult, kGroup> results;
    std::array<bool, kGroup> valid{};
    std::size_t first_bad = kNone;
    for (std::size_t group = begin; group < end; group += kGroup) {
      const std::size_t stop = std::min(end, group + kGroup);
      std::size_t m = 0;
      if (quaternion_rows) {
        detail::relative_poses_from_quaternions(inverse_a0, pose_b.data() + 7 * group, stop - group, group_poses,
                                                valid.data());
        for (std::size_t e = 0; e < stop - group; ++e) {
          if (!valid[e]) {  // exactly the rows PoseArray::get refuses
            if (first_bad == kNone) first_bad = group + e;
            write_bad<IntersectResult>(out, group + e);
            continue;
          }
          if (m != e) group_poses.move(e, m);
          index[m++] = group + e;
        }
      } else {
        Pose pa;
        Pose pb;
        for (std::size_t i = group; i < stop; ++i) {
          if (!element_poses(pose_a, pose_b, i, pa, pb)) {
            if (first_bad == kNone) first_bad = i;
            write_bad<IntersectResult>(out, i);
            continue;
          }
          const Pose relative = (hoist ? inverse_a0 : pa.inverse()) * pb;
          if (lanes) {
            group_poses.set(m, relative);
          } else {
            b_in_a[m] = relative;
          }
          if (!hoist) pa_of[m] = pa;
          index[m++] = i;
        }
      }
      if (lanes) {
        detail::intersect_small_polytopes_lanes(small_a, small_b, group_poses, m, options.gjk, results.data());
        for (std::size_t e = 0; e < m; ++e) {
          // The lanes leave the separating axis in A's frame (-lower_bound_direction).
          if (!results[e].intersect) {
            results[e].separating_axis = (hoist ? pose_a0 : pa_of[e]).rotate(results[e].separating_axis);
          }
        }
      } else {
        for (std::size_t e = 0; e < m; ++e) {
          results[e] = detail::intersect_small_polytopes(small_a, hoist ? pose_a0 : pa_of[e], small_b, b_in_a[e],
                                                         options.gjk, path);
        }
      }
      for (std::size_t e = 0; e < m; ++e) write(out, index[e], results[e]);
    }
    return first_bad;
  });
}

}  // namespace

PoseArray PoseArray::quaternions(const double* data, std::size_t count) {
  PoseArray p;
  p.layout_ = PoseLayout::quaternion;
  p.data_ = data;
  p.count_ = count;
  return p;
}

PoseArray PoseArray::matrices(const double* data, std::size_t count) {
  PoseArray p;
  p.layout_ = PoseLayout::matrix;
  p.data_ = data;
  p.count_ = count;
  return p;
}

bool PoseArray::get(std::size_t i, Pose& out) const noexcept {
  if (layout_ == PoseLayout::objects) {
    out = objects_[i];
    return true;
  }
  const double* row = data_ + i * row_size(layout_);
  if (!all_finite(row, row_size(layout_))) return false;
  try {
    out = convert(layout_, row);
    return true;
  } catch (...) {  // InvalidInput: only on the (already rare) bad element
    return false;
  }
}

Pose PoseArray::at(std::size_t i, const std::string& field) const {
  if (i >= count_) {
    throw InvalidInput(field, "index " + std::to_string(i) + " out of range (size " + std::to_string(count_) + ")");
  }
  if (layout_ == PoseLayout::objects) return objects_[i];
  const double* row = data_ + i * row_size(layout_);
  try {
    if (!all_finite(row, row_size(layout_))) {
      std::string values;
      for (std::size_t k = 0; k < row_size(layout_); ++k) values += (k ? ", " : "") + format_number(row[k]);
      throw InvalidInput(layout_ == PoseLayout::quaternion ? "[tx, ty, tz, qw, qx, qy, qz]" : "matrix",
                         "must be finite, got [" + values + "]");
    }
    return convert(layout_, row);
  } catch (const InvalidInput& e) {
    throw InvalidInput(indexed(field, i), e.what());
  }
}

std::size_t batch_size(std::size_t a, std::size_t pose_a, std::size_t b, std::size_t pose_b) {
  const std::size_t n = std::max({a, pose_a, b, pose_b});
  const std::pair<const char*, std::size_t> args[] = {{"a", a}, {"pose_a", pose_a}, {"b", b}, {"pose_b", pose_b}};
  for (const auto& [name, size] : args) {
    if (size == 0) throw InvalidInput(name, "is empty (a batch argument needs 1 or N entries)");
    if (size != 1 && size != n) {
      throw InvalidInput(name, "has " + std::to_string(size) + " entries, expected 1 (broadcast) or " +
                                   std::to_string(n) + " (the batch size)");
    }
  }
  return n;
}

int resolved_threads(const BatchOptions& options) {
  if (options.threads < 0 || options.threads > kMaxBatchThreads) {
    throw InvalidInput("threads", "must be in [0, " + std::to_string(kMaxBatchThreads) + "] (0 = all cores), got " +
                                      std::to_string(options.threads));
  }
  if (options.threads > 0) return options.threads;
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

void intersect(std::span<const AnyConvex> a, const PoseArray& pose_a, std::span<const AnyConvex> b,
               const PoseArray& pose_b, const IntersectOutputs& out, const BatchOptions& options) {
  // One pair of small polytopes for the whole batch: the specialised kernels (small_polytope.hpp),
  // which give scalar_intersect's answer bit for bit at a fraction of the cost.
  detail::SmallPolytope small_a;
  detail::SmallPolytope small_b;
  if (a.size() == 1 && b.size() == 1 && detail::load_small_polytope(a[0], small_a) &&
      detail::load_small_polytope(b[0], small_b)) {
    intersect_small_pair(small_a, small_b, a, pose_a, b, pose_b, out, options);
    return;
  }
  run_batch<IntersectResult>(a, pose_a, b, pose_b, out, options,
      [&](const AnyConvex& sa, const Pose& pa, const AnyConvex& sb, const Pose& pb) {
                               return scalar_intersect(sa, pa, sb, pb, options.gjk);
                             });
}

void distance(std::span<const AnyConvex> a, const PoseArray& pose_a, std::span<const AnyConvex> b,
              const PoseArray& pose_b, const DistanceOutputs& out, const BatchOptions& options) {
  run_batch<DistanceResult>(a, pose_a, b, pose_b, out, options,
      [&](const AnyConvex& sa, const Pose& pa, const AnyConvex& sb, const Pose& pb) {
                              return scalar_distance(sa, pa, sb, pb, options.gjk);
                            });
}

void penetration(std::span<const AnyConvex> a, const PoseArray& pose_a, std::span<const AnyConvex> b,
                 const PoseArray& pose_b, const PenetrationOutputs& out, const BatchOptions& options) {
  run_batch<PenetrationResult>(
      a, pose_a, b, pose_b, out, options,
      [&](const AnyConvex& sa, const Pose& pa, const AnyConvex& sb, const Pose& pb) {
        return scalar_penetration(sa, pa, sb, pb, options.epa);
      });
}

IntersectBatch intersect(std::span<const AnyConvex> a, const PoseArray& pose_a, std::span<const AnyConvex> b,
                         const PoseArray& pose_b, const BatchOptions& options) {
  const std::size_t n = batch_size(a.size(), pose_a.size(), b.size(), pose_b.size());
  IntersectBatch r{std::vector<std::uint8_t>(n), std::vector<double>(3 * n), std::vector<std::int32_t>(n),
                   std::vector<std::uint8_t>(n), std::vector<std::uint8_t>(n)};
  intersect(a, pose_a, b, pose_b, IntersectOutputs{r.intersect, r.separating_axis, r.iterations, r.status, r.detail},
            options);
  return r;
}

DistanceBatch distance(std::span<const AnyConvex> a, const PoseArray& pose_a, std::span<const AnyConvex> b,
                       const PoseArray& pose_b, const BatchOptions& options) {
  const std::size_t n = batch_size(a.size(), pose_a.size(), b.size(), pose_b.size());
  DistanceBatch r{std::vector<double>(n),     std::vector<std::uint8_t>(n),  std::vector<double>(3 * n),
                  std::vector<double>(3 * n), std::vector<double>(3 * n),    std::vector<double>(n),
                  std::vector<std::int32_t>(n), std::vector<std::uint8_t>(n), std::vector<std::uint8_t>(n)};
  distance(a, pose_a, b, pose_b,
           DistanceOutputs{r.distance, r.intersect, r.point_a, r.point_b, r.normal, r.gap, r.iterations, r.status,
                           r.detail},
           options);
  return r;
}

PenetrationBatch penetration(std::span<const AnyConvex> a, const PoseArray& pose_a, std::span<const AnyConvex> b,
                             const PoseArray& pose_b, const BatchOptions& options) {
  const std::size_t n = batch_size(a.size(), pose_a.size(), b.size(), pose_b.size());
  PenetrationBatch r{std::vector<std::uint8_t>(n), std::vector<double>(n),        std::vector<double>(3 * n),
                     std::vector<double>(3 * n),   std::vector<double>(3 * n),    std::vector<std::int32_t>(n),
                     std::vector<std::uint8_t>(n), std::vector<std::uint8_t>(n)};
  penetration(a, pose_a, b, pose_b,
              PenetrationOutputs{r.intersect, r.depth, r.normal, r.point_a, r.point_b, r.iterations, r.status,
                                 r.detail},
              options);
  return r;
}

}  // namespace proxima::batch
