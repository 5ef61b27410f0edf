# SPDX-License-Identifier: MIT
# Type stubs of the compiled extension proxima._proxima (kept by hand; see python/src/*.cpp).
# The submodules ipm, ccd and mesh have their own stubs (ipm.pyi, ccd.pyi, mesh.pyi).
from enum import IntEnum
from typing import Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

from . import ccd as ccd
from . import ipm as ipm
from . import mesh as mesh

ArrayLike = npt.ArrayLike
Vec3 = npt.NDArray[np.float64]

class InvalidInput(ValueError):
    """Bad input refused by proxima; the message names the field and the value."""

class Status(IntEnum):
    converged = 0
    iteration_limit = 1
    degenerate_input = 2
    capacity_exceeded = 3

class Detail(IntEnum):
    none = 0
    duality_gap = 1
    repeated_support = 2
    no_progress = 3
    origin_enclosed = 4
    separating_axis = 5
    touching = 6
    non_finite = 7
    degenerate_simplex = 8
    face_capacity = 9
    scale_out_of_range = 10

class Pose:
    """A rigid placement world = R @ local + t; quaternions are (w, x, y, z) unless scalar_first=False."""
    def __init__(self, translation: ArrayLike = ..., quaternion: ArrayLike = ..., *, scalar_first: bool = True) -> None: ...
    @staticmethod
    def from_quaternion(quaternion: ArrayLike, translation: ArrayLike = ..., *, scalar_first: bool = True) -> Pose: ...
    @staticmethod
    def from_scipy(quaternion_xyzw: ArrayLike, translation: ArrayLike = ...) -> Pose: ...
    @staticmethod
    def from_euler_xyz(euler_xyz: ArrayLike, translation: ArrayLike = ...) -> Pose: ...
    @staticmethod
    def from_matrix(matrix: ArrayLike, translation: Optional[ArrayLike] = None) -> Pose: ...
    @staticmethod
    def from_translation(translation: ArrayLike) -> Pose: ...
    @property
    def translation(self) -> Vec3: ...
    @property
    def rotation(self) -> npt.NDArray[np.float64]: ...
    @property
    def quaternion(self) -> npt.NDArray[np.float64]: ...
    def as_matrix(self) -> npt.NDArray[np.float64]: ...
    def as_array(self) -> npt.NDArray[np.float64]: ...
    def apply(self, point: ArrayLike) -> Vec3: ...
    def rotate(self, direction: ArrayLike) -> Vec3: ...
    def inverse(self) -> Pose: ...
    def __mul__(self, other: Pose) -> Pose: ...

class Shape:
    """A convex shape (proxima::AnyConvex); build one with the factory functions."""
    @property
    def kind(self) -> str: ...
    def support(self, direction: ArrayLike) -> Vec3: ...
    @property
    def margin(self) -> float: ...
    @property
    def bounding_sphere(self) -> Tuple[Vec3, float]: ...
    @property
    def aabb(self) -> Tuple[Vec3, Vec3]: ...

def point(position: ArrayLike = ...) -> Shape: ...
def segment(a: ArrayLike, b: ArrayLike) -> Shape: ...
def triangle(a: ArrayLike, b: ArrayLike, c: ArrayLike) -> Shape: ...
def sphere(radius: float) -> Shape: ...
def box(half_extents: ArrayLike) -> Shape: ...
def capsule(radius: float, half_length: float) -> Shape: ...
def cylinder(radius: float, half_height: float) -> Shape: ...
def cone(radius: float, half_height: float) -> Shape: ...
def ellipsoid(semiaxes: ArrayLike) -> Shape: ...
def polytope(vertices: ArrayLike) -> Shape: ...
def superquadric(semiaxes: ArrayLike, exponents: ArrayLike) -> Shape: ...
def rounded(core: Shape, radius: float) -> Shape: ...
def affine(shape: Shape, matrix: ArrayLike, translation: ArrayLike = ...) -> Shape: ...
def minkowski(a: Shape, b: Shape) -> Shape: ...
def hull(of: Sequence[Shape]) -> Shape: ...

class GjkOptions:
    relative_tolerance: float
    absolute_tolerance: float
    max_iterations: int
    nesterov: bool
    closed_forms: bool
    ellipsoid_newton: bool
    box_box: bool
    revolution_polish: bool
    revolution_overlap: bool
    first_support_overlap: bool
    neighbour_support_overlap: bool
    support_edge_overlap: bool
    def __init__(self, relative_tolerance: float = ..., absolute_tolerance: float = ..., max_iterations: int = ...,
                 nesterov: bool = False, closed_forms: bool = True, ellipsoid_newton: bool = True,
                 box_box: bool = True, revolution_polish: bool = True,
                 revolution_overlap: bool = True, first_support_overlap: bool = True,
                 neighbour_support_overlap: bool = True, support_edge_overlap: bool = True) -> None: ...

class EpaOptions:
    relative_tolerance: float
    absolute_tolerance: float
    max_iterations: int
    gjk: GjkOptions
    def __init__(self, relative_tolerance: float = ..., absolute_tolerance: float = ..., max_iterations: int = ...,
                 gjk: GjkOptions = ...) -> None: ...

class DistanceResult:
    distance: float
    intersect: bool
    point_a: Vec3
    point_b: Vec3
    normal: Vec3
    gap: float
    iterations: int
    status: Status
    detail: Detail

class IntersectResult:
    intersect: bool
    separating_axis: Vec3
    iterations: int
    status: Status
    detail: Detail
    def __bool__(self) -> bool: ...

class PenetrationResult:
    intersect: bool
    depth: float
    normal: Vec3
    point_a: Vec3
    point_b: Vec3
    iterations: int
    status: Status
    detail: Detail

