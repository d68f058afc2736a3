"""A self-contained HTML page that replays recorded games: no network, no outside files.

The games travel inside the page as JSON; a small script draws the board at any ply. A
slider and the arrow keys step through a game (left, right; Home, End), up and down change
game, space plays and pauses, and the address remembers the place (``#game=7&ply=12``).
Under a language model's move, the page shows what the model answered (from the game's
transcript): its invalid answers, the answer it played and what the move cost.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from arena.report.game_text import answer_lines, result_line
from arena.report.html_page import self_contained_page
from arena.rules.errors import ArenaError
from arena.runs.store.files import RunFiles
from arena.runs.store.meta import load_meta
from arena.runs.store.recorded import RecordedGame, load_recorded_games
from arena.runs.store.transcripts import read_transcript
from arena.system.files import write_atomically


class PageWriteError(ArenaError):
    """The page cannot be written where it was asked for."""


def game_record(game: RecordedGame, names: Mapping[str, str],
                said: Mapping[int, list[str]] | None = None) -> dict[str, Any]:
    """What the page knows of one game (its players by their ``names``: spec -> name), with
    what its language models ``said`` by move number (``game_text.answer_lines``)."""
    final = game.positions[-1]
    x_player, o_player = (names[player] for player in game.players)
    record = {
        "game": game.game, "x": x_player, "o": o_player, "moves": game.row.moves,
        "opening": len(game.row.opening), "winner": game.winner,
        "result": result_line(game, names),
        "rows": game.rules.rows, "cols": game.rules.cols, "connect": game.rules.connect,
        "line": [list(cell) for cell in final.winning_cells()],
    }
    if said:
        record["said"] = {str(number): [line.strip() for line in lines]
                          for number, lines in said.items()}
    return record


def models_said(directory: Path, game: int) -> dict[int, list[str]]:
    """What the language models of ``game`` in the run in ``directory`` answered, by move
    number; empty when no model played it."""
    transcript = RunFiles(directory).llm_transcript(game)
    return answer_lines(read_transcript(transcript)) if transcript.is_file() else {}


def replay_page(games: Sequence[RecordedGame], title: str, names: Mapping[str, str],
                progress: Callable[[int], None] | None = None,
                said: Callable[[int], Mapping[int, list[str]]] | None = None) -> str:
    """The page replaying ``games``, titled ``title``, the agents named by ``names``;
    ``progress`` is told of each game put in; ``said`` gives what the language models of a
    game answered, by move number."""
    records = []
    for game in games:
        records.append(game_record(game, names, said(game.game) if said else None))
        if progress is not None:
            progress(1)
    data = json.dumps(records, separators=(",", ":"))
    data = data.replace("</", "<\\/")  # nothing in the data can close the script element
    body = BODY.replace("%TITLE%", html.escape(title)).replace("%DATA%", data)
    return self_contained_page(title, STYLE, body, SCRIPT)


def write_replay_page(directory: Path, recorded: Sequence[RecordedGame] | None = None,
                      out: Path | None = None,
                      progress: Callable[[int], None] | None = None) -> tuple[Path, int]:
    """Write the replay page of the games of the run in ``directory`` (all, or ``recorded``,
    read by ``arena.runs.store.recorded.load_recorded_games``); returns the file written (default
    DIRECTORY/replay.html) and the number of games in it. ``progress`` is told of each game
    put in."""
    directory = Path(directory)
    if recorded is None:
        recorded = load_recorded_games(directory)
    path = out or RunFiles(directory).replay_page
    specs = list(dict.fromkeys(player for game in recorded for player in game.players))
    names = load_meta(directory).names()
    title = "Replays: " + (" vs ".join(names[s] for s in specs) if len(specs) == 2
                           else directory.resolve().name)
    try:
        write_atomically(path, replay_page(recorded, title, names, progress,
                                           lambda game: models_said(directory, game)))
    except OSError as error:
        raise PageWriteError(f"cannot write {path}: {error.strerror or error}") from None
    return path, len(recorded)


BODY = """<h1>%TITLE%</h1>
<div class="bar">
  <label>Game <select id="game"></select></label>
  <button id="prev-game" title="previous game (up arrow)">&#8593;</button>
  <button id="next-game" title="next game (down arrow)">&#8595;</button>
