"""HumanGame: turns, take-backs, forfeits and results of a game people play."""

from __future__ import annotations

import numpy as np
import pytest

from arena.hosting.inline import InlineHost
from arena.play.human_game import (
    AgentReply,
    HumanGame,
    ask_agent,
    draw_human_side,
    tell_new_game,
)
from arena.rules.board import DEFAULT_RULES, Rules
from arena.rules.errors import IllegalMoveError
from arena.rules.notation import parse_moves
from arena.rules.results import Termination


def session(moves: str = "", humans: tuple[int, ...] = (1,), rules: Rules = DEFAULT_RULES
            ) -> HumanGame:
    return HumanGame(rules, humans, parse_moves(moves, rules))


def test_turns_alternate_between_the_person_and_the_agent() -> None:
    game = session(humans=(2,))
    assert game.agent_to_move and not game.human_to_move
    game.apply(AgentReply(3))
    assert game.human_to_move and game.move_string == "4"
    game.play(3)
    assert game.agent_to_move and game.moves == [3, 3]


def test_undo_takes_back_the_agents_reply_and_the_persons_move() -> None:
    game = session()
    game.play(3)
    game.apply(AgentReply(2))
    assert game.undo_plies() == 2
    epoch = game.epoch
    assert game.undo() == [3, 2]
    assert game.moves == [] and game.human_to_move and game.epoch == epoch + 1
    assert game.undo_plies() == 0 and game.undo() == []


def test_undo_while_the_agent_is_to_move_takes_back_the_persons_move_only() -> None:
    game = session()
    game.play(3)
    assert game.undo() == [3] and game.human_to_move


def test_undo_goes_into_the_start_moves_but_never_past_the_persons_turn() -> None:
    game = session("44", humans=(2,))  # the agent (player 1) is to move
    assert game.undo_plies() == 1  # back to "4": player 2, the person, to move
    game = session("4", humans=(2,))  # the person is to move; before "4" the agent was
    assert game.undo_plies() == 0
    game = session("4", humans=(1,))  # the agent is to move: the start's "4" was the person's
    assert game.undo_plies() == 1


def test_a_win_ends_the_game_and_undo_reopens_it() -> None:
    game = session("445566")
    game.play(6)
    outcome = game.outcome()
    assert game.over and outcome is not None
    assert (outcome.winner, outcome.termination, outcome.move_string) == (
        1, Termination.FOUR_IN_A_ROW, "4455667")
    assert game.verdict() == "You win!"
    assert game.summary_line("ignored") == "You win! Game: 4455667"
    with pytest.raises(IllegalMoveError):
        game.play(0)
    assert game.undo() == [6] and not game.over and game.human_to_move


def test_a_full_board_is_a_draw() -> None:
    rules = Rules(rows=1, cols=3, connect=3)
    game = session("12", rules=rules)
    game.play(2)
    outcome = game.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.termination) == (0, Termination.BOARD_FULL)
    assert game.verdict() == "Draw."


def test_an_agent_forfeit_ends_the_game_with_its_reason() -> None:
    game = session()
    game.play(3)
    game.apply(AgentReply(None, Termination.ILLEGAL_MOVE, "column 9 is not a legal move"))
    outcome = game.outcome()
    assert game.over and outcome is not None and outcome.winner == 1
    assert game.verdict() == "You win! (illegal_move: column 9 is not a legal move)"
    assert game.undo() == [3] and game.outcome() is None


def test_a_game_left_unfinished_is_summed_up_with_its_moves() -> None:
    game = session("4")
    assert game.summary_line("you quit") == "Game abandoned (you quit). Moves so far: 4"
    assert session().summary_line("end of input") == \
        "Game abandoned (end of input). Moves so far: (none)"


def test_restart_returns_to_the_start_and_may_swap_sides() -> None:
    game = session("44")
    game.play(0)
    game.restart({2})
    assert game.moves == [3, 3] and game.humans == {2} and game.agent_to_move


def test_two_people_share_the_board_and_undo_one_ply_at_a_time() -> None:
    game = session(humans=(1, 2))
    game.play(0)
    game.play(1)
    assert game.player_name(1) == "Player 1"
    assert game.undo() == [1] and game.undo() == [0] and game.undo() == []


def test_ask_agent_turns_crashes_and_illegal_columns_into_forfeits() -> None:
    class Crashes:
        def new_game(self, game: object) -> None:
            raise KeyError("no")

        def choose(self, position: object, rng: object) -> int:
            raise RuntimeError("boom")

    class PlaysFullColumn:
        def new_game(self, game: object) -> None:
            pass

        def choose(self, position: object, rng: object) -> int:
            return 3

    rng = np.random.default_rng(0)
    full = session("444444").position
    crashes, plays_full = InlineHost.of(Crashes()), InlineHost.of(PlaysFullColumn())
    assert ask_agent(crashes, full, rng) == AgentReply(None, Termination.AGENT_ERROR,
                                                       "RuntimeError: boom")
    reply = ask_agent(plays_full, full, rng)
    assert reply.column is None and reply.termination == Termination.ILLEGAL_MOVE
    assert ask_agent(plays_full, session().position, rng) == AgentReply(3)
    assert tell_new_game(crashes, Rules(), 2)[0] == AgentReply(None, Termination.AGENT_ERROR,
                                                               "new_game: KeyError: 'no'")


def test_the_coin_picks_the_persons_side() -> None:
    assert draw_human_side("human", np.random.default_rng(0)) == 1
    assert draw_human_side("agent", np.random.default_rng(0)) == 2
    sides = {draw_human_side("random", np.random.default_rng(seed)) for seed in range(20)}
    assert sides == {1, 2}
    with pytest.raises(ValueError, match="first must be one of"):
        draw_human_side("nobody", np.random.default_rng(0))
