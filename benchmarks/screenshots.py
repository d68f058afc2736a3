"""Screenshots of the window and of the replay page, for the README (not a test).

    python benchmarks/screenshots.py [--out-dir docs/images]

The window: a game of a scripted person (random columns) against negamax:depth=4, on the
display in DISPLAY (run it under ``xvfb-run`` for a real X server) or SDL's dummy driver,
saved after six plies and when the game ends; and the solver's hints over a position of
Pons' Test_L2_R1 set. The replay page: two games of a
match exported with ``arena export html`` and drawn by headless Chromium at the last ply.
The report page: report.html of a four-agent tournament (20 games a pairing) drawn by
headless Chromium at a desktop's 1280 px and a phone's 390 px (``--only report`` for it
alone).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--hide-scrollbars")


def window_screenshots(playing: Path, ended: Path) -> str:
    """Play a scripted game in the window; save a frame after six plies (the mouse over a
    column) and the last one. Returns the verdict."""
    if not os.environ.get("DISPLAY"):
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    from arena.play.gui.controller import PlayController
    from arena.play.gui.window import GameWindow, pygame
    from arena.play.human_game import HumanGame
    from arena.play.thinker import AgentProcess
    from arena.rules.board import Rules

    agent = "negamax:depth=4"
    game = HumanGame(Rules(), {1})
    controller = PlayController(game, AgentProcess(agent, np.random.SeedSequence(4)),
                                agent, "human", echo=print)
    window = GameWindow(controller, f"Connect Four Arena: {agent}")
    person = np.random.default_rng(2)
    while not game.over:
        if game.human_to_move and len(game.moves) == 6 and not playing.exists():
            controller.hover = 4
            window.step()
            window.save_frame(str(playing))
        if game.human_to_move:
            column = int(person.choice(game.position.legal_moves()))
            x, y = window.layout.hover_centre(column)
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=1))
        window.step()
        time.sleep(0.01)
    window.step()
    window.save_frame(str(ended))
    verdict = game.verdict()
    controller.close()
    window.close()
    return verdict


def hints_screenshot(path: Path, moves: str = "52753311433677442422121") -> None:
    """The window with the solver's score over every column of the position after ``moves``
    (the second position of Test_L2_R1, whose published score is 8)."""
    if not os.environ.get("DISPLAY"):
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    from arena.play.gui.controller import PlayController
    from arena.play.gui.window import GameWindow
    from arena.play.human_game import HumanGame
    from arena.rules.board import Rules
    from arena.rules.notation import parse_moves
    from arena.search.solver import SolverOracle

    game = HumanGame(Rules(), {1, 2}, parse_moves(moves, Rules()))
    controller = PlayController(game, None, "", "human", oracle=SolverOracle(), echo=print)
    controller.toggle_hints()
    window = GameWindow(controller, "Connect Four Arena: hints")
    scores = controller.hint_scores()
    while scores is None:
        window.step()
        time.sleep(0.01)
        scores = controller.hint_scores()
    controller.hover = max(scores, key=scores.__getitem__)  # the mouse over a best column
    window.step()
    window.save_frame(str(path))
    controller.close()
    window.close()


def replay_screenshot(path: Path) -> None:
    """Export two games of a match and let Chromium draw the page."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        raise SystemExit("Chromium is not installed: apt-get install chromium")
    with tempfile.TemporaryDirectory() as work:
        run = Path(work) / "run"
        arena = [sys.executable, "-c", "from arena.cli import main; main()"]
        subprocess.run([*arena, "match", "negamax:depth=2", "immediate-win", "-n", "2", "-j",
                        "1", "--out", str(run), "--quiet", "--no-report"],
                       check=True, capture_output=True)
        subprocess.run([*arena, "export", "html", str(run)], check=True, capture_output=True)
        subprocess.run([browser, *CHROMIUM_FLAGS, f"--user-data-dir={work}/profile",
                        "--window-size=900,640", f"--screenshot={path}",
                        f"{(run / 'replay.html').as_uri()}#game=1"],
                       check=True, capture_output=True, timeout=120)


def report_screenshots(desktop: Path, phone: Path) -> None:
    """report.html of a small tournament at 1280 px (its first screen and a half) and at
    390 px (its first screen), drawn by headless Chromium over the DevTools protocol."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        raise SystemExit("Chromium is not installed: apt-get install chromium")
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.helpers.browser import Browser

    with tempfile.TemporaryDirectory() as work:
        run = Path(work) / "run"
        arena = [sys.executable, "-c", "from arena.cli import main; main()"]
        subprocess.run([*arena, "tournament", "random", "immediate-win", "negamax:depth=2",
                        "negamax:depth=4", "-n", "20", "--out", str(run), "--quiet"],
                       check=True, capture_output=True)
        with Browser(browser, Path(work) / "profile") as chromium:
            chromium.open((run / "report.html").as_uri(), 1280, 1400).screenshot(
                desktop, whole=False)
            chromium.open((run / "report.html").as_uri(), 390, 844, mobile=True).screenshot(
                phone, whole=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out-dir", type=Path, default=Path("docs/images"))
    parser.add_argument("--only", choices=("report",), default=None,
                        help="only the report page's screenshots")
    args = parser.parse_args()
    args.out_dir.mkdir(parents=True, exist_ok=True)
    desktop, phone = args.out_dir / "report-html.png", args.out_dir / "report-html-phone.png"
    if args.only == "report":
        report_screenshots(desktop, phone)
        print(f"report page: {desktop} and {phone}")
        return
    playing, ended = args.out_dir / "window-playing.png", args.out_dir / "window-ended.png"
    playing.unlink(missing_ok=True)
    verdict = window_screenshots(playing, ended)
    print(f"window: {playing} and {ended} ({verdict})")
    hints_screenshot(args.out_dir / "window-hints.png")
    print(f"hints: {args.out_dir / 'window-hints.png'}")
    replay_screenshot(args.out_dir / "replay.png")
    print(f"replay page: {args.out_dir / 'replay.png'}")
    report_screenshots(desktop, phone)
    print(f"report page: {desktop} and {phone}")


if __name__ == "__main__":
    main()
