"""numpy's ``Generator(PCG64(seed))`` in compiled code, draw for draw.

A game's agents draw from ``Generator(PCG64(seed))`` (``arena.runs.planning.seeds``). To play whole
games inside one compiled call with the same moves, the stream is rebuilt here exactly as
numpy builds and uses it (numpy 1.17 and later; ``tests/unit/test_streams.py`` checks it
against numpy):

- seeding: the integer seed goes through numpy's ``SeedSequence`` (its entropy pool of four
  32-bit words, hashed and mixed), whose first eight output words seed the 128-bit state
  and increment of PCG64;
- ``next_uint64``: one step of the 128-bit LCG, then the XSL-RR output;
- ``next_uint32``: half of a 64-bit output, the other half kept for the next call (numpy keeps
  it in the bit generator, so the stream's five words hold it too);
- ``next_double`` (``Generator.random()``): 53 bits of a 64-bit output;
- ``bounded(n)`` (``Generator.integers(n)`` for ``n`` below 2**32): Lemire's method on 32-bit
  outputs, with no draw for ``n == 1``;
- ``half_uint64`` (``Generator.integers(0, 2**63)``): a 64-bit output shifted right once.

A stream is a uint64 array of ``STREAM_WORDS`` words: the state (high, low), the increment
(high, low), and the kept half with its flag.

The compiled core has the same streams in C++ (``arena/search/core/streams.hpp``, on the same
five words, bound as ``arena.search.kernels._core.seed_stream``, ``next_uint64``,
``next_uint32``, ``next_double``, ``bounded`` and ``half_uint64``), which the kernels moved to
C++ draw from. These numba functions stay until the fused game loop (``games``), which draws
from them inside numba, is ported too: a numba kernel cannot call into the extension.
``tests/unit/test_streams.py`` checks both against numpy, draw for draw.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from arena.search.kernels.bitboard import Int

STATE_HIGH, STATE_LOW, INC_HIGH, INC_LOW, KEPT = range(5)
STREAM_WORDS = 5
HAS_KEPT = np.uint64(1 << 32)  # the flag bit in ``stream[KEPT]``, above the kept 32 bits

LOW_32 = np.uint64(0xFFFF_FFFF)
MULTIPLIER_HIGH = np.uint64(2549297995355413924)  # PCG's default 128-bit multiplier
MULTIPLIER_LOW = np.uint64(4865540595714422341)
# SeedSequence's hashing constants (32-bit words)
INIT_A = np.uint64(0x43B0D7E5)
MULT_A = np.uint64(0x931E8875)
INIT_B = np.uint64(0x8B51F9DD)
MULT_B = np.uint64(0x58F38DED)
MIX_MULT_L = np.uint64(0xCA01F9DD)
MIX_MULT_R = np.uint64(0x4973F715)
XSHIFT = np.uint64(16)
POOL_SIZE = 4
DOUBLE_UNIT = 1.0 / 9007199254740992.0  # 2**-53


def new_stream() -> np.ndarray:
    """An unseeded stream (see ``seed_stream``)."""
    return np.zeros(STREAM_WORDS, dtype=np.uint64)


@njit(cache=True, inline="always")
def _high_product(a: np.uint64, b: np.uint64) -> np.uint64:
    """The high 64 bits of the 128-bit product of two uint64."""
    a_low, a_high = a & LOW_32, a >> np.uint64(32)
    b_low, b_high = b & LOW_32, b >> np.uint64(32)
    cross_1, cross_2 = a_low * b_high, a_high * b_low
    middle = ((a_low * b_low) >> np.uint64(32)) + (cross_1 & LOW_32) + (cross_2 & LOW_32)
    return (a_high * b_high + (cross_1 >> np.uint64(32)) + (cross_2 >> np.uint64(32))
            + (middle >> np.uint64(32)))


@njit(cache=True, inline="always")
def _step(stream: np.ndarray) -> None:
    """state = state * multiplier + increment, modulo 2**128."""
    high, low = stream[STATE_HIGH], stream[STATE_LOW]
    product_high = (_high_product(low, MULTIPLIER_LOW) + low * MULTIPLIER_HIGH
                    + high * MULTIPLIER_LOW)
    product_low = low * MULTIPLIER_LOW
    new_low = product_low + stream[INC_LOW]
    carry = np.uint64(1) if new_low < product_low else np.uint64(0)
    stream[STATE_LOW] = new_low
    stream[STATE_HIGH] = product_high + stream[INC_HIGH] + carry


@njit(cache=True, inline="always")
def next_uint64(stream: np.ndarray) -> np.uint64:
    """The next 64 bits of the stream."""
    _step(stream)
    value = stream[STATE_HIGH] ^ stream[STATE_LOW]
    rotation = stream[STATE_HIGH] >> np.uint64(58)
    return (value >> rotation) | (value << ((np.uint64(64) - rotation) & np.uint64(63)))


@njit(cache=True, inline="always")
def next_uint32(stream: np.ndarray) -> np.uint64:
    """The next 32 bits of the stream: the low half of a fresh 64-bit output, or the high
    half kept from the last one."""
    kept = stream[KEPT]
    if kept & HAS_KEPT:
        stream[KEPT] = np.uint64(0)
        return kept & LOW_32
    value = next_uint64(stream)
    stream[KEPT] = HAS_KEPT | (value >> np.uint64(32))
    return value & LOW_32


@njit(cache=True, inline="always")
def next_double(stream: np.ndarray) -> float:
    """A float in [0, 1), as ``Generator.random()`` draws it."""
    return float(next_uint64(stream) >> np.uint64(11)) * DOUBLE_UNIT


@njit(cache=True, inline="always")
def bounded(stream: np.ndarray, n: Int) -> Int:
    """An integer in [0, n) for 1 <= n < 2**32, as ``Generator.integers(n)`` draws it."""
    if n == 1:
        return 0
    excluded = np.uint64(n)
    product = next_uint32(stream) * excluded
    if product & LOW_32 < excluded:
        threshold = (LOW_32 - (excluded - np.uint64(1))) % excluded
        while product & LOW_32 < threshold:
            product = next_uint32(stream) * excluded
    return np.int64(product >> np.uint64(32))


@njit(cache=True, inline="always")
def half_uint64(stream: np.ndarray) -> np.uint64:
    """An integer in [0, 2**63), as ``Generator.integers(0, 2**63)`` draws it."""
    return next_uint64(stream) >> np.uint64(1)


@njit(cache=True, inline="always")
def _hashmix(value: np.uint64, hash_const: np.ndarray) -> np.uint64:
    """SeedSequence's hash of one word; advances ``hash_const[0]``."""
    value = (value ^ hash_const[0]) & LOW_32
    hash_const[0] = (hash_const[0] * MULT_A) & LOW_32
    value = (value * hash_const[0]) & LOW_32
    return value ^ (value >> XSHIFT)


