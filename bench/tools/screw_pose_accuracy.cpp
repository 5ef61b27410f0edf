// SPDX-License-Identifier: MIT
// Screw::pose's rotation (Rodrigues from the half turn's sincos, session 36) against Eigen's
// AngleAxis and a long double Rodrigues of the same rounded angle s * theta: the largest element
// error and the largest |R R^T - I| over 200,000 seeded axes, angles in [0, pi) (a third of them
// tiny, down to 2^-40 pi) and times s in [0, 1].
// build: g++ -O2 -std=c++20 -Iinclude -isystem /usr/include/eigen3 bench/tools/screw_pose_accuracy.cpp \
//          build/libproxima_ccd.a build/libproxima_core.a -o /tmp/screw_pose_accuracy
#include <proxima/ccd/screw.hpp>
#include <Eigen/Geometry>
#include <cstdio>
#include <random>
#include <cmath>
using namespace proxima;
int main() {
  std::mt19937_64 rng(36);
  std::uniform_real_distribution<double> u(-1, 1), ang(0, 3.14159), s01(0, 1);
  double eb = 0, en = 0, ob = 0, on = 0;
  for (int i = 0; i < 200000; ++i) {
    const double x = u(rng);
    const double y = u(rng);
    const double z = u(rng);
    Vec3 v(x, y, z); v.normalize();
    double th = ang(rng); double s = s01(rng);
    if (i % 3 == 0) th = std::exp2(-40 * s01(rng)) * th;
    ccd::Screw sc; sc.axis = v; sc.angle = th; sc.glide = 0.3;
    Mat3 rn = sc.pose(s).rotation();
    Mat3 rb = Eigen::AngleAxisd(s * th, v).toRotationMatrix();
    const long double phi = static_cast<long double>(s * th);  // the rounded product both use
    long double sn = sinl(phi), vs = 1 - cosl(phi);
    long double a[3] = {v.x(), v.y(), v.z()};
    for (int r = 0; r < 3; ++r) for (int c = 0; c < 3; ++c) {
      long double k1 = 0; // [v]x
      if (r == 0 && c == 1) k1 = -a[2]; if (r == 0 && c == 2) k1 = a[1];
      if (r == 1 && c == 0) k1 = a[2]; if (r == 1 && c == 2) k1 = -a[0];
      if (r == 2 && c == 0) k1 = -a[1]; if (r == 2 && c == 1) k1 = a[0];
      long double ref = (r == c ? 1 : 0) + sn * k1 + vs * (a[r] * a[c] - (r == c ? 1 : 0));
      eb = std::max(eb, (double)fabsl(rb(r, c) - ref));
      en = std::max(en, (double)fabsl(rn(r, c) - ref));
    }
    ob = std::max(ob, (rb * rb.transpose() - Mat3::Identity()).cwiseAbs().maxCoeff());
    on = std::max(on, (rn * rn.transpose() - Mat3::Identity()).cwiseAbs().maxCoeff());
  }
  std::printf("max |R - R_ref| (long double Rodrigues): AngleAxis %.3g, half-turn Rodrigues %.3g\n", eb, en);
  std::printf("max |R R^T - I|: AngleAxis %.3g, half-turn Rodrigues %.3g\n", ob, on);
}
