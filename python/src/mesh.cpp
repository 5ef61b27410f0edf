// SPDX-License-Identifier: MIT
// Bindings of the mesh layer (submodule proxima.mesh): the validated polyhedral Mesh that the ccd
// screw queries take, built from vertex and face lists or read from OBJ / OFF / STL, and the
// generators (box, tetrahedron, car, torus, L-prism).
#include "common.hpp"

#include <proxima/mesh/generators.hpp>
#include <proxima/mesh/io.hpp>
#include <proxima/mesh/mesh.hpp>

#include <sstream>

namespace proxima::python {

using namespace pybind11::literals;

namespace {

using RowVertices = Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>;

mesh::MeshOptions mesh_options(bool allow_open, double planarity_tolerance, double degenerate_tolerance) {
  mesh::MeshOptions o;
  o.allow_open = allow_open;
  o.planarity_tolerance = planarity_tolerance;
  o.degenerate_tolerance = degenerate_tolerance;
  return o;
}

std::vector<Vec3> to_points(const RowVertices& rows) {
  std::vector<Vec3> v;
  v.reserve(static_cast<std::size_t>(rows.rows()));
  for (Eigen::Index i = 0; i < rows.rows(); ++i) v.emplace_back(rows.row(i).transpose());
  return v;
}

RowVertices to_rows(const std::vector<Vec3>& points) {
  RowVertices r(static_cast<Eigen::Index>(points.size()), 3);
  for (std::size_t i = 0; i < points.size(); ++i) r.row(static_cast<Eigen::Index>(i)) = points[i].transpose();
  return r;
}

py::tuple data_tuple(const mesh::MeshData& d) { return py::make_tuple(to_rows(d.vertices), d.faces); }

py::array_t<std::int32_t> int_rows(std::size_t n, std::size_t width) {
  return py::array_t<std::int32_t>(std::vector<py::ssize_t>{static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(width)});
}

}  // namespace

void bind_mesh(py::module_& parent) {
  py::module_ m = parent.def_submodule(
      "mesh", "Polyhedral meshes for the continuous collision queries (proxima::mesh): closed (or open on\n"
              "request), outward oriented, faces of any length, validated once at construction.");

  py::class_<mesh::Mesh>(m, "Mesh",
                         "A validated polyhedral surface (proxima::mesh::Mesh). Faces list vertex ids\n"
                         "counter-clockwise seen from outside. Immutable.")
      .def(py::init([](const RowVertices& vertices, const std::vector<std::vector<int>>& faces, bool allow_open,
                       double planarity_tolerance, double degenerate_tolerance) {
             return mesh::Mesh::from_faces(to_points(vertices), faces,
                                           mesh_options(allow_open, planarity_tolerance, degenerate_tolerance));
           }),
           "vertices"_a, "faces"_a, py::kw_only(), "allow_open"_a = false,
           "planarity_tolerance"_a = kMeshPlanarityTolerance, "degenerate_tolerance"_a = kMeshDegenerateTolerance,
           "A mesh from vertices (V, 3) and faces (a list of vertex-id lists). Raises ValueError naming the\n"
           "field (\"vertices[3].y\", \"faces[7]\", \"mesh\") for non-finite coordinates, bad indices,\n"
           "degenerate or non-planar faces, non-manifold or inconsistently oriented edges, an open surface\n"
           "(unless allow_open) or inward orientation.")
      .def_static("load",
                  [](const std::string& path, bool allow_open, double planarity_tolerance, double degenerate_tolerance) {
                    return mesh::load_mesh(path, mesh_options(allow_open, planarity_tolerance, degenerate_tolerance));
                  },
                  "path"_a, py::kw_only(), "allow_open"_a = false, "planarity_tolerance"_a = kMeshPlanarityTolerance,
                  "degenerate_tolerance"_a = kMeshDegenerateTolerance,
                  "Reads an .obj, .off or .stl file (by extension, case-insensitive) and validates it.")
      .def_property_readonly("num_vertices", &mesh::Mesh::num_vertices, "Number of vertices.")
      .def_property_readonly("num_faces", &mesh::Mesh::num_faces, "Number of faces.")
      .def_property_readonly("num_edges", &mesh::Mesh::num_edges, "Number of undirected edges.")
      .def_property_readonly("vertices", [](const mesh::Mesh& s) { return to_rows(s.vertices()); },
                             "The vertices (V, 3), local frame.")
      .def_property_readonly("faces",
                             [](const mesh::Mesh& s) {
                               std::vector<std::vector<int>> faces;
                               for (int f = 0; f < s.num_faces(); ++f) {
                                 const auto ids = s.face(f);
                                 faces.emplace_back(ids.begin(), ids.end());
                               }
                               return faces;
                             },
                             "The faces: a list of vertex-id lists, counter-clockwise seen from outside.")
      .def_property_readonly("edges",
                             [](const mesh::Mesh& s) {
                               auto r = int_rows(static_cast<std::size_t>(s.num_edges()), 2);
                               auto w = r.mutable_unchecked<2>();
                               for (int e = 0; e < s.num_edges(); ++e) w(e, 0) = s.edge(e).v0, w(e, 1) = s.edge(e).v1;
                               return r;
                             },
                             "Edges (E, 2) as vertex ids (v0, v1); row e is the edge id ccd collisions report.")
      .def_property_readonly("edge_faces",
                             [](const mesh::Mesh& s) {
                               auto r = int_rows(static_cast<std::size_t>(s.num_edges()), 2);
                               auto w = r.mutable_unchecked<2>();
                               for (int e = 0; e < s.num_edges(); ++e) {
                                 w(e, 0) = s.edge(e).face_left, w(e, 1) = s.edge(e).face_right;
                               }
                               return r;
                             },
                             "(face_left, face_right) of each edge (-1 on an open boundary).")
      .def_property_readonly("face_normals",
                             [](const mesh::Mesh& s) {
                               RowVertices r(s.num_faces(), 3);
                               for (int f = 0; f < s.num_faces(); ++f) r.row(f) = s.face_normal(f).transpose();
                               return r;
                             },
                             "Unit outward face normals (F, 3).")
      .def_property_readonly("face_offsets",
                             [](const mesh::Mesh& s) {
                               Eigen::VectorXd r(s.num_faces());
                               for (int f = 0; f < s.num_faces(); ++f) r[f] = s.plane(f).offset;
                               return r;
                             },
                             "Face plane offsets (F,): face f is {x : normal_f . x == offset_f}.")
      .def("vertex_edges",
           [](const mesh::Mesh& s, int v) {
             if (v < 0 || v >= s.num_vertices()) throw InvalidInput("v", "vertex id out of range: " + std::to_string(v));
             const auto ids = s.vertex_edges(v);
             return std::vector<int>(ids.begin(), ids.end());
           },
           "v"_a, "Edge ids incident to vertex v.")
      .def("vertex_faces",
           [](const mesh::Mesh& s, int v) {
             if (v < 0 || v >= s.num_vertices()) throw InvalidInput("v", "vertex id out of range: " + std::to_string(v));
             const auto ids = s.vertex_faces(v);
             return std::vector<int>(ids.begin(), ids.end());
           },
           "v"_a, "Face ids incident to vertex v.")
      .def_property_readonly("closed", &mesh::Mesh::closed, "True when every edge has two faces.")
      .def_property_readonly("extent", &mesh::Mesh::extent, "Largest side of the bounding box.")
      .def_property_readonly("volume", &mesh::Mesh::volume, "Signed volume (> 0 when closed and outward).")
      .def_property_readonly("aabb",
                             [](const mesh::Mesh& s) { return py::make_tuple(s.aabb().min, s.aabb().max); },
                             "(min, max) corners of the local bounding box.")
      .def_property_readonly("bounding_sphere",
                             [](const mesh::Mesh& s) {
                               return py::make_tuple(s.bounding_sphere().center, s.bounding_sphere().radius);
                             },
                             "(center, radius) of a ball containing the mesh.")
      .def("triangulate",
           [](const mesh::Mesh& s) {
             const auto tris = s.triangulate();
             auto r = int_rows(tris.size(), 3);
             auto w = r.mutable_unchecked<2>();
             for (std::size_t t = 0; t < tris.size(); ++t) {
               for (int k = 0; k < 3; ++k) w(static_cast<py::ssize_t>(t), k) = tris[t][static_cast<std::size_t>(k)];
             }
             return r;
           },
           "Every face split into triangles (T, 3), counter-clockwise seen from outside.")
      .def(py::pickle(
               [](const mesh::Mesh& s) {
                 std::vector<std::vector<int>> faces;
                 for (int f = 0; f < s.num_faces(); ++f) faces.emplace_back(s.face(f).begin(), s.face(f).end());
                 return py::make_tuple(to_rows(s.vertices()), faces, !s.closed());
               },
               [](const py::tuple& t) {
                 return mesh::Mesh::from_faces(to_points(t[0].cast<RowVertices>()),
                                               t[1].cast<std::vector<std::vector<int>>>(),
                                               mesh_options(t[2].cast<bool>(), kMeshPlanarityTolerance,
                                                            kMeshDegenerateTolerance));
               }),
           "Pickles as its vertex and face lists (so meshes travel to Dask workers).")
      .def("__repr__", [](const mesh::Mesh& s) {
        return "proxima.mesh.Mesh(vertices=" + std::to_string(s.num_vertices()) + ", faces=" +
               std::to_string(s.num_faces()) + ", edges=" + std::to_string(s.num_edges()) +
               (s.closed() ? ", closed)" : ", open)");
      });

  m.def("load",
        [](const std::string& path, bool allow_open) {
          mesh::MeshOptions o;
          o.allow_open = allow_open;
          return mesh::load_mesh(path, o);
        },
        "path"_a, py::kw_only(), "allow_open"_a = false,
        "Reads and validates an .obj, .off or .stl mesh file (Mesh.load with default tolerances).");
  m.def("parse_obj",
        [](const std::string& text) {
          std::istringstream in(text);
          return data_tuple(mesh::parse_obj(in));
        },
        "text"_a, "Parses Wavefront OBJ text: (vertices (V, 3), faces list), not validated.");
  m.def("parse_off",
        [](const std::string& text) {
          std::istringstream in(text);
          return data_tuple(mesh::parse_off(in));
        },
        "text"_a, "Parses OFF text: (vertices (V, 3), faces list), not validated.");
  m.def("parse_stl", [](const py::bytes& data) { return data_tuple(mesh::parse_stl(std::string(data))); }, "data"_a,
        "Parses STL bytes (binary or ASCII; corners welded): (vertices (V, 3), faces list), not validated.");

  m.def("box", &mesh::make_box, "half_extents"_a, "Box {|x_i| <= half_extents_i}: 8 vertices, 6 quads.");
  m.def("tetrahedron", &mesh::make_tetrahedron, "circumradius"_a = 1.0,
        "Regular tetrahedron with vertices at distance circumradius from the origin.");
  m.def("car", &mesh::make_car, "scale"_a = 1.0,
        "The simple car of seed 004 (16 vertices, 26 edges, 12 faces; not convex), length 4 * scale.");
  m.def("torus", &mesh::make_torus, "major_radius"_a = 1.0, "minor_radius"_a = 0.3, "major_segments"_a = 20,
        "minor_segments"_a = 15, "Quad torus around z (major_segments x minor_segments faces).");
  m.def("l_prism", &mesh::make_l_prism, "size"_a = 1.0, "half_thickness"_a = 0.5,
        "L-shaped prism (12 vertices, 8 faces; not convex).");
}

}  // namespace proxima::python
