"""games.csv -> one summary row per pairing (agent A, agent B): results, Elo, forfeits, speed.

The file is read as a stream, so a run of millions of games is summarised in little memory.
The score interval, Elo, nElo and LOS come from pentanomial statistics when every game of the
pairing has its pair partner (paired openings, colours swapped), from trinomial statistics
otherwise (column ``elo_model``); column ``interval`` says whether the score interval
(score_low, score_high) is the normal approximation or the Wilson score interval, and
elo_low, elo_high are its bounds in Elo (see arena.stats.elo). A value that is undefined (nElo
without variance, its interval without the normal approximation) is nan in a row and blank in
summary.csv.
"""

from __future__ import annotations

import csv
import io
import math
from array import array
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from arena.rules.game_hash import move_hashes
from arena.rules.results import FORFEITS, Result, Side, Termination
from arena.runs.store.files import RunFiles
from arena.runs.store.meta import RunMeta
from arena.runs.store.model_usage import ModelUsage, usage_by_pairing
from arena.runs.store.rows import GameRow, read_rows
from arena.stats.elo import EloEstimate
from arena.stats.move_times import MoveTimes
from arena.stats.tally import Tally
from arena.system.files import file_digest, write_atomically

MODEL_TOTALS = ("requests", "cached", "retried", "invalid", "prompt_tokens",
                "completion_tokens", "cost")
"""A language model's totals in summary.csv (``llm_NAME_a``, ``llm_NAME_b``; blank for an
agent that is no language model, and the cost blank without a price): ``ModelUsage``'s."""

SUMMARY_COLUMNS = (
    "agent_a", "agent_b", "games", "wins", "draws", "losses",
    "score", "score_low", "score_high",
    "elo_model", "interval", "pairs", "elo", "elo_low", "elo_high", "nelo", "nelo_error", "los",
    *(f"{kind}_{side}" for kind in FORFEITS for side in ("a", "b")),
    "distinct_games", "mean_plies",
    "ms_per_move_a", "ms_per_move_b",
    *(f"ms_per_move_{figure}_{side}" for figure in ("median", "low", "high", "p90")
      for side in ("a", "b")),
    "nodes_per_move_a", "nodes_per_move_b",
    *(f"llm_{name}_{side}" for name in MODEL_TOTALS for side in ("a", "b")),
)


RESULT_CODES = (Result.DRAW, Result.WIN, Result.LOSS)
"""Agent A's results by their codes in ``GameColumns`` (the winning side + 1)."""
TERMINATION_CODES = tuple(Termination)
"""Terminations by their codes in ``GameColumns``."""
NO_VALUE = -1
"""A blank cell of ``GameColumns`` (no opening pair, no node count)."""


class GameColumns(NamedTuple):
    """Games of one pairing as the summary counts them, one entry per game."""

    games: np.ndarray  # int64: index in the run
    pairs: np.ndarray  # int64: opening pair, NO_VALUE without
    results: np.ndarray  # int8: agent A's result, a RESULT_CODES index
    terminations: np.ndarray  # int8: a TERMINATION_CODES index
    plies: np.ndarray  # int16
    seconds: np.ndarray  # float64 (games, 2): each side's think time, as in the row
    turns: np.ndarray  # int16 (games, 2)
    nodes: np.ndarray  # int64 (games, 2): NO_VALUE where not reported
    hashes: np.ndarray  # int64: who moved first and the moves (``move_hashes``)

    @classmethod
    def of_rows(cls, rows: Sequence[GameRow]) -> GameColumns:
        """The columns of some rows of one pairing."""
        moves = [row.moves.encode("ascii") for row in rows]
        lengths = np.array([len(text) for text in moves], dtype=np.int64)
        starts = np.cumsum(lengths) - lengths
        firsts = np.array([1 if row.first is Side.A else 2 for row in rows], dtype=np.int64)
        hashes = move_hashes(np.frombuffer(b"".join(moves) or b"-", dtype=np.uint8), starts,
                             lengths, firsts)

        def blank(value: int | None) -> int:
            return NO_VALUE if value is None else value

        return cls(
            np.array([row.game for row in rows], dtype=np.int64),
            np.array([blank(row.pair) for row in rows], dtype=np.int64),
            np.array([RESULT_CODES.index(row.result) for row in rows], dtype=np.int8),
            np.array([TERMINATION_CODES.index(row.termination) for row in rows], dtype=np.int8),
            np.array([row.plies for row in rows], dtype=np.int16),
            np.array([(row.time_a, row.time_b) for row in rows], dtype=np.float64),
            np.array([(row.turns_a, row.turns_b) for row in rows], dtype=np.int16),
            np.array([(blank(row.nodes_a), blank(row.nodes_b)) for row in rows],
                     dtype=np.int64).reshape(-1, 2), hashes)

    @classmethod
    def joined(cls, parts: Sequence[GameColumns]) -> GameColumns:
        """``parts`` as one, in the order of their games."""
        joined = cls(*(np.concatenate(column) for column in zip(*parts, strict=True)))
        if np.all(joined.games[1:] > joined.games[:-1]):
            return joined
        order = np.argsort(joined.games, kind="stable")
        return cls(*(column[order] for column in joined))