class ToiResult:
    contact: bool
    toi: float
    point: Vec3
    normal: Vec3
    iterations: int
    status: Status
    detail: Detail
    def __bool__(self) -> bool: ...

class WarmStart:
    """GJK warm-start state for one pair; pass it to successive distance() calls."""
    def __init__(self) -> None: ...
    @property
    def size(self) -> int: ...
    def reset(self) -> None: ...

def distance(a: Shape, pose_a: Pose, b: Shape, pose_b: Pose, options: Optional[GjkOptions] = None,
             warm: Optional[WarmStart] = None) -> DistanceResult: ...
def intersect(a: Shape, pose_a: Pose, b: Shape, pose_b: Pose, options: Optional[GjkOptions] = None) -> IntersectResult: ...
def penetration(a: Shape, pose_a: Pose, b: Shape, pose_b: Pose, options: Optional[EpaOptions] = None) -> PenetrationResult: ...

class Pair:
    """Two shapes with poses; caches answers and warm-starts GJK (gjk::Pair)."""
    def __init__(self, a: Shape, b: Shape, pose_a: Pose = ..., pose_b: Pose = ...) -> None: ...
    def collide(self) -> IntersectResult: ...
    def distance(self) -> DistanceResult: ...
    def penetration(self) -> PenetrationResult: ...
    def set_pose_a(self, pose: Pose) -> None: ...
    def set_pose_b(self, pose: Pose) -> None: ...
    def set_poses(self, pose_a: Pose, pose_b: Pose) -> None: ...
    def set_shape_a(self, shape: Shape) -> None: ...
    def set_shape_b(self, shape: Shape) -> None: ...
    def reset_warm_start(self) -> None: ...
    @property
    def pose_a(self) -> Pose: ...
    @property
    def pose_b(self) -> Pose: ...

class LpIntersectResult:
    intersect: bool
    common_point: npt.NDArray[np.float64]
    weights_a: npt.NDArray[np.float64]
    weights_b: npt.NDArray[np.float64]
    residual: float
    separating_normal: npt.NDArray[np.float64]
    separating_offset: float
    margin: float
    iterations: int
    converged: bool
    status: Status
    detail: Detail

class LpContainsResult:
    contains: bool
    outside_vertex: int
    separating_normal: npt.NDArray[np.float64]
    separating_offset: float
    margin: float
    points_checked: int
    iterations: int
    converged: bool
    status: Status
    detail: Detail

class LpDistanceResult:
    distance: float
    lower_bound: float
    point_a: npt.NDArray[np.float64]
    point_b: npt.NDArray[np.float64]
    weights_a: npt.NDArray[np.float64]
    weights_b: npt.NDArray[np.float64]
    dual_direction: npt.NDArray[np.float64]
    iterations: int
    converged: bool
    status: Status
    detail: Detail

def lp_intersect(points_a: ArrayLike, points_b: ArrayLike) -> LpIntersectResult: ...
def lp_contains(points_a: ArrayLike, points_b: ArrayLike) -> LpContainsResult: ...
def lp_distance(points_a: ArrayLike, points_b: ArrayLike, norm: str = "l1") -> LpDistanceResult: ...
def lp_point_inside(point: ArrayLike, points_b: ArrayLike) -> LpIntersectResult: ...

ShapesArg = Union[Shape, Sequence[Shape]]
PosesArg = Union[Pose, List[Pose], ArrayLike]

def batch_intersect(a: ShapesArg, pose_a: PosesArg, b: ShapesArg, pose_b: PosesArg, *, threads: int = 0,
                    bad_poses: str = "raise", scalar_first: bool = True,
                    options: Optional[GjkOptions] = None) -> Dict[str, np.ndarray]: ...
def batch_distance(a: ShapesArg, pose_a: PosesArg, b: ShapesArg, pose_b: PosesArg, *, threads: int = 0,
                   bad_poses: str = "raise", scalar_first: bool = True,
                   options: Optional[GjkOptions] = None) -> Dict[str, np.ndarray]: ...
def batch_penetration(a: ShapesArg, pose_a: PosesArg, b: ShapesArg, pose_b: PosesArg, *, threads: int = 0,
                      bad_poses: str = "raise", scalar_first: bool = True,
                      options: Optional[EpaOptions] = None) -> Dict[str, np.ndarray]: ...
def batch_toi_translate(a: ShapesArg, pose_a: PosesArg, velocity_a: ArrayLike, b: ShapesArg, pose_b: PosesArg,
                        velocity_b: ArrayLike, t_max: float, *, threads: int = 0, bad_poses: str = "raise",
                        scalar_first: bool = True, options: Optional[ccd.ToiOptions] = None) -> Dict[str, np.ndarray]: ...
def batch_toi_screw(a: ShapesArg, a_start: PosesArg, a_end: PosesArg, b: ShapesArg, b_start: PosesArg,
                    b_end: PosesArg, *, threads: int = 0, bad_poses: str = "raise", scalar_first: bool = True,
                    options: Optional[ccd.ToiOptions] = None) -> Dict[str, np.ndarray]: ...
def batch_screw_first_contact(a: Union[mesh.Mesh, Sequence[mesh.Mesh]], a_start: PosesArg, a_end: PosesArg,
                              b: Union[mesh.Mesh, Sequence[mesh.Mesh]], b_start: PosesArg, b_end: PosesArg, *,
                              threads: int = 0, bad_poses: str = "raise", scalar_first: bool = True,
                              options: Optional[ccd.ScrewOptions] = None) -> Dict[str, np.ndarray]: ...
def hardware_threads() -> int: ...
