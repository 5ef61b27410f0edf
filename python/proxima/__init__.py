# SPDX-License-Identifier: MIT
"""proxima: proximity queries and collision detection between convex shapes.

Shapes are built with factory functions whose keyword arguments are the scene format's field
names (``proxima.box(half_extents=(1, 1, 1))``); poses with :class:`Pose` (quaternions are
(w, x, y, z) unless ``scalar_first=False`` is passed); queries return small result classes with
the C++ field names. The ``batch_*`` functions take and return numpy arrays and run on all cores
with the GIL released. :mod:`proxima.dask` spreads a batch over a dask.distributed cluster.

Submodules: :mod:`proxima.ipm` (implicit objects, interior-point distance and continuous
queries), :mod:`proxima.ccd` (screw motions, every collision of two meshes, convex time of
impact), :mod:`proxima.mesh` (polyhedral meshes, OBJ/OFF/STL, generators).

Bad input raises :class:`InvalidInput` (a ``ValueError``) with the C++ message naming the field;
arguments of the wrong type raise ``TypeError``.
"""
import sys

from . import _proxima
from ._proxima import (  # noqa: F401
    Detail,
    DistanceResult,
    EpaOptions,
    GjkOptions,
    IntersectResult,
    InvalidInput,
    LpContainsResult,
    LpDistanceResult,
    LpIntersectResult,
    Pair,
    PenetrationResult,
    Pose,
    Shape,
    Status,
    ToiResult,
    WarmStart,
    affine,
    batch_distance,
    batch_intersect,
    batch_penetration,
    batch_screw_first_contact,
    batch_toi_screw,
    batch_toi_translate,
    box,
    ccd,
    capsule,
    cone,
    cylinder,
    distance,
    ellipsoid,
    hardware_threads,
    hull,
    intersect,
    ipm,
    lp_contains,
    lp_distance,
    lp_intersect,
    lp_point_inside,
    mesh,
    minkowski,
    penetration,
    point,
    polytope,
    rounded,
    segment,
    sphere,
    superquadric,
    triangle,
)



def _rebuild_shape(factory, args):
    """Unpickles a Shape: calls the factory it was built with (see Shape.__reduce__)."""
    return getattr(_proxima, factory)(*args)


# `import proxima.ipm` (and ccd, mesh) work like the attribute access; the second name is the
# one pickle looks up for the submodules' classes (their __module__).
for _name, _module in (("ipm", ipm), ("ccd", ccd), ("mesh", mesh)):
    sys.modules[__name__ + "." + _name] = _module
    sys.modules[_module.__name__] = _module
del _name, _module

__all__ = [name for name in dir() if not name.startswith("_") and name != "sys"]
