"""Shared hypothesis strategies (``st.from_type(Rules)``, ``st.from_type(Position)``),
hand-drawn positions (``position_of``), positions of random games for the search agents, and a
private cache directory for the whole session.

Rules are drawn from the whole allowed space (cols <= 9, cols x (rows + 1) <= 64,
3 <= connect <= max(rows, cols)), with the extreme boards offered first; positions are
random legal games on such boards, stopped at a random ply or when the game ends.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import strategies as st

from arena.rules.board import BITBOARD_BITS, MAX_COLUMNS, Position, Rules
from arena.rules.notation import from_array
from arena.system.cachedir import CACHE_ENV

EXTREME_RULES = (
    Rules(rows=63, cols=1, connect=3),  # one tall column
    Rules(rows=63, cols=1, connect=63),
    Rules(rows=6, cols=9, connect=4),  # widest
    Rules(rows=7, cols=8, connect=4),  # exactly 64 bits
    Rules(rows=7, cols=8, connect=8),  # connect = max(rows, cols)
    Rules(rows=1, cols=9, connect=3),  # one row
    Rules(rows=31, cols=2, connect=31),
    Rules(),
)


@st.composite
def any_rules(draw: st.DrawFn) -> Rules:
    """Any board the rules engine must support."""
    cols = draw(st.integers(1, MAX_COLUMNS))
    max_rows = BITBOARD_BITS // cols - 1
    rows = draw(st.integers(1 if cols >= 3 else 3, max_rows))
    connect = draw(st.integers(3, max(rows, cols)))
    return Rules(rows=rows, cols=cols, connect=connect)


@st.composite
def any_positions(draw: st.DrawFn) -> Position:
    """A position reached by a random legal game on a random board."""
    rules = draw(st.from_type(Rules))
    position = Position.empty(rules)
    for _ in range(draw(st.integers(0, rules.rows * rules.cols))):
        if position.is_terminal:
            break
        position = position.play(draw(st.sampled_from(position.legal_moves())))
    return position


st.register_type_strategy(Rules, st.one_of(st.sampled_from(EXTREME_RULES), any_rules()))
st.register_type_strategy(Position, any_positions())


def position_of(rows: list[str], connect: int = 4) -> Position:
    """A position from rows drawn top to bottom: x = player 1, o = player 2, . = empty."""
    cells = [[".xo".index(c) for c in row] for row in reversed(rows)]
    return from_array(np.array(cells, dtype=np.int8), connect=connect)


def random_positions(rules: Rules, count: int, seed: int) -> list[Position]:
    """Non-terminal positions of random games, stopped at random plies."""
    rng = np.random.default_rng(seed)
    positions: list[Position] = []
    while len(positions) < count:
        position = Position.empty(rules)
        for _ in range(int(rng.integers(rules.rows * rules.cols))):
            position = position.play(int(rng.choice(position.legal_moves())))
            if position.is_terminal:
                break
        if not position.is_terminal:
            positions.append(position)
    return positions


def winning_positions(count: int) -> list[Position]:
    """Random positions of the standard board where the side to move can win at once."""
    return [p for p in random_positions(Rules(), 20 * count, seed=1) if p.winning_moves()][:count]


def blocking_positions(count: int) -> list[tuple[Position, int]]:
    """Random positions with a single opponent win to block, which the block does not feed."""
    found = []
    for position in random_positions(Rules(), 30 * count, seed=2):
        threats = position.winning_moves(3 - position.side_to_move)
        if position.winning_moves() or len(threats) != 1:
            continue
        after = position.play(threats[0])
        if not after.is_terminal and not after.winning_moves():
            found.append((position, threats[0]))
    return found[:count]


@pytest.fixture(autouse=True, scope="session")
def private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Tests neither read nor write the user's cache (opening books, solved positions)."""
    previous = os.environ.get(CACHE_ENV)
    os.environ[CACHE_ENV] = str(tmp_path_factory.mktemp("cache"))
    yield
    if previous is None:
        os.environ.pop(CACHE_ENV, None)
    else:
        os.environ[CACHE_ENV] = previous
