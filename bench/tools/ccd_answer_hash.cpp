// SPDX-License-Identifier: MIT
// ccd::screw_collisions (exact mode, or the raster mode with the word `raster` anywhere among the
// arguments) on the ccd bench's motions (bench/suites/ccd_cases.hpp), to prove a cost-only change
// bit-identical and to count its instructions. Build and run with bench/tools/ccd_answer_hash.sh
// (docs/benchmarks.md, 2026-11-26 sessions 13 and 14).
//   ccd_answer_hash hash [threshold] [nocount|answers]   one line per seed (1-5) and case, then
//       the total: a hash (FNV-1a 64) of every field of every result (contact, toi, point, normal,
//       status, detail, iterations unless answers, candidate_pairs unless nocount or answers) and
//       of every collision (type, feature ids, time, point, normal, properness), full and
//       first_contact_only, 64 motions per case. The threshold is positional: `hash answers` reads
//       `answers` as the threshold (0) and hashes the counts; the answers-only check at the default
//       threshold is `hash -0.1 answers`. The first line says how the arguments were read.
//   ccd_answer_hash run <case> <motions> <seed> [first]   the case's queries once (for callgrind
//       with --toggle-collect on screw_collisions' full signature)
//   ccd_answer_hash setup <case> <motions> <seed>          builds the cases only
//   ccd_answer_hash time <case> <motions> <seed> <passes> [first]  best pass, wall clock
//   ccd_answer_hash dump      every result and every collision of every motion (seeds 1-5, full
//       and first_contact_only, exact mode and the raster mode at its three presets; `raster` is
//       ignored), one line each, every number %.17g: compare two builds' dumps with
//       bench/tools/ccd_dump_compare.py when a change moves the answers at rounding level
//   raster (anywhere): the same in ScrewMethod::raster; `hash` then runs the medium, low and high
//       presets of core/tolerance.hpp (one line per seed, preset and case), the others the medium
#include "fnv_hasher.hpp"
#include "suites/ccd_cases.hpp"
#include <proxima/ccd/screw_collisions.hpp>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <cstdlib>
using namespace proxima;

namespace {

using Hasher = bench::FnvHasher;

// The raster presets the hash covers (pixel size, time resolution), medium first.
struct RasterPreset {
  const char* name;
  double pixel, time;
};
constexpr RasterPreset kPresets[] = {{"medium", kCcdRasterPixelSizeMedium, kCcdRasterTimeResolutionMedium},
                                     {"low", kCcdRasterPixelSizeLow, kCcdRasterTimeResolutionLow},
                                     {"high", kCcdRasterPixelSizeHigh, kCcdRasterTimeResolutionHigh}};

}  // namespace

