"""Per-board tables and the rules on uint64 bitboards (see the package docstring)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any, NamedTuple, TypeVar, cast

import numpy as np
from numba import njit, types
from numba.extending import intrinsic, overload

from arena.rules.board import Rules
from arena.search.heuristics import positional_weights

Int = int | np.int64  # an integer argument; numba compiles both alike
ZERO = np.uint64(0)
ONE = np.uint64(1)
ALL = np.uint64(0xFFFF_FFFF_FFFF_FFFF)


class Tables(NamedTuple):
    """The per-board constants of the kernels, all scalars."""

    bottom: np.uint64  # bottom cell of every column
    board: np.uint64  # every cell
    centre: np.uint64  # the cells of column cols // 2
    column: np.uint64  # the cells of column 0
    height: np.uint64  # bits per column
    cols: np.int64
    connect: np.int64
    directions: np.int64  # how many of ``steps`` are used
    steps: tuple[np.uint64, ...]  # 4 bit steps of the directions in which a line fits
    planes: tuple[np.uint64, ...]  # 8 bit planes of the positional weights: plane j, bit j



Kernel = TypeVar("Kernel", bound=Callable[..., Any])


def without_runtime(kernel: Kernel) -> Kernel:
    """``njit(cache=True)`` without numba's runtime: for kernels that allocate nothing.

    In a loop, every call of a compiled function (inlined or not) that takes arrays updates
    the reference count of each array twice, atomically, and numba's pruning of those
    updates fails on the branchy loops of a search; without the runtime there are none.
    The kernel must not create an array, nor call a kernel that returns one.
    """
    return cast(Kernel, njit(cache=True, _nrt=False)(kernel))  # type: ignore[call-overload]


PLANES = 8  # bits of a positional weight: any board has at most 32 lines through a cell
STEPS = 4
BOARD_FIELDS = 8 + STEPS + PLANES  # the length of a ``board_array``


@cache
def board_array(rules: Rules) -> np.ndarray:
    """The fields of ``rules``' Tables packed in a uint64 array, computed once per board size.

    Layout: bottom, board, centre, column, height, cols, connect, directions, then the
    STEPS steps (unused ones 0), then the PLANES planes.
    """
    geometry = rules.geometry
    tall, wide = rules.rows >= rules.connect, rules.cols >= rules.connect
    vertical, horizontal, falling, rising = geometry.directions
    fits = ((vertical, tall), (horizontal, wide), (falling, tall and wide),
            (rising, tall and wide))
    steps = [step for step, fit in fits if fit]
    weights = positional_weights(rules)
    planes = [sum(rules.cell_bit(c, r) for c in range(rules.cols) for r in range(rules.rows)
                  if int(weights[r, c]) >> j & 1)
              for j in range(PLANES)]
    fields = [geometry.bottom, geometry.board, geometry.columns[rules.cols // 2],
              geometry.columns[0], rules.height, rules.cols, rules.connect, len(steps)]
    return np.array(fields + steps + [0] * (STEPS - len(steps)) + planes, dtype=np.uint64)


def board_tables(rules: Rules) -> Tables:
    """The kernel tables of ``rules``, for calling kernels other than ``root_scores``."""
    # numba would box the uint64 fields as ints; with NUMBA_DISABLE_JIT, unpack is plain Python
    return getattr(unpack, "py_func", unpack)(board_array(rules))


def popcount(bits: np.uint64) -> int:
    """The number of set bits of a uint64 (compiled: one machine instruction)."""
    return int(bits).bit_count()


@intrinsic
def _ctpop(typingctx: Any, bits: Any) -> Any:
    if bits != types.uint64:
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return types.int64(types.uint64), codegen


_machine_popcount = cast(Callable[[np.uint64], int], _ctpop)  # in kernels: one argument


@overload(popcount, inline="always")
def _compiled_popcount(bits: Any) -> Any:
    if bits != types.uint64:
        return None

    def compiled(bits: Any) -> Any:
        return _machine_popcount(bits)

    return compiled


@njit(cache=True)
def unpack(packed: np.ndarray) -> Tables:
    """The Tables packed by ``board_array``."""
    return Tables(
        packed[0], packed[1], packed[2], packed[3], packed[4],
        np.int64(packed[5]), np.int64(packed[6]), np.int64(packed[7]),
        (packed[8], packed[9], packed[10], packed[11]),
        (packed[12], packed[13], packed[14], packed[15], packed[16], packed[17], packed[18],
         packed[19]),
    )


# --- rules --------------------------------------------------------------------------


@njit(cache=True, inline="always")
def playable(mask: np.uint64, t: Tables) -> np.uint64:
    """The cell each non-full column would receive next."""
    return (mask + t.bottom) & t.board


@njit(cache=True, inline="always")
def column_cells(t: Tables, col: Int) -> np.uint64:
    """The cells of column ``col``."""
    return t.column << (np.uint64(col) * t.height)


@njit(cache=True, inline="always")
def centre_column(t: Tables, index: Int) -> Int:
    """The ``index``-th column in centre-first order (as ``heuristics.centre_first``)."""
    return t.cols // 2 + (1 - 2 * (index % 2)) * ((index + 1) // 2)


@njit(cache=True, inline="always")
def _runs(stones: np.uint64, step: np.uint64, length: Int) -> np.uint64:
    """Cells x such that x, x + step, ..., x + (length - 1) * step all hold a stone."""
    run = ALL
    for i in range(length):
        run &= stones >> (np.uint64(i) * step)
    return run


@njit(cache=True, inline="always")
def _winning_cells_4(stones: np.uint64, step: np.uint64) -> np.uint64:
    """Cells completing a line of four along ``step``: the common case, unrolled."""
    step2, step3 = step + step, step + step + step
    pair = (stones << step) & (stones << step2)
    cells = pair & ((stones << step3) | (stones >> step))
    pair = (stones >> step) & (stones >> step2)
    return cells | (pair & ((stones >> step3) | (stones << step)))


@njit(cache=True, inline="always")
def winning_cells(stones: np.uint64, mask: np.uint64, t: Tables) -> np.uint64:
    """The empty cells that would complete a line of ``connect`` for ``stones``."""
    k = t.connect
    cells = ZERO
    if k == 4 and t.directions == 4:
        d = t.steps  # the first is the vertical step, 1: a line there ends on top only
        cells = ((stones << ONE) & (stones << np.uint64(2)) & (stones << np.uint64(3))
                 | _winning_cells_4(stones, d[1]) | _winning_cells_4(stones, d[2])
                 | _winning_cells_4(stones, d[3]))
        return cells & t.board & ~mask
    for i in range(t.directions):
        step = t.steps[i]
        below = ALL  # cells with stones on the `gap` cells below them in this direction
        for gap in range(k):
            if gap:
                below &= stones << (np.uint64(gap) * step)
            above = k - 1 - gap  # the stones needed above the cell
            cells |= below & (_runs(stones >> step, step, above) if above else ALL)
    return cells & t.board & ~mask


@njit(cache=True)
def has_line(stones: np.uint64, t: Tables) -> bool:
    """True if ``stones`` holds ``connect`` discs in a row."""
    for i in range(t.directions):  # noqa: SIM110 - numba compiles loops, not generators
        if _runs(stones, t.steps[i], t.connect):
            return True
    return False


@njit(cache=True)
def legal_columns(mask: np.uint64, t: Tables) -> np.ndarray:
    """The columns that are not full, left to right (the caller checks for a win)."""
    open_cells = playable(mask, t)
    return np.array([c for c in range(t.cols) if open_cells & column_cells(t, c)],
                    dtype=np.int64)

