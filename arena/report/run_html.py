"""A run's report.html: report.md's sections with the charts inline as SVG, and a table of
notable games (each pairing's shortest win either way, a draw, its longest game, the first
game of every forfeit), each linked to its place in report-games.html, the replay page of
those games."""

from __future__ import annotations

import html
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from arena.report.html_page import write_html_page
from arena.report.inline_svg import figure_svg, svg_element
from arena.report.markdown_html import markdown_html, table_html
from arena.report.replay_page import write_replay_page
from arena.rules.results import Result, Termination
from arena.runs.store.files import RunFiles
from arena.runs.store.recorded import load_recorded_games

MAX_PAIRINGS = 40
"""Pairings whose notable games are listed (in the order of games.csv); more would bury them."""
NATURAL = frozenset({Termination.FOUR_IN_A_ROW.value, Termination.BOARD_FULL.value})
"""How a game ends on the board; any other termination is a forfeit."""


def _pairing_games(rows: pd.DataFrame) -> Iterator[tuple[int, str]]:
    """The notable games of one pairing's rows (columns game, plies, result, termination):
    (game index, why it is listed)."""
    index = rows["game"].to_numpy(dtype=int)
    plies = rows["plies"].to_numpy(dtype=int)
    # Compared as the frame's categories: a NumPy copy of a text column makes a string a row.
    for outcome, why in ((Result.WIN, "A's shortest win"), (Result.LOSS, "A's shortest loss")):
        mine = np.flatnonzero(rows["result"] == outcome.value)
        if len(mine):
            yield int(index[mine[np.argmin(plies[mine])]]), why
    draws = np.flatnonzero(rows["result"] == Result.DRAW.value)
    if len(draws):
        yield int(index[draws[0]]), "a draw"
    yield int(index[np.argmax(plies)]), "the longest game"
    termination = rows["termination"]
    for kind in sorted(set(termination.unique()) - NATURAL):
        yield int(index[np.flatnonzero(termination == kind)[0]]), f"first {kind.replace('_', ' ')}"


def notable_games(games: pd.DataFrame) -> pd.DataFrame:
    """The rows of ``games`` (columns game, agent_a, agent_b, first, result, plies,
    termination) worth a look, each with why (column ``why``: reasons joined by '; '), in
    the order of the games; the first ``MAX_PAIRINGS`` pairings only."""
    reasons: dict[int, list[str]] = {}
    narrow = games[["game", "plies", "result", "termination"]]  # not every column per pairing
    pairing = games.groupby(["agent_a", "agent_b"], sort=False, observed=True).ngroup()
    numbers = pairing.to_numpy()
    for number in range(min(int(numbers.max()) + 1, MAX_PAIRINGS)):
        for game, why in _pairing_games(narrow.iloc[np.flatnonzero(numbers == number)]):
            reasons.setdefault(game, []).append(why)
    chosen = games[games["game"].isin(list(reasons))].sort_values("game")
    return chosen.assign(why=[", ".join(reasons[int(g)]) for g in chosen["game"]])


def _games_section(notable: pd.DataFrame, labels: Mapping[str, str], pairings: int) -> str:
    page = RunFiles.REPORT_GAMES
    rows = []
    for game, a, b, first, result, plies, termination, why in zip(*(notable[c] for c in (
            "game", "agent_a", "agent_b", "first", "result", "plies", "termination", "why")),
            strict=True):
        cells = (labels[a], labels[b], labels[a if first == "a" else b], result, plies,
                 str(termination).replace("_", " "), why)
        rows.append([f'<a href="{page}#game={game}">{game}</a>',
                     *(html.escape(str(cell)) for cell in cells)])
    header = ("game", "A", "B", "moved first", "A's result", "plies", "ended by", "why listed")
    cut = (f" The first {MAX_PAIRINGS} of {pairings} pairings only."
           if pairings > MAX_PAIRINGS else "")
    return (f'<h2 id="games">Notable games</h2>\n<p>Each pairing\'s shortest win for either side, '
            f"a draw, its longest game and the first game of every kind of forfeit; a game's "
            f'number opens it in the replay page (<a href="{page}">{page}</a>).{cut}</p>\n'
            + table_html(header, rows))


def write_run_html(directory: Path, games: pd.DataFrame, labels: Mapping[str, str],
                   markdown: str, figures: Mapping[str, Figure],
                   saved: Collection[Path] = (), drawn: Mapping[str, str] | None = None,
                   notable: bool = True) -> Path:
    """Write report.html (from report.md's ``markdown``, the ``figures`` by chart kind
    inline: a figure among the ``saved`` files as SVG is read from its file, and one
    ``drawn`` already, as an inline SVG element by kind, is taken as it is: neither is drawn
    again) and, with ``notable`` (a run of its own, not a tournament's rounds), the replay
    page of its notable games into ``directory``; return its path."""
    files = RunFiles(directory)
    drawn = drawn or {}
    svgs = {kind: svg_element(files.chart(kind, "svg").read_text(), kind)
            if files.chart(kind, "svg") in saved
            else drawn.get(kind) or figure_svg(figure, kind)
            for kind, figure in figures.items()}
    charts = {files.chart(kind, shown).name: svg for kind, svg in svgs.items()
              for shown in ("png", "svg")}  # the page shows the PNG, else the SVG
    body = markdown_html(markdown, charts)
    if notable and len(games):
        chosen = notable_games(games)
        write_replay_page(directory, load_recorded_games(directory, chosen["game"].tolist()),
                          files.report_games)
        pairings = games.groupby(["agent_a", "agent_b"], sort=False).ngroups
        body += "\n" + _games_section(chosen, labels, pairings)
    return write_html_page(files.report_html, f"Report: {Path(directory).resolve().name}", body)
