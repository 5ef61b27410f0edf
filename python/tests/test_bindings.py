# SPDX-License-Identifier: MIT
"""Every binding called once at least; answers against closed forms and numpy brute force."""
import pickle

import numpy as np
import pytest

import proxima
from conftest import SEED, random_rows


def rotation_from_wxyz(q):
    w, x, y, z = q / np.linalg.norm(q)
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])


def test_every_shape_factory_builds_its_kind():
    s = proxima.sphere(radius=0.5)
    shapes = {
        "point": proxima.point(position=(1, 2, 3)),
        "segment": proxima.segment(a=(0, 0, 0), b=(1, 0, 0)),
        "triangle": proxima.triangle(a=(0, 0, 0), b=(1, 0, 0), c=(0, 1, 0)),
        "sphere": s,
        "box": proxima.box(half_extents=(1, 2, 3)),
        "capsule": proxima.capsule(radius=0.3, half_length=1.0),
        "cylinder": proxima.cylinder(radius=0.3, half_height=1.0),
        "cone": proxima.cone(radius=0.3, half_height=1.0),
        "ellipsoid": proxima.ellipsoid(semiaxes=(1, 2, 3)),
        "polytope": proxima.polytope(vertices=[[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]),
        "superquadric": proxima.superquadric(semiaxes=(1, 1, 1.7), exponents=(2.0909, 2.2, 13.769)),
        "rounded": proxima.rounded(core=proxima.box(half_extents=(1, 1, 1)), radius=0.1),
        "affine": proxima.affine(shape=s, matrix=np.diag([1.0, 2.0, 3.0]), translation=(1, 0, 0)),
        "minkowski": proxima.minkowski(a=s, b=proxima.box(half_extents=(1, 1, 1))),
        "hull": proxima.hull(of=[s, proxima.point(position=(3, 0, 0))]),
    }
    for kind, shape in shapes.items():
        assert shape.kind == kind
        assert kind in repr(shape)
        # pickles as its factory call, and the copy answers the same support queries
        copy = pickle.loads(pickle.dumps(shape))
        assert copy.kind == kind
        d = np.array([0.3, -0.5, 0.8])
        np.testing.assert_array_equal(copy.support(d), shape.support(d))
    assert shapes["box"].support((1, 1, 1)).tolist() == [1, 2, 3]
    assert shapes["rounded"].margin == pytest.approx(0.1)
    center, radius = shapes["sphere"].bounding_sphere
    assert radius == pytest.approx(0.5) and np.allclose(center, 0)
    lo, hi = shapes["box"].aabb
    assert np.allclose(lo, [-1, -2, -3]) and np.allclose(hi, [1, 2, 3])
    assert shapes["hull"].support((1, 0, 0))[0] == pytest.approx(3.0)


def test_pose_conventions_and_factories(rng):
    q = rng.normal(size=4)
    t = rng.normal(size=3)
    p = proxima.Pose(translation=t, quaternion=q)
    np.testing.assert_allclose(p.rotation, rotation_from_wxyz(q), atol=1e-14)
    np.testing.assert_array_equal(p.translation, t)
    # scipy order (x, y, z, w) only with the explicit argument or factory
    xyzw = np.array([q[1], q[2], q[3], q[0]])
    p2 = proxima.Pose(translation=t, quaternion=xyzw, scalar_first=False)
    p3 = proxima.Pose.from_scipy(xyzw, t)
    p4 = proxima.Pose.from_quaternion(xyzw, t, scalar_first=False)
    for other in (p2, p3, p4):
        np.testing.assert_allclose(other.rotation, p.rotation, atol=1e-15)
    # the stored quaternion is the normalised (w, x, y, z), up to sign
    qn = q / np.linalg.norm(q)
    assert min(np.abs(p.quaternion - qn).max(), np.abs(p.quaternion + qn).max()) < 1e-14
    # euler_xyz: R = Rx(a) Ry(b) Rz(c)
    a, b, c = 0.1, -0.7, 1.3
    rx = np.array([[1, 0, 0], [0, np.cos(a), -np.sin(a)], [0, np.sin(a), np.cos(a)]])
    ry = np.array([[np.cos(b), 0, np.sin(b)], [0, 1, 0], [-np.sin(b), 0, np.cos(b)]])
    rz = np.array([[np.cos(c), -np.sin(c), 0], [np.sin(c), np.cos(c), 0], [0, 0, 1]])
    e = proxima.Pose.from_euler_xyz((a, b, c), t)
    np.testing.assert_allclose(e.rotation, rx @ ry @ rz, atol=1e-14)
    m3 = proxima.Pose.from_matrix(p.rotation, t)
    m4 = proxima.Pose.from_matrix(p.as_matrix())
    np.testing.assert_allclose(m3.rotation, p.rotation, atol=1e-15)
    np.testing.assert_allclose(m4.as_matrix(), p.as_matrix(), atol=1e-15)
    assert proxima.Pose.from_translation(t).translation.tolist() == t.tolist()
    x = rng.normal(size=3)
    np.testing.assert_allclose(p.apply(x), p.rotation @ x + t, atol=1e-14)
    np.testing.assert_allclose(p.rotate(x), p.rotation @ x, atol=1e-14)
    np.testing.assert_allclose((p * p.inverse()).apply(x), x, atol=1e-13)
    np.testing.assert_allclose(p.as_array()[:3], t)
    assert p == p and "Pose(" in repr(p)
    # bit for bit: a pose sent to another process (proxima.dask) gives the same answers there
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(p)).as_matrix(), p.as_matrix())


