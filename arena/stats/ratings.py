"""Elo ratings of many agents from game results (Bradley-Terry maximum likelihood).

The model: agent i scores against agent j with expected score 1 / (1 + 10^(-(r_i - r_j)/400)),
a draw counting as half a win. Ratings are fitted by Newton's method on the log-likelihood,
anchored, and given percentile-bootstrap intervals.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import numpy.typing as npt
import pandas as pd

from arena.rules.results import Result

__all__ = ["ELO_PER_NAT", "RATING_COLUMNS", "bradley_terry", "rate"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

ELO_PER_NAT: float = 400.0 / math.log(10.0)
"""Elo points per unit of natural log-odds strength."""

RATING_COLUMNS: tuple[str, ...] = ("rank", "agent", "rating", "low", "high", "games", "score")

_REQUIRED = ("agent_a", "agent_b", "result")
_MAX_ITER = 200
_MAX_STEP = 4.0
"""The largest move of any rating in one Newton step, in nats (about 700 Elo): where a win
probability is saturated the curvature is nearly 0 and a full step would fly off."""


# --------------------------------------------------------------------------- the fit


def _connected_by_scores(points: FloatArray) -> bool:
    """True when every agent can be reached from every other along 'scored against' edges."""
    k = points.shape[0]
    reach = (points > 0) | np.eye(k, dtype=bool)
    while True:
        grown = (reach.astype(np.int64) @ reach.astype(np.int64)) > 0
        if np.array_equal(grown, reach):
            return bool(reach.all())
        reach = grown


def _log_likelihood(theta: FloatArray, points: FloatArray) -> float:
    diff = theta[:, None] - theta[None, :]
    return float(-(points * np.logaddexp(0.0, -diff)).sum())


def _newton(points: FloatArray, counts: FloatArray, theta0: FloatArray,
            free: npt.NDArray[np.bool_] | None = None) -> FloatArray:
    """Maximise the Bradley-Terry log-likelihood (natural units): over every agent, centred
    at mean 0, or with ``free`` over those agents only, the others held where ``theta0``
    puts them."""
    k = points.shape[0]
    theta = theta0 - theta0.mean() if free is None else theta0.copy()
    moved = np.arange(k - 1) if free is None else np.flatnonzero(free)
    scale = max(1.0, float(counts.sum()))
    current = _log_likelihood(theta, points)
    for _ in range(_MAX_ITER):
        diff = theta[:, None] - theta[None, :]
        p = 1.0 / (1.0 + np.exp(-diff))
        grad = (points - counts * p).sum(axis=1)
        if np.abs(grad if free is None else grad[moved]).max(initial=0.0) < 1e-11 * scale:
            break
        w = counts * p * p.T
        info = np.diag(w.sum(axis=1)) - w  # minus the Hessian; singular along (1, ..., 1)
        step = np.zeros(k)
        step[moved] = np.linalg.solve(info[np.ix_(moved, moved)], grad[moved])
        if free is None:
            step -= step.mean()
        step *= min(1.0, _MAX_STEP / max(float(np.abs(step).max(initial=0.0)), 1e-300))
        t = 1.0
        while True:
            candidate = theta + t * step
            value = _log_likelihood(candidate, points)
            if value >= current - 1e-12 * scale or t < 1e-8:
                break
            t /= 2.0
        theta, current = candidate, value
        if np.abs(t * step).max() < 1e-13:
            break
    return theta - theta.mean() if free is None else theta


def bradley_terry(
    points: npt.ArrayLike,
    counts: npt.ArrayLike,
    prior: float = 1.0,
    start: npt.ArrayLike | None = None,
    fixed: Mapping[int, float] | None = None,
) -> FloatArray:
    """Maximum-likelihood Elo ratings (mean 0) from head-to-head matrices.

    ``points[i, j]`` is what agent i scored against agent j (wins + draws/2) and
    ``counts[i, j]`` the number of games between them (symmetric). ``prior`` adds
    ``prior / (k - 1)`` virtual drawn games to every pair of agents, so each agent gets
    ``prior`` virtual draws against the field in all: this keeps the ratings finite when an
    agent won or lost every game, and shifts them by a negligible amount when the agents
    have played many more games than ``prior``. With ``prior = 0`` the plain MLE is returned
    and a ``ValueError`` is raised when it does not exist.
    ``start`` is an optional initial guess in Elo. ``fixed`` holds some agents (by index)
    at given Elo ratings: the others are fitted around them and the mean is not moved to 0
    (with ``prior = 0``, every agent must then be tied to a fixed one by games).
    """
    pts = np.array(points, dtype=np.float64)
    cnt = np.array(counts, dtype=np.float64)
    k = pts.shape[0]
    if pts.shape != (k, k) or cnt.shape != (k, k):
        raise ValueError(
            f"bradley_terry: expected two square matrices, got {pts.shape}, {cnt.shape}"
        )
    if prior < 0 or not math.isfinite(prior):
        raise ValueError(f"bradley_terry: prior must be a finite number >= 0, got {prior}")
    if (pts < 0).any() or (pts + pts.T > cnt + 1e-9).any():
        raise ValueError("bradley_terry: points must be >= 0 and points + points.T <= counts")
    if k == 1:
        return np.zeros(1)
    if prior > 0:
        virtual = prior / (k - 1) * (1.0 - np.eye(k))
        pts = pts + virtual / 2.0
        cnt = cnt + virtual
    elif not fixed and not _connected_by_scores(pts):
        raise ValueError(
            "ratings: the maximum-likelihood ratings do not exist (an agent or a group of agents"
            " won or lost every game against the rest, or never met them); use prior > 0"
        )
    theta0 = np.zeros(k) if start is None else np.asarray(start, dtype=np.float64) / ELO_PER_NAT
    if not fixed:
        return _newton(pts, cnt, theta0) * ELO_PER_NAT
    free = np.ones(k, dtype=bool)
    for index, elo in fixed.items():
        free[index] = False
        theta0[index] = elo / ELO_PER_NAT
    try:
        return _newton(pts, cnt, theta0, free) * ELO_PER_NAT
    except np.linalg.LinAlgError:
        raise ValueError("ratings: an agent is tied to no fixed agent by games; "
                         "use prior > 0") from None


# --------------------------------------------------------------------------- input


def _prepare(games: pd.DataFrame) -> tuple[list[str], IntArray, IntArray, FloatArray, IntArray]:
    """Validate the games table; return agents, indices of A and B, A's scores, unit ids."""
    missing = [c for c in _REQUIRED if c not in games.columns]
    if missing:
        raise ValueError(
            f"ratings: games table lacks column(s) {', '.join(missing)}; "
            f"expected {', '.join(_REQUIRED)} and optionally pair"
        )
    if len(games) == 0:
        raise ValueError("ratings: the games table is empty")
    for col in ("agent_a", "agent_b"):
        if games[col].isna().any():
            raise ValueError(f"ratings: column {col} has missing agent names")
    result = games["result"].astype(str)
    bad = sorted(set(result) - set(Result))
    if bad:
        raise ValueError(
            f"ratings: unknown result(s) {', '.join(map(repr, bad[:5]))}; "
            f"expected {', '.join(map(repr, map(str, Result)))}"
        )
    names_a = games["agent_a"].astype(str).to_numpy()
    names_b = games["agent_b"].astype(str).to_numpy()
    agents = [str(x) for x in pd.unique(np.concatenate([names_a, names_b]))]
    index = {name: i for i, name in enumerate(agents)}
    a = np.array([index[x] for x in names_a], dtype=np.int64)
    b = np.array([index[x] for x in names_b], dtype=np.int64)
    score = np.asarray(result.map({str(r): r.score for r in Result}), dtype=np.float64)

    # resampling units: a game pair (same pair id, same two agents) or a lone game
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    if "pair" in games.columns:
        pair = games["pair"]
        has_pair = pair.notna().to_numpy() & (pair.astype(str).str.strip() != "").to_numpy()
    else:
        pair = pd.Series([None] * len(games), index=games.index)
        has_pair = np.zeros(len(games), dtype=bool)
    keys = [
        (int(x), int(y), str(p)) if flag else ("game", i)
        for i, (x, y, p, flag) in enumerate(zip(lo, hi, pair, has_pair, strict=True))
    ]
    codes, _ = pd.factorize(pd.Series(keys, dtype=object))
    return agents, a, b, score, np.asarray(codes, dtype=np.int64)


