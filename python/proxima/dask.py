# SPDX-License-Identifier: MIT
"""Batches past one machine: split a batch into chunks and map them over a dask.distributed cluster.

Usage::

    from dask.distributed import Client
    import proxima, proxima.dask

    client = Client("tcp://scheduler:8786")     # a real cluster (dask-scheduler / dask-worker)
    out = proxima.dask.batch_distance(client, a, pose_a, b, pose_b, chunk_size=200_000)

Each chunk runs :func:`proxima.batch_distance` (or intersect, penetration, toi_translate,
toi_screw) on a worker, with that worker's cores; the results come back in input order and are concatenated, so ``out`` equals the
local ``proxima.batch_distance(a, pose_a, b, pose_b)`` element for element (each element depends
only on its own inputs). Shapes and poses are pickled to the workers (a Shape pickles as its
factory call). Arguments of length 1 (a single Shape, a single Pose or pose row) are broadcast and
sent with every chunk; so are scalars (``t_max``) and single velocities (a length-3 vector).
"""
from __future__ import annotations

from typing import Any, Dict, List, Sequence, Union

import numpy as np

from . import _proxima

__all__ = ["batch_intersect", "batch_distance", "batch_penetration", "batch_toi_translate", "batch_toi_screw",
           "map_batch"]

_KINDS = {
    "intersect": _proxima.batch_intersect,
    "distance": _proxima.batch_distance,
    "penetration": _proxima.batch_penetration,
    "toi_translate": _proxima.batch_toi_translate,
    "toi_screw": _proxima.batch_toi_screw,
}

# The positional arguments of each kind's local batch function, in order (names for error messages).
_ARGUMENTS = {
    "intersect": ("a", "pose_a", "b", "pose_b"),
    "distance": ("a", "pose_a", "b", "pose_b"),
    "penetration": ("a", "pose_a", "b", "pose_b"),
    "toi_translate": ("a", "pose_a", "velocity_a", "b", "pose_b", "velocity_b", "t_max"),
    "toi_screw": ("a", "a_start", "a_end", "b", "b_start", "b_end"),
}


def _length(value: Any, name: str) -> int:
    """Batch length of one argument: 1 for a broadcast value, N for an array or sequence."""
    if isinstance(value, (_proxima.Shape, _proxima.Pose, int, float)):
        return 1
    if isinstance(value, np.ndarray):
        if value.ndim in (1,) or (value.ndim == 2 and value.shape == (4, 4)):
            return 1
        return int(value.shape[0])
    if isinstance(value, (list, tuple)):
        return len(value)
    raise TypeError(f"{name}: expected a Shape, a Pose, a sequence or a numpy array, got {type(value).__name__}")


def _slice(value: Any, length: int, start: int, stop: int) -> Any:
    if length == 1:
        return value
    return value[start:stop]


def _run_chunk(kind: str, args: List[Any], kwargs: Dict[str, Any]) -> Dict[str, np.ndarray]:
    """Runs on a worker: one local batch."""
    return _KINDS[kind](*args, **kwargs)


def map_batch(client: Any, kind: str, *args: Any, chunk_size: int = 100_000, **kwargs: Any) -> Dict[str, np.ndarray]:
    """Splits a batch of `kind` ('intersect', 'distance', 'penetration', 'toi_translate',
    'toi_screw') into chunks of at most `chunk_size` elements, submits one task per chunk to
    `client` (a dask.distributed Client), gathers the results in input order and concatenates
    them. `args` are the local batch function's positional arguments (a, pose_a, b, pose_b for
    the first three; a, pose_a, velocity_a, b, pose_b, velocity_b, t_max for toi_translate; a,
    a_start, a_end, b, b_start, b_end for toi_screw), each either one value (broadcast) or one
    entry per element. `kwargs` go to the local batch function (threads, bad_poses,
    scalar_first, options). Errors of a chunk are raised here (ValueError naming the argument;
    element indices are those within the chunk)."""
    if kind not in _KINDS:
        raise ValueError(f"kind: must be one of {sorted(_KINDS)}, got {kind!r}")
    if not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"chunk_size: must be a positive integer, got {chunk_size!r}")
    names = _ARGUMENTS[kind]
    if len(args) != len(names):
        raise TypeError(f"{kind}: expected {len(names)} arguments ({', '.join(names)}), got {len(args)}")
    lengths = [_length(value, name) for name, value in zip(names, args)]
    n = max(lengths)
    for name, length in zip(names, lengths):
        if length not in (1, n):
            raise ValueError(f"{name}: has {length} entries, expected 1 (broadcast) or {n} (the batch size)")
    futures: List[Any] = []
    for start in range(0, n, chunk_size):
        stop = min(n, start + chunk_size)
        part = [_slice(value, length, start, stop) for value, length in zip(args, lengths)]
        futures.append(client.submit(_run_chunk, kind, part, kwargs, pure=False))
    parts = client.gather(futures)
    return {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}


def batch_intersect(client: Any, a: Any, pose_a: Any, b: Any, pose_b: Any, **kwargs: Any) -> Dict[str, np.ndarray]:
    """proxima.batch_intersect over a Dask cluster (see map_batch)."""
    return map_batch(client, "intersect", a, pose_a, b, pose_b, **kwargs)


def batch_distance(client: Any, a: Any, pose_a: Any, b: Any, pose_b: Any, **kwargs: Any) -> Dict[str, np.ndarray]:
    """proxima.batch_distance over a Dask cluster (see map_batch)."""
    return map_batch(client, "distance", a, pose_a, b, pose_b, **kwargs)


def batch_penetration(client: Any, a: Any, pose_a: Any, b: Any, pose_b: Any, **kwargs: Any) -> Dict[str, np.ndarray]:
    """proxima.batch_penetration over a Dask cluster (see map_batch)."""
    return map_batch(client, "penetration", a, pose_a, b, pose_b, **kwargs)


def batch_toi_translate(client: Any, a: Any, pose_a: Any, velocity_a: Any, b: Any, pose_b: Any, velocity_b: Any,
                        t_max: float, **kwargs: Any) -> Dict[str, np.ndarray]:
    """proxima.batch_toi_translate over a Dask cluster (see map_batch)."""
    return map_batch(client, "toi_translate", a, pose_a, velocity_a, b, pose_b, velocity_b, t_max, **kwargs)


def batch_toi_screw(client: Any, a: Any, a_start: Any, a_end: Any, b: Any, b_start: Any, b_end: Any,
                    **kwargs: Any) -> Dict[str, np.ndarray]:
    """proxima.batch_toi_screw over a Dask cluster (see map_batch)."""
    return map_batch(client, "toi_screw", a, a_start, a_end, b, b_start, b_end, **kwargs)
