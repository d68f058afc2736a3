"""Round robins and gauntlets: many pairings in one run, then a crosstable and Elo ratings.

A tournament is a ``MatchPlan`` with one pairing per pair of agents (a round robin: every
unordered pair once; a gauntlet: the first agent against each of the others), colours
alternating within each pairing. ``run_games`` plays all of it in one pool, so a tournament is
reproducible and resumable exactly like a match. From the games it then derives
``crosstable.csv`` (each agent's W/T/L and score against each opponent) and ``ratings.csv``
(Bradley-Terry Elo with bootstrap intervals, see ``arena.stats.ratings``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.protocol.players import canonical_player
from arena.rules.errors import ArenaError
from arena.rules.results import Result
from arena.runs.planning.openings import load_openings
from arena.runs.planning.plan import MatchPlan, Pairing, plan_player
from arena.runs.planning.player import Player
from arena.runs.planning.request import RunRequest
from arena.runs.planning.seeds import ratings_rng
from arena.runs.playing.runner import MatchPlayed, Progress, run_games
from arena.runs.store.files import RunFiles
from arena.runs.store.rows import games_table
from arena.stats.ratings import rate
from arena.stats.tally import Tally
from arena.system.files import write_atomically

if TYPE_CHECKING:
    import pandas as pd

DEFAULT_TOURNAMENTS_DIR = Path("results") / "tournaments"
CROSSTABLE_COLUMNS = ("agent", "opponent", "games", "wins", "draws", "losses", "points",
                      "score")
DEFAULT_ANCHOR = "random"
BOOTSTRAP = 1000
"""Bootstrap replicates behind the ratings' 95% intervals."""


class TournamentError(ArenaError):
    """A tournament that cannot be played: too few agents, one given twice, a bad anchor."""


FORMATS = ("round-robin", "gauntlet", "swiss", "knockout")
"""The tournament formats: the first two one run, the last two played in rounds."""


@dataclass(frozen=True)
class TournamentFormat:
    """A tournament's format, checked: one of ``FORMATS``, with its rounds for a Swiss."""

    name: str = "round-robin"
    rounds: int | None = None

    def __post_init__(self) -> None:
        if self.name not in FORMATS:
            raise TournamentError(f"unknown tournament format {self.name!r}: use one of "
                                  f"{', '.join(FORMATS)}")
        if self.rounds is not None and self.name != "swiss":
            raise TournamentError(f'rounds ({self.rounds}) are for format "swiss" only, not '
                                  f"{self.name!r}")
        if self.rounds is None and self.name == "swiss":
            raise TournamentError('format "swiss" needs its number of rounds')
        if self.rounds is not None and self.rounds < 1:
            raise TournamentError(
                f"a Swiss tournament needs at least one round, got {self.rounds}")

    @classmethod
    def of(cls, name: str = "round-robin", rounds: int | None = None,
           gauntlet: bool = False) -> TournamentFormat:
        """The format ``name`` (with its ``rounds``), or the gauntlet that ``gauntlet`` asks
        for beside the default round robin; TournamentError for a gauntlet beside another."""
        if gauntlet and name not in ("round-robin", "gauntlet"):
            raise TournamentError(f"gauntlet and format {name!r}: give one")
        return cls("gauntlet" if gauntlet else name, rounds)

    @property
    def in_rounds(self) -> bool:
        """Swiss or knockout: played round by round (``arena.competitions.rounds``)."""
        return self.name in ("swiss", "knockout")

    @property
    def gauntlet(self) -> bool:
        """The first agent against each of the others."""
        return self.name == "gauntlet"


def tournament_pairings(agents: Sequence[str], games: int,
                        gauntlet: bool = False) -> tuple[Pairing, ...]:
    """The pairings of a round robin (every pair once, in the order given) or a gauntlet
    (the first agent against each other one), ``games`` games each, colours alternating."""
    if len(agents) < 2:
        raise TournamentError(f"a tournament needs at least two agents, got {len(agents)}")
    if games % 2:
        raise TournamentError(
            f"games per pairing must be even so that colours are balanced, got {games}"
        )
    pairs = [(agents[0], other) for other in agents[1:]] if gauntlet else combinations(agents, 2)
    return tuple(Pairing(a, b, games) for a, b in pairs)