def test_sphere_pair_closed_form(rng):
    ra, rb = 0.7, 1.1
    a, b = proxima.sphere(radius=ra), proxima.sphere(radius=rb)
    separated = 0
    for _ in range(200):
        ca, cb = rng.uniform(-2, 2, size=3), rng.uniform(-2, 2, size=3)
        pa, pb = proxima.Pose.from_translation(ca), proxima.Pose.from_translation(cb)
        d = proxima.distance(a, pa, b, pb)
        gap = np.linalg.norm(cb - ca) - ra - rb
        assert d.distance == pytest.approx(max(gap, 0.0), abs=1e-9)
        assert d.status == proxima.Status.converged
        hit = proxima.intersect(a, pa, b, pb)
        assert bool(hit) == (gap <= 0) or abs(gap) < 1e-9
        if gap > 0:
            separated += 1
            n = (cb - ca) / np.linalg.norm(cb - ca)
            np.testing.assert_allclose(d.normal, n, atol=1e-9)
            np.testing.assert_allclose(d.point_a, ca + ra * n, atol=1e-9)
            np.testing.assert_allclose(d.point_b, cb - rb * n, atol=1e-9)
        else:
            pen = proxima.penetration(a, pa, b, pb)
            assert pen.intersect and pen.depth == pytest.approx(-gap, abs=1e-7)
            assert 0 <= pen.gap <= 1e-7  # EPA's certificate: true depth - depth
    assert 40 < separated < 190  # both answers sampled


def test_polytopes_against_numpy_brute_force(rng):
    """Distance is at most the closest vertex pair and at least the best separation over
    candidate axes; a reported separating axis really separates the vertex sets."""
    separated = overlapping = 0
    for case in range(60):
        va = rng.normal(size=(8, 3))
        vb = rng.normal(size=(8, 3))
        a, b = proxima.polytope(vertices=va), proxima.polytope(vertices=vb)
        rows = random_rows(rng, 1, 1.8)[0]
        pa = proxima.Pose()
        pb = proxima.Pose(translation=rows[:3], quaternion=rows[3:])
        wb = vb @ pb.rotation.T + pb.translation
        d = proxima.distance(a, pa, b, pb)
        vertex_pairs = np.linalg.norm(va[:, None, :] - wb[None, :, :], axis=2).min()
        assert d.distance <= vertex_pairs + 1e-9, f"seed {SEED} case {case}"
        hit = proxima.intersect(a, pa, b, pb)
        if not hit.intersect:
            separated += 1
            axis = hit.separating_axis
            assert np.max(va @ axis) < np.min(wb @ axis) + 1e-9, f"seed {SEED} case {case}"
            # the distance normal is a separating direction whose gap equals the distance
            n = d.normal
            assert np.min(wb @ n) - np.max(va @ n) == pytest.approx(d.distance, abs=1e-7)
            assert d.distance > 0
        else:
            overlapping += 1
            assert d.distance == 0.0
            pen = proxima.penetration(a, pa, b, pb)
            # translating b by depth * normal makes the sets (just) separable along normal
            moved = wb + pen.depth * pen.normal
            assert np.min(moved @ pen.normal) - np.max(va @ pen.normal) == pytest.approx(0.0, abs=1e-6)
    assert separated >= 10 and overlapping >= 10


