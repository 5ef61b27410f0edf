// SPDX-License-Identifier: MIT
#include "scene/answers.hpp"

#include <proxima/core/error.hpp>
#include <proxima/ccd/screw_collisions.hpp>
#include <proxima/ccd/toi.hpp>
#include <proxima/ipm/continuous.hpp>
#include <proxima/ipm/distance.hpp>
#include <proxima/lp/contains.hpp>
#include <proxima/lp/intersect.hpp>
#include <proxima/query/query.hpp>

#include <cmath>
#include <cstdio>

namespace proxima::scene {
namespace {

using Json = nlohmann::ordered_json;

// NaN (a field the query did not set) is printed as null, per DESIGN.md.
Json number(double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); }

Json vector3(const Vec3& v) {
  if (!v.allFinite()) return nullptr;
  return Json::array({v.x(), v.y(), v.z()});
}

Json vector_n(const Eigen::VectorXd& v) {
  if (v.size() == 0 || !v.allFinite()) return nullptr;
  Json out = Json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) out.push_back(v[i]);
  return out;
}

std::string short_number(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", v);
  return buffer;
}

std::string short_vector(const Vec3& v) {
  if (!v.allFinite()) return "-";
  return "(" + short_number(v.x()) + ", " + short_number(v.y()) + ", " + short_number(v.z()) + ")";
}

void add_status(Answer& out, int iterations, Status status, Detail detail) {
  out.fields["iterations"] = iterations;
  out.fields["converged"] = status == Status::converged;
  out.fields["solver_status"] = std::string(to_string(status));
  out.fields["detail"] = std::string(to_string(detail));
  out.iterations = iterations;
}

Answer refuse(const std::string& message) {
  Answer a;
  a.message = message;
  return a;
}

// The support-mapping forms of both shapes, or the reason GJK cannot run on them.
const char* missing_support(const QueryInput& in) {
  if (!in.a->convex) return "a";
  if (!in.b->convex) return "b";
  return nullptr;
}

Answer gjk_refusal(const QueryInput& in, const char* side) {
  const BuiltShape* s = side[0] == 'a' ? in.a : in.b;
  const std::string name = side[0] == 'a' ? in.query.a : in.query.b;
  return refuse(std::string(side) + ": shape \"" + name + "\" is a " + s->spec->type +
                ", which has no support mapping; GJK/EPA queries need convex support-mapping shapes");
}

// The implicit forms of both shapes, or the reason the interior-point solver cannot run.
Answer ipm_refusal(const QueryInput& in) {
  const bool a_bad = !in.a->implicit;
  const BuiltShape* s = a_bad ? in.a : in.b;
  const std::string prefix = std::string(a_bad ? "a" : "b") + ": shape \"" + (a_bad ? in.query.a : in.query.b) + "\" ";
  if (!s->implicit_error.empty()) return refuse(prefix + "has no implicit form: " + s->implicit_error);
  return refuse(prefix + "is a " + s->spec->type +
                ", which has no implicit form; interior-point queries need implicit, "
                "hyperquadric, superquadric, ellipsoid or sphere shapes");
}

bool method_is(const QuerySpec& q, std::initializer_list<const char*> allowed) {
  if (q.method.empty()) return true;
  for (const char* m : allowed) {
    if (q.method == m) return true;
  }
  return false;
}

Answer method_refusal(const QuerySpec& q, const char* available) {
  return refuse("method: \"" + q.method + "\" does not apply to kind " + q.kind_name + " (available: " + available + ")");
}

