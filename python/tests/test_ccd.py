# SPDX-License-Identifier: MIT
"""proxima.mesh and proxima.ccd: meshes from lists and files, generators, screw motions against
numpy matrix algebra, screw_collisions on the sliding-cubes closed form (records and structured
array), and convex time of impact against closed forms and against the exact mesh answer."""
import struct

import numpy as np
import pytest

import proxima
from proxima import ccd, mesh
from conftest import SEED

CUBE_VERTICES = np.array([[x, y, z] for z in (-1, 1) for y in (-1, 1) for x in (-1, 1)], dtype=float)
# faces counter-clockwise seen from outside
CUBE_FACES = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]]


def at(*t):
    return proxima.Pose.from_translation(np.array(t, dtype=float))


def axis_angle(axis, angle):
    axis = np.asarray(axis, dtype=float) / np.linalg.norm(axis)
    return np.concatenate([[np.cos(angle / 2)], np.sin(angle / 2) * axis])


def test_mesh_from_lists_files_and_generators(tmp_path):
    m = mesh.Mesh(CUBE_VERTICES, CUBE_FACES)
    assert (m.num_vertices, m.num_faces, m.num_edges) == (8, 6, 12)
    assert m.closed and m.volume == pytest.approx(8.0) and m.extent == pytest.approx(2.0)
    np.testing.assert_array_equal(m.vertices, CUBE_VERTICES)
    assert m.faces == CUBE_FACES
    # face normals point outward: the centroid of each face along its normal
    for f, face in enumerate(m.faces):
        centroid = CUBE_VERTICES[face].mean(axis=0)
        np.testing.assert_allclose(m.face_normals[f], centroid, atol=1e-12)
        assert m.face_offsets[f] == pytest.approx(1.0)
    assert m.edges.shape == (12, 2) and m.edge_faces.min() >= 0
    assert len(m.vertex_edges(0)) == 3 and len(m.vertex_faces(0)) == 3
    tris = m.triangulate()
    assert tris.shape == (12, 3)
    # triangles keep the orientation: signed volume by the divergence theorem
    v = CUBE_VERTICES[tris]
    assert np.einsum("ij,ij->i", v[:, 0], np.cross(v[:, 1], v[:, 2])).sum() / 6 == pytest.approx(8.0)
    assert "faces=6" in repr(m)

    # the same cube from OBJ, OFF and binary STL files
    obj = tmp_path / "cube.obj"
    obj.write_text("".join(f"v {x} {y} {z}\n" for x, y, z in CUBE_VERTICES) +
                   "".join("f " + " ".join(str(i + 1) for i in f) + "\n" for f in CUBE_FACES))
    off = tmp_path / "cube.off"
    off.write_text(f"OFF\n8 6 12\n" + "".join(f"{x} {y} {z}\n" for x, y, z in CUBE_VERTICES) +
                   "".join(f"{len(f)} " + " ".join(map(str, f)) + "\n" for f in CUBE_FACES))
    stl = tmp_path / "cube.stl"
    data = b"\0" * 80 + struct.pack("<I", len(tris))
    for t in tris:
        data += struct.pack("<3f", 0, 0, 0) + b"".join(struct.pack("<3f", *CUBE_VERTICES[i]) for i in t) + b"\0\0"
    stl.write_bytes(data)
    for path in (obj, off, stl):
        loaded = mesh.load(str(path))
        assert loaded.volume == pytest.approx(8.0), path.name
        assert mesh.Mesh.load(str(path)).num_vertices == 8, path.name
    vertices, faces = mesh.parse_obj(obj.read_text())
    np.testing.assert_array_equal(vertices, CUBE_VERTICES)
    assert faces == CUBE_FACES
    assert mesh.parse_off(off.read_text())[1] == CUBE_FACES
    assert len(mesh.parse_stl(data)[1]) == 12

    # generators
    car = mesh.car()
    assert (car.num_vertices, car.num_edges, car.num_faces) == (16, 26, 12)
    assert mesh.torus().num_faces == 300
    lp = mesh.l_prism(size=1.0, half_thickness=0.5)
    assert (lp.num_vertices, lp.num_faces, lp.num_edges) == (12, 8, 18)
    assert lp.volume == pytest.approx(3.0)  # L area 3, thickness 1
    r = 0.8
    edge = r * np.sqrt(8 / 3)
    assert mesh.tetrahedron(circumradius=r).volume == pytest.approx(edge ** 3 / (6 * np.sqrt(2)))
    assert mesh.box(half_extents=(1, 2, 3)).volume == pytest.approx(48.0)
    import pickle
    assert pickle.loads(pickle.dumps(car)).faces == car.faces