def test_options_and_results_fields():
    o = proxima.GjkOptions(max_iterations=2)
    assert o.max_iterations == 2
    e = proxima.EpaOptions(gjk=o)
    assert e.gjk.max_iterations == 2
    a = proxima.ellipsoid(semiaxes=(1, 2, 3))
    b = proxima.ellipsoid(semiaxes=(2, 1, 1))
    pb = proxima.Pose.from_translation((4.1, 0.3, 0.2))
    r = proxima.distance(a, proxima.Pose(), b, pb, options=o)
    assert r.status == proxima.Status.iteration_limit and r.iterations <= 2
    full = proxima.distance(a, proxima.Pose(), b, pb)
    assert full.status == proxima.Status.converged
    assert full.gap >= 0 and isinstance(full.detail, proxima.Detail)
    assert "DistanceResult" in repr(full)
    p = proxima.penetration(a, proxima.Pose(), b, proxima.Pose(), options=e)
    assert p.iterations >= 1 and "PenetrationResult" in repr(p)
    assert "IntersectResult" in repr(proxima.intersect(a, proxima.Pose(), b, pb))


def test_gjk_options_pick_the_method():
    """closed_forms, ellipsoid_newton, box_box, revolution_polish, revolution_overlap and first_support_overlap off route their pairs to GJK: same distance, GJK's iterations."""
    defaults = proxima.GjkOptions()
    assert defaults.closed_forms and defaults.ellipsoid_newton
    pb = proxima.Pose.from_translation((4.1, 0.3, 0.2))
    # sphere-box: the closed form reports 0 iterations, GJK at least one
    s, bx = proxima.sphere(radius=0.5), proxima.box(half_extents=(1, 2, 0.5))
    closed = proxima.distance(s, proxima.Pose(), bx, pb)
    gjk = proxima.distance(s, proxima.Pose(), bx, pb, options=proxima.GjkOptions(closed_forms=False))
    assert closed.iterations == 0 and gjk.iterations >= 1
    assert gjk.distance == pytest.approx(closed.distance, abs=1e-9)
    # ellipsoids: Newton and GJK agree within GJK's certificate; the flag is stored
    a = proxima.ellipsoid(semiaxes=(1, 2, 3))
    b = proxima.ellipsoid(semiaxes=(2, 1, 1))
    off = proxima.GjkOptions(ellipsoid_newton=False)
    assert not off.ellipsoid_newton
    newton = proxima.distance(a, proxima.Pose(), b, pb)
    plain = proxima.distance(a, proxima.Pose(), b, pb, options=off)
    assert newton.status == proxima.Status.converged and plain.status == proxima.Status.converged
    assert plain.distance == pytest.approx(newton.distance, abs=newton.gap + plain.gap + 1e-12)
    assert newton.iterations != plain.iterations or newton.distance != plain.distance
    # box-box: the separating-axis pre-pass reports 0 iterations, GJK at least one
    ba, bb = proxima.box(half_extents=(1, 0.5, 0.7)), proxima.box(half_extents=(0.6, 0.9, 0.4))
    pre = proxima.distance(ba, proxima.Pose(), bb, pb)
    plain_boxes = proxima.distance(ba, proxima.Pose(), bb, pb, options=proxima.GjkOptions(box_box=False))
    assert defaults.box_box and pre.iterations == 0 and plain_boxes.iterations >= 1
    assert plain_boxes.distance == pytest.approx(pre.distance, abs=pre.gap + plain_boxes.gap + 1e-12)
    # cylinder-cone: the Newton polish finishes the pairs GJK settles slowly, within both certificates
    off = proxima.GjkOptions(revolution_polish=False)
    assert defaults.revolution_polish and not off.revolution_polish
    cyl, cone = proxima.cylinder(radius=0.6, half_height=0.8), proxima.cone(radius=0.5, half_height=0.7)
    pose_rng = np.random.default_rng(5)
    polished = 0
    for _ in range(20):
        q = pose_rng.normal(size=4)
        d = pose_rng.normal(size=3)
        pc = proxima.Pose(translation=2.2 * d / np.linalg.norm(d), quaternion=q / np.linalg.norm(q))
        on_answer = proxima.distance(cyl, proxima.Pose(), cone, pc)
        off_answer = proxima.distance(cyl, proxima.Pose(), cone, pc, options=off)
        assert on_answer.status == proxima.Status.converged and off_answer.status == proxima.Status.converged
        assert on_answer.distance == pytest.approx(off_answer.distance, abs=on_answer.gap + off_answer.gap + 1e-12)
        polished += on_answer.iterations != off_answer.iterations
    assert polished >= 5, "the polish changed no run: the option did not reach the solver"
    # cylinder-cone overlapping across their axes: the common point between the axes answers
    # without GJK (0 iterations); off, GJK finds the overlap itself
    no_overlap_test = proxima.GjkOptions(revolution_overlap=False)
    assert defaults.revolution_overlap and not no_overlap_test.revolution_overlap
    crossing = proxima.Pose.from_translation((0.3, 0.1, 0.2))
    found = proxima.distance(cyl, proxima.Pose(), cone, crossing)
    searched = proxima.distance(cyl, proxima.Pose(), cone, crossing, options=no_overlap_test)
    assert found.intersect and searched.intersect
    assert found.iterations == 0 and searched.iterations >= 1
    assert proxima.intersect(cyl, proxima.Pose(), cone, crossing).iterations == 0
    # polytope-box overlapping: a vertex of GJK's first support pair inside the other solid
    # answers without GJK (0 iterations, a common point); off, GJK finds the overlap itself
    no_first_support = proxima.GjkOptions(first_support_overlap=False)
    assert defaults.first_support_overlap and not no_first_support.first_support_overlap
    tetra = proxima.polytope(vertices=[[-1, -1, -1], [1, -1, -1], [0, 1, -1], [0, 0, 1]])
    cube = proxima.box(half_extents=(0.5, 0.5, 0.5))
    near = proxima.Pose.from_translation((0.0, 0.0, 1.2))
    first = proxima.distance(tetra, proxima.Pose(), cube, near)
    gjk_run = proxima.distance(tetra, proxima.Pose(), cube, near, options=no_first_support)
    assert first.intersect and gjk_run.intersect
    assert first.iterations == 0 and gjk_run.iterations >= 1
    assert proxima.intersect(tetra, proxima.Pose(), cube, near).iterations == 0