@dataclass
class Cost:
    """What one agent of a pairing spent: seconds, turns and nodes (when reported), and each
    game's milliseconds a move (``arena.stats.move_times``: games.csv times whole games)."""

    seconds: float = 0.0
    turns: int = 0
    nodes: int = 0
    turns_with_nodes: int = 0
    per_game: array[float] = field(default_factory=lambda: array("d"), repr=False)
    """Milliseconds a move in each game with a move of the agent's, 8 bytes a game."""

    def add(self, seconds: float, turns: int, nodes: int | None) -> None:
        """Add one game's figures."""
        self.seconds += seconds
        self.turns += turns
        if turns:
            self.per_game.append(1000.0 * seconds / turns)
        if nodes is not None:
            self.nodes += nodes
            self.turns_with_nodes += turns

    def add_games(self, seconds: np.ndarray, turns: np.ndarray, nodes: np.ndarray) -> None:
        """Add games' figures, in order, as ``add`` one by one would (the seconds summed one
        after the other, to the same last bit)."""
        self.seconds = float(np.cumsum(np.append(self.seconds, seconds))[-1])
        self.turns += int(turns.sum())
        moved = turns > 0
        self.per_game.frombytes((1000.0 * seconds[moved] / turns[moved]).astype(
            np.float64).tobytes())
        reported = nodes != NO_VALUE
        self.nodes += int(nodes[reported].sum())
        self.turns_with_nodes += int(turns[reported].sum())

    @property
    def ms_per_move(self) -> float:
        """Mean milliseconds per move (nan before any move): all the time over all the
        moves, which a game's stall dominates (``times`` has the median)."""
        return 1000.0 * self.seconds / self.turns if self.turns else math.nan

    @property
    def times(self) -> MoveTimes:
        """Milliseconds a move over the games: median, its 95% interval, 90th percentile,
        mean."""
        return MoveTimes.of_figures(np.frombuffer(self.per_game, dtype=np.float64),
                                    self.ms_per_move)

    @property
    def nodes_per_move(self) -> float | None:
        """Mean nodes per move over the games where the agent reported nodes, else None."""
        return self.nodes / self.turns_with_nodes if self.turns_with_nodes else None


