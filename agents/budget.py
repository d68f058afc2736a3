"""What one move may spend: the agent's own time per move and its game's Limit, combined."""

from __future__ import annotations

from arena.protocol.agent import GameStart

PLANNED_SHARE = 0.8  # the share of its time budget a move plans to use; the rest is margin
RATE_SHARE = 0.7  # when turning the time left into work, count on this share of the speed so
# far (searches slow down as they grow, and the machine may get busier)


def seconds_for_move(own: float | None, game: GameStart | None) -> float | None:
    """The tighter of the agent's own time per move and the game's ``Limit.time`` (None
    when neither is set)."""
    times = [t for t in (own, game.limit.time if game is not None else None) if t is not None]
    return min(times) if times else None


def nodes_for_move(game: GameStart | None) -> int | None:
    """The game's ``Limit.nodes``, or None."""
    return game.limit.nodes if game is not None else None


def check_time(time: float | None) -> None:
    """Raise ValueError unless ``time`` is None or a positive number of seconds."""
    if time is not None and not time > 0:
        raise ValueError(f"time must be a positive number of seconds, got {time!r}")