def test_polytope_overlap_options(rng):
    """Polytopes of >= 12 vertices: some overlaps GJK's first support pair misses are answered by the
    second or third farthest vertices or the edges at the support vertices (0 iterations); with
    both options off GJK finds them itself."""
    defaults = proxima.GjkOptions()
    first_pair_only = proxima.GjkOptions(neighbour_support_overlap=False, support_edge_overlap=False)
    assert defaults.support_edge_overlap and not first_pair_only.support_edge_overlap
    assert defaults.neighbour_support_overlap and not first_pair_only.neighbour_support_overlap
    axes = np.array([1.0, 0.7, 0.5])

    def ellipsoid_polytope():
        points = rng.normal(size=(32, 3))
        return proxima.polytope(vertices=(points / np.linalg.norm(points, axis=1)[:, None] * axes).tolist())

    answered_by_neighbours = 0
    overlaps = 0
    for rows in random_rows(rng, 200, 1.0):
        a, b = ellipsoid_polytope(), ellipsoid_polytope()
        direction = rng.normal(size=3)
        offset = direction / np.linalg.norm(direction) * rng.uniform(0.6, 2.0)
        pose_b = proxima.Pose(offset.tolist(), rows[3:])
        with_neighbours = proxima.distance(a, proxima.Pose(), b, pose_b)
        first_only = proxima.distance(a, proxima.Pose(), b, pose_b, options=first_pair_only)
        assert with_neighbours.intersect == first_only.intersect
        if with_neighbours.intersect:
            overlaps += 1
            assert with_neighbours.distance == 0.0 and first_only.distance == 0.0
            if with_neighbours.iterations == 0 and first_only.iterations >= 1:
                answered_by_neighbours += 1
        else:
            assert with_neighbours.distance == pytest.approx(first_only.distance, rel=1e-9, abs=1e-12)
    assert 40 <= overlaps <= 160, f"{overlaps} of 200 pairs overlap: the sample says little (seed {SEED})"
    assert answered_by_neighbours >= 1, f"no overlap answered by the vertex or edge tests (seed {SEED})"


