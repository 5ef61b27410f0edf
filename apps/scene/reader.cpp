// SPDX-License-Identifier: MIT
#include "scene/reader.hpp"

#include <proxima/core/error.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <set>

namespace proxima::scene {
namespace {

using Json = nlohmann::ordered_json;

// Sentinel strings standing for the non-JSON number tokens NaN / Infinity / -Infinity. They
// start with a NUL character, which a scene author cannot type by accident.
const std::string kNanToken = std::string(1, '\0') + "NaN";
const std::string kInfToken = std::string(1, '\0') + "Infinity";
const std::string kNegInfToken = std::string(1, '\0') + "-Infinity";

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
}

// Rewrites NaN / Infinity / -Infinity outside strings into sentinel strings so nlohmann parses them.
std::string replace_non_finite_tokens(std::string_view text) {
  struct Token {
    std::string_view word;
    const std::string* sentinel;
  };
  const std::array<Token, 3> tokens = {{{"-Infinity", &kNegInfToken}, {"Infinity", &kInfToken}, {"NaN", &kNanToken}}};
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) {
        out += text[++i];
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
      out += c;
      continue;
    }
    bool replaced = false;
    for (const Token& t : tokens) {
      if (text.substr(i, t.word.size()) != t.word) continue;
      const bool left_ok = i == 0 || !is_word_char(text[i - 1]);
      const std::size_t end = i + t.word.size();
      const bool right_ok = end == text.size() || !is_word_char(text[end]);
      if (!left_ok || !right_ok) continue;
      out += Json(*t.sentinel).dump();
      i = end - 1;
      replaced = true;
      break;
    }
    if (!replaced) out += c;
  }
  return out;
}

std::string type_name(const Json& j) {
  if (j.is_string() && !j.get_ref<const std::string&>().empty() && j.get_ref<const std::string&>()[0] == '\0') {
    return "number";
  }
  return j.type_name();
}

[[noreturn]] void fail(const std::string& path, const std::string& message) { throw InvalidInput(path, message); }

// Re-raises an InvalidInput from a library factory with the JSON path in front of its field.
[[noreturn]] void rethrow_under(const std::string& path, const InvalidInput& e) {
  std::string message = e.what();
  const std::string prefix = e.field() + ": ";
  if (message.rfind(prefix, 0) == 0) message.erase(0, prefix.size());
  fail(path + "." + e.field(), message);
}

// ---- typed readers: each names the path of the value it refuses --------------------------------

double read_number(const Json& j, const std::string& path) {
  if (j.is_number()) return j.get<double>();
  if (j.is_string()) {
    const auto& s = j.get_ref<const std::string&>();
    if (s == kNanToken) return std::numeric_limits<double>::quiet_NaN();
    if (s == kInfToken) return std::numeric_limits<double>::infinity();
    if (s == kNegInfToken) return -std::numeric_limits<double>::infinity();
  }
  fail(path, "must be a number, got " + type_name(j));
}

double read_finite(const Json& j, const std::string& path) {
  const double v = read_number(j, path);
  if (!std::isfinite(v)) fail(path, "must be finite, got " + format_number(v));
  return v;
}

double read_positive(const Json& j, const std::string& path) {
  const double v = read_finite(j, path);
  if (!(v > 0)) fail(path, "must be > 0, got " + format_number(v));
  return v;
}

void require_array(const Json& j, const std::string& path, std::size_t size, const char* what) {
  if (!j.is_array() || (size > 0 && j.size() != size)) {
    fail(path, std::string("must be ") + what + ", got " +
                   (j.is_array() ? "an array of " + std::to_string(j.size()) : type_name(j)));
  }
}

std::string format_vector(const Eigen::VectorXd& v) {
  std::string s = "[";
  for (Eigen::Index i = 0; i < v.size(); ++i) s += (i ? ", " : "") + format_number(v[i]);
  return s + "]";
}

