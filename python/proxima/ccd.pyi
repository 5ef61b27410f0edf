# SPDX-License-Identifier: MIT
# Type stubs of proxima.ccd (compiled; see python/src/ccd.cpp).
from enum import IntEnum
from typing import List, Optional

import numpy as np
import numpy.typing as npt

from ._proxima import Detail, GjkOptions, Pose, Shape, Status, ToiResult
from .mesh import Mesh

ArrayLike = npt.ArrayLike
Vec3 = npt.NDArray[np.float64]

COLLISION_DTYPE: np.dtype

class Screw:
    axis_point: Vec3
    axis: Vec3
    angle: float
    glide: float
    def __init__(self, axis_point: ArrayLike = ..., axis: ArrayLike = ..., angle: float = 0.0,
                 glide: float = 0.0) -> None: ...
    @property
    def is_translation(self) -> bool: ...
    def apply(self, x: ArrayLike, s: float) -> Vec3: ...
    def rotate(self, d: ArrayLike, s: float) -> Vec3: ...
    def velocity(self, x: ArrayLike, s: float) -> Vec3: ...
    def axis_distance(self, x: ArrayLike) -> float: ...
    def speed(self, axis_distance: float) -> float: ...
    def inverse(self) -> Screw: ...
    def pose(self, s: float) -> Pose: ...

def decompose(omega: Pose, pi_margin: float = ...) -> Screw: ...
def relative_motion(a_start: Pose, a_end: Pose, b_start: Pose, b_end: Pose) -> Pose: ...
def interpolate(start: Pose, end: Pose, s: float) -> Pose: ...
def glide_error_estimate(theta: float) -> float: ...

class ScreenPoint:
    r: float
    h: float
    t: float
    phi: float

class CollisionScreen:
    def project(self, x: ArrayLike, doppel: bool = False) -> ScreenPoint: ...
    def needs_doppel(self, x: ArrayLike) -> bool: ...

def make_collision_screen(screw: Screw, facing: ArrayLike) -> CollisionScreen: ...

class CollisionType(IntEnum):
    vf = 0
    fv = 1
    ee = 2

class ScrewMethod(IntEnum):
    exact = 0
    raster = 1

class ScrewOptions:
    method: ScrewMethod
    first_contact_only: bool
    properness_threshold: float
    time_tolerance: float
    max_root_iterations: int
    max_intervals: int
    feature_tolerance: float
    parallel_tolerance: float
    max_time_slabs: int
    slab_sweep_fraction: float
    pixel_size: float
    time_resolution: float
    max_pixel_records: int
    max_subdivision: int
    def __init__(self, **kwargs: object) -> None: ...

class Collision:
    @property
    def type(self) -> str: ...
    vertex: int
    face: int
    edge_a: int
    edge_b: int
    time: float
    point: Vec3
    normal: Vec3
    properness: float

class ScrewResult:
    contact: bool
    toi: float
    point: Vec3
    normal: Vec3
    collisions: List[Collision]
    @property
    def collisions_array(self) -> np.ndarray: ...
    screw: Screw
    candidate_pairs: int
    iterations: int
    status: Status
    detail: Detail

def screw_collisions(a: Mesh, a_start: Pose, a_end: Pose, b: Mesh, b_start: Pose, b_end: Pose,
                     options: Optional[ScrewOptions] = None) -> ScrewResult: ...
def release_thread_storage() -> None: ...

class ToiOptions:
    distance_tolerance: float
    max_iterations: int
    gjk: GjkOptions
    def __init__(self, distance_tolerance: float = ..., max_iterations: int = ..., gjk: GjkOptions = ...) -> None: ...

def toi_translate(a: Shape, pose_a: Pose, velocity_a: ArrayLike, b: Shape, pose_b: Pose, velocity_b: ArrayLike,
                  t_max: float, options: Optional[ToiOptions] = None) -> ToiResult: ...
def toi_screw(a: Shape, a_start: Pose, a_end: Pose, b: Shape, b_start: Pose, b_end: Pose,
              options: Optional[ToiOptions] = None) -> ToiResult: ...
