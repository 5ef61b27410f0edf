# SPDX-License-Identifier: MIT
"""proxima: proximity queries and collision detection between convex shapes.

Shapes are built with factory functions whose keyword arguments are the scene format's field
names (``proxima.box(half_extents=(1, 1, 1))``); poses with :class:`Pose` (quaternions are
(w, x, y, z) unless ``scalar_first=False`` is passed); queries return small result classes with
the C++ field names. The ``batch_*`` functions take and return numpy arrays and run on all cores
with the GIL released. :mod:`proxima.dask` spreads a batch over a dask.distributed cluster.

Bad input raises :class:`InvalidInput` (a ``ValueError``) with the C++ message naming the field;
arguments of the wrong type raise ``TypeError``.
"""
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
    affine,
    batch_distance,
    batch_intersect,
    batch_penetration,
    box,
    capsule,
    cone,
    cylinder,
    distance,
    ellipsoid,
    hardware_threads,
    hull,
    intersect,
    lp_contains,
    lp_distance,
    lp_intersect,
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


#: Modules whose C++ API was not yet committed when the bindings were written (not bound).
NOT_YET_BOUND = ("ipm", "ccd")

__all__ = [name for name in dir() if not name.startswith("_")]