def test_mesh_bad_input_raises(tmp_path):
    with pytest.raises(ValueError, match="closed"):
        mesh.Mesh(CUBE_VERTICES, CUBE_FACES[:-1])
    assert not mesh.Mesh(CUBE_VERTICES, CUBE_FACES[:-1], allow_open=True).closed
    with pytest.raises(ValueError, match=r"faces\[0\]"):
        mesh.Mesh(CUBE_VERTICES, [[0, 2, 99, 1]] + CUBE_FACES[1:])
    bad = CUBE_VERTICES.copy()
    bad[3, 1] = np.nan
    with pytest.raises(ValueError, match=r"vertices\[3\]"):
        mesh.Mesh(bad, CUBE_FACES)
    with pytest.raises(ValueError, match="file"):
        mesh.load(str(tmp_path / "missing.obj"))
    with pytest.raises(ValueError):
        mesh.torus(major_radius=1, minor_radius=2)
    with pytest.raises(TypeError):
        mesh.Mesh("cube", CUBE_FACES)


def test_screw_motions_against_matrix_algebra(rng):
    for case in range(10):
        q, t = axis_angle(rng.normal(size=3), rng.uniform(0.1, 2.5)), rng.normal(size=3)
        omega = proxima.Pose(t, q)
        s = ccd.decompose(omega)
        msg = f"seed {SEED} case {case}"
        assert s.angle == pytest.approx(2 * np.arccos(abs(q[0])), rel=1e-9), msg
        np.testing.assert_allclose(s.pose(1.0).as_matrix(), omega.as_matrix(), atol=1e-12, err_msg=msg)
        np.testing.assert_allclose(s.pose(0.0).as_matrix(), np.eye(4), atol=1e-15, err_msg=msg)
        x = rng.normal(size=3)
        np.testing.assert_allclose(s.apply(x, 0.5), s.pose(0.5).apply(x), atol=1e-12)
        np.testing.assert_allclose(s.inverse().apply(s.apply(x, 0.7), 0.7), x, atol=1e-12)
        # the speed of a point is constant along the helix
        np.testing.assert_allclose(np.linalg.norm(s.velocity(x, 0.3)), s.speed(s.axis_distance(x)), rtol=1e-12)
        # relative motion M_f^-1 N_f N_i^-1 M_i, by 4x4 matrices
        poses = [proxima.Pose(rng.normal(size=3), rng.normal(size=4)) for _ in range(4)]
        m = [p.as_matrix() for p in poses]
        expected = np.linalg.inv(m[1]) @ m[3] @ np.linalg.inv(m[2]) @ m[0]
        np.testing.assert_allclose(ccd.relative_motion(*poses).as_matrix(), expected, atol=1e-12)
        np.testing.assert_allclose(ccd.interpolate(poses[0], omega * poses[0], 1.0).as_matrix(),
                                   (omega * poses[0]).as_matrix(), atol=1e-12)
    theta = 0.8
    assert ccd.glide_error_estimate(theta) == pytest.approx((1 - np.cos(theta / 2)) / theta)
    assert ccd.Screw(axis=(0, 0, 2), angle=0.5).axis.tolist() == [0, 0, 1]
    screen = ccd.make_collision_screen(ccd.decompose(proxima.Pose((0, 0, 1), axis_angle((0, 0, 1), 0.5))), (1, 0, 0))
    p = screen.project((1.0, 0.2, 0.3))
    assert np.isfinite(p.r) and np.isfinite(p.t)
    with pytest.raises(ValueError, match="rotation"):
        ccd.decompose(proxima.Pose((0, 0, 0), axis_angle((0, 0, 1), np.pi)))


