"""A person at a terminal is told once when the kernels compile (the first command after an
install, silent for about a minute otherwise); a warm cache, a pipe or the user's own numba
code gets no line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from arena.search.kernels.compiling import NOTICE
from tests.helpers.cli import checkout_env
from tests.helpers.terminal import arena_on_terminal, on_terminal

KERNEL = ("import numpy as np; from arena.rules.board import Rules; "
          "from arena.search.kernels.bitboard import board_tables, has_line; "
          "t = board_tables(Rules()); print(has_line(np.uint64(15), t), has_line(np.uint64(5), t))")
"""Compiles one small kernel (a second call needs no compilation)."""
OWN_NUMBA = ("import numba, arena.search.kernels; "
             "print(numba.njit(lambda x: x + 1)(1))")
"""Compiles the user's own function beside the imported kernels."""


RESET = "\x1b[0m"
"""What a process that compiled with numba writes to a terminal at exit (the reset of
colorama, which numba loads)."""


def python(code: str) -> list[str]:
    return [sys.executable, "-c", code]


def lines(drawn: str) -> list[str]:
    return [line for line in drawn.replace(RESET, "").splitlines() if line]


def test_the_first_compilation_on_a_terminal_says_so_once(tmp_path: Path) -> None:
    cache = {"NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    code, drawn = on_terminal(python(KERNEL), cwd=tmp_path, env=cache)
    assert code == 0 and lines(drawn) == [NOTICE, "True False"]
    code, drawn = on_terminal(python(KERNEL), cwd=tmp_path, env=cache)
    assert code == 0 and lines(drawn) == ["True False"]  # cached: nothing compiles


def test_output_read_by_a_program_never_gets_the_line(tmp_path: Path) -> None:
    done = subprocess.run(python(KERNEL), cwd=tmp_path, capture_output=True,
                          text=True, check=True,
                          env={**checkout_env(), "NUMBA_CACHE_DIR": str(tmp_path / "numba")})
    assert (done.stdout, done.stderr) == ("True False\n", "")


def test_the_user_s_own_numba_code_is_not_called_the_kernels(tmp_path: Path) -> None:
    code, drawn = on_terminal(python(OWN_NUMBA), cwd=tmp_path,
                              env={"NUMBA_CACHE_DIR": str(tmp_path / "numba")})
    assert code == 0 and lines(drawn) == ["2"]


@pytest.mark.slow
def test_the_first_match_after_an_install_says_it_compiles(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    code, drawn = arena_on_terminal("match", "random", "random", "-n", "2", "-j", "1",
                                    "--quiet", "--no-report", "--out", "run", cwd=tmp_path)
    assert code == 0 and lines(drawn)[0] == NOTICE and drawn.count(NOTICE) == 1
