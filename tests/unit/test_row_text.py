"""The fused loop's games.csv text, written in bulk, against the csv module writing the same
games as ``GameRow``s: the same bytes, think times included (every way ``repr`` writes them)."""

from __future__ import annotations

import csv
import io

import numpy as np
import pytest

from arena.rules.results import Result, Termination
from arena.runs.planning.openings import load_openings
from arena.runs.planning.plan import GameSettings, MatchPlan, Pairing
from arena.runs.playing.fused import MICROS, FusedGames
from arena.runs.store.rows import GameRow
from arena.runs.store.summary import GameColumns
from arena.search.kernels.games import new_outcomes

CELLS = 42
ENDINGS = {1: Termination.FOUR_IN_A_ROW, 2: Termination.BOARD_FULL, 3: Termination.ADJUDICATED}
RESULTS = {-1: Result.DRAW, 0: Result.WIN, 1: Result.LOSS}  # by the winning side
MICROS_SHOWN = [0, 1, 5, 9, 10, 12, 50, 99, 100, 101, 120, 999, 1000, 123456, 999999,
                1000000, 1000001, 1500000, 12345678, 10**12 + 7]


def _games(openings: str, agent_a: str, seed: int) -> tuple[FusedGames, list[GameRow]]:
    """Made-up outcomes of 200 games and the rows of the same games."""
    settings = GameSettings(seed=seed)
    plan = MatchPlan((Pairing(agent_a, "random", 200),), settings,
                     load_openings(openings, settings.rules, seed))
    batch = plan.batch(np.random.default_rng(seed).permutation(200))
    rng = np.random.default_rng(seed + 1)
    out = new_outcomes(len(batch), CELLS)
    openings_played = [batch.openings[index] for index in batch.opening_index]
    out.winners[:] = rng.integers(-1, 2, len(batch))
    out.endings[:] = rng.integers(1, 4, len(batch))
    out.plies[:] = [len(opening) + rng.integers(0, CELLS - len(opening) + 1)
                    for opening in openings_played]
    out.moves[:] = rng.integers(0, 7, out.moves.shape)
    out.cycles[:] = rng.choice(MICROS_SHOWN, out.cycles.shape)
    out.nodes[:] = rng.choice([-1, 0, 7, 123456789], out.nodes.shape)
    out.turns[:] = rng.integers(0, 22, out.turns.shape)
    seeds = (np.uint64(seed) << np.uint64(32)) | batch.games.astype(np.uint64)
    games = FusedGames(batch, seeds, out, 1 / MICROS)  # a cycle is a microsecond
    rows = []
    for g, task in enumerate(batch.tasks()):
        played = int(out.plies[g]) - len(task.opening)
        moves = task.opening + "".join(str(column + 1) for column in out.moves[g, :played])
        nodes = [None if n < 0 else n for n in out.nodes[g].tolist()]
        seconds = [round(c / MICROS, 6) for c in out.cycles[g].tolist()]
        rows.append(GameRow(task.game, task.pair, int(seeds[g]), task.agent_a, task.agent_b,
                            task.first, task.opening, moves, RESULTS[int(out.winners[g])],
                            ENDINGS[int(out.endings[g])], int(out.plies[g]), *seconds,
                            *nodes, *out.turns[g].tolist(), ""))
    return games, rows


@pytest.mark.parametrize(("openings", "agent_a", "seed"), [
    ("none", "random", 0),
    ("random:3", "negamax:depth=4,heuristic=threats+positional", 2**32 - 1),
    ("uniform:2", 'immediate-win:block=true', 7),
])
def test_the_rows_are_the_csv_modules(openings: str, agent_a: str, seed: int) -> None:
    games, rows = _games(openings, agent_a, seed)
    written = io.StringIO()
    csv.writer(written, lineterminator="\n").writerows(rows)
    text, hashes = games.text()
    assert text.decode("ascii") == written.getvalue()
    assert games.tally().wtl == (sum(r.result is Result.WIN for r in rows),
                                 sum(r.result is Result.DRAW for r in rows),
                                 sum(r.result is Result.LOSS for r in rows))
    from_rows = GameColumns.of_rows(rows)
    for mine, theirs in zip(games.columns(hashes), from_rows, strict=True):
        assert np.array_equal(mine, theirs)


def test_every_think_time_is_written_as_repr_writes_it() -> None:
    games, _ = _games("none", "random", 1)
    shown = np.array([*MICROS_SHOWN, *range(0, 3000), *range(999_000, 1_001_000)])
    for start in range(0, len(shown), len(games)):
        chunk = shown[start:start + len(games)]
        games.outcomes.cycles[:len(chunk)] = chunk[:, None]
        lines = games.text()[0].decode("ascii").splitlines()
        for micros, line in zip(chunk.tolist(), lines, strict=False):
            assert line.split(",")[11:13] == [repr(round(micros / MICROS, 6))] * 2, micros
