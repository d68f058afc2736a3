"""Sequential probability ratio tests: play game pairs until the answer is known.

``run_sprt`` plays agent A against agent B in colour-swapped opening pairs, batch after batch of
a fixed number of pairs. After each batch it checks the pentanomial log-likelihood ratio (LLR)
of all pairs so far, appends a row to ``sprt.csv``, and stops as soon as the LLR reaches a
bound, or when the plan's maximum of games is played.

Direction: A is the agent under test and B the baseline; as everywhere, statistics are from
A's point of view. H0 says A is ``elo0`` stronger than B, H1 that A is ``elo1`` stronger
(``elo0 < elo1``; a negative value means weaker). With ``elo0 = 0`` accepting H1 means "A is
stronger than B", wrongly so with probability about ``alpha``; accepting H0 means "A is not
``elo1`` stronger", wrongly so with probability about ``beta``. Elo values are normalized Elo
(nElo) under the normalized model and logistic Elo under the logistic model (arena.stats.elo).
The LLR is the exact generalised likelihood ratio of fishtest and fastchess unless the test
asks for the closed-form approximation (``llr='approximate'``); the choice is part of the run's
description in meta.json and of every sprt.csv row, so a run is never resumed with the other.

Where a test stops depends only on the plan and the test, not on the workers: a batch is
dispatched only once every game before it is in games.csv. Every session rebuilds sprt.csv
from games.csv, so an interrupted test resumes where it was and a finished one only rereads
its games.
"""

from __future__ import annotations

import csv
import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.rules.errors import ArenaError
from arena.rules.results import Result
from arena.runs.planning.openings import load_openings
from arena.runs.planning.plan import MatchPlan, Pairing, default_out_dir, plan_players
from arena.runs.planning.request import RunRequest
from arena.runs.playing.runner import MatchPlayed, Progress, run_games
from arena.runs.store.files import RunFiles
from arena.runs.store.rows import read_rows
from arena.runs.store.summary import PairingSummary, csv_cells
from arena.stats.elo import (
    DEFAULT_ALPHA,
    DEFAULT_BETA,
    DEFAULT_LLR,
    DEFAULT_MODEL,
    EloEstimate,
    LlrMethod,
    Model,
    SprtBounds,
    SprtResult,
    Verdict,
    check_hypotheses,
    sprt,
    sprt_bounds,
)
from arena.stats.sprt_options import SPRT_TEST_OPTIONS
from arena.stats.tally import Tally
from arena.system.options import Option, whole

__all__ = [
    "DEFAULT_BATCH_PAIRS", "DEFAULT_MAX_GAMES", "DEFAULT_SPRT_DIR",
    "NO_DECISION", "SPRT_COLUMNS", "SprtPlayed", "SprtSetupError", "SprtStep",
    "SprtTest", "check_sprt_plan", "default_sprt_dir", "run_sprt", "sprt_plan",
]

DEFAULT_MAX_GAMES = 20_000
"""Games played at most when no bound is reached: 10,000 pairs."""

DEFAULT_BATCH_PAIRS = 100
"""Game pairs between two looks at the LLR."""

DEFAULT_SPRT_DIR = Path("results") / "sprt"

SPRT_COLUMNS = ("batch", "games", "pairs", "llr", "llr_method", "lower", "upper", "verdict",
                "elo", "elo_low", "elo_high", "interval", "nelo", "nelo_error",
                "ll", "ld", "wl", "dd", "wd", "ww")
"""One row per batch; the estimates and pair counts are over every pair so far. ``llr_method``
is exact or approximate; ``interval`` says how elo_low and elo_high were found (normal or
wilson, see arena.stats.elo); nelo and nelo_error are blank where undefined (nan)."""

SPRT_OPTIONS: tuple[Option, ...] = (
    *SPRT_TEST_OPTIONS,
    Option("max_games", ("--max-games",),
           "Stop with no decision after this many games (even: whole pairs).",
           whole(minimum=2), DEFAULT_MAX_GAMES, show_default=True),
    Option("batch_pairs", ("--batch-pairs",),
           "Game pairs played between two looks at the LLR. Where the test stops depends on "
           "it, not on --jobs.", whole(minimum=1), DEFAULT_BATCH_PAIRS, show_default=True),
)
"""The options of an SPRT of games, declared once: the test's (``SPRT_TEST_OPTIONS``), its
maximum and its batches; ``arena sprt``'s options and the keys of an experiment file's
``[[sprt]]`` are made from them."""

