// SPDX-License-Identifier: MIT
// detail::cone_planes_avx2: the planes of EPA's cone faces four at a time (gjk/epa_face_planes.hpp).
#include <proxima/gjk/epa_face_planes.hpp>
#include <proxima/gjk/epa_hull.hpp>

#include <cstddef>
#include <limits>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

namespace proxima::gjk::detail {

// One 32-byte store writes a face's normal and distance (x, y, z, distance).
static_assert(offsetof(EpaFace, distance) == offsetof(EpaFace, normal) + 3 * sizeof(double),
              "EpaFace keeps its distance right after its normal");
static_assert(offsetof(SupportPoint, a) == offsetof(SupportPoint, w) + 3 * sizeof(double),
              "a SupportPoint's w is followed by its a: four doubles readable from w");

namespace {

/// Rows x, y, z of four (x, y, z, pad) columns.
__attribute__((target("avx2"), always_inline)) inline void transpose43(__m256d r0, __m256d r1, __m256d r2, __m256d r3,
                                                                       __m256d& x, __m256d& y, __m256d& z) {
  const __m256d t0 = _mm256_unpacklo_pd(r0, r1);  // x0 x1 | z0 z1
  const __m256d t1 = _mm256_unpackhi_pd(r0, r1);  // y0 y1 | p0 p1
  const __m256d t2 = _mm256_unpacklo_pd(r2, r3);  // x2 x3 | z2 z3
  const __m256d t3 = _mm256_unpackhi_pd(r2, r3);  // y2 y3 | p2 p3
  x = _mm256_permute2f128_pd(t0, t2, 0x20);
  y = _mm256_permute2f128_pd(t1, t3, 0x20);
  z = _mm256_permute2f128_pd(t0, t2, 0x31);
}

__attribute__((target("avx2"), always_inline)) inline const double* w_of(const SupportPoint* vertices, int i) {
  return vertices[static_cast<std::size_t>(i)].w.data();
}

}  // namespace

// Multiply and add kept separate (no "fma" target) and each operation as set_face_plane's scalar
// code: IEEE subtraction, product, sum, square root and quotient are exact per lane, so every lane
// gives set_face_plane's bits. Lanes past `count` in the last group repeat the group's first edge
// and are not stored.
__attribute__((target("avx2"))) void cone_planes_avx2(const SupportPoint* vertices, const ConeEdge* edges, int count,
                                                      int v, double min_area, EpaFace* faces, double* keys) {
  const double* pc = w_of(vertices, v);
  const __m256d cx = _mm256_broadcast_sd(pc);
  const __m256d cy = _mm256_broadcast_sd(pc + 1);
  const __m256d cz = _mm256_broadcast_sd(pc + 2);
  const __m256d limit = _mm256_set1_pd(min_area);
  const __m256d inf = _mm256_set1_pd(std::numeric_limits<double>::infinity());
  const __m256d nan = _mm256_set1_pd(std::numeric_limits<double>::quiet_NaN());
  for (int h = 0; h < count; h += 4) {
    const ConeEdge* e = edges + h;
    const int n = count - h < 4 ? count - h : 4;
    const ConeEdge& e0 = e[0];
    const ConeEdge& e1 = e[n > 1 ? 1 : 0];
    const ConeEdge& e2 = e[n > 2 ? 2 : 0];
    const ConeEdge& e3 = e[n > 3 ? 3 : 0];
    __m256d ax, ay, az, bx, by, bz;
    transpose43(_mm256_loadu_pd(w_of(vertices, e0.from)), _mm256_loadu_pd(w_of(vertices, e1.from)),
                _mm256_loadu_pd(w_of(vertices, e2.from)), _mm256_loadu_pd(w_of(vertices, e3.from)), ax, ay, az);
    transpose43(_mm256_loadu_pd(w_of(vertices, e0.to)), _mm256_loadu_pd(w_of(vertices, e1.to)),
                _mm256_loadu_pd(w_of(vertices, e2.to)), _mm256_loadu_pd(w_of(vertices, e3.to)), bx, by, bz);
    const __m256d ux = _mm256_sub_pd(bx, ax), uy = _mm256_sub_pd(by, ay), uz = _mm256_sub_pd(bz, az);
    const __m256d vx = _mm256_sub_pd(cx, ax), vy = _mm256_sub_pd(cy, ay), vz = _mm256_sub_pd(cz, az);
    const __m256d nx = _mm256_sub_pd(_mm256_mul_pd(uy, vz), _mm256_mul_pd(uz, vy));
    const __m256d ny = _mm256_sub_pd(_mm256_mul_pd(uz, vx), _mm256_mul_pd(ux, vz));
    const __m256d nz = _mm256_sub_pd(_mm256_mul_pd(ux, vy), _mm256_mul_pd(uy, vx));
    const __m256d len = _mm256_sqrt_pd(
        _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(nx, nx), _mm256_mul_pd(ny, ny)), _mm256_mul_pd(nz, nz)));
    // len > min_area && isfinite(len): len is >= 0 or NaN, and both compares are false on NaN.
    const __m256d valid = _mm256_and_pd(_mm256_cmp_pd(len, limit, _CMP_GT_OQ), _mm256_cmp_pd(len, inf, _CMP_LT_OQ));
    const __m256d mx = _mm256_div_pd(nx, len), my = _mm256_div_pd(ny, len), mz = _mm256_div_pd(nz, len);
    const __m256d d = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(mx, ax), _mm256_mul_pd(my, ay)), _mm256_mul_pd(mz, az));
    // A sliver: normal NaN, distance +inf (set_face_plane's else branch).
    const __m256d ox = _mm256_blendv_pd(nan, mx, valid);
    const __m256d oy = _mm256_blendv_pd(nan, my, valid);
    const __m256d oz = _mm256_blendv_pd(nan, mz, valid);
    const __m256d od = _mm256_blendv_pd(inf, d, valid);
    // Back to one (x, y, z, distance) row per face.
    const __m256d t0 = _mm256_unpacklo_pd(ox, oy);  // x0 y0 | x2 y2
    const __m256d t1 = _mm256_unpackhi_pd(ox, oy);  // x1 y1 | x3 y3
    const __m256d t2 = _mm256_unpacklo_pd(oz, od);  // z0 d0 | z2 d2
    const __m256d t3 = _mm256_unpackhi_pd(oz, od);  // z1 d1 | z3 d3
    const __m256d r[4] = {_mm256_permute2f128_pd(t0, t2, 0x20), _mm256_permute2f128_pd(t1, t3, 0x20),
                          _mm256_permute2f128_pd(t0, t2, 0x31), _mm256_permute2f128_pd(t1, t3, 0x31)};
    alignas(32) double dist[4];
    _mm256_store_pd(dist, od);
    const int valid_bits = _mm256_movemask_pd(valid);
    for (int i = 0; i < n; ++i) {
      const std::size_t c = static_cast<std::size_t>(e[i].created);
      _mm256_storeu_pd(faces[c].normal.data(), r[i]);  // normal, then distance
      faces[c].valid = ((valid_bits >> i) & 1) != 0;
      keys[c] = dist[i];
    }
  }
}

}  // namespace proxima::gjk::detail

#else

namespace proxima::gjk::detail {
void cone_planes_avx2(const SupportPoint*, const ConeEdge*, int, int, double, EpaFace*, double*) {}
}  // namespace proxima::gjk::detail

#endif
