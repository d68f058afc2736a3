"""The terminal game: people type columns (or u to undo), the agent answers, until the end."""

from __future__ import annotations

from collections.abc import Callable

import click
import numpy as np

from agents.human import HumanAgent
from arena.hosting.inline import InlineHost
from arena.play.human_game import SYMBOLS, PlaySession, ask_agent, tell_new_game
from arena.protocol.agent import Agent
from arena.rules.notation import format_moves
from arena.runs.game import GameRecord


def play_in_terminal(
    session: PlaySession,
    agent: Agent | None,
    rng: np.random.Generator,
    human: HumanAgent | None = None,
    tell: Callable[[str], None] = click.echo,
) -> GameRecord:
    """Play ``session`` to its end: the people through ``human``'s prompt, the other side
    by ``agent``. GameAbandoned (q, end of input) and KeyboardInterrupt pass through."""
    human = human or HumanAgent()
    host = InlineHost.of(agent) if agent is not None else None
    told_epoch = None
    while not session.over:
        mover = session.position.side_to_move
        if session.human_to_move:
            if len(session.humans) == 2:
                tell(f"Player {mover} ({SYMBOLS[mover]}) to move.")
            column = human.ask_column(session.position, can_undo=session.undo_plies() > 0)
            if column is None:
                taken = session.undo()
                tell(f"Took back {format_moves(taken)}. Moves now: "
                     f"{session.move_string or '(none)'}")
                continue
            session.play(column)
        else:
            if host is None:
                raise ValueError("the agent is to move but the session has no agent")
            reply = None
            if told_epoch != session.epoch:
                told_epoch = session.epoch
                reply = tell_new_game(host, session.rules, mover)
            reply = reply or ask_agent(host, session.position, rng)
            session.apply(reply)
            if reply.column is None:
                break
            column = reply.column
        tell(f"{session.player_name(mover)} played column {column + 1}.")
    outcome = session.outcome()
    assert outcome is not None  # the loop ends only when the game is over
    return outcome