@dataclass
class PairingSummary:
    """Everything summary.csv says about one pairing, accumulated game by game."""

    agent_a: str
    agent_b: str
    first_game: int
    tally: Tally = field(default_factory=Tally)  # agent A's, games and complete pairs
    forfeits: Counter[tuple[Termination, Side]] = field(default_factory=Counter)  # by loser
    adjudicated: int = 0  # games ended with the solver's result (not in summary.csv)
    plies: int = 0
    side_a: Cost = field(default_factory=Cost)
    side_b: Cost = field(default_factory=Cost)
    models: dict[Side, ModelUsage] = field(default_factory=dict)  # language models' totals
    _game_hashes: array[int] = field(default_factory=lambda: array("q"), repr=False)
    _half_pairs: dict[int, Result] = field(default_factory=dict, repr=False)
    _unpaired: int = 0

    def add(self, row: GameRow) -> None:
        """Count one game."""
        if row.game < self.first_game:
            self.first_game = row.game
        result = row.result
        self.tally.add(result)
        termination = row.termination
        if termination in FORFEITS:
            self.forfeits[(termination, Side.A if result is Result.LOSS else Side.B)] += 1
        elif termination is Termination.ADJUDICATED:
            self.adjudicated += 1
        self.plies += row.plies
        self.side_a.add(row.time_a, row.turns_a, row.nodes_a)
        self.side_b.add(row.time_b, row.turns_b, row.nodes_b)
        self._game_hashes.append(hash((row.first, row.moves)))  # 8 bytes a game
        pair = row.pair
        if pair is None:
            self._unpaired += 1
        elif pair in self._half_pairs:
            self.tally.add_pair(self._half_pairs.pop(pair), result)
        else:
            self._half_pairs[pair] = result

    def add_games(self, columns: GameColumns) -> None:
        """Count games in bulk, in the order of their games, as ``add`` counts them one by
        one (but for ``distinct_games``' hash, which only needs to tell games apart)."""
        if not len(columns.games):
            return
        self.first_game = min(self.first_game, int(columns.games.min()))
        results = columns.results
        draws, wins, losses = np.bincount(results, minlength=3).tolist()
        self.tally.wins += wins
        self.tally.draws += draws
        self.tally.losses += losses
        ending = columns.terminations
        for kind in FORFEITS:
            lost = ending == TERMINATION_CODES.index(kind)
            by_a = int(np.count_nonzero(lost & (results == RESULT_CODES.index(Result.LOSS))))
            self.forfeits[(kind, Side.A)] += by_a
            self.forfeits[(kind, Side.B)] += int(np.count_nonzero(lost)) - by_a
        self.adjudicated += int(np.count_nonzero(
            ending == TERMINATION_CODES.index(Termination.ADJUDICATED)))
        self.plies += int(columns.plies.sum())
        self.side_a.add_games(columns.seconds[:, 0], columns.turns[:, 0], columns.nodes[:, 0])
        self.side_b.add_games(columns.seconds[:, 1], columns.turns[:, 1], columns.nodes[:, 1])
        self._game_hashes.frombytes(columns.hashes.astype(np.int64).tobytes())
        self._add_pairs(columns.pairs, results)

    def _add_pairs(self, pairs: np.ndarray, results: np.ndarray) -> None:
        """Count the games' pairs: complete ones as pairs, the others as halves waiting."""
        paired = pairs != NO_VALUE
        self._unpaired += int(np.count_nonzero(~paired))
        pairs, results = pairs[paired], results[paired]
        order = np.argsort(pairs, kind="stable")
        pairs, results = pairs[order], results[order]
        whole = np.flatnonzero(pairs[1:] == pairs[:-1])
        codes = 3 * results[whole].astype(np.int64) + results[whole + 1]
        for code, count in enumerate(np.bincount(codes, minlength=9).tolist()):
            if count:
                self.tally.add_pair(RESULT_CODES[code // 3], RESULT_CODES[code % 3], count)
        single = np.ones(len(pairs), dtype=bool)
        single[whole] = single[whole + 1] = False
        for pair, code in zip(pairs[single].tolist(), results[single].tolist(), strict=True):
            result = RESULT_CODES[code]
            if pair in self._half_pairs:
                self.tally.add_pair(self._half_pairs.pop(pair), result)
            else:
                self._half_pairs[pair] = result

    @property
    def games(self) -> int:
        """Games counted."""
        return self.tally.games

    @property
    def wins(self) -> int:
        """Games agent A won."""
        return self.tally.wins

    @property
    def draws(self) -> int:
        """Games drawn."""
        return self.tally.draws

    @property
    def losses(self) -> int:
        """Games agent A lost."""
        return self.tally.losses

    @property
    def distinct_games(self) -> int:
        """Games that differ in who moved first or in their moves (counted by 64-bit hash)."""
        hashes = np.sort(np.frombuffer(self._game_hashes, dtype=np.int64))
        return int(len(hashes) > 0) + int(np.count_nonzero(hashes[1:] != hashes[:-1]))

    @property
    def paired(self) -> bool:
        """True when every game has its pair partner."""
        return any(self.tally.pairs) and not self._unpaired and not self._half_pairs

    @property
    def estimate(self) -> EloEstimate:
        """Elo, nElo and LOS of agent A: pentanomial when paired, trinomial otherwise."""
        return self.tally.pentanomial() if self.paired else self.tally.trinomial()

    def row(self) -> dict[str, Any]:
        """The pairing's row of summary.csv."""
        estimate = self.estimate
        score = self.tally.score
        times_a, times_b = self.side_a.times, self.side_b.times
        return {
            "agent_a": self.agent_a, "agent_b": self.agent_b, "games": self.games,
            "wins": self.wins, "draws": self.draws, "losses": self.losses,
            "score": score, "score_low": estimate.score_interval.low,
            "score_high": estimate.score_interval.high, "elo_model": estimate.kind,
            "interval": estimate.interval_method, "pairs": estimate.n if self.paired else "",
            "elo": estimate.elo, "elo_low": estimate.elo_interval.low,
            "elo_high": estimate.elo_interval.high, "nelo": estimate.nelo,
            "nelo_error": estimate.nelo_error, "los": estimate.los,
            **{f"{kind}_{side}": self.forfeits[(kind, side)] for kind in FORFEITS for side in Side},
            "distinct_games": self.distinct_games, "mean_plies": self.plies / self.games,
            "ms_per_move_a": self.side_a.ms_per_move, "ms_per_move_b": self.side_b.ms_per_move,
            **{f"ms_per_move_{figure}_{side}": getattr(times, figure)
               for figure in ("median", "low", "high", "p90")
               for side, times in (("a", times_a), ("b", times_b))},
            "nodes_per_move_a": _blank_if_none(self.side_a.nodes_per_move),
            "nodes_per_move_b": _blank_if_none(self.side_b.nodes_per_move),
            **{f"llm_{name}_{side}": _blank_if_none(getattr(self.models[side], name, None))
               if side in self.models else "" for name in MODEL_TOTALS for side in Side},
        }


def _blank_if_none(value: float | None) -> float | str:
    return "" if value is None else value


def csv_cells(row: dict[str, Any]) -> dict[str, Any]:
    """A row for a CSV file: undefined (nan) statistics become blank cells."""
    return {key: "" if isinstance(value, float) and math.isnan(value) else value
            for key, value in row.items()}


def seeds_line(agent_a: str, wins: int, draws: int, losses: int, agent_b: str,
               games: int) -> str:
    """The seeds' one-line result from A's point of view: ``A [W, T, L] B (N)``."""
    return f"{agent_a} [{wins}, {draws}, {losses}] {agent_b} ({games})"


def seeds_lines(summaries: Sequence[PairingSummary], labels: Mapping[str, str] | None = None
                ) -> list[str]:
    """The seeds' ``A [W, T, L] B (N)`` line of every pairing, the agents named by ``labels``
    (spec -> name; default their specs)."""
    names = labels or {}
    return [seeds_line(names.get(s.agent_a, s.agent_a), s.wins, s.draws, s.losses,
                       names.get(s.agent_b, s.agent_b), s.games) for s in summaries]


def wtl_text(counts: Sequence[int]) -> str:
    """W/T/L counts as the seeds write them: ``[W, T, L]``."""
    return f"[{', '.join(map(str, counts))}]"


def summarize(games_csv: Path, length: int | None = None) -> list[PairingSummary]:
    """One summary per pairing of a games.csv (of its first ``length`` bytes), in the order of
    the pairings' first games, with the language models' totals of its run directory."""
    pairings: dict[tuple[str, str], PairingSummary] = {}
    for row in read_rows(games_csv, length):
        summary = pairings.get((row.agent_a, row.agent_b))
        if summary is None:
            summary = pairings[(row.agent_a, row.agent_b)] = PairingSummary(
                row.agent_a, row.agent_b, row.game)
        summary.add(row)
    summaries = sorted(pairings.values(), key=lambda summary: summary.first_game)
    add_model_usage(summaries, RunFiles(games_csv.parent), length)
    return summaries


def model_totals(summaries: Sequence[PairingSummary]) -> dict[str, ModelUsage]:
    """Each language model's totals over every pairing it played, in order of first play."""
    totals: dict[str, ModelUsage] = {}
    for summary in summaries:
        for side, usage in sorted(summary.models.items()):
            agent = summary.agent_a if side is Side.A else summary.agent_b
            totals.setdefault(agent, ModelUsage()).merge(usage)
    return totals


def add_model_usage(summaries: Sequence[PairingSummary], files: RunFiles,
                    length: int | None = None) -> None:
    """Give each pairing the totals of its language models (``arena.runs.store.model_usage``,
    from the run's transcripts; games.csv's first ``length`` bytes)."""
    usage = usage_by_pairing(files, length)
    for summary in summaries:
        summary.models = usage.get((summary.agent_a, summary.agent_b), {})


class SummaryColumns:
    """The games a run writes, gathered by pairing as columns, to be summarised as
    ``summarize`` would summarise the games.csv that holds them, without reading it back.
    Rows wait until ``ROWS_AT_ONCE`` of them are turned into columns together (games handed
    over one by one would cost a set of arrays each)."""

    ROWS_AT_ONCE = 4096

    def __init__(self) -> None:
        self._parts: dict[tuple[str, str], list[GameColumns]] = {}
        self._rows: list[GameRow] = []

    def add(self, agent_a: str, agent_b: str, columns: GameColumns) -> None:
        """Gather games of agent A against agent B."""
        self._parts.setdefault((agent_a, agent_b), []).append(columns)

    def add_rows(self, rows: Sequence[GameRow]) -> None:
        """Gather games given as rows."""
        self._rows.extend(rows)
        if len(self._rows) >= self.ROWS_AT_ONCE:
            self._gather_rows()

    def _gather_rows(self) -> None:
        pairings: dict[tuple[str, str], list[GameRow]] = {}
        for row in self._rows:
            pairings.setdefault((row.agent_a, row.agent_b), []).append(row)
        self._rows = []
        for (agent_a, agent_b), games in pairings.items():
            self.add(agent_a, agent_b, GameColumns.of_rows(games))

    def summaries(self) -> list[PairingSummary]:
        """One summary per pairing, in the order of the pairings' first games (once: the
        columns are let go as they are counted)."""
        self._gather_rows()
        summaries = []
        while self._parts:  # each pairing's parts let go once joined
            (agent_a, agent_b), parts = self._parts.popitem()
            columns = GameColumns.joined(parts)
            del parts
            summary = PairingSummary(agent_a, agent_b, int(columns.games[0]))
            summary.add_games(columns)
            summaries.append(summary)
        return sorted(summaries, key=lambda summary: summary.first_game)


def summary_csv(summaries: list[PairingSummary]) -> str:
    """The text of summary.csv for ``summaries``."""
    text = io.StringIO()
    writer = csv.DictWriter(text, SUMMARY_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(csv_cells(summary.row()) for summary in summaries)
    return text.getvalue()


def write_summary(summaries: list[PairingSummary], path: Path) -> None:
    """Write summary.csv atomically (replacing it: it is derived from games.csv)."""
    write_atomically(path, summary_csv(summaries))


def summary_fingerprint(files: RunFiles, meta: RunMeta) -> dict[str, str]:
    """The digests of games.csv, summary.csv and the run's description, kept in meta.json:
    summary.csv is current (and untouched), and games.csv the run's own, only while they
    still match."""
    return {**{path.name: file_digest(path) for path in (files.games, files.summary)},
            "run": meta.description_digest()}


def games_as_left(files: RunFiles, meta: RunMeta) -> bool:
    """True when games.csv and the run's description are as the run left them when it last
    ended (their digests in meta.json): every row is the run's own, and a new check of them
    would find what the run wrote."""
    recorded = meta.summary
    return (recorded is not None and recorded.get("run") == meta.description_digest()
            and recorded.get(files.GAMES) == file_digest(files.games))


def current_summary(files: RunFiles, meta: RunMeta) -> bool:
    """True if summary.csv is the one written from games.csv as it is now."""
    return (meta.summary is not None and files.summary.is_file()
            and meta.summary == summary_fingerprint(files, meta))


@dataclass(frozen=True)
class Unanimous:
    """An agent that lost every one of its games by the same kind of forfeit."""

    agent: str
    termination: str
    example: str  # the error message of its first game


def unanimous_forfeits(*directories: Path) -> list[Unanimous]:
    """The agents of one or more finished runs (a tournament's rounds) each of whose games
    ended in its own forfeit, all of one kind (a broken agent, not a weak one). Found from the
    runs' summary.csv; games.csv is read only for a broken agent's first error message."""
    games: Counter[str] = Counter()
    forfeited: Counter[tuple[str, str]] = Counter()
    for directory in directories:
        with RunFiles(directory).summary.open(newline="") as file:
            for pairing in csv.DictReader(file):
                for side in ("a", "b"):
                    agent = pairing[f"agent_{side}"]
                    games[agent] += int(pairing["games"])
                    for kind in FORFEITS:
                        forfeited[agent, kind] += int(pairing[f"{kind}_{side}"])
    broken = {agent: kind for (agent, kind), count in forfeited.items()
              if count and count == games[agent]}
    examples = first_errors(directories, broken.items())
    return [Unanimous(agent, kind, examples.get((agent, kind), ""))
            for agent, kind in broken.items()]


def first_errors(directories: Sequence[Path], wanted: Iterable[tuple[str, str]]
                 ) -> dict[tuple[str, str], str]:
    """The error message of the first game (in the order of the runs' games.csv) each of
    ``wanted`` (an agent and a kind of forfeit, ``Termination``'s value) lost that way; the
    files are read only until every one is found."""
    missing = set(wanted)
    found: dict[tuple[str, str], str] = {}
    for row in (row for directory in directories if missing
                for row in read_rows(RunFiles(directory).games)):
        loser = row.loser
        if loser is None or row.termination not in FORFEITS:
            continue
        key = (row.agent_a if loser is Side.A else row.agent_b, str(row.termination))
        if key in missing:
            missing.discard(key)
            found[key] = row.error
            if not missing:
                break
    return found
