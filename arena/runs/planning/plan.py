"""The plan of a run: every game numbered, with its pairing, first mover, opening and seed.

A ``MatchPlan`` numbers every game of a run. Game ``i`` is fully decided by the plan and ``i``: its
pairing, who moves first, its opening and its seed (from the run seed and ``i``), so a run gives
the same games whatever the number of workers, the backend, the batching or the order in which
games finish.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from arena.hosting.base import HOSTINGS, Hosting
from arena.hosting.engines.engines_file import EnginesTable
from arena.protocol.labels import short_names
from arena.rules.board import DEFAULT_RULES, Rules
from arena.rules.results import Side
from arena.runs.planning.description import (
    FIRST_CHOICES,
    First,
    MatchSetupError,
    Pairing,
    RunDescription,
)
from arena.runs.planning.openings import FileOpenings, NoOpenings, OpeningSet, load_openings
from arena.runs.planning.player import Player, make_player, make_players
from arena.runs.planning.seeds import DEFAULT_SEED, GAME_BITS, MAX_SEED

DEFAULT_RESULTS_DIR = Path("results") / "matches"


@dataclass(frozen=True)
class GameSettings:
    """What every game of a run shares; sent to the workers with each batch."""

    rules: Rules = DEFAULT_RULES
    seed: int = DEFAULT_SEED
    time_per_move: float | None = None
    time_bank: float | None = None
    hosting: Hosting = "auto"
    engines: EnginesTable | None = None
    """The engines that ``engine:NAME`` names (``--engines FILE``), for every worker."""
    adjudicate: int | None = None
    """The ply at which games end with the result the exact solver proves (None: never)."""
    run_dir: str | None = None
    """The run directory, told to the agents (``GameStart.run_dir``); set by the runner, no
    part of the run's description."""
    no_cache: bool = False
    """The run's ``--no-cache``, told to the agents (``GameStart.no_cache``)."""
    concurrency: int = 1
    """Hosted games in flight at once in a worker, each in a thread (``--concurrency``)."""

    def __post_init__(self) -> None:
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or \
                not 0 <= self.seed <= MAX_SEED:
            raise MatchSetupError(
                f"seed must be a whole number >= 0 and at most {MAX_SEED} (2**{GAME_BITS} - 1: "
                f"a game's seed, seed * 2**{GAME_BITS} + game, fits in 64 bits), got "
                f"{self.seed!r}")
        if self.time_per_move is not None and not (_finite(self.time_per_move)
                                                   and self.time_per_move > 0):
            raise MatchSetupError("time per move must be a finite number of seconds > 0, got "
                                  f"{self.time_per_move!r}")
        if self.time_bank is not None and not (_finite(self.time_bank) and self.time_bank >= 0):
            raise MatchSetupError("time bank must be a finite number of seconds >= 0, got "
                                  f"{self.time_bank!r}")
        if self.adjudicate is not None and (isinstance(self.adjudicate, bool)
                                            or not isinstance(self.adjudicate, int)
                                            or self.adjudicate < 0):
            raise MatchSetupError(
                f"adjudication ply must be a whole number >= 0, got {self.adjudicate!r}")
        cells = self.rules.rows * self.rules.cols
        if self.adjudicate is not None and self.adjudicate >= cells:
            raise MatchSetupError(
                f"adjudication ply {self.adjudicate}: no game on {self.rules} reaches it (its "
                f"{cells} cells are full at ply {cells}, and the game is over); give a ply "
                f"below {cells}")
        if self.hosting not in HOSTINGS:
            raise MatchSetupError(
                f"hosting {self.hosting!r}: expected one of {', '.join(HOSTINGS)}"
            )


def _finite(value: object) -> bool:
    """True for a finite real number (not a bool, not infinity, not NaN)."""
    return isinstance(value, int | float) and not isinstance(value, bool) \
        and math.isfinite(value)


