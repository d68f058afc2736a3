"""The numpy hash of games (who moved first, then the moves) is 64-bit FNV-1a, as computed by
hand with Python integers."""

from __future__ import annotations

import numpy as np

from arena.rules.game_hash import move_hashes


def _fnv1a(data: bytes) -> int:
    value = 0xCBF29CE484222325
    for byte in data:
        value = ((value ^ byte) * 0x100000001B3) % 2**64
    return value - 2**64 if value >= 2**63 else value  # as int64


def test_each_game_hashes_who_moved_first_then_its_moves() -> None:
    games = [(1, b"4447"), (2, b""), (2, b"4447"), (1, b"1234567" * 6)]
    text = np.frombuffer(b"".join(moves for _, moves in games), dtype=np.uint8)
    lengths = np.array([len(moves) for _, moves in games], dtype=np.int64)
    starts = np.cumsum(lengths) - lengths
    firsts = np.array([first for first, _ in games], dtype=np.int64)
    hashes = move_hashes(text, starts, lengths, firsts)
    assert hashes.dtype == np.int64
    assert hashes.tolist() == [_fnv1a(bytes([first]) + moves) for first, moves in games]
    assert len(set(hashes.tolist())) == 4