</div>
<div id="players"></div>
<div class="main">
  <div>
    <div id="board" class="board"></div>
    <div class="bar">
      <button id="start" title="start (Home)">|&#9664;</button>
      <button id="back" title="back (left arrow)">&#9664;</button>
      <button id="forward" title="forward (right arrow)">&#9654;</button>
      <button id="end" title="end (End)">&#9654;|</button>
      <button id="play" title="play or pause (space)">Play</button>
    </div>
    <input id="ply" type="range" min="0" max="0" value="0" aria-label="ply">
    <div id="where"></div>
    <div id="result"></div>
    <pre id="said"></pre>
  </div>
  <ol id="moves"></ol>
</div>
<p class="help">Keys: &#8592; &#8594; step, Home and End jump, &#8593; &#8595; change game,
space plays and pauses. X (red) moved first.</p>
<script id="games" type="application/json">%DATA%</script>"""

STYLE = """
body { font-family: system-ui, sans-serif; background: #161a24; color: #e8eaf0; margin: 1.5em; }
@media (max-width: 600px) { body { margin: 1.5em .75em; } }
h1 { font-size: 1.2em; font-weight: 600; }
.bar { display: flex; flex-wrap: wrap; gap: .4em; align-items: center; margin: .5em 0; }
button, select { background: #343c50; color: inherit; border: 0; border-radius: 5px;
  padding: .35em .7em; font-size: 1em; }
.bar label { display: flex; gap: .4em; align-items: center; min-width: 0; max-width: 100%; }
select { min-width: 0; max-width: 100%; }
.main { display: flex; gap: 2em; align-items: flex-start; flex-wrap: wrap; }
.main > div { min-width: 0; max-width: 100%; }
.board { --cell: min(52px, (100vw - 3em - 16px - (var(--cols) - 1) * 6px) / var(--cols));
  display: grid; grid-template-columns: repeat(var(--cols), var(--cell)); gap: 6px;
  padding: 8px; background: #1c56c4; border-radius: 10px; width: max-content; }
.cell { width: var(--cell); height: var(--cell); border-radius: 50%; background: #161a24;
  display: flex; align-items: center; justify-content: center; font-weight: 700;
  font-size: calc(var(--cell) * .38); color: rgba(0, 0, 0, .35); box-sizing: border-box; }
.cell.p1 { background: #de2c2c; }
.cell.p2 { background: #f6cc2e; }
.cell.last { border: 4px solid #fafafa; }
.cell.win { border: 5px solid #46eb78; }
input[type=range] { width: 100%; margin: .6em 0; }
#players, #where, #result { margin: .3em 0; overflow-wrap: anywhere; }
#said { margin: .3em 0; max-width: 40em; white-space: pre-wrap; overflow-wrap: anywhere;
  color: #c8cddb; font-size: .9em; }
#said:empty { display: none; }
#moves { columns: 3; min-width: min(18em, 100%); margin: 0; font-family: ui-monospace, monospace; }
#moves li { cursor: pointer; padding: 0 .3em; }
#moves li.current { background: #343c50; border-radius: 4px; }
#moves li.opening { color: #9aa3b8; }
#moves li.said::after { content: " \\2026"; color: #9aa3b8; }
.help { color: #9aa3b8; font-size: .9em; }
"""

SCRIPT = """
"use strict";
const games = JSON.parse(document.getElementById("games").textContent);
const $ = (id) => document.getElementById(id);
let current = 0, ply = 0, timer = null;

function discs(game, plies) {
  const grid = Array.from({length: game.rows}, () => new Array(game.cols).fill(0));
  const heights = new Array(game.cols).fill(0);
  let last = null;
  for (let i = 0; i < plies; i++) {
    const col = Number(game.moves[i]) - 1;
    grid[heights[col]][col] = 1 + (i % 2);
    last = [col, heights[col]];
    heights[col]++;
  }
  return {grid, last};
}

function drawBoard(game) {
  const board = $("board");
  board.style.setProperty("--cols", game.cols);
  const {grid, last} = discs(game, ply);
  const end = ply === game.moves.length;
  const winning = new Set(end ? game.line.map(([c, r]) => c + "," + r) : []);
  board.replaceChildren();
  for (let row = game.rows - 1; row >= 0; row--) {
    for (let col = 0; col < game.cols; col++) {
      const cell = document.createElement("div");
      const player = grid[row][col];
      cell.className = "cell" + (player ? " p" + player : "");
      cell.dataset.col = col;
      cell.dataset.row = row;
      if (player) cell.textContent = player === 1 ? "X" : "O";
      if (winning.has(col + "," + row)) cell.classList.add("win");
      else if (last && last[0] === col && last[1] === row) cell.classList.add("last");
      board.appendChild(cell);
    }
  }
}

function drawMoves(game) {
  const list = $("moves");
  list.replaceChildren();
  for (let i = 0; i < game.moves.length; i++) {
    const item = document.createElement("li");
    item.textContent = (i % 2 ? "O " : "X ") + game.moves[i];
    if (i < game.opening) item.classList.add("opening");
    if (game.said && game.said[i + 1]) item.classList.add("said");
    if (i === ply - 1) item.classList.add("current");
    item.addEventListener("click", () => go(current, i + 1));
    list.appendChild(item);
  }
}

function draw() {
  const game = games[current];
  $("game").value = String(current);
  $("players").textContent = "X (red, moved first): " + game.x + "  \u00b7  O (yellow): " +
    game.o + "  \u00b7  " + game.rows + "x" + game.cols + " connect " + game.connect;
  $("ply").max = String(game.moves.length);
  $("ply").value = String(ply);
  $("where").textContent = "Ply " + ply + " of " + game.moves.length +
    (ply > 0 ? ": " + (ply % 2 ? "X" : "O") + " played column " + game.moves[ply - 1] : "") +
    (ply > 0 && ply <= game.opening ? " (opening)" : "");
  $("result").textContent = ply === game.moves.length ? game.result : "";
  $("said").textContent = said(game).join("\\n");
  drawBoard(game);
  drawMoves(game);
  history.replaceState(null, "", "#game=" + game.game + "&ply=" + ply);
}

function said(game) {
  if (!game.said) return [];
  const mover = (number) => (number % 2 ? game.x : game.o);
  const lines = ply && game.said[ply] ? ["Move " + ply + ", " + mover(ply) + " answered:",
                                         ...game.said[ply]] : [];
  if (ply === game.moves.length) {  // a model's last answers, when they lost the game
    for (const [number, more] of Object.entries(game.said)) {
      if (Number(number) > ply) {
        lines.push("Move " + number + ", " + mover(Number(number)) + " played no move:",
                   ...more);
      }
    }
  }
  return lines;
}

function go(index, plies) {
  current = Math.max(0, Math.min(games.length - 1, index));
  ply = Math.max(0, Math.min(games[current].moves.length, plies));
  draw();
}

function toggle() {
  if (timer) { clearInterval(timer); timer = null; $("play").textContent = "Play"; return; }
  if (ply === games[current].moves.length) ply = 0;
  $("play").textContent = "Pause";
  timer = setInterval(() => {
    if (ply >= games[current].moves.length) { toggle(); return; }
    go(current, ply + 1);
  }, 600);
}

function start() {
  const select = $("game");
  games.forEach((game, index) => {
    const option = document.createElement("option");
    option.value = String(index);
    option.textContent = game.game + ": " + game.x + " (X) vs " + game.o + " (O)";
    select.appendChild(option);
  });
  select.addEventListener("change", () => go(Number(select.value), 0));
  $("ply").addEventListener("input", (event) => go(current, Number(event.target.value)));
  $("prev-game").addEventListener("click", () => go(current - 1, 0));
  $("next-game").addEventListener("click", () => go(current + 1, 0));
  $("start").addEventListener("click", () => go(current, 0));
  $("back").addEventListener("click", () => go(current, ply - 1));
  $("forward").addEventListener("click", () => go(current, ply + 1));
  $("end").addEventListener("click", () => go(current, Infinity));
  $("play").addEventListener("click", toggle);
  document.addEventListener("keydown", (event) => {
    const tag = event.target.tagName;
    if (tag === "SELECT" || tag === "INPUT" || (tag === "BUTTON" && event.key === " ")) return;
    const keys = {
      ArrowLeft: () => go(current, ply - 1), ArrowRight: () => go(current, ply + 1),
      Home: () => go(current, 0), End: () => go(current, Infinity),
      ArrowUp: () => go(current - 1, 0), ArrowDown: () => go(current + 1, 0),
      " ": toggle,
    };
    if (keys[event.key]) { event.preventDefault(); keys[event.key](); }
  });
  const wanted = new URLSearchParams(location.hash.slice(1));
  const index = games.findIndex((game) => String(game.game) === wanted.get("game"));
  const plies = wanted.has("ply") ? Number(wanted.get("ply")) : Infinity;
  go(Math.max(index, 0), plies);
}

if (games.length) start();
else document.body.appendChild(document.createTextNode("No games."));
"""
