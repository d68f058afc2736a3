"""MkDocs hook: the parts of the reference that are read from the code at build time, so that
they cannot drift from it.

A page asks for a generated part with a comment on a line of its own,
``<!-- generated: NAME -->``; the build replaces it with ``PARTS[NAME]()``. The tables of a
run directory's files put the column names the code declares beside the meanings written
here: a column the code has and this file does not describe (or the other way round) stops
the build, which is how a new column gets its line in the docs. The hook also copies into the
site the committed charts of ``results/`` that pages show (the site's sources are docs/ only).

Imported by tests too (tests/cli/test_docs.py), which compare these tables with a real run.
"""

from __future__ import annotations

import dataclasses
import importlib
import io
import re
from collections.abc import Callable, Sequence
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
MARKER = re.compile(r"^<!-- generated: (?P<name>[\w-]+) -->$", re.MULTILINE)
RESULT_FILES = re.compile(r"(?:\.\./)*(results/[\w./+=-]+\.(?:png|svg))")


class DocsError(Exception):
    """The code and this file disagree: the docs would be wrong."""


def _constant(modules: Sequence[str], name: str) -> Any:
    """``name`` from the first of ``modules`` that imports (a module may move between the
    layers' sub-packages; the constant stays)."""
    for module in modules:
        try:
            return getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError):
            continue
    raise DocsError(f"{name} is in none of {', '.join(modules)}")


# --------------------------------------------------------------------------- columns

GAMES = {
    "game": "the game's index in the run, from 0",
    "pair": "the opening pair the game belongs to (its colour-swapped twin has the same); "
            "blank without openings",
    "seed": "the game's seed, `run seed * 2**32 + game`: `Generator(PCG64(seed))` is the "
            "agents' randomness in this game",
    "agent_a": "the first agent's spec (canonical: no default values)",
    "agent_b": "the second agent's spec",
    "first": "who moved first: `a` or `b`",
    "opening": "the opening's move string (1 = leftmost column); blank without one",
    "moves": "the whole game's move string, opening included",
    "result": "agent A's result: `win`, `draw` or `loss`",
    "termination": "how the game ended: one of {terminations}",
    "plies": "discs on the board at the end",
    "time_a": "seconds agent A thought, over the game (timing: differs from run to run)",
    "time_b": "seconds agent B thought",
    "nodes_a": "positions agent A searched, as it reported them; blank if it reports none",
    "nodes_b": "positions agent B searched",
    "turns_a": "how many times agent A was asked for a move",
    "turns_b": "how many times agent B was asked for a move",
    "error": "the message of a forfeit, one line (columns counted as in move strings, "
             "1 = leftmost); blank otherwise",
}

_FORFEIT_TEXT = {"illegal_move": "illegal moves", "agent_error": "errors raised",
                 "agent_crash": "crashes", "time_forfeit": "time forfeits",
                 "disqualified": "disqualification (a rule of its own: `arena.Disqualified`)"}

