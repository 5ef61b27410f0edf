// SPDX-License-Identifier: MIT
// Plain data read from a scene file (DESIGN.md "Scene files"): what each shape and each query
// says, already checked for types, finiteness and sizes, but not yet turned into library shapes
// (build.hpp does that). Every spec remembers the JSON path it came from ("shapes.rock",
// "queries[2]") so later errors can name it.
#pragma once

#include <proxima/core/pose.hpp>

#include <Eigen/Core>

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace proxima::scene {

struct ShapeSpec;

/// {"type": "sphere", "radius": r}
struct SphereSpec {
  double radius = 0;
};
/// {"type": "box", "half_extents": [x, y, z]}
struct BoxSpec {
  Vec3 half_extents = Vec3::Zero();
};
/// {"type": "capsule", "radius": r, "half_length": h}: segment along z of length 2h, swollen by r.
struct CapsuleSpec {
  double radius = 0;
  double half_length = 0;
};
/// {"type": "cylinder", "radius": r, "half_height": h}, axis along z.
struct CylinderSpec {
  double radius = 0;
  double half_height = 0;
};
/// {"type": "cone", "radius": r, "half_height": h}, axis along z, apex at +h.
struct ConeSpec {
  double radius = 0;
  double half_height = 0;
};
/// {"type": "ellipsoid", "semiaxes": [a, b, c]}
struct EllipsoidSpec {
  Vec3 semiaxes = Vec3::Zero();
};
/// {"type": "polytope", "vertices": [[x, y, z], ...]}: the convex hull of the points.
struct PolytopeSpec {
  std::vector<Vec3> vertices;
};
/// {"type": "superquadric", "semiaxes": [a, b, c], "exponents": [e1, e2, e3]}: the set
/// |x/a|^e1 + |y/b|^e2 + |z/c|^e3 <= 1 (exponents >= 1).
struct SuperquadricSpec {
  Vec3 semiaxes = Vec3::Zero();
  Vec3 exponents = Vec3::Zero();
};
/// One term of a hyperquadric: |a x + b y + c z + d|^exponent.
struct HyperquadricTerm {
  Eigen::Vector4d plane = Eigen::Vector4d::Zero();
  double exponent = 0;
};
/// {"type": "hyperquadric", "terms": [{"plane": [a, b, c, d], "exponent": e}, ...]}
struct HyperquadricSpec {
  std::vector<HyperquadricTerm> terms;
};
/// {"type": "halfspace", "normal": n, "offset": o}: {x : n . x <= o}; only as an implicit part.
struct HalfspaceSpec {
  Vec3 normal = Vec3::Zero();
  double offset = 0;
};
/// {"type": "minkowski", "a": A, "b": B}: A + B. Operands are shape names or inline shapes.
struct MinkowskiSpec {
  std::vector<ShapeSpec> operands;  // exactly two
};
/// {"type": "hull", "of": [S1, S2, ...]}: convex hull of the shapes (names or inline shapes).
struct HullSpec {
  std::vector<ShapeSpec> of;
};
/// {"type": "implicit", "parts": [...]}: intersection of implicit parts.
struct ImplicitSpec {
  std::vector<ShapeSpec> parts;
};
/// {"type": "mesh", "vertices": [...], "faces": [[i, j, k, ...], ...]} or {"type": "mesh",
/// "file": "torus.obj"} (path relative to the scene file's folder).
struct MeshSpec {
  std::vector<Vec3> vertices;
  std::vector<std::vector<int>> faces;
  std::string file;  // empty when vertices + faces are given inline
};

/// A general affine placement x -> linear * x + translation (implicit parts only).
struct AffineSpec {
  Mat3 linear = Mat3::Identity();
  Vec3 translation = Vec3::Zero();
};

using ShapeVariant = std::variant<SphereSpec, BoxSpec, CapsuleSpec, CylinderSpec, ConeSpec, EllipsoidSpec,
                                  PolytopeSpec, SuperquadricSpec, HyperquadricSpec, HalfspaceSpec,
                                  MinkowskiSpec, HullSpec, ImplicitSpec, MeshSpec>;

/// One shape as the scene describes it.
struct ShapeSpec {
  /// JSON path of the object this spec was read from, e.g. "shapes.rock" or
  /// "shapes.blob.of[1]" (for a named operand: the path of the named shape).
  std::string path;
  /// The "type" string as written.
  std::string type;
  ShapeVariant value;
  /// Optional placement inside a compound shape ("pose" on hull/minkowski operands and implicit
  /// parts; "affine" on implicit parts only). At most one is set.
  std::optional<Pose> pose;
  std::optional<AffineSpec> affine;
};

/// A named entry of the scene's "shapes" map: either a valid spec or the error that refused it.
/// A bad shape only fails the queries that use it.
struct ShapeEntry {
  std::string name;
  std::optional<ShapeSpec> spec;
  std::string error;  // "shapes.rock.vertices[3]: must be finite ..." when spec is empty
};

/// The query kinds of DESIGN.md.
enum class QueryKind {
  intersect,
  distance,
  penetration,
  lp_intersect,
  lp_contains,
  toi_translate,
  interval_translate,
  screw,
};

/// One entry of the "queries" list. When `error` is non-empty the query is malformed and only
/// `index`, `id` (if readable) and `error` are meaningful.
struct QuerySpec {
  std::size_t index = 0;      // position in the list
  std::string id_json;        // the "id" value re-serialised (a JSON string or integer), "null" if missing
  std::string id;             // the id as text, for tables and messages
  QueryKind kind = QueryKind::distance;
  std::string kind_name;      // as written
  std::string a;              // shape names (empty for point-list LP queries)
  std::string b;
  Pose pose_a;                // missing pose = identity
  Pose pose_b;
  std::optional<Pose> pose_a_end;  // screw: end-of-step poses
  std::optional<Pose> pose_b_end;
  Vec3 velocity_a = Vec3::Zero();  // toi_translate / interval_translate: world velocities
  Vec3 velocity_b = Vec3::Zero();
  double t_max = 1;                // time interval [0, t_max]
  /// lp_intersect / lp_contains: n-dimensional point sets (all rows the same dimension n >= 1).
  std::vector<Eigen::VectorXd> points_a;
  std::vector<Eigen::VectorXd> points_b;
  std::string method;         // "" = automatic; else gjk / ipm / lp / glide / raster
  std::string error;
};

/// A whole scene: shapes in file order and queries in input order.
struct SceneSpec {
  std::vector<ShapeEntry> shapes;
  std::vector<QuerySpec> queries;
  /// Folder of the scene file (for mesh "file" paths); empty for stdin / embedded scenes, which
  /// then resolve relative to the working directory.
  std::string base_dir;

  /// The entry named `name`, or nullptr.
  const ShapeEntry* find_shape(const std::string& name) const;
};

/// Name of a query kind as written in scene files ("toi_translate", ...).
const char* to_string(QueryKind kind) noexcept;

}  // namespace proxima::scene
