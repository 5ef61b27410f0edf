# SPDX-License-Identifier: MIT
"""Shared fixtures: seeded generators and random poses."""
import numpy as np
import pytest

SEED = 20261122


@pytest.fixture
def rng():
    return np.random.default_rng(SEED)


def random_rows(rng, n, spread):
    """(n, 7) rows [tx, ty, tz, qw, qx, qy, qz], translations in [-spread, spread]^3."""
    t = rng.uniform(-spread, spread, size=(n, 3))
    q = rng.normal(size=(n, 4))
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    return np.ascontiguousarray(np.hstack([t, q]))
