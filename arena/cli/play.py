"""``arena play``: a person plays an agent in the terminal."""

from __future__ import annotations

import click
import numpy as np

from agents.human import HumanAgent
from arena.agent import Agent, GameAbandoned, check_agent_rules
from arena.board import Position, Rules
from arena.cli.options import board_options
from arena.game import play_game
from arena.notation import format_moves
from arena.registry import make_agent
from arena.render import render_for_stdout


@click.command("play")
@click.argument("agent")
@click.option("--first", type=click.Choice(["human", "agent", "random"]), default="random",
              show_default=True, help="Who moves first.")
@board_options
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="Seed for the agent's choices and the coin toss (default: a fresh one, "
                   "printed so the game can be replayed).")
def play_command(agent: str, first: str, rules: Rules, seed: int | None) -> None:
    """Play against AGENT (a spec string such as negamax:depth=6) in the terminal.

    Type a column number (1 = leftmost) on your turn; q, end of input or Ctrl-C ends the game.
    """
    opponent = make_agent(agent)
    check_agent_rules(opponent, rules)
    sequence = np.random.SeedSequence(seed)
    coin, agent_rng = (np.random.default_rng(s) for s in sequence.spawn(2))
    human_first = first == "human" or (first == "random" and bool(coin.integers(2)))
    players: list[Agent] = [HumanAgent(), opponent] if human_first else [opponent, HumanAgent()]
    rngs = [agent_rng, agent_rng]
    moves: list[int] = []
    final: list[Position] = []

    def announce(position: Position, column: int | None) -> None:
        final[:] = [position]
        if column is not None:
            moves.append(column)
            who = "You" if (position.side_to_move == 2) == human_first else "The agent"
            click.echo(f"{who} played column {column + 1}.")

    click.echo(f"Seed {sequence.entropy}. You are player {1 if human_first else 2} "
               f"({'red, X' if human_first else 'yellow, O'}) against {agent} on {rules}.")
    try:
        outcome = play_game(players, rngs, Position.empty(rules), observer=announce)
    except (GameAbandoned, KeyboardInterrupt) as stop:
        reason = str(stop) or "interrupted"
        click.echo(f"\nGame abandoned ({reason}). Moves so far: {format_moves(moves) or '(none)'}")
        return
    click.echo(render_for_stdout(final[0]))
    human = 1 if human_first else 2
    if outcome.winner == 0:
        verdict = "Draw."
    elif outcome.winner == human:
        verdict = "You win!"
    else:
        verdict = "The agent wins."
    if outcome.error:
        verdict += f" ({outcome.termination}: {outcome.error})"
    click.echo(f"\n{verdict} Game: {outcome.move_string}")