SUMMARY = {
    "agent_a": "the first agent's spec",
    "agent_b": "the second agent's spec",
    "games": "games played",
    "wins": "agent A's wins",
    "draws": "draws",
    "losses": "agent A's losses",
    "score": "agent A's score, (wins + draws / 2) / games",
    "score_low": "the score's 95% interval, lower bound",
    "score_high": "the score's 95% interval, upper bound",
    "elo_model": "the unit of the statistics: `trinomial` (games) or `pentanomial` "
                 "(colour-swapped game pairs)",
    "interval": "the interval's method: `normal` (normal approximation) or `wilson` (Wilson "
                "score interval)",
    "pairs": "complete game pairs, with the pentanomial model; blank otherwise",
    "elo": "agent A's Elo difference from B, from the score",
    "elo_low": "the Elo interval's lower bound (the score's bound mapped to Elo)",
    "elo_high": "the Elo interval's upper bound (blank when infinite)",
    "nelo": "normalized Elo; blank when undefined (no variance)",
    "nelo_error": "the half-width of nElo's 95% interval; blank with the Wilson interval",
    "los": "likelihood of superiority: the probability that A is the stronger",
    **{f"{kind}_{side}": f"games agent {side.upper()} lost by {text}"
       for kind, text in _FORFEIT_TEXT.items() for side in ("a", "b")},
    "distinct_games": "games that differ from every other one (first mover and moves)",
    "mean_plies": "the mean number of plies a game",
    "ms_per_move_a": "agent A's mean milliseconds a move: all its think time over all its "
                     "moves, which one stall can multiply (timing)",
    "ms_per_move_b": "the same for B",
    "ms_per_move_median_a": "agent A's milliseconds a move in the median game (each "
                            "game's think time over its moves there: [time a move]"
                            "(../explanation/statistics.md#time-a-move); timing)",
    "ms_per_move_median_b": "the same for B",
    "ms_per_move_low_a": "the lower bound of the median's 95% interval (order statistics; "
                         "blank below 6 games)",
    "ms_per_move_low_b": "the same for B",
    "ms_per_move_high_a": "its upper bound",
    "ms_per_move_high_b": "the same for B",
    "ms_per_move_p90_a": "the 90th percentile of A's games' milliseconds a move",
    "ms_per_move_p90_b": "the same for B",
    "nodes_per_move_a": "agent A's mean nodes a move; blank if it reports none",
    "nodes_per_move_b": "agent B's mean nodes a move",
    "llm_requests_a": "a language model A's requests to its server, those asked again after "
                      "a server failure included; blank for an agent that is no language "
                      "model (so are all the llm_ columns)",
    "llm_requests_b": "the same for B",
    "llm_cached_a": "answers replayed from the run's response cache instead of asked (a "
                    "resumed run's games played again)",
    "llm_cached_b": "the same for B",
    "llm_retried_a": "requests asked again after a rate limit (HTTP 429), a server error, a "
                     "dropped connection or an unreadable response",
    "llm_retried_b": "the same for B",
    "llm_invalid_a": "answers that named no legal column (each was asked again, or ended "
                     "the game after `retries`)",
    "llm_invalid_b": "the same for B",
    "llm_prompt_tokens_a": "prompt tokens, as the server reported them (answers replayed "
                           "from the cache counted as when they were paid)",
    "llm_prompt_tokens_b": "the same for B",
    "llm_completion_tokens_a": "completion tokens, likewise",
    "llm_completion_tokens_b": "the same for B",
    "llm_cost_a": "dollars at the agent's `price=IN/OUT` (per million prompt and completion "
                  "tokens); blank without a price",
    "llm_cost_b": "the same for B",
}

RATINGS = {
    "rank": "1 for the best rated",
    "agent": "the agent's spec",
    "rating": "Elo, by maximum likelihood on a Bradley-Terry model, the anchor at 0",
    "low": "the 95% bootstrap interval's lower bound",
    "high": "the 95% bootstrap interval's upper bound",
    "games": "the agent's games",
    "score": "the agent's score over its games",
}

CROSSTABLE = {
    "agent": "the row's agent",
    "opponent": "the agent it played",
    "games": "their games",
    "wins": "the agent's wins against the opponent",
    "draws": "draws",
    "losses": "the agent's losses",
    "points": "wins + draws / 2",
    "score": "points / games",
}

SPRT = {
    "batch": "the look's number, from 1",
    "games": "games played so far",
    "pairs": "game pairs played so far",
    "llr": "the log-likelihood ratio after this batch",
    "llr_method": "`exact` or `approximate` (`--llr`)",
    "lower": "the lower bound: at or below it, H0 is accepted",
    "upper": "the upper bound: at or above it, H1 is accepted",
    "verdict": "`continue`, `accept H0`, `accept H1`, or the verdict at `--max-games`",
    "elo": "agent A's Elo estimate so far",
    "elo_low": "its 95% interval's lower bound",
    "elo_high": "its 95% interval's upper bound",
    "interval": "the interval's method, `normal` or `wilson`",
    "nelo": "normalized Elo so far",
    "nelo_error": "the half-width of nElo's 95% interval",
    **{name: f"pairs scoring {name.upper()} for agent A (W win, D draw, L loss)"
       for name in ("ll", "ld", "wl", "dd", "wd", "ww")},
}

ROUNDS = {
    "round": "the round, from 1",
    "agent_a": "the first agent of the pairing",
    "agent_b": "the second agent; blank for a bye",
    "games": "games played (0 for a bye)",
    "wins": "agent A's wins",
    "draws": "draws",
    "losses": "agent A's losses",
    "points_a": "agent A's points towards the standings (a bye scores the round's games)",
    "points_b": "agent B's points",
    "advances": "in a knockout, the agent that goes through; blank in a Swiss",
}

