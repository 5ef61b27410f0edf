// SPDX-License-Identifier: MIT
// Bindings of the batch layer: intersect / distance / penetration and the time-of-impact batches
// on numpy arrays. Poses are (N, 7) rows [tx, ty, tz, qw, qx, qy, qz] or (N, 4, 4) matrices,
// vectors (N, 3) rows, read in place when C-contiguous float64 (copied otherwise); results are
// new numpy arrays written in place by C++ with the GIL released.
#include "common.hpp"

#include <proxima/batch/toi.hpp>

namespace proxima::python {

using namespace pybind11::literals;

ShapeArg shape_arg(const py::object& obj, const char* name) {
  ShapeArg r;
  if (py::isinstance<Shape>(obj)) {
    r.single = &obj.cast<const Shape&>().get();
    return r;
  }
  if (!py::isinstance<py::sequence>(obj) || py::isinstance<py::str>(obj)) {
    throw py::type_error(std::string(name) + ": expected a proxima.Shape or a sequence of them, got " +
                         type_name(obj));
  }
  const py::sequence seq = obj.cast<py::sequence>();
  r.owned.reserve(seq.size());
  for (std::size_t i = 0; i < seq.size(); ++i) {
    const py::object item = seq[i];
    if (!py::isinstance<Shape>(item)) {
      throw py::type_error(std::string(name) + "[" + std::to_string(i) + "]: expected a proxima.Shape, got " +
                           type_name(item));
    }
    r.owned.push_back(item.cast<const Shape&>().get());
  }
  return r;
}

PoseArg pose_arg(const py::object& obj, const char* name, bool scalar_first) {
  PoseArg r;
  if (py::isinstance<Pose>(obj)) {
    r.poses.push_back(obj.cast<Pose>());
    r.view = batch::PoseArray(std::span<const Pose>(r.poses));
    return r;
  }
  if (py::isinstance<py::list>(obj) && py::len(obj) > 0 && py::isinstance<Pose>(obj.cast<py::list>()[0])) {
    for (const py::handle item : obj.cast<py::list>()) {
      if (!py::isinstance<Pose>(item)) throw py::type_error(std::string(name) + ": a list of poses must hold only proxima.Pose");
      r.poses.push_back(item.cast<Pose>());
    }
    r.view = batch::PoseArray(std::span<const Pose>(r.poses));
    return r;
  }
  const py::array raw = py::array::ensure(obj);
  if (!raw) throw py::type_error(std::string(name) + ": expected a proxima.Pose, a list of them or a float array");
  if (raw.dtype().kind() != 'f' && raw.dtype().kind() != 'i' && raw.dtype().kind() != 'u') {
    throw py::type_error(std::string(name) + ": expected a real numeric array, got dtype " +
                         std::string(py::str(raw.dtype())));
  }
  r.array = DoubleArray::ensure(raw);
  std::vector<py::ssize_t> shape(r.array.shape(), r.array.shape() + r.array.ndim());
  const auto shape_text = [&] {
    std::string s = "(";
    for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + (shape.size() == 1 ? ",)" : ")");
  };
  const bool rows7 = (shape.size() == 2 && shape[1] == 7) || (shape.size() == 1 && shape[0] == 7);
  const bool mats = (shape.size() == 3 && shape[1] == 4 && shape[2] == 4) || (shape.size() == 2 && shape[0] == 4 && shape[1] == 4);
  if (!rows7 && !mats) {
    throw InvalidInput(name, "expected an array of shape (N, 7) [tx, ty, tz, qw, qx, qy, qz] or (N, 4, 4), got shape " +
                                 shape_text());
  }
  const std::size_t n = (shape.size() == 1 || (mats && shape.size() == 2)) ? 1 : static_cast<std::size_t>(shape[0]);
  if (rows7) {
    if (!scalar_first) {  // reorder [tx, ty, tz, qx, qy, qz, qw] into a scalar-first copy
      DoubleArray copy(std::vector<py::ssize_t>{static_cast<py::ssize_t>(n), 7});
      const double* src = r.array.data();
      double* dst = copy.mutable_data();
      for (std::size_t i = 0; i < n; ++i) {
        const double* s = src + 7 * i;
        double* d = dst + 7 * i;
        d[0] = s[0], d[1] = s[1], d[2] = s[2], d[3] = s[6], d[4] = s[3], d[5] = s[4], d[6] = s[5];
      }
      r.array = copy;
    }
    r.view = batch::PoseArray::quaternions(r.array.data(), n);
  } else {
    r.view = batch::PoseArray::matrices(r.array.data(), n);
  }
  return r;
}

RowsArg rows_arg(const py::object& obj, const char* name, py::ssize_t width) {
  const py::array raw = py::array::ensure(obj);
  if (!raw) throw py::type_error(std::string(name) + ": expected a float array, got " + type_name(obj));
  const char kind = raw.dtype().kind();
  if (kind != 'f' && kind != 'i' && kind != 'u') {
    throw py::type_error(std::string(name) + ": expected a real numeric array, got dtype " +
                         std::string(py::str(raw.dtype())));
  }
  RowsArg r;
  r.array = DoubleArray::ensure(raw);
  const bool one = r.array.ndim() == 1 && r.array.shape(0) == width;
  const bool many = r.array.ndim() == 2 && r.array.shape(1) == width;
  if (!one && !many) {
    std::string shape = "(";
    for (py::ssize_t i = 0; i < r.array.ndim(); ++i) shape += (i ? ", " : "") + std::to_string(r.array.shape(i));
    throw InvalidInput(name, "expected an array of shape (N, " + std::to_string(width) + ") or (" +
                                 std::to_string(width) + ",), got shape " + shape + (r.array.ndim() == 1 ? ",)" : ")"));
  }
  r.rows = one ? 1 : static_cast<std::size_t>(r.array.shape(0));
  return r;
}

batch::BadPosePolicy bad_pose_policy(const std::string& bad_poses) {
  if (bad_poses == "raise") return batch::BadPosePolicy::throw_invalid_input;
  if (bad_poses == "mark") return batch::BadPosePolicy::mark_element;
  throw InvalidInput("bad_poses", "must be \"raise\" or \"mark\", got \"" + bad_poses + "\"");
}

namespace {

batch::BatchOptions batch_options(int threads, const std::string& bad_poses, const std::optional<gjk::GjkOptions>& gjk,
                                  const std::optional<gjk::EpaOptions>& epa) {
  batch::BatchOptions o;
  o.threads = threads;
  o.bad_poses = bad_pose_policy(bad_poses);
  if (gjk) o.gjk = *gjk;
  if (epa) o.epa = *epa;
  return o;
}

struct BatchInputs {
  ShapeArg a, b;
  PoseArg pa, pb;
  std::size_t n = 0;
};
BatchInputs batch_inputs(const py::object& a, const py::object& pose_a, const py::object& b, const py::object& pose_b,
                         bool scalar_first) {
  BatchInputs in{shape_arg(a, "a"), shape_arg(b, "b"), pose_arg(pose_a, "pose_a", scalar_first),
                 pose_arg(pose_b, "pose_b", scalar_first)};
  in.n = batch::batch_size(in.a.span().size(), in.pa.view.size(), in.b.span().size(), in.pb.view.size());
  return in;
}

py::dict batch_intersect(const py::object& a, const py::object& pose_a, const py::object& b, const py::object& pose_b,
                         int threads, const std::string& bad_poses, bool scalar_first,
                         const std::optional<gjk::GjkOptions>& gjk) {
  const BatchInputs in = batch_inputs(a, pose_a, b, pose_b, scalar_first);
  const batch::BatchOptions options = batch_options(threads, bad_poses, gjk, std::nullopt);
  auto hit = new_array<std::uint8_t>(in.n);
  auto axis = new_array<double>(in.n, 3);
  auto iterations = new_array<std::int32_t>(in.n);
  auto status = new_array<std::uint8_t>(in.n);
  auto detail = new_array<std::uint8_t>(in.n);
  const batch::IntersectOutputs out{span_of(hit), span_of(axis), span_of(iterations), span_of(status), span_of(detail)};
  {
    const py::gil_scoped_release release;
    batch::intersect(in.a.span(), in.pa.view, in.b.span(), in.pb.view, out, options);
  }
  return py::dict("intersect"_a = as_bool(hit), "separating_axis"_a = axis, "iterations"_a = iterations,
                  "status"_a = status, "detail"_a = detail);
}

py::dict batch_distance(const py::object& a, const py::object& pose_a, const py::object& b, const py::object& pose_b,
                        int threads, const std::string& bad_poses, bool scalar_first,
                        const std::optional<gjk::GjkOptions>& gjk) {
  const BatchInputs in = batch_inputs(a, pose_a, b, pose_b, scalar_first);
  const batch::BatchOptions options = batch_options(threads, bad_poses, gjk, std::nullopt);
  auto dist = new_array<double>(in.n);
  auto hit = new_array<std::uint8_t>(in.n);
  auto point_a = new_array<double>(in.n, 3);
  auto point_b = new_array<double>(in.n, 3);
  auto normal = new_array<double>(in.n, 3);
  auto gap = new_array<double>(in.n);
  auto iterations = new_array<std::int32_t>(in.n);
  auto status = new_array<std::uint8_t>(in.n);
  auto detail = new_array<std::uint8_t>(in.n);
  const batch::DistanceOutputs out{span_of(dist),   span_of(hit),        span_of(point_a),
                                   span_of(point_b), span_of(normal),    span_of(gap),
                                   span_of(iterations), span_of(status), span_of(detail)};
  {
    const py::gil_scoped_release release;
    batch::distance(in.a.span(), in.pa.view, in.b.span(), in.pb.view, out, options);
  }
  return py::dict("distance"_a = dist, "intersect"_a = as_bool(hit), "point_a"_a = point_a, "point_b"_a = point_b,
                  "normal"_a = normal, "gap"_a = gap, "iterations"_a = iterations, "status"_a = status,
                  "detail"_a = detail);
}

py::dict batch_penetration(const py::object& a, const py::object& pose_a, const py::object& b,
                           const py::object& pose_b, int threads, const std::string& bad_poses, bool scalar_first,
                           const std::optional<gjk::EpaOptions>& epa) {
  const BatchInputs in = batch_inputs(a, pose_a, b, pose_b, scalar_first);
  const batch::BatchOptions options = batch_options(threads, bad_poses, std::nullopt, epa);
  auto hit = new_array<std::uint8_t>(in.n);
  auto depth = new_array<double>(in.n);
  auto normal = new_array<double>(in.n, 3);
  auto point_a = new_array<double>(in.n, 3);
  auto point_b = new_array<double>(in.n, 3);
  auto iterations = new_array<std::int32_t>(in.n);
  auto status = new_array<std::uint8_t>(in.n);
  auto detail = new_array<std::uint8_t>(in.n);
  const batch::PenetrationOutputs out{span_of(hit),     span_of(depth),      span_of(normal), span_of(point_a),
                                      span_of(point_b), span_of(iterations), span_of(status), span_of(detail)};
  {
    const py::gil_scoped_release release;
    batch::penetration(in.a.span(), in.pa.view, in.b.span(), in.pb.view, out, options);
  }
  return py::dict("intersect"_a = as_bool(hit), "depth"_a = depth, "normal"_a = normal, "point_a"_a = point_a,
                  "point_b"_a = point_b, "iterations"_a = iterations, "status"_a = status, "detail"_a = detail);
}

// The outputs of a time-of-impact batch, as numpy arrays and as the spans C++ writes.
struct ToiArrays {
  py::array_t<std::uint8_t> contact;
  py::array_t<double> toi, point, normal;
  py::array_t<std::int32_t> iterations;
  py::array_t<std::uint8_t> status, detail;
  explicit ToiArrays(std::size_t n)
      : contact(new_array<std::uint8_t>(n)), toi(new_array<double>(n)), point(new_array<double>(n, 3)),
        normal(new_array<double>(n, 3)), iterations(new_array<std::int32_t>(n)), status(new_array<std::uint8_t>(n)),
        detail(new_array<std::uint8_t>(n)) {}
  batch::ToiOutputs outputs() {
    return {span_of(contact), span_of(toi),    span_of(point), span_of(normal),
            span_of(iterations), span_of(status), span_of(detail)};
  }
  py::dict dict() {
    return py::dict("contact"_a = as_bool(contact), "toi"_a = toi, "point"_a = point, "normal"_a = normal,
                    "iterations"_a = iterations, "status"_a = status, "detail"_a = detail);
  }
};

batch::VectorArray vector_view(const RowsArg& r) { return batch::VectorArray::rows(r.array.data(), r.rows); }

py::dict batch_toi_translate(const py::object& a, const py::object& pose_a, const py::object& velocity_a,
                             const py::object& b, const py::object& pose_b, const py::object& velocity_b, double t_max,
                             int threads, const std::string& bad_poses, bool scalar_first,
                             const std::optional<ccd::ToiOptions>& toi) {
  const ShapeArg sa = shape_arg(a, "a"), sb = shape_arg(b, "b");
  const PoseArg pa = pose_arg(pose_a, "pose_a", scalar_first), pb = pose_arg(pose_b, "pose_b", scalar_first);
  const RowsArg va = rows_arg(velocity_a, "velocity_a", 3), vb = rows_arg(velocity_b, "velocity_b", 3);
  batch::ToiBatchOptions options;
  options.threads = threads;
  options.bad_poses = bad_pose_policy(bad_poses);
  if (toi) options.toi = *toi;
  const std::array<std::pair<const char*, std::size_t>, 6> sizes = {
      {{"a", sa.span().size()}, {"pose_a", pa.view.size()}, {"velocity_a", va.rows}, {"b", sb.span().size()},
       {"pose_b", pb.view.size()}, {"velocity_b", vb.rows}}};
  ToiArrays out(batch::batch_size(sizes));
  {
    const py::gil_scoped_release release;
    batch::toi_translate(sa.span(), pa.view, vector_view(va), sb.span(), pb.view, vector_view(vb), t_max,
                         out.outputs(), options);
  }
  return out.dict();
}

// The four pose arguments of a screw batch.
struct ScrewPoses {
  PoseArg a_start, a_end, b_start, b_end;
  ScrewPoses(const py::object& as, const py::object& ae, const py::object& bs, const py::object& be, bool scalar_first)
      : a_start(pose_arg(as, "a_start", scalar_first)), a_end(pose_arg(ae, "a_end", scalar_first)),
        b_start(pose_arg(bs, "b_start", scalar_first)), b_end(pose_arg(be, "b_end", scalar_first)) {}
  std::size_t size(std::size_t a, std::size_t b) const {
    const std::array<std::pair<const char*, std::size_t>, 6> sizes = {
        {{"a", a}, {"a_start", a_start.view.size()}, {"a_end", a_end.view.size()}, {"b", b},
         {"b_start", b_start.view.size()}, {"b_end", b_end.view.size()}}};
    return batch::batch_size(sizes);
  }
};

py::dict batch_toi_screw(const py::object& a, const py::object& a_start, const py::object& a_end, const py::object& b,
                         const py::object& b_start, const py::object& b_end, int threads, const std::string& bad_poses,
                         bool scalar_first, const std::optional<ccd::ToiOptions>& toi) {
  const ShapeArg sa = shape_arg(a, "a"), sb = shape_arg(b, "b");
  const ScrewPoses p(a_start, a_end, b_start, b_end, scalar_first);
  batch::ToiBatchOptions options;
  options.threads = threads;
  options.bad_poses = bad_pose_policy(bad_poses);
  if (toi) options.toi = *toi;
  ToiArrays out(p.size(sa.span().size(), sb.span().size()));
  {
    const py::gil_scoped_release release;
    batch::toi_screw(sa.span(), p.a_start.view, p.a_end.view, sb.span(), p.b_start.view, p.b_end.view, out.outputs(),
                     options);
  }
  return out.dict();
}

// Meshes of a batch argument: one Mesh (broadcast) or a sequence of them (copied).
std::vector<mesh::Mesh> mesh_arg(const py::object& obj, const char* name) {
  std::vector<mesh::Mesh> r;
  if (py::isinstance<mesh::Mesh>(obj)) {
    r.push_back(obj.cast<const mesh::Mesh&>());
    return r;
  }
  if (!py::isinstance<py::sequence>(obj) || py::isinstance<py::str>(obj)) {
    throw py::type_error(std::string(name) + ": expected a proxima.mesh.Mesh or a sequence of them, got " +
                         type_name(obj));
  }
  const py::sequence seq = obj.cast<py::sequence>();
  for (std::size_t i = 0; i < seq.size(); ++i) {
    const py::object item = seq[i];
    if (!py::isinstance<mesh::Mesh>(item)) {
      throw py::type_error(std::string(name) + "[" + std::to_string(i) + "]: expected a proxima.mesh.Mesh, got " +
                           type_name(item));
    }
    r.push_back(item.cast<const mesh::Mesh&>());
  }
  return r;
}

py::dict batch_screw_first_contact(const py::object& a, const py::object& a_start, const py::object& a_end,
                                   const py::object& b, const py::object& b_start, const py::object& b_end, int threads,
                                   const std::string& bad_poses, bool scalar_first,
                                   const std::optional<ccd::ScrewOptions>& screw) {
  const std::vector<mesh::Mesh> ma = mesh_arg(a, "a"), mb = mesh_arg(b, "b");
  const ScrewPoses p(a_start, a_end, b_start, b_end, scalar_first);
  batch::ScrewBatchOptions options;
  options.threads = threads;
  options.bad_poses = bad_pose_policy(bad_poses);
  if (screw) options.screw = *screw;
  ToiArrays out(p.size(ma.size(), mb.size()));
  {
    const py::gil_scoped_release release;
    batch::screw_first_contact(ma, p.a_start.view, p.a_end.view, mb, p.b_start.view, p.b_end.view, out.outputs(),
                               options);
  }
  return out.dict();
}

}  // namespace

void bind_batch(py::module_& m) {
  constexpr const char* kBatchArgs =
      "\n\na, b: a Shape (broadcast) or a sequence of N shapes. pose_a, pose_b: a Pose, a list of Pose,\n"
      "an (N, 7) array of rows [tx, ty, tz, qw, qx, qy, qz] (scalar_first=False: [tx, ty, tz, qx, qy,\n"
      "qz, qw]) or an (N, 4, 4) array; length 1 broadcasts. C-contiguous float64 arrays are read in\n"
      "place. threads: 0 = all cores; results do not depend on it. bad_poses: 'raise' (ValueError\n"
      "naming e.g. pose_b[7]) or 'mark' (that element gets status degenerate_input, the rest is\n"
      "answered). The GIL is released while the batch runs. Returns a dict of numpy arrays.";
  m.def("batch_intersect", &batch_intersect, "a"_a, "pose_a"_a, "b"_a, "pose_b"_a, py::kw_only(), "threads"_a = 0,
        "bad_poses"_a = "raise", "scalar_first"_a = true, "options"_a = std::nullopt,
        (std::string("Batched intersect: keys intersect (N,) bool, separating_axis (N, 3), iterations, status, detail.") +
         kBatchArgs).c_str());
  m.def("batch_distance", &batch_distance, "a"_a, "pose_a"_a, "b"_a, "pose_b"_a, py::kw_only(), "threads"_a = 0,
        "bad_poses"_a = "raise", "scalar_first"_a = true, "options"_a = std::nullopt,
        (std::string("Batched distance: keys distance, intersect, point_a, point_b, normal, gap, iterations, status, detail.") +
         kBatchArgs).c_str());
  m.def("batch_penetration", &batch_penetration, "a"_a, "pose_a"_a, "b"_a, "pose_b"_a, py::kw_only(), "threads"_a = 0,
        "bad_poses"_a = "raise", "scalar_first"_a = true, "options"_a = std::nullopt,
        (std::string("Batched penetration: keys intersect, depth, normal, point_a, point_b, iterations, status, detail.") +
         kBatchArgs).c_str());
  m.def("hardware_threads", [] { return batch::resolved_threads({}); },
        "Number of threads a batch uses with threads=0.");
  constexpr const char* kToiArgs =
      "\n\nShapes and poses as in batch_intersect (one or N; length 1 broadcasts; scalar_first as there).\n"
      "threads: 0 = all cores; results do not depend on it. bad_poses: 'raise' (ValueError naming the\n"
      "argument and index, e.g. velocity_b[3].x or element[5] for a refused motion) or 'mark' (that\n"
      "element gets contact False, NaN toi, status degenerate_input; the rest is answered). GIL released.\n"
      "Returns a dict of numpy arrays: contact (N,) bool, toi (N,), point (N, 3), normal (N, 3) (world,\n"
      "from A towards B), iterations (N,) int32, status and detail (N,) uint8 (Status / Detail values).";
  m.def("batch_toi_translate", &batch_toi_translate, "a"_a, "pose_a"_a, "velocity_a"_a, "b"_a, "pose_b"_a,
        "velocity_b"_a, "t_max"_a, py::kw_only(), "threads"_a = 0, "bad_poses"_a = "raise", "scalar_first"_a = true,
        "options"_a = std::nullopt,
        (std::string("Batched ccd.toi_translate: first contact time in [0, t_max] of A translating with\n"
                     "velocity_a (N, 3) from pose_a and B with velocity_b from pose_b (conservative advancement).") +
         kToiArgs).c_str());
  m.def("batch_toi_screw", &batch_toi_screw, "a"_a, "a_start"_a, "a_end"_a, "b"_a, "b_start"_a, "b_end"_a,
        py::kw_only(), "threads"_a = 0, "bad_poses"_a = "raise", "scalar_first"_a = true, "options"_a = std::nullopt,
        (std::string("Batched ccd.toi_screw: first contact time in [0, 1] of two convex shapes whose relative\n"
                     "motion from (a_start, b_start) to (a_end, b_end) is taken as a screw (seed 004).") +
         kToiArgs).c_str());
  m.def("batch_screw_first_contact", &batch_screw_first_contact, "a"_a, "a_start"_a, "a_end"_a, "b"_a, "b_start"_a,
        "b_end"_a, py::kw_only(), "threads"_a = 0, "bad_poses"_a = "raise", "scalar_first"_a = true,
        "options"_a = std::nullopt,
        (std::string("Batched ccd.screw_collisions on meshes (a, b: proxima.mesh.Mesh or sequences of them),\n"
                     "reduced to the earliest collision of each step (options.first_contact_only defaults to True).") +
         kToiArgs).c_str());
}

}  // namespace proxima::python