// n numbers; a non-finite entry is reported for the whole vector ("vertices[3]: must be finite").
Eigen::VectorXd read_finite_vector(const Json& j, const std::string& path, std::size_t n, const char* what) {
  require_array(j, path, n, what);
  Eigen::VectorXd v(static_cast<Eigen::Index>(j.size()));
  for (std::size_t i = 0; i < j.size(); ++i) v[static_cast<Eigen::Index>(i)] = read_number(j[i], path + "[" + std::to_string(i) + "]");
  if (!v.allFinite()) fail(path, "must be finite, got " + format_vector(v));
  return v;
}

Vec3 read_vec3(const Json& j, const std::string& path) {
  return read_finite_vector(j, path, 3, "an array of 3 numbers");
}

Vec3 read_positive_vec3(const Json& j, const std::string& path) {
  const Vec3 v = read_vec3(j, path);
  for (int i = 0; i < 3; ++i) {
    if (!(v[i] > 0)) fail(path + "[" + std::to_string(i) + "]", "must be > 0, got " + format_number(v[i]));
  }
  return v;
}

std::vector<Vec3> read_points3(const Json& j, const std::string& path) {
  require_array(j, path, 0, "an array of [x, y, z] points");
  if (j.empty()) fail(path, "must not be empty");
  std::vector<Vec3> points;
  points.reserve(j.size());
  for (std::size_t i = 0; i < j.size(); ++i) points.push_back(read_vec3(j[i], path + "[" + std::to_string(i) + "]"));
  return points;
}

// Refuses any key of `object` not in `allowed`, naming it.
void check_fields(const Json& object, const std::string& path, std::initializer_list<const char*> allowed) {
  for (const auto& item : object.items()) {
    const bool known = std::any_of(allowed.begin(), allowed.end(), [&](const char* a) { return item.key() == a; });
    if (!known) {
      std::string list;
      for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
      fail(path + "." + item.key(), "unknown field (allowed here: " + list + ")");
    }
  }
}

const Json& require_field(const Json& object, const std::string& path, const char* key) {
  const auto it = object.find(key);
  if (it == object.end()) fail(path + "." + key, "missing");
  return *it;
}

std::string read_string(const Json& j, const std::string& path) {
  if (!j.is_string() || type_name(j) != "string") fail(path, "must be a string, got " + type_name(j));
  return j.get<std::string>();
}

// ---- poses ---------------------------------------------------------------------------------------

Mat3 read_matrix(const Json& j, const std::string& path) {
  require_array(j, path, 3, "three rows of three numbers");
  Mat3 m;
  for (int r = 0; r < 3; ++r) {
    const std::string row_path = path + "[" + std::to_string(r) + "]";
    const Vec3 row = read_finite_vector(j[static_cast<std::size_t>(r)], row_path, 3, "a row of 3 numbers");
    m.row(r) = row.transpose();
  }
  return m;
}

Pose read_pose(const Json& j, const std::string& path) {
  if (!j.is_object()) fail(path, "must be an object, got " + type_name(j));
  check_fields(j, path, {"translation", "quaternion", "matrix", "euler_xyz"});
  const int rotations = static_cast<int>(j.contains("quaternion")) + static_cast<int>(j.contains("matrix")) +
                        static_cast<int>(j.contains("euler_xyz"));
  if (rotations > 1) fail(path, "at most one of quaternion, matrix, euler_xyz may be given");
  const Vec3 t = j.contains("translation") ? read_vec3(j["translation"], path + ".translation") : Vec3::Zero();
  try {
    if (j.contains("quaternion")) {
      const Eigen::VectorXd q =
          read_finite_vector(j["quaternion"], path + ".quaternion", 4, "an array of 4 numbers [w, x, y, z]");
      return Pose::from_quaternion(q[0], q[1], q[2], q[3], t);
    }
    if (j.contains("matrix")) return Pose::from_matrix(read_matrix(j["matrix"], path + ".matrix"), t);
    if (j.contains("euler_xyz")) {
      const Vec3 e = read_vec3(j["euler_xyz"], path + ".euler_xyz");
      return Pose::from_euler_xyz(e.x(), e.y(), e.z(), t);
    }
    return Pose::from_translation(t);
  } catch (const InvalidInput& e) {
    if (e.field().rfind(path, 0) == 0) throw;  // already carries the full path
    rethrow_under(path, e);
  }
}