NO_DECISION = "no decision"
"""The verdict of the last batch when the maximum is reached between the bounds."""


class SprtSetupError(ArenaError):
    """SPRT parameters, or a plan an SPRT cannot play, found before any game."""


@dataclass(frozen=True)
class SprtTest:
    """H0: A is ``elo0`` stronger than B, against H1: A is ``elo1`` stronger, checked after
    every ``batch_pairs`` game pairs; ``alpha`` is the chance of accepting H1 when H0 holds,
    ``beta`` that of accepting H0 when H1 holds; ``llr`` is how the log-likelihood ratio is
    computed (exact or approximate)."""

    elo0: float
    elo1: float
    alpha: float = DEFAULT_ALPHA
    beta: float = DEFAULT_BETA
    model: Model = DEFAULT_MODEL
    batch_pairs: int = DEFAULT_BATCH_PAIRS
    llr: LlrMethod = DEFAULT_LLR

    def __post_init__(self) -> None:
        try:
            check_hypotheses(self.elo0, self.elo1, self.model, self.llr)
        except ValueError as error:
            raise SprtSetupError(str(error)) from None
        for name, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0.0 < value < 1.0:
                raise SprtSetupError(f"{name} must lie strictly between 0 and 1, got {value}")
        if self.alpha + self.beta >= 1.0:
            raise SprtSetupError(
                f"alpha + beta must be below 1, got {self.alpha} + {self.beta}"
            )
        if isinstance(self.batch_pairs, bool) or not isinstance(self.batch_pairs, int) \
                or self.batch_pairs < 1:
            raise SprtSetupError(
                f"pairs per batch must be a whole number >= 1, got {self.batch_pairs!r}"
            )

    @property
    def bounds(self) -> SprtBounds:
        """The LLR bounds: H0 is accepted at or below ``lower``, H1 at or above ``upper``."""
        return sprt_bounds(self.alpha, self.beta)

    @property
    def unit(self) -> str:
        """What elo0 and elo1 measure: nElo (normalized model) or Elo (logistic)."""
        return "nElo" if self.model == "normalized" else "Elo"

    def describe(self) -> dict[str, Any]:
        """The test's part of the run's description (JSON-friendly, in meta.json)."""
        return {"sprt_elo0": self.elo0, "sprt_elo1": self.elo1, "sprt_alpha": self.alpha,
                "sprt_beta": self.beta, "sprt_model": self.model,
                "sprt_batch_pairs": self.batch_pairs, "sprt_llr": self.llr}

    def check(self, estimate: EloEstimate) -> SprtResult:
        """The SPRT check of a sample."""
        return sprt(estimate, self.elo0, self.elo1, self.alpha, self.beta, self.model,
                    self.llr)


@dataclass(frozen=True)
class SprtStep:
    """The test after batch ``batch``: the estimate over every pair so far and the check.

    ``final`` marks the batch that ends the plan's games.
    """

    batch: int
    estimate: EloEstimate
    result: SprtResult
    final: bool

    @property
    def verdict(self) -> str:
        """accept H0, accept H1, continue, or no decision (the maximum reached)."""
        if self.result.verdict is Verdict.CONTINUE and self.final:
            return NO_DECISION
        return str(self.result.verdict)

    @property
    def decided(self) -> bool:
        """True when a hypothesis is accepted."""
        return self.result.verdict is not Verdict.CONTINUE

    def row(self) -> dict[str, Any]:
        """The step's row of sprt.csv."""
        estimate, result = self.estimate, self.result
        return {
            "batch": self.batch, "games": estimate.games, "pairs": estimate.n,
            "llr": result.llr, "llr_method": result.method, "lower": result.bounds.lower,
            "upper": result.bounds.upper, "verdict": self.verdict, "elo": estimate.elo,
            "elo_low": estimate.elo_interval.low, "elo_high": estimate.elo_interval.high,
            "interval": estimate.interval_method, "nelo": estimate.nelo,
            "nelo_error": estimate.nelo_error,
            **dict(zip(SPRT_COLUMNS[-6:], estimate.counts, strict=True)),
        }