class GameTask(NamedTuple):
    """One game to play: everything a worker needs besides the shared settings."""

    game: int
    agent_a: str
    agent_b: str
    first: Side  # who moves first
    pair: int | None
    opening: str


@dataclass(frozen=True)
class GameBatch:
    """Games of a run as columns, one entry per game (``MatchPlan.batch``): what a worker
    needs besides the shared settings, without a Python object per game."""

    games: np.ndarray  # int64: the games' indices in the run
    pairings: np.ndarray  # int64: each game's pairing, an index into ``agents``
    a_first: np.ndarray  # bool: agent A moves first
    pairs: np.ndarray  # int64: the opening pair, NO_PAIR without paired openings
    opening_index: np.ndarray  # int64: each game's opening, an index into ``openings``
    openings: tuple[str, ...]  # the batch's distinct openings
    agents: tuple[tuple[str, str], ...]  # agents A and B of every pairing of the plan
    players: tuple[tuple[Player, Player], ...] = ()
    """The players A and B of every pairing of the plan (none from a plan without them:
    ``MatchPlan.with_players``)."""

    def __len__(self) -> int:
        return len(self.games)

    def select(self, chosen: np.ndarray) -> GameBatch:
        """The games at the positions (or mask) ``chosen``."""
        return GameBatch(self.games[chosen], self.pairings[chosen], self.a_first[chosen],
                         self.pairs[chosen], self.opening_index[chosen], self.openings,
                         self.agents, self.players)

    def tasks(self) -> list[GameTask]:
        """The games one by one, as ``MatchPlan.task`` gives them."""
        return [GameTask(game, self.agents[pairing][0], self.agents[pairing][1],
                         Side.A if a_first else Side.B,
                         None if pair == NO_PAIR else pair, self.openings[opening])
                for game, pairing, a_first, pair, opening in zip(
                    self.games.tolist(), self.pairings.tolist(), self.a_first.tolist(),
                    self.pairs.tolist(), self.opening_index.tolist(), strict=True)]


NO_PAIR = -1
"""``GameBatch.pairs`` of a game without paired openings."""


class _Segment(NamedTuple):
    """Rounds in which the same pairings play: from game ``game`` and round ``round``."""

    game: int
    round: int
    pairings: tuple[int, ...]


