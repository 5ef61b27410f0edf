# SPDX-License-Identifier: MIT
from ._proxima import *  # noqa: F401,F403
from ._proxima import (  # noqa: F401
    Detail, DistanceResult, EpaOptions, GjkOptions, IntersectResult, InvalidInput, LpContainsResult,
    LpDistanceResult, LpIntersectResult, Pair, PenetrationResult, Pose, Shape, Status, affine, batch_distance,
    batch_intersect, batch_penetration, box, capsule, cone, cylinder, distance, ellipsoid, hardware_threads, hull,
    intersect, lp_contains, lp_distance, lp_intersect, minkowski, penetration, point, polytope, rounded, segment,
    sphere, superquadric, triangle, ToiResult, WarmStart, batch_toi_translate, batch_toi_screw,
    batch_screw_first_contact, lp_point_inside,
)
from . import ccd as ccd, ipm as ipm, mesh as mesh
