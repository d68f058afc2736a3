"""The pygame window, driven headless (SDL's dummy video driver) by scripted mouse and keys.

Each test opens a real window on a dummy display, posts pygame events as a person's mouse
and keyboard would, lets the window step through frames, and checks the game and the
pixels of the frame it drew.
"""

from __future__ import annotations

import importlib.util
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

from arena.play.gui.controller import PlayController
from arena.play.gui.layout import Layout
from arena.play.human_game import HumanGame
from arena.play.thinker import AgentProcess
from arena.rules.board import DEFAULT_RULES, Rules
from arena.rules.notation import from_moves, parse_moves, play_moves
from arena.search.oracle import Oracle
from arena.search.solver import SolverOracle
from tests.helpers.brute_force_oracle import BruteForceOracle
from tests.helpers.cli import invoke
from tests.helpers.paths import DATA

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

if importlib.util.find_spec("pygame") is not None:  # else the gui marker skips every test
    import pygame  # after choosing the dummy drivers

    from arena.play.gui import window as gui_window

pytestmark = pytest.mark.gui  # the gui extra (pygame); CI installs it: there, a missing one fails

AGENTS = DATA / "play_agents.py"
TIMEOUT = 60.0  # seconds before a test that waits for the agent gives up


class Driver:
    """A window with its controller, and a person's hand on its mouse and keyboard."""

    def __init__(self, agent: str | None, rules: Rules = DEFAULT_RULES, start: str = "",
                 human: int = 1, oracle: Oracle | None = None):
        self.lines: list[str] = []
        humans = {1, 2} if agent is None else {human}
        self.game = HumanGame(rules, humans, parse_moves(start, rules))
        self.thinker = AgentProcess(agent, np.random.SeedSequence(7)) if agent else None
        self.controller = PlayController(self.game, self.thinker, agent or "", "human",
                                         np.random.default_rng(0), oracle, self.lines.append)
        self.window = gui_window.GameWindow(self.controller, "test")
        self.layout: Layout = self.window.layout

    def post(self, kind: int, **attributes: object) -> None:
        pygame.event.post(pygame.event.Event(kind, **attributes))

    def click(self, x: int, y: int) -> None:
        self.post(pygame.MOUSEMOTION, pos=(x, y), rel=(0, 0), buttons=(0, 0, 0))
        self.post(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=1)
        self.post(pygame.MOUSEBUTTONUP, pos=(x, y), button=1)
        self.window.step()

    def click_column(self, column: int) -> None:
        self.click(*self.layout.hover_centre(column))

    def click_button(self, name: str) -> None:
        left, top, width, height = self.layout.buttons()[name]
        self.click(left + width // 2, top + height // 2)

    def key(self, key: int) -> None:
        self.post(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0)
        self.window.step()

    def step_until(self, done: Callable[[], bool]) -> None:
        deadline = time.monotonic() + TIMEOUT
        while not done():
            assert time.monotonic() < deadline, "the window waited too long"
            assert self.window.step(), "the window closed"
            time.sleep(0.005)

    def pixel(self, point: tuple[int, int]) -> tuple[int, int, int]:
        return tuple(self.window.screen.get_at(point))[:3]  # type: ignore[return-value]

    def close(self) -> None:
        self.controller.close()
        self.window.close()


@pytest.fixture
def open_window() -> Iterator[Callable[..., Driver]]:
    drivers: list[Driver] = []

    def make(*args: object, **kwargs: object) -> Driver:
        drivers.append(Driver(*args, **kwargs))  # type: ignore[arg-type]
        return drivers[-1]

    yield make
    for driver in drivers:
        driver.close()


def expected_colour(player: int) -> tuple[int, int, int]:
    return gui_window.DISCS.get(player, gui_window.HOLE)


def assert_frame_shows(driver: Driver, frame: pygame.Surface | None = None) -> None:
    """Every cell's centre has the colour of the disc the game has there."""
    frame = frame or driver.window.screen
    position, rules = driver.game.position, driver.game.rules
    for col in range(rules.cols):
        for row in range(rules.rows):
            colour = tuple(frame.get_at(driver.layout.cell_centre(col, row)))[:3]
            assert colour == expected_colour(position.cell(col, row)), (col, row)


def test_a_whole_game_against_random(open_window: Callable[..., Driver]) -> None:
    driver = open_window("random")
    while not driver.game.over:
        driver.step_until(lambda: driver.game.human_to_move or driver.game.over)
        if driver.game.human_to_move:
            driver.click_column(driver.game.position.legal_moves()[0])
    driver.window.step()
    position = play_moves(driver.game.position.empty(Rules()), driver.game.moves)
    assert position.is_terminal
    assert driver.game.moves[::2] == [  # the person always took the leftmost free column
        next(c for c in range(7) if play_moves(position.empty(Rules()),
                                               driver.game.moves[:ply]).can_play(c))
        for ply in range(0, len(driver.game.moves), 2)]
    assert driver.controller.status().startswith(driver.game.verdict())
    assert_frame_shows(driver)
    for col, row in position.winning_cells():  # the winning line wears a green ring
        x, y = driver.layout.cell_centre(col, row)
        assert driver.pixel((x + driver.layout.radius - 2, y)) == gui_window.WINNING
    driver.close()
    assert driver.lines == [f"{driver.game.verdict()} Game: {driver.game.move_string}"]


def test_the_disc_lands_in_the_right_cell_of_a_saved_frame(
        open_window: Callable[..., Driver], tmp_path: Path) -> None:
    driver = open_window("random")
    driver.click_column(3)
    driver.step_until(lambda: driver.game.human_to_move)
    reply = driver.game.moves[1]
    path = tmp_path / "frame.png"
    driver.window.save_frame(str(path))
    frame = pygame.image.load(str(path))
    assert tuple(frame.get_at(driver.layout.cell_centre(3, 0)))[:3] == gui_window.DISCS[1]
    reply_row = 1 if reply == 3 else 0
    assert tuple(frame.get_at(driver.layout.cell_centre(reply, reply_row)))[:3] == \
        gui_window.DISCS[2]
    assert tuple(frame.get_at(driver.layout.cell_centre(0 if reply else 1, 0)))[:3] == \
        gui_window.HOLE
    assert_frame_shows(driver, frame)


def test_a_click_on_a_full_column_is_refused(open_window: Callable[..., Driver]) -> None:
    driver = open_window(f"{AGENTS}:Sleeper:seconds=0.01", start="444444")
    driver.post(pygame.MOUSEMOTION, pos=driver.layout.hover_centre(3), rel=(0, 0),
                buttons=(0, 0, 0))
    driver.window.step()
    assert driver.pixel(driver.layout.hover_centre(3)) == gui_window.FADED[1]
    driver.click_column(3)
    assert driver.game.moves == [3] * 6 and not driver.controller.thinking
    assert driver.controller.status() == "Column 4 is full: pick another."
    driver.click_column(2)
    assert driver.game.moves == [3] * 6 + [2] and driver.controller.thinking
    driver.step_until(lambda: driver.game.human_to_move)
    assert driver.game.moves == [3] * 6 + [2, 0]  # the sleeper plays the leftmost column


def test_undo_takes_back_the_move_pair(open_window: Callable[..., Driver]) -> None:
    driver = open_window("random")
    driver.click_column(3)
    driver.step_until(lambda: driver.game.human_to_move)
    assert len(driver.game.moves) == 2
    driver.click_button("undo")
    driver.window.step()
    assert driver.game.moves == [] and driver.game.human_to_move
    assert_frame_shows(driver)
    assert driver.pixel(driver.layout.cell_centre(3, 0)) == gui_window.HOLE


def test_undo_while_the_agent_thinks_abandons_its_thought(
        open_window: Callable[..., Driver]) -> None:
    driver = open_window(f"{AGENTS}:Sleeper:seconds=60")
    driver.click_column(3)
    assert driver.controller.thinking and "is thinking" in driver.controller.status()
    driver.key(pygame.K_u)
    assert driver.game.moves == [] and not driver.controller.thinking
    driver.key(pygame.K_5)  # the person plays again at once; a fresh agent process thinks
    assert driver.game.moves == [4] and driver.controller.thinking


def test_closing_the_window_while_the_agent_thinks_ends_cleanly(
        open_window: Callable[..., Driver]) -> None:
    driver = open_window(f"{AGENTS}:Sleeper:seconds=60")
    driver.click_column(3)
    driver.step_until(lambda: driver.thinker is not None
                      and driver.thinker.host._child.process is not None)
    process = driver.thinker.host._child.process  # type: ignore[union-attr]
    driver.post(pygame.QUIT)
    began = time.monotonic()
    assert driver.window.step() is False
    driver.close()
    assert time.monotonic() - began < 10  # ended, not waited for: the agent sleeps 60 s
    assert process is not None and process.poll() is not None
    assert driver.lines == ["Game abandoned (window closed). Moves so far: 4"]


def test_new_game_reports_the_game_left_and_starts_again(
        open_window: Callable[..., Driver]) -> None:
    driver = open_window(f"{AGENTS}:Sleeper:seconds=0.01", start="44")
    driver.click_column(0)
    driver.step_until(lambda: driver.game.human_to_move)
    driver.click_button("new")
    assert driver.lines == ["Game abandoned (new game). Moves so far: 4411"]
    assert driver.game.moves == [3, 3] and driver.game.human_to_move


def test_two_people_at_one_window(open_window: Callable[..., Driver]) -> None:
    driver = open_window(None)
    for column in (3, 3, 4, 4, 5, 5):
        driver.click_column(column)
    assert "Player 1" in driver.controller.status()
    driver.key(pygame.K_7)
    driver.window.step()
    assert driver.game.verdict() == "Player 1 wins."
    assert_frame_shows(driver)


def test_hints_show_the_oracles_scores(open_window: Callable[..., Driver]) -> None:
    rules = Rules(rows=4, cols=4, connect=3)
    oracle = BruteForceOracle()
    driver = open_window(None, rules=rules, start="1122", oracle=oracle)
    driver.key(pygame.K_h)
    driver.step_until(lambda: driver.controller.hint_scores() is not None)
    scores = driver.controller.hint_scores()
    assert scores == oracle.column_scores(driver.game.position)
    assert scores is not None and scores[2] == (16 + 1 - 4) // 2  # X wins at once in column 3
    driver.window.step()
    x, y = driver.layout.hint_centre(2)
    box = [driver.pixel((x + dx, y + dy)) for dx in range(-12, 13) for dy in range(-8, 9)]
    assert gui_window.HINT_COLOURS[1] in box  # "+6" written in the colour of a win


@pytest.mark.slow
def test_the_solver_hints_while_the_window_keeps_drawing(
        open_window: Callable[..., Driver]) -> None:
    # A Test_L1_R3 position of 13 discs, one past the 6 x 7 database: its columns take the
    # solver about half a second; its published score is 1.
    oracle = SolverOracle()
    oracle.column_scores(from_moves("44444433"))  # compiled before the window opens
    driver = open_window(None, start="2147756677465", oracle=oracle)
    driver.key(pygame.K_h)
    frames, statuses = 0, set()
    while driver.controller.hint_scores() is None:
        statuses.add(driver.controller.status())
        assert driver.window.step(), "the window closed"
        frames += 1
        time.sleep(0.005)
    assert frames >= 10  # the solver searches without holding up the window
    assert "Player 2 (yellow, O): click a column  (hints: solving...)" in statuses
    scores = driver.controller.hint_scores()
    assert scores is not None and max(scores.values()) == 1
    assert "solving" not in driver.controller.status()


def test_without_an_oracle_hints_are_explained(open_window: Callable[..., Driver]) -> None:
    driver = open_window(None)
    driver.key(pygame.K_h)
    assert driver.controller.status() == "No hints: no solver is available."
    assert "hints" not in driver.layout.buttons()


@pytest.mark.parametrize("rules", [Rules(rows=4, cols=5, connect=3),
                                   Rules(rows=1, cols=9, connect=3),
                                   Rules(rows=63, cols=1, connect=3), Rules(rows=7, cols=8)])
def test_every_board_size_fits_and_plays(open_window: Callable[..., Driver],
                                          rules: Rules) -> None:
    driver = open_window(None, rules=rules)
    assert driver.layout.height <= 900 and driver.layout.width <= 900
    driver.click_column(rules.cols - 1)
    driver.window.step()
    assert driver.game.moves == [rules.cols - 1]
    assert_frame_shows(driver)


def test_arena_play_gui_prints_the_game_when_the_window_closes() -> None:
    layout = Layout.fit(Rules())

    def person() -> None:
        deadline = time.monotonic() + TIMEOUT
        while pygame.display.get_surface() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        x, y = layout.hover_centre(6)
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=1))
        pygame.event.post(pygame.event.Event(pygame.QUIT))

    hand = threading.Thread(target=person)
    hand.start()
    result = invoke("play", "random", "--gui", "--first", "human",
                    "--moves", "445566", "--seed", "1")
    hand.join()
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "Seed 1. Playing random on 6x7 connect 4 in a window."
    assert lines[-1] == "You win! Game: 4455667"
