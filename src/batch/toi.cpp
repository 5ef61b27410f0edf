// SPDX-License-Identifier: MIT
#include <proxima/batch/toi.hpp>

#include "batch/thread_pool.hpp"

#include <proxima/core/error.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace proxima::batch {

namespace {

constexpr std::size_t kNone = detail::kNoElement;

// Index of element i in an argument of `size` entries (1 broadcasts).
std::size_t at_index(std::size_t size, std::size_t i) { return size == 1 ? 0 : i; }

std::string indexed(const char* field, std::size_t i) { return std::string(field) + "[" + std::to_string(i) + "]"; }

void check_length(const char* field, std::size_t size, std::size_t expected) {
  if (size != 0 && size != expected) {
    throw InvalidInput(field, "has " + std::to_string(size) + " entries, expected " + std::to_string(expected) +
                                  " or 0 (not wanted)");
  }
}

void check_outputs(const ToiOutputs& o, std::size_t n) {
  check_length("out.contact", o.contact.size(), n);
  check_length("out.toi", o.toi.size(), n);
  check_length("out.point", o.point.size(), 3 * n);
  check_length("out.normal", o.normal.size(), 3 * n);
  check_length("out.iterations", o.iterations.size(), n);
  check_length("out.status", o.status.size(), n);
  check_length("out.detail", o.detail.size(), n);
}

void put3(std::span<double> out, std::size_t i, const Vec3& v) {
  if (out.empty()) return;
  out[3 * i] = v.x();
  out[3 * i + 1] = v.y();
  out[3 * i + 2] = v.z();
}

void write(const ToiOutputs& o, std::size_t i, const ToiResult& r) {
  if (!o.contact.empty()) o.contact[i] = r.contact ? 1 : 0;
  if (!o.toi.empty()) o.toi[i] = r.toi;
  put3(o.point, i, r.point);
  put3(o.normal, i, r.normal);
  if (!o.iterations.empty()) o.iterations[i] = r.iterations;
  if (!o.status.empty()) o.status[i] = static_cast<std::uint8_t>(r.status);
  if (!o.detail.empty()) o.detail[i] = static_cast<std::uint8_t>(r.detail);
}

bool finite(const Vec3& v) { return v.allFinite(); }

// The outcome of one element: answered, or bad (with the detail the marked element gets).
struct Outcome {
  bool ok = true;
  Detail why = Detail::none;
};

// Cuts [0, n) into contiguous blocks taken by the threads as they free up, answers element i with solve(i, result) (which never throws:
// it reports a bad element in its Outcome), writes it, and under the throwing policy calls
// raise(lowest bad index), which throws that element's InvalidInput.
template <class Solve, class Raise>
void run(std::size_t n, const ToiOutputs& out, int threads_option, BadPosePolicy policy, const Solve& solve,
         const Raise& raise) {
  check_outputs(out, n);
  BatchOptions o;
  o.threads = threads_option;
  const int threads = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(resolved_threads(o)), n));
  const std::size_t bad = detail::first_marked_in_blocks(n, threads, [&](std::size_t begin, std::size_t end) {
    std::size_t first_bad = kNone;
    for (std::size_t i = begin; i < end; ++i) {
      ToiResult r;
      const Outcome outcome = solve(i, r);
      if (!outcome.ok) {
        if (first_bad == kNone) first_bad = i;
        r = ToiResult{};
        r.status = Status::degenerate_input;
        r.detail = outcome.why;
      }
      write(out, i, r);
    }
    return first_bad;
  });
  if (policy == BadPosePolicy::throw_invalid_input && bad != kNone) raise(bad);
}

// Runs a scalar query, turning its InvalidInput into a bad outcome (detail none: a refused
// motion or option, not a non-finite number).
template <class Query>
Outcome guarded(ToiResult& r, const Query& query) {
  try {
    r = query();
    return {};
  } catch (const InvalidInput&) {
    return {false, Detail::none};
  }
}

// Rethrows element i's refusal with the index in the field.
template <class Query>
void rethrow_indexed(std::size_t i, const Query& query) {
  try {
    (void)query();
  } catch (const InvalidInput& e) {
    throw InvalidInput(indexed("element", i), e.what());
  }
}

