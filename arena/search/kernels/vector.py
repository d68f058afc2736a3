"""Many boards stepped in one call: the kernel of the vectorized environment (``arena.envs``),
in the compiled core (``vector.hpp``).

Every board is two uint64 bitboards (``cur``, ``mask``, as in the package docstring) with the
learner to move. A step plays the learner's column on every board, then the opponent's reply
(unless the game ended or there is no opponent), and starts a new game on every board whose
game ended (auto-reset), the opponent moving first there when the draw says so.

Opponents (``kind``): ``RANDOM`` (a uniformly random legal column), ``IMMEDIATE_WIN`` (a
winning column when there is one, else a random one), ``NEGAMAX`` (the negamax agent's search
``depth`` plies deep, ties broken at random) and ``SELF_PLAY`` (no opponent: each step is one
move of the side to move, and the next observation is the other side's). Randomness comes
from one splitmix64 stream (``state``), so a seeded environment repeats itself.

Rewards are the learner's (self-play: the mover's): +1 a win, -1 a loss or an illegal column
(which ends the game, the board unchanged), 0 otherwise.
"""

from __future__ import annotations

from arena.search.kernels.native import core

RANDOM, IMMEDIATE_WIN, NEGAMAX, SELF_PLAY = range(4)
LEARNER_FIRST, OPPONENT_FIRST, EITHER_FIRST = range(3)
NONE = -1  # no column (in ``replies`` and ``openings``)

step_boards = core.step_boards
"""``step_boards(packed, kind, depth, first, terms, lines, points, tt, stats, stack, state,
cur, mask, actions, rewards, terminated, illegal, replies, openings)``: step every board (the
``packed`` search array's board; a negamax opponent searches with it, the heuristic arrays and
``tt``, ``stats``, ``stack`` as ``negamax.root_scores`` does, ties broken at random). The
learner plays ``actions[i]``, the opponent replies, a finished game starts again. Writes
``rewards`` (float32), ``terminated``, ``illegal`` (the learner's column could not be played),
``replies`` (the opponent's column in the game just played, NONE if it did not move),
``openings`` (the opponent's first column of a new game, NONE if the learner moves first or no
game started), ``cur``, ``mask`` and the splitmix64 ``state`` (one uint64), all in place."""

observe = core.observe
"""``observe(packed, cur, mask, planes, legal)``: write every board's planes (int8,
``planes[i, 0]``: the discs of the side to move, ``planes[i, 1]``: the other side's; row 0 the
top row, as boards are drawn) and its legal columns (``legal[i, c]``, bool); ``packed`` begins
with the board's ``board_array``."""
