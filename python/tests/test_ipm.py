# SPDX-License-Identifier: MIT
"""proxima.ipm: primitives, parts, objects, presets and the interior-point queries, against closed
forms (spheres, boxes), numpy brute force and GJK on the same geometry (another algorithm)."""
import numpy as np
import pytest

import proxima
from proxima import ipm
from conftest import SEED


def sphere_object(radius):
    return ipm.Object(ipm.Quadric.ellipsoid((radius, radius, radius)))


def at(*t):
    return proxima.Pose.from_translation(np.array(t, dtype=float))


def test_primitives_value_and_derivatives(rng):
    u = rng.normal(size=3)
    h = ipm.Halfspace(normal=(0, 0, 2), offset=4)  # z <= 2 once normalised
    assert h.normal.tolist() == [0, 0, 1] and h.offset == pytest.approx(2)
    assert h.value(u) == pytest.approx(u[2] - 2)
    e = ipm.Quadric.ellipsoid((1, 2, 3))
    assert e.bounded
    expected = (u[0] / 1) ** 2 + (u[1] / 2) ** 2 + (u[2] / 3) ** 2 - 1
    assert e.value(u) == pytest.approx(expected)
    ev = e.evaluate(u)
    np.testing.assert_allclose(ev["gradient"], 2 * u / np.array([1, 4, 9]), rtol=1e-12)
    np.testing.assert_allclose(ev["hessian"], np.diag(2 / np.array([1, 4, 9])), rtol=1e-12)
    q = ipm.Quadric(q=np.eye(3), b=(0, 0, 0), c=-1)
    assert q.value(u) == pytest.approx(u @ u - 1)
    s = ipm.Superquadric(semiaxes=(1, 2, 3), exponents=(4, 4, 2))
    assert s.value(u) == pytest.approx(np.sum(np.abs(u / [1, 2, 3]) ** [4, 4, 2]) - 1)
    np.testing.assert_array_equal(s.exponents, [4, 4, 2])
    terms = [((1, 0, 0, 0), 4.0), ((0, 1, 0, 0), 4.0), ((0, 0, 1, 0), 2.0)]
    hq = ipm.Hyperquadric(terms)
    assert hq.bounded and len(hq.terms) == 3
    assert hq.value(u) == pytest.approx(u[0] ** 4 + u[1] ** 4 + u[2] ** 2 - 1)
    # finite differences of the gradient
    g = hq.evaluate(u)["gradient"]
    eps = 1e-6
    fd = [(hq.value(u + eps * d) - hq.value(u - eps * d)) / (2 * eps) for d in np.eye(3)]
    np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-8)


def test_sphere_distances_match_the_closed_form(rng):
    for case in range(20):
        ra, rb = rng.uniform(0.2, 1.5, size=2)
        ca, cb = rng.uniform(-3, 3, size=3), rng.uniform(-3, 3, size=3)
        gap = np.linalg.norm(ca - cb) - ra - rb
        r = ipm.distance(sphere_object(ra), at(*ca), sphere_object(rb), at(*cb))
        msg = f"seed {SEED} case {case}"
        assert r.status == proxima.Status.converged, msg
        if gap > 1e-6:
            assert r.distance == pytest.approx(gap, rel=1e-6, abs=1e-8), msg
            n = (cb - ca) / np.linalg.norm(cb - ca)
            np.testing.assert_allclose(r.point_a, ca + ra * n, atol=1e-5, err_msg=msg)
            np.testing.assert_allclose(r.normal, n, atol=1e-5, err_msg=msg)
        elif gap < -1e-6:
            assert r.intersect and r.distance == 0, msg


def test_box_from_halfspaces_against_numpy_clamp(rng):
    half = np.array([1.0, 0.5, 0.7])
    box = ipm.Object([ipm.Halfspace(n, h) for n, h in zip(np.vstack([np.eye(3), -np.eye(3)]), np.tile(half, 2))])
    lo, hi = box.aabb
    np.testing.assert_allclose(lo, -half, atol=1e-6)
    np.testing.assert_allclose(hi, half, atol=1e-6)
    assert box.contains(box.interior_point)
    radius = 0.3
    checked = 0
    for case in range(20):
        c = rng.uniform(-3, 3, size=3)
        outside = np.linalg.norm(c - np.clip(c, -half, half))  # numpy: distance from the centre to the box
        if outside < radius + 0.05:
            continue
        checked += 1
        r = ipm.distance(box, proxima.Pose(), sphere_object(radius), at(*c))
        assert r.distance == pytest.approx(outside - radius, rel=1e-6), f"seed {SEED} case {case}"
    assert checked >= 10


