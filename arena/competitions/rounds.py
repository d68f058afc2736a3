"""Tournaments played round by round, each round paired from the results so far: Swiss and
knockout.

**Swiss**: every round, the agents are ranked by points so far (ties in the order given) and
the highest unpaired one meets the next one it has not met yet, so that no two meet again
while that can be avoided (else neighbours in the ranking meet); with an odd number, the
lowest-ranked agent that has not had a bye sits out and scores the round's games as won.

**Knockout**: in the first round, the top seeds (the order given) that bring the others to a
power of two sit out (three of five, two of six: a bracket of eight), so that every later
round pairs them all; the agents in a round meet first against last, second against
second-to-last (in seeding order); the one with more points goes through, the better seed on
a tie.

Every pairing plays ``games`` games with colours alternating. Each round is a run of its own
(``round-01``, ``round-02``, ... under the tournament's directory), so a round is reproducible
and resumable like a match, and the same command again rereads the finished rounds (the same
results give the same pairings) and goes on. At the top, rounds.csv, games.csv and
summary.csv cover every round (``round_tables``), and the ratings and the crosstable are
those of every game, written as a round robin's are (``write_standings``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from arena.competitions.round_tables import (
    HeldTournament,
    RoundRow,
    held_tournament,
    write_round_tables,
)
from arena.competitions.tournaments import (
    Standings,
    TournamentError,
    TournamentFormat,
    resolve_anchor,
    tournament_plan,
    write_standings,
)
from arena.runs.planning.description import RunDescription
from arena.runs.planning.plan import MatchPlan, Pairing
from arena.runs.planning.request import RunRequest
from arena.runs.playing.runner import MatchPlayed, Progress, run_games
from arena.runs.store.files import RunFiles
from arena.runs.store.rows import games_table
from arena.runs.store.summary import PairingSummary
from arena.stats.tally import Tally

__all__ = ["RoundsPlayed", "check_rounds_directory", "knockout_pairings", "planned_games",
           "run_rounds", "swiss_pairings"]


def swiss_pairings(ranked: Sequence[str], met: set[frozenset[str]],
                   byes: set[str]) -> tuple[list[tuple[str, str]], str | None]:
    """One Swiss round: the pairs (in ``ranked`` order, best first) and the agent that sits
    out (None with an even number); ``met`` holds the pairs that have played, ``byes`` the
    agents that have sat out."""
    waiting = list(ranked)
    bye = None
    if len(waiting) % 2:
        bye = next((a for a in reversed(waiting) if a not in byes), waiting[-1])
        waiting.remove(bye)
    fresh = _fresh_pairs(waiting, met)
    if fresh is not None:
        return fresh, bye
    return [(waiting[i], waiting[i + 1]) for i in range(0, len(waiting), 2)], bye


def _fresh_pairs(waiting: list[str], met: set[frozenset[str]]) -> list[tuple[str, str]] | None:
    """Pairs of ``waiting`` (an even number) none of which has met, the first agent with the
    highest-ranked one it can meet and so on down (backtracking), or None if there are none."""
    if not waiting:
        return []
    first, rest = waiting[0], waiting[1:]
    for partner in rest:
        if frozenset((first, partner)) not in met:
            others = _fresh_pairs([agent for agent in rest if agent != partner], met)
            if others is not None:
                return [(first, partner), *others]
    return None


def knockout_pairings(alive: Sequence[str]) -> tuple[list[tuple[str, str]], list[str]]:
    """One knockout round of ``alive`` (in seeding order): the top seeds that bring the
    others to a power of two sit out (in the first round; none after it), and the others
    meet first against last, second against second-to-last, ..."""
    bracket = 1 << (len(alive) - 1).bit_length()  # the smallest power of two that holds them
    sitting = list(alive[: bracket - len(alive)])
    waiting = list(alive[len(sitting):])
    half = len(waiting) // 2
    return [(waiting[i], waiting[-1 - i]) for i in range(half)], sitting


@dataclass
class RoundsPlayed:
    """What ``run_rounds`` did: each round's pairings' summaries and who sat it out, the
    standings of every game, for a knockout the winner, the games this call played (0: the
    tournament was complete already) and the first round's description (the board,
    openings and limits of every round)."""

    directory: Path
    rounds: list[tuple[list[PairingSummary], list[str]]]
    standings: Standings
    winner: str | None
    anchor: str | None
    played: int
    description: RunDescription


RoundsRun = RoundsPlayed
"""The earlier name of ``RoundsPlayed`` (each class of a run says which part of it it is)."""


def check_rounds_directory(directory: Path, agents: Sequence[str], games: int,
                           swiss: int | None) -> None:
    """Refuse (TournamentError), before any game, a directory that holds a run of its own (a
    tournament in rounds would write its tables over that run's), a tournament in rounds of
    another format (``swiss`` None: a knockout), other agents (canonical ``agents``) or other
    ``games`` a pairing (its later rounds were paired from its own results), or a Swiss
    tournament played further than ``swiss`` rounds (its top tables would leave the later
    rounds out)."""
    files = RunFiles(directory)
    if files.meta.exists():
        raise TournamentError(f"{directory} holds a run of its own ({RunFiles.META}), not a "
                              "tournament in rounds; give another --out")
    held = held_tournament(directory)
    if held is not None:
        _check_held(directory, held, agents, games, swiss is None)
    if swiss is not None and files.round(swiss + 1).is_dir():
        last = swiss + 1
        while files.round(last + 1).is_dir():
            last += 1
        raise TournamentError(f"{directory} holds {last} rounds of a Swiss tournament, more "
                              f"than the {swiss} asked for: ask for {last} or more, or give "
                              "another --out")


def _check_held(directory: Path, held: HeldTournament, agents: Sequence[str], games: int,
                knockout: bool) -> None:
    """Refuse a tournament in rounds whose format, agents or games a pairing differ."""
    if held.knockout != knockout:
        kinds = ("a Swiss", "a knockout")
        raise TournamentError(f"{directory} holds {kinds[held.knockout]} tournament, not "
                              f"{kinds[knockout]}; give another --out")
    if held.agents != set(agents):
        raise TournamentError(f"{directory} holds a tournament of {', '.join(sorted(held.agents))}"
                              f", not of {', '.join(sorted(agents))}; give another --out")
    if held.games != {games}:
        counts = ", ".join(map(str, sorted(held.games)))
        raise TournamentError(f"{directory} holds a tournament of {counts} games a pairing, not "
                              f"{games} (its rounds were paired from their results); give -n "
                              f"{counts} or another --out")


def planned_games(agents: int, games: int, swiss: int | None) -> int:
    """The games of a Swiss tournament of ``swiss`` rounds (without it, a knockout) of
    ``agents`` agents, ``games`` per pairing: every round pairs all but a bye; a knockout's
    pairings each put one agent out."""
    return (swiss * (agents // 2) if swiss is not None else agents - 1) * games


@dataclass
class _Across:
    """Each round's progress told as that of the whole tournament: the bar opens at the
    first round's start, and later rounds' games already on disk count as done."""

    progress: Progress
    total: int
    opened: bool = False

    def start(self, total: int, finished: int) -> None:
        """A round starts with ``finished`` of its ``total`` games on disk."""
        if not self.opened:
            self.opened = True
            self.progress.start(self.total, finished)
        elif finished:
            self.progress.advance(finished, Tally())

    def advance(self, games: int, tally: Tally) -> None:
        """``games`` more games of the round are on disk."""
        self.progress.advance(games, tally)

    def stopping(self) -> None:
        """The user's first Ctrl-C."""
        self.progress.stopping()


def _round_plan(plan: MatchPlan, pairs: list[tuple[str, str]], games: int,
                number: int) -> MatchPlan:
    """The plan of one round: ``pairs`` of the tournament's agents, its seed moved on by the
    round's number (every round plays other games)."""
    settings = dataclasses.replace(plan.settings, seed=(plan.settings.seed + number - 1) % 2**32)
    return dataclasses.replace(plan, pairings=tuple(Pairing(a, b, games) for a, b in pairs),
                               settings=settings)


def run_rounds(specs: Sequence[str], games: int, request: RunRequest, directory: Path, *,
               swiss: int | None = None, anchor: str | None = None,
               progress: Progress | None = None,
               command: dict[str, Any] | None = None) -> RoundsPlayed:
    """A Swiss tournament of ``swiss`` rounds, or without it a knockout, of ``specs`` (see the
    module's docstring), played under ``directory``; then the tables at its top
    (``round_tables``), the ratings and the crosstable. ``progress`` is told about the
    games of every round as one run's; ``command`` is recorded in each round's meta.json."""
    TournamentFormat("knockout" if swiss is None else "swiss", swiss)  # checks the rounds
    plan = tournament_plan(specs, games, request)  # checks the agents; its pairings unused
    agents = list(plan.specs)
    check_rounds_directory(directory, agents, games, swiss)
    anchored = resolve_anchor(anchor, agents, plan.settings.engines)
    across = None if progress is None else \
        _Across(progress, planned_games(len(agents), games, swiss))
    points = dict.fromkeys(agents, 0.0)
    met: set[frozenset[str]] = set()
    byes: set[str] = set()
    alive = list(agents)
    rounds: list[tuple[list[PairingSummary], list[str]]] = []
    rows: list[RoundRow] = []
    tables = []
    played: list[MatchPlayed] = []
    number = 0
    while (number < swiss) if swiss is not None else len(alive) > 1:
        number += 1
        if swiss is not None:
            ranked = sorted(agents, key=lambda a: -points[a])  # stable: ties in given order
            pairs, bye = swiss_pairings(ranked, met, byes)
            sitting = [] if bye is None else [bye]
        else:
            pairs, sitting = knockout_pairings(alive)
        where = RunFiles(directory).round(number)
        done = run_games(_round_plan(plan, pairs, games, number), where,
                         dataclasses.replace(request, out=where, progress=False),
                         progress=across, command=command)
        played.append(done)
        rounds.append((done.summaries, sitting))
        tables.append(games_table(RunFiles(where).games))  # the run has just checked it
        through = []
        for summary in done.summaries:
            a, b = summary.agent_a, summary.agent_b
            tally = summary.tally
            met.add(frozenset((a, b)))
            points[a] += tally.points
            points[b] += tally.games - tally.points
            better = a if alive.index(a) < alive.index(b) else b
            winner = a if tally.points * 2 > tally.games else \
                b if tally.points * 2 < tally.games else better
            through.append(winner)
            rows.append(RoundRow(number, a, b, tally.games, *tally.wtl, tally.points,
                                 tally.games - tally.points, "" if swiss else winner))
        for bye in sitting:
            byes.add(bye)
            through.append(bye)
            score = float(games) if swiss is not None else 0.0
            points[bye] += score
            rows.append(RoundRow(number, bye, "", 0, 0, 0, 0, score, 0.0,
                                 "" if swiss else bye))
        if swiss is None:
            alive = [agent for agent in alive if agent in through]
    write_round_tables(directory, rows)
    standings = write_standings(directory, anchored, plan.settings.seed,
                                pd.concat(tables, ignore_index=True))
    return RoundsPlayed(directory, rounds, standings, alive[0] if swiss is None else None,
                        anchored, sum(done.played for done in played), played[0].description)
