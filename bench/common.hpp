// SPDX-License-Identifier: MIT
// The benchmark's own vocabulary: the seeded inputs every implementation answers (bodies, pair
// placements), the reference answers they are judged against, and the interface each
// implementation (proxima or a peer library) provides. Nothing here depends on a peer library.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace proxima::bench {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Which shape a body is. Sizes follow DESIGN.md: half extents, half lengths, semiaxes.
enum class ShapeKind { polytope, box, sphere, capsule, cylinder, cone, ellipsoid };

/// A triangulated convex hull: outward counter-clockwise triangles, unit outward face normals,
/// and each edge with the two faces that share it (the Gauss-map arcs the reference uses).
struct Hull {
  struct Edge {
    int v0 = 0;
    int v1 = 0;
    int f0 = 0;
    int f1 = 0;
  };
  std::vector<Vec3> vertices;
  std::vector<std::array<int, 3>> faces;
  std::vector<Vec3> face_normals;
  std::vector<Edge> edges;
};

/// One convex body in its local frame, centred at the local origin.
///  - polytope: `hull` (its vertices are the input points that are hull vertices)
///  - box: half extents in `size`, and `hull` holds its 8 corners
///  - sphere: radius = size.x; capsule: radius = size.x, half length (segment along z) = size.y;
///    cylinder, cone: radius = size.x, half height = size.y (cone apex at +z);
///    ellipsoid: semiaxes = size.
struct Body {
  ShapeKind kind = ShapeKind::polytope;
  Vec3 size = Vec3::Zero();
  Hull hull;
  /// Radius of a ball about the local origin that contains the body.
  double bounding_radius = 0;
};

/// A rigid placement world = rotation * local + translation (unit quaternion kept alongside).
struct Placement {
  Eigen::Quaterniond quaternion = Eigen::Quaterniond::Identity();
  Mat3 rotation = Mat3::Identity();
  Vec3 translation = Vec3::Zero();
};

/// One query input: body indices into CaseSet::bodies and their placements.
struct PairCase {
  int body_a = 0;
  int body_b = 0;
  Placement pose_a;
  Placement pose_b;
};

/// The reference answer of one pair, computed once, outside any timed region.
struct Reference {
  /// Whether `intersect` is certified (by an exact test or a certificate).
  bool known_intersect = false;
  bool intersect = false;
  /// Within kTouchingBand * scale of touching: either boolean answer is accepted.
  bool near_touching = false;
  /// Euclidean distance (0 when intersecting), when a reference for it exists.
  bool known_distance = false;
  double distance = kNaN;
  /// Penetration depth (intersecting pairs only), when a reference exists.
  bool known_depth = false;
  double depth = kNaN;
};

/// One table row's inputs: e.g. "N=32" polytopes or the "capsule-capsule" primitive pairs.
struct CaseSet {
  std::string name;
  std::vector<Body> bodies;
  std::vector<PairCase> pairs;
  std::vector<Reference> refs;
  /// Length scale of the bodies (largest bounding radius): tolerances are relative to it.
  double scale = 1;
};

/// The four suites of the program.
enum class Suite { gjk_intersect, gjk_distance, epa, primitives };

/// An answer to a distance query. `intersect` true means "distance 0".
struct DistanceAnswer {
  bool intersect = false;
  double distance = kNaN;
  /// Witness points (world) when the implementation gives them, NaN otherwise.
  Vec3 point_a = Vec3::Constant(kNaN);
  Vec3 point_b = Vec3::Constant(kNaN);
};

/// An answer to a penetration query. `intersect` false means the implementation found the pair
/// separated (then depth is ignored).
struct DepthAnswer {
  bool intersect = false;
  double depth = kNaN;
};

/// One implementation under test. prepare() builds its own shape objects from the case set
/// (untimed); the query functions answer pair i of that set and are what the harness times.
class Implementation {
 public:
  virtual ~Implementation() = default;
  virtual std::string name() const = 0;
  /// Whether this implementation answers `suite` on this case set at all (shape kinds, API).
  virtual bool supports(Suite suite, const CaseSet& set) const = 0;
  virtual void prepare(const CaseSet& set) = 0;
  virtual bool intersect(std::size_t i) = 0;
  virtual DistanceAnswer distance(std::size_t i) = 0;
  virtual DepthAnswer penetration(std::size_t i) = 0;
};

/// Factories of the peers (each defined only when its library was found, see CMakeLists.txt)
/// and of proxima. A factory returns every flavour that library offers (e.g. libccd GJK and MPR).
std::vector<std::unique_ptr<Implementation>> make_proxima();
/// proxima through query:: on AnyConvex (the runtime boundary); empty without the query layer.
std::vector<std::unique_ptr<Implementation>> make_proxima_query();
/// proxima's LP collision test (lp::intersect) on polytopes; empty without the lp layer.
std::vector<std::unique_ptr<Implementation>> make_proxima_lp();
std::vector<std::unique_ptr<Implementation>> make_libccd();
std::vector<std::unique_ptr<Implementation>> make_fcl();
std::vector<std::unique_ptr<Implementation>> make_bullet();

}  // namespace proxima::bench