// ---- shapes --------------------------------------------------------------------------------------

const char* const kShapeTypes =
    "sphere, box, capsule, cylinder, cone, ellipsoid, polytope, superquadric, hyperquadric, implicit, "
    "minkowski, hull, mesh";

class ShapeReader {
 public:
  explicit ShapeReader(const Json& shapes) : shapes_(shapes) {}

  // A named shape of the "shapes" map.
  ShapeSpec named(const std::string& name, const std::string& referrer, int depth) {
    const auto it = shapes_.find(name);
    if (it == shapes_.end()) fail(referrer, "no shape named \"" + name + "\"");
    if (std::find(stack_.begin(), stack_.end(), name) != stack_.end()) {
      fail(referrer, "shape \"" + name + "\" refers to itself");
    }
    stack_.push_back(name);
    struct Pop {
      std::vector<std::string>& s;
      ~Pop() { s.pop_back(); }
    } pop{stack_};
    try {
      return shape(*it, "shapes." + name, depth, Context::top);
    } catch (const InvalidInput& e) {
      if (referrer.empty()) throw;
      fail(referrer, "shape \"" + name + "\" is invalid: " + e.what());
    }
  }

 private:
  enum class Context { top, operand, part };

  // A reference (string = name) or an inline shape object, as an operand of hull / minkowski.
  ShapeSpec operand(const Json& j, const std::string& path, int depth) {
    if (j.is_string()) return named(j.get<std::string>(), path, depth + 1);
    return shape(j, path, depth + 1, Context::operand);
  }