@dataclass
class SprtPlayed:
    """What ``run_sprt`` did: every step of the test (the last one decides) and the match."""

    directory: Path
    test: SprtTest
    steps: list[SprtStep]
    match: MatchPlayed
    max_games: int

    @property
    def last(self) -> SprtStep:
        """The step the test ended on."""
        return self.steps[-1]

    @property
    def summary(self) -> PairingSummary:
        """The summary of the games the test used."""
        return self.match.summaries[0]

    def conclusion(self, labels: Mapping[str, str] | None = None) -> str:
        """The verdict in words, naming the agents by ``labels`` (spec -> name; default
        their specs)."""
        a, b = self.summary.agent_a, self.summary.agent_b
        a, b = (labels or {}).get(a, a), (labels or {}).get(b, b)
        last, unit = self.last, self.test.unit
        if last.result.verdict is Verdict.ACCEPT_H1:
            return f"H1 accepted: {a} is {_more_than(self.test.elo0, unit)} {b}"
        if last.result.verdict is Verdict.ACCEPT_H0:
            return f"H0 accepted: {a} is {_less_than(self.test.elo1, unit)} {b}"
        bounds = last.result.bounds
        return (f"No decision after {last.estimate.games} games, the maximum: the LLR "
                f"{last.result.llr:.2f} stayed between {bounds.lower:.2f} and {bounds.upper:.2f}")


SprtRun = SprtPlayed
"""The earlier name of ``SprtPlayed`` (each class of a run says which part of it it is)."""


def _more_than(elo: float, unit: str) -> str:
    """How A relates to B when its advantage is above ``elo``."""
    if elo > 0:
        return f"more than {elo:g} {unit} stronger than"
    if elo < 0:
        return f"less than {-elo:g} {unit} weaker than"
    return "stronger than"


def _less_than(elo: float, unit: str) -> str:
    """How A relates to B when its advantage is below ``elo``."""
    if elo > 0:
        return f"not {elo:g} {unit} stronger than"
    if elo < 0:
        return f"more than {-elo:g} {unit} weaker than"
    return "not stronger than"


# --- the plan -------------------------------------------------------------------------


def sprt_plan(
    agent_a: str,
    agent_b: str,
    request: RunRequest | None = None,
    *,
    max_games: int = DEFAULT_MAX_GAMES,
) -> MatchPlan:
    """The games an SPRT of A against B may play under ``request``: ``max_games`` games in
    opening pairs (an SPRT's default openings unless the request names its own:
    ``RunRequest.openings_for``).

    Checks the agents (AgentSpecError, UnsupportedBoardError), the openings (OpeningsError)
    and the plan (SprtSetupError) before any game.
    """
    request = request or RunRequest()
    if request.first != "alternate":
        raise SprtSetupError(f"an SPRT plays game pairs, each agent moving first once; first "
                             f"{request.first!r} applies to a match")
    settings = request.settings()
    openings = request.openings_for("sprt")
    opening_set = load_openings(openings, settings.rules, settings.seed)
    if not opening_set.paired:
        raise SprtSetupError(
            f"openings {openings!r}: an SPRT plays game pairs (one opening, colours swapped); "
            "give random:K (e.g. random:8) or a file of move strings"
        )
    if isinstance(max_games, bool) or not isinstance(max_games, int) or max_games < 2 \
            or max_games % 2:
        raise SprtSetupError(
            f"the maximum number of games must be even and at least 2 (whole pairs), "
            f"got {max_games}"
        )
    player_a, player_b = plan_players((agent_a, agent_b), settings)
    name_a, name_b = player_a.name, player_b.name
    if name_a == name_b:
        raise SprtSetupError(
            f"A and B are both {name_a!r}: an SPRT tells two different agents apart (to pit "
            "an agent against itself, play a match)")
    plan = MatchPlan((Pairing(name_a, name_b, max_games),), settings, opening_set,
                     {name_a: player_a, name_b: player_b})
    check_sprt_plan(plan)
    return plan