def test_screw_collisions_sliding_cubes_closed_form():
    """B (a unit cube) slides along -x towards A (a unit cube): first contact when the gap closes."""
    a = mesh.Mesh(CUBE_VERTICES, CUBE_FACES)
    b = mesh.box(half_extents=(1, 1, 1))
    start, end = at(5, 0.3, 0.2), at(1, 0.3, 0.2)  # gap 3 closes after 3/4 of the step
    r = ccd.screw_collisions(a, proxima.Pose(), proxima.Pose(), b, start, end)
    assert r.contact and r.toi == pytest.approx(0.75, abs=1e-9)
    assert r.normal[0] == pytest.approx(1.0, abs=1e-9)
    assert r.screw.is_translation and r.screw.glide == pytest.approx(4.0)
    assert len(r.collisions) >= 4
    times = [c.time for c in r.collisions]
    assert times == sorted(times) and times[0] == pytest.approx(0.75, abs=1e-9)
    arr = r.collisions_array
    assert arr.dtype == ccd.COLLISION_DTYPE and arr.shape == (len(r.collisions),)
    for rec, c in zip(arr, r.collisions):
        assert rec["type"].decode() == c.type and c.type in ("VF", "FV", "EE")
        assert (rec["vertex"], rec["face"], rec["edge_a"], rec["edge_b"]) == (c.vertex, c.face, c.edge_a, c.edge_b)
        assert rec["time"] == c.time and rec["properness"] == c.properness
        np.testing.assert_array_equal(rec["point"], c.point)
        np.testing.assert_array_equal(rec["normal"], c.normal)
    # every first-contact point lies on A's face x = 1 within the overlap of the two faces
    first = arr[np.abs(arr["time"] - 0.75) < 1e-9]
    np.testing.assert_allclose(first["point"][:, 0], 1.0, atol=1e-9)
    assert np.all(np.abs(first["point"][:, 1:]) <= 1 + 1e-9)
    only_first = ccd.screw_collisions(a, proxima.Pose(), proxima.Pose(), b, start, end,
                                      ccd.ScrewOptions(first_contact_only=True))
    assert only_first.toi == r.toi and len(only_first.collisions) <= len(r.collisions)
    miss = ccd.screw_collisions(a, proxima.Pose(), proxima.Pose(), b, at(5, 3, 0), at(1, 3, 0))
    assert not miss.contact and np.isnan(miss.toi) and len(miss.collisions_array) == 0
    raster = ccd.screw_collisions(a, proxima.Pose(), proxima.Pose(), b, start, end,
                                  ccd.ScrewOptions(method=ccd.ScrewMethod.raster))
    assert raster.contact and raster.toi == pytest.approx(r.toi, abs=1e-9)
    # freeing the thread's working storage changes no answer
    ccd.release_thread_storage()
    again = ccd.screw_collisions(a, proxima.Pose(), proxima.Pose(), b, start, end)
    assert [(c.type, c.time) for c in again.collisions] == [(c.type, c.time) for c in r.collisions]
    with pytest.raises(ValueError, match="pixel_size"):
        ccd.screw_collisions(a, proxima.Pose(), proxima.Pose(), b, start, end,
                             ccd.ScrewOptions(method=ccd.ScrewMethod.raster, pixel_size=0.0))
    with pytest.raises(TypeError, match="first_contact"):
        ccd.ScrewOptions(first_contact=True)


def test_convex_toi_closed_form_and_against_exact_meshes(rng):
    # spheres: toi = (d - ra - rb) / v
    r = ccd.toi_translate(proxima.sphere(0.5), proxima.Pose(), (0, 0, 0), proxima.sphere(0.3), at(3, 0, 0),
                          (-2, 0, 0), 2.0)
    assert r.contact and r.toi == pytest.approx((3 - 0.8) / 2, abs=1e-7) and r.toi <= (3 - 0.8) / 2 + 1e-12
    assert r.normal[0] == pytest.approx(1.0)
    assert not ccd.toi_translate(proxima.sphere(0.5), proxima.Pose(), (0, 0, 0), proxima.sphere(0.3), at(3, 0, 0),
                                 (2, 0, 0), 2.0).contact
    # toi_screw on a cube polytope equals the exact mesh answer on the same motion
    cube_mesh = mesh.box(half_extents=(0.5, 0.4, 0.3))
    tet_mesh = mesh.tetrahedron(0.8)
    cube, tet = proxima.polytope(cube_mesh.vertices), proxima.polytope(tet_mesh.vertices)
    hits = 0
    for case in range(12):
        a_start = proxima.Pose((0, 0, 0), rng.normal(size=4))
        direction = rng.normal(size=3)
        direction /= np.linalg.norm(direction)
        side = 0.6 * rng.normal(size=3)
        side -= side @ direction * direction
        q = rng.normal(size=4)
        b_start = proxima.Pose(2.2 * direction + side, q)
        b_end = proxima.Pose(-2.0 * direction + side, q)
        convex = ccd.toi_screw(cube, a_start, a_start, tet, b_start, b_end)
        exact = ccd.screw_collisions(cube_mesh, a_start, a_start, tet_mesh, b_start, b_end)
        msg = f"seed {SEED} case {case}"
        assert convex.contact == exact.contact, msg
        if exact.contact:
            hits += 1
            assert convex.toi == pytest.approx(exact.toi, abs=1e-6), msg
    assert 3 <= hits <= 11
    with pytest.raises(ValueError, match="t_max"):
        ccd.toi_translate(cube, proxima.Pose(), (0, 0, 0), tet, proxima.Pose(), (0, 0, 0), -1.0)
    with pytest.raises(ValueError, match="distance_tolerance"):
        ccd.toi_translate(cube, proxima.Pose(), (0, 0, 0), tet, proxima.Pose(), (0, 0, 0), 1.0,
                          ccd.ToiOptions(distance_tolerance=-1))
