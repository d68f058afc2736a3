"""The Markdown the report pages write, as HTML: headings, lists, paragraphs, fenced code,
GitHub tables, images, ``<details>`` folds, and inline code, bold and links.

Only that subset is understood (it is all ``report.md`` and an experiment's page use), so
that report.html says what report.md says, whatever sections the page has. Images named in
``charts`` become that inline markup (an SVG); links go through ``link`` (e.g. to point
at the HTML twin of a Markdown page).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator, Mapping, Sequence

_HEADING = re.compile(r"(#{1,6}) (.*)")
_IMAGE = re.compile(r"!\[([^\]]*)\]\(([^)\s]+)\)")
_FOLD = re.compile(r"</?(details|summary)>.*")
_CELL_SEPARATOR = re.compile(r"(?<!\\)\|")
_INLINE = re.compile(r"\*\*(.+?)\*\*|\[([^\]]+)\]\(([^)\s]+)\)")


def _same(target: str) -> str:
    return target


def inline_html(text: str, link: Callable[[str], str] = _same) -> str:
    """One line of Markdown: `code`, **bold** and [text](target); everything else escaped."""
    pieces = text.split("`")
    if len(pieces) % 2 == 0:  # an unpaired backtick is a backtick
        pieces[-2:] = [pieces[-2] + "`" + pieces[-1]]
    out = []
    for index, piece in enumerate(pieces):
        if index % 2:
            out.append(f"<code>{html.escape(piece)}</code>")
            continue
        out.append(_INLINE.sub(lambda m: _inline_match(m, link), html.escape(piece, quote=False)))
    return "".join(out)


def _inline_match(match: re.Match[str], link: Callable[[str], str]) -> str:
    if match[1] is not None:
        return f"<strong>{match[1]}</strong>"
    target = html.escape(link(html.unescape(match[3])))
    return f'<a href="{target}">{match[2]}</a>'


def _cells(line: str) -> list[str]:
    inner = line.strip().removeprefix("|").removesuffix("|")
    return [cell.strip().replace("\\|", "|") for cell in _CELL_SEPARATOR.split(inner)]


_NUMBER = re.compile(r"\s*(<[^>]+>)*\s*[+\-−]?(\d|∞|\[)")
"""A cell that starts with a number (or an interval): kept on one line."""


def _cell(cell: str) -> str:
    return f'<td class="number">{cell}</td>' if _NUMBER.match(cell) else f"<td>{cell}</td>"


def table_html(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A sortable table of cells given as HTML (the page's script sorts it by a click on a
    column's heading), scrolling on its own when it is wider than the page; cells that
    start with a number stay on one line, others may wrap."""
    head = "".join(f'<th scope="col">{cell}</th>' for cell in header)
    body = "\n".join("<tr>" + "".join(_cell(cell) for cell in row) + "</tr>" for row in rows)
    return (f'<div class="scroll"><table class="sortable">\n<thead><tr>{head}</tr></thead>\n'
            f"<tbody>\n{body}\n</tbody></table></div>")


def _figure(alt: str, source: str, charts: Mapping[str, str]) -> str:
    inner = charts.get(source)
    if inner is None:
        inner = f'<img src="{html.escape(source)}" alt="{html.escape(alt)}">'
    return f'<figure aria-label="{html.escape(alt)}">{inner}</figure>'


def _blocks(lines: list[str], charts: Mapping[str, str],
            link: Callable[[str], str]) -> Iterator[str]:
    index = 0
    paragraph: list[str] = []

    def flush() -> Iterator[str]:
        if paragraph:
            yield "<p>" + " ".join(inline_html(line, link) for line in paragraph) + "</p>"
            paragraph.clear()

    while index < len(lines):
        line = lines[index]
        stripped = line.strip()
        heading, image = _HEADING.fullmatch(stripped), _IMAGE.fullmatch(stripped)
        if stripped.startswith("```"):
            yield from flush()
            end = next((j for j in range(index + 1, len(lines))
                        if lines[j].strip().startswith("```")), len(lines))
            yield "<pre><code>" + html.escape("\n".join(lines[index + 1:end])) + "</code></pre>"
            index = end + 1
            continue
        if stripped.startswith("|") and index + 1 < len(lines) \
                and re.fullmatch(r"\|(\s*:?-+:?\s*\|)+", lines[index + 1].strip()):
            yield from flush()
            end = index + 2
            while end < len(lines) and lines[end].strip().startswith("|"):
                end += 1
            header, *rows = ([inline_html(cell, link) for cell in _cells(row)]
                             for row in [line, *lines[index + 2:end]])
            yield table_html(header, rows)
            index = end
            continue
        if stripped.startswith("- "):
            yield from flush()
            items = []
            while index < len(lines) and lines[index].strip().startswith("- "):
                items.append(f"<li>{inline_html(lines[index].strip()[2:], link)}</li>")
                index += 1
            yield "<ul>\n" + "\n".join(items) + "\n</ul>"
            continue
        yield from flush()
        if heading:
            level, text = len(heading[1]), heading[2]
            anchor = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
            yield f'<h{level} id="{anchor}">{inline_html(text, link)}</h{level}>'
        elif image:
            yield _figure(image[1], image[2], charts)
        elif _FOLD.fullmatch(stripped):
            yield re.sub(r"(<summary>)(.*?)(</summary>)",
                         lambda m: m[1] + html.escape(m[2]) + m[3], stripped)
        elif stripped:
            paragraph.append(stripped)
        index += 1
    yield from flush()


def markdown_html(text: str, charts: Mapping[str, str] | None = None,
                  link: Callable[[str], str] = _same) -> str:
    """The HTML of the Markdown ``text``; ``charts`` maps an image's file name to the markup
    that replaces it (else the image stays a link to the file), ``link`` rewrites targets."""
    return "\n".join(_blocks(text.splitlines(), charts or {}, link))
