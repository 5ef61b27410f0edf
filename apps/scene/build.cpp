// SPDX-License-Identifier: MIT
#include "scene/build.hpp"

#include <proxima/core/error.hpp>
#include <proxima/mesh/io.hpp>

#include <filesystem>

#include <type_traits>
#include <vector>

namespace proxima::scene {
namespace {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

// Builds the shape itself (without its own "pose"); library errors escape as InvalidInput with
// the library's field name, which build_convex prefixes with the spec's path.
AnyConvex build_bare(const ShapeSpec& spec) {
  return std::visit(
      Overloaded{
          [](const SphereSpec& s) -> AnyConvex { return Sphere(s.radius); },
          [](const BoxSpec& s) -> AnyConvex { return Box(s.half_extents); },
          [](const CapsuleSpec& s) -> AnyConvex { return Capsule(s.radius, s.half_length); },
          [](const CylinderSpec& s) -> AnyConvex { return Cylinder(s.radius, s.half_height); },
          [](const ConeSpec& s) -> AnyConvex { return Cone(s.radius, s.half_height); },
          [](const EllipsoidSpec& s) -> AnyConvex { return Ellipsoid(s.semiaxes); },
          [](const PolytopeSpec& s) -> AnyConvex { return Polytope(std::span<const Vec3>(s.vertices)); },
          [](const SuperquadricSpec& s) -> AnyConvex { return Superquadric(s.semiaxes, s.exponents); },
          [](const MinkowskiSpec& s) -> AnyConvex {
            return AnyConvex::minkowski(build_convex(s.operands.at(0)), build_convex(s.operands.at(1)));
          },
          [](const HullSpec& s) -> AnyConvex {
            std::vector<AnyConvex> of;
            of.reserve(s.of.size());
            for (const ShapeSpec& member : s.of) of.push_back(build_convex(member));
            return AnyConvex::hull(std::move(of));
          },
          [&spec](const auto&) -> AnyConvex {
            throw InvalidInput(spec.path, "a " + spec.type + " has no support mapping, so GJK/EPA cannot use it");
          },
      },
      spec.value);
}

}  // namespace

AnyConvex build_convex(const ShapeSpec& spec) {
  try {
    AnyConvex shape = build_bare(spec);
    if (spec.pose) shape = AnyConvex::transformed(std::move(shape), *spec.pose);
    return shape;
  } catch (const InvalidInput& e) {
    // Already named by a nested spec's path (operands), or by this spec itself.
    if (e.field().rfind("shapes.", 0) == 0) throw;
    std::string message = e.what();
    const std::string prefix = e.field() + ": ";
    if (message.rfind(prefix, 0) == 0) message.erase(0, prefix.size());
    throw InvalidInput(spec.path + "." + e.field(), message);
  }
}

namespace {

// Mesh shapes: inline vertices + faces, or a file relative to the scene's folder. Library errors
// are prefixed with the spec's path.
std::shared_ptr<const mesh::Mesh> build_mesh(const ShapeSpec& spec, const MeshSpec& m, const std::string& base_dir) {
  try {
    if (!m.file.empty()) {
      std::filesystem::path file(m.file);
      if (file.is_relative() && !base_dir.empty()) file = std::filesystem::path(base_dir) / file;
      return std::make_shared<const mesh::Mesh>(mesh::load_mesh(file.string()));
    }
    return std::make_shared<const mesh::Mesh>(mesh::Mesh::from_faces(m.vertices, m.faces));
  } catch (const InvalidInput& e) {
    std::string message = e.what();
    const std::string prefix = e.field() + ": ";
    if (message.rfind(prefix, 0) == 0) message.erase(0, prefix.size());
    throw InvalidInput(spec.path + "." + e.field(), message);
  }
}

// One implicit primitive (a part, or a whole single-primitive shape); nullopt for other types.
std::optional<ipm::Primitive> implicit_primitive(const ShapeSpec& spec) {
  if (const auto* s = std::get_if<SphereSpec>(&spec.value)) return ipm::Primitive(ipm::Quadric::ellipsoid(Vec3::Constant(s->radius)));
  if (const auto* e = std::get_if<EllipsoidSpec>(&spec.value)) return ipm::Primitive(ipm::Quadric::ellipsoid(e->semiaxes));
  if (const auto* q = std::get_if<SuperquadricSpec>(&spec.value)) return ipm::Primitive(ipm::Superquadric(q->semiaxes, q->exponents));
  if (const auto* h = std::get_if<HalfspaceSpec>(&spec.value)) return ipm::Primitive(ipm::Halfspace(h->normal, h->offset));
  if (const auto* h = std::get_if<HyperquadricSpec>(&spec.value)) {
    std::vector<ipm::HyperquadricTerm> terms;
    for (const HyperquadricTerm& t : h->terms) terms.push_back({t.plane, t.exponent});
    return ipm::Primitive(ipm::Hyperquadric(std::move(terms)));
  }
  return std::nullopt;
}

template <class F>
auto with_path(const std::string& path, F&& f) {
  try {
    return f();
  } catch (const InvalidInput& e) {
    if (e.field().rfind("shapes.", 0) == 0) throw;
    std::string message = e.what();
    const std::string prefix = e.field() + ": ";
    if (message.rfind(prefix, 0) == 0) message.erase(0, prefix.size());
    throw InvalidInput(path + "." + e.field(), message);
  }
}

std::shared_ptr<const ipm::Object> build_implicit(const ShapeSpec& spec) {
  if (const auto* imp = std::get_if<ImplicitSpec>(&spec.value)) {
    std::vector<ipm::Part> parts;
    for (const ShapeSpec& part : imp->parts) {
      parts.push_back(with_path(part.path, [&] {
        ipm::Primitive prim = *implicit_primitive(part);
        if (part.pose) return ipm::Part(std::move(prim), *part.pose);
        if (part.affine) return ipm::Part(std::move(prim), part.affine->linear, part.affine->translation);
        return ipm::Part(std::move(prim));
      }));
    }
    return with_path(spec.path, [&] { return std::make_shared<const ipm::Object>(std::move(parts)); });
  }
  return with_path(spec.path, [&]() -> std::shared_ptr<const ipm::Object> {
    std::optional<ipm::Primitive> prim = implicit_primitive(spec);
    if (!prim) return nullptr;
    return std::make_shared<const ipm::Object>(std::move(*prim));
  });
}

// The hull faces of a full-dimensional polytope as a mesh (screw queries, --check); nullptr for
// other shapes and for flat or collinear polytopes, which bound no volume.
std::shared_ptr<const mesh::Mesh> polytope_mesh(const AnyConvex& shape) {
  const auto* polytope = std::get_if<Polytope>(&shape.variant());
  if (polytope == nullptr || polytope->dimension() != 3) return nullptr;
  std::vector<std::vector<int>> faces;
  faces.reserve(polytope->faces().size());
  for (const auto& f : polytope->faces()) faces.push_back({f[0], f[1], f[2]});
  try {
    return std::make_shared<const mesh::Mesh>(mesh::Mesh::from_faces(polytope->vertices(), faces));
  } catch (const InvalidInput&) {
    return nullptr;  // a sliver triangle of the hull the mesh validation refuses: no mesh form
  }
}

}  // namespace

BuiltShape build_shape(const ShapeSpec& spec, const std::string& base_dir) {
  BuiltShape built;
  built.spec = &spec;
  const bool has_support = !std::holds_alternative<HyperquadricSpec>(spec.value) &&
                           !std::holds_alternative<ImplicitSpec>(spec.value) &&
                           !std::holds_alternative<HalfspaceSpec>(spec.value) &&
                           !std::holds_alternative<MeshSpec>(spec.value);
  try {
    if (has_support) built.convex = build_convex(spec);
    if (const auto* m = std::get_if<MeshSpec>(&spec.value)) built.mesh = build_mesh(spec, *m, base_dir);
    if (built.convex) built.mesh = polytope_mesh(*built.convex);
    try {
      built.implicit = build_implicit(spec);
    } catch (const InvalidInput& e) {
      // A shape with a support form keeps it; only interior-point queries on it report why.
      if (!built.convex) throw;
      built.implicit_error = e.what();
    }
  } catch (const InvalidInput& e) {
    built.error = e.what();
  } catch (const std::exception& e) {
    built.error = spec.path + ": cannot be built: " + e.what();
    built.internal_error = true;
  }
  return built;
}

}  // namespace proxima::scene
