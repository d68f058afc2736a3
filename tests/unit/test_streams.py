"""The compiled Generator(PCG64(seed)) streams draw exactly what numpy draws, in any mix of
the calls the agents make."""

from __future__ import annotations

import numpy as np
from numba import njit

from arena.search.kernels import streams

RANDOM, INTEGERS, HALF = range(3)


@njit(cache=False)
def _draw(stream: np.ndarray, kinds: np.ndarray, bounds: np.ndarray) -> np.ndarray:
    drawn = np.zeros(len(kinds), dtype=np.float64)
    for i in range(len(kinds)):
        if kinds[i] == RANDOM:
            drawn[i] = streams.next_double(stream)
        elif kinds[i] == INTEGERS:
            drawn[i] = streams.bounded(stream, bounds[i])
        else:
            drawn[i] = float(streams.half_uint64(stream))
    return drawn


def _numpy_draws(seed: int, kinds: np.ndarray, bounds: np.ndarray) -> list[float]:
    generator = np.random.Generator(np.random.PCG64(seed))
    drawn = []
    for kind, bound in zip(kinds.tolist(), bounds.tolist(), strict=True):
        if kind == RANDOM:
            drawn.append(generator.random())
        elif kind == INTEGERS:
            drawn.append(float(int(generator.integers(bound))))
        else:  # as the MCTS agent seeds its playouts
            half = generator.integers(0, 2**63, size=1, dtype=np.int64).astype(np.uint64)
            drawn.append(float(half[0]))
    return drawn


def test_streams_draw_what_numpy_draws_for_every_kind_of_seed() -> None:
    mixer = np.random.default_rng(7)
    seeds = [0, 1, 5, 2**32 - 1, 2**32, (42 << 32) | 7, 2**64 - 1,
             *mixer.integers(0, 2**63, 40).tolist()]
    for seed in seeds:
        kinds = mixer.integers(0, 3, 300)
        bounds = mixer.integers(1, 10, 300)  # 1 draws nothing; small bounds as the agents use
        bounds[::7] = mixer.integers(1, 2**32 - 1, len(bounds[::7]))  # rejections happen
        stream = streams.new_stream()
        streams.seed_stream(stream, np.uint64(seed))
        assert _draw(stream, kinds, bounds).tolist() == _numpy_draws(seed, kinds, bounds), seed


def test_a_bound_of_one_draws_nothing_as_in_numpy() -> None:
    stream = streams.new_stream()
    streams.seed_stream(stream, np.uint64(3))
    ones = np.full(5, INTEGERS)
    drawn = _draw(stream, np.append(ones, RANDOM), np.append(np.ones(5, dtype=np.int64), 0))
    assert drawn[:5].tolist() == [0.0] * 5
    assert drawn[5] == np.random.Generator(np.random.PCG64(3)).random()
