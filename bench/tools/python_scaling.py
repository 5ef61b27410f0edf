# SPDX-License-Identifier: MIT
"""Throughput of the batch API from Python: proxima.batch_distance / batch_intersect with 1 and 2
threads, and the same batch through proxima.dask on a LocalCluster of 2 worker processes.

Run from the repository root after the build (the README's test command builds the module):
    PYTHONPATH=build/python python3 bench/tools/python_scaling.py [--n 400000] [--repeat 3]
Prints queries per second (best of --repeat passes) and checks that every pass, local or Dask,
gives the same arrays as the first single-threaded pass. The figures in README.md ("Past one
machine") come from this script; quote them with the machine's load (uptime).
"""
import argparse
import os
import time

import numpy as np

import proxima


def random_rows(rng, n, spread):
    """(n, 7) rows [tx, ty, tz, qw, qx, qy, qz], translations in [-spread, spread]^3."""
    t = rng.uniform(-spread, spread, size=(n, 3))
    q = rng.normal(size=(n, 4))
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    return np.ascontiguousarray(np.hstack([t, q]))


def best_rate(fn, n, repeat):
    best = float("inf")
    out = None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - start)
    return n / best / 1e6, out


def same(x, y):
    return x.keys() == y.keys() and all(np.array_equal(x[k], y[k], equal_nan=True) for k in x)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=400_000, help="poses per batch")
    parser.add_argument("--repeat", type=int, default=3, help="passes; the best is reported")
    parser.add_argument("--chunk", type=int, default=50_000, help="Dask chunk size")
    parser.add_argument("--no-dask", action="store_true", help="skip the LocalCluster part")
    args = parser.parse_args()

    rng = np.random.default_rng(1)
    a = proxima.polytope(vertices=rng.normal(size=(8, 3)))
    b = proxima.polytope(vertices=rng.normal(size=(8, 3)))
    rows = random_rows(rng, args.n, 2.0)
    print(f"# python_scaling: n={args.n} repeat={args.repeat} load={os.getloadavg()[0]:.2f} cpus={os.cpu_count()}")
    failures = 0
    for kind in ("intersect", "distance"):
        fn = getattr(proxima, "batch_" + kind)
        rate1, ref = best_rate(lambda: fn(a, proxima.Pose(), b, rows, threads=1), args.n, args.repeat)
        rate2, out2 = best_rate(lambda: fn(a, proxima.Pose(), b, rows, threads=2), args.n, args.repeat)
        ok = same(ref, out2)
        failures += not ok
        print(f"{kind:10s} local 1 thread {rate1:7.3f} M/s  2 threads {rate2:7.3f} M/s  speed-up {rate2 / rate1:5.2f}"
              f"  same as 1 thread: {ok}")
        if args.no_dask:
            continue
        import importlib

        distributed = importlib.import_module("distributed")  # Debian python3-distributed
        pdask = importlib.import_module("proxima.dask")

        with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                      dashboard_address=None) as cluster, distributed.Client(cluster) as client:
            pdask.map_batch(client, kind, a, proxima.Pose(), b, rows[:1000], chunk_size=500, threads=1)  # warm up
            rate_d, out_d = best_rate(lambda: pdask.map_batch(client, kind, a, proxima.Pose(), b, rows,
                                                                     chunk_size=args.chunk, threads=1),
                                      args.n, args.repeat)
        ok = same(ref, out_d)
        failures += not ok
        print(f"{kind:10s} dask LocalCluster 2 workers x 1 thread {rate_d:7.3f} M/s"
              f"  ({rate_d / rate1:4.2f}x local 1 thread)  same as local: {ok}")
    raise SystemExit(1 if failures else 0)


if __name__ == "__main__":
    main()
