// SPDX-License-Identifier: MIT
// Bindings of the shapes layer: the Shape handle (an AnyConvex) and one factory per scene type,
// whose keyword arguments are the scene format's field names.
#include "common.hpp"

namespace proxima::python {

using namespace pybind11::literals;

void bind_shapes(py::module_& m) {
  // ---- shapes ------------------------------------------------------------------------------------
  py::class_<Shape>(m, "Shape", "A convex shape (proxima::AnyConvex); build one with the factory functions.")
      .def_property_readonly("kind", [](const Shape& s) { return std::string(s.get().kind()); },
                             "The scene type name ('sphere', 'box', ...).")
      .def("support", [](const Shape& s, const Vec3& d) { return s.get().support(d); }, "direction"_a,
           "The support point (local frame): a point of the shape maximising direction . x.")
      .def_property_readonly("margin", [](const Shape& s) { return s.get().margin(); },
                             "Radius of a rounded shape's swelling (0 for the others).")
      .def_property_readonly("bounding_sphere",
                             [](const Shape& s) {
                               const BoundingSphere b = s.get().bounding_sphere();
                               return py::make_tuple(b.center, b.radius);
                             },
                             "(center, radius) of a ball containing the shape (local frame).")
      .def_property_readonly("aabb",
                             [](const Shape& s) {
                               const Aabb b = s.get().local_aabb();
                               return py::make_tuple(b.min, b.max);
                             },
                             "(min, max) corners of the local axis-aligned bounding box.")
      .def("__reduce__",
           [](const Shape& s) {
             // proxima._rebuild_shape(factory, args) calls the factory (pybind11 functions do not pickle).
             return py::make_tuple(py::module_::import("proxima").attr("_rebuild_shape"), s.recipe);
           },
           "Pickles as its factory call (so shapes travel to Dask workers).")
      .def("__repr__", [](const Shape& s) { return "proxima.Shape(kind='" + std::string(s.get().kind()) + "')"; });

  m.def("point", [](const Vec3& position) { return make_shape(Point(position), "point", py::make_tuple(position)); }, "position"_a = Vec3(Vec3::Zero()),
        "A single point.");
  m.def("segment", [](const Vec3& a, const Vec3& b) { return make_shape(Segment(a, b), "segment", py::make_tuple(a, b)); }, "a"_a, "b"_a,
        "The segment [a, b].");
  m.def("triangle", [](const Vec3& a, const Vec3& b, const Vec3& c) { return make_shape(Triangle(a, b, c), "triangle", py::make_tuple(a, b, c)); }, "a"_a,
        "b"_a, "c"_a, "The triangle abc.");
  m.def("sphere", [](double radius) { return make_shape(Sphere(radius), "sphere", py::make_tuple(radius)); }, "radius"_a, "A ball of the given radius.");
  m.def("box", [](const Vec3& half_extents) { return make_shape(Box(half_extents), "box", py::make_tuple(half_extents)); }, "half_extents"_a,
        "An axis-aligned box [-h, h] (half extents, each > 0).");
  m.def("capsule", [](double radius, double half_length) { return make_shape(Capsule(radius, half_length), "capsule", py::make_tuple(radius, half_length)); }, "radius"_a,
        "half_length"_a, "A capsule along z: segment [-half_length, half_length] swollen by radius.");
  m.def("cylinder", [](double radius, double half_height) { return make_shape(Cylinder(radius, half_height), "cylinder", py::make_tuple(radius, half_height)); },
        "radius"_a, "half_height"_a, "A cylinder along z.");
  m.def("cone", [](double radius, double half_height) { return make_shape(Cone(radius, half_height), "cone", py::make_tuple(radius, half_height)); }, "radius"_a,
        "half_height"_a, "A cone along z, apex at +half_height.");
  m.def("ellipsoid", [](const Vec3& semiaxes) { return make_shape(Ellipsoid(semiaxes), "ellipsoid", py::make_tuple(semiaxes)); }, "semiaxes"_a,
        "An axis-aligned ellipsoid.");
  m.def("polytope",
        [](const Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>& vertices) {
          std::vector<Vec3> v;
          for (Eigen::Index i = 0; i < vertices.rows(); ++i) v.emplace_back(vertices.row(i).transpose());
          return make_shape(Polytope(v), "polytope", py::make_tuple(Eigen::MatrixXd(vertices)));
        },
        "vertices"_a, "The convex hull of the rows of `vertices` (k, 3).");
  m.def("superquadric",
        [](const Vec3& semiaxes, const Vec3& exponents) { return make_shape(Superquadric(semiaxes, exponents), "superquadric", py::make_tuple(semiaxes, exponents)); },
        "semiaxes"_a, "exponents"_a, "A superquadric |x/a|^e1 + |y/b|^e2 + |z/c|^e3 <= 1 (scene format).");
  m.def("rounded", [](const Shape& core, double radius) { return make_shape(AnyConvex::rounded(core.get(), radius), "rounded", py::make_tuple(core, radius)); },
        "core"_a, "radius"_a, "core + ball(radius).");
  m.def("affine",
        [](const Shape& shape, const Mat3& matrix, const Vec3& translation) {
          return make_shape(AnyConvex::affine(shape.get(), matrix, translation), "affine", py::make_tuple(shape, matrix, translation));
        },
        "shape"_a, "matrix"_a, "translation"_a = Vec3(Vec3::Zero()), "The image matrix @ x + translation of `shape`.");
  m.def("minkowski", [](const Shape& a, const Shape& b) { return make_shape(AnyConvex::minkowski(a.get(), b.get()), "minkowski", py::make_tuple(a, b)); },
        "a"_a, "b"_a, "The Minkowski sum a + b.");
  m.def("hull",
        [](const std::vector<Shape>& of) {
          std::vector<AnyConvex> shapes;
          for (const Shape& s : of) shapes.push_back(s.get());
          return make_shape(AnyConvex::hull(std::move(shapes)), "hull", py::make_tuple(of));
        },
        "of"_a, "The convex hull of a list of shapes.");

}

}  // namespace proxima::python
