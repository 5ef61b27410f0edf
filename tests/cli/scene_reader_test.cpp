// SPDX-License-Identifier: MIT
// Tests apps/scene/reader.hpp: every accepted form of the scene format and, for each kind of bad
// input, that the error names the JSON path of the offending value and leaves the rest usable.
#include "scene/reader.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace proxima::scene {
namespace {

// A scene with one query "q" between shapes "x" and "y" described by the given JSON fragments.
std::string two_shapes(const std::string& x, const std::string& y, const std::string& query_extra = "") {
  return R"({"shapes": {"x": )" + x + R"(, "y": )" + y + R"(}, "queries": [{"id": "q", "kind": "distance", "a": "x", "b": "y")" +
         query_extra + "}]}";
}

// The error recorded for shape `name`.
std::string shape_error(const SceneSpec& s, const std::string& name) {
  const ShapeEntry* e = s.find_shape(name);
  return e == nullptr ? "<no such shape>" : e->error;
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

TEST(SceneReader, ReadsEveryPrimitiveType) {
  const SceneSpec s = read_scene(R"({"shapes": {
    "s": {"type": "sphere", "radius": 0.5},
    "b": {"type": "box", "half_extents": [1, 2, 3]},
    "c": {"type": "capsule", "radius": 0.25, "half_length": 1},
    "y": {"type": "cylinder", "radius": 1, "half_height": 2},
    "k": {"type": "cone", "radius": 1, "half_height": 2},
    "e": {"type": "ellipsoid", "semiaxes": [1, 2, 3]},
    "p": {"type": "polytope", "vertices": [[0,0,0],[1,0,0],[0,1,0],[0,0,1]]},
    "q": {"type": "superquadric", "semiaxes": [1, 1, 1.7], "exponents": [2.0909, 2.2, 13.769]},
    "h": {"type": "hyperquadric", "terms": [{"plane": [1,0,0,0], "exponent": 4}, {"plane": [0,1,0,0.5], "exponent": 2}]},
    "m": {"type": "mesh", "vertices": [[0,0,0],[1,0,0],[0,1,0],[0,0,1]], "faces": [[0,2,1],[0,1,3],[0,3,2],[1,2,3]]},
    "f": {"type": "mesh", "file": "torus.obj"},
    "i": {"type": "implicit", "parts": [{"type": "superquadric", "semiaxes": [2,1,1.7], "exponents": [2,3,2]},
                                        {"type": "halfspace", "normal": [-1,0,0], "offset": 0.5, "pose": {"translation": [1,0,0]}},
                                        {"type": "sphere", "radius": 1, "affine": {"matrix": [[2,0,0],[0,1,0],[0,0,1]]}}]}
  }, "queries": []})");
  ASSERT_EQ(s.shapes.size(), 12u);
  for (const ShapeEntry& e : s.shapes) EXPECT_TRUE(e.spec.has_value()) << e.name << ": " << e.error;
  EXPECT_EQ(std::get<SphereSpec>(s.find_shape("s")->spec->value).radius, 0.5);
  EXPECT_EQ(std::get<BoxSpec>(s.find_shape("b")->spec->value).half_extents, Vec3(1, 2, 3));
  EXPECT_EQ(std::get<CapsuleSpec>(s.find_shape("c")->spec->value).half_length, 1.0);
  EXPECT_EQ(std::get<ConeSpec>(s.find_shape("k")->spec->value).half_height, 2.0);
  EXPECT_EQ(std::get<PolytopeSpec>(s.find_shape("p")->spec->value).vertices.size(), 4u);
  EXPECT_EQ(std::get<SuperquadricSpec>(s.find_shape("q")->spec->value).exponents, Vec3(2.0909, 2.2, 13.769));
  EXPECT_EQ(std::get<HyperquadricSpec>(s.find_shape("h")->spec->value).terms[1].plane[3], 0.5);
  EXPECT_EQ(std::get<MeshSpec>(s.find_shape("m")->spec->value).faces[3], (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(std::get<MeshSpec>(s.find_shape("f")->spec->value).file, "torus.obj");
  const auto& parts = std::get<ImplicitSpec>(s.find_shape("i")->spec->value).parts;
  ASSERT_EQ(parts.size(), 3u);
  ASSERT_TRUE(parts[1].pose.has_value());
  EXPECT_EQ(parts[1].pose->translation(), Vec3(1, 0, 0));
  ASSERT_TRUE(parts[2].affine.has_value());
  EXPECT_EQ(parts[2].affine->linear(0, 0), 2.0);
  // Shapes keep file order.
  EXPECT_EQ(s.shapes.front().name, "s");
  EXPECT_EQ(s.shapes.back().name, "i");
}

TEST(SceneReader, CompoundShapesResolveNamesAndInlineOperands) {
  const SceneSpec s = read_scene(R"({"shapes": {
    "ball": {"type": "sphere", "radius": 0.5},
    "m": {"type": "minkowski", "a": "ball", "b": {"type": "box", "half_extents": [1,1,1]}},
    "h": {"type": "hull", "of": ["m", {"type": "sphere", "radius": 1, "pose": {"translation": [3,0,0]}}]}
  }, "queries": []})");
  const auto& h = std::get<HullSpec>(s.find_shape("h")->spec->value);
  ASSERT_EQ(h.of.size(), 2u);
  EXPECT_EQ(h.of[0].path, "shapes.m");
  const auto& m = std::get<MinkowskiSpec>(h.of[0].value);
  EXPECT_EQ(std::get<SphereSpec>(m.operands[0].value).radius, 0.5);
  EXPECT_EQ(m.operands[0].path, "shapes.ball");
  EXPECT_EQ(m.operands[1].path, "shapes.m.b");
  EXPECT_EQ(h.of[1].pose->translation(), Vec3(3, 0, 0));
}