MOVES = {
    "game": "the game's index in games.csv",
    "ply": "discs on the board before the move (the game's move number `ply + 1`)",
    "side": "who played it: `a` or `b`",
    "agent": "its agent's spec",
    "move": "the column played, 1 = leftmost",
    "score": "the move's exact score for the side that played it (Pons' convention: positive "
             "a win, the larger the sooner; 0 a draw; negative a loss)",
    "best_score": "the highest score of a legal column in that position (the position's "
                  "exact score)",
    "best": "1 if the move has that score (a best move), else 0",
    "before": "the theoretical result for agent A before the move: `win`, `draw` or `loss`",
    "after": "and after it (it differs from `before` for a blunder)",
}

DATASET = {
    "game": ("int32", "the game's index among the games read"),
    "ply": ("int16", "discs on the board"),
    "side_to_move": ("int8", "1 (moved first) or 2"),
    "current": ("uint64", "the side to move's discs as a bitboard: column `c` owns bits "
                "`c*(rows+1)` to `c*(rows+1)+rows-1`, bottom row first"),
    "mask": ("uint64", "every disc, as a bitboard (`arena.analysis.datasets.planes` gives the "
             "int8 planes of the environments)"),
    "moves": ("string", "the move string reaching the position (1 = leftmost column)"),
    "move": ("int8", "the column played next, 0-based"),
    "result": ("int8", "how the game ended for the side to move: +1 won, 0 drawn, -1 lost (a "
               "forfeit counts as the game's result)"),
    "duplicate": ("bool", "the position, or its mirror image, came in an earlier row"),
}


def _check(name: str, declared: Sequence[str], described: dict[str, Any]) -> None:
    if list(declared) != list(described):
        missing = [c for c in declared if c not in described]
        extra = [c for c in described if c not in declared]
        raise DocsError(f"{name}: the code's columns are {', '.join(declared)}; not described "
                        f"here: {missing or 'none'}; described but not in the code: "
                        f"{extra or 'none'} (or in another order): edit docs/hooks/generated.py")


def _column_table(described: dict[str, str]) -> str:
    lines = ["| column | meaning |", "| --- | --- |"]
    lines += [f"| `{column}` | {meaning} |" for column, meaning in described.items()]
    return "\n".join(lines)


def games_columns() -> tuple[str, ...]:
    """games.csv's columns as the code declares them."""
    row = _constant(("arena.runs.store.rows", "arena.runs.rows"), "GameRow")
    return tuple(row._fields)


def summary_columns() -> tuple[str, ...]:
    return tuple(_constant(("arena.runs.store.summary", "arena.runs.summary"),
                           "SUMMARY_COLUMNS"))


def ratings_columns() -> tuple[str, ...]:
    return tuple(_constant(("arena.stats.ratings",), "RATING_COLUMNS"))


def crosstable_columns() -> tuple[str, ...]:
    return tuple(_constant(("arena.competitions.tournaments",), "CROSSTABLE_COLUMNS"))


def sprt_columns() -> tuple[str, ...]:
    return tuple(_constant(("arena.competitions.sprt",), "SPRT_COLUMNS"))


def rounds_columns() -> tuple[str, ...]:
    return tuple(_constant(("arena.competitions.round_tables",), "ROUNDS_COLUMNS"))


def moves_columns() -> tuple[str, ...]:
    graded = _constant(("arena.analysis.annotate",), "GradedMove")
    return tuple(field.name for field in dataclasses.fields(graded))


def dataset_columns() -> tuple[str, ...]:
    return tuple(_constant(("arena.analysis.datasets",), "COLUMNS"))


TABLES: dict[str, tuple[Callable[[], tuple[str, ...]], dict[str, str]]] = {
    "games-columns": (games_columns, GAMES),
    "summary-columns": (summary_columns, SUMMARY),
    "ratings-columns": (ratings_columns, RATINGS),
    "crosstable-columns": (crosstable_columns, CROSSTABLE),
    "sprt-columns": (sprt_columns, SPRT),
    "rounds-columns": (rounds_columns, ROUNDS),
    "moves-columns": (moves_columns, MOVES),
}
"""Each CSV file's column table: the code's columns and their meanings here."""


