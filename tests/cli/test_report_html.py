"""report.html: report.md's tables and charts in one self-contained page (no network), the
notable games linked to their replay page; drawn by Chromium at desktop and phone widths
without overflowing, its tables sorted by a click (and the replay page at 390 px too)."""

from __future__ import annotations

import csv
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from arena.report.markdown_html import markdown_html
from arena.rules.results import Result
from tests.helpers.browser import Browser, Page
from tests.helpers.cli import arena
from tests.helpers.extras import chromium


class Parsed(HTMLParser):
    """Every tag's attributes, every table's rows of cell texts, every inline svg."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.attributes: list[tuple[str, str, str | None]] = []
        self.tables: list[list[list[str]]] = []
        self.svgs = 0
        self._cell: list[str] | None = None
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.attributes += [(tag, name, value) for name, value in attrs]
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = []
        elif tag == "svg":
            self.svgs += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def markdown_tables(text: str) -> list[list[list[str]]]:
    """The tables of report.md as rows of cell texts (Markdown's code marks dropped)."""
    tables: list[list[list[str]]] = []
    previous = ""
    for line in text.splitlines():
        if line.startswith("|") and not re.fullmatch(r"\|(---\|)+", line):
            if not previous.startswith("|"):
                tables.append([])
            cells = re.split(r"(?<!\\)\|", line.strip()[1:-1])
            tables[-1].append([c.strip().replace("\\|", "|").replace("`", "") for c in cells])
        previous = line
    return tables


@pytest.fixture(scope="module")
def tournament(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A round robin of three agents, 8 games a pairing (24 games), reported; two with names
    as long as a paper's (the Results table is wide)."""
    out = tmp_path_factory.mktemp("tournament") / "run"
    code, output = arena("tournament", "random", "immediate-win", "negamax:depth=2", "-n", "8",
                         "-j", "1", "--out", str(out), "--quiet", "--label",
                         "B=Immediate win, blocks nothing", "--label",
                         "C=Negamax depth 2, threats + positional")
    assert code == 0, output
    return out


def test_the_page_holds_report_md_tables_and_every_chart_inline(tournament: Path) -> None:
    markdown = (tournament / "report.md").read_text()
    page = Parsed((tournament / "report.html").read_text())
    expected = markdown_tables(markdown)
    assert page.tables[:len(expected)] == expected
    charts = re.findall(r"!\[[^\]]*\]\(([^)]+\.png)\)", markdown)
    assert {"wtl.png", "crosstable.png", "ratings.png"} <= set(charts)
    assert page.svgs == len(charts)


def test_the_page_fetches_nothing_from_the_network(tournament: Path) -> None:
    for name in ("report.html", "report-games.html"):
        page = Parsed((tournament / name).read_text())
        links = [(tag, value) for tag, attribute, value in page.attributes
                 if attribute in ("src", "href", "xlink:href", "action", "data")]
        assert not [link for link in links if re.match(r"\s*(https?:)?//", link[1] or "")]
        assert not [tag for tag, attribute, _ in page.attributes
                    if tag in ("link", "iframe") or (tag == "script" and attribute == "src")]


def test_notable_games_are_each_pairings_extremes_and_replay_as_recorded(
        tournament: Path) -> None:
    with (tournament / "games.csv").open(newline="") as file:
        rows = {int(row["game"]): row for row in csv.DictReader(file)}
    page = (tournament / "report.html").read_text()
    linked = [int(n) for n in re.findall(r'href="report-games.html#game=(\d+)"', page)]
    for a, b in {(r["agent_a"], r["agent_b"]) for r in rows.values()}:
        mine = {n: r for n, r in rows.items() if (r["agent_a"], r["agent_b"]) == (a, b)}
        for result in (Result.WIN, Result.LOSS):
            plies = [int(r["plies"]) for r in mine.values() if r["result"] == result.value]
            if plies:
                assert min(plies) in [int(mine[n]["plies"]) for n in linked if n in mine]
        assert max(int(r["plies"]) for r in mine.values()) in [
            int(mine[n]["plies"]) for n in linked if n in mine]
    replay = (tournament / "report-games.html").read_text()
    data = json.loads(re.search(r'<script id="games" type="application/json">(.*?)</script>',
                                replay, re.DOTALL)[1])
    assert [game["game"] for game in data] == sorted(linked)
    assert all(game["moves"] == rows[game["game"]]["moves"] for game in data)


def test_markdown_becomes_the_same_html_subset() -> None:
    text = ("# Report: a <b>\n\n- **seed**: 3\n\nA `x|y` and [the run](run/report.md).\n\n"
            "| A | B \\| C |\n|---|---|\n| `negamax:depth=2` | 1 |\n\n```text\na < b\n```\n\n"
            "![Wins](wtl.png)\n\n<details><summary>3 pairings</summary>\n\n</details>\n")
    html = markdown_html(text, {"wtl.png": "<svg></svg>"},
                         lambda target: target.replace(".md", ".html"))
    assert '<h1 id="report-a-b">Report: a &lt;b&gt;</h1>' in html
    assert "<li><strong>seed</strong>: 3</li>" in html
    assert '<p>A <code>x|y</code> and <a href="run/report.html">the run</a>.</p>' in html
    assert '<th scope="col">B | C</th>' in html
    assert '<td><code>negamax:depth=2</code></td><td class="number">1</td>' in html
    assert "<pre><code>a &lt; b</code></pre>" in html
    assert '<figure aria-label="Wins"><svg></svg></figure>' in html
    assert "<details><summary>3 pairings</summary>" in html and "</details>" in html


# ------------------------------------------------------------------ in a real browser

WIDTHS = {"desktop": (1280, 900, False), "phone": (390, 844, True)}


def open_page(browser: Browser, path: Path, width: str, fragment: str = "") -> Page:
    w, h, mobile = WIDTHS[width]
    return browser.open(path.as_uri() + fragment, w, h, mobile)


def column(page: Page, table: int, index: int) -> list[str]:
    return list(page.evaluate(
        f"Array.from(document.querySelectorAll('table')[{table}].tBodies[0].rows,"
        f" (row) => row.cells[{index}].textContent)"))


def click_heading(page: Page, table: int, index: int) -> None:
    """A real mouse click (pressed and released) on a column's heading."""
    box = page.evaluate(
        f"(() => {{ const th = document.querySelectorAll('table')[{table}].tHead.rows[0]"
        f".cells[{index}]; th.scrollIntoView({{block: 'center', inline: 'center'}});"
        " const r = th.querySelector('button').getBoundingClientRect();"
        " return [r.x + r.width / 2, r.y + r.height / 2]; })()")
    for kind in ("mousePressed", "mouseReleased"):
        page.browser.call("Input.dispatchMouseEvent", {
            "type": kind, "x": box[0], "y": box[1], "button": "left", "clickCount": 1},
            page.session)


def table_index(page: Page, heading: str) -> int:
    return int(page.evaluate(
        "Array.from(document.querySelectorAll('table')).findIndex((t) =>"
        f" t.tHead.rows[0].cells[0].textContent.startsWith({json.dumps(heading)}))"))


@pytest.mark.chromium
@pytest.mark.slow
@pytest.mark.parametrize("width", list(WIDTHS))
def test_pages_fit_the_width_in_chromium(tournament: Path, tmp_path: Path, width: str) -> None:
    code, output = arena("export", "html", str(tournament))
    assert code == 0, output
    with Browser(chromium() or "chromium", tmp_path / "profile") as browser:
        for name, fragment in (("report.html", ""), ("report-games.html", ""),
                               ("replay.html", "#game=3")):
            page = open_page(browser, tournament / name, width, fragment)
            inner, scroll = page.evaluate(
                "[innerWidth, document.scrollingElement.scrollWidth]")
            assert inner == WIDTHS[width][0]
            assert scroll <= inner, f"{name} is {scroll} px wide in a {inner} px viewport"
        board = page.evaluate("document.getElementById('board').getBoundingClientRect().right")
        assert board <= WIDTHS[width][0]


TABLE_WIDTHS = ("Array.from(document.querySelectorAll('.scroll'), (box) =>"
                " [box.querySelector('th').textContent, box.scrollWidth, box.clientWidth])")
CHART_TEXT = """Array.from(document.querySelectorAll('svg.chart'), (svg) => {
  const box = svg.getBoundingClientRect();
  const scale = box.width / svg.viewBox.baseVal.width;
  return Array.from(svg.querySelectorAll('text'), (text) => {
    const b = text.getBBox(), m = text.getScreenCTM();
    const corners = [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height],
                     [b.x + b.width, b.y + b.height]].map(([x, y]) =>
      new DOMPoint(x, y).matrixTransform(m));
    const inside = corners.every((c) => c.x >= box.left - 0.5 && c.y >= box.top - 0.5 &&
      c.x <= box.right + 0.5 && c.y <= box.bottom + 0.5);
    return [text.textContent, parseFloat(getComputedStyle(text).fontSize) * scale, inside];
  });
}).flat()"""
"""Every chart text of the page: its text, its size in CSS pixels as drawn, and whether its
drawn corners (the browser's font, rotated with the text) lie inside its chart."""


@pytest.mark.chromium
@pytest.mark.slow
def test_tables_fit_a_desktop_and_charts_stay_readable_on_a_phone(tournament: Path,
                                                                  tmp_path: Path) -> None:
    """At 1280 px every table of report.html fits its box (headings and names wrap, numbers
    do not); at 390 px tables scroll in their boxes and charts keep their printed size (text
    at least 8 px), scrolling sideways in theirs; at both, every chart's text lies inside it
    as the browser draws it."""
    with Browser(chromium() or "chromium", tmp_path / "profile") as browser:
        desktop = open_page(browser, tournament / "report.html", "desktop")
        for heading, wide, box in desktop.evaluate(TABLE_WIDTHS):
            assert wide <= box, f"the table under {heading!r} is {wide} px wide in {box} px"
        phone = open_page(browser, tournament / "report.html", "phone")
        for page in (desktop, phone):
            texts = page.evaluate(CHART_TEXT)
            assert texts and all(inside for _, _, inside in texts), [
                text for text, _, inside in texts if not inside]
        smallest = min(size for _, size, _ in phone.evaluate(CHART_TEXT))
        assert smallest >= 8, f"chart text of {smallest:.1f} px on a phone"


@pytest.mark.chromium
@pytest.mark.slow
def test_a_click_on_a_heading_sorts_the_rows_in_chromium(tournament: Path,
                                                         tmp_path: Path) -> None:
    with Browser(chromium() or "chromium", tmp_path / "profile") as browser:
        page = open_page(browser, tournament / "report.html", "phone")
        games = table_index(page, "game")  # the notable games: plies in column 5
        shown = column(page, games, 5)
        click_heading(page, games, 5)
        assert column(page, games, 5) == sorted(shown, key=int)
        click_heading(page, games, 5)
        assert column(page, games, 5) == sorted(shown, key=int, reverse=True)
        ratings = table_index(page, "rank")  # Elo: signed numbers, "+12" and "-340"
        click_heading(page, ratings, 3)
        elo = column(page, ratings, 3)
        assert [float(e.replace("\u2212", "-")) for e in elo] == sorted(
            float(e.replace("\u2212", "-")) for e in elo)
        click_heading(page, ratings, 1)  # labels: text, in natural order
        labels = column(page, ratings, 1)
        assert labels == sorted(labels, key=str.lower)
        heading = page.evaluate(
            f"document.querySelectorAll('table')[{ratings}].tHead.rows[0].cells[1]"
            ".getAttribute('aria-sort')")
        assert heading == "ascending"
