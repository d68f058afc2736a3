"""The frame of the HTML report pages: one self-contained file (style and script inside, no
network), readable from a phone's 390 px to a desktop, whose tables sort by a click on a
column's heading (numbers by value, text in natural order, blanks last). Table headings and
text wrap on a desktop, numbers do not (a table wider than the page scrolls in its box, as
every wide table does on a phone); a chart is
never drawn smaller than its printed size, so that its text stays readable: on a phone it
scrolls sideways in its box."""

from __future__ import annotations

import html
from pathlib import Path

from arena.system.files import write_atomically


def self_contained_page(title: str, style: str, body: str, script: str) -> str:
    """A whole page titled ``title``: its ``style`` (CSS) and ``script`` (JavaScript, run
    after the ``body``'s HTML is in place) inside it, for phones too."""
    return (FRAME.replace("%TITLE%", html.escape(title)).replace("%STYLE%", style)
            .replace("%SCRIPT%", script).replace("%BODY%", body))  # the body last: kept as is


def html_page(title: str, body: str) -> str:
    """A report page titled ``title`` around ``body`` (HTML), its tables sortable."""
    return self_contained_page(title, STYLE, f"<main>\n{body}\n</main>", SCRIPT)


def write_html_page(path: Path, title: str, body: str) -> Path:
    """Write ``html_page(title, body)`` to ``path`` atomically; return ``path``."""
    write_atomically(path, html_page(title, body))
    return path


FRAME = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%TITLE%</title>
<style>%STYLE%</style>
</head>
<body>
%BODY%
<script>%SCRIPT%</script>
</body>
</html>
"""

STYLE = """
:root { color-scheme: light; --ink: #1d2330; --muted: #5b6475; --line: #d9dde5;
  --band: #f3f5f9; --accent: #0b5cad; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif;
  color: var(--ink); background: #fff; }
main { max-width: 1240px; margin: 0 auto; padding: 1rem 1.25rem 3rem; }
h1 { font-size: 1.45rem; line-height: 1.25; overflow-wrap: anywhere; }
h2 { font-size: 1.2rem; margin-top: 2.2rem; border-bottom: 1px solid var(--line);
  padding-bottom: .25rem; }
h3 { font-size: 1.05rem; margin-top: 1.6rem; }
p, li { overflow-wrap: anywhere; }
a { color: var(--accent); }
code { font: .88em/1.4 ui-monospace, "SFMono-Regular", Menlo, monospace;
  background: var(--band); padding: .05em .3em; border-radius: 3px; overflow-wrap: anywhere; }
pre { background: var(--band); padding: .7rem .9rem; border-radius: 6px; overflow-x: auto; }
pre code { background: none; padding: 0; overflow-wrap: normal; }
td code { overflow-wrap: normal; }
.scroll { overflow-x: auto; margin: .8rem 0; }
table { border-collapse: collapse; font-size: .9rem; font-variant-numeric: tabular-nums; }
th, td { padding: .3rem .5rem; border-bottom: 1px solid var(--line); text-align: left;
  vertical-align: top; }
td.number { white-space: nowrap; }
tbody tr:nth-child(even) { background: #fafbfd; }
th { background: var(--band); }
th button { all: unset; cursor: pointer; font-weight: 600; }
th button:focus-visible { outline: 2px solid var(--accent); }
th button::after { content: " \\2195"; color: var(--muted); font-weight: 400; }
th[aria-sort=ascending] button::after { content: " \\2191"; color: var(--ink); }
th[aria-sort=descending] button::after { content: " \\2193"; color: var(--ink); }
figure { margin: 1rem 0; overflow-x: auto; }
svg.chart, figure img { display: block; width: 100%; max-width: 760px; height: auto; }
details { margin: .6rem 0; }
summary { cursor: pointer; color: var(--accent); }
.note { color: var(--muted); font-size: .9rem; }
@media (max-width: 600px) {
  body { font-size: 14px; }
  main { padding: .6rem .7rem 2rem; }
  th, td { padding: .25rem .4rem; white-space: nowrap; }
}
"""

SCRIPT = """
"use strict";
const NUMBER = /^\\s*([+\\-\\u2212]?)(\\u221e|\\d[\\d,]*(?:\\.\\d+)?)/;

function sortKey(text) {
  const match = NUMBER.exec(text);
  if (!match) return text.trim() === "" || text.trim() === "\\u2014" ? null : text.trim();
  const value = match[2] === "\\u221e" ? Infinity : Number(match[2].replace(/,/g, ""));
  return match[1] === "-" || match[1] === "\\u2212" ? -value : value;
}

function compareKeys(x, y) {
  if (typeof x === "number" && typeof y === "number") return x === y ? 0 : x < y ? -1 : 1;
  if (typeof x === "number") return -1;
  if (typeof y === "number") return 1;
  return x.localeCompare(y, undefined, {numeric: true, sensitivity: "base"});
}

function sortTable(table, heading, column) {
  const ascending = heading.getAttribute("aria-sort") !== "ascending";
  for (const other of table.tHead.rows[0].cells) other.removeAttribute("aria-sort");
  heading.setAttribute("aria-sort", ascending ? "ascending" : "descending");
  const body = table.tBodies[0];
  const rows = Array.from(body.rows, (row) => [sortKey(row.cells[column].textContent), row]);
  rows.sort(([x], [y]) => {
    if (x === null || y === null) return (x === null) - (y === null);  // blanks last
    return ascending ? compareKeys(x, y) : compareKeys(y, x);
  });
  body.append(...rows.map(([, row]) => row));
}

for (const table of document.querySelectorAll("table.sortable")) {
  Array.from(table.tHead.rows[0].cells).forEach((heading, column) => {
    const button = document.createElement("button");
    button.type = "button";
    button.title = "sort by this column";
    button.append(...heading.childNodes);
    heading.append(button);
    button.addEventListener("click", () => sortTable(table, heading, column));
  });
}
"""
