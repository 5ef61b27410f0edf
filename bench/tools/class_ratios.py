#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Per-class speed ratios from proxima_bench JSON lines (--json=FILE): for each suite and case,
the fastest peer's median over proxima's, for the whole row and for its separated and
intersecting pairs alone (median_separated_ns, median_intersecting_ns), each against the peer
fastest in that class whatever its wrong answers. docs/benchmarks.md, session 18.
usage: python3 bench/tools/class_ratios.py FILE.jsonl"""
import json
import sys


def main(path):
    rows = {}
    with open(path) as f:
        for line in f:
            d = json.loads(line)
            if "median_ns" not in d:
                continue
            rows.setdefault((d["suite"], d["case"]), {})[d["implementation"]] = d
    for (suite, case), impls in rows.items():
        ours = impls.get("proxima")
        peers = [d for name, d in impls.items() if not name.startswith("proxima")]
        if ours is None or not peers:
            continue
        cells = []
        for key in ("median_ns", "median_separated_ns", "median_intersecting_ns"):
            timed = [d for d in peers if d.get(key)]
            if not ours.get(key) or not timed:
                cells.append("-")
                continue
            best = min(timed, key=lambda d: d[key])
            cells.append(f"{best[key] / ours[key]:.2f} ({best['implementation']})")
        print(f"{suite:14s} {case:20s} row {cells[0]:24s} separated {cells[1]:24s} intersecting {cells[2]}")


if __name__ == "__main__":
    main(sys.argv[1])
