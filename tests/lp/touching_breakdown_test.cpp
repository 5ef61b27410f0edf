// SPDX-License-Identifier: MIT
// Regression for docs/reliability.md, finding 4: a pair of hulls moved into touching contact
// (consistency sweep lp_gjk_random, seed 8011, case 3473 at scale 10; GJK's depth 2e-13) on
// which the structured path cannot certify (the pair is inside the touching band) and the
// general simplex then stopped in phase one: its ratio test took a pivot of 2e-8 beside a
// largest entry of 9.8 and the basis was singular at the next refactorisation
// (degenerate_input / no_progress). The general solver now retries from the all-artificial
// basis with a larger pivot tolerance; the answer must be a verified certificate or the
// band's documented refusal (degenerate_input / touching), never no_progress.
#include <proxima/core/pose.hpp>
#include <proxima/lp/intersect.hpp>

#include <gtest/gtest.h>

#include <algorithm>

namespace proxima::lp {
namespace {

// Local vertices and poses as the sweep wrote them (17 digits: the world points are the sweep's).
constexpr double kLocalA[][3] = {
    {-0.00076402713422765104, 0.00073961797500862682, -9.7042335584079063e-05},
    {-0.0012438135530116329, -0.00022653514934374401, -0.00014662933411589669},
    {0.00010427488742370623, -0.00055806311336994616, -0.0005223384988149117},
    {-0.00020595130944661092, 0.000110179939483753, -0.00064626099480386142},
    {0.00069682922513982545, 0.00075579513877595099, -0.00014702453606006387},
    {0.00059478110372057906, -0.00074843353689396967, 0.00024539270094308557},
    {-0.00069916653332066962, 0.00056857346877346282, -0.00038380444825006208},
    {-0.001112470229956062, -0.00018103998339392399, 0.0003291371408852482},
    {0.0007663513546065058, -0.00016179018108464615, 0.00052371004225787335},
    {0.00014669786114531445, -0.00063999344157450748, 0.00046914344037337561},
    {0.0012764187928207616, -9.0914948124646005e-05, 0.0001514021214637664},
    {-0.00089805463265004446, 0.00041617481380015335, -0.00038007540231331234},
    {-0.00065506468951863524, 0.00079978219704808452, -2.8647287539159138e-05},
    {-0.0012823690729977485, 0.0002136042244317872, -7.3736451233671544e-06},
    {0.0012289604185042951, 5.0864569921055037e-05, 0.00023567989354627048},
    {0.001304633496551897, 8.1240381020479831e-05, -7.4608681114027471e-05},
    {-0.00026431024128335009, -0.00074777041681336066, -0.00036290487411217673},
    {-0.00094460397060857693, 0.00028971204080664855, 0.00041055911095373509},
    {-0.0011485172135948416, 0.00036481469231400439, 0.00019176823498453751},
    {-0.00027767631673081896, -0.00018934691834862825, -0.00062998646077732636},
    {6.6804175081361687e-05, -0.00015628049498577414, -0.0006487481990112608},
    {-0.00026836163539321943, 0.0001434197494683435, 0.00063714358500576861},
};
constexpr double kLocalB[][3] = {
    {0.00054726062576918629, -0.00069016802173333422, 0.00034139554076193971},
    {-0.00020480260097566815, -0.00064108688203386036, 0.00046289839129779446},
    {6.0091408296657807e-05, 0.0007207855253387863, 0.00041046433015812093},
    {0.0010119465445647012, 0.00053752353438982551, -0.00017614747704284374},
    {5.2494886163164173e-06, 0.00086153875189563095, 0.0002361050034899079},
    {-0.00089630683260163643, 0.00034717189273790889, -0.00041486794901881533},
    {-0.00053388617849456854, 0.00017853311130246885, 0.00058900768044511205},
};

template <std::size_t N>
Eigen::MatrixXd world(const double (&local)[N][3], const Pose& pose) {
  Eigen::MatrixXd out(3, static_cast<Eigen::Index>(N));
  for (std::size_t j = 0; j < N; ++j) {
    out.col(static_cast<Eigen::Index>(j)) = pose.apply(Vec3(local[j][0], local[j][1], local[j][2]));
  }
  return out;
}

TEST(LpTouchingBreakdown, GeneralSimplexAnswersOrRefusesAsTouching) {
  const Pose pose_a = Pose::from_quaternion(0.15281642607787699, -0.30090301064810837, 0.90429974221173315, 0.26143162459710584,
                                            Vec3(-8188.6439278282933, -5935.1731765916038, -6392.8112079420662));
  const Pose pose_b = Pose::from_quaternion(0.63342042904100504, -0.095400082088869811, -0.60845262794917465, 0.46846855172219326,
                                            Vec3(-8188.6434548712596, -5935.1731927066439, -6392.812744974156));
  const Eigen::MatrixXd a = world(kLocalA, pose_a);
  const Eigen::MatrixXd b = world(kLocalB, pose_b);
  LpWorkspace ws;
  const LpIntersectResult r = intersect(a, b, ws);
  const double size = std::max(a.cwiseAbs().maxCoeff(), b.cwiseAbs().maxCoeff());
  EXPECT_NE(r.detail, Detail::no_progress) << to_string(r.status) << "/" << to_string(r.detail);
  if (r.converged && r.intersect) {
    EXPECT_TRUE(check_common_point(a, b, r.common_point, r.weights_a, r.weights_b, 2 * kLpContactTolerance * size).valid);
  } else if (r.converged) {
    EXPECT_TRUE(check_separation(a, b, r.separating_normal, r.separating_offset).valid);
  } else {
    EXPECT_EQ(r.status, Status::degenerate_input);
    EXPECT_EQ(r.detail, Detail::touching);
  }
}

}  // namespace
}  // namespace proxima::lp