  ShapeSpec shape(const Json& j, const std::string& path, int depth, Context context) {
    if (depth > kMaxShapeNesting) fail(path, "shapes nested deeper than " + std::to_string(kMaxShapeNesting));
    if (!j.is_object()) fail(path, "must be a shape object, got " + type_name(j));
    ShapeSpec s;
    s.path = path;
    s.type = read_string(require_field(j, path, "type"), path + ".type");
    const std::string& t = s.type;
    auto fields = [&](std::initializer_list<const char*> own) {
      std::vector<const char*> all(own);
      all.push_back("type");
      if (context != Context::top) all.push_back("pose");
      if (context == Context::part) all.push_back("affine");
      for (const auto& item : j.items()) {
        if (std::find_if(all.begin(), all.end(), [&](const char* a) { return item.key() == a; }) == all.end()) {
          std::string list;
          for (const char* a : all) list += (list.empty() ? "" : ", ") + std::string(a);
          fail(path + "." + item.key(), "unknown field for a " + t + " (allowed here: " + list + ")");
        }
      }
    };
    auto field = [&](const char* key) -> const Json& { return require_field(j, path, key); };
    auto sub = [&](const char* key) { return path + "." + key; };

    if (context == Context::part && t != "halfspace" && t != "superquadric" && t != "hyperquadric" &&
        t != "ellipsoid" && t != "sphere") {
      fail(path + ".type", "an implicit part must be one of halfspace, superquadric, hyperquadric, ellipsoid, "
                           "sphere; got \"" + t + "\"");
    }
    if (t == "sphere") {
      fields({"radius"});
      s.value = SphereSpec{read_positive(field("radius"), sub("radius"))};
    } else if (t == "box") {
      fields({"half_extents"});
      s.value = BoxSpec{read_positive_vec3(field("half_extents"), sub("half_extents"))};
    } else if (t == "capsule") {
      fields({"radius", "half_length"});
      s.value = CapsuleSpec{read_positive(field("radius"), sub("radius")),
                            read_positive(field("half_length"), sub("half_length"))};
    } else if (t == "cylinder" || t == "cone") {
      fields({"radius", "half_height"});
      const double r = read_positive(field("radius"), sub("radius"));
      const double h = read_positive(field("half_height"), sub("half_height"));
      if (t == "cylinder") {
        s.value = CylinderSpec{r, h};
      } else {
        s.value = ConeSpec{r, h};
      }
    } else if (t == "ellipsoid") {
      fields({"semiaxes"});
      s.value = EllipsoidSpec{read_positive_vec3(field("semiaxes"), sub("semiaxes"))};
    } else if (t == "polytope") {
      fields({"vertices"});
      s.value = PolytopeSpec{read_points3(field("vertices"), sub("vertices"))};
    } else if (t == "superquadric") {
      fields({"semiaxes", "exponents"});
      SuperquadricSpec q{read_positive_vec3(field("semiaxes"), sub("semiaxes")), read_vec3(field("exponents"), sub("exponents"))};
      for (int i = 0; i < 3; ++i) {
        if (!(q.exponents[i] >= 1)) {
          fail(sub("exponents") + "[" + std::to_string(i) + "]", "must be >= 1, got " + format_number(q.exponents[i]));
        }
      }
      s.value = q;
    } else if (t == "hyperquadric") {
      fields({"terms"});
      s.value = hyperquadric(field("terms"), sub("terms"));
    } else if (t == "halfspace") {
      if (context != Context::part) fail(sub("type"), "a halfspace is unbounded: it may only be a part of an implicit shape");
      fields({"normal", "offset"});
      HalfspaceSpec h{read_vec3(field("normal"), sub("normal")), read_finite(field("offset"), sub("offset"))};
      if (!(h.normal.norm() > 0)) fail(sub("normal"), "must not be zero");
      s.value = h;
    } else if (t == "implicit") {
      fields({"parts"});
      const Json& parts = field("parts");
      require_array(parts, sub("parts"), 0, "an array of parts");
      if (parts.empty()) fail(sub("parts"), "must not be empty");
      ImplicitSpec spec;
      for (std::size_t i = 0; i < parts.size(); ++i) {
        spec.parts.push_back(shape(parts[i], sub("parts") + "[" + std::to_string(i) + "]", depth + 1, Context::part));
      }
      s.value = std::move(spec);
    } else if (t == "minkowski") {
      fields({"a", "b"});
      MinkowskiSpec m;
      m.operands.push_back(operand(field("a"), sub("a"), depth));
      m.operands.push_back(operand(field("b"), sub("b"), depth));
      s.value = std::move(m);
    } else if (t == "hull") {
      fields({"of"});
      const Json& of = field("of");
      require_array(of, sub("of"), 0, "an array of shapes");
      if (of.empty()) fail(sub("of"), "must not be empty");
      HullSpec h;
      for (std::size_t i = 0; i < of.size(); ++i) h.of.push_back(operand(of[i], sub("of") + "[" + std::to_string(i) + "]", depth));
      s.value = std::move(h);
    } else if (t == "mesh") {
      fields({"vertices", "faces", "file"});
      s.value = mesh(j, path);
    } else {
      fail(sub("type"), "unknown shape type \"" + t + "\" (expected one of " + kShapeTypes + ")");
    }

    if (j.contains("pose") && j.contains("affine")) fail(path, "at most one of pose, affine may be given");
    if (j.contains("pose")) s.pose = read_pose(j["pose"], sub("pose"));
    if (j.contains("affine")) s.affine = affine(j["affine"], sub("affine"));
    return s;
  }