// Points of an LP query as columns: the query's own n-D point lists, or the vertices of a polytope
// shape placed by its pose (3-D).
Eigen::MatrixXd lp_points(const QueryInput& in, bool side_a, std::string& error) {
  const QuerySpec& q = in.query;
  const std::vector<Eigen::VectorXd>& given = side_a ? q.points_a : q.points_b;
  Eigen::MatrixXd m;
  if (in.a == nullptr) {
    m.resize(given.front().size(), static_cast<Eigen::Index>(given.size()));
    for (std::size_t i = 0; i < given.size(); ++i) m.col(static_cast<Eigen::Index>(i)) = given[i];
    return m;
  }
  const BuiltShape* shape = side_a ? in.a : in.b;
  const auto* polytope = std::get_if<PolytopeSpec>(&shape->spec->value);
  if (polytope == nullptr || shape->spec->pose) {
    error = std::string(side_a ? "a" : "b") + ": shape \"" + (side_a ? q.a : q.b) + "\" is a " + shape->spec->type +
            "; LP queries need polytopes (or points_a / points_b)";
    return m;
  }
  const Pose& pose = side_a ? q.pose_a : q.pose_b;
  m.resize(3, static_cast<Eigen::Index>(polytope->vertices.size()));
  for (std::size_t i = 0; i < polytope->vertices.size(); ++i) m.col(static_cast<Eigen::Index>(i)) = pose.apply(polytope->vertices[i]);
  return m;
}

void add_lp_status(Answer& out, int iterations, bool converged, Status status, Detail detail) {
  out.fields["iterations"] = iterations;
  out.fields["converged"] = converged;
  out.fields["solver_status"] = std::string(to_string(status));
  out.fields["detail"] = std::string(to_string(detail));
  out.iterations = iterations;
}

Answer answer_lp_intersect(const QueryInput& in) {
  const QuerySpec& q = in.query;
  if (!method_is(q, {"lp"})) return method_refusal(q, "lp");
  std::string error;
  const Eigen::MatrixXd a = lp_points(in, true, error);
  if (!error.empty()) return refuse(error);
  const Eigen::MatrixXd b = lp_points(in, false, error);
  if (!error.empty()) return refuse(error);
  const lp::LpIntersectResult r = lp::intersect(a, b);
  Answer out;
  out.ok = true;
  out.method = "lp";
  out.fields["intersect"] = r.intersect;
  out.fields["common_point"] = vector_n(r.common_point);
  out.fields["weights_a"] = vector_n(r.weights_a);
  out.fields["weights_b"] = vector_n(r.weights_b);
  out.fields["separating_normal"] = vector_n(r.separating_normal);
  out.fields["separating_offset"] = number(r.separating_offset);
  out.fields["margin"] = number(r.margin);
  add_lp_status(out, r.iterations, r.converged, r.status, r.detail);
  out.summary = r.intersect ? "intersect (common point certificate)"
                            : "separate, slab width " + short_number(r.margin) + " (Farkas certificate)";
  return out;
}

Answer answer_lp_contains(const QueryInput& in) {
  const QuerySpec& q = in.query;
  if (!method_is(q, {"lp"})) return method_refusal(q, "lp");
  std::string error;
  const Eigen::MatrixXd a = lp_points(in, true, error);
  if (!error.empty()) return refuse(error);
  const Eigen::MatrixXd b = lp_points(in, false, error);
  if (!error.empty()) return refuse(error);
  const lp::LpContainsResult r = lp::contains(a, b);
  Answer out;
  out.ok = true;
  out.method = "lp";
  out.fields["contains"] = r.contains;
  out.fields["outside_vertex"] = r.contains ? Json(nullptr) : Json(r.outside_vertex);
  out.fields["separating_normal"] = vector_n(r.separating_normal);
  out.fields["separating_offset"] = number(r.separating_offset);
  out.fields["margin"] = number(r.margin);
  out.fields["points_checked"] = r.points_checked;
  add_lp_status(out, r.iterations, r.converged, r.status, r.detail);
  out.summary = r.contains ? "a inside b" : "a not inside b (point " + std::to_string(r.outside_vertex) + " outside)";
  return out;
}