void require_finite_row(const VectorArray& v, std::size_t i, const char* field) {
  const Vec3 x = v[at_index(v.size(), i)];
  if (!finite(x)) require_finite(indexed(field, at_index(v.size(), i)), x);
}

// The four pose arguments of a screw query at element i; false when one is invalid.
bool get_poses(const std::array<const PoseArray*, 4>& poses, std::size_t i, std::array<Pose, 4>& out) {
  for (std::size_t k = 0; k < 4; ++k) {
    if (!poses[k]->get(at_index(poses[k]->size(), i), out[k])) return false;
  }
  return true;
}

constexpr std::array<const char*, 4> kScrewPoseNames = {"a_start", "a_end", "b_start", "b_end"};

std::array<Pose, 4> poses_or_throw(const std::array<const PoseArray*, 4>& poses, std::size_t i) {
  std::array<Pose, 4> p;
  for (std::size_t k = 0; k < 4; ++k) p[k] = poses[k]->at(at_index(poses[k]->size(), i), kScrewPoseNames[k]);
  return p;
}

// The screw batches share everything but the scalar query.
template <class Shape, class Query>
void run_screw(std::span<const Shape> a, const PoseArray& a_start, const PoseArray& a_end, std::span<const Shape> b,
               const PoseArray& b_start, const PoseArray& b_end, const ToiOutputs& out, int threads,
               BadPosePolicy policy, const Query& query) {
  const std::array<std::pair<const char*, std::size_t>, 6> sizes = {
      {{"a", a.size()}, {"a_start", a_start.size()}, {"a_end", a_end.size()}, {"b", b.size()},
       {"b_start", b_start.size()}, {"b_end", b_end.size()}}};
  const std::size_t n = batch_size(sizes);
  const std::array<const PoseArray*, 4> poses = {&a_start, &a_end, &b_start, &b_end};
  auto call = [&](std::size_t i, const std::array<Pose, 4>& p) {
    return query(a[at_index(a.size(), i)], p[0], p[1], b[at_index(b.size(), i)], p[2], p[3]);
  };
  run(
      n, out, threads, policy,
      [&](std::size_t i, ToiResult& r) -> Outcome {
        std::array<Pose, 4> p;
        if (!get_poses(poses, i, p)) return {false, Detail::non_finite};
        return guarded(r, [&] { return call(i, p); });
      },
      [&](std::size_t i) {
        const std::array<Pose, 4> p = poses_or_throw(poses, i);
        rethrow_indexed(i, [&] { return call(i, p); });
      });
}

}  // namespace

VectorArray VectorArray::rows(const double* data, std::size_t count) {
  VectorArray v;
  v.data_ = data;
  v.count_ = count;
  return v;
}

std::size_t batch_size(std::span<const std::pair<const char*, std::size_t>> arguments) {
  std::size_t n = 0;
  for (const auto& [name, size] : arguments) n = std::max(n, size);
  for (const auto& [name, size] : arguments) {
    if (size == 0) throw InvalidInput(name, "is empty (a batch argument needs 1 or N entries)");
    if (size != 1 && size != n) {
      throw InvalidInput(name, "has " + std::to_string(size) + " entries, expected 1 (broadcast) or " +
                                   std::to_string(n) + " (the batch size)");
    }
  }
  return n;
}

ToiResult scalar_toi_translate(const AnyConvex& a, const Pose& pose_a, const Vec3& velocity_a, const AnyConvex& b,
                               const Pose& pose_b, const Vec3& velocity_b, double t_max,
                               const ccd::ToiOptions& options) {
  return ccd::toi_translate(a, pose_a, velocity_a, b, pose_b, velocity_b, t_max, options);
}

ToiResult scalar_toi_screw(const AnyConvex& a, const Pose& a_start, const Pose& a_end, const AnyConvex& b,
                           const Pose& b_start, const Pose& b_end, const ccd::ToiOptions& options) {
  return ccd::toi_screw(a, a_start, a_end, b, b_start, b_end, options);
}

