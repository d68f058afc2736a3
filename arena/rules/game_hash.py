"""The hash that tells games apart: who moved first, then the moves (FNV-1a, 64 bits).

``move_hashes`` here is the numpy version, for games read back from games.csv without loading
the kernels; the fused game loop computes the same hashes in compiled code
(``arena.search.kernels.row_text.move_hashes``, the compiled core's, with these constants).
"""

from __future__ import annotations

import numpy as np

FNV_OFFSET = np.uint64(0xCBF29CE484222325)
FNV_PRIME = np.uint64(0x100000001B3)


def move_hashes(text: np.ndarray, starts: np.ndarray, lengths: np.ndarray,
                firsts: np.ndarray) -> np.ndarray:
    """A 64-bit hash (as int64) of each game ``g``: ``firsts[g]`` (1: A moved first, 2: B),
    then the ``lengths[g]`` bytes of its move string from ``text[starts[g]]``; one numpy
    pass per ply, over the games that long."""
    values = (FNV_OFFSET ^ np.asarray(firsts, dtype=np.uint64)) * FNV_PRIME
    for ply in range(int(np.max(lengths, initial=0))):
        games = np.flatnonzero(lengths > ply)
        moves = text[starts[games] + ply].astype(np.uint64)
        values[games] = (values[games] ^ moves) * FNV_PRIME
    return values.view(np.int64)
