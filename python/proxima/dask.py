# SPDX-License-Identifier: MIT
"""Batches past one machine: split a batch into chunks and map them over a dask.distributed cluster.

Usage::

    from dask.distributed import Client
    import proxima, proxima.dask

    client = Client("tcp://scheduler:8786")     # a real cluster (dask-scheduler / dask-worker)
    out = proxima.dask.batch_distance(client, a, pose_a, b, pose_b, chunk_size=200_000)

Each chunk runs :func:`proxima.batch_distance` (or intersect / penetration) on a worker, with that
worker's cores; the results come back in input order and are concatenated, so ``out`` equals the
local ``proxima.batch_distance(a, pose_a, b, pose_b)`` element for element (each element depends
only on its own inputs). Shapes and poses are pickled to the workers (a Shape pickles as its
factory call). Arguments of length 1 (a single Shape, a single Pose or pose row) are broadcast and
sent with every chunk.
"""
from __future__ import annotations

from typing import Any, Dict, List, Sequence, Union

import numpy as np

from . import _proxima

__all__ = ["batch_intersect", "batch_distance", "batch_penetration", "map_batch"]

_KINDS = {
    "intersect": _proxima.batch_intersect,
    "distance": _proxima.batch_distance,
    "penetration": _proxima.batch_penetration,
}


def _length(value: Any, name: str) -> int:
    """Batch length of one argument: 1 for a broadcast value, N for an array or sequence."""
    if isinstance(value, (_proxima.Shape, _proxima.Pose)):
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


def _run_chunk(kind: str, a: Any, pose_a: Any, b: Any, pose_b: Any, kwargs: Dict[str, Any]) -> Dict[str, np.ndarray]:
    """Runs on a worker: one local batch."""
    return _KINDS[kind](a, pose_a, b, pose_b, **kwargs)


def map_batch(
    client: Any,
    kind: str,
    a: Union[_proxima.Shape, Sequence[_proxima.Shape]],
    pose_a: Any,
    b: Union[_proxima.Shape, Sequence[_proxima.Shape]],
    pose_b: Any,
    *,
    chunk_size: int = 100_000,
    **kwargs: Any,
) -> Dict[str, np.ndarray]:
    """Splits a batch of `kind` ('intersect', 'distance', 'penetration') into chunks of at most
    `chunk_size` elements, submits one task per chunk to `client` (a dask.distributed Client),
    gathers the results in input order and concatenates them. `kwargs` go to the local batch
    function (threads, bad_poses, scalar_first, options). Errors of a chunk are raised here
    (ValueError naming the argument; element indices are those within the chunk)."""
    if kind not in _KINDS:
        raise ValueError(f"kind: must be one of {sorted(_KINDS)}, got {kind!r}")
    if not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"chunk_size: must be a positive integer, got {chunk_size!r}")
    args = {"a": a, "pose_a": pose_a, "b": b, "pose_b": pose_b}
    lengths = {name: _length(value, name) for name, value in args.items()}
    n = max(lengths.values())
    for name, length in lengths.items():
        if length not in (1, n):
            raise ValueError(f"{name}: has {length} entries, expected 1 (broadcast) or {n} (the batch size)")
    futures: List[Any] = []
    for start in range(0, n, chunk_size):
        stop = min(n, start + chunk_size)
        part = {name: _slice(value, lengths[name], start, stop) for name, value in args.items()}
        futures.append(
            client.submit(_run_chunk, kind, part["a"], part["pose_a"], part["b"], part["pose_b"], kwargs, pure=False)
        )
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