def column_table(name: str) -> str:
    declared, described = TABLES[name]
    _check(name, declared(), described)
    termination = _constant(("arena.rules.results",), "Termination")
    values = ", ".join(f"`{member.value}`" for member in termination)
    return _column_table({column: meaning.format(terminations=values)
                          for column, meaning in described.items()})


def dataset_table() -> str:
    """The dataset's columns, the code's, then the solver's scores."""
    _check("dataset-columns", dataset_columns(), DATASET)
    lines = ["| column | type | meaning |", "| --- | --- | --- |"]
    lines += [f"| `{column}` | {kind} | {meaning} |" for column, (kind, meaning)
              in DATASET.items()]
    lines.append("| `score_0` ... `score_{cols-1}` | Int8, null for a full column | with the "
                 "solver: each column's exact score in Pons' convention (positive: the mover "
                 "wins, the larger the sooner; 0 a draw; negative a loss) |")
    return "\n".join(lines)


RUN_FILES = {
    "META": "what the run is: its request (board, seed, openings, pairings, games, limits, "
            "hosting), each agent's spec, label and code fingerprint, the sessions that "
            "played it, the digests of games.csv and summary.csv; strict JSON",
    "GAMES": "one row per finished game, appended as games finish, sorted by game when the "
             "run ends",
    "SUMMARY": "one row per pairing, computed from games.csv",
    "AGENTS_LOG": "what agents printed (stdout, stderr, an engine's `info` lines) and the "
                  "last frames of a raised error's traceback, each line under its game and "
                  "agent",
    "LOCK": "held while a command writes the directory; removed when the command that made "
            "it ends",
    "SPRT": "an SPRT's look at the log-likelihood ratio after each batch",
    "RATINGS": "a tournament's Elo ratings, best first",
    "CROSSTABLE": "a tournament's results of each agent against each other",
    "ROUNDS": "a Swiss or knockout tournament: one row per pairing or bye of every round "
              "(each round is a run directory of its own, `round-01`, `round-02`, ...)",
    "ANALYSIS": "`arena analyze`: one row per game, its first move that changed the "
                "theoretical result and each side's blunders",
    "BLUNDERS": "`arena analyze`: one row per move that changed its game's theoretical result",
    "MOVES": "`arena analyze --best-moves`: one row per graded move, its exact score beside "
             "the best of its position: whether it is a best move",
    "REPORT": "the report page (Markdown), with the charts beside it (`wtl.png`, "
              "`cost.png`, ...; in the formats of `--format`)",
    "REPORT_HTML": "the same page in one self-contained HTML file",
    "REPORT_GAMES": "the replay page of the notable games report.html links to",
    "REPLAY_PAGE": "`arena export html`: the page replaying the run's games",
    "REPORT_STAMP": "what the report was made from (digests) and what it wrote: a current "
                    "report is not written again",
    "LLM": "a folder an `llm:` agent keeps: `cache/game-NNNNNN.jsonl`, the answers it paid "
           "for in a game (a resumed run "
           "asks nothing twice; `--no-cache` asks again), and `game-NNNNNN.jsonl.gz`, every "
           "prompt and answer of a game (records of kind `request`) and what each move cost "
           "(kind `move`: requests, invalid answers, tokens, seconds, dollars), never the key; "
           "with `rpm=`, `pace-KEY`, when the next request to a model may start; "
           "summary.csv's `llm_` columns and the report's section on language models add "
           "them up",
}


def run_files() -> str:
    """Every file ``RunFiles`` names, with what it holds."""
    files = _constant(("arena.runs.store.files", "arena.runs.files"), "RunFiles")
    declared = [name for name in vars(files) if name.isupper()]
    _check("run files", declared, RUN_FILES)
    lines = ["| file | what it holds |", "| --- | --- |"]
    lines += [f"| `{getattr(files, name)}` | {text} |" for name, text in RUN_FILES.items()]
    return "\n".join(lines)


# --------------------------------------------------------------------------- agents


def _arena_output(*args: str) -> str:
    """What ``arena ARGS`` prints (run in this process, as the user would see it)."""
    from click.testing import CliRunner

    from arena.cli import main

    result = CliRunner().invoke(main, list(args), standalone_mode=False)
    if result.exit_code != 0 or result.exception is not None:
        raise DocsError(f"arena {' '.join(args)} failed: {result.output}{result.exception}")
    return result.output