int main(int argc, char** argv) {
  // `raster` anywhere among the arguments selects the raster mode; it is taken out of argv so the
  // positional arguments keep their places.
  bool raster = false;
  {
    int kept = 1;
    for (int i = 1; i < argc; ++i) {
      if (std::string(argv[i]) == "raster") {
        raster = true;
      } else {
        argv[kept++] = argv[i];
      }
    }
    argc = kept;
  }
  auto base_options = [&](int preset) {
    ccd::ScrewOptions o;
    if (raster) {
      o.method = ccd::ScrewMethod::raster;
      o.pixel_size = kPresets[preset].pixel;
      o.time_resolution = kPresets[preset].time;
    }
    return o;
  };
  const int presets = raster ? 3 : 1;
  std::string mode = argc > 1 ? argv[1] : "hash";
  if (mode == "hash") {
    double thr = argc > 2 ? std::atof(argv[2]) : ccd::ScrewOptions{}.properness_threshold;
    // nocount: without candidate_pairs; answers: without candidate_pairs and iterations (the raster
    // counts its pixel records in iterations, so a change that draws less keeps only this hash).
    const std::string counts = argc > 3 ? argv[3] : "";
    bool with_counts = counts != "nocount" && counts != "answers";
    bool with_iterations = counts != "answers";
    // Say how the arguments were read: the threshold is positional (atof, so a word there reads as
    // 0), and a hash with the counts changes whenever a cull changes what is drawn or scanned.
    std::printf("# threshold=%g iterations=%s candidate_pairs=%s mode=%s\n", thr, with_iterations ? "hashed" : "not hashed",
                with_counts ? "hashed" : "not hashed", raster ? "raster (3 presets)" : "exact");
    Hasher all;
    long ncoll = 0;
    long pairs_total = 0;
    for (int seed = 1; seed <= 5; ++seed) {
      auto cases = bench::make_ccd_cases(64, seed);
      for (int preset = 0; preset < presets; ++preset) {
        for (auto& c : cases) {
          Hasher hc;
          long nc = 0;
          long pairs = 0;
          for (int first = 0; first < 2; ++first) {
            ccd::ScrewOptions o = base_options(preset);
            o.first_contact_only = first;
            o.properness_threshold = thr;
            for (auto& m : c.motions) {
              auto r = ccd::screw_collisions(c.a, m.a_start, m.a_end, c.b, m.b_start, m.b_end, o);
              for (Hasher* h : {&hc, &all}) {
                h->add(r.contact); h->add(r.toi); h->add(r.point); h->add(r.normal);
                h->add(static_cast<int>(r.status)); h->add(static_cast<int>(r.detail));
                if (with_iterations) h->add(r.iterations);
                if (with_counts) h->add(r.candidate_pairs);
                h->add(static_cast<int>(r.collisions.size()));
                for (auto& k : r.collisions) {
                  h->add(static_cast<int>(k.type)); h->add(k.vertex); h->add(k.face); h->add(k.edge_a); h->add(k.edge_b);
                  h->add(k.time); h->add(k.point); h->add(k.normal); h->add(k.properness);
                }
              }
              nc += static_cast<long>(r.collisions.size());
              pairs += r.candidate_pairs;
            }
          }
          ncoll += nc;
          pairs_total += pairs;
          std::printf("seed %d %s%-16s collisions=%ld pairs=%ld hash=%016llx\n", seed,
                      raster ? (std::string(kPresets[preset].name) + " ").c_str() : "", c.name.c_str(), nc, pairs,
                      (unsigned long long)hc.h);
        }
      }
    }
    std::printf("TOTAL collisions=%ld pairs=%ld values=%ld hash=%016llx\n", ncoll, pairs_total, all.values,
                (unsigned long long)all.h);
    return 0;
  }
  if (mode == "dump") {
    // Lines: R <key> contact toi point normal status detail n, then per collision
    // C <key> index type vertex face edge_a edge_b time point normal properness; key = mode preset
    // seed case first motion.
    auto vec = [](const Vec3& v) {
      char buf[96];
      std::snprintf(buf, sizeof buf, "%.17g %.17g %.17g", v.x(), v.y(), v.z());
      return std::string(buf);
    };
    for (int exact_mode = 1; exact_mode >= 0; --exact_mode) {
      raster = exact_mode == 0;
      const int dump_presets = raster ? 3 : 1;
      for (int seed = 1; seed <= 5; ++seed) {
        auto cases = bench::make_ccd_cases(64, seed);
        for (int preset = 0; preset < dump_presets; ++preset) {
          for (auto& c : cases) {
            for (int first = 0; first < 2; ++first) {
              ccd::ScrewOptions o = base_options(preset);
              o.first_contact_only = first;
              int motion = 0;
              for (auto& m : c.motions) {
                auto r = ccd::screw_collisions(c.a, m.a_start, m.a_end, c.b, m.b_start, m.b_end, o);
                char key[160];
                std::snprintf(key, sizeof key, "%s %s %d %s %d %d", raster ? "raster" : "exact",
                              raster ? kPresets[preset].name : "-", seed, c.name.c_str(), first, motion);
                std::printf("R %s %d %.17g %s %s %d %d %zu\n", key, r.contact ? 1 : 0, r.toi, vec(r.point).c_str(),
                            vec(r.normal).c_str(), static_cast<int>(r.status), static_cast<int>(r.detail),
                            r.collisions.size());
                int index = 0;
                for (auto& k : r.collisions) {
                  std::printf("C %s %d %d %d %d %d %d %.17g %s %s %.17g\n", key, index++, static_cast<int>(k.type),
                              k.vertex, k.face, k.edge_a, k.edge_b, k.time, vec(k.point).c_str(), vec(k.normal).c_str(),
                              k.properness);
                }
                ++motion;
              }
            }
          }
        }
      }
    }
    return 0;
  }
  if ((mode != "setup" && mode != "run" && mode != "time") || argc < 5 || (mode == "time" && argc < 6)) {
    std::fprintf(stderr,
                 "usage: %s [hash [THRESHOLD [nocount|answers]]] [raster]\n"
                 "       %s dump\n"
                 "       %s setup|run CASE MOTIONS SEED [first] [raster]\n"
                 "       %s time CASE MOTIONS SEED PASSES [first] [raster]\n",
                 argv[0], argv[0], argv[0], argv[0]);
    return 2;
  }
  std::string name = argv[2];
  int motions = std::atoi(argv[3]);
  int seed = std::atoi(argv[4]);
  auto cases = bench::make_ccd_cases(motions, seed);
  for (auto& c : cases) {
    if (c.name != name) continue;
    if (mode == "setup") return 0;
    ccd::ScrewOptions o = base_options(0);
    if (mode == "run") {
      o.first_contact_only = argc > 5 && std::string(argv[5]) == "first";
      long n = 0, pairs = 0;
      for (auto& m : c.motions) {
        auto r = ccd::screw_collisions(c.a, m.a_start, m.a_end, c.b, m.b_start, m.b_end, o);
        n += (long)r.collisions.size();
        pairs += r.candidate_pairs;
      }
      std::printf("%s motions=%zu collisions=%ld pairs=%ld\n", name.c_str(), c.motions.size(), n, pairs);
    } else if (mode == "time") {
      int passes = std::atoi(argv[5]);
      o.first_contact_only = argc > 6 && std::string(argv[6]) == "first";
      double best = 1e300;
      for (int p = 0; p < passes; ++p) {
        auto t0 = std::chrono::steady_clock::now();
        for (auto& m : c.motions) {
          auto r = ccd::screw_collisions(c.a, m.a_start, m.a_end, c.b, m.b_start, m.b_end, o);
          (void)r;
        }
        double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (dt < best) best = dt;
      }
      std::printf("%s best pass %.3f ms (%.1f us/query)\n", name.c_str(), best * 1e3,
                  best * 1e6 / static_cast<double>(c.motions.size()));
    }
  }
  return 0;
}
