#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Turns proxima_bench --json output (one object per suite, case, implementation) into the
markdown tables of docs/benchmarks.md, recomputing every ratio from the medians.

usage: jsonl_to_markdown.py RESULTS.jsonl
"""
import json
import sys


def fmt_ns(x):
    if x is None:
        return "-"
    return f"{x / 1000:.2f} us" if x >= 1000 else f"{x:.0f} ns"


def main(path):
    rows = [json.loads(line) for line in open(path) if line.strip()]
    proxima = {(r["suite"], r["case"]): r for r in rows if r["implementation"] == "proxima"}
    suites = []
    for r in rows:
        if r["suite"] not in suites:
            suites.append(r["suite"])
    for suite in suites:
        print(f"\n#### {suite}\n")
        print("| case | implementation | median (warm) | cold | proxima / impl (warm) | proxima / impl (cold) | wrong / checked | max error |")
        print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
        for r in rows:
            if r["suite"] != suite:
                continue
            p = proxima.get((suite, r["case"]))
            ratio = p["median_ns"] / r["median_ns"] if p and r["median_ns"] else None
            cold_ratio = p["cold_ns"] / r["cold_ns"] if p and r.get("cold_ns") else None
            name = f"**{r['implementation']}**" if r["implementation"] == "proxima" else r["implementation"]
            print(f"| {r['case']} | {name} | {fmt_ns(r['median_ns'])} | {fmt_ns(r.get('cold_ns'))} | "
                  f"{'-' if ratio is None else f'{ratio:.2f}'} | {'-' if cold_ratio is None else f'{cold_ratio:.2f}'} | "
                  f"{r['wrong']} / {r['checked']} | {r['max_error']:.1e} |")


if __name__ == "__main__":
    main(sys.argv[1])
