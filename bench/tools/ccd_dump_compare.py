#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Compare two `ccd_answer_hash dump` outputs (base, new) for a change that moves the ccd answers at
# rounding level: per motion (mode preset seed case first motion) the same contact flag, status,
# detail and number of collisions, per collision the same type and features, and the largest
# |difference| in toi, time, point, normal and properness (by mode and preset). Differences over
# LIMIT (default 1e-9) are listed motion by motion.
# usage: bench/tools/ccd_dump_compare.py BASE_DUMP NEW_DUMP [LIMIT]
import sys
from collections import defaultdict


def load(path):
    results, collisions = {}, {}
    with open(path) as f:
        for line in f:
            p = line.split()
            if not p:
                continue
            key = tuple(p[1:7])
            if p[0] == "R":
                results[key] = p[7:]
            elif p[0] == "C":
                collisions[key + (p[7],)] = p[8:]
    return results, collisions


def main():
    base_r, base_c = load(sys.argv[1])
    new_r, new_c = load(sys.argv[2])
    limit = float(sys.argv[3]) if len(sys.argv) > 3 else 1e-9
    problems = []
    worst = defaultdict(lambda: defaultdict(float))  # (mode, preset) -> field -> max |diff|
    changed = defaultdict(int)
    if base_r.keys() != new_r.keys():
        problems.append("different motions: %d vs %d" % (len(base_r), len(new_r)))
    for key, b in base_r.items():
        n = new_r.get(key)
        if n is None:
            continue
        group = key[0:2]
        # contact toi px py pz nx ny nz status detail count
        if b[0] != n[0] or b[8] != n[8] or b[9] != n[9] or b[10] != n[10]:
            problems.append("result differs %s: base %s new %s" % (" ".join(key), " ".join(b), " ".join(n)))
            continue
        for name, lo, hi in (("toi", 1, 2), ("point", 2, 5), ("normal", 5, 8)):
            d = max(abs(float(x) - float(y)) for x, y in zip(b[lo:hi], n[lo:hi]))
            worst[group][name] = max(worst[group][name], d)
            if d > limit:
                problems.append("result %s %s |diff| %.3g" % (" ".join(key), name, d))
    for key, b in base_c.items():
        n = new_c.get(key)
        if n is None:
            problems.append("collision missing in new: %s" % " ".join(key))
            continue
        group = key[0:2]
        # type vertex face edge_a edge_b time px py pz nx ny nz properness
        if b[0:5] != n[0:5]:
            problems.append("collision features differ %s: base %s new %s" % (" ".join(key), " ".join(b[0:5]), " ".join(n[0:5])))
            continue
        if b != n:
            changed[group] += 1
        for name, lo, hi in (("time", 5, 6), ("point", 6, 9), ("normal", 9, 12), ("properness", 12, 13)):
            d = max(abs(float(x) - float(y)) for x, y in zip(b[lo:hi], n[lo:hi]))
            worst[group][name] = max(worst[group][name], d)
            if d > limit:
                problems.append("collision %s %s |diff| %.3g" % (" ".join(key), name, d))
    print("motions %d, collisions base %d new %d" % (len(base_r), len(base_c), len(new_c)))
    for group in sorted(worst):
        fields = " ".join("%s %.3g" % (k, v) for k, v in sorted(worst[group].items()))
        print("%s %s: collisions with any field changed %d; max |diff| %s" % (group[0], group[1], changed[group], fields))
    print("over %g or structural: %d" % (limit, len(problems)))
    for p in problems[:200]:
        print("  " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
