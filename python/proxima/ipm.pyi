# SPDX-License-Identifier: MIT
# Type stubs of proxima.ipm (compiled; see python/src/ipm.cpp).
from typing import Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

from ._proxima import DistanceResult, Pose, Status, Detail, ToiResult

ArrayLike = npt.ArrayLike
Vec3 = npt.NDArray[np.float64]

PRESET_NAMES: Tuple[str, ...]

class IpmOptions:
    """Interior-point solver tunables; IpmOptions(max_iterations=50, ...) sets fields by name."""
    max_iterations: int
    gap_relative_tolerance: float
    gap_absolute_tolerance: float
    stationarity_relative_tolerance: float
    stationarity_absolute_tolerance: float
    fraction_to_boundary: float
    armijo: float
    merit_noise: float
    gap_rounding_floor: float
    max_backtracks: int
    initial_barrier: float
    regularization: float
    dual_safeguard: float
    curvature_floor: float
    warm_start_pullback: float
    warm_start_barrier_fraction: float
    polish: bool
    overlap_check_ratio: float
    predictor_corrector: bool
    fixed_centering: float
    unbounded_ratio: float
    def __init__(self, **kwargs: object) -> None: ...

class DistanceReport:
    result: DistanceResult
    complementarity: float
    kkt_residual: float
    warm_started: bool
    polished: bool
    support_certified: bool

class IntervalResult:
    min_distance: float
    min_time: float
    intersect: bool
    point_a: Vec3
    point_b: Vec3
    normal: Vec3
    complementarity: float
    kkt_residual: float
    iterations: int
    status: Status
    detail: Detail

class CollisionIntervals:
    collide: bool
    s_a_min: float
    s_a_max: float
    s_b_min: float
    s_b_max: float
    iterations: int
    status: Status
    detail: Detail

class _Primitive:
    def value(self, u: ArrayLike) -> float: ...
    def evaluate(self, u: ArrayLike, curvature_floor: float = ...) -> Dict[str, object]: ...

class Halfspace(_Primitive):
    def __init__(self, normal: ArrayLike, offset: float) -> None: ...
    @property
    def normal(self) -> Vec3: ...
    @property
    def offset(self) -> float: ...

class Quadric(_Primitive):
    def __init__(self, q: ArrayLike, b: ArrayLike, c: float) -> None: ...
    @staticmethod
    def ellipsoid(semiaxes: ArrayLike) -> Quadric: ...
    @property
    def q(self) -> npt.NDArray[np.float64]: ...
    @property
    def b(self) -> Vec3: ...
    @property
    def c(self) -> float: ...
    @property
    def bounded(self) -> bool: ...

class Superquadric(_Primitive):
    def __init__(self, semiaxes: ArrayLike, exponents: ArrayLike) -> None: ...
    @property
    def semiaxes(self) -> Vec3: ...
    @property
    def exponents(self) -> Vec3: ...

class Hyperquadric(_Primitive):
    def __init__(self, terms: Sequence[Tuple[ArrayLike, float]]) -> None: ...
    @property
    def terms(self) -> List[Tuple[npt.NDArray[np.float64], float]]: ...
    @property
    def bounded(self) -> bool: ...

Primitive = Union[Halfspace, Quadric, Superquadric, Hyperquadric]

class Part:
    def __init__(self, primitive: Primitive, pose: Optional[Pose] = None, *, linear: Optional[ArrayLike] = None,
                 translation: Optional[ArrayLike] = None) -> None: ...
    @property
    def primitive(self) -> Primitive: ...
    @property
    def linear(self) -> npt.NDArray[np.float64]: ...
    @property
    def translation(self) -> Vec3: ...
    def value(self, p: ArrayLike) -> float: ...

class Object:
    def __init__(self, parts: Union[Primitive, Part, Sequence[Union[Primitive, Part]]]) -> None: ...
    @property
    def parts(self) -> List[Part]: ...
    @property
    def interior_point(self) -> Vec3: ...
    @property
    def aabb(self) -> Tuple[Vec3, Vec3]: ...
    @property
    def bounding_sphere(self) -> Tuple[Vec3, float]: ...
    def contains(self, p: ArrayLike) -> bool: ...
    def deformed(self, linear: ArrayLike, translation: ArrayLike = ...) -> Object: ...

def diamond() -> Object: ...
def soda_can() -> Object: ...
def rounded_cuboid() -> Object: ...
def mouse() -> Object: ...
def hexagonal_nut() -> Object: ...
def pyramid() -> Object: ...
def preset(name: str) -> Object: ...

def distance(a: Object, pose_a: Pose, b: Object, pose_b: Pose, options: Optional[IpmOptions] = None) -> DistanceResult: ...
def distance_report(a: Object, pose_a: Pose, b: Object, pose_b: Pose,
                    options: Optional[IpmOptions] = None) -> DistanceReport: ...

class DistanceSolver:
    def __init__(self, options: Optional[IpmOptions] = None) -> None: ...
    def distance(self, a: Object, pose_a: Pose, b: Object, pose_b: Pose) -> DistanceReport: ...
    def distance_warm(self, a: Object, pose_a: Pose, b: Object, pose_b: Pose) -> DistanceReport: ...
    @property
    def multipliers(self) -> List[float]: ...
    def clear_warm_start(self) -> None: ...
    @property
    def options(self) -> IpmOptions: ...

def interval_translate(a: Object, pose_a: Pose, velocity_a: ArrayLike, b: Object, pose_b: Pose, velocity_b: ArrayLike,
                       t_max: float, options: Optional[IpmOptions] = None) -> IntervalResult: ...
def toi_translate(a: Object, pose_a: Pose, velocity_a: ArrayLike, b: Object, pose_b: Pose, velocity_b: ArrayLike,
                  t_max: float, options: Optional[IpmOptions] = None) -> ToiResult: ...
def collision_intervals(a: Object, pose_a: Pose, direction_a: ArrayLike, length_a: float, b: Object, pose_b: Pose,
                        direction_b: ArrayLike, length_b: float,
                        options: Optional[IpmOptions] = None) -> CollisionIntervals: ...