TEST(SceneReader, PosesAcceptEveryRotationFormAndDefaultToIdentity) {
  const std::string shapes = R"("shapes": {"s": {"type": "sphere", "radius": 1}})";
  const SceneSpec s = read_scene("{" + shapes + R"(, "queries": [
    {"id": "none", "kind": "distance", "a": "s", "b": "s"},
    {"id": "empty", "kind": "distance", "a": "s", "b": "s", "pose_a": {}, "pose_b": {}},
    {"id": "quat", "kind": "distance", "a": "s", "b": "s", "pose_b": {"translation": [1,2,3], "quaternion": [2, 0, 0, 2]}},
    {"id": "matrix", "kind": "distance", "a": "s", "b": "s", "pose_b": {"matrix": [[0,-1,0],[1,0,0],[0,0,1]]}},
    {"id": "euler", "kind": "distance", "a": "s", "b": "s", "pose_b": {"euler_xyz": [0.5, 0, 0]}}
  ]})");
  ASSERT_EQ(s.queries.size(), 5u);
  for (const QuerySpec& q : s.queries) EXPECT_EQ(q.error, "") << q.id;
  for (int i : {0, 1}) {
    EXPECT_EQ(s.queries[i].pose_a.rotation(), Mat3::Identity());
    EXPECT_EQ(s.queries[i].pose_b.translation(), Vec3::Zero());
  }
  // Quaternion (2, 0, 0, 2) normalises to a rotation of 90 degrees about z: x -> y.
  const Pose& q = s.queries[2].pose_b;
  EXPECT_EQ(q.translation(), Vec3(1, 2, 3));
  EXPECT_LT((q.rotate(Vec3::UnitX()) - Vec3::UnitY()).norm(), 1e-15);
  // The matrix [[0,-1,0],[1,0,0],[0,0,1]] maps x to its first column (0, 1, 0).
  EXPECT_LT((s.queries[3].pose_b.rotate(Vec3::UnitX()) - Vec3::UnitY()).norm(), 1e-15);
  // Rx(0.5) maps y to (0, cos 0.5, sin 0.5).
  EXPECT_LT((s.queries[4].pose_b.rotate(Vec3::UnitY()) - Vec3(0, std::cos(0.5), std::sin(0.5))).norm(), 1e-15);
}

