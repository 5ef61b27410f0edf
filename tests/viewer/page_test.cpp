// SPDX-License-Identifier: MIT
// The viewer page (apps/viewer/page.hpp): its data holds every query's `proxima run` answer and
// the shapes they use, the inlined scripts cannot be cut short by the data, and the sampled
// motions put the bodies where the library reports its screw contacts.
#include "viewer/motion.hpp"
#include "viewer/page.hpp"
#include "viewer/page_data.hpp"

#include "scene/reader.hpp"
#include "scene/runner.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

namespace proxima::viewer {
namespace {

using Json = nlohmann::json;

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

const std::string kScenePath = std::string(PROXIMA_TEST_DATA_DIR) + "/../viewer/data/viewer_scene.json";

// The JSON between <script type="application/json" id="proxima-data"> and </script>.
Json page_data_of(const std::string& html) {
  const std::string open = R"(<script type="application/json" id="proxima-data">)";
  const std::size_t start = html.find(open);
  EXPECT_NE(start, std::string::npos);
  const std::size_t end = html.find("</script>", start);
  return Json::parse(html.substr(start + open.size(), end - start - open.size()));
}

TEST(ViewerPage, HoldsEveryAnswerAndTheShapesTheQueriesUse) {
  const scene::SceneSpec scene = scene::read_scene(read_text(kScenePath));
  ASSERT_GE(scene.queries.size(), 8u);
  PageOptions options;
  options.title = "test <scene> & co";
  options.detail = 2;
  const Page page = render_page(scene, options);
  EXPECT_EQ(page.queries, static_cast<int>(scene.queries.size()));
  EXPECT_EQ(page.failed_queries, 1);  // "bad-shape" names a shape that does not exist
  EXPECT_NE(page.html.find("<title>test &lt;scene&gt; &amp; co</title>"), std::string::npos);
  EXPECT_NE(page.html.find(R"("three": "data:text/javascript;base64,)"), std::string::npos);
  EXPECT_EQ(page.html.find("@DATA@"), std::string::npos);
  EXPECT_EQ(page.html.find("@VIEWER_JS@"), std::string::npos);
  EXPECT_EQ(page.html.find("cdn"), std::string::npos);

  const Json data = page_data_of(page.html);
  ASSERT_EQ(data["queries"].size(), scene.queries.size());
  // The answers are exactly the lines `proxima run` prints.
  scene::Runner runner(scene);
  int with_motion = 0;
  for (std::size_t i = 0; i < scene.queries.size(); ++i) {
    const Json& q = data["queries"][i];
    EXPECT_EQ(q["id"], scene.queries[i].id);
    EXPECT_EQ(q["result"], Json::parse(runner.run(scene.queries[i]).json_line)) << q["id"];
    if (q.contains("motion")) {
      ++with_motion;
      EXPECT_EQ(q["motion"]["times"].size(), 121u);
      EXPECT_EQ(q["motion"]["a"].size(), 121u);
    }
  }
  EXPECT_EQ(with_motion, 2);  // the toi_translate and the screw query
  const Json& bad = data["queries"][scene.queries.size() - 1];
  EXPECT_FALSE(bad["ok"]);
  EXPECT_NE(bad["message"].get<std::string>().find("nothing"), std::string::npos);
  // The reader refuses the query itself (unknown shape name), so no shape is drawn for it.
  EXPECT_FALSE(data["shapes"].contains("nothing"));
  // Every other shape is drawn with a closed triangle list.
  for (const char* name : {"tetra", "gem", "ball", "egg", "pill", "drum", "spike", "can", "rounded", "bundle", "cut", "cube"}) {
    const Json& s = data["shapes"][name];
    ASSERT_TRUE(s.contains("positions")) << name << ": " << s.dump();
    EXPECT_EQ(s["positions"].size() % 3, 0u);
    EXPECT_EQ(s["triangles"].size() % 3, 0u);
    EXPECT_GE(s["triangles"].size(), 12u) << name;
  }
  EXPECT_EQ(data["shapes"]["cut"]["method"], "radial projection");
  EXPECT_EQ(data["shapes"]["cube"]["method"], "mesh faces");
  EXPECT_EQ(data["initial"], "tetra-gem-distance");
}

TEST(ViewerPage, DataCannotCloseItsScriptElement) {
  const std::string text = R"({"shapes": {"</script><b>x": {"type": "sphere", "radius": 1}},
    "queries": [{"id": "</script>", "kind": "distance", "a": "</script><b>x", "b": "</script><b>x",
                 "pose_b": {"translation": [3, 0, 0]}}]})";
  const scene::SceneSpec scene = scene::read_scene(text);
  PageOptions options;
  options.detail = 1;
  const Page page = render_page(scene, options);
  const Json data = page_data_of(page.html);
  EXPECT_EQ(data["queries"][0]["id"], "</script>");
  ASSERT_TRUE(data["shapes"].contains("</script><b>x"));
}

// The bodies at a contact time touch at the contact point: the frames the slider uses are the
// frames screw_collisions reports in. Cubes of half-size 0.5: the point is on both surfaces.
TEST(ViewerMotion, ScrewContactsLieOnBothBodiesAtTheirTimes) {
  const scene::SceneSpec scene = scene::read_scene(read_text(kScenePath));
  const scene::QuerySpec* screw = nullptr;
  for (const auto& q : scene.queries) {
    if (q.id == "screw-step") screw = &q;
  }
  ASSERT_NE(screw, nullptr);
  scene::Runner runner(scene);
  const Json result = Json::parse(runner.run(*screw).json_line);
  ASSERT_EQ(result["status"], "ok");
  ASSERT_GE(result["collisions"].size(), 1u);
  const auto on_cube = [](const Vec3& local) { return std::abs(local.cwiseAbs().maxCoeff() - 0.5); };
  for (const Json& c : result["collisions"]) {
    const double s = c["time"];
    const Vec3 p(c["point"][0], c["point"][1], c["point"][2]);
    const auto poses = poses_at(*screw, s);
    ASSERT_TRUE(poses);
    EXPECT_LT(on_cube(poses->a.apply_inverse(p)), 1e-6) << c.dump();
    EXPECT_LT(on_cube(poses->b.apply_inverse(p)), 1e-6) << c.dump();
  }
  // The samples start and end at the query's poses.
  const auto m = sample_motion(*screw, 11);
  ASSERT_TRUE(m);
  EXPECT_LT((m->b.front().translation() - screw->pose_b.translation()).norm(), 1e-12);
  EXPECT_LT((m->b.back().translation() - screw->pose_b_end->translation()).norm(), 1e-12);
  EXPECT_LT((m->b.back().rotation() - screw->pose_b_end->rotation()).norm(), 1e-12);
  EXPECT_LT((m->a.back().translation() - screw->pose_a_end->translation()).norm(), 1e-12);
}

TEST(ViewerMotion, TranslationAndStaticKinds) {
  const scene::SceneSpec scene = scene::read_scene(read_text(kScenePath));
  for (const auto& q : scene.queries) {
    const auto m = sample_motion(q, 5);
    if (q.kind == scene::QueryKind::toi_translate) {
      ASSERT_TRUE(m);
      EXPECT_DOUBLE_EQ(m->times.back(), q.t_max);
      EXPECT_LT((m->b.back().translation() - (q.pose_b.translation() + q.t_max * q.velocity_b)).norm(), 1e-12);
    } else if (q.kind != scene::QueryKind::screw) {
      EXPECT_FALSE(m) << q.id;
    }
  }
}

}  // namespace
}  // namespace proxima::viewer