def test_ipm_agrees_with_gjk_on_the_same_geometry(rng):
    """Two algorithms, one answer: ellipsoid and superquadric pairs by IPM and by GJK supports."""
    pairs = [
        (ipm.Quadric.ellipsoid((1, 0.6, 0.4)), proxima.ellipsoid(semiaxes=(1, 0.6, 0.4))),
        (ipm.Superquadric((1, 1, 1.7), (23 / 11, 11 / 5, 179 / 13)),
         proxima.superquadric(semiaxes=(1, 1, 1.7), exponents=(23 / 11, 11 / 5, 179 / 13))),
    ]
    for k, (implicit, convex) in enumerate(pairs):
        obj = ipm.Object(implicit)
        for case in range(8):
            q1, q2 = rng.normal(size=4), rng.normal(size=4)
            pa = proxima.Pose(rng.uniform(-0.5, 0.5, size=3), q1)
            pb = proxima.Pose(rng.normal(size=3) / np.sqrt(3) * 5.0, q2)
            ri = ipm.distance(obj, pa, obj, pb)
            rg = proxima.distance(convex, pa, convex, pb)
            msg = f"seed {SEED} pair {k} case {case}"
            assert ri.intersect == rg.intersect, msg
            if not rg.intersect:
                assert ri.distance == pytest.approx(rg.distance, rel=1e-5, abs=1e-6), msg


def test_parts_poses_affine_maps_and_deformation(rng):
    # an ellipsoid three ways: the quadric, a unit sphere under an affine part map, a deformed sphere
    axes = np.array([2.0, 1.0, 0.5])
    direct = ipm.Object(ipm.Quadric.ellipsoid(axes))
    mapped = ipm.Object([ipm.Part(ipm.Quadric.ellipsoid((1, 1, 1)), linear=np.diag(axes))])
    deformed = sphere_object(1.0).deformed(np.diag(axes))
    target = sphere_object(0.5)
    pose_b = at(4, 1, 0.5)
    d = [ipm.distance(o, proxima.Pose(), target, pose_b).distance for o in (direct, mapped, deformed)]
    assert d[1] == pytest.approx(d[0], rel=1e-7) and d[2] == pytest.approx(d[0], rel=1e-7)
    # a part placed by a pose: the same as placing the object
    shifted = ipm.Object([ipm.Part(ipm.Quadric.ellipsoid(axes), at(1, 0, 0))])
    assert shifted.parts[0].translation.tolist() == [1, 0, 0]
    assert ipm.distance(shifted, proxima.Pose(), target, pose_b).distance == pytest.approx(
        ipm.distance(direct, at(1, 0, 0), target, pose_b).distance, rel=1e-7)
    assert isinstance(shifted.parts[0].primitive, ipm.Quadric)


def test_presets_build_and_answer():
    assert len(ipm.PRESET_NAMES) == 6
    objects = [ipm.preset(name) for name in ipm.PRESET_NAMES]
    for name, obj in zip(ipm.PRESET_NAMES, objects):
        assert obj.contains(obj.interior_point), name
        lo, hi = obj.aabb
        assert np.all(lo < obj.interior_point) and np.all(obj.interior_point < hi), name
        same = getattr(ipm, name)()
        np.testing.assert_array_equal(same.interior_point, obj.interior_point)
    # every pair far apart: a certified positive distance below the bounding-sphere bound
    for i, a in enumerate(objects):
        b = objects[(i + 1) % len(objects)]
        pb = at(8, 0, 0)
        r = ipm.distance_report(a, proxima.Pose(), b, pb)
        assert r.result.status == proxima.Status.converged, ipm.PRESET_NAMES[i]
        (ca, ra), (cb, rb) = a.bounding_sphere, b.bounding_sphere
        assert 0 < r.result.distance <= np.linalg.norm(cb + [8, 0, 0] - ca) + 1e-9
        assert r.result.distance >= np.linalg.norm(cb + [8, 0, 0] - ca) - ra - rb - 1e-9
        assert r.complementarity >= 0 and r.kkt_residual >= 0


