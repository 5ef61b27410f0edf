# SPDX-License-Identifier: MIT
"""Batched time of impact on numpy arrays: every element equals the scalar ccd function bit for
bit, independent of the thread count; spheres against the closed form; bad elements marked while
the rest is answered; argument errors name the argument."""
import numpy as np
import pytest

import proxima
from proxima import ccd, mesh
from conftest import SEED, random_rows

KEYS = ("contact", "toi", "point", "normal", "iterations", "status", "detail")


def pose(row):
    return proxima.Pose(row[:3], row[3:])


def same(batch, i, r, msg):
    assert batch["contact"][i] == r.contact, msg
    np.testing.assert_array_equal(batch["toi"][i], r.toi, err_msg=msg)
    np.testing.assert_array_equal(batch["point"][i], r.point, err_msg=msg)
    np.testing.assert_array_equal(batch["normal"][i], r.normal, err_msg=msg)
    assert batch["iterations"][i] == r.iterations, msg
    assert batch["status"][i] == int(r.status) and batch["detail"][i] == int(r.detail), msg


def translate_inputs(rng, n):
    ra = random_rows(rng, n, 0.2)
    direction = rng.normal(size=(n, 3))
    direction /= np.linalg.norm(direction, axis=1, keepdims=True)
    rb = random_rows(rng, n, 0.0)
    rb[:, :3] = 3.0 * direction
    va = 0.3 * rng.uniform(-1, 1, size=(n, 3))
    vb = -2.0 * direction + 1.5 * rng.uniform(-1, 1, size=(n, 3))
    return ra, va, rb, vb


def test_toi_translate_equals_scalar_for_any_thread_count(rng):
    a = proxima.polytope(vertices=rng.normal(size=(8, 3)))
    b = proxima.capsule(radius=0.3, half_length=0.6)
    n = 120
    ra, va, rb, vb = translate_inputs(rng, n)
    runs = {t: proxima.batch_toi_translate(a, ra, va, b, rb, vb, 1.5, threads=t) for t in (1, 2, 4)}
    assert set(runs[1]) == set(KEYS)
    assert runs[1]["contact"].dtype == np.bool_ and runs[1]["point"].shape == (n, 3)
    contacts = 0
    for i in range(n):
        r = ccd.toi_translate(a, pose(ra[i]), va[i], b, pose(rb[i]), vb[i], 1.5)
        contacts += r.contact
        for t, batch in runs.items():
            same(batch, i, r, f"seed {SEED} threads {t} element {i}")
    assert 0.15 * n < contacts < 0.85 * n
    # non-contiguous and integer inputs are accepted (copied) and give the same answers
    wide = np.zeros((n, 6))
    wide[:, ::2] = va
    strided = proxima.batch_toi_translate(a, ra, wide[:, ::2], b, rb, vb, 1.5)
    np.testing.assert_array_equal(strided["toi"], runs[1]["toi"])
    assert not wide[:, ::2].flags.c_contiguous
    # scipy quaternion order, explicitly
    def xyzw(rows):
        return np.hstack([rows[:, :3], rows[:, 4:], rows[:, 3:4]])

    scipy_order = proxima.batch_toi_translate(a, xyzw(ra), va, b, xyzw(rb), vb, 1.5, scalar_first=False)
    np.testing.assert_array_equal(scipy_order["toi"], runs[1]["toi"])


def test_spheres_match_the_closed_form(rng):
    n = 50
    radii = rng.uniform(0.1, 1.0, size=n)
    d = rng.uniform(2.0, 5.0, size=n)
    v = rng.uniform(1.0, 5.0, size=n)
    rows = np.zeros((n, 7))
    rows[:, 0], rows[:, 3] = d, 1.0
    vel = np.zeros((n, 3))
    vel[:, 0] = -v
    out = proxima.batch_toi_translate(proxima.sphere(0.5), proxima.Pose(), np.zeros(3),
                                      [proxima.sphere(r) for r in radii], rows, vel, 10.0)
    expected = (d - 0.5 - radii) / v
    assert out["contact"].all()
    np.testing.assert_allclose(out["toi"], expected, atol=1e-6)
    assert np.all(out["toi"] <= expected + 1e-12)  # conservative advancement never passes the contact
    np.testing.assert_allclose(out["normal"], np.tile([1.0, 0, 0], (n, 1)), atol=1e-9)


