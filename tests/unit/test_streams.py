"""The compiled core's Generator(PCG64(seed)) streams draw exactly what numpy draws, in any mix
of the calls the agents make."""

from __future__ import annotations

import numpy as np
import pytest

from arena.search.kernels import _core, streams

RANDOM, INTEGERS, HALF = range(3)


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


def _core_draws(stream: np.ndarray, kinds: np.ndarray, bounds: np.ndarray) -> list[float]:
    drawn = []
    for kind, bound in zip(kinds.tolist(), bounds.tolist(), strict=True):
        if kind == RANDOM:
            drawn.append(_core.next_double(stream))
        elif kind == INTEGERS:
            drawn.append(float(_core.bounded(stream, bound)))
        else:
            drawn.append(float(_core.half_uint64(stream)))
    return drawn


def _cases() -> list[tuple[int, np.ndarray, np.ndarray]]:
    """Seeds of every kind (one 32-bit word, two, the extremes), each with 300 mixed draws."""
    mixer = np.random.default_rng(7)
    seeds = [0, 1, 5, 2**32 - 1, 2**32, (42 << 32) | 7, 2**64 - 1,
             *mixer.integers(0, 2**63, 40).tolist()]
    cases = []
    for seed in seeds:
        kinds = mixer.integers(0, 3, 300)
        bounds = mixer.integers(1, 10, 300)  # 1 draws nothing; small bounds as the agents use
        bounds[::7] = mixer.integers(1, 2**32 - 1, len(bounds[::7]))  # rejections happen
        cases.append((seed, kinds, bounds))
    return cases


def test_the_core_s_streams_draw_what_numpy_draws_for_every_kind_of_seed() -> None:
    for seed, kinds, bounds in _cases():
        stream = streams.new_stream()
        streams.seed_stream(stream, seed)
        assert _core_draws(stream, kinds, bounds) == _numpy_draws(seed, kinds, bounds), seed


def test_the_core_s_32_and_64_bit_draws_are_numpy_s() -> None:
    """A 32-bit draw keeps the other half of its 64-bit output for the next one, as numpy's
    bit generator does; a 64-bit draw leaves the kept half alone."""
    stream = streams.new_stream()
    _core.seed_stream(stream, 2**40 + 3)
    generator = np.random.Generator(np.random.PCG64(2**40 + 3))

    def uint32() -> int:
        return int(generator.integers(0, 2**32, dtype=np.uint32))  # numpy's next_uint32

    drawn = [_core.next_uint64(stream), _core.next_uint32(stream), _core.next_uint64(stream),
             _core.next_uint32(stream), _core.next_uint32(stream)]
    raw = generator.bit_generator.random_raw
    assert drawn == [int(raw()), uint32(), int(raw()), uint32(), uint32()]


def test_the_core_refuses_a_stream_it_could_not_write() -> None:
    with pytest.raises(TypeError):  # a converted copy would take the draws
        _core.seed_stream(np.zeros(5, dtype=np.int64), 3)
    with pytest.raises(TypeError):
        _core.next_double(np.zeros(4, dtype=np.uint64))
    with pytest.raises(ValueError, match="bound 0"):
        _core.bounded(streams.new_stream(), 0)


def test_a_bound_of_one_draws_nothing_as_in_numpy() -> None:
    stream = streams.new_stream()
    streams.seed_stream(stream, 3)
    ones = np.full(5, INTEGERS)
    drawn = _core_draws(stream, np.append(ones, RANDOM), np.append(np.ones(5, dtype=np.int64), 0))
    assert drawn[:5] == [0.0] * 5
    assert drawn[5] == np.random.Generator(np.random.PCG64(3)).random()
