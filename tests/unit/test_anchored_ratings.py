"""Bradley-Terry with some agents held at fixed ratings (the ladder's fit): the held agents do not
move, and the others' known strengths are recovered within their intervals."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from arena.stats.ratings import bradley_terry, rate

TRUE = {"a0": 0.0, "a1": 200.0, "a2": 400.0, "a3": 600.0, "x": 150.0, "y": 470.0}
ANCHORS = {name: TRUE[name] for name in ("a0", "a1", "a2", "a3")}


def synthetic_games(games_per_pair: int, seed: int) -> pd.DataFrame:
    """Games between every two agents of TRUE: a draw with chance 0.2, else a win drawn so
    that the expected score is the Bradley-Terry one of their true ratings."""
    rng = np.random.default_rng(seed)
    rows = []
    names = list(TRUE)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            expected = 1.0 / (1.0 + 10.0 ** (-(TRUE[a] - TRUE[b]) / 400.0))
            win = (expected - 0.1) / 0.8  # P(win) + P(draw) / 2 = expected
            draws = rng.random(games_per_pair) < 0.2
            wins = rng.random(games_per_pair) < win
            for drawn, won in zip(draws, wins, strict=True):
                rows.append((a, b, "draw" if drawn else "win" if won else "loss"))
    return pd.DataFrame(rows, columns=["agent_a", "agent_b", "result"])


def test_held_agents_keep_their_ratings_and_the_others_are_recovered() -> None:
    # 99% intervals: a 95% one misses the truth one time in twenty by design
    table = rate(synthetic_games(400, seed=1), fixed=ANCHORS, rng=np.random.default_rng(2),
                 bootstrap=200, level=0.99).set_index("agent")
    for name, elo in ANCHORS.items():
        assert table.loc[name, "rating"] == pytest.approx(elo, abs=1e-9)
        assert table.loc[name, "low"] == pytest.approx(elo, abs=1e-9)
        assert table.loc[name, "high"] == pytest.approx(elo, abs=1e-9)
    for name in ("x", "y"):
        low, high = table.loc[name, "low"], table.loc[name, "high"]
        assert low < TRUE[name] < high, (name, low, high)
        assert high - low < 100  # 2000 games each: about ±40 Elo at 99%


def test_without_fixed_agents_the_fit_is_the_plain_one() -> None:
    points = np.array([[0.0, 7.0, 9.0], [3.0, 0.0, 6.0], [1.0, 4.0, 0.0]])
    counts = points + points.T
    plain = bradley_terry(points, counts)
    held = bradley_terry(points, counts, fixed={0: float(plain[0])})
    assert held == pytest.approx(plain, abs=1e-6)  # holding one agent at its own MLE


def test_fixed_ratings_exclude_an_anchor() -> None:
    with pytest.raises(ValueError, match="not both"):
        rate(synthetic_games(2, seed=1), anchor="a0", fixed=ANCHORS)


def test_an_agent_far_above_its_only_anchor_is_found() -> None:
    # 37 wins, 2 draws, 1 loss against an anchor held at +682: a score of 38 / 40, so
    # 682 + 400 log10(38 / 2) = +1193.5 (a full Newton step from 0 once flew off to 1e10).
    held = {"anchor": 682.0}
    games = pd.DataFrame([("x", "anchor", "win")] * 37 + [("x", "anchor", "draw")] * 2
                         + [("anchor", "x", "win")], columns=["agent_a", "agent_b", "result"])
    exact = rate(games, fixed=held, prior=0.0).set_index("agent")
    assert exact.loc["x", "rating"] == pytest.approx(682 + 400 * np.log10(19), abs=1e-6)
    # the default virtual draw against the field pulls it a little towards the anchor
    assert 1100 < rate(games, fixed=held).set_index("agent").loc["x", "rating"] < 1193.5