def screw_inputs(rng, n):
    a_start = random_rows(rng, n, 0.0)
    a_end = a_start.copy()
    a_end[:, :3] = 0.1 * rng.uniform(-1, 1, size=(n, 3))
    direction = rng.normal(size=(n, 3))
    direction /= np.linalg.norm(direction, axis=1, keepdims=True)
    side = 0.6 * rng.normal(size=(n, 3))
    side -= np.sum(side * direction, axis=1, keepdims=True) * direction
    b_start = random_rows(rng, n, 0.0)
    b_start[:, :3] = 2.2 * direction + side
    b_end = b_start.copy()
    b_end[:, :3] = -2.0 * direction + side
    return a_start, a_end, b_start, b_end


def test_screw_batches_equal_the_scalar_functions(rng):
    cube_mesh, tet_mesh = mesh.box(half_extents=(0.5, 0.4, 0.3)), mesh.tetrahedron(0.8)
    cube, tet = proxima.polytope(cube_mesh.vertices), proxima.polytope(tet_mesh.vertices)
    n = 30
    a_start, a_end, b_start, b_end = screw_inputs(rng, n)
    convex = {t: proxima.batch_toi_screw(cube, a_start, a_end, tet, b_start, b_end, threads=t) for t in (1, 2)}
    meshes = {t: proxima.batch_screw_first_contact(cube_mesh, a_start, a_end, tet_mesh, b_start, b_end, threads=t)
              for t in (1, 2)}
    first = ccd.ScrewOptions(first_contact_only=True)
    contacts = 0
    for i in range(n):
        p = [pose(x[i]) for x in (a_start, a_end, b_start, b_end)]
        rc = ccd.toi_screw(cube, *p[:2], tet, *p[2:])
        rm = ccd.screw_collisions(cube_mesh, *p[:2], tet_mesh, *p[2:], first)
        contacts += rm.contact
        for t in (1, 2):
            msg = f"seed {SEED} threads {t} element {i}"
            same(convex[t], i, rc, msg)
            assert meshes[t]["contact"][i] == rm.contact, msg
            np.testing.assert_array_equal(meshes[t]["toi"][i], rm.toi, err_msg=msg)
            np.testing.assert_array_equal(meshes[t]["point"][i], rm.point, err_msg=msg)
            assert meshes[t]["iterations"][i] == rm.iterations, msg
        if rm.contact:  # conservative advancement agrees with the exact mesh answer
            assert convex[1]["toi"][i] == pytest.approx(rm.toi, abs=1e-6)
    assert 0.1 * n <= contacts <= 0.9 * n
    # a list of meshes is the same as one broadcast mesh
    listed = proxima.batch_screw_first_contact([cube_mesh] * n, a_start, a_end, tet_mesh, b_start, b_end)
    np.testing.assert_array_equal(listed["toi"], meshes[1]["toi"])


