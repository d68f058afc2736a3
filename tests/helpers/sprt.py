"""The agents, the test and the plan that the SPRT tests share (the library's and the
command's)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from arena.competitions.sprt import SprtTest, sprt_plan
from arena.runs.planning.plan import MatchPlan
from arena.runs.planning.request import RunRequest

STRONG, WEAK = "immediate-win", "random"
# immediate-win scores about 75% against random: H1 of [0, 50] nElo is accepted after some
# 30 pairs, H0 (random is 50 nElo stronger) after about as many.
H0_H1 = SprtTest(0.0, 50.0, batch_pairs=5)


TWINS = ("negamax:depth=1", "negamax:depth=1,tt=false")
"""Two agents that play alike (an SPRT refuses one agent against itself)."""


def plan(a: str = STRONG, b: str = WEAK, max_games: int = 400, seed: int = 7) -> MatchPlan:
    return sprt_plan(a, b, RunRequest(seed=seed, openings="random:8"), max_games=max_games)


def sprt_rows(directory: Path) -> pd.DataFrame:
    return pd.read_csv(directory / "sprt.csv")
