"""Tournaments played round by round, each round paired from the results so far: Swiss and
knockout.

**Swiss**: every round, the agents are ranked by points so far (ties in the order given) and
the highest unpaired one meets the next one it has not met yet, so that no two meet again
while that can be avoided (else neighbours in the ranking meet); with an odd number, the
lowest-ranked agent that has not had a bye sits out and scores the round's games as won.

**Knockout**: the agents still in meet first against last, second against second-to-last (in
the order given, the seeding); with an odd number the top seed sits out; the one with more
points goes through, the better seed on a tie.

Every pairing plays ``games`` games with colours alternating. Each round is a run of its own
(``round-01``, ``round-02``, ... under the tournament's directory), so a round is reproducible
and resumable like a match, and the same command again replays the finished rounds (the same
results give the same pairings) and goes on. The ratings and the crosstable are those of
every game of every round, written as a round robin's are (``write_standings``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from arena.competitions.tournaments import (
    Standings,
    TournamentError,
    resolve_anchor,
    tournament_plan,
    write_standings,
)
from arena.runs.files import RunFiles
from arena.runs.plan import MatchPlan, Pairing
from arena.runs.request import RunRequest
from arena.runs.rows import games_table
from arena.runs.runner import run_games
from arena.runs.summary import PairingSummary

__all__ = ["RoundsRun", "knockout_pairings", "run_rounds", "swiss_pairings"]


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


def knockout_pairings(alive: Sequence[str]) -> tuple[list[tuple[str, str]], str | None]:
    """One knockout round of ``alive`` (in seeding order): first against last, second against
    second-to-last, ...; the top seed sits out when their number is odd."""
    waiting = list(alive)
    bye = waiting.pop(0) if len(waiting) % 2 else None
    half = len(waiting) // 2
    return [(waiting[i], waiting[-1 - i]) for i in range(half)], bye


@dataclass
class RoundsRun:
    """What ``run_rounds`` did: each round's pairings' summaries and bye, the standings of
    every game, and for a knockout the winner."""

    directory: Path
    rounds: list[tuple[list[PairingSummary], str | None]]
    standings: Standings
    winner: str | None


def _round_plan(plan: MatchPlan, pairs: list[tuple[str, str]], games: int,
                number: int) -> MatchPlan:
    """The plan of one round: ``pairs`` of the tournament's agents, its seed moved on by the
    round's number (every round plays other games)."""
    settings = dataclasses.replace(plan.settings, seed=(plan.settings.seed + number - 1) % 2**32)
    return dataclasses.replace(plan, pairings=tuple(Pairing(a, b, games) for a, b in pairs),
                               settings=settings)


def run_rounds(specs: Sequence[str], games: int, request: RunRequest, directory: Path, *,
               swiss: int | None = None, anchor: str | None = None) -> RoundsRun:
    """A Swiss tournament of ``swiss`` rounds, or without it a knockout, of ``specs`` (see the
    module's docstring), played under ``directory``."""
    if swiss is not None and swiss < 1:
        raise TournamentError(f"a Swiss tournament needs at least one round, got {swiss}")
    plan = tournament_plan(specs, games, request)  # checks the agents; its pairings unused
    agents = list(plan.specs)
    points = dict.fromkeys(agents, 0.0)
    met: set[frozenset[str]] = set()
    byes: set[str] = set()
    alive = list(agents)
    rounds: list[tuple[list[PairingSummary], str | None]] = []
    tables = []
    number = 0
    while (number < swiss) if swiss is not None else len(alive) > 1:
        number += 1
        if swiss is not None:
            ranked = sorted(agents, key=lambda a: -points[a])  # stable: ties in given order
            pairs, bye = swiss_pairings(ranked, met, byes)
        else:
            pairs, bye = knockout_pairings(alive)
        where = directory / f"round-{number:02d}"
        done = run_games(_round_plan(plan, pairs, games, number), where,
                         dataclasses.replace(request, out=where, progress=False))
        rounds.append((done.summaries, bye))
        tables.append(games_table(RunFiles(where).games))  # the run has just checked it
        if bye is not None:
            byes.add(bye)
            points[bye] += games
        through = [bye] if bye is not None else []
        for summary in done.summaries:
            a, b = summary.agent_a, summary.agent_b
            met.add(frozenset((a, b)))
            points[a] += summary.tally.points
            points[b] += summary.tally.games - summary.tally.points
            better = a if alive.index(a) < alive.index(b) else b
            if summary.tally.points * 2 > summary.tally.games:
                through.append(a)
            elif summary.tally.points * 2 < summary.tally.games:
                through.append(b)
            else:
                through.append(better)
        if swiss is None:
            alive = [agent for agent in alive if agent in through]
    standings = write_standings(directory, resolve_anchor(anchor, agents, plan.settings.engines),
                                plan.settings.seed, pd.concat(tables, ignore_index=True))
    return RoundsRun(directory, rounds, standings, alive[0] if swiss is None else None)

