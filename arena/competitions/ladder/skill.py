"""Incremental skill estimates between fits: OpenSkill's Plackett-Luce model (the ``openskill``
package), updated game by game as games come in.

The Bradley-Terry fit (``arena.competitions.ladder.fit``) is the ladder's rating; this
estimate is shown beside it as a quick, order-dependent check that needs no refit. It is on
OpenSkill's own scale (a new agent starts at mu 25, sigma 25/3), not in Elo, and anchors are not
held in it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from openskill.models import PlackettLuce

__all__ = ["update_skills"]

_RANKS = {"win": [0.0, 1.0], "draw": [0.0, 0.0], "loss": [1.0, 0.0]}
"""OpenSkill's ranks of (agent A, agent B) for agent A's result: lower is better."""


def update_skills(connection: sqlite3.Connection,
                  games: Iterable[tuple[int, int, str]]) -> None:
    """Update the skill (mu, sigma) of the agents of ``games`` (agent A's id, agent B's id,
    A's result), in order, inside the caller's transaction."""
    model = PlackettLuce()
    skills: dict[int, tuple[float, float]] = {}

    def skill(agent: int) -> tuple[float, float]:
        if agent not in skills:
            mu, sigma = connection.execute("SELECT skill_mu, skill_sigma FROM agents "
                                           "WHERE id = ?", (agent,)).fetchone()
            skills[agent] = (model.mu, model.sigma) if mu is None else (mu, sigma)
        return skills[agent]

    for a, b, result in games:
        if a == b:
            continue
        (mu_a, sigma_a), (mu_b, sigma_b) = skill(a), skill(b)
        [[new_a], [new_b]] = model.rate(
            [[model.rating(mu=mu_a, sigma=sigma_a)], [model.rating(mu=mu_b, sigma=sigma_b)]],
            ranks=_RANKS[result])
        skills[a], skills[b] = (new_a.mu, new_a.sigma), (new_b.mu, new_b.sigma)
    connection.executemany("UPDATE agents SET skill_mu = ?, skill_sigma = ? WHERE id = ?",
                           [(mu, sigma, agent) for agent, (mu, sigma) in skills.items()])