// Conservative advancement on GJK (ccd::toi_translate). It runs on AnyConvex directly (one visit
// per support call): a second N^2 instantiation set is not worth its build time for this kind.
Answer answer_toi_translate(const QueryInput& in) {
  const QuerySpec& q = in.query;
  if (!method_is(q, {"gjk"})) return method_refusal(q, "gjk");
  if (const char* side = missing_support(in)) return gjk_refusal(in, side);
  const ToiResult r = ccd::toi_translate(*in.a->convex, q.pose_a, q.velocity_a, *in.b->convex, q.pose_b, q.velocity_b, q.t_max);
  Answer out;
  out.ok = true;
  out.method = "gjk-advance";
  out.fields["contact"] = r.contact;
  out.fields["toi"] = number(r.toi);
  out.fields["point"] = vector3(r.point);
  out.fields["normal"] = vector3(r.normal);
  add_status(out, r.iterations, r.status, r.detail);
  out.summary = r.contact ? "contact at t = " + short_number(r.toi) + ", normal " + short_vector(r.normal)
                          : "no contact before t_max";
  return out;
}

// Closest approach of two translating implicit objects (ipm::interval_translate, seed 001 eq. 17).
Answer answer_interval_translate(const QueryInput& in) {
  const QuerySpec& q = in.query;
  if (!method_is(q, {"ipm"})) return method_refusal(q, "ipm");
  if (!in.a->implicit || !in.b->implicit) return ipm_refusal(in);
  const ipm::IntervalResult r = ipm::interval_translate(*in.a->implicit, q.pose_a, q.velocity_a, *in.b->implicit, q.pose_b,
                                                       q.velocity_b, q.t_max);
  Answer out;
  out.ok = true;
  out.method = "ipm";
  out.fields["intersect"] = r.intersect;
  out.fields["min_distance"] = number(r.min_distance);
  out.fields["min_time"] = number(r.min_time);
  out.fields["point_a"] = vector3(r.point_a);
  out.fields["point_b"] = vector3(r.point_b);
  out.fields["normal"] = vector3(r.normal);
  add_status(out, r.iterations, r.status, r.detail);
  out.summary = "min distance " + short_number(r.min_distance) + " at t = " + short_number(r.min_time);
  return out;
}

// All collisions of a screw-motion step between two meshes (ccd::screw_collisions: method "glide"
// or automatic is the exact mode, "raster" the seed's collision screen).
Answer answer_screw(const QueryInput& in) {
  const QuerySpec& q = in.query;
  if (!method_is(q, {"glide", "raster"})) return method_refusal(q, "glide, raster");
  for (const char* side : {"a", "b"}) {
    const BuiltShape* s = side[0] == 'a' ? in.a : in.b;
    if (!s->mesh) {
      return refuse(std::string(side) + ": shape \"" + (side[0] == 'a' ? q.a : q.b) + "\" is a " + s->spec->type +
                    "; screw queries need mesh shapes (or full-dimensional polytopes)");
    }
  }
  ccd::ScrewOptions options;
  if (q.method == "raster") options.method = ccd::ScrewMethod::raster;
  const ccd::ScrewResult r =
      ccd::screw_collisions(*in.a->mesh, q.pose_a, *q.pose_a_end, *in.b->mesh, q.pose_b, *q.pose_b_end, options);
  Answer out;
  out.ok = true;
  out.method = q.method == "raster" ? "raster" : "glide";
  out.fields["contact"] = r.contact;
  out.fields["toi"] = number(r.toi);
  out.fields["point"] = vector3(r.point);
  out.fields["normal"] = vector3(r.normal);
  Json collisions = Json::array();
  for (const ccd::Collision& c : r.collisions) {
    Json item;
    item["type"] = std::string(ccd::to_string(c.type));
    if (c.vertex >= 0) item["vertex"] = c.vertex;
    if (c.face >= 0) item["face"] = c.face;
    if (c.edge_a >= 0) item["edge_a"] = c.edge_a;
    if (c.edge_b >= 0) item["edge_b"] = c.edge_b;
    item["time"] = number(c.time);
    item["point"] = vector3(c.point);
    item["normal"] = vector3(c.normal);
    item["properness"] = number(c.properness);
    collisions.push_back(std::move(item));
  }
  out.fields["collisions"] = std::move(collisions);
  add_status(out, r.iterations, r.status, r.detail);
  out.summary = r.contact ? std::to_string(r.collisions.size()) + " collisions, first at t = " + short_number(r.toi)
                          : "no collision in the step";
  return out;
}

