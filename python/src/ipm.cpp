// SPDX-License-Identifier: MIT
// Bindings of the ipm layer (submodule proxima.ipm): implicit primitives (halfspace, quadric /
// ellipsoid, superquadric, hyperquadric), objects as intersections of placed parts, the six
// presets of seed 001, and the interior-point queries (distance, warm-started distance on
// moving or deforming objects, interval_translate, toi_translate, collision_intervals).
#include "common.hpp"

#include <proxima/ipm/continuous.hpp>
#include <proxima/ipm/distance.hpp>
#include <proxima/ipm/object.hpp>
#include <proxima/ipm/presets.hpp>
#include <proxima/ipm/primitives.hpp>

namespace proxima::python {

using namespace pybind11::literals;

namespace {

// A Python primitive (one of the four classes) as an ipm::Primitive; TypeError otherwise.
ipm::Primitive primitive_of(const py::handle& obj, const std::string& name) {
  if (py::isinstance<ipm::Halfspace>(obj)) return obj.cast<ipm::Halfspace>();
  if (py::isinstance<ipm::Quadric>(obj)) return obj.cast<ipm::Quadric>();
  if (py::isinstance<ipm::Superquadric>(obj)) return obj.cast<ipm::Superquadric>();
  if (py::isinstance<ipm::Hyperquadric>(obj)) return obj.cast<ipm::Hyperquadric>();
  throw py::type_error(name + ": expected an ipm.Halfspace, Quadric, Superquadric or Hyperquadric, got " +
                       type_name(obj));
}

py::object primitive_to_python(const ipm::Primitive& p) {
  return std::visit([](const auto& x) { return py::cast(x); }, p.variant());
}

// A part argument: an ipm.Part or a bare primitive (placed by the identity).
ipm::Part part_of(const py::handle& obj, const std::string& name) {
  if (py::isinstance<ipm::Part>(obj)) return obj.cast<ipm::Part>();
  return ipm::Part(primitive_of(obj, name));
}

py::dict local_eval(const ipm::LocalEval& e) {
  return py::dict("value"_a = e.value, "gradient"_a = e.gradient, "hessian"_a = e.hessian);
}

// value / evaluate methods shared by the four primitive classes.
template <class P>
void add_primitive_methods(py::class_<P>& c) {
  c.def("value", [](const P& p, const Vec3& u) { return p.value(u); }, "u"_a,
        "f(u) at a local point u: negative inside, zero on the surface.")
      .def(
          "evaluate",
          [](const P& p, const Vec3& u, double curvature_floor) {
            ipm::LocalEval e;
            p.evaluate(u, curvature_floor, e);
            return local_eval(e);
          },
          "u"_a, "curvature_floor"_a = kIpmPowerCurvatureFloor,
          "{'value', 'gradient', 'hessian'} at local point u (Hessian regularised for exponents below 2).");
}

ipm::IpmOptions options_or_default(const std::optional<ipm::IpmOptions>& o) { return o.value_or(ipm::IpmOptions{}); }

}  // namespace

void bind_ipm(py::module_& parent) {
  py::module_ m = parent.def_submodule(
      "ipm", "Interior-point proximity queries on implicit convex objects (seed 001): primitives f(u) <= 0,\n"
             "objects as intersections of placed primitives, distance and continuous queries.");

  // ---- options and results ---------------------------------------------------------------------
  py::class_<ipm::IpmOptions> options_class(m, "IpmOptions",
                                      "Tunables of the interior-point solver (ipm::IpmOptions); defaults from\n"
                                      "core/tolerance.hpp. IpmOptions(max_iterations=50, ...) sets fields by name.");
  options_class
      .def(py::init([](const py::kwargs& kwargs) {
             py::object self = py::cast(ipm::IpmOptions{});
             set_from_kwargs(self, kwargs, "IpmOptions");
             return self.cast<ipm::IpmOptions>();
           }),
           "Defaults, with the given fields replaced (unknown names raise TypeError).")
      .def_readwrite("max_iterations", &ipm::IpmOptions::max_iterations)
      .def_readwrite("gap_relative_tolerance", &ipm::IpmOptions::gap_relative_tolerance)
      .def_readwrite("gap_absolute_tolerance", &ipm::IpmOptions::gap_absolute_tolerance)
      .def_readwrite("stationarity_relative_tolerance", &ipm::IpmOptions::stationarity_relative_tolerance)
      .def_readwrite("stationarity_absolute_tolerance", &ipm::IpmOptions::stationarity_absolute_tolerance)
      .def_readwrite("fraction_to_boundary", &ipm::IpmOptions::fraction_to_boundary)
      .def_readwrite("armijo", &ipm::IpmOptions::armijo)
      .def_readwrite("merit_noise", &ipm::IpmOptions::merit_noise)
      .def_readwrite("gap_rounding_floor", &ipm::IpmOptions::gap_rounding_floor)
      .def_readwrite("max_backtracks", &ipm::IpmOptions::max_backtracks)
      .def_readwrite("initial_barrier", &ipm::IpmOptions::initial_barrier)
      .def_readwrite("regularization", &ipm::IpmOptions::regularization)
      .def_readwrite("dual_safeguard", &ipm::IpmOptions::dual_safeguard)
      .def_readwrite("curvature_floor", &ipm::IpmOptions::curvature_floor)
      .def_readwrite("warm_start_pullback", &ipm::IpmOptions::warm_start_pullback)
      .def_readwrite("warm_start_barrier_fraction", &ipm::IpmOptions::warm_start_barrier_fraction)
      .def_readwrite("polish", &ipm::IpmOptions::polish)
      .def_readwrite("overlap_check_ratio", &ipm::IpmOptions::overlap_check_ratio)
      .def_readwrite("predictor_corrector", &ipm::IpmOptions::predictor_corrector)
      .def_readwrite("fixed_centering", &ipm::IpmOptions::fixed_centering)
      .def_readwrite("unbounded_ratio", &ipm::IpmOptions::unbounded_ratio);

  py::class_<ipm::DistanceReport>(m, "DistanceReport", "A distance answer with the solver's certificates.")
      .def_readonly("result", &ipm::DistanceReport::result, "The DistanceResult (world frame).")
      .def_readonly("complementarity", &ipm::DistanceReport::complementarity, "s . lambda at the answer (length^2).")
      .def_readonly("kkt_residual", &ipm::DistanceReport::kkt_residual, "|grad Lagrangian|_inf (length).")
      .def_readonly("warm_started", &ipm::DistanceReport::warm_started, "True when started from the last solution.")
      .def_readonly("polished", &ipm::DistanceReport::polished,
                    "True when the warm start's Newton polish gave the answer (certified by the separating plane).")
      .def_readonly("support_certified", &ipm::DistanceReport::support_certified,
                    "True when result.gap comes from the separating-plane bound.");

  py::class_<ipm::IntervalResult>(m, "IntervalResult", "Closest approach of two translating objects over [0, t_max].")
      .def_readonly("min_distance", &ipm::IntervalResult::min_distance)
      .def_readonly("min_time", &ipm::IntervalResult::min_time)
      .def_readonly("intersect", &ipm::IntervalResult::intersect)
      .def_readonly("point_a", &ipm::IntervalResult::point_a)
      .def_readonly("point_b", &ipm::IntervalResult::point_b)
      .def_readonly("normal", &ipm::IntervalResult::normal)
      .def_readonly("complementarity", &ipm::IntervalResult::complementarity)
      .def_readonly("kkt_residual", &ipm::IntervalResult::kkt_residual)
      .def_readonly("iterations", &ipm::IntervalResult::iterations)
      .def_readonly("status", &ipm::IntervalResult::status)
      .def_readonly("detail", &ipm::IntervalResult::detail)
      .def("__repr__", [](const ipm::IntervalResult& r) {
        return "IntervalResult(min_distance=" + format_number(r.min_distance) + ", min_time=" +
               format_number(r.min_time) + ", status=" + std::string(to_string(r.status)) + ")";
      });

  py::class_<ipm::CollisionIntervals>(m, "CollisionIntervals",
                                      "Ranges of path length over which two objects on straight paths can collide.")
      .def_readonly("collide", &ipm::CollisionIntervals::collide)
      .def_readonly("s_a_min", &ipm::CollisionIntervals::s_a_min)
      .def_readonly("s_a_max", &ipm::CollisionIntervals::s_a_max)
      .def_readonly("s_b_min", &ipm::CollisionIntervals::s_b_min)
      .def_readonly("s_b_max", &ipm::CollisionIntervals::s_b_max)
      .def_readonly("iterations", &ipm::CollisionIntervals::iterations)
      .def_readonly("status", &ipm::CollisionIntervals::status)
      .def_readonly("detail", &ipm::CollisionIntervals::detail)
      .def("__repr__", [](const ipm::CollisionIntervals& r) {
        return "CollisionIntervals(collide=" + std::string(r.collide ? "True" : "False") + ", s_a=[" +
               format_number(r.s_a_min) + ", " + format_number(r.s_a_max) + "], s_b=[" + format_number(r.s_b_min) +
               ", " + format_number(r.s_b_max) + "])";
      });

  // ---- primitives --------------------------------------------------------------------------------
  py::class_<ipm::Halfspace> halfspace(m, "Halfspace", "The halfspace {u : normal . u <= offset} (normal normalised).");
  halfspace.def(py::init<const Vec3&, double>(), "normal"_a, "offset"_a, "A halfspace; ValueError for a zero normal.")
      .def_property_readonly("normal", &ipm::Halfspace::normal, "Unit normal.")
      .def_property_readonly("offset", &ipm::Halfspace::offset, "Offset (scaled with the normal).");
  add_primitive_methods(halfspace);

  py::class_<ipm::Quadric> quadric(m, "Quadric", "The convex quadric {u : u^T Q u + b . u + c <= 0}, Q symmetric PSD.");
  quadric.def(py::init<const Mat3&, const Vec3&, double>(), "q"_a, "b"_a, "c"_a,
              "A quadric; ValueError naming Q for a non-symmetric or indefinite matrix.")
      .def_static("ellipsoid", &ipm::Quadric::ellipsoid, "semiaxes"_a, "The ellipsoid sum (u_i / a_i)^2 <= 1.")
      .def_property_readonly("q", &ipm::Quadric::q, "Q (3, 3).")
      .def_property_readonly("b", &ipm::Quadric::b, "b (3,).")
      .def_property_readonly("c", &ipm::Quadric::c, "c.")
      .def_property_readonly("bounded", &ipm::Quadric::bounded, "True when Q is positive definite.");
  add_primitive_methods(quadric);

  py::class_<ipm::Superquadric> superquadric(m, "Superquadric",
                                             "The superquadric sum_i |u_i / a_i|^(n_i) <= 1 (seed 001 eq. 3), n_i >= 1.");
  superquadric.def(py::init<const Vec3&, const Vec3&>(), "semiaxes"_a, "exponents"_a,
                   "A superquadric; ValueError for semiaxes <= 0 or exponents < 1.")
      .def_property_readonly("semiaxes", &ipm::Superquadric::semiaxes, "Semiaxes a (3,).")
      .def_property_readonly("exponents", &ipm::Superquadric::exponents, "Exponents n (3,).");
  add_primitive_methods(superquadric);

  py::class_<ipm::Hyperquadric> hyperquadric(
      m, "Hyperquadric", "The hyperquadric sum_i |a_i x + b_i y + c_i z + d_i|^(n_i) <= 1 (seed 001 eq. 4).");
  hyperquadric
      .def(py::init([](const std::vector<std::pair<Eigen::Vector4d, double>>& terms) {
             std::vector<ipm::HyperquadricTerm> t;
             for (const auto& [plane, exponent] : terms) t.push_back({plane, exponent});
             return ipm::Hyperquadric(std::move(t));
           }),
           "terms"_a,
           "A hyperquadric from terms [(plane (a, b, c, d), exponent), ...] (at least 3, exponents >= 1).")
      .def_property_readonly("terms",
                             [](const ipm::Hyperquadric& h) {
                               py::list r;
                               for (const auto& t : h.terms()) r.append(py::make_tuple(t.plane, t.exponent));
                               return r;
                             },
                             "The terms [(plane (4,), exponent), ...].")
      .def_property_readonly("bounded", &ipm::Hyperquadric::bounded, "True when the plane normals span R^3.");
  add_primitive_methods(hyperquadric);

  // ---- parts, objects, presets -------------------------------------------------------------------
  py::class_<ipm::Part>(m, "Part",
                        "A primitive placed in the object's frame: object point = linear @ primitive point + translation.")
      .def(py::init([](const py::object& primitive, const std::optional<Pose>& pose,
                       const std::optional<Mat3>& linear, const std::optional<Vec3>& translation) {
             const ipm::Primitive p = primitive_of(primitive, "primitive");
             if (pose && (linear || translation)) {
               throw InvalidInput("pose", "give either pose or linear/translation, not both");
             }
             if (pose) return ipm::Part(p, *pose);
             if (linear || translation) {
               return ipm::Part(p, linear.value_or(Mat3::Identity()), translation.value_or(Vec3::Zero()));
             }
             return ipm::Part(p);
           }),
           "primitive"_a, "pose"_a = std::nullopt, py::kw_only(), "linear"_a = std::nullopt,
           "translation"_a = std::nullopt,
           "A part placed by a rigid pose, or by a general affine map (linear, translation): a deformation.\n"
           "ValueError naming affine.linear for a singular map.")
      .def_property_readonly("primitive", [](const ipm::Part& p) { return primitive_to_python(p.primitive()); },
                             "The primitive.")
      .def_property_readonly("linear", &ipm::Part::linear, "The linear part of the map (3, 3).")
      .def_property_readonly("translation", &ipm::Part::translation, "The translation of the map (3,).")
      .def("value", &ipm::Part::value, "p"_a, "The primitive's value at an object-frame point (<= 0 inside).");

  py::class_<ipm::Object>(m, "Object",
                          "The convex set {p : every part's value <= 0} (object frame); placed by a Pose per query.")
      .def(py::init([](const py::object& parts) {
             if (!py::isinstance<py::sequence>(parts)) return ipm::Object(std::vector<ipm::Part>{part_of(parts, "parts")});
             std::vector<ipm::Part> list;
             const py::sequence seq = parts.cast<py::sequence>();
             for (std::size_t i = 0; i < seq.size(); ++i) list.push_back(part_of(seq[i], "parts[" + std::to_string(i) + "]"));
             return ipm::Object(std::move(list));
           }),
           "parts"_a,
           "An object from one primitive or a list of parts / primitives. ValueError naming parts for no\n"
           "parts, an empty or an unbounded intersection.")
      .def_property_readonly("parts", &ipm::Object::parts, "The parts.")
      .def_property_readonly("interior_point", &ipm::Object::interior_point, "A strictly interior point (object frame).")
      .def_property_readonly("aabb",
                             [](const ipm::Object& o) { return py::make_tuple(o.local_aabb().min, o.local_aabb().max); },
                             "(min, max) of a tight bounding box (object frame).")
      .def_property_readonly("bounding_sphere",
                             [](const ipm::Object& o) {
                               return py::make_tuple(o.bounding_sphere().center, o.bounding_sphere().radius);
                             },
                             "(center, radius) of a ball containing the object.")
      .def("contains", &ipm::Object::contains, "p"_a, "True when p (object frame) lies in every part.")
      .def("deformed", &ipm::Object::deformed, "linear"_a, "translation"_a = Vec3(Vec3::Zero()),
           "The object after the global affine deformation p -> linear @ p + translation (seed 001 VIII).");

  for (const std::string_view name : ipm::kPresetNames) {
    const std::string n(name);
    m.def(n.c_str(), [n] { return ipm::preset(n); },
          ("Preset object '" + n + "' of seed 001 section VIII (figure 11), with the paper's numbers.").c_str());
  }
  m.def("preset", [](const std::string& name) { return ipm::preset(name); }, "name"_a,
        "The preset of that name (PRESET_NAMES); ValueError naming preset for an unknown name.");
  py::tuple names(ipm::kPresetNames.size());
  for (std::size_t i = 0; i < ipm::kPresetNames.size(); ++i) names[i] = py::str(std::string(ipm::kPresetNames[i]));
  m.attr("PRESET_NAMES") = names;

  // ---- queries -----------------------------------------------------------------------------------
  m.def("distance",
        [](const ipm::Object& a, const Pose& pa, const ipm::Object& b, const Pose& pb,
           const std::optional<ipm::IpmOptions>& o) {
          const ipm::IpmOptions options = options_or_default(o);
          const py::gil_scoped_release release;
          return ipm::distance(a, pa, b, pb, options);
        },
        "a"_a, "pose_a"_a, "b"_a, "pose_b"_a, "options"_a = std::nullopt,
        "Interior-point distance between objects a at pose_a and b at pose_b (seed 001 eq. 8), cold start:\n"
        "DistanceResult, world frame (gap: certified bound on distance - true distance).");
  m.def("distance_report",
        [](const ipm::Object& a, const Pose& pa, const ipm::Object& b, const Pose& pb,
           const std::optional<ipm::IpmOptions>& o) {
          const ipm::IpmOptions options = options_or_default(o);
          const py::gil_scoped_release release;
          return ipm::distance_report(a, pa, b, pb, options);
        },
        "a"_a, "pose_a"_a, "b"_a, "pose_b"_a, "options"_a = std::nullopt,
        "The same as distance, with the certificates: DistanceReport.");

  py::class_<ipm::DistanceSolver>(m, "DistanceSolver",
                                  "Reusable distance solver owning its buffers and the warm start (seed 001 table\n"
                                  "III: coherent motion and deforming objects). Not thread-safe.")
      .def(py::init([](const std::optional<ipm::IpmOptions>& o) { return ipm::DistanceSolver(options_or_default(o)); }),
           "options"_a = std::nullopt, "A solver with the given options.")
      .def("distance", &ipm::DistanceSolver::distance, "a"_a, "pose_a"_a, "b"_a, "pose_b"_a,
           py::call_guard<py::gil_scoped_release>(), "Cold solve from the interior points: DistanceReport.")
      .def("distance_warm", &ipm::DistanceSolver::distance_warm, "a"_a, "pose_a"_a, "b"_a, "pose_b"_a,
           py::call_guard<py::gil_scoped_release>(),
           "Warm solve from the previous solution when the part counts match (else cold): DistanceReport.\n"
           "For moved or deformed objects (changed semiaxes, exponents or affine maps).")
      .def_property_readonly("multipliers",
                             [](const ipm::DistanceSolver& s) {
                               const auto v = s.multipliers();
                               return std::vector<double>(v.begin(), v.end());
                             },
                             "Multipliers of the last solve, one per part (A's, then B's), world units.")
      .def("clear_warm_start", &ipm::DistanceSolver::clear_warm_start, "Forgets the warm start.")
      .def_property_readonly("options", &ipm::DistanceSolver::options, "The solver's options.");

  m.def("interval_translate",
        [](const ipm::Object& a, const Pose& pa, const Vec3& va, const ipm::Object& b, const Pose& pb, const Vec3& vb,
           double t_max, const std::optional<ipm::IpmOptions>& o) {
          const ipm::IpmOptions options = options_or_default(o);
          const py::gil_scoped_release release;
          return ipm::interval_translate(a, pa, va, b, pb, vb, t_max, options);
        },
        "a"_a, "pose_a"_a, "velocity_a"_a, "b"_a, "pose_b"_a, "velocity_b"_a, "t_max"_a, "options"_a = std::nullopt,
        "Minimum distance over t in [0, t_max] of A translating with velocity_a and B with velocity_b\n"
        "(seed 001 eq. 17): IntervalResult, world frame at min_time.");
  m.def("toi_translate",
        [](const ipm::Object& a, const Pose& pa, const Vec3& va, const ipm::Object& b, const Pose& pb, const Vec3& vb,
           double t_max, const std::optional<ipm::IpmOptions>& o) {
          const ipm::IpmOptions options = options_or_default(o);
          const py::gil_scoped_release release;
          return ipm::toi_translate(a, pa, va, b, pb, vb, t_max, options);
        },
        "a"_a, "pose_a"_a, "velocity_a"_a, "b"_a, "pose_b"_a, "velocity_b"_a, "t_max"_a, "options"_a = std::nullopt,
        "First contact time over [0, t_max] of two translating objects (seed 001 eq. 18): ToiResult\n"
        "(toi 0 when they overlap at t = 0, contact False when they stay apart).");
  m.def("collision_intervals",
        [](const ipm::Object& a, const Pose& pa, const Vec3& da, double la, const ipm::Object& b, const Pose& pb,
           const Vec3& db, double lb, const std::optional<ipm::IpmOptions>& o) {
          const ipm::IpmOptions options = options_or_default(o);
          const py::gil_scoped_release release;
          return ipm::collision_intervals(a, pa, da, la, b, pb, db, lb, options);
        },
        "a"_a, "pose_a"_a, "direction_a"_a, "length_a"_a, "b"_a, "pose_b"_a, "direction_b"_a, "length_b"_a,
        "options"_a = std::nullopt,
        "Seed 001 eq. 19: along straight paths (direction, path length in [0, length]), the ranges of path\n"
        "length of each object over which it can collide with the other: CollisionIntervals.");
}

}  // namespace proxima::python