TEST(SceneReader, BadShapesNameTheOffendingField) {
  struct Case {
    const char* shape;
    const char* expected_prefix;
  };
  const Case cases[] = {
      {R"({"type": "sphere", "radius": -1})", "shapes.x.radius: must be > 0, got -1"},
      {R"({"type": "sphere", "radius": "big"})", "shapes.x.radius: must be a number, got string"},
      {R"({"type": "sphere"})", "shapes.x.radius: missing"},
      {R"({"type": "sphere", "radius": 1, "colour": "red"})", "shapes.x.colour: unknown field"},
      {R"({"type": "blob"})", "shapes.x.type: unknown shape type \"blob\""},
      {R"({"radius": 1})", "shapes.x.type: missing"},
      {R"([1, 2])", "shapes.x: must be a shape object"},
      {R"({"type": "box", "half_extents": [1, 0, 1]})", "shapes.x.half_extents[1]: must be > 0, got 0"},
      {R"({"type": "box", "half_extents": [1, 1]})", "shapes.x.half_extents: must be an array of 3 numbers, got an array of 2"},
      {R"({"type": "polytope", "vertices": []})", "shapes.x.vertices: must not be empty"},
      {R"({"type": "polytope", "vertices": [[0,0,0],[1,0,0],[0,1,0],[0,NaN,1]]})", "shapes.x.vertices[3]: must be finite"},
      {R"({"type": "polytope", "vertices": [[0,0,0],[1,0,Infinity]]})", "shapes.x.vertices[1]: must be finite, got [1, 0, inf]"},
      {R"({"type": "superquadric", "semiaxes": [1,1,1], "exponents": [2, 0.5, 2]})", "shapes.x.exponents[1]: must be >= 1, got 0.5"},
      {R"({"type": "capsule", "radius": 1, "half_length": -Infinity})", "shapes.x.half_length: must be finite, got -inf"},
      {R"({"type": "halfspace", "normal": [1,0,0], "offset": 0})", "shapes.x.type: a halfspace is unbounded"},
      {R"({"type": "implicit", "parts": [{"type": "box", "half_extents": [1,1,1]}]})", "shapes.x.parts[0].type: an implicit part must be"},
      {R"({"type": "implicit", "parts": [{"type": "halfspace", "normal": [0,0,0], "offset": 1}]})", "shapes.x.parts[0].normal: must not be zero"},
      {R"({"type": "hyperquadric", "terms": [{"plane": [1,0,0], "exponent": 2}]})", "shapes.x.terms[0].plane: must be an array of 4 numbers"},
      {R"({"type": "mesh", "vertices": [[0,0,0],[1,0,0],[0,1,0]], "faces": [[0,1,3]]})", "shapes.x.faces[0][2]: vertex index 3 out of range [0, 3)"},
      {R"({"type": "mesh", "vertices": [[0,0,0],[1,0,0],[0,1,0]], "faces": [[0,1]]})", "shapes.x.faces[0]: a face needs at least 3 vertices"},
      {R"({"type": "hull", "of": []})", "shapes.x.of: must not be empty"},
      {R"({"type": "hull", "of": ["nothing"]})", "shapes.x.of[0]: no shape named \"nothing\""},
      {R"({"type": "hull", "of": ["x"]})", "shapes.x.of[0]: shape \"x\" refers to itself"},
      {R"({"type": "minkowski", "a": "y"})", "shapes.x.b: missing"},
      {R"({"type": "minkowski", "a": "y", "b": {"type": "sphere", "radius": 0}})", "shapes.x.b.radius: must be > 0, got 0"},
      {R"({"type": "sphere", "radius": 1, "pose": {}})", "shapes.x.pose: unknown field"},
      {R"({"type": "hull", "of": [{"type": "sphere", "radius": 1, "pose": {"quaternion": [0,0,0,0]}}]})",
       "shapes.x.of[0].pose.quaternion: must not be zero"},
  };
  for (const Case& c : cases) {
    const SceneSpec s = read_scene(two_shapes(c.shape, R"({"type": "sphere", "radius": 1})"));
    const std::string error = shape_error(s, "x");
    EXPECT_TRUE(starts_with(error, c.expected_prefix)) << "shape " << c.shape << "\n  error: " << error;
    // The bad shape does not spoil its neighbour.
    EXPECT_EQ(shape_error(s, "y"), "") << c.shape;
    // Nor the query that uses it: that fails later, when the query runs.
    EXPECT_EQ(s.queries.at(0).error, "") << c.shape;
  }
}

TEST(SceneReader, NamedOperandThatIsBadSaysSo) {
  const SceneSpec s = read_scene(
      two_shapes(R"({"type": "hull", "of": ["y"]})", R"({"type": "polytope", "vertices": [[0, 0, NaN]]})"));
  EXPECT_EQ(shape_error(s, "y"), "shapes.y.vertices[0]: must be finite, got [0, 0, nan]");
  EXPECT_EQ(shape_error(s, "x"), "shapes.x.of[0]: shape \"y\" is invalid: shapes.y.vertices[0]: must be finite, got [0, 0, nan]");
}

