"""The documentation cannot go stale: every command and Python block a tutorial shows is run
in an empty directory and its shown output compared with what it prints (timings and dates
excepted); the site builds with ``--strict`` and asks for nothing outside itself; its pages
fit 1280 and 390 px in Chromium and its search finds "pentanomial"; the run directory's
reference lists the columns a real run writes.

A tutorial's blocks, in order (one temporary directory per page, holding a copy of
``examples/``):

- ``console``: each ``$ arena ...`` line is run; the lines after it, up to the next ``$``,
  are its shown output (``...`` stands for any lines);
- ``bash``: each line starting with ``arena`` is run (install lines are not);
- ``python`` with ``title="FILE"``: written to FILE; other ``python`` blocks are run.

A comment ``<!-- check: OLD => NEW -->`` just before a block runs its commands with OLD
replaced by NEW (fewer games, a smaller board); their output is then not compared.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import re
import shlex
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import ModuleType

import pandas as pd
import pytest

import arena
from tests.helpers.browser import Browser
from tests.helpers.cli import arena_command, checkout_env
from tests.helpers.extras import chromium, missing
from tests.helpers.paths import ROOT

DOCS = ROOT / "docs"
TUTORIALS = sorted((DOCS / "tutorials").glob("*.md"))
BLOCK = re.compile(r"^(?:<!-- check: (?P<check>.+?) -->\n)?```(?P<lang>\w+)(?P<attrs>[^\n]*)\n"
                   r"(?P<body>.*?)\n```$", re.MULTILINE | re.DOTALL)
DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
TIMED = re.compile(r"^ms/move|\b\d+(?:\.\d+)? s\b|\d+/s\b")
"""A line whose numbers are timings: compared without its numbers."""
TIMED_COLUMNS = ("ms/move",)
"""A table column of timings: its cells are compared without their numbers."""


def _hook() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docs_generated", DOCS / "hooks" /
                                                  "generated.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


generated = _hook()


# --------------------------------------------------------------------------- the blocks


@dataclass
class Shown:
    """One command of a tutorial, what it shows it prints (None: not shown) and whether the
    command was changed to be run (then its output is not compared)."""

    kind: str  # "arena", "python" or "file"
    text: str  # the command line, the Python source, or the file's text
    output: list[str] | None = None
    changed: bool = False
    name: str = ""  # a file's name
    needs: list[str] = field(default_factory=list)


def _substitutions(check: str | None) -> list[tuple[str, str]]:
    if not check:
        return []
    pairs = [part.split(" => ") for part in check.split(" ; ")]
    assert all(len(pair) == 2 for pair in pairs), check
    return [(old, new) for old, new in pairs]


def _apply(text: str, substitutions: list[tuple[str, str]]) -> tuple[str, bool]:
    changed = text
    for old, new in substitutions:
        changed = changed.replace(old, new)
    return changed, changed != text


def shown(page: Path) -> list[Shown]:
    """Everything ``page`` shows to be run, in order."""
    found = []
    for match in BLOCK.finditer(page.read_text()):
        lang, body, subs = match["lang"], match["body"], _substitutions(match["check"])
        if lang == "console":
            for chunk in re.split(r"^(?=\$ )", body, flags=re.MULTILINE):
                if not chunk.startswith("$ arena "):
                    continue
                command, *output = chunk.rstrip("\n").split("\n")
                text, changed = _apply(command[2:], subs)
                found.append(Shown("arena", text, output, changed))
        elif lang == "bash":
            for line in body.splitlines():
                if line.startswith("arena "):
                    text, changed = _apply(line.split("  #")[0].strip(), subs)
                    found.append(Shown("arena", text, None, changed))
        elif lang == "python":
            title = re.search(r'title="([^"]+)"', match["attrs"])
            text, changed = _apply(body, subs)
            needs = ["rl"] if "pettingzoo" in body or "gymnasium" in body else []
            found.append(Shown("file", text, name=title[1]) if title
                         else Shown("python", text, changed=changed, needs=needs))
    return found


def _normal(line: str, timed: set[int]) -> str:
    """A printed line as compared: dates and timings without their numbers, table cells
    joined by two spaces (a wider number may move a column)."""
    line = DATE.sub("DATE", line.rstrip())
    if TIMED.search(line.strip()):
        return re.sub(r"\d+(?:\.\d+)?", "#", " ".join(line.split()))
    cells = re.split(r" {2,}", line.strip())
    return "  ".join(re.sub(r"[\d.]+", "#", cell) if index in timed else cell
                     for index, cell in enumerate(cells))


def _normalized(lines: list[str]) -> list[str]:
    """Each line normalized, the cells of a timing column masked in the rows of its table."""
    result, timed, width = [], set(), 0
    for line in lines:
        cells = re.split(r" {2,}", line.strip())
        if any(cell in TIMED_COLUMNS for cell in cells):
            timed, width = {cells.index(name) for name in TIMED_COLUMNS if name in cells}, len(
                cells)
        elif len(cells) != width:
            timed = set()
        result.append(_normal(line, timed))
    return result


def matches(shown_lines: list[str], printed: list[str]) -> bool:
    """Whether ``printed`` is what ``shown_lines`` shows, ``...`` standing for any lines."""
    want, got = _normalized(shown_lines), _normalized(printed)

    @functools.cache
    def fits(i: int, j: int) -> bool:
        if i == len(want):
            return j == len(got)
        if want[i] == "...":
            return any(fits(i + 1, k) for k in range(j, len(got) + 1))
        return j < len(got) and want[i] == got[j] and fits(i + 1, j + 1)

    return fits(0, 0)


def test_the_matching_masks_timings_and_dates_and_skips_ellipses() -> None:
    assert matches(["a", "...", "ms/move     A 0.009, B 0.008", "z"],
                   ["a", "b", "c", "ms/move     A 0.021, B 0.010", "z"])
    assert not matches(["Games  1000  (W 957, D 19, L 24)"], ["Games  1000  (W 956, D 19, L 25)"])
    assert matches(["run  date        W", "h    2026-11-27  151"],
                   ["run  date        W", "h    2027-01-02  151"])
    table = ["agent  set     ms/move  nodes/move", "neg    random  0.0219   21"]
    assert matches(table, [table[0], "neg    random  0.023    21"])
    assert not matches(table, [table[0], "neg    random  0.023    22"])


def test_every_tutorial_shows_commands_with_their_output() -> None:
    assert {page.stem for page in TUTORIALS} >= {"first-match", "comparing-heuristics",
                                                  "ladder", "your-agent", "training"}
    for page in TUTORIALS:
        commands = [item for item in shown(page) if item.kind == "arena"]
        assert commands, page
        assert any(item.output for item in commands), f"{page} shows no output"


def _run(item: Shown, cwd: Path) -> str:
    if item.kind == "file":
        (cwd / item.name).write_text(item.text + "\n")
        return ""
    args = (arena_command(*shlex.split(item.text)[1:]) if item.kind == "arena"
            else [sys.executable, "-c", item.text])
    done = subprocess.run(args, cwd=cwd, env=checkout_env(), stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=900)
    assert done.returncode == 0, f"{item.text}\nexited {done.returncode}:\n{done.stdout}"
    return done.stdout


@pytest.mark.slow
@pytest.mark.parametrize("page", TUTORIALS, ids=[page.stem for page in TUTORIALS])
def test_every_command_of_a_tutorial_runs_and_prints_what_it_shows(page: Path,
                                                                     tmp_path: Path) -> None:
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    ran, own = 0, {"examples"}
    for item in shown(page):
        if any(missing(extra) for extra in item.needs):
            continue
        printed = _run(item, tmp_path)
        ran += item.kind != "file"
        own |= {item.name} if item.kind == "file" else set()
        if item.output is not None and not item.changed:
            assert matches(item.output, printed.rstrip().splitlines()), (
                f"{page.name}: `{item.text}` printed\n{printed}\nwhere the page shows\n"
                + "\n".join(item.output))
    assert ran
    written = [path.relative_to(tmp_path).as_posix() for path in tmp_path.rglob("*")
               if path.is_file() and path.relative_to(tmp_path).parts[0] not in own]
    assert not unignored(written), f"{page.name} writes where a checkout shows changes"


def unignored(paths: list[str]) -> list[str]:
    """Those of ``paths`` (relative to a checkout's top) that git would show as changed or
    new in the checkout: tracked files, or files its .gitignore does not ignore. None without
    a git checkout."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        return []
    done = subprocess.run(["git", "-C", str(ROOT), "check-ignore", "--stdin"],
                          input="\n".join(paths), capture_output=True, text=True)
    assert done.returncode in (0, 1), done.stderr  # 1: none of them is ignored
    return sorted(set(paths) - set(done.stdout.splitlines()))


def test_the_readme_s_commands_write_where_a_checkout_stays_clean() -> None:
    """Every --out and --db of the README's commands is a path git ignores (a checkout of
    the arena is where they are first tried)."""
    commands = [line for line in (ROOT / "README.md").read_text().splitlines()
                if line.startswith("arena ")]
    outputs = [path for line in commands for path in re.findall(r"(?:--out|--db) (\S+)", line)]
    assert len(outputs) >= 3
    assert not unignored(outputs)


HEURISTICS = DOCS / "tutorials" / "comparing-heuristics.md"
PLAYING = ("match", "sprt", "tournament")
"""The commands that play games."""


def _played(page: Path) -> dict[str, list[list[str]]]:
    """The arguments of each command of ``page`` that plays games, by command."""
    found: dict[str, list[list[str]]] = {}
    for item in shown(page):
        args = shlex.split(item.text)[1:] if item.kind == "arena" else []
        if args and args[0] in PLAYING:
            found.setdefault(args[0], []).append(args)
    return found


def test_every_game_of_the_heuristics_tutorial_starts_from_the_same_openings() -> None:
    """No step of the page hangs on a command's own default: each names its openings, the
    same for all."""
    played = [args for commands in _played(HEURISTICS).values() for args in commands]
    assert sorted({args[0] for args in played}) == list(PLAYING)
    openings = {args[args.index("--openings") + 1] if "--openings" in args else None
                for args in played}
    assert openings == {"random:4"}


@pytest.mark.slow
def test_the_heuristics_tutorial_s_sprt_agrees_with_its_round_robin(tmp_path: Path) -> None:
    """The page's SPRT and round robin, run as it shows them (without their reports): the
    hypothesis the test accepts agrees with how the round robin ranks the two agents, head
    to head and in its ratings."""
    played = _played(HEURISTICS)
    [sprt], [tournament] = played["sprt"], played["tournament"]
    for args, out in ((sprt, "sprt"), (tournament, "rr")):
        done = subprocess.run(arena_command(*args, "--no-report", "--out", str(tmp_path / out)),
                              env=checkout_env(), capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stdout + done.stderr
    runs = [json.loads((tmp_path / out / "meta.json").read_text())["run"]
            for out in ("sprt", "rr")]
    assert runs[0]["openings"] == runs[1]["openings"] and runs[0]["board"] == runs[1]["board"]
    [(a, b, *_)] = runs[0]["pairings"]  # the agent under test, the baseline
    verdict = pd.read_csv(tmp_path / "sprt" / "sprt.csv")["verdict"].iloc[-1]
    ratings = pd.read_csv(tmp_path / "rr" / "ratings.csv").set_index("agent")
    crosstable = pd.read_csv(tmp_path / "rr" / "crosstable.csv").set_index(
        ["agent", "opponent"])
    stronger = ratings.at[a, "low"] > ratings.at[b, "high"]  # apart at 95%
    if verdict == "accept H1":  # A stronger than B (H0 nElo 0)
        assert ratings.at[a, "rating"] > ratings.at[b, "rating"]
        assert crosstable.at[(a, b), "score"] > 0.5
    else:
        assert verdict == "accept H0" and not stronger


def test_the_readme_shows_the_first_tutorial_s_command_and_output() -> None:
    """The README's first command and its output are the first tutorial's (which runs it)."""
    readme = (ROOT / "README.md").read_text()
    first = next(item for item in shown(DOCS / "tutorials" / "first-match.md")
                 if item.kind == "arena")
    assert f"&& {first.text}\n" in readme
    printed = readme.split("```text\n", 1)[1].split("\n```", 1)[0].splitlines()
    assert printed == first.output
    assert len(readme.splitlines()) <= 150


# --------------------------------------------------------------------------- the site


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built as CI builds it (``--strict``: a broken link or anchor fails)."""
    if missing("docs"):
        pytest.skip(missing("docs") or "")
    out = tmp_path_factory.mktemp("site") / "site"
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
                           "--site-dir", str(out)], cwd=ROOT,
                          env={**checkout_env(), "NO_MKDOCS_2_WARNING": "1"},
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return out


PAGES = ("index.html", "tutorials/first-match.html", "tutorials/comparing-heuristics.html",
         "reference/cli.html", "reference/run-directory.html", "reference/agents.html",
         "explanation/statistics.html", "explanation/charts.html", "benchmarks.html")
"""Pages checked in the browser: the home page, tutorials with long command lines, the wide
tables of the reference, the charts, the benchmarks' wide outputs."""


@pytest.mark.docs
def test_the_site_builds_and_asks_for_nothing_outside_itself(site: Path) -> None:
    pages = list(site.rglob("*.html"))
    assert len(pages) >= 30 and all((site / page).is_file() for page in PAGES)
    fetched = re.compile(r"<(?:script|link|img|iframe|source)\b[^>]*\b(?:src|href)="
                         r"\"(?:https?:)?//", re.IGNORECASE)
    outside = [page.name for page in pages if fetched.search(page.read_text())]
    assert not outside, f"pages that fetch from outside the site: {outside}"
    assert "pentanomial" in (site / "search" / "search_index.json").read_text()


@pytest.mark.docs
def test_the_reference_lists_every_command_and_agent(site: Path) -> None:
    from arena.cli import COMMANDS
    from arena.protocol.registry import registry

    cli = (site / "reference" / "cli.html").read_text()
    for name in COMMANDS:
        assert f"<code>arena {name}</code>" in cli, name
    agents = (site / "reference" / "agents.html").read_text()
    for name in registry():
        assert f"$ arena agents {name}" in agents, name


@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[str]:
    """The site served on the loopback interface (the search runs in a web worker, which
    browsers do not start from file://)."""

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0),
                                 functools.partial(Quiet, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    thread.join()


@pytest.mark.docs
@pytest.mark.chromium
def test_pages_fit_a_desktop_and_a_phone_and_search_finds_pentanomial(
        served: str, tmp_path: Path) -> None:
    executable = chromium()
    assert executable is not None
    with Browser(executable, tmp_path / "profile") as browser:
        for width in (1280, 390):
            for page in PAGES:
                tab = browser.open(served + page, width, 900, mobile=width < 600)
                scroll, inner = tab.evaluate(
                    "[document.documentElement.scrollWidth, window.innerWidth]")
                assert scroll <= inner, f"{page} at {width} px: {scroll} px wide"
                tab.screenshot(tmp_path / f"{page.replace('/', '-')}-{width}.png", whole=False)
            tab = browser.open(served + "index.html?q=pentanomial", width, 900,
                               mobile=width < 600)
            found, deadline = "", time.monotonic() + 30
            while not found and time.monotonic() < deadline:
                found = tab.evaluate("Array.from(document.querySelectorAll("
                                     "'.md-search-result__item'), e => e.innerText).join(' ')")
                time.sleep(0.2)
            assert "pentanomial" in found.lower(), f"no search result at {width} px"


# --------------------------------------------------------------------------- the files


def test_the_run_directory_page_lists_the_columns_a_real_run_writes(tmp_path: Path) -> None:
    """A small tournament's games.csv, summary.csv, ratings.csv and crosstable.csv have
    exactly the columns the reference describes, in its order."""
    out = tmp_path / "run"
    arena.tournament(["random", "immediate-win", "negamax:depth=1"], 2, out=str(out), jobs=1,
                     progress=False)
    for name, file in (("games-columns", "games.csv"), ("summary-columns", "summary.csv"),
                       ("ratings-columns", "ratings.csv"),
                       ("crosstable-columns", "crosstable.csv")):
        header = list(pd.read_csv(out / file, nrows=0).columns)
        assert header == list(generated.TABLES[name][1]), file
        assert generated.column_table(name).count("\n") == len(header) + 1
    page = (DOCS / "reference" / "run-directory.md").read_text()
    assert all(f"<!-- generated: {name} -->" in page for name in generated.TABLES)


def test_the_dataset_page_lists_the_columns_of_a_dataset(tmp_path: Path) -> None:
    from arena.analysis.dataset_files import frame, read_dataset

    out = tmp_path / "games.npz"
    done = subprocess.run(arena_command("dataset", "-n", "2", "--no-solve", "--quiet",
                                        "--out", str(out)), env=checkout_env(),
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    columns = list(frame(read_dataset(out)).columns)
    assert columns == list(generated.DATASET), columns
