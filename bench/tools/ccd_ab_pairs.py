#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Alternated bench pairs summarised per row of the ccd suite: PREFIX_base_I.json and PREFIX_new_I.json
# (I = 1, 2, ... as written by `proxima_bench --suite=ccd --json=F`, base then new in each pair),
# per pair new / base raw and the same ratio divided by the two runs' fcl_sample100 ratio (the
# machine's speed state cancels there); medians and ranges, and the proxima rows with wrong != 0.
# usage: bench/tools/ccd_ab_pairs.py PREFIX
import json, sys, statistics as st

pre = sys.argv[1]
def load(f):
    d = {}
    for line in open(f):
        line=line.strip()
        if not line: continue
        try:
            j = json.loads(line)
        except json.JSONDecodeError:
            continue
        d[(j["case"], j["implementation"])] = j
    return d
pairs = []
i = 1
while True:
    fb, fn = f"{pre}_base_{i}.json", f"{pre}_new_{i}.json"
    try:
        pairs.append((load(fb), load(fn)))
    except FileNotFoundError:
        break
    i += 1
print("pairs", len(pairs))
cases = ["cube-cube", "car-car", "torus-torus", "lprism-torus"]
impls = ["proxima_raster", "proxima_raster_first", "proxima_raster_low", "proxima_raster_high", "proxima_exact", "proxima_exact_first"]
wrong = 0
for b, n in pairs:
    for d in (b, n):
        for k, j in d.items():
            if k[1].startswith("proxima") and j.get("wrong", 0): wrong += 1
print("proxima rows with wrong != 0:", wrong)
for c in cases:
    for im in impls:
        raw, rel, nb, nn = [], [], [], []
        for b, n in pairs:
            if (c, im) not in b or (c, im) not in n: continue
            rb, rn = b[(c, im)]["median_ns"], n[(c, im)]["median_ns"]
            pb, pn = b[(c, "fcl_sample100")]["median_ns"], n[(c, "fcl_sample100")]["median_ns"]
            raw.append(rn / rb); rel.append((rn / pn) / (rb / pb)); nb.append(rb); nn.append(rn)
        if not raw: continue
        print(f"{c:16s} {im:22s} base {st.median(nb)/1e3:8.2f} us new {st.median(nn)/1e3:8.2f} us  new/base raw med {st.median(raw):.3f} [{min(raw):.3f},{max(raw):.3f}]  vs fcl_sample100 med {st.median(rel):.3f} [{min(rel):.3f},{max(rel):.3f}]")
