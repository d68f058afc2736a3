"""CI: the arena as a user installs it from a wheel, not from this checkout.

``pip wheel .`` builds the distribution (its C++ core compiled); the wheel is installed, not
editable, into a fresh venv that sees this Python's installed packages but none of their
start-up hooks (``tests/helpers/venvs``: the checkout's editable install would otherwise be
imported instead). From an empty directory it must then run the README's first command and
print the README's figures, and find what it ships as package data: the 6 x 7 database (the
empty board's column scores), the shipped network (``net`` plays), the ladder's anchors
(``ladder show`` without a ladder file) and Pons' position sets (``bench --set pons``).
Exit status 1 with what differed."""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.helpers.venvs import installed_python  # noqa: E402

EMPTY_BOARD_COLUMNS = "-2   -1    0    1    0   -1   -2"
"""The empty 6 x 7 board's column scores (Pons' convention, from the published database)."""


def readme_output() -> list[str]:
    """The lines the README shows its first command printing, up to the ms/move lines."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"It prints:\n\n```text\n(.*?)```", text, re.S)
    assert block is not None, "the README shows no output of its first command"
    lines = block[1].splitlines()
    return lines[:lines.index(next(line for line in lines if line.startswith("ms/move")))]


def readme_command() -> list[str]:
    """The arena command of the README's first line of commands."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    first = re.search(r"```bash\n(.*?)\n", text)
    assert first is not None
    return first[1].split(" && ", 1)[1].split()[1:]


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="wheel-check-") as scratch:
        python = installed_python(ROOT, Path(scratch) / "build")
        arena = python.parent / "arena"
        empty = Path(scratch) / "empty"
        empty.mkdir()

        def run(*args: str) -> str:
            done = subprocess.run([str(arena), *args], cwd=empty, capture_output=True,
                                  text=True)
            if done.returncode != 0:
                raise SystemExit(f"arena {' '.join(args)} failed ({done.returncode}):\n"
                                 f"{done.stderr}")
            return done.stdout

        where = subprocess.run([str(python), "-c", "import arena; print(arena.__file__)"],
                               cwd=empty, capture_output=True, text=True, check=True).stdout
        failures = [] if Path(where.strip()).is_relative_to(scratch) else [
            f"the venv imports the arena from {where.strip()}, not from its wheel"]
        printed = run(*readme_command()).splitlines()
        expected = readme_output()
        if printed[:len(expected)] != expected:
            failures.append("the README's first command printed\n  " + "\n  ".join(printed)
                            + "\nwhere the README shows\n  " + "\n  ".join(expected))
        if EMPTY_BOARD_COLUMNS not in run("solve", "", "--columns"):
            failures.append("arena solve '' --columns: not the database's column scores")
        if not run("match", "net", "random", "-n", "2", "-j", "1", "--no-report",
                   "--quiet").startswith("net ["):
            failures.append("the shipped network did not play")
        if "solver (anchor)" not in run("ladder", "show"):
            failures.append("arena ladder show: the shipped anchors are missing")
        if "random  pons" not in run("bench", "--agents", "random", "--set", "pons", "--quick",
                                     "--no-fresh-process"):
            failures.append("arena bench --set pons: Pons' positions are missing")
    for failure in failures:
        print(f"wheel check: {failure}", file=sys.stderr)
    if not failures:
        print("wheel check: the installed wheel ran the README's first command and found its "
              "database, network, anchors and position sets")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
