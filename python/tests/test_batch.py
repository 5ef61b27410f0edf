# SPDX-License-Identifier: MIT
"""Batch API on numpy arrays: equals the scalar functions bit for bit, independent of threads;
layouts; broadcasting; zero copy; bad input."""
import numpy as np
import pytest

import proxima
from conftest import SEED, random_rows


def pose(row):
    return proxima.Pose(row[:3], row[3:])


@pytest.fixture
def polytopes(rng):
    return proxima.polytope(vertices=rng.normal(size=(8, 3))), proxima.polytope(vertices=rng.normal(size=(8, 3)))


def test_batch_equals_scalar_bit_for_bit(rng, polytopes):
    a, b = polytopes
    n = 150
    ra, rb = random_rows(rng, n, 1.5), random_rows(rng, n, 1.5)
    by_threads = {}
    for threads in (1, 2, 4):
        bi = proxima.batch_intersect(a, ra, b, rb, threads=threads)
        bd = proxima.batch_distance(a, ra, b, rb, threads=threads)
        bp = proxima.batch_penetration(a, ra, b, rb, threads=threads)
        by_threads[threads] = (bi, bd, bp)
    hits = 0
    for i in range(n):
        pa, pb = pose(ra[i]), pose(rb[i])
        si = proxima.intersect(a, pa, b, pb)
        sd = proxima.distance(a, pa, b, pb)
        sp = proxima.penetration(a, pa, b, pb)
        hits += si.intersect
        for threads, (bi, bd, bp) in by_threads.items():
            msg = f"seed {SEED} threads {threads} element {i}"
            assert bi["intersect"][i] == si.intersect, msg
            np.testing.assert_array_equal(bi["separating_axis"][i], si.separating_axis, err_msg=msg)
            assert bi["status"][i] == int(si.status), msg
            assert bd["distance"][i] == sd.distance, msg
            np.testing.assert_array_equal(bd["point_a"][i], sd.point_a, err_msg=msg)
            np.testing.assert_array_equal(bd["normal"][i], sd.normal, err_msg=msg)
            assert bd["iterations"][i] == sd.iterations, msg
            assert (bp["depth"][i] == sp.depth) or (np.isnan(bp["depth"][i]) and np.isnan(sp.depth)), msg
            np.testing.assert_array_equal(bp["normal"][i], sp.normal, err_msg=msg)
    assert 0.15 * n < hits < 0.85 * n
    assert by_threads[1][1]["distance"].dtype == np.float64
    assert by_threads[1][0]["intersect"].dtype == np.bool_
    assert by_threads[1][1]["point_a"].shape == (n, 3)


def test_layouts_broadcast_and_shape_arrays(rng, polytopes):
    a, b = polytopes
    n = 40
    rb = random_rows(rng, n, 1.5)
    mats = np.stack([pose(r).as_matrix() for r in rb])
    ref = proxima.batch_distance(a, proxima.Pose(), b, rb)
    via_mats = proxima.batch_distance(a, np.eye(4), b, mats)
    np.testing.assert_allclose(via_mats["distance"], ref["distance"], atol=1e-12)
    via_list = proxima.batch_distance(a, [proxima.Pose()] * n, b, [pose(r) for r in rb])
    np.testing.assert_array_equal(via_list["distance"], ref["distance"])
    xyzw = rb[:, [0, 1, 2, 4, 5, 6, 3]]
    via_scipy = proxima.batch_distance(a, proxima.Pose(), b, xyzw, scalar_first=False)
    np.testing.assert_array_equal(via_scipy["distance"], ref["distance"])
    # a non-contiguous view is accepted (copied)
    wide = np.zeros((n, 10))
    wide[:, :7] = rb
    np.testing.assert_array_equal(proxima.batch_distance(a, proxima.Pose(), b, wide[:, :7])["distance"], ref["distance"])
    # arrays of shapes
    spheres = [proxima.sphere(radius=0.1 + 0.01 * i) for i in range(n)]
    out = proxima.batch_distance(spheres, proxima.Pose(), proxima.sphere(radius=0.5), rb)
    expect = np.maximum(np.linalg.norm(rb[:, :3], axis=1) - 0.5 - (0.1 + 0.01 * np.arange(n)), 0)
    np.testing.assert_allclose(out["distance"], expect, atol=1e-9)


def test_bad_input_raises_with_clear_messages(rng, polytopes):
    a, b = polytopes
    ra, rb = random_rows(rng, 10, 1.5), random_rows(rng, 9, 1.5)
    with pytest.raises(ValueError, match=r"pose_b: has 9 entries, expected 1 \(broadcast\) or 10"):
        proxima.batch_distance(a, ra, b, rb)
    rb = random_rows(rng, 10, 1.5)
    rb[7, 4] = np.nan
    with pytest.raises(proxima.InvalidInput, match=r"pose_b\[7\]: .*nan"):
        proxima.batch_intersect(a, ra, b, rb)
    marked = proxima.batch_distance(a, ra, b, rb, bad_poses="mark")
    assert marked["status"][7] == int(proxima.Status.degenerate_input)
    assert marked["detail"][7] == int(proxima.Detail.non_finite)
    assert np.isnan(marked["distance"][7]) and np.isfinite(np.delete(marked["distance"], 7)).all()
    ra[2, 3:] = 0.0
    with pytest.raises(ValueError, match=r"pose_a\[2\]: quaternion"):
        proxima.batch_penetration(a, ra, b, rb, bad_poses="raise")
    with pytest.raises(ValueError, match=r"pose_a: expected an array of shape \(N, 7\)"):
        proxima.batch_distance(a, np.zeros((5, 3)), b, rb)
    with pytest.raises(TypeError, match="pose_a"):
        proxima.batch_distance(a, "not poses", b, rb)
    with pytest.raises(TypeError, match=r"pose_a: expected a real numeric array"):
        proxima.batch_distance(a, np.array([["a"] * 7]), b, rb)
    with pytest.raises(TypeError, match=r"b\[1\]: expected a proxima.Shape"):
        proxima.batch_distance(a, ra, [b, 3], rb)
    with pytest.raises(ValueError, match="threads"):
        proxima.batch_distance(a, proxima.Pose(), b, proxima.Pose(), threads=-2)
    with pytest.raises(ValueError, match="bad_poses"):
        proxima.batch_distance(a, proxima.Pose(), b, proxima.Pose(), bad_poses="ignore")
    with pytest.raises(ValueError, match="radius"):
        proxima.sphere(radius=-1.0)
    with pytest.raises(ValueError, match="half_extents"):
        proxima.box(half_extents=(1, 0, 1))
    with pytest.raises(ValueError, match="quaternion"):
        proxima.Pose(quaternion=(0, 0, 0, 0))
    with pytest.raises(ValueError, match="matrix"):
        proxima.Pose.from_matrix(np.diag([1.0, 2.0, 1.0]))
    with pytest.raises(TypeError):
        proxima.sphere(radius="big")
    with pytest.raises(TypeError):
        proxima.box(half_extents=(1, 2))
    with pytest.raises(TypeError):
        proxima.distance(a, "pose", b, proxima.Pose())
    with pytest.raises(ValueError, match="norm"):
        proxima.lp_distance(np.eye(3), np.eye(3), norm="l2")