  static HyperquadricSpec hyperquadric(const Json& terms, const std::string& path) {
    require_array(terms, path, 0, "an array of {plane, exponent} terms");
    if (terms.empty()) fail(path, "must not be empty");
    HyperquadricSpec h;
    for (std::size_t i = 0; i < terms.size(); ++i) {
      const std::string p = path + "[" + std::to_string(i) + "]";
      const Json& term = terms[i];
      if (!term.is_object()) fail(p, "must be an object, got " + type_name(term));
      check_fields(term, p, {"plane", "exponent"});
      HyperquadricTerm ht;
      ht.plane = read_finite_vector(require_field(term, p, "plane"), p + ".plane", 4, "an array of 4 numbers [a, b, c, d]");
      if (!(ht.plane.head<3>().norm() > 0)) fail(p + ".plane", "its normal part [a, b, c] must not be zero");
      ht.exponent = read_finite(require_field(term, p, "exponent"), p + ".exponent");
      if (!(ht.exponent >= 1)) fail(p + ".exponent", "must be >= 1, got " + format_number(ht.exponent));
      h.terms.push_back(ht);
    }
    return h;
  }

  static MeshSpec mesh(const Json& j, const std::string& path) {
    MeshSpec m;
    if (j.contains("file")) {
      if (j.contains("vertices") || j.contains("faces")) fail(path, "give either file or vertices + faces, not both");
      m.file = read_string(j["file"], path + ".file");
      if (m.file.empty()) fail(path + ".file", "must not be empty");
      return m;
    }
    m.vertices = read_points3(require_field(j, path, "vertices"), path + ".vertices");
    const Json& faces = require_field(j, path, "faces");
    require_array(faces, path + ".faces", 0, "an array of index lists");
    if (faces.empty()) fail(path + ".faces", "must not be empty");
    for (std::size_t f = 0; f < faces.size(); ++f) {
      const std::string p = path + ".faces[" + std::to_string(f) + "]";
      require_array(faces[f], p, 0, "an array of vertex indices");
      if (faces[f].size() < 3) fail(p, "a face needs at least 3 vertices, got " + std::to_string(faces[f].size()));
      std::vector<int> face;
      for (std::size_t k = 0; k < faces[f].size(); ++k) {
        const Json& idx = faces[f][k];
        const std::string ip = p + "[" + std::to_string(k) + "]";
        if (!idx.is_number_integer()) fail(ip, "must be an integer vertex index, got " + type_name(idx));
        const auto v = idx.get<long long>();
        if (v < 0 || v >= static_cast<long long>(m.vertices.size())) {
          fail(ip, "vertex index " + std::to_string(v) + " out of range [0, " + std::to_string(m.vertices.size()) + ")");
        }
        face.push_back(static_cast<int>(v));
      }
      m.faces.push_back(std::move(face));
    }
    return m;
  }

  static AffineSpec affine(const Json& j, const std::string& path) {
    if (!j.is_object()) fail(path, "must be an object, got " + type_name(j));
    check_fields(j, path, {"matrix", "translation"});
    AffineSpec a;
    a.linear = read_matrix(require_field(j, path, "matrix"), path + ".matrix");
    if (j.contains("translation")) a.translation = read_vec3(j["translation"], path + ".translation");
    if (!(std::abs(a.linear.determinant()) > 0)) fail(path + ".matrix", "must be invertible");
    return a;
  }

  const Json& shapes_;
  std::vector<std::string> stack_;
};

// ---- queries -------------------------------------------------------------------------------------

struct KindInfo {
  QueryKind kind;
  const char* name;
};
constexpr std::array<KindInfo, 8> kKinds = {{{QueryKind::intersect, "intersect"},
                                             {QueryKind::distance, "distance"},
                                             {QueryKind::penetration, "penetration"},
                                             {QueryKind::lp_intersect, "lp_intersect"},
                                             {QueryKind::lp_contains, "lp_contains"},
                                             {QueryKind::toi_translate, "toi_translate"},
                                             {QueryKind::interval_translate, "interval_translate"},
                                             {QueryKind::screw, "screw"}}};

