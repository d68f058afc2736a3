"""Tests of arena.stats.ratings: Bradley-Terry Elo of many agents with bootstrap intervals."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd
import pytest

from arena.stats.elo import score_from_elo, trinomial
from arena.stats.ratings import RATING_COLUMNS, bradley_terry, rate

TRUE = {"alpha": 200.0, "beta": 100.0, "gamma": 0.0, "delta": -100.0, "eps": -200.0}


def simulate(
    strengths: dict[str, float], games_per_pairing: int, rng: np.random.Generator
) -> pd.DataFrame:
    """Round robin where agent i scores 1/(1 + 10^(-(r_i - r_j)/400)) on average, with draws."""
    rows = []
    names = list(strengths)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            p = score_from_elo(strengths[a] - strengths[b])
            draw = 0.3 * 4 * p * (1 - p)
            u = rng.random(games_per_pairing)
            for g, x in enumerate(u):
                result = "win" if x < p - draw / 2 else "draw" if x < p + draw / 2 else "loss"
                # alternate who is listed first, as colours alternate
                if g % 2:
                    rows.append((b, a, {"win": "loss", "loss": "win"}.get(result, result)))
                else:
                    rows.append((a, b, result))
    return pd.DataFrame(rows, columns=["agent_a", "agent_b", "result"])


def games_from_counts(w: int, d: int, lo: int, a: str = "a", b: str = "b") -> pd.DataFrame:
    rows = [(a, b, "win")] * w + [(a, b, "draw")] * d + [(a, b, "loss")] * lo
    return pd.DataFrame(rows, columns=["agent_a", "agent_b", "result"])


def by_agent(table: pd.DataFrame) -> dict[str, dict[str, Any]]:
    """The rating table as {agent: {column: value}}."""
    return {
        str(row["agent"]): {str(k): v for k, v in row.items()} for row in table.to_dict("records")
    }


# --------------------------------------------------------------------------- point estimates


def test_recovers_known_strengths() -> None:
    games = simulate(TRUE, 400, np.random.default_rng(20240601))
    table = rate(games)
    assert list(table.columns) == list(RATING_COLUMNS)
    assert list(table["agent"]) == ["alpha", "beta", "gamma", "delta", "eps"]
    assert list(table["rank"]) == [1, 2, 3, 4, 5]
    assert table["rating"].mean() == pytest.approx(0.0, abs=1e-9)
    rows = by_agent(table)
    for name, truth in TRUE.items():
        assert rows[name]["rating"] == pytest.approx(truth, abs=25.0), name
        assert rows[name]["games"] == 1600


def test_anchor_sets_named_agent_and_keeps_differences() -> None:
    games = simulate(TRUE, 100, np.random.default_rng(7))
    free = rate(games).set_index("agent")["rating"].to_dict()
    anchored = rate(games, anchor="eps").set_index("agent")["rating"].to_dict()
    assert anchored["eps"] == 0.0
    for name in TRUE:
        assert anchored[name] - anchored["gamma"] == pytest.approx(free[name] - free["gamma"])
    shifted = rate(games, anchor="gamma", anchor_rating=1500.0).set_index("agent")["rating"]
    assert shifted["gamma"] == 1500.0
    assert shifted["alpha"] - 1500.0 == pytest.approx(free["alpha"] - free["gamma"])


def test_two_agents_agree_with_trinomial_elo() -> None:
    expected = trinomial(136, 111, 96).elo  # 40.70
    table = by_agent(rate(games_from_counts(136, 111, 96)))
    diff = table["a"]["rating"] - table["b"]["rating"]
    assert abs(diff - expected) < 0.5
    assert diff < expected  # the virtual draw pulls towards equality
    exact = by_agent(rate(games_from_counts(136, 111, 96), prior=0.0))
    assert exact["a"]["rating"] - exact["b"]["rating"] == pytest.approx(expected, abs=1e-6)


def test_two_agents_agree_when_listed_either_way() -> None:
    # the same games with agent b sometimes listed first
    games = pd.concat([games_from_counts(50, 30, 20), games_from_counts(20, 30, 50, "b", "a")])
    table = by_agent(rate(games, prior=0.0))
    diff = table["a"]["rating"] - table["b"]["rating"]
    assert diff == pytest.approx(trinomial(100, 60, 40).elo, abs=1e-6)
    assert table["a"]["games"] == 200
    assert table["a"]["score"] == pytest.approx(0.65)
    assert table["b"]["score"] == pytest.approx(0.35)


def test_perfect_agent_stays_finite() -> None:
    games = pd.concat(
        [games_from_counts(20, 0, 0, "ace", "mid"), games_from_counts(10, 5, 5, "mid", "low")]
    )
    rated = rate(games, rng=np.random.default_rng(3), bootstrap=50)
    assert np.isfinite(rated[["rating", "low", "high"]].to_numpy()).all()
    table = by_agent(rated)
    assert table["ace"]["rank"] == 1
    assert table["ace"]["score"] == 1.0
    assert table["ace"]["rating"] > table["mid"]["rating"] + 300
    with pytest.raises(ValueError, match="prior > 0"):
        rate(games, prior=0.0)


def test_bradley_terry_matrices() -> None:
    # a beat b 3 of 4, b beat c 3 of 4, a and c did not meet
    points = np.array([[0, 3, 0], [1, 0, 3], [0, 1, 0]], dtype=float)
    counts = np.array([[0, 4, 0], [4, 0, 4], [0, 4, 0]], dtype=float)
    elo = bradley_terry(points, counts, prior=0.0)
    step = -400 * math.log10(1 / 0.75 - 1)
    assert elo == pytest.approx([step, 0.0, -step], abs=1e-6)
    with pytest.raises(ValueError, match="square"):
        bradley_terry(np.zeros((2, 3)), np.zeros((2, 3)))


def test_self_play_is_ignored() -> None:
    games = pd.concat([games_from_counts(30, 10, 20), games_from_counts(5, 0, 0, "a", "a")])
    table = by_agent(rate(games))
    plain = by_agent(rate(games_from_counts(30, 10, 20)))
    assert table["a"]["rating"] == pytest.approx(plain["a"]["rating"])
    assert table["a"]["games"] == 60


# --------------------------------------------------------------------------- bootstrap


def test_bootstrap_interval_contains_estimate_and_matches_trinomial_error() -> None:
    games = games_from_counts(136, 111, 96)
    table = by_agent(rate(games, rng=np.random.default_rng(11), bootstrap=400))
    for name in ("a", "b"):
        row = table[name]
        assert row["low"] < row["rating"] < row["high"]
    # the interval of a (mean-anchored: half the difference) is about half the trinomial one
    half_width = (table["a"]["high"] - table["a"]["low"]) / 2
    assert half_width == pytest.approx(trinomial(136, 111, 96).error / 2, rel=0.2)


def test_bootstrap_wider_with_fewer_games() -> None:
    many = rate(simulate(TRUE, 400, np.random.default_rng(1)), rng=np.random.default_rng(2))
    few = rate(simulate(TRUE, 25, np.random.default_rng(1)), rng=np.random.default_rng(2))
    for table in (many, few):
        assert (table["low"] <= table["rating"]).all()
        assert (table["rating"] <= table["high"]).all()
    width_many = (many["high"] - many["low"]).mean()
    width_few = (few["high"] - few["low"]).mean()
    assert width_few > 2.5 * width_many  # 16 times the games: about 4 times narrower


def test_bootstrap_is_reproducible_and_optional() -> None:
    games = simulate(TRUE, 20, np.random.default_rng(5))
    one = rate(games, rng=np.random.default_rng(9), bootstrap=30)
    two = rate(games, rng=np.random.default_rng(9), bootstrap=30)
    pd.testing.assert_frame_equal(one, two)
    bare = rate(games)
    assert bare["low"].isna().all() and bare["high"].isna().all()
    pd.testing.assert_series_equal(bare["rating"], one["rating"])


def test_anchored_agent_interval_is_its_anchor() -> None:
    games = simulate(TRUE, 30, np.random.default_rng(4))
    table = by_agent(rate(games, anchor="gamma", rng=np.random.default_rng(0), bootstrap=40))
    assert table["gamma"]["low"] == table["gamma"]["high"] == 0.0
    assert table["alpha"]["low"] > 0.0


def paired_colour_games(pairs: int, with_ids: bool) -> pd.DataFrame:
    """Each pair: a wins with the first move, then loses with the second (score 1/2 per pair)."""
    rows = []
    for p in range(pairs):
        pid: object = p if with_ids else np.nan
        rows.append(("a", "b", "win", pid))
        rows.append(("a", "b", "loss", pid))
    return pd.DataFrame(rows, columns=["agent_a", "agent_b", "result", "pair"])


def test_paired_resampling_keeps_pairs_together() -> None:
    paired = by_agent(rate(paired_colour_games(60, True), rng=np.random.default_rng(1)))
    # every resampled pair scores exactly 1/2, so every replicate rates both agents 0
    assert paired["a"]["rating"] == pytest.approx(0.0, abs=1e-9)
    assert paired["a"]["low"] == pytest.approx(0.0, abs=1e-9)
    assert paired["a"]["high"] == pytest.approx(0.0, abs=1e-9)
    loose = by_agent(rate(paired_colour_games(60, False), rng=np.random.default_rng(1)))
    assert loose["a"]["high"] - loose["a"]["low"] > 20.0


def test_pair_ids_repeat_across_matchups() -> None:
    # pair id 0 is reused by another matchup: pairs are keyed by id and the two agents
    games = pd.concat(
        [
            paired_colour_games(40, True),
            paired_colour_games(40, True).replace({"a": "c", "b": "d"}),
        ]
    )
    table = rate(games, rng=np.random.default_rng(2), bootstrap=50)
    assert np.allclose(table[["rating", "low", "high"]].to_numpy(), 0.0, atol=1e-9)


def test_empty_string_pair_means_unpaired() -> None:
    games = paired_colour_games(30, False)
    games["pair"] = ""
    table = by_agent(rate(games, rng=np.random.default_rng(1), bootstrap=50))
    assert table["a"]["high"] - table["a"]["low"] > 20.0


# --------------------------------------------------------------------------- bad input


def test_bad_input_raises() -> None:
    good = games_from_counts(3, 2, 1)
    with pytest.raises(ValueError, match="result"):
        rate(good.drop(columns="result"))
    with pytest.raises(ValueError, match="'tie'"):
        rate(good.assign(result="tie"))
    with pytest.raises(ValueError, match=r"anchor 'zed'.*a, b"):
        rate(good, anchor="zed")
    with pytest.raises(ValueError, match="empty"):
        rate(good.iloc[0:0])
    with pytest.raises(ValueError, match="level"):
        rate(good, level=1.5)