ToiResult scalar_screw_first_contact(const mesh::Mesh& a, const Pose& a_start, const Pose& a_end, const mesh::Mesh& b,
                                     const Pose& b_start, const Pose& b_end, const ccd::ScrewOptions& options) {
  const ccd::ScrewResult s = ccd::screw_collisions(a, a_start, a_end, b, b_start, b_end, options);
  ToiResult r;
  r.contact = s.contact;
  r.toi = s.toi;
  r.point = s.point;
  r.normal = s.normal;
  r.iterations = s.iterations;
  r.status = s.status;
  r.detail = s.detail;
  return r;
}

void toi_translate(std::span<const AnyConvex> a, const PoseArray& pose_a, const VectorArray& velocity_a,
                   std::span<const AnyConvex> b, const PoseArray& pose_b, const VectorArray& velocity_b, double t_max,
                   const ToiOutputs& out, const ToiBatchOptions& options) {
  const std::array<std::pair<const char*, std::size_t>, 6> sizes = {
      {{"a", a.size()}, {"pose_a", pose_a.size()}, {"velocity_a", velocity_a.size()}, {"b", b.size()},
       {"pose_b", pose_b.size()}, {"velocity_b", velocity_b.size()}}};
  const std::size_t n = batch_size(sizes);
  require_non_negative("t_max", t_max);
  ccd::detail::validate_toi_options(options.toi);
  auto call = [&](std::size_t i, const Pose& pa, const Pose& pb) {
    return scalar_toi_translate(a[at_index(a.size(), i)], pa, velocity_a[at_index(velocity_a.size(), i)],
                                b[at_index(b.size(), i)], pb, velocity_b[at_index(velocity_b.size(), i)], t_max,
                                options.toi);
  };
  run(
      n, out, options.threads, options.bad_poses,
      [&](std::size_t i, ToiResult& r) -> Outcome {
        Pose pa, pb;
        if (!pose_a.get(at_index(pose_a.size(), i), pa) || !pose_b.get(at_index(pose_b.size(), i), pb) ||
            !finite(velocity_a[at_index(velocity_a.size(), i)]) ||
            !finite(velocity_b[at_index(velocity_b.size(), i)])) {
          return {false, Detail::non_finite};
        }
        return guarded(r, [&] { return call(i, pa, pb); });
      },
      [&](std::size_t i) {
        const Pose pa = pose_a.at(at_index(pose_a.size(), i), "pose_a");
        const Pose pb = pose_b.at(at_index(pose_b.size(), i), "pose_b");
        require_finite_row(velocity_a, i, "velocity_a");
        require_finite_row(velocity_b, i, "velocity_b");
        rethrow_indexed(i, [&] { return call(i, pa, pb); });
      });
}

void toi_screw(std::span<const AnyConvex> a, const PoseArray& a_start, const PoseArray& a_end,
               std::span<const AnyConvex> b, const PoseArray& b_start, const PoseArray& b_end, const ToiOutputs& out,
               const ToiBatchOptions& options) {
  ccd::detail::validate_toi_options(options.toi);
  run_screw(a, a_start, a_end, b, b_start, b_end, out, options.threads, options.bad_poses,
            [&](const AnyConvex& sa, const Pose& as, const Pose& ae, const AnyConvex& sb, const Pose& bs,
                const Pose& be) { return scalar_toi_screw(sa, as, ae, sb, bs, be, options.toi); });
}

void screw_first_contact(std::span<const mesh::Mesh> a, const PoseArray& a_start, const PoseArray& a_end,
                         std::span<const mesh::Mesh> b, const PoseArray& b_start, const PoseArray& b_end,
                         const ToiOutputs& out, const ScrewBatchOptions& options) {
  // Options are refused once here rather than once per element.
  ccd::detail::validate_screw_options(options.screw);
  run_screw(a, a_start, a_end, b, b_start, b_end, out, options.threads, options.bad_poses,
            [&](const mesh::Mesh& sa, const Pose& as, const Pose& ae, const mesh::Mesh& sb, const Pose& bs,
                const Pose& be) { return scalar_screw_first_contact(sa, as, ae, sb, bs, be, options.screw); });
}

ToiBatch::ToiBatch(std::size_t n)
    : contact(n), toi(n), point(3 * n), normal(3 * n), iterations(n), status(n), detail(n) {}

ToiOutputs ToiBatch::outputs() { return ToiOutputs{contact, toi, point, normal, iterations, status, detail}; }

}  // namespace proxima::batch
