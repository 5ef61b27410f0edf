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


STANDARD = ("median_ns", "wrong", "checked", "max_error")
SKIP = ("suite", "case", "implementation", "machine", "seed")


def fmt_cell(x):
    if x is None:
        return "-"
    if isinstance(x, float):
        return f"{x:.4g}"
    return str(x)


def standard_table(suite, rows, proxima):
    print("| case | implementation | median (warm) | cold | proxima / impl (warm) | proxima / impl (cold) | wrong / checked | max error |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        p = proxima.get((suite, r["case"]))
        ratio = p["median_ns"] / r["median_ns"] if p and r["median_ns"] else None
        cold_ratio = p["cold_ns"] / r["cold_ns"] if p and p.get("cold_ns") and r.get("cold_ns") else None
        name = f"**{r['implementation']}**" if r["implementation"] == "proxima" else r["implementation"]
        print(f"| {r['case']} | {name} | {fmt_ns(r['median_ns'])} | {fmt_ns(r.get('cold_ns'))} | "
              f"{'-' if ratio is None else f'{ratio:.2f}'} | {'-' if cold_ratio is None else f'{cold_ratio:.2f}'} | "
              f"{r['wrong']} / {r['checked']} | {r['max_error']:.1e} |")


def generic_table(rows):
    """Suites with their own fields (lp, lp_pivots, ipm, batch): one column per field, in first-seen order."""
    keys = []
    for r in rows:
        for k in r:
            if k not in SKIP and k not in keys:
                keys.append(k)
    head = ["case"] + (["implementation"] if any("implementation" in r for r in rows) else []) + keys
    print("| " + " | ".join(head) + " |")
    print("| " + " | ".join("---" for _ in head) + " |")
    for r in rows:
        cells = [r["case"]] + ([r.get("implementation", "-")] if "implementation" in head else [])
        cells += [fmt_ns(r[k]) if k.endswith("_ns") and r.get(k) is not None else fmt_cell(r.get(k)) for k in keys]
        print("| " + " | ".join(cells) + " |")


def ccd_table(rows):
    """The ccd suite: ratios against proxima_exact, wrong answers split by kind, lateness."""
    exact = {r["case"]: r for r in rows if r["implementation"] == "proxima_exact"}
    print("| case | implementation | median (warm) | cold | exact / impl | wrong / checked | misses | false | "
          "off tolerance | lateness median | lateness max | earliness max |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        name = f"**{r['implementation']}**" if r["implementation"] == "proxima_exact" else r["implementation"]
        if not r.get("available", True):
            print(f"| {r['case']} | {name} | not implemented |" + " - |" * 9)
            continue
        e = exact.get(r["case"])
        ratio = e["median_ns"] / r["median_ns"] if e and r["median_ns"] else None
        late = lambda k: "-" if r.get(k) is None else f"{r[k]:.1e}"
        print(f"| {r['case']} | {name} | {fmt_ns(r['median_ns'])} | {fmt_ns(r.get('cold_ns'))} | "
              f"{'-' if ratio is None else f'{ratio:.3g}'} | {r['wrong']} / {r['checked']} | {r['misses']} | "
              f"{r['false_contacts']} | {r['off_tolerance']} | {late('lateness_median')} | {late('lateness_max')} | "
              f"{late('earliness_max')} |")


def main(path):
    rows = [json.loads(line) for line in open(path) if line.strip()]
    proxima = {(r["suite"], r["case"]): r for r in rows if r.get("implementation") == "proxima"}
    suites = []
    for r in rows:
        if r["suite"] not in suites:
            suites.append(r["suite"])
    for suite in suites:
        print(f"\n#### {suite}\n")
        suite_rows = [r for r in rows if r["suite"] == suite]
        if suite == "ccd":
            ccd_table(suite_rows)
        elif all("implementation" in r and all(k in r for k in STANDARD) for r in suite_rows):
            standard_table(suite, suite_rows, proxima)
        else:
            generic_table(suite_rows)


if __name__ == "__main__":
    main(sys.argv[1])