def test_distance_solver_warm_start_and_deformation(rng):
    a, b = ipm.soda_can(), ipm.mouse()
    solver = ipm.DistanceSolver(ipm.IpmOptions(max_iterations=200))
    assert solver.options.max_iterations == 200
    first = solver.distance(a, proxima.Pose(), b, at(5, 0, 0))
    assert not first.warm_started
    assert len(solver.multipliers) == len(a.parts) + len(b.parts)
    for step in range(5):
        pb = at(5 - 0.1 * step, 0.05 * step, 0)
        warm = solver.distance_warm(a, proxima.Pose(), b, pb)
        cold = ipm.distance(a, proxima.Pose(), b, pb)
        assert warm.warm_started
        assert warm.result.distance == pytest.approx(cold.distance, rel=1e-6), step
    # deforming object (seed 001 table III): growing semiaxes, warm solves follow the cold answer
    for scale in (1.0, 1.1, 1.2):
        grown = a.deformed(np.diag([scale, scale, 1.0]))
        warm = solver.distance_warm(grown, proxima.Pose(), b, at(5, 0, 0))
        cold = ipm.distance(grown, proxima.Pose(), b, at(5, 0, 0))
        assert warm.result.distance == pytest.approx(cold.distance, rel=1e-6), scale
    # coherent steps (a unique closest pair: not the flat faces facing each other above): the
    # Newton polish answers them, certified by the separating plane, unless it is switched off
    solver.distance(a, proxima.Pose(), b, at(4, 1.5, 2.5))
    steps = [solver.distance_warm(a, proxima.Pose(), b, at(4 - 0.01 * k, 1.5, 2.5)) for k in range(1, 4)]
    assert all(r.polished and r.support_certified and r.result.gap < 1e-9 for r in steps)
    plain = ipm.DistanceSolver(ipm.IpmOptions(polish=False))
    plain.distance(a, proxima.Pose(), b, at(4, 1.5, 2.5))
    again = plain.distance_warm(a, proxima.Pose(), b, at(3.99, 1.5, 2.5))
    assert again.warm_started and not again.polished
    assert again.result.distance == pytest.approx(steps[0].result.distance, rel=1e-9)
    solver.clear_warm_start()
    assert not solver.distance_warm(a, proxima.Pose(), b, at(5, 0, 0)).warm_started


def sphere_motion(p0, v, r, t_max):
    """Closed forms for spheres whose relative position is p0 + v t (numpy)."""
    vv = v @ v
    t_star = np.clip(-(p0 @ v) / vv, 0, t_max)
    min_dist = np.linalg.norm(p0 + v * t_star) - r
    # first t with |p0 + v t| = r: vv t^2 + 2 p0.v t + p0.p0 - r^2 = 0
    disc = (p0 @ v) ** 2 - vv * (p0 @ p0 - r * r)
    toi = (-(p0 @ v) - np.sqrt(disc)) / vv if disc >= 0 else np.inf
    return t_star, min_dist, toi