std::vector<Eigen::VectorXd> read_points_n(const Json& j, const std::string& path) {
  require_array(j, path, 0, "an array of points");
  if (j.empty()) fail(path, "must not be empty");
  std::vector<Eigen::VectorXd> points;
  for (std::size_t i = 0; i < j.size(); ++i) {
    const std::string p = path + "[" + std::to_string(i) + "]";
    require_array(j[i], p, 0, "an array of coordinates");
    if (j[i].empty()) fail(p, "a point needs at least 1 coordinate");
    points.push_back(read_finite_vector(j[i], p, 0, "an array of coordinates"));
    if (points.back().size() != points.front().size()) {
      fail(p, "has " + std::to_string(points.back().size()) + " coordinates, the first point has " +
                  std::to_string(points.front().size()));
    }
  }
  return points;
}

void read_query_body(const Json& j, const std::string& path, const Json& shapes, QuerySpec& q) {
  const std::string kind = read_string(require_field(j, path, "kind"), path + ".kind");
  q.kind_name = kind;
  const auto it = std::find_if(kKinds.begin(), kKinds.end(), [&](const KindInfo& k) { return kind == k.name; });
  if (it == kKinds.end()) {
    std::string list;
    for (const KindInfo& k : kKinds) list += (list.empty() ? "" : ", ") + std::string(k.name);
    fail(path + ".kind", "unknown query kind \"" + kind + "\" (expected one of " + list + ")");
  }
  q.kind = it->kind;

  const bool lp = q.kind == QueryKind::lp_intersect || q.kind == QueryKind::lp_contains;
  const bool translate = q.kind == QueryKind::toi_translate || q.kind == QueryKind::interval_translate;
  const bool screw = q.kind == QueryKind::screw;
  std::vector<const char*> allowed = {"id", "kind", "method", "a", "b", "pose_a", "pose_b"};
  if (lp) allowed.insert(allowed.end(), {"points_a", "points_b"});
  if (translate) allowed.insert(allowed.end(), {"velocity_a", "velocity_b", "t_max"});
  if (screw) allowed.insert(allowed.end(), {"pose_a_end", "pose_b_end"});
  for (const auto& item : j.items()) {
    if (std::find_if(allowed.begin(), allowed.end(), [&](const char* a) { return item.key() == a; }) == allowed.end()) {
      std::string list;
      for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
      fail(path + "." + item.key(), "unknown field for kind " + kind + " (allowed here: " + list + ")");
    }
  }

  if (j.contains("method")) {
    q.method = read_string(j["method"], path + ".method");
    if (q.method != "gjk" && q.method != "ipm" && q.method != "lp" && q.method != "glide" && q.method != "raster") {
      fail(path + ".method", "unknown method \"" + q.method + "\" (expected one of gjk, ipm, lp, glide, raster)");
    }
  }

  const bool has_points = j.contains("points_a") || j.contains("points_b");
  if (lp && has_points) {
    if (j.contains("a") || j.contains("b") || j.contains("pose_a") || j.contains("pose_b")) {
      fail(path, "give either points_a + points_b or shapes a + b, not both");
    }
    q.points_a = read_points_n(require_field(j, path, "points_a"), path + ".points_a");
    q.points_b = read_points_n(require_field(j, path, "points_b"), path + ".points_b");
    if (q.points_a.front().size() != q.points_b.front().size()) {
      fail(path + ".points_b", "points have " + std::to_string(q.points_b.front().size()) +
                                   " coordinates but points_a have " + std::to_string(q.points_a.front().size()));
    }
    return;
  }

  for (const char* side : {"a", "b"}) {
    const std::string p = path + "." + side;
    const std::string name = read_string(require_field(j, path, side), p);
    if (!shapes.is_object() || !shapes.contains(name)) fail(p, "no shape named \"" + name + "\"");
    (side[0] == 'a' ? q.a : q.b) = name;
  }
  if (j.contains("pose_a")) q.pose_a = read_pose(j["pose_a"], path + ".pose_a");
  if (j.contains("pose_b")) q.pose_b = read_pose(j["pose_b"], path + ".pose_b");
  if (screw) {
    q.pose_a_end = j.contains("pose_a_end") ? read_pose(j["pose_a_end"], path + ".pose_a_end") : q.pose_a;
    q.pose_b_end = j.contains("pose_b_end") ? read_pose(j["pose_b_end"], path + ".pose_b_end") : q.pose_b;
  }
  if (translate) {
    if (j.contains("velocity_a")) q.velocity_a = read_vec3(j["velocity_a"], path + ".velocity_a");
    if (j.contains("velocity_b")) q.velocity_b = read_vec3(j["velocity_b"], path + ".velocity_b");
    if (j.contains("t_max")) q.t_max = read_positive(j["t_max"], path + ".t_max");
  }
}