def tournament_plan(specs: Sequence[str], games: int, request: RunRequest | None = None,
                    gauntlet: bool = False) -> MatchPlan:
    """The plan of a tournament of ``specs`` (checked, and canonical in the plan) under
    ``request`` (its board, seed, openings and limits).

    Raises AgentSpecError or UnsupportedBoardError for a bad agent, TournamentError for an
    agent given twice (under any spelling) or a first mover other than alternate.
    """
    request = request or RunRequest()
    if request.first != "alternate":
        raise TournamentError(f"a tournament alternates the first move within each pairing; "
                              f"first {request.first!r} applies to a match")
    settings = request.settings()
    names: dict[str, str] = {}
    players: dict[str, Player] = {}
    for text in specs:
        player = plan_player(text, settings)
        if player.name in names:
            raise TournamentError(
                f"agent {player.name!r} is given twice ({names[player.name]!r} and {text!r}); "
                "a tournament needs distinct agents"
            )
        names[player.name], players[player.name] = text, player
    return MatchPlan(tournament_pairings(list(names), games, gauntlet), settings,
                     load_openings(request.openings_for("tournament"), settings.rules,
                                   settings.seed), players)


def resolve_anchor(anchor: str | None, agents: Sequence[str], engines: object = None
                   ) -> str | None:
    """The agent whose rating is 0: ``anchor`` (any spelling of one of ``agents``), else
    ``random`` when it plays, else None (the field's mean is 0)."""
    if anchor is None:
        return DEFAULT_ANCHOR if DEFAULT_ANCHOR in agents else None
    name = canonical_player(anchor, engines=engines)
    if name not in agents:
        raise TournamentError(
            f"anchor {anchor!r} is not one of the agents ({', '.join(agents)})"
        )
    return name


def crosstable(games: pd.DataFrame, order: Sequence[str]) -> pd.DataFrame:
    """One row per agent and opponent that met (in ``order``, agents not in it last): games,
    W/T/L, points, score, from the row agent's point of view. Games of an agent against
    itself are left out."""
    import pandas as pd

    tallies: dict[tuple[str, str], Tally] = {}
    for a, b, text in zip(games["agent_a"], games["agent_b"], games["result"], strict=True):
        if a == b:
            continue
        result = Result(text)
        tallies.setdefault((a, b), Tally()).add(result)
        tallies.setdefault((b, a), Tally()).add(result.flip())
    rank = {agent: i for i, agent in enumerate(order)}

    def place(item: tuple[tuple[str, str], Tally]) -> tuple[int, int]:
        (agent, opponent), _ = item
        return rank.get(agent, len(rank)), rank.get(opponent, len(rank))

    rows = [(agent, opponent, tally.games, *tally.wtl, tally.points, tally.score)
            for (agent, opponent), tally in sorted(tallies.items(), key=place)]
    return pd.DataFrame(rows, columns=list(CROSSTABLE_COLUMNS))


@dataclass(frozen=True)
class Standings:
    """A tournament's derived tables: ratings (best first) and the crosstable in that order."""

    ratings: pd.DataFrame
    crosstable: pd.DataFrame


def write_standings(directory: Path, anchor: str | None, seed: int,
                    games: pd.DataFrame | None = None) -> Standings:
    """Rate the agents of the run in ``directory`` (or of ``games``, the games of a tournament
    played in rounds) and write ratings.csv and crosstable.csv there (replacing them: they are
    derived from the games)."""
    if games is None:
        games = games_table(RunFiles(directory).games)  # the run has just checked it
    ratings = rate(games, anchor=anchor, rng=ratings_rng(seed), bootstrap=BOOTSTRAP)
    table = crosstable(games, list(ratings["agent"]))
    files = RunFiles(directory)
    write_atomically(files.ratings, ratings.to_csv(index=False))
    write_atomically(files.crosstable, table.to_csv(index=False))
    return Standings(ratings, table)


@dataclass
class TournamentPlayed:
    """What ``run_tournament`` did: the match run (directory, games played, summaries), the
    anchor used and the standings."""

    run: MatchPlayed
    anchor: str | None
    standings: Standings


TournamentRun = TournamentPlayed
"""The earlier name of ``TournamentPlayed`` (each class of a run says which part of it it is)."""


def run_tournament(
    plan: MatchPlan,
    out_dir: Path,
    request: RunRequest | None = None,
    *,
    anchor: str | None = None,
    progress: Progress | None = None,
    command: dict[str, Any] | None = None,
) -> TournamentPlayed:
    """Play the games of ``plan`` that ``out_dir`` lacks (see ``run_games``), then write
    ratings.csv (anchored as ``resolve_anchor`` says) and crosstable.csv."""
    anchored = resolve_anchor(anchor, plan.specs, plan.settings.engines)
    run = run_games(plan, out_dir, request, progress=progress, command=command)
    return TournamentPlayed(run, anchored, write_standings(out_dir, anchored, plan.settings.seed))
