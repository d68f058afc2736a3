"""``arena play``: a person plays an agent, in the terminal or in a window."""

from __future__ import annotations

import secrets

import click
import numpy as np

from arena.cli.options import board_options, threads_option
from arena.cli.status import INTERRUPTED
from arena.hosting.base import GRACE_SECONDS
from arena.play.human_game import FIRST_CHOICES, SYMBOLS, HumanGame, draw_human_side
from arena.play.terminal import ThinkingLine, play_in_terminal
from arena.play.thinker import AgentProcess
from arena.protocol.agent import GameAbandoned, check_agent_rules, traits_of
from arena.protocol.players import check_limit, effective_limit, split_limit
from arena.protocol.registry import make_agent
from arena.rules.board import Position, Rules
from arena.rules.notation import parse_moves, play_moves
from arena.rules.render import render_for_stdout


@click.command("play")
@click.argument("agent")
@click.option("--first", type=click.Choice(FIRST_CHOICES), default="random",
              show_default=True, help="Who moves first (random: a coin toss each game).")
@click.option("--moves", default="", metavar="MOVES",
              help="Start from the position of this move string (1 = leftmost column), "
                   "e.g. 4453.")
@click.option("--gui", is_flag=True,
              help="Play in a window (needs pygame, the gui extra).")
@click.option("--hints", is_flag=True,
              help="With --gui: show the exact score of every column from the start (H "
                   "toggles them at any time). On 6 x 7 the solver scores most positions "
                   "in milliseconds and any within a few seconds (the published 12-ply "
                   "database); early positions of other big boards take it minutes unless "
                   "`arena book` has been run.")
@threads_option
@click.option("--time-per-move", type=click.FloatRange(min=0, min_open=True), default=None,
              metavar="SECONDS",
              help=f"The agent's time limit per move, as in a match: a move over it by more "
                   f"than {GRACE_SECONDS} s loses the game. AGENT@time=SECONDS sets it too "
                   "(also depth=D, nodes=N for agents that support them).")
@board_options
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="Seed for the agent's choices and the coin toss (default: a fresh one, "
                   "printed so the game can be played again).")
def play_command(agent: str, first: str, moves: str, gui: bool, hints: bool,
                 threads: int | None, time_per_move: float | None, rules: Rules,
                 seed: int | None) -> None:
    """Play against AGENT (a spec string such as negamax:depth=6, with its own limit after
    @ if you like: solver@time=1).

    In the terminal, type a column number (1 = leftmost) on your turn, u to take back your
    last move and the agent's reply, q (or end of input, or Ctrl-C: exit status 130) to
    stop. X is player 1 (red), O player 2 (yellow); player 1 moves first; the last move's
    disc is in brackets. The agent thinks in a process of its own: on a terminal a line says
    so while it thinks (keys typed meanwhile are discarded), and Ctrl-C stops at once.

    With --gui, a window opens: click a column to drop your disc; U or Backspace undoes,
    N starts a new game, 1-9 drop in a column, Escape or Q closes. The agent thinks in its
    own process, so the window stays responsive. H shows or hides the exact solver's score
    of every column (positive: the side to move wins, the sooner the larger; 0: a draw;
    negative: it loses). The move string of the game is printed when the window closes.

    \b
    Examples:
      arena play negamax:depth=6
      arena play solver@time=1 --first agent
      arena play minimax:depth=4 --gui --first human
      arena play negamax:depth=4 --gui --moves 4444 --hints
      arena play random --moves 4453 --rows 6 --cols 7
      arena play human --gui          (two people at one window)
    """
    if hints and not gui:
        raise click.UsageError("--hints shows scores in the window: add --gui")
    if gui:
        from arena.play.gui import require_pygame

        require_pygame()
    start = parse_moves(moves, rules)
    play_moves(Position.empty(rules), start, moves)  # refuses a string that is no legal game
    spec, own = split_limit(agent.strip())
    limit = effective_limit(own, time_per_move)
    opponent = make_agent(spec)  # a bad spec, or a constructor that fails: one line, now
    check_agent_rules(opponent, rules)
    traits = traits_of(opponent)
    check_limit(agent, limit, traits.supported_limits)
    interactive = traits.interactive
    sequence = np.random.SeedSequence(secrets.randbits(32) if seed is None else seed)
    if gui:
        from arena.play.gui import play_window
        from arena.search.solver import SolverOracle
        from arena.system.processes import available_cores

        click.echo(f"Seed {sequence.entropy}. Playing {agent} on {rules} in a window.")
        oracle = SolverOracle(threads or available_cores())
        try:
            play_window(spec, rules, start, first, sequence, interactive, oracle,
                        show_hints=hints, echo=click.echo, limit=limit)
        except KeyboardInterrupt:
            raise click.exceptions.Exit(INTERRUPTED) from None
        return
    coin_seed, agent_seed = sequence.spawn(2)
    coin = np.random.default_rng(coin_seed)
    game = HumanGame(rules, {1, 2} if interactive else {draw_human_side(first, coin)},
                          start)
    if interactive:
        click.echo(f"Seed {sequence.entropy}. Two players on {rules}: player 1 "
                   f"({SYMBOLS[1]}) moves first, player 2 ({SYMBOLS[2]}).")
    else:
        (human,) = game.humans
        click.echo(f"Seed {sequence.entropy}. You are player {human} ({SYMBOLS[human]}) "
                   f"against {agent} on {rules}.")
    if start:
        click.echo(f"Starting from {game.move_string}.")
    thinker = None if interactive else AgentProcess(spec, agent_seed, limit)
    try:
        play_in_terminal(game, thinker, line=ThinkingLine(agent))
    except GameAbandoned as stop:
        click.echo("\n" + game.summary_line(str(stop)))
        return
    except KeyboardInterrupt:
        click.echo("\n" + game.summary_line("interrupted"))
        raise click.exceptions.Exit(INTERRUPTED) from None
    finally:
        if thinker is not None:
            thinker.close()
    click.echo(render_for_stdout(game.position, game.last_move))
    click.echo("\n" + game.summary_line(""))
