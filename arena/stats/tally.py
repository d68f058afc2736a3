"""Counts of results: one side's wins, draws and losses, and the pentanomial counts of its
game pairs (two games of one opening, colours swapped), with their statistics.

A ``Tally`` counts from one side's point of view (agent A's in a pairing, the row agent's in
a crosstable); ``flip`` gives the other side's. The pair classes are counted in the order
LL, LD, WL, DD, WD, WW (``PAIR_CLASSES``): a pair's two results in either order fall in one
class, and WL and DD both score one point of two.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from arena.rules.results import Result
from arena.stats.elo import EloEstimate, pentanomial, trinomial

PAIR_CLASSES = ("ll", "ld", "wl", "dd", "wd", "ww")
"""The pentanomial classes of a game pair, by the side's two results."""

_CLASS = {(Result.LOSS, Result.LOSS): 0, (Result.LOSS, Result.DRAW): 1,
          (Result.WIN, Result.LOSS): 2, (Result.DRAW, Result.DRAW): 3,
          (Result.WIN, Result.DRAW): 4, (Result.WIN, Result.WIN): 5}
_CLASS.update({(b, a): index for (a, b), index in list(_CLASS.items())})


@dataclass
class Tally:
    """One side's wins, draws and losses, and the pentanomial counts of its game pairs.

    ``add`` counts a game, ``add_pair`` a pair of games (their classes only: the games of a
    pair are counted by ``add`` as they come).
    """

    wins: int = 0
    draws: int = 0
    losses: int = 0
    pairs: list[int] = field(default_factory=lambda: [0] * len(PAIR_CLASSES))

    @classmethod
    def of(cls, results: Iterable[Result]) -> Tally:
        """The tally of some games' results."""
        tally = cls()
        for result in results:
            tally.add(result)
        return tally

    @classmethod
    def of_pairs(cls, results: Iterable[Result]) -> Tally:
        """The tally of games that come in pairs, in order (games 0 and 1 are a pair, then
        2 and 3, ...): each game and each pair counted."""
        tally = cls()
        first: Result | None = None
        for result in results:
            tally.add(result)
            if first is None:
                first = result
            else:
                tally.add_pair(first, result)
                first = None
        return tally

    def add(self, result: Result) -> None:
        """Count one game."""
        if result is Result.WIN:
            self.wins += 1
        elif result is Result.DRAW:
            self.draws += 1
        else:
            self.losses += 1

    def add_pair(self, first: Result, second: Result, count: int = 1) -> None:
        """Count the class of a game pair (the two results of one side), ``count`` times."""
        self.pairs[_CLASS[first, second]] += count

    def flip(self) -> Tally:
        """The other side's tally."""
        ll, ld, wl, dd, wd, ww = self.pairs
        return Tally(self.losses, self.draws, self.wins, [ww, wd, wl, dd, ld, ll])

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.wins + other.wins, self.draws + other.draws,
                     self.losses + other.losses,
                     [a + b for a, b in zip(self.pairs, other.pairs, strict=True)])

    @property
    def games(self) -> int:
        """Games counted."""
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        """A win is a point, a draw half a point."""
        return self.wins + self.draws / 2

    @property
    def score(self) -> float:
        """The share of the points (nan before any game)."""
        return self.points / self.games if self.games else float("nan")

    @property
    def wtl(self) -> tuple[int, int, int]:
        """Wins, draws and losses."""
        return self.wins, self.draws, self.losses

    @property
    def pentanomial_counts(self) -> tuple[int, int, int, int, int, int]:
        """The pair counts LL, LD, WL, DD, WD, WW."""
        ll, ld, wl, dd, wd, ww = self.pairs
        return ll, ld, wl, dd, wd, ww

    def trinomial(self) -> EloEstimate:
        """Elo, nElo, LOS and intervals from the games."""
        return trinomial(self.wins, self.draws, self.losses)

    def pentanomial(self) -> EloEstimate:
        """Elo, nElo, LOS and intervals from the game pairs."""
        return pentanomial(self.pentanomial_counts)
