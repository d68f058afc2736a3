"""numpy's ``Generator(PCG64(seed))`` in the compiled core (``arena/search/core/streams.hpp``),
draw for draw.

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

``tests/unit/test_streams.py`` checks the core's draws against numpy's, draw for draw.
"""

from __future__ import annotations

import numpy as np

from arena.search.kernels.native import core

STREAM_WORDS = 5


def new_stream() -> np.ndarray:
    """An unseeded stream (see ``seed_stream``)."""
    return np.zeros(STREAM_WORDS, dtype=np.uint64)


seed_stream = core.seed_stream
"""``seed_stream(stream, seed)``: make ``stream`` the stream of ``Generator(PCG64(seed))``."""
next_uint64 = core.next_uint64
next_uint32 = core.next_uint32
next_double = core.next_double
"""``next_double(stream)``: a float in [0, 1), as ``Generator.random()`` draws it."""
bounded = core.bounded
"""``bounded(stream, n)``: an integer in [0, n), as ``Generator.integers(n)`` draws it."""
half_uint64 = core.half_uint64
"""``half_uint64(stream)``: an integer in [0, 2**63), as ``Generator.integers(0, 2**63)``."""
