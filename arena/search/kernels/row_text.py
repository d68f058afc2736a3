"""games.csv rows of the fused game loop's games written as bytes in one compiled call.

The text is the csv module's for the same values: integers in decimal, a blank cell for a
missing one, and the think times, whole microseconds as ``round(seconds, 6)`` holds them,
as Python's ``repr`` writes such a float (``0.0``, ``5e-06``, ``1.2e-05``, ``0.000123``,
``2.5``). The pieces that are the same for many rows (the agents, first movers, results,
terminations) come as ready-made words of text.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from arena.rules.game_hash import FNV_OFFSET, FNV_PRIME

MICROS = 1_000_000
"""Microseconds a second."""
COMMA, NEWLINE, ZERO, DOT = ord(","), ord("\n"), ord("0"), ord(".")
FIRST_COLUMN = ord("1")  # column 0 in a move string
ROW_BYTES = 300
"""Bytes a row takes at most besides its agents, opening and moves."""


@njit(cache=True)
def _unsigned(out: np.ndarray, at: int, value: np.uint64) -> int:
    """Write ``value`` in decimal at ``at``; the position after it."""
    digits = 1
    rest = value // np.uint64(10)
    while rest:
        digits += 1
        rest //= np.uint64(10)
    for place in range(digits - 1, -1, -1):
        out[at + place] = ZERO + value % np.uint64(10)
        value //= np.uint64(10)
    return at + digits


@njit(cache=True)
def _optional(out: np.ndarray, at: int, value: int) -> int:
    """Write ``value`` (>= 0), or nothing for a negative one (a blank cell)."""
    return at if value < 0 else _unsigned(out, at, np.uint64(value))


@njit(cache=True)
def _micros(out: np.ndarray, at: int, micros: int) -> int:
    """Write ``micros`` microseconds (>= 0, below 10**22) in seconds as ``repr`` writes the
    float nearest to them: positional from 0.0001 on, else in scientific notation."""
    if micros == 0:
        out[at], out[at + 1], out[at + 2] = ZERO, DOT, ZERO
        return at + 3
    if micros >= 100:
        at = _unsigned(out, at, np.uint64(micros // MICROS))
        out[at] = DOT
        fraction = micros % MICROS
        if fraction == 0:
            out[at + 1] = ZERO
            return at + 2
        places = 6
        while fraction % 10 == 0:
            fraction //= 10
            places -= 1
        for place in range(places, 0, -1):
            out[at + place] = ZERO + fraction % 10
            fraction //= 10
        return at + 1 + places
    zeros = 0
    while micros % 10 == 0:
        micros //= 10
        zeros += 1
    first = micros // 10 if micros >= 10 else micros
    out[at] = ZERO + first
    at += 1
    exponent = zeros - 6
    if micros >= 10:
        out[at], out[at + 1] = DOT, ZERO + micros % 10
        at += 2
        exponent += 1
    out[at], out[at + 1], out[at + 2] = ord("e"), ord("-"), ZERO
    out[at + 3] = ZERO - exponent
    return at + 4


@njit(cache=True)
def _word(out: np.ndarray, at: int, words: np.ndarray, starts: np.ndarray, word: int) -> int:
    """Write word ``word`` of ``words`` (its bytes from ``starts[word]`` to the next start)."""
    begin, end = starts[word], starts[word + 1]
    out[at:at + end - begin] = words[begin:end]
    return at + end - begin


@njit(cache=True)
def fused_rows(games: np.ndarray, pairs: np.ndarray, seeds: np.ndarray, agents: int,
               firsts: np.ndarray, openings: np.ndarray, results: np.ndarray,
               terminations: np.ndarray, words: np.ndarray, starts: np.ndarray,
               moves: np.ndarray, plies: np.ndarray, micros: np.ndarray, nodes: np.ndarray,
               turns: np.ndarray, out: np.ndarray, moves_at: np.ndarray) -> int:
    """Write the games.csv rows of games ``g`` into ``out``; the bytes written.

    Columns, in games.csv's order: ``games``, ``pairs`` (negative: blank), ``seeds``; the
    words ``agents`` (both agents' cells and the comma between), ``firsts[g]`` and
    ``openings[g]`` (the opening's move string); the opening followed by ``moves[g]`` (columns
    from 0, as many as ``plies[g]`` less the opening's length); the words ``results[g]`` and
    ``terminations[g]``; ``plies``, ``micros`` (two per game), ``nodes`` (two, negative:
    blank), ``turns`` (two), and an empty error. ``moves_at[g]``: where game ``g``'s move
    string begins in ``out``.
    """
    at = 0
    for g in range(len(games)):
        at = _unsigned(out, at, np.uint64(games[g]))
        out[at] = COMMA
        at = _optional(out, at + 1, pairs[g])
        out[at] = COMMA
        at = _unsigned(out, at + 1, seeds[g])
        out[at] = COMMA
        at = _word(out, at + 1, words, starts, agents)
        out[at] = COMMA
        at = _word(out, at + 1, words, starts, firsts[g])
        out[at] = COMMA
        at = _word(out, at + 1, words, starts, openings[g])
        out[at] = COMMA
        moves_at[g] = at + 1
        opened = _word(out, at + 1, words, starts, openings[g])  # the moves from it on
        played = plies[g] - (opened - at - 1)
        for ply in range(played):
            out[opened + ply] = FIRST_COLUMN + moves[g, ply]
        at = opened + played
        out[at] = COMMA
        at = _word(out, at + 1, words, starts, results[g])
        out[at] = COMMA
        at = _word(out, at + 1, words, starts, terminations[g])
        out[at] = COMMA
        at = _unsigned(out, at + 1, np.uint64(plies[g]))
        for side in range(2):
            out[at] = COMMA
            at = _micros(out, at + 1, micros[g, side])
        for side in range(2):
            out[at] = COMMA
            at = _optional(out, at + 1, nodes[g, side])
        for side in range(2):
            out[at] = COMMA
            at = _unsigned(out, at + 1, np.uint64(turns[g, side]))
        out[at], out[at + 1] = COMMA, NEWLINE
        at += 2
    return at


@njit(cache=True)
def move_hashes(text: np.ndarray, starts: np.ndarray, lengths: np.ndarray,
                firsts: np.ndarray) -> np.ndarray:
    """``arena.rules.game_hash.move_hashes`` in compiled code, for the fused game loop: the
    hash of who moved first (``firsts[g]``), then the ``lengths[g]`` bytes of game ``g``'s
    move string from ``text[starts[g]]``."""
    hashes = np.empty(len(starts), dtype=np.int64)
    for g in range(len(starts)):
        value = (FNV_OFFSET ^ np.uint64(firsts[g])) * FNV_PRIME
        for at in range(starts[g], starts[g] + lengths[g]):
            value = (value ^ np.uint64(text[at])) * FNV_PRIME
        hashes[g] = np.int64(value)
    return hashes
