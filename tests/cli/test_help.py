"""``arena --help`` lists every command with its own summary, without importing any command;
a mistyped command is told the commands close to it."""

from __future__ import annotations

import gc
import importlib
import subprocess
import sys

import pytest

from arena.cli import COMMANDS
from tests.helpers.cli import arena, arena_command, checkout_env


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_listed_summary_is_the_command_s_own(name: str) -> None:
    module, _, attribute = COMMANDS[name].target.partition(":")
    command = getattr(importlib.import_module(module), attribute)
    assert COMMANDS[name].summary == command.get_short_help_str(limit=1000)


def test_the_listing_names_every_command_with_the_start_of_its_summary() -> None:
    status, output = arena("--help")
    assert status == 0
    listed = output.split("Commands:\n", 1)[1].splitlines()
    assert [line.split()[0] for line in listed] == sorted(COMMANDS)
    for line in listed:
        name, shown = line.split(maxsplit=1)
        assert COMMANDS[name].summary.startswith(shown.removesuffix("..."))


@pytest.mark.parametrize(("typed", "line"), [
    (["macth"], "No such command 'macth'. Did you mean 'match'?"),
    (["tornament"], "No such command 'tornament'. Did you mean 'tournament'?"),
    (["ladder", "plase"], "No such command 'plase'. Did you mean 'place'?"),
    (["xyz"], "No such command 'xyz'.")])
def test_a_mistyped_command_is_told_what_it_may_have_meant(typed: list[str], line: str) -> None:
    """In a fresh process, as a user types it: no command imported yet."""
    done = subprocess.run(arena_command(*typed), env=checkout_env(), capture_output=True,
                          text=True)
    assert (done.returncode, done.stderr) == (2, f"arena: error: {line}\n")


def test_help_imports_no_command() -> None:
    probe = ("import sys; from arena.cli import main\n"
             "try: main(['--help'])\n"
             "except SystemExit: pass\n"
             "print(sorted(m for m in sys.modules if m.startswith('arena.cli.')))")
    shown = subprocess.run([sys.executable, "-c", probe], env=checkout_env(), text=True,
                           capture_output=True, check=True).stdout.splitlines()[-1]
    assert shown == str(["arena.cli.status"])


def test_only_the_process_s_own_command_line_freezes_its_objects_before_exit() -> None:
    # Frozen, the objects left are not collected again at exit; a test's in-process
    # invocation must leave its own process's collector alone.
    probe = ("import atexit, gc, sys; from arena.cli import main\n"
             "atexit.register(lambda: print('frozen', gc.get_freeze_count() > 0))\n"
             "main()")
    shown = subprocess.run([sys.executable, "-c", probe, "--version"], env=checkout_env(),
                           text=True, capture_output=True, check=True).stdout.splitlines()
    assert shown[-1] == "frozen True"
    before = gc.get_freeze_count()
    status, _ = arena("--version")
    assert status == 0
    assert gc.get_freeze_count() == before