def agents_listing() -> str:
    """``arena agents``, as it prints."""
    return "```text\n$ arena agents\n" + _arena_output("agents").rstrip() + "\n```"


def agent_details() -> str:
    """``arena agents NAME`` for every registered agent."""
    registry = _constant(("arena.protocol.registry",), "registry")
    parts = []
    for name in registry():
        parts += [f"### `{name}`", "", "```text", f"$ arena agents {name}",
                  _arena_output("agents", name).rstrip(), "```", ""]
    return "\n".join(parts)


# --------------------------------------------------------------------------- commands


def _cell(text: str) -> str:
    """``text`` fit for one cell of a Markdown table."""
    return text.replace("|", "\\|").replace("\n", " ")


def _help_text(command: Any) -> str:
    """A command's help as Markdown paragraphs (click's ``\\b`` blocks kept as they are)."""
    paragraphs = []
    for block in (command.help or "").strip().split("\n\n"):
        lines = [line.strip() for line in block.splitlines()]
        if lines and lines[0] == "\b":
            paragraphs.append("```text\n" + "\n".join(lines[1:]) + "\n```")
        else:
            paragraphs.append(" ".join(lines))
    return "\n\n".join(paragraphs)


def _command_section(command: Any, path: list[str], parent: Any) -> list[str]:
    import click

    name = " ".join(path)
    ctx = click.Context(command, info_name=path[-1], parent=parent)
    lines = [f"## `{name}`", "", _help_text(command), "", "```text",
             f"Usage: {name} {' '.join(command.collect_usage_pieces(ctx))}", "```", ""]
    records = [param.get_help_record(ctx) for param in command.get_params(ctx)
               if isinstance(param, click.Option)]
    options = [record for record in records if record is not None]
    if options:
        lines += ["| option | what it does |", "| --- | --- |"]
        lines += [f"| `{_cell(flags)}` | {_cell(text)} |" for flags, text in options]
        lines.append("")
    if isinstance(command, click.Group):
        for sub in command.list_commands(ctx):
            lines += _command_section(command.get_command(ctx, sub), [*path, sub], ctx)
    return lines


def cli_reference() -> str:
    """Every command of ``arena`` with its help, usage and options, as ``--help`` prints them."""
    import click

    from arena.cli import main

    ctx = click.Context(main, info_name="arena")
    lines = ["```text", _arena_output("--help").rstrip(), "```", ""]
    for name in main.list_commands(ctx):
        lines += _command_section(main.get_command(ctx, name), ["arena", name], ctx)
    return "\n".join(lines)


PARTS: dict[str, Callable[[], str]] = {
    **{name: (lambda name=name: column_table(name)) for name in TABLES},  # type: ignore[misc]
    "dataset-columns": dataset_table,
    "run-files": run_files,
    "agents-listing": agents_listing,
    "agent-details": agent_details,
    "cli-reference": cli_reference,
}
"""Every generated part a page may ask for, by name."""


def render(markdown: str) -> str:
    """``markdown`` with each marker replaced by its part (an unknown name is an error)."""
    def part(match: re.Match[str]) -> str:
        name = match["name"]
        if name not in PARTS:
            raise DocsError(f"no generated part {name!r}; known: {', '.join(PARTS)}")
        with redirect_stdout(io.StringIO()):
            return PARTS[name]()
    return MARKER.sub(part, markdown)


# --------------------------------------------------------------------------- MkDocs events


def on_files(files: Any, config: Any) -> Any:
    """The committed charts that pages show, from results/, as files of the site."""
    from mkdocs.structure.files import File

    docs = Path(config["docs_dir"])
    wanted = sorted({match for page in docs.rglob("*.md")
                     for match in RESULT_FILES.findall(page.read_text())})
    for path in wanted:
        if not (ROOT / path).is_file():
            raise DocsError(f"a page shows {path}, which is not in the checkout")
        files.append(File(path, src_dir=str(ROOT), dest_dir=config["site_dir"],
                          use_directory_urls=config["use_directory_urls"]))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """The page with its generated parts in place."""
    return render(markdown)