@dataclass(frozen=True)
class MatchPlan:
    """Every game of a run, numbered from 0 in rounds: round ``r`` holds game ``r`` of every
    pairing that has more than ``r`` games, in pairing order.

    With one pairing, game ``i`` is its game ``i``; in a tournament every pairing advances
    together, and a plan with more games per pairing numbers the games of one with fewer
    alike, so a run can be extended. Within a pairing, its game ``j`` uses opening pair
    ``j // 2`` when the openings are paired, and with ``first="alternate"`` agent A moves
    first when ``j`` is even. Every pairing plays the same paired openings; unpaired ones
    (``uniform:K``) are each game's own, by its index in the run.
    """

    pairings: tuple[Pairing, ...]
    settings: GameSettings = GameSettings()
    openings: OpeningSet = field(default_factory=NoOpenings)
    players: Mapping[str, Player] = field(default_factory=dict, repr=False, compare=False)
    """The players the pairings name, by name, made when the plan is made (a plan made from
    names alone, as one read from meta.json, has none: ``with_players``)."""

    _segments: tuple[_Segment, ...] = field(init=False, repr=False, compare=False)
    _total: int = field(init=False, repr=False, compare=False)
    _paired: tuple[tuple[Player, Player], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        segments, game, round_ = [], 0, 0
        for count in sorted({p.games for p in self.pairings}):
            playing = tuple(i for i, p in enumerate(self.pairings) if p.games >= count)
            segments.append(_Segment(game, round_, playing))
            game += (count - round_) * len(playing)
            round_ = count
        if not self.pairings or game >= 1 << GAME_BITS:
            raise MatchSetupError(f"a run holds 1 to {(1 << GAME_BITS) - 1} games, got {game}")
        object.__setattr__(self, "_segments", tuple(segments))
        object.__setattr__(self, "_total", game)
        paired = tuple((self.players.get(p.agent_a), self.players.get(p.agent_b))
                       for p in self.pairings)
        object.__setattr__(self, "_paired", () if any(None in pair for pair in paired)
                           else paired)

    @property
    def total(self) -> int:
        """The number of games in the run."""
        return self._total

    @property
    def specs(self) -> list[str]:
        """Every agent spec in the plan, once each, in order of appearance."""
        return list(dict.fromkeys(s for p in self.pairings for s in (p.agent_a, p.agent_b)))

    def with_players(self) -> MatchPlan:
        """This plan with a ``Player`` for every name in its pairings: its own, and those it
        lacks made here from their names (each parsed once; its agents are not built)."""
        missing = [name for name in self.specs if name not in self.players]
        if not missing:
            return self
        settings = self.settings
        made = make_players(missing, None, settings.engines, settings.time_per_move)
        return replace(self, players={**self.players, **{p.name: p for p in made}})

    def description(self) -> RunDescription:
        """What decides the games: equal descriptions give equal games."""
        settings = self.settings
        openings = self.openings.describe()
        return RunDescription(
            self.pairings, self.total, settings.seed, settings.rules,
            time_per_move=settings.time_per_move, time_bank=settings.time_bank,
            adjudicate=settings.adjudicate, openings=openings["openings"],
            openings_count=openings.get("count"), openings_sha256=openings.get("sha256"))

    def describe(self) -> dict[str, Any]:
        """The description as JSON (meta.json's ``run``): ``description().to_json()``."""
        return self.description().to_json()

    def task(self, game: int) -> GameTask:
        """Game ``game`` of the run."""
        if not 0 <= game < self.total:
            raise IndexError(f"game {game} is not in a run of {self.total} games")
        segment = self._segments[bisect.bisect_right(self._segments, (game, math.inf)) - 1]
        offset = game - segment.game
        pairing = self.pairings[segment.pairings[offset % len(segment.pairings)]]
        local = segment.round + offset // len(segment.pairings)
        a_first = pairing.first == "a" or (pairing.first == "alternate" and local % 2 == 0)
        pair = local // 2 if self.openings.paired else None
        opening = self.openings.opening(game if pair is None else pair)
        return GameTask(game, pairing.agent_a, pairing.agent_b, Side.A if a_first else Side.B,
                        pair, opening)

    def batch(self, games: np.ndarray) -> GameBatch:
        """Games ``games`` of the run (indices in range), as ``task`` gives them one by one."""
        games = np.asarray(games, dtype=np.int64)
        if len(games) and not (games.min() >= 0 and games.max() < self.total):
            raise IndexError(f"games {games.min()} to {games.max()} are not all in a run of "
                             f"{self.total} games")
        starts = np.array([segment.game for segment in self._segments], dtype=np.int64)
        pairings, local = np.zeros_like(games), np.zeros_like(games)
        which = np.searchsorted(starts, games, side="right") - 1
        for index, segment in enumerate(self._segments):
            chosen = which == index
            offset = games[chosen] - segment.game
            count = len(segment.pairings)
            pairings[chosen] = np.array(segment.pairings, dtype=np.int64)[offset % count]
            local[chosen] = segment.round + offset // count
        codes = np.array([FIRST_CHOICES.index(p.first) for p in self.pairings])[pairings]
        a_first = (codes == FIRST_CHOICES.index("a")) | (
            (codes == FIRST_CHOICES.index("alternate")) & (local % 2 == 0))
        paired = self.openings.paired
        pairs = local // 2 if paired else np.full_like(games, NO_PAIR)
        if isinstance(self.openings, NoOpenings):
            openings: tuple[str, ...] = ("",)
            opening_index = np.zeros_like(games)
        else:
            keys, opening_index = np.unique(pairs if paired else games, return_inverse=True)
            openings = tuple(self.openings.opening(key) for key in keys.tolist())
        return GameBatch(games, pairings, a_first, pairs, opening_index.astype(np.int64),
                         openings, tuple((p.agent_a, p.agent_b) for p in self.pairings),
                         self._paired)


NAME_LENGTH = 48
"""Characters of a run directory's readable part, at most."""


def default_out_dir(plan: MatchPlan, root: Path = DEFAULT_RESULTS_DIR,
                    labels: Mapping[str, str] | None = None) -> Path:
    """A short directory named after the run: its agents (their labels: the user's names, or
    short names), its seed, and a digest of everything that decides its games but their
    number (the same command with more games extends it), e.g.
    ``negamax-d4-threats+positional-vs-negamax-d4_seed42_a441b1d5``."""
    description = plan.describe()
    description.pop("games")
    description["pairings"] = [[a, b, first] for a, b, _, first in description["pairings"]]
    digest = hashlib.sha256(json.dumps(description, sort_keys=True).encode()).hexdigest()
    names = short_names(plan.specs, given=labels)
    if len(plan.pairings) == 1:
        pairing = plan.pairings[0]
        readable = f"{_slug(names[pairing.agent_a])}-vs-{_slug(names[pairing.agent_b])}"
    else:
        readable = f"{len(plan.specs)}-agents-" + "-".join(_slug(names[s]) for s in plan.specs)
    if len(readable) > NAME_LENGTH:  # cut between words where it can be
        cut = readable[:NAME_LENGTH]
        readable = cut[:cut.rfind("-")] if cut.rfind("-") > NAME_LENGTH // 2 else cut
    return root / f"{readable.strip('-.')}_seed{plan.settings.seed}_{digest[:8]}"


def _slug(name: str) -> str:
    """A name as a piece of a directory name: letters, digits and + = . - only."""
    return re.sub(r"[^A-Za-z0-9=+.]+", "-", name).strip("-") or "agent"


def plan_players(texts: Sequence[str], settings: GameSettings) -> list[Player]:
    """The players ``texts`` name, for a plan with ``settings``: one per text, each parsed
    once, checked on the board and named canonically (``make_players``)."""
    return make_players(texts, settings.rules, settings.engines, settings.time_per_move)


def plan_player(text: str, settings: GameSettings) -> Player:
    """The player ``text`` names, for a plan with ``settings`` (``plan_players``)."""
    return make_player(text, settings.rules, settings.engines, settings.time_per_move)


def match_plan(agent_a: str, agent_b: str, games: int, settings: GameSettings,
               openings: str = "none", first: First = "alternate") -> MatchPlan:
    """The plan of ``games`` games of ``agent_a`` against ``agent_b`` (players checked and
    named canonically; openings as ``--openings`` takes them)."""
    player_a, player_b = plan_players((agent_a, agent_b), settings)
    return MatchPlan((Pairing(player_a.name, player_b.name, games, first),), settings,
                     load_openings(openings, settings.rules, settings.seed),
                     {player_a.name: player_a, player_b.name: player_b})


def plan_from_description(run: RunDescription | Mapping[str, Any],
                          opening_moves: Sequence[str] | None = None) -> MatchPlan:
    """The plan a run description (``MatchPlan.description``, kept in meta.json, or its JSON
    object) stands for; ``opening_moves`` are the openings of a run from an openings file.

    KeyError, TypeError or ValueError (an ArenaError among them) if it describes no plan.
    """
    run = RunDescription.from_json(run)
    settings = GameSettings(rules=run.rules, seed=run.seed, time_per_move=run.time_per_move,
                            time_bank=run.time_bank, adjudicate=run.adjudicate)
    if run.openings == "file":
        if not opening_moves:
            raise ValueError("the run's openings file is not recorded")
        openings: OpeningSet = FileOpenings(Path(), tuple(opening_moves))
    else:
        openings = load_openings(run.openings, run.rules, settings.seed)
    return MatchPlan(run.pairings, settings, openings)
