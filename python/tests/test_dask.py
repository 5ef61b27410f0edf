# SPDX-License-Identifier: MIT
"""proxima.dask on a LocalCluster with 2 workers: same answers as the local batch, in order."""
import numpy as np
import pytest

import proxima
from conftest import random_rows

distributed = pytest.importorskip("distributed", reason="dask.distributed is not installed (Debian python3-distributed)")
import proxima.dask  # noqa: E402


def test_dask_equals_local_batch(rng):
    a = proxima.polytope(vertices=rng.normal(size=(8, 3)))
    shapes_b = [proxima.sphere(radius=0.2 + 0.01 * i) if i % 3 else proxima.box(half_extents=(0.3, 0.4, 0.5))
                for i in range(1000)]
    rb = random_rows(rng, 1000, 2.0)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        assert len(client.scheduler_info()["workers"]) == 2
        for kind in ("intersect", "distance", "penetration"):
            local = getattr(proxima, "batch_" + kind)(a, proxima.Pose(), shapes_b, rb, threads=1)
            remote = proxima.dask.map_batch(client, kind, a, proxima.Pose(), shapes_b, rb, chunk_size=137, threads=1)
            assert local.keys() == remote.keys()
            for key in local:
                np.testing.assert_array_equal(remote[key], local[key], err_msg=f"{kind} {key}")
        with pytest.raises(ValueError, match="pose_b: has 999 entries"):
            proxima.dask.batch_distance(client, a, proxima.Pose(), shapes_b, rb[:999])
        bad = rb.copy()
        bad[500, 0] = np.nan
        with pytest.raises(ValueError, match=r"pose_b\["):
            proxima.dask.batch_distance(client, a, proxima.Pose(), shapes_b, bad, chunk_size=300)

        # Time of impact: per-element velocities, a broadcast velocity and a scalar t_max.
        n = len(shapes_b)
        direction = rb[:, :3] / np.linalg.norm(rb[:, :3], axis=1, keepdims=True)
        away = rng.uniform(size=n) < 0.5  # half of the B move away from A
        vb = np.where(away[:, None], 3.0, -2.0) * direction + 0.5 * rng.uniform(-1, 1, size=(n, 3))
        va = np.array([0.1, 0.0, -0.1])
        local = proxima.batch_toi_translate(a, proxima.Pose(), va, shapes_b, rb, vb, 1.5, threads=1)
        remote = proxima.dask.batch_toi_translate(client, a, proxima.Pose(), va, shapes_b, rb, vb, 1.5,
                                                  chunk_size=137, threads=1)
        assert 0.05 * n < n - local["contact"].sum() < 0.9 * n  # both outcomes occur
        assert local.keys() == remote.keys()
        for key in local:
            np.testing.assert_array_equal(remote[key], local[key], err_msg=f"toi_translate {key}")
        rb_end = rb.copy()
        rb_end[:, :3] *= -1.0  # each B passes through the origin; A turns a little
        a_end = proxima.Pose.from_euler_xyz([0.2, 0.1, 0.3])
        local = proxima.batch_toi_screw(a, proxima.Pose(), a_end, shapes_b, rb, rb_end, threads=1)
        remote = proxima.dask.batch_toi_screw(client, a, proxima.Pose(), a_end, shapes_b, rb, rb_end,
                                              chunk_size=250, threads=1)
        assert local["contact"].sum() > 0.5 * n
        for key in local:
            np.testing.assert_array_equal(remote[key], local[key], err_msg=f"toi_screw {key}")
        with pytest.raises(TypeError, match="toi_screw: expected 6 arguments"):
            proxima.dask.map_batch(client, "toi_screw", a, proxima.Pose(), shapes_b, rb)