Answer answer_distance(const QueryInput& in) {
  const QuerySpec& q = in.query;
  if (!method_is(q, {"gjk", "ipm"})) return method_refusal(q, "gjk, ipm");
  const bool use_ipm = q.method == "ipm" || (q.method.empty() && (!in.a->convex || !in.b->convex));
  DistanceResult r;
  if (use_ipm) {
    if (!in.a->implicit || !in.b->implicit) return ipm_refusal(in);
    r = ipm::distance(*in.a->implicit, q.pose_a, *in.b->implicit, q.pose_b);
  } else {
    if (const char* side = missing_support(in)) return gjk_refusal(in, side);
    r = query::distance(*in.a->convex, q.pose_a, *in.b->convex, q.pose_b);
  }
  Answer out;
  out.ok = true;
  out.method = use_ipm ? "ipm" : "gjk";
  out.fields["intersect"] = r.intersect;
  out.fields["distance"] = number(r.distance);
  out.fields["point_a"] = vector3(r.point_a);
  out.fields["point_b"] = vector3(r.point_b);
  out.fields["normal"] = vector3(r.normal);
  out.fields["gap"] = number(r.gap);
  add_status(out, r.iterations, r.status, r.detail);
  out.summary = r.intersect ? "touching/overlapping (distance 0)"
                            : "distance " + short_number(r.distance) + ", normal " + short_vector(r.normal);
  return out;
}

Answer answer_intersect(const QueryInput& in) {
  const QuerySpec& q = in.query;
  if (!method_is(q, {"gjk"})) return method_refusal(q, "gjk");
  if (const char* side = missing_support(in)) return gjk_refusal(in, side);
  const IntersectResult r = query::intersect(*in.a->convex, q.pose_a, *in.b->convex, q.pose_b);
  Answer out;
  out.ok = true;
  out.method = "gjk";
  out.fields["intersect"] = r.intersect;
  out.fields["separating_axis"] = vector3(r.separating_axis);
  add_status(out, r.iterations, r.status, r.detail);
  out.summary = r.intersect ? "intersect" : "separate, axis " + short_vector(r.separating_axis);
  return out;
}

Answer answer_penetration(const QueryInput& in) {
  const QuerySpec& q = in.query;
  if (!method_is(q, {"gjk"})) return method_refusal(q, "gjk");
  if (const char* side = missing_support(in)) return gjk_refusal(in, side);
  const PenetrationResult r = query::penetration(*in.a->convex, q.pose_a, *in.b->convex, q.pose_b);
  Answer out;
  out.ok = true;
  out.method = "gjk+epa";
  out.fields["intersect"] = r.intersect;
  out.fields["depth"] = number(r.depth);
  out.fields["normal"] = vector3(r.normal);
  out.fields["point_a"] = vector3(r.point_a);
  out.fields["point_b"] = vector3(r.point_b);
  out.fields["gap"] = number(r.gap);
  add_status(out, r.iterations, r.status, r.detail);
  out.summary = r.intersect ? "depth " + short_number(r.depth) + ", normal " + short_vector(r.normal)
                            : "separate (depth 0)";
  return out;
}

}  // namespace

Answer answer_query(const QueryInput& in) {
  switch (in.query.kind) {
    case QueryKind::distance:
      return answer_distance(in);
    case QueryKind::intersect:
      return answer_intersect(in);
    case QueryKind::penetration:
      return answer_penetration(in);
    case QueryKind::lp_intersect:
      return answer_lp_intersect(in);
    case QueryKind::lp_contains:
      return answer_lp_contains(in);
    case QueryKind::toi_translate:
      return answer_toi_translate(in);
    case QueryKind::interval_translate:
      return answer_interval_translate(in);
    case QueryKind::screw:
      return answer_screw(in);
  }
  return refuse("unknown query kind");
}

}  // namespace proxima::scene