def _matrices(
    k: int, a: IntArray, b: IntArray, score: FloatArray, weight: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """Head-to-head points and game-count matrices from weighted games."""
    ab, ba = a * k + b, b * k + a
    points = np.bincount(ab, weight * score, k * k) + np.bincount(ba, weight * (1.0 - score), k * k)
    counts = np.bincount(ab, weight, k * k) + np.bincount(ba, weight, k * k)
    return points.reshape(k, k).astype(np.float64), counts.reshape(k, k).astype(np.float64)


def _bootstrap_weights(units: IntArray, strata: IntArray, rng: np.random.Generator) -> FloatArray:
    """Per-game weights of one bootstrap replicate: units resampled within their stratum."""
    n_units = int(units.max()) + 1
    unit_stratum = np.zeros(n_units, dtype=np.int64)
    unit_stratum[units] = strata
    order = np.argsort(unit_stratum, kind="stable")
    sizes = np.bincount(unit_stratum)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    s = unit_stratum[order]
    draws = starts[s] + rng.integers(0, sizes[s])
    unit_weight = np.bincount(order[draws], minlength=n_units).astype(np.float64)
    return unit_weight[units]


# --------------------------------------------------------------------------- public API


def rate(
    games: pd.DataFrame,
    *,
    anchor: str | None = None,
    anchor_rating: float = 0.0,
    rng: np.random.Generator | None = None,
    bootstrap: int = 200,
    prior: float = 1.0,
    level: float = 0.95,
    fixed: Mapping[str, float] | None = None,
) -> pd.DataFrame:
    """Elo ratings of every agent in a games table, best first.

    ``games`` has columns agent_a, agent_b, result ('win', 'draw' or 'loss' for agent_a)
    and optionally pair (a pair id; empty or NaN for unpaired games). Ratings are the
    Bradley-Terry maximum-likelihood estimates (see ``bradley_terry``; ``prior`` virtual
    draws per agent against the field keep them finite when an agent won or lost everything).
    The ``anchor`` agent is set to ``anchor_rating``; without one the field mean is 0.
    ``fixed`` (agent name to Elo; names that did not play are ignored) holds several agents
    at their ratings instead: the others are fitted around them, in the fit and in every
    bootstrap replicate, and ``anchor`` must then be None.

    The ``level`` intervals (low, high) are percentiles of ``bootstrap`` replicates drawn
    with ``rng``: games are resampled with replacement within each pairing of two agents,
    and games sharing a pair id (with the same two agents) are resampled together. Without
    ``rng`` (or with ``bootstrap = 0``) low and high are NaN. An anchored agent's interval
    is its anchor rating. Resampling within pairings keeps the schedule fixed, so a pairing
    whose games all ended alike (e.g. 10-0) adds no spread: read such intervals with care.
    Games of an agent against itself carry no information and are left out.

    Returns columns rank, agent, rating, low, high, games, score (the fraction of points
    the agent took, NaN with no games), best first; equal ratings share a rank.
    """
    if not 0.0 < level < 1.0:
        raise ValueError(f"ratings: level must lie strictly between 0 and 1, got {level}")
    if bootstrap < 0:
        raise ValueError(f"ratings: bootstrap must be >= 0, got {bootstrap}")
    agents, a, b, score, units = _prepare(games)
    if anchor is not None and anchor not in agents:
        raise ValueError(
            f"ratings: anchor {anchor!r} is not among the agents ({', '.join(sorted(agents))})"
        )
    if fixed is not None and anchor is not None:
        raise ValueError("ratings: give an anchor or fixed ratings, not both")
    held = {agents.index(name): float(elo) for name, elo in (fixed or {}).items()
            if name in agents}
    keep = a != b
    a, b, score, units = a[keep], b[keep], score[keep], units[keep]
    k = len(agents)
    anchor_index = agents.index(anchor) if anchor is not None else None

    def anchored(elo: FloatArray) -> FloatArray:
        if held:
            return elo
        base = elo[anchor_index] if anchor_index is not None else elo.mean()
        return elo - base + (anchor_rating if anchor_index is not None else 0.0)

    points, counts = _matrices(k, a, b, score, np.ones(len(a)))
    fit = bradley_terry(points, counts, prior, fixed=held)
    rating = anchored(fit)

    low = np.full(k, np.nan)
    high = np.full(k, np.nan)
    if rng is not None and bootstrap > 0 and len(a) > 0:
        _, units = np.unique(units, return_inverse=True)
        strata = np.minimum(a, b) * k + np.maximum(a, b)
        boot_prior = prior if prior > 0 else 1e-6  # a replicate may have no finite MLE
        samples = np.empty((bootstrap, k))
        for r in range(bootstrap):
            weight = _bootstrap_weights(units, strata, rng)
            bp, bc = _matrices(k, a, b, score, weight)
            samples[r] = anchored(bradley_terry(bp, bc, boot_prior, start=fit, fixed=held))
        tail = (1.0 - level) / 2.0 * 100.0
        low, high = np.percentile(samples, [tail, 100.0 - tail], axis=0)

    played = counts.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        frac = np.where(played > 0, points.sum(axis=1) / np.where(played > 0, played, 1), np.nan)
    table = pd.DataFrame(
        {
            "agent": agents,
            "rating": rating,
            "low": low,
            "high": high,
            "games": played.round().astype(np.int64),
            "score": frac,
        }
    )
    table.insert(0, "rank", table["rating"].rank(method="min", ascending=False).astype(np.int64))
    return table.sort_values(["rank", "agent"], kind="stable").reset_index(drop=True)