TEST(SceneReader, ReferenceCyclesAndDeepNestingAreRefused) {
  const SceneSpec s = read_scene(two_shapes(R"({"type": "hull", "of": ["y"]})", R"({"type": "minkowski", "a": "x", "b": "x"})"));
  EXPECT_NE(shape_error(s, "x").find("refers to itself"), std::string::npos) << shape_error(s, "x");
  EXPECT_NE(shape_error(s, "y").find("refers to itself"), std::string::npos) << shape_error(s, "y");

  std::string nested = R"({"type": "sphere", "radius": 1})";
  for (int i = 0; i <= kMaxShapeNesting; ++i) nested = R"({"type": "hull", "of": [)" + nested + "]}";
  const SceneSpec deep = read_scene(two_shapes(nested, R"({"type": "sphere", "radius": 1})"));
  EXPECT_NE(shape_error(deep, "x").find("nested deeper than"), std::string::npos) << shape_error(deep, "x");
}

TEST(SceneReader, BadQueriesNameTheOffendingFieldAndOthersSurvive) {
  struct Case {
    const char* query;
    const char* expected_prefix;
  };
  const Case cases[] = {
      {R"({"kind": "distance", "a": "s", "b": "s"})", "queries[1].id: missing"},
      {R"({"id": [1], "kind": "distance", "a": "s", "b": "s"})", "queries[1].id: must be a string or an integer"},
      {R"({"id": "good", "kind": "distance", "a": "s", "b": "s"})", "queries[1].id: duplicate id \"good\" (first used by queries[0])"},
      {R"({"id": "z", "kind": "nearest", "a": "s", "b": "s"})", "queries[1].kind: unknown query kind \"nearest\""},
      {R"({"id": "z", "a": "s", "b": "s"})", "queries[1].kind: missing"},
      {R"({"id": "z", "kind": "distance", "a": "s", "b": "t"})", "queries[1].b: no shape named \"t\""},
      {R"({"id": "z", "kind": "distance", "a": "s"})", "queries[1].b: missing"},
      {R"({"id": "z", "kind": "distance", "a": "s", "b": "s", "speed": 1})", "queries[1].speed: unknown field for kind distance"},
      {R"({"id": "z", "kind": "distance", "a": "s", "b": "s", "t_max": 1})", "queries[1].t_max: unknown field for kind distance"},
      {R"({"id": "z", "kind": "distance", "a": "s", "b": "s", "method": "magic"})", "queries[1].method: unknown method \"magic\""},
      {R"({"id": "z", "kind": "distance", "a": "s", "b": "s", "pose_a": {"quaternion": [0, 0, 0, 0]}})",
       "queries[1].pose_a.quaternion: must not be zero"},
      {R"({"id": "z", "kind": "distance", "a": "s", "b": "s", "pose_a": {"quaternion": [1, 0, 0]}})",
       "queries[1].pose_a.quaternion: must be an array of 4 numbers"},
      {R"({"id": "z", "kind": "distance", "a": "s", "b": "s", "pose_b": {"translation": [0, NaN, 0]}})",
       "queries[1].pose_b.translation: must be finite, got [0, nan, 0]"},
      {R"({"id": "z", "kind": "distance", "a": "s", "b": "s", "pose_b": {"euler_xyz": [0, 0, 0], "quaternion": [1, 0, 0, 0]}})",
       "queries[1].pose_b: at most one of quaternion, matrix, euler_xyz"},
      {R"({"id": "z", "kind": "distance", "a": "s", "b": "s", "pose_b": {"matrix": [[2,0,0],[0,1,0],[0,0,1]]}})",
       "queries[1].pose_b.matrix: "},
      {R"({"id": "z", "kind": "distance", "a": "s", "b": "s", "pose_b": {"rotation": [1,0,0,0]}})",
       "queries[1].pose_b.rotation: unknown field"},
      {R"({"id": "z", "kind": "toi_translate", "a": "s", "b": "s", "t_max": -1})", "queries[1].t_max: must be > 0, got -1"},
      {R"({"id": "z", "kind": "lp_intersect", "points_a": [[0, 0]], "points_b": [[0, 0, 0]]})",
       "queries[1].points_b: points have 3 coordinates but points_a have 2"},
      {R"({"id": "z", "kind": "lp_intersect", "points_a": [[0, 0], [1]], "points_b": [[0, 0]]})",
       "queries[1].points_a[1]: has 1 coordinates, the first point has 2"},
      {R"("distance")", "queries[1]: must be an object"},
  };
  for (const Case& c : cases) {
    const std::string text = R"({"shapes": {"s": {"type": "sphere", "radius": 1}}, "queries": [
        {"id": "good", "kind": "distance", "a": "s", "b": "s"}, )" + std::string(c.query) +
                             R"(, {"id": "after", "kind": "penetration", "a": "s", "b": "s"}]})";
    const SceneSpec s = read_scene(text);
    ASSERT_EQ(s.queries.size(), 3u);
    EXPECT_TRUE(starts_with(s.queries[1].error, c.expected_prefix)) << c.query << "\n  error: " << s.queries[1].error;
    EXPECT_EQ(s.queries[0].error, "") << c.query;
    EXPECT_EQ(s.queries[2].error, "") << c.query;
    EXPECT_EQ(s.queries[2].id, "after");
  }
}

