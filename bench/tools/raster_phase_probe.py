#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes a copy of src/ccd/glide_raster.cpp whose raster_screw_collisions returns an empty result
at the phase the environment variable PROBE_STOP names (read once), to time the query's phases
with bench/tools/ccd_warm_times.cpp (the answers are wrong below 99: a measuring probe only):
  1  after the head (relative motion, decomposition, sphere early out), before any geometry
  2  after both bodies are drawn, before the candidate scans
  3  after the scans, before any resolution
  5  after the vertex-face resolutions, before the edge-edge ones
  4  after every resolution, before the duplicates, the properness filter and finish_collisions
  99 (or unset) the whole query
usage (from the repository root, a Release build in build/; session 34):
  bench/tools/raster_phase_probe.py src/ccd/glide_raster.cpp src/ccd/gr_phase_tmp.cpp
  g++ -O3 -DNDEBUG -fPIC -std=c++20 -Iinclude -Isrc -isystem /usr/include/eigen3 -c src/ccd/gr_phase_tmp.cpp -o gr_phase.o
  rm src/ccd/gr_phase_tmp.cpp
  g++ -O3 -DNDEBUG -std=c++20 -Ibench -Iinclude -Isrc -isystem /usr/include/eigen3 bench/tools/ccd_warm_times.cpp \
    bench/suites/ccd_cases.cpp gr_phase.o build/libproxima_ccd.a build/libproxima_mesh.a build/libproxima_shapes.a \
    build/libproxima_core.a -lqhull_r -o warm_phase
  PROBE_STOP=2 taskset -c 1 ./warm_phase bench cube-cube 64 60
"""
import sys

STOPS = [
    (1, "  Workspace& work = t_workspace;\n  const Geometry& ga = work.ga;"),
    (2, "  // Steps 5-6: the candidates, then their analytic resolution."),
    (3, "  for (const auto& [va, fb] : vf) resolver.vertex_face(va, fb);"),
    (5, "  std::size_t edge_pairs = ee.size();\n  if (options.first_contact_only)"),
    (4, "  std::vector<Collision>& found = resolver.collisions();\n  resolve_duplicates"),
]


def main():
    src, out = sys.argv[1], sys.argv[2]
    text = open(src).read()
    text = text.replace(
        "#include <cmath>",
        "#include <cmath>\n#include <cstdlib>\n"
        'static const int kProbeStop = std::getenv("PROBE_STOP") ? std::atoi(std::getenv("PROBE_STOP")) : 99;',
        1,
    )
    for stop, anchor in STOPS:
        if text.count(anchor) != 1:
            sys.exit(f"anchor of stop {stop} not found once: {anchor!r}")
        text = text.replace(anchor, f"  if (kProbeStop == {stop}) return result;  // PROBE\n" + anchor, 1)
    open(out, "w").write(text)


if __name__ == "__main__":
    main()