def test_continuous_queries_on_spheres_match_closed_forms(rng):
    contacts = misses = 0
    for case in range(16):
        ra, rb = rng.uniform(0.3, 0.8, size=2)
        pa, pb = rng.uniform(-1, 1, size=3), rng.uniform(-1, 1, size=3) + [4, 0, 0]
        va, vb = rng.uniform(-1, 1, size=3), rng.uniform(-1, 1, size=3) + [-3, 0, 0]
        msg = f"seed {SEED} case {case}"
        t_star, min_dist, toi = sphere_motion(pb - pa, vb - va, ra + rb, 2.0)
        iv = ipm.interval_translate(sphere_object(ra), at(*pa), va, sphere_object(rb), at(*pb), vb, 2.0)
        tr = ipm.toi_translate(sphere_object(ra), at(*pa), va, sphere_object(rb), at(*pb), vb, 2.0)
        if min_dist > 1e-4:
            misses += 1
            assert not iv.intersect and iv.min_distance == pytest.approx(min_dist, rel=1e-5), msg
            assert iv.min_time == pytest.approx(t_star, abs=1e-3), msg  # flat minimum: t to sqrt(tol)
            assert not tr.contact and np.isnan(tr.toi), msg
        elif min_dist < -1e-4 and toi <= 2.0:
            contacts += 1
            assert iv.intersect and iv.min_distance == 0, msg
            assert tr.contact and tr.toi == pytest.approx(toi, abs=1e-5), msg
            # the contact point lies on both spheres at toi
            ca, cb = pa + va * tr.toi, pb + vb * tr.toi
            assert np.linalg.norm(tr.point - ca) == pytest.approx(ra, abs=1e-4), msg
            assert np.linalg.norm(tr.point - cb) == pytest.approx(rb, abs=1e-4), msg
    assert contacts >= 3 and misses >= 3
    # collision_intervals: A moves along +x by up to 6, B stays (length 0): |pa + s x - pb| <= ra + rb
    ra, rb = 0.5, 0.4
    r = ipm.collision_intervals(sphere_object(ra), at(0, 0, 0), (1, 0, 0), 6.0, sphere_object(rb), at(3, 0.3, 0),
                                (0, 1, 0), 0.0)
    half = np.sqrt((ra + rb) ** 2 - 0.3 ** 2)
    assert r.collide
    assert r.s_a_min == pytest.approx(3 - half, abs=1e-5) and r.s_a_max == pytest.approx(3 + half, abs=1e-5)
    assert r.s_b_min == pytest.approx(0, abs=1e-6) and r.s_b_max == pytest.approx(0, abs=1e-6)
    assert "CollisionIntervals" in repr(r)


def test_ipm_bad_input_raises():
    with pytest.raises(ValueError, match="normal"):
        ipm.Halfspace((0, 0, 0), 1)
    with pytest.raises(ValueError, match="exponents"):
        ipm.Superquadric((1, 1, 1), (0.5, 2, 2))
    with pytest.raises(ValueError, match="semiaxes"):
        ipm.Quadric.ellipsoid((1, -1, 1))
    with pytest.raises(ValueError, match="Q"):
        ipm.Quadric(np.diag([1.0, -1.0, 1.0]), (0, 0, 0), -1)
    with pytest.raises(ValueError, match="terms"):
        ipm.Hyperquadric([((1, 0, 0, 0), 2.0)])
    with pytest.raises(ValueError, match="parts"):  # empty intersection
        ipm.Object([ipm.Halfspace((1, 0, 0), -1), ipm.Halfspace((-1, 0, 0), -1)])
    with pytest.raises(ValueError, match="parts"):  # unbounded
        ipm.Object(ipm.Halfspace((1, 0, 0), 1))
    with pytest.raises(ValueError, match="affine.linear"):
        ipm.Part(ipm.Quadric.ellipsoid((1, 1, 1)), linear=np.zeros((3, 3)))
    with pytest.raises(ValueError, match="pose"):
        ipm.Part(ipm.Quadric.ellipsoid((1, 1, 1)), proxima.Pose(), linear=np.eye(3))
    with pytest.raises(ValueError, match="preset"):
        ipm.preset("teapot")
    with pytest.raises(TypeError, match="max_iteration"):
        ipm.IpmOptions(max_iteration=3)
    with pytest.raises(TypeError, match="parts"):
        ipm.Object("sphere")
    with pytest.raises(TypeError):
        ipm.distance(proxima.sphere(1), proxima.Pose(), sphere_object(1), proxima.Pose())
    with pytest.raises(ValueError, match="t_max"):
        ipm.interval_translate(sphere_object(1), proxima.Pose(), (0, 0, 0), sphere_object(1), at(3, 0, 0),
                               (0, 0, 0), -1.0)
    with pytest.raises(ValueError, match="velocity_a"):
        ipm.toi_translate(sphere_object(1), proxima.Pose(), (np.nan, 0, 0), sphere_object(1), at(3, 0, 0),
                          (0, 0, 0), 1.0)