def test_pair_matches_free_functions(rng):
    a = proxima.box(half_extents=(1, 1, 1))
    b = proxima.capsule(radius=0.3, half_length=0.8)
    pair = proxima.Pair(a, b, proxima.Pose(), proxima.Pose.from_translation((3, 0, 0)))
    assert pair.distance().distance == pytest.approx(1.7, abs=1e-9)
    assert not pair.collide().intersect
    assert pair.penetration().depth == 0.0
    for rows in random_rows(rng, 20, 2.0):
        pose = proxima.Pose(rows[:3], rows[3:])
        pair.set_pose_b(pose)
        ref = proxima.distance(a, proxima.Pose(), b, pose)
        assert pair.distance().distance == pytest.approx(ref.distance, abs=1e-9)
        assert pair.collide().intersect == proxima.intersect(a, proxima.Pose(), b, pose).intersect
    pair.set_poses(proxima.Pose(), proxima.Pose())
    assert pair.collide().intersect and pair.penetration().depth > 0
    pair.set_pose_a(proxima.Pose.from_translation((0, 0, 5)))
    pair.set_shape_a(proxima.sphere(radius=1))
    pair.set_shape_b(proxima.sphere(radius=1))
    pair.reset_warm_start()
    assert pair.distance().distance == pytest.approx(3.0, abs=1e-9)
    assert pair.pose_a.translation.tolist() == [0, 0, 5] and pair.pose_b.translation.tolist() == [0, 0, 0]


def test_lp_functions_against_numpy(rng):
    hits = 0
    for case in range(40):
        dim = 4
        pa = rng.normal(size=(6, dim))
        pb = rng.normal(size=(6, dim)) + rng.uniform(0, 3) * np.eye(dim)[0]
        r = proxima.lp_intersect(pa, pb)
        if r.intersect:
            hits += 1
            # the certificate: convex weights reproducing one common point
            assert np.all(r.weights_a >= -1e-12) and r.weights_a.sum() == pytest.approx(1)
            np.testing.assert_allclose(r.weights_a @ pa, r.weights_b @ pb, atol=1e-8, err_msg=f"case {case}")
        else:
            n, c = r.separating_normal, r.separating_offset
            assert np.max(pa @ n) <= c + 1e-9 and np.min(pb @ n) >= c - 1e-9, f"case {case}"
        d1 = proxima.lp_distance(pa, pb, "l1")
        dinf = proxima.lp_distance(pa, pb, norm="linf")
        assert dinf.distance <= d1.distance + 1e-9
        assert (d1.distance == pytest.approx(0, abs=1e-9)) == r.intersect
        # upper bound: the best vertex pair
        assert d1.distance <= np.abs(pa[:, None, :] - pb[None, :, :]).sum(axis=2).min() + 1e-9
    assert 2 < hits < 38
    inner = 0.1 * rng.normal(size=(5, 3))
    outer = np.vstack([np.eye(3), -np.eye(3)])
    assert proxima.lp_contains(inner, outer).contains
    # point_inside against the closed form of the octahedron conv(+-e_i): |p|_1 <= 1
    inside = outside = 0
    for p in rng.uniform(-1, 1, size=(60, 3)):
        r = proxima.lp_point_inside(p, outer)
        if np.abs(p).sum() < 1 - 1e-9:
            inside += 1
            assert r.intersect
            np.testing.assert_allclose(r.weights_b @ outer, p, atol=1e-9)
        elif np.abs(p).sum() > 1 + 1e-9:
            outside += 1
            assert not r.intersect
            # the normal points from the point (set A) towards conv(B)
            assert p @ r.separating_normal <= r.separating_offset + 1e-9
            assert np.min(outer @ r.separating_normal) >= r.separating_offset - 1e-9 and r.margin > 0
    assert inside >= 5 and outside >= 5
    far = inner + 5.0
    c = proxima.lp_contains(far, outer)
    assert not c.contains and c.outside_vertex >= 0


def test_module_metadata():
    assert proxima.hardware_threads() >= 1
    assert not hasattr(proxima, "NOT_YET_BOUND")  # every module is bound
    import importlib
    for name in ("ipm", "ccd", "mesh"):  # the submodules import like modules
        assert importlib.import_module("proxima." + name) is getattr(proxima, name)
    # docstrings on every function and method, top level and in the submodules
    # (pybind11 puts the signature on the first line of every __doc__: look past it)
    def documented(obj):
        doc = obj.__doc__ or ""
        return bool(doc.split("\n", 1)[-1].strip()) if "(" in doc.split("\n", 1)[0] else bool(doc.strip())

    namespaces = [proxima, proxima.ipm, proxima.ccd, proxima.mesh]
    checked = 0
    for ns in namespaces:
        for name in dir(ns):
            if name.startswith("_") or name in ("ipm", "ccd", "mesh"):
                continue
            obj = getattr(ns, name)
            if isinstance(obj, type):
                for attr, member in vars(obj).items():
                    if not attr.startswith("_") and callable(member):
                        assert documented(member), f"{ns.__name__}.{name}.{attr}"
                        checked += 1
            elif callable(obj):
                assert documented(obj), f"{ns.__name__}.{name}"
                checked += 1
    assert checked > 100
