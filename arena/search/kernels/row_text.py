"""games.csv rows of the fused game loop's games written as bytes in one compiled call, by the
compiled core (``arena/search/core/row_text.hpp``), with the GIL released.

The text is the csv module's for the same values: integers in decimal, a blank cell for a
missing one, and the think times, whole microseconds as ``round(seconds, 6)`` holds them,
as Python's ``repr`` writes such a float (``0.0``, ``5e-06``, ``1.2e-05``, ``0.000123``,
``2.5``). The pieces that are the same for many rows (the agents, first movers, results,
terminations) come as ready-made words of text.

``fused_rows(games, pairs, seeds, agents, firsts, openings, results, terminations, words,
starts, moves, plies, micros, nodes, turns, out, moves_at)`` writes the rows of games ``g``
into ``out`` and returns the bytes written. Columns, in games.csv's order: ``games``,
``pairs`` (negative: blank), ``seeds``; the words ``agents`` (both agents' cells and the comma
between), ``firsts[g]`` and ``openings[g]`` (the opening's move string); the opening followed
by ``moves[g]`` (uint8 columns from 0, as many as ``plies[g]`` less the opening's length); the
words ``results[g]`` and ``terminations[g]``; ``plies``, ``micros`` (two per game), ``nodes``
(two, negative: blank), ``turns`` (two), and an empty error. Word ``w`` is ``words[starts[w]:
starts[w + 1]]``. ``moves_at[g]``: where game ``g``'s move string begins in ``out``. A word
that is not one, plies short of the opening or past the moves' row, a negative think time or
an ``out`` too small for the rows is a ValueError; ``out`` and ``moves_at`` are written in
place and never converted.

``move_hashes(text, starts, lengths, firsts)`` is ``arena.rules.game_hash.move_hashes`` in
compiled code, for the fused game loop: the hash of who moved first (``firsts[g]``), then the
``lengths[g]`` bytes of game ``g``'s move string from ``text[starts[g]]``.
"""

from __future__ import annotations

from arena.search.kernels.native import core

ROW_BYTES = 300
"""Bytes a row takes at most besides its agents, opening and moves."""

fused_rows = core.fused_rows
move_hashes = core.move_hashes
