// SPDX-License-Identifier: MIT
#include "scene/check.hpp"

#include <proxima/ccd/screw_collisions.hpp>
#include <proxima/ccd/toi.hpp>
#include <proxima/ipm/distance.hpp>
#include <proxima/lp/distance.hpp>
#include <proxima/lp/intersect.hpp>
#include <proxima/query/query.hpp>
#include <proxima/shapes/polytope.hpp>

#include <cmath>
#include <cstdio>
#include <exception>
#include <limits>
#include <optional>
#include <vector>

namespace proxima::scene {
namespace {

using Json = nlohmann::ordered_json;

double field_number(const Answer& a, const char* key) {
  const auto it = a.fields.find(key);
  if (it == a.fields.end() || !it->is_number()) return std::numeric_limits<double>::quiet_NaN();
  return it->get<double>();
}

bool field_bool(const Answer& a, const char* key) {
  const auto it = a.fields.find(key);
  return it != a.fields.end() && it->is_boolean() && it->get<bool>();
}

std::string num(double v) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.10g", v);
  return buffer;
}

CheckReport none(const std::string& why) { return {"none", "", why}; }

// Why a second method gave no answer to compare with: "iteration_limit, no_progress",
// "degenerate_input, scale_out_of_range", ...
std::string stopped(Status status, Detail detail) {
  return std::string(to_string(status)) + ", " + std::string(to_string(detail));
}

CheckReport verdict(bool agree, const std::string& method, const std::string& detail) {
  return {agree ? "agree" : "disagree", method, detail};
}

// Scale of a query: both bounding radii plus the distance of the placed bounding centres.
double scale_of(const AnyConvex& a, const Pose& pa, const AnyConvex& b, const Pose& pb) {
  const BoundingSphere sa = a.bounding_sphere(), sb = b.bounding_sphere();
  const double s = sa.radius + sb.radius + (pa.apply(sa.center) - pb.apply(sb.center)).norm();
  return std::isfinite(s) && s > 0 ? s : 1.0;
}

// The placed vertices (world, 3 x n) of a polytope shape given without its own pose, if it is one.
std::optional<Eigen::MatrixXd> polytope_points(const BuiltShape& shape, const Pose& pose) {
  const auto* p = std::get_if<PolytopeSpec>(&shape.spec->value);
  if (p == nullptr || shape.spec->pose) return std::nullopt;
  Eigen::MatrixXd m(3, static_cast<Eigen::Index>(p->vertices.size()));
  for (std::size_t i = 0; i < p->vertices.size(); ++i) m.col(static_cast<Eigen::Index>(i)) = pose.apply(p->vertices[i]);
  return m;
}

bool both_convex(const QueryInput& in) { return in.a->convex && in.b->convex; }
bool both_implicit(const QueryInput& in) { return in.a->implicit && in.b->implicit; }
bool both_polytopes(const QueryInput& in) {
  return std::holds_alternative<PolytopeSpec>(in.a->spec->value) && !in.a->spec->pose &&
         std::holds_alternative<PolytopeSpec>(in.b->spec->value) && !in.b->spec->pose;
}

// ---- distance ----------------------------------------------------------------------------------

CheckReport check_distance(const QueryInput& in, const Answer& primary, double tol) {
  const QuerySpec& q = in.query;
  const double d1 = field_number(primary, "distance");
  if (!std::isfinite(d1)) return none("the first answer has no finite distance");
  const bool ipm_first = primary.method == "ipm";
  if (both_convex(in) && both_implicit(in)) {
    const double scale = scale_of(*in.a->convex, q.pose_a, *in.b->convex, q.pose_b);
    const DistanceResult r = ipm_first ? query::distance(*in.a->convex, q.pose_a, *in.b->convex, q.pose_b)
                                       : ipm::distance(*in.a->implicit, q.pose_a, *in.b->implicit, q.pose_b);
    const char* second = ipm_first ? "gjk" : "ipm";
    if (r.status != Status::converged) return none(std::string(second) + " did not converge (" + std::string(to_string(r.status)) + ")");
    const double diff = std::abs(r.distance - d1);
    return verdict(diff <= tol * scale, second,
                   "distance " + primary.method + " " + num(d1) + " vs " + second + " " + num(r.distance) + " (|diff| " +
                       num(diff) + ", allowed " + num(tol * scale) + ")");
  }
  if (both_polytopes(in)) {
    const Eigen::MatrixXd a = *polytope_points(*in.a, q.pose_a);
    const Eigen::MatrixXd b = *polytope_points(*in.b, q.pose_b);
    const lp::LpDistanceResult l1 = lp::distance(a, b, lp::DistanceNorm::l1);
    const lp::LpDistanceResult linf = lp::distance(a, b, lp::DistanceNorm::linf);
    if (!l1.converged || !linf.converged) return none("the lp distance did not converge");
    const double slack = tol * scale_of(*in.a->convex, q.pose_a, *in.b->convex, q.pose_b);
    // Euclidean distance between the infinity-norm and the 1-norm distances (Hoelder).
    const bool agree = linf.distance - slack <= d1 && d1 <= l1.distance + slack;
    return verdict(agree, "lp", "distance gjk " + num(d1) + " within lp bounds [inf-norm " + num(linf.distance) +
                                    ", 1-norm " + num(l1.distance) + "] up to " + num(slack));
  }
  return none("no second distance algorithm for a " + in.a->spec->type + " and a " + in.b->spec->type +
              " (ipm needs spheres, ellipsoids or superquadrics; lp needs polytopes)");
}

// ---- intersect -----------------------------------------------------------------------------------

CheckReport check_intersect(const QueryInput& in, const Answer& primary, double tol) {
  const QuerySpec& q = in.query;
  const bool hit = field_bool(primary, "intersect");
  const std::string first = std::string("gjk says ") + (hit ? "intersect" : "separate");
  if (both_polytopes(in)) {
    const lp::LpIntersectResult r = lp::intersect(*polytope_points(*in.a, q.pose_a), *polytope_points(*in.b, q.pose_b));
    if (!r.converged) return none("lp intersect did not converge");
    const double slack = tol * scale_of(*in.a->convex, q.pose_a, *in.b->convex, q.pose_b);
    // Touching within the band counts either way: LP separation thinner than the band.
    const bool touching = !r.intersect && r.margin <= slack;
    return verdict(r.intersect == hit || touching, "lp",
                   first + ", lp says " + (r.intersect ? "intersect" : "separate (margin " + num(r.margin) + ")"));
  }
  if (both_implicit(in) && both_convex(in)) {
    const DistanceResult r = ipm::distance(*in.a->implicit, q.pose_a, *in.b->implicit, q.pose_b);
    if (r.status != Status::converged) return none("ipm did not converge");
    const double slack = tol * scale_of(*in.a->convex, q.pose_a, *in.b->convex, q.pose_b);
    const bool touching = r.distance <= slack;
    return verdict(r.intersect == hit || touching, "ipm",
                   first + ", ipm distance " + num(r.distance) + (r.intersect ? " (intersect)" : ""));
  }
  return none("no second intersection test for a " + in.a->spec->type + " and a " + in.b->spec->type);
}

// ---- penetration ---------------------------------------------------------------------------------

CheckReport check_penetration(const QueryInput& in, const Answer& primary, double tol) {
  const QuerySpec& q = in.query;
  if (!field_bool(primary, "intersect")) {
    // Separated: the depth is 0; a GJK distance must see a gap.
    const DistanceResult d = query::distance(*in.a->convex, q.pose_a, *in.b->convex, q.pose_b);
    return verdict(!d.intersect, "gjk", std::string("epa says separate, gjk distance ") + num(d.distance));
  }
  const double depth = field_number(primary, "depth");
  const auto& n = primary.fields["normal"];
  if (!std::isfinite(depth) || !n.is_array()) return none("the first answer has no depth and normal");
  const Vec3 normal(n[0].get<double>(), n[1].get<double>(), n[2].get<double>());
  const double slack = tol * scale_of(*in.a->convex, q.pose_a, *in.b->convex, q.pose_b);
  // B moved by (depth + slack) * normal must be apart; by (depth - slack) * normal still overlapping.
  auto moved = [&](double by) { return Pose::from_translation(normal * by) * q.pose_b; };
  const IntersectResult out = query::intersect(*in.a->convex, q.pose_a, *in.b->convex, moved(depth + slack));
  const IntersectResult deep = query::intersect(*in.a->convex, q.pose_a, *in.b->convex, moved(depth - slack));
  const bool shallow_ok = depth <= slack || deep.intersect;  // a depth below the band has no inside
  return verdict(!out.intersect && shallow_ok, "gjk-touch",
                 "B moved by depth + " + num(slack) + " along the normal: " + (out.intersect ? "still overlapping" : "apart") +
                     "; by depth - " + num(slack) + ": " + (shallow_ok ? "overlapping" : "apart"));
}

// ---- lp_intersect --------------------------------------------------------------------------------

CheckReport check_lp_intersect(const QueryInput& in, const Answer& primary, double tol) {
  const QuerySpec& q = in.query;
  Eigen::MatrixXd a, b;
  if (in.a == nullptr) {
    if (q.points_a.front().size() != 3) return none("gjk works in 3-D; these points have " + std::to_string(q.points_a.front().size()) + " coordinates");
    a.resize(3, static_cast<Eigen::Index>(q.points_a.size()));
    b.resize(3, static_cast<Eigen::Index>(q.points_b.size()));
    for (std::size_t i = 0; i < q.points_a.size(); ++i) a.col(static_cast<Eigen::Index>(i)) = q.points_a[i];
    for (std::size_t i = 0; i < q.points_b.size(); ++i) b.col(static_cast<Eigen::Index>(i)) = q.points_b[i];
  } else {
    if (!both_polytopes(in)) return none("lp shapes are not both polytopes");
    a = *polytope_points(*in.a, q.pose_a);
    b = *polytope_points(*in.b, q.pose_b);
  }
  auto to_points = [](const Eigen::MatrixXd& m) {
    std::vector<Vec3> p;
    for (Eigen::Index i = 0; i < m.cols(); ++i) p.emplace_back(m.col(i));
    return p;
  };
  const std::vector<Vec3> pa = to_points(a), pb = to_points(b);
  std::optional<Polytope> ha, hb;
  try {
    ha.emplace(std::span<const Vec3>(pa));
    hb.emplace(std::span<const Vec3>(pb));
  } catch (const std::exception& e) {
    return none(std::string("gjk cannot use these point sets: ") + e.what());
  }
  const AnyConvex ca(*ha), cb(*hb);
  const IntersectResult r = query::intersect(ca, Pose(), cb, Pose());
  if (r.status != Status::converged) return none("gjk did not converge");
  const bool hit = field_bool(primary, "intersect");
  const double margin = field_number(primary, "margin");
  const double slack = tol * scale_of(ca, Pose(), cb, Pose());
  const bool touching = !hit && std::isfinite(margin) && margin <= slack;
  return verdict(r.intersect == hit || touching, "gjk",
                 std::string("lp says ") + (hit ? "intersect" : "separate") + ", gjk says " +
                     (r.intersect ? "intersect" : "separate"));
}

// ---- continuous ----------------------------------------------------------------------------------

// Two contact reports agree: same contact flag, and times within tol * t_max.
CheckReport compare_contact(bool c1, double t1, bool c2, double t2, double t_max, double tol, const std::string& method,
                            const std::string& first_name) {
  auto text = [](bool c, double t) { return c ? "contact at " + num(t) : std::string("no contact"); };
  const std::string detail = first_name + " " + text(c1, t1) + ", " + method + " " + text(c2, t2);
  if (c1 != c2) return verdict(false, method, detail);
  if (!c1) return verdict(true, method, detail);
  return verdict(std::abs(t1 - t2) <= tol * t_max, method, detail + " (allowed " + num(tol * t_max) + ")");
}

CheckReport check_toi_translate(const QueryInput& in, const Answer& primary, double tol) {
  const QuerySpec& q = in.query;
  if (!in.a->mesh || !in.b->mesh) return none("screw exact mode needs polytopes or meshes");
  const bool contact = field_bool(primary, "contact");
  const double toi = field_number(primary, "toi");
  if (contact && toi == 0) return none("the shapes touch at the start (screw exact mode reports crossings only)");
  const Pose a_end = Pose::from_translation(q.velocity_a * q.t_max) * q.pose_a;
  const Pose b_end = Pose::from_translation(q.velocity_b * q.t_max) * q.pose_b;
  const ccd::ScrewResult r = ccd::screw_collisions(*in.a->mesh, q.pose_a, a_end, *in.b->mesh, q.pose_b, b_end);
  if (r.status != Status::converged) return none("screw exact mode did not converge (" + stopped(r.status, r.detail) + ")");
  return compare_contact(contact, toi, r.contact, r.toi * q.t_max, q.t_max, tol, "screw-exact", "gjk-advance");
}

CheckReport check_screw(const QueryInput& in, const Answer& primary, double tol) {
  const QuerySpec& q = in.query;
  if (!both_convex(in)) return none("convex conservative advancement needs convex shapes (polytopes), not meshes");
  const ToiResult r = ccd::toi_screw(*in.a->convex, q.pose_a, *q.pose_a_end, *in.b->convex, q.pose_b, *q.pose_b_end);
  if (r.status != Status::converged) {
    return none("conservative advancement did not converge (" + stopped(r.status, r.detail) + ")");
  }
  if (r.contact && r.toi == 0) return none("the shapes touch at the start (screw exact mode reports crossings only)");
  return compare_contact(field_bool(primary, "contact"), field_number(primary, "toi"), r.contact, r.toi, 1.0, tol,
                         "gjk-advance-screw", "glide");
}

CheckReport check_interval(const QueryInput& in, const Answer& primary, double tol) {
  const QuerySpec& q = in.query;
  if (!both_convex(in)) return none("gjk needs support-mapping shapes");
  const double t = field_number(primary, "min_time");
  const double d = field_number(primary, "min_distance");
  if (!std::isfinite(t) || !std::isfinite(d)) return none("the first answer has no finite minimum");
  const Pose pa = Pose::from_translation(q.velocity_a * t) * q.pose_a;
  const Pose pb = Pose::from_translation(q.velocity_b * t) * q.pose_b;
  const DistanceResult r = query::distance(*in.a->convex, pa, *in.b->convex, pb);
  const double diff = std::abs(r.distance - d);
  const double slack = tol * scale_of(*in.a->convex, pa, *in.b->convex, pb);
  return verdict(diff <= slack, "gjk",
                 "min_distance ipm " + num(d) + " vs gjk distance at min_time " + num(r.distance) + " (allowed " + num(slack) + ")");
}

}  // namespace

CheckReport cross_check(const QueryInput& in, const Answer& primary, double tolerance) {
  try {
    switch (in.query.kind) {
      case QueryKind::distance:
        return check_distance(in, primary, tolerance);
      case QueryKind::intersect:
        return check_intersect(in, primary, tolerance);
      case QueryKind::penetration:
        return check_penetration(in, primary, tolerance);
      case QueryKind::lp_intersect:
        return check_lp_intersect(in, primary, tolerance);
      case QueryKind::toi_translate:
        return check_toi_translate(in, primary, tolerance);
      case QueryKind::screw:
        return check_screw(in, primary, tolerance);
      case QueryKind::interval_translate:
        return check_interval(in, primary, tolerance);
      case QueryKind::lp_contains:
        return none("no second containment test");
    }
  } catch (const std::exception& e) {
    return none(std::string("the second algorithm refused the query: ") + e.what());
  }
  return none("unknown kind");
}

}  // namespace proxima::scene