@njit(cache=True, inline="always")
def _mix(x: np.uint64, y: np.uint64) -> np.uint64:
    """SeedSequence's mix of two words."""
    result = (MIX_MULT_L * x - MIX_MULT_R * y) & LOW_32
    return result ^ (result >> XSHIFT)


@njit(cache=True)
def seed_stream(stream: np.ndarray, seed: np.uint64) -> None:
    """Make ``stream`` the stream of ``Generator(PCG64(seed))``, seed a uint64."""
    entropy = np.zeros(2, dtype=np.uint64)  # the seed's 32-bit words, low first
    entropy[0] = seed & LOW_32
    entropy[1] = seed >> np.uint64(32)
    words = 2 if entropy[1] else 1
    pool = np.zeros(POOL_SIZE, dtype=np.uint64)
    hash_const = np.full(1, INIT_A, dtype=np.uint64)
    for i in range(POOL_SIZE):
        pool[i] = _hashmix(entropy[i] if i < words else np.uint64(0), hash_const)
    for source in range(POOL_SIZE):
        for target in range(POOL_SIZE):
            if source != target:
                pool[target] = _mix(pool[target], _hashmix(pool[source], hash_const))
    state = np.zeros(8, dtype=np.uint64)  # generate_state(8) as 32-bit words
    hashed = INIT_B
    for i in range(8):
        value = (pool[i % POOL_SIZE] ^ hashed) & LOW_32
        hashed = (hashed * MULT_B) & LOW_32
        value = (value * hashed) & LOW_32
        state[i] = value ^ (value >> XSHIFT)
    seeds = np.zeros(4, dtype=np.uint64)  # the same words as four uint64, little-endian
    for i in range(4):
        seeds[i] = state[2 * i] | (state[2 * i + 1] << np.uint64(32))
    stream[STATE_HIGH] = np.uint64(0)
    stream[STATE_LOW] = np.uint64(0)
    stream[INC_HIGH] = (seeds[2] << np.uint64(1)) | (seeds[3] >> np.uint64(63))
    stream[INC_LOW] = (seeds[3] << np.uint64(1)) | np.uint64(1)
    stream[KEPT] = np.uint64(0)
    _step(stream)
    low = stream[STATE_LOW] + seeds[1]
    carry = np.uint64(1) if low < seeds[1] else np.uint64(0)
    stream[STATE_LOW] = low
    stream[STATE_HIGH] = stream[STATE_HIGH] + seeds[0] + carry
    _step(stream)