def check_sprt_plan(plan: MatchPlan) -> None:
    """Refuse a plan that is not one pairing in whole, colour-swapped opening pairs."""
    if len(plan.pairings) != 1:
        raise SprtSetupError(f"an SPRT plays one pairing, got {len(plan.pairings)}")
    [pairing] = plan.pairings
    if not plan.openings.paired or pairing.first != "alternate" or pairing.games % 2:
        raise SprtSetupError(
            "an SPRT plays whole game pairs (openings, first mover alternating, an even "
            f"number of games); got openings {plan.openings.describe()['openings']}, first "
            f"{pairing.first}, {pairing.games} games"
        )


def default_sprt_dir(plan: MatchPlan, test: SprtTest, root: Path = DEFAULT_SPRT_DIR,
                     labels: Mapping[str, str] | None = None) -> Path:
    """A directory named after the games (as for a match) and a digest of the test."""
    base = default_out_dir(plan, root, labels)
    digest = hashlib.sha256(json.dumps(test.describe(), sort_keys=True).encode()).hexdigest()
    return base.with_name(f"{base.name}_sprt{digest[:8]}")


# --- running --------------------------------------------------------------------------


@dataclass
class _Monitor:
    """The SPRT as a stopping rule for ``run_games``: checks each batch, writes sprt.csv."""

    test: SprtTest
    directory: Path
    total: int
    on_step: Callable[[SprtStep], None] | None
    steps: list[SprtStep] = field(default_factory=list)
    _results: list[Result | None] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._results = [None] * self.total

    @property
    def stage(self) -> int:
        """Games per batch."""
        return 2 * self.test.batch_pairs

    def describe(self) -> dict[str, Any]:
        """The test's part of the run's description."""
        return self.test.describe()

    def stop(self, games: int) -> bool:
        """Check the test on games 0 to ``games - 1`` and record the step."""
        estimate = Tally.of_pairs(self._results_before(games)).pentanomial()
        step = SprtStep(len(self.steps) + 1, estimate, self.test.check(estimate),
                        final=games == self.total)
        self._write(step)
        self.steps.append(step)
        if self.on_step is not None:
            self.on_step(step)
        return step.decided

    def _results_before(self, games: int) -> list[Result]:
        """A's results in games 0 to ``games - 1``, read from games.csv when some are new."""
        if None in self._results[:games]:
            for row in read_rows(RunFiles(self.directory).games):
                self._results[row.game] = row.result
        return [result for result in self._results[:games] if result is not None]

    def _write(self, step: SprtStep) -> None:
        """Start sprt.csv afresh at the first batch, append to it after."""
        with RunFiles(self.directory).sprt.open("a" if self.steps else "w", newline="",
                                               encoding="utf-8") as file:
            writer = csv.DictWriter(file, SPRT_COLUMNS, lineterminator="\n")
            if not self.steps:
                writer.writeheader()
            writer.writerow(csv_cells(step.row()))


def run_sprt(
    plan: MatchPlan,
    test: SprtTest,
    out_dir: Path,
    request: RunRequest | None = None,
    *,
    progress: Progress | None = None,
    command: dict[str, Any] | None = None,
    on_step: Callable[[SprtStep], None] | None = None,
) -> SprtPlayed:
    """Play ``plan`` (see ``sprt_plan``) batch by batch until ``test`` accepts a hypothesis or
    the plan's games are all played; write sprt.csv besides games.csv, summary.csv and meta.json.

    Resumes the test already in ``out_dir``; refuses (RunDirectoryError) a directory holding
    another run or another test. ``on_step`` is told every step, those reread from an earlier
    session included.
    """
    check_sprt_plan(plan)
    monitor = _Monitor(test, Path(out_dir), plan.total, on_step)
    match = run_games(plan, Path(out_dir), request, progress=progress, command=command,
                      stopping=monitor)
    return SprtPlayed(Path(out_dir), test, monitor.steps, match, plan.total)