TEST(SceneReader, QueryExtrasAreRead) {
  const SceneSpec s = read_scene(R"({"shapes": {"s": {"type": "sphere", "radius": 1}}, "queries": [
    {"id": 7, "kind": "toi_translate", "a": "s", "b": "s", "velocity_a": [1,0,0], "velocity_b": [-1,0,0], "t_max": 2},
    {"id": "w", "kind": "screw", "a": "s", "b": "s", "pose_b": {"translation": [0,-1,0]}, "pose_b_end": {"translation": [0,1,0]}},
    {"id": "l", "kind": "lp_intersect", "points_a": [[0,0,0,0],[1,0,0,0]], "points_b": [[0.5,0,0,0],[2,2,2,2]], "method": "lp"}
  ]})");
  for (const QuerySpec& q : s.queries) EXPECT_EQ(q.error, "") << q.id;
  EXPECT_EQ(s.queries[0].id_json, "7");
  EXPECT_EQ(s.queries[0].kind, QueryKind::toi_translate);
  EXPECT_EQ(s.queries[0].velocity_b, Vec3(-1, 0, 0));
  EXPECT_EQ(s.queries[0].t_max, 2.0);
  EXPECT_EQ(s.queries[1].id_json, "\"w\"");
  ASSERT_TRUE(s.queries[1].pose_a_end.has_value());
  EXPECT_EQ(s.queries[1].pose_a_end->translation(), Vec3::Zero());  // missing end pose = start pose
  EXPECT_EQ(s.queries[1].pose_b_end->translation(), Vec3(0, 1, 0));
  EXPECT_EQ(s.queries[2].points_a.size(), 2u);
  EXPECT_EQ(s.queries[2].points_b[1].size(), 4);
  EXPECT_EQ(s.queries[2].method, "lp");
}

TEST(SceneReader, WholeSceneProblemsThrow) {
  const char* bad[] = {
      "",                                          // empty
      R"({"queries": [})",                         // malformed
      R"([1, 2])",                                 // not an object
      R"({"shapes": {}})",                         // no queries
      R"({"queries": {}})",                        // queries not a list
      R"({"shapes": [], "queries": []})",          // shapes not a map
      R"({"queries": [], "comment": "hi"})",       // unknown top-level field
      R"({"queries": [], "x": 1e999})",            // number overflow
  };
  for (const char* text : bad) EXPECT_THROW((void)read_scene(text), SceneFormatError) << text;
  try {
    (void)read_scene("{\"queries\": [\n  1,,\n]}");
    ADD_FAILURE() << "no throw";
  } catch (const SceneFormatError& e) {
    EXPECT_NE(std::string(e.what()).find("line 2"), std::string::npos) << e.what();
  }
}

TEST(SceneReader, NonFiniteTokensInsideStringsAreLeftAlone) {
  // "NaN" and "Infinity" inside a string are text, not numbers.
  const SceneSpec s = read_scene(R"({"shapes": {"NaN": {"type": "sphere", "radius": 1}}, "queries": [
    {"id": "Infinity \" NaN", "kind": "distance", "a": "NaN", "b": "NaN"}]})");
  ASSERT_EQ(s.queries.size(), 1u);
  EXPECT_EQ(s.queries[0].error, "");
  EXPECT_EQ(s.queries[0].id, "Infinity \" NaN");
  EXPECT_EQ(s.queries[0].a, "NaN");
}

}  // namespace
}  // namespace proxima::scene