def test_bad_elements_are_marked_and_the_rest_answered(rng):
    a, b = proxima.box(half_extents=(0.5, 0.5, 0.5)), proxima.sphere(0.4)
    n = 12
    ra, va, rb, vb = translate_inputs(rng, n)
    rb[3, 1] = np.nan          # NaN pose
    rb[5, 3:] = 0.0            # zero quaternion
    va[8, 0] = np.inf          # infinite velocity
    out = proxima.batch_toi_translate(a, ra, va, b, rb, vb, 2.0, bad_poses="mark")
    for i in range(n):
        if i in (3, 5, 8):
            assert out["status"][i] == int(proxima.Status.degenerate_input), i
            assert out["detail"][i] == int(proxima.Detail.non_finite), i
            assert not out["contact"][i] and np.isnan(out["toi"][i]) and out["iterations"][i] == 0
        else:
            same(out, i, ccd.toi_translate(a, pose(ra[i]), va[i], b, pose(rb[i]), vb[i], 2.0), f"element {i}")
    with pytest.raises(ValueError, match=r"pose_b\[3\]"):
        proxima.batch_toi_translate(a, ra, va, b, rb, vb, 2.0)
    rb[3, 1], rb[5, 3] = 0.0, 1.0
    with pytest.raises(ValueError, match=r"velocity_a\[8\]\.x"):
        proxima.batch_toi_translate(a, ra, va, b, rb, vb, 2.0)
    # a half-turn relative rotation in a screw batch: only that element is refused
    cube, tet = proxima.box(half_extents=(0.5, 0.4, 0.3)), proxima.sphere(0.5)
    a_start, a_end, b_start, b_end = screw_inputs(rng, 4)
    b_end[2, 3:] = [0.0, 0.0, 0.0, 1.0]
    b_start[2, 3:] = [1.0, 0.0, 0.0, 0.0]
    marked = proxima.batch_toi_screw(cube, a_start, a_end, tet, b_start, b_end, bad_poses="mark")
    assert marked["status"][2] == int(proxima.Status.degenerate_input)
    assert marked["detail"][2] == int(proxima.Detail.none)
    assert all(marked["status"][i] == int(proxima.Status.converged) for i in (0, 1, 3))
    with pytest.raises(ValueError, match=r"element\[2\]: .*rotation"):
        proxima.batch_toi_screw(cube, a_start, a_end, tet, b_start, b_end)


def test_argument_errors_name_the_argument(rng):
    a = b = proxima.sphere(1.0)
    rows = random_rows(rng, 4, 1.0)
    with pytest.raises(ValueError, match=r"velocity_a: expected an array of shape \(N, 3\)"):
        proxima.batch_toi_translate(a, rows, np.zeros((4, 2)), b, rows, np.zeros(3), 1.0)
    with pytest.raises(ValueError, match=r"velocity_b: has 3 entries, expected 1 \(broadcast\) or 4"):
        proxima.batch_toi_translate(a, rows, np.zeros((4, 3)), b, rows, np.zeros((3, 3)), 1.0)
    with pytest.raises(TypeError, match="velocity_a: expected a real numeric array"):
        proxima.batch_toi_translate(a, rows, np.zeros((4, 3), dtype=complex), b, rows, np.zeros(3), 1.0)
    with pytest.raises(TypeError, match="velocity_a"):
        proxima.batch_toi_translate(a, rows, "fast", b, rows, np.zeros(3), 1.0)
    with pytest.raises(ValueError, match="t_max"):
        proxima.batch_toi_translate(a, rows, np.zeros(3), b, rows, np.zeros(3), -1.0)
    with pytest.raises(ValueError, match="a_end"):
        proxima.batch_toi_screw(a, rows, rows[:3], b, rows, rows)
    with pytest.raises(TypeError, match=r"a: expected a proxima.mesh.Mesh"):
        proxima.batch_screw_first_contact(a, rows, rows, mesh.box((1, 1, 1)), rows, rows)
    with pytest.raises(ValueError, match="pixel_size"):
        cube = mesh.box((1, 1, 1))
        proxima.batch_screw_first_contact(cube, rows, rows, cube, rows, rows,
                                          options=ccd.ScrewOptions(method=ccd.ScrewMethod.raster, pixel_size=0.0))
    with pytest.raises(ValueError, match="threads"):
        proxima.batch_toi_translate(a, rows, np.zeros(3), b, rows, np.zeros(3), 1.0, threads=1000)