QuerySpec read_query(const Json& j, std::size_t index, const Json& shapes, std::map<std::string, std::size_t>& seen) {
  QuerySpec q;
  q.index = index;
  q.id_json = "null";
  const std::string path = "queries[" + std::to_string(index) + "]";
  try {
    if (!j.is_object()) fail(path, "must be an object, got " + type_name(j));
    const Json& id = require_field(j, path, "id");
    if (!(id.is_number_integer() || (id.is_string() && type_name(id) == "string"))) {
      fail(path + ".id", "must be a string or an integer, got " + type_name(id));
    }
    q.id_json = id.dump();
    q.id = id.is_string() ? id.get<std::string>() : id.dump();
    const auto [it, inserted] = seen.emplace(q.id_json, index);
    if (!inserted) fail(path + ".id", "duplicate id " + q.id_json + " (first used by queries[" + std::to_string(it->second) + "])");
    read_query_body(j, path, shapes, q);
  } catch (const InvalidInput& e) {
    q.error = e.what();
  }
  return q;
}

}  // namespace

const ShapeEntry* SceneSpec::find_shape(const std::string& name) const {
  for (const ShapeEntry& s : shapes) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

const char* to_string(QueryKind kind) noexcept {
  for (const KindInfo& k : kKinds) {
    if (k.kind == kind) return k.name;
  }
  return "?";
}

SceneSpec read_scene(std::string_view text, const std::string& base_dir) {
  Json root;
  try {
    root = Json::parse(replace_non_finite_tokens(text));
  } catch (const nlohmann::json::exception& e) {
    std::string message = e.what();
    // Drop nlohmann's "[json.exception.parse_error.101] " prefix; keep "parse error at line ...".
    if (const auto close = message.find("] "); message.rfind("[json.exception", 0) == 0 && close != std::string::npos) {
      message.erase(0, close + 2);
    }
    throw SceneFormatError("scene is not valid JSON: " + message);
  }
  if (!root.is_object()) throw SceneFormatError("scene must be a JSON object, got " + type_name(root));
  for (const auto& item : root.items()) {
    if (item.key() != "shapes" && item.key() != "queries") {
      throw SceneFormatError(item.key() + ": unknown top-level field (a scene has only shapes and queries)");
    }
  }
  if (!root.contains("queries")) throw SceneFormatError("queries: missing (a scene needs a list of queries)");
  const Json& queries = root["queries"];
  if (!queries.is_array()) throw SceneFormatError("queries: must be an array, got " + type_name(queries));
  const Json empty_shapes = Json::object();
  const Json& shapes = root.contains("shapes") ? root["shapes"] : empty_shapes;
  if (!shapes.is_object()) throw SceneFormatError("shapes: must be an object (name -> shape), got " + type_name(shapes));

  SceneSpec scene;
  scene.base_dir = base_dir;
  ShapeReader reader(shapes);
  for (const auto& item : shapes.items()) {
    ShapeEntry entry;
    entry.name = item.key();
    try {
      entry.spec = reader.named(item.key(), "", 0);
    } catch (const InvalidInput& e) {
      entry.error = e.what();
    }
    scene.shapes.push_back(std::move(entry));
  }
  std::map<std::string, std::size_t> seen;
  for (std::size_t i = 0; i < queries.size(); ++i) scene.queries.push_back(read_query(queries[i], i, shapes, seen));
  return scene;
}

}  // namespace proxima::scene
