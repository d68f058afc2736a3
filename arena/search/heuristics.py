"""Evaluation functions for the search agents, named and combinable.

``WIN_SCORE`` is the win/loss scale shared by every search agent: a win for the root player
found ``p`` plies below the root (``p = 1`` for a winning root move) scores
``WIN_SCORE - p``, a loss ``-(WIN_SCORE - p)``, a draw 0; heuristic values are clamped to
``HEURISTIC_LIMIT``, far below.

A heuristic is named by a spec such as ``threats*2+positional``: names joined by ``+``, each
with an optional whole weight from 1 to 1000 after ``*``. The names (seed 002 explains the threat
heuristics; the kernels in ``arena.search.kernels.evaluation`` compute them):

- ``none``: 0; only wins and losses count.
- ``positional``: for each own disc, the number of win lines through its cell, minus the
  same for the opponent's discs (seed 002's table times 10 on 6 x 7).
- ``threats``: own threats (empty cells that would complete a line) minus the opponent's.
- ``live-threats``: a threat the side to move can play now is a win (next ply), two or more
  playable threats of the opponent a loss (the ply after); it takes no weight.
- ``stacked-threats``: two threats of one player directly above one another in a column
  are a decisive advantage worth ``STACKED_SCORE`` (only the lowest pair of a column
  counts); threats above such a pair are left out of ``threats``.
- ``window``: the minimax agent's window heuristic, from the root player's point of view
  as minimax values positions (negated when the other player is to move, as negamax
  needs), so that the two searches give the same root score.

``ThreatRules`` switches the threat terms to seed 002's own rules (see ``terms_array``):
threats above the lowest stacked pair of a column left out whenever threats are counted,
stacked pairs scored per pair, live-threat losses one ply sooner, and two bugs of the
seed's code reproduced on request.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Literal, NamedTuple

import numpy as np

from arena.rules.board import Rules

WIN_SCORE = 1_000_000
STACKED_SCORE = 10_000
HEURISTIC_LIMIT = WIN_SCORE // 2  # heuristic values are clamped to +-HEURISTIC_LIMIT
MAX_WEIGHT = 1000

# Kernel ids, in the order the terms are evaluated: live threats may end the evaluation,
# and unreachable threats must be cleared before stacked pairs and threats are counted.
# The two clearing steps are not heuristics of their own: ``terms_array`` adds them.
(CLEAR_ALL_LATER, LIVE_THREATS, CLEAR_ABOVE_PAIRS, STACKED_THREATS, THREATS, POSITIONAL,
 WINDOW) = range(1, 8)
# Variant bits of a term (the third column of ``terms_array``).
LOSS_SOONER = 1  # live threats: two playable opponent threats lose on the next ply
BOTTOM_LEFT_BUG = 2  # live threats: the bottom cell of column 0 never counts as playable
PER_PAIR = 1  # stacked threats: the weight per stacked pair of each player
HEURISTICS = {
    "none": 0,
    "positional": POSITIONAL,
    "threats": THREATS,
    "live-threats": LIVE_THREATS,
    "stacked-threats": STACKED_THREATS,
    "window": WINDOW,
}
UNWEIGHTED = ("none", "live-threats")


class Term(NamedTuple):
    """One weighted heuristic of a combination."""

    name: str
    weight: int = 1


def parse_heuristic(text: str) -> tuple[Term, ...]:
    """The weighted terms of a spec such as ``threats*2+positional``, in evaluation order.

    ``none`` contributes no term. Raises ValueError naming the known heuristics.
    """
    terms: dict[str, Term] = {}
    for part in text.split("+"):
        name, star, weight_text = (piece.strip() for piece in part.partition("*"))
        if name not in HEURISTICS:
            raise ValueError(f"unknown heuristic {name!r} in {text!r}; {_known()}")
        if name in terms:
            raise ValueError(f"heuristic {name!r} appears twice in {text!r}")
        if star and name in UNWEIGHTED:
            raise ValueError(f"heuristic {name!r} in {text!r} takes no weight")
        if star and not (weight_text.isdigit() and 1 <= int(weight_text) <= MAX_WEIGHT):
            raise ValueError(
                f"weight {weight_text!r} of {name!r} in {text!r} is not a whole number "
                f"from 1 to {MAX_WEIGHT}; {_known()}"
            )
        terms[name] = Term(name, int(weight_text) if star else 1)
    return tuple(sorted((t for t in terms.values() if t.name != "none"),
                        key=lambda term: HEURISTICS[term.name]))


@dataclass(frozen=True)
class ThreatRules:
    """How the threat terms are computed: the project's rules (the defaults) or seed 002's.

    - ``clearing``: threats above the lowest stacked pair of a column are left out of every
      threat term only when ``stacked-threats`` is one of them (``stacked``), or whenever
      threats are counted (``always``, as seed 002 did);
    - ``seed_scoring``: ``stacked-threats`` scores its weight for every stacked pair of each
      player (the seed scores 5 per pair where a threat scores 1) instead of
      ``STACKED_SCORE`` per column for the owner of its lowest pair, and ``live-threats``
      scores two playable opponent threats as a loss on the next ply, one ply sooner than
      it can happen (the seed's ``-1000 + turn + 1``);
    - ``seed_clearing_bug``: bug for bug, seed 002's first clearing code (its rows 6 and 8):
      clearing wipes every threat cell above the lowest stacked pair of the board, in all
      later columns too;
    - ``seed_live_bug``: bug for bug, seed 002's live-threat test, which never counts the
      bottom cell of the leftmost column as playable.
    """

    clearing: Literal["stacked", "always"] = "stacked"
    seed_scoring: bool = False
    seed_clearing_bug: bool = False
    seed_live_bug: bool = False

    def __post_init__(self) -> None:
        if self.clearing not in ("stacked", "always"):
            raise ValueError(f"clearing must be stacked or always, got {self.clearing!r}")


PROJECT_THREAT_RULES = ThreatRules()


def terms_array(terms: tuple[Term, ...],
                rules: ThreatRules = PROJECT_THREAT_RULES) -> np.ndarray:
    """The (kernel id, weight, variant bits) rows the kernels take, in evaluation order.

    Clearing rows come in where threats above stacked pairs must be left out: with
    ``stacked-threats``, or with any threat term when ``rules.clearing`` is ``always``.
    """
    rows = [(HEURISTICS[t.name], t.weight, 0) for t in terms]
    kinds = {kind for kind, _, _ in rows}
    cleared = THREATS in kinds or (LIVE_THREATS in kinds and rules.seed_clearing_bug)
    if STACKED_THREATS in kinds or (rules.clearing == "always" and cleared):
        rows.append((CLEAR_ABOVE_PAIRS, 1, 0))
        if rules.seed_clearing_bug:
            rows.append((CLEAR_ALL_LATER, 1, 0))
    variants = {
        LIVE_THREATS: LOSS_SOONER * rules.seed_scoring + BOTTOM_LEFT_BUG * rules.seed_live_bug,
        STACKED_THREATS: PER_PAIR * rules.seed_scoring,
    }
    rows = [(kind, weight, variants.get(kind, 0)) for kind, weight, _ in rows]
    return np.array(sorted(rows), dtype=np.int64).reshape(-1, 3)


def _known() -> str:
    return ("known heuristics: " + ", ".join(HEURISTICS)
            + " (combine with +, weight with *, e.g. threats*2+positional)")


@cache
def centre_first(cols: int) -> tuple[int, ...]:
    """The columns ordered from the centre (``cols // 2``) outwards, left before right."""
    return tuple(cols // 2 + (1 - 2 * (i % 2)) * ((i + 1) // 2) for i in range(cols))


def positional_weights(rules: Rules) -> np.ndarray:
    """The number of win lines through each cell, rows x cols with row 0 at the bottom."""
    counts = rules.geometry.lines_through_cell
    return np.array([[counts[rules.cell_bit(c, r)] for c in range(rules.cols)]
                     for r in range(rules.rows)], dtype=np.int64)


def window_points(connect: int) -> np.ndarray:
    """Points of one window by [own discs, opponent discs], as in the minimax seeds.

    +100 for ``connect`` own discs, +5 for ``connect - 1`` own and one empty cell, +2 for
    ``connect - 2`` own and two empty, and -4 for ``connect - 1`` opponent discs and one
    empty cell.
    """
    points = np.zeros((connect + 1, connect + 1), dtype=np.int64)
    for own in range(connect + 1):
        for other in range(connect + 1 - own):
            empty = connect - own - other
            points[own, other] = (
                100 * (own == connect)
                + 5 * (own == connect - 1 and empty == 1)
                + 2 * (own == connect - 2 and empty == 2)
                - 4 * (other == connect - 1 and empty == 1)
            )
    return points
