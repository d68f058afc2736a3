"""Kaggle submissions out: one self-contained ConnectX file that plays an arena agent.

The file is the template ``arena.kaggle.template`` (plain Python, standard library
only) with its ``SETTINGS`` statement replaced by the settings of the agent a spec string
describes. Only the built-in agents whose search the template ports can be exported.
"""

from __future__ import annotations

import ast
import shlex
from pathlib import Path
from typing import Any

from arena.kaggle import template as kaggle_agent
from arena.kaggle.template import Settings
from arena.protocol.registry import canonical_spec, kind_of, parse_spec, registered
from arena.rules.errors import ArenaError
from arena.search.heuristics import ThreatRules, parse_heuristic, terms_array
from arena.system.version import VERSION

EXPORTABLE = ("negamax", "negamax-id", "mcts", "random", "immediate-win")
WHY_NOT = {
    "minimax": "it is the seeds' numpy-board search; negamax:heuristic=window scores "
               "positions with the same window heuristic",
    "human": "it asks a person at the terminal",
}
DEFAULT_OUT = Path("main.py")


class SubmissionError(ArenaError):
    """An agent that cannot be exported, or a submission file that cannot be written."""


def submission_settings(spec_text: str) -> Settings:
    """The template's settings for the agent ``spec_text`` describes.

    Raises AgentSpecError for a bad spec and SubmissionError for an agent the template
    cannot play: that is told from the spec's text alone, before any of the user's code is
    imported.
    """
    refused = _not_exportable(spec_text.strip())
    if refused is not None:
        reason = WHY_NOT.get(refused, "only the arena's built-in agents ported to plain "
                                      "Python can be exported")
        raise SubmissionError(f"agent {refused!r} cannot be exported to Kaggle: {reason}; "
                              f"exportable: {', '.join(EXPORTABLE)}")
    spec = parse_spec(spec_text)
    spec.build()  # the agent's own checks of its values (depth range, heuristic names, ...)
    values = spec.resolved()
    common = Settings(agent=spec.name, spec=canonical_spec(spec))
    if spec.name == "mcts":
        return common._replace(iterations=values["iterations"], c=float(values["c"]),
                               immediate_win=values["rollout"] == "immediate-win",
                               time=values["time"])
    if spec.name == "immediate-win":
        return common._replace(block=values["block"])
    if spec.name == "random":
        return common
    return common._replace(**_negamax_settings(values))


def _not_exportable(text: str) -> str | None:
    """What ``text`` names when it is an agent but not an exportable one (another registered
    agent, a spec kind, a module's or a file's attribute), from the text alone; else None
    (an exportable agent, or a spec the registry refuses)."""
    head, _, rest = text.partition(":")
    if head in EXPORTABLE:
        return None
    if registered(head) is not None:
        return head
    if kind_of(text) is not None:
        return text
    attribute = rest.partition(":")[0]
    return f"{head}:{attribute}" if attribute.isidentifier() else None  # module or file


def _negamax_settings(values: dict[str, Any]) -> dict[str, Any]:
    """The negamax fields of Settings from a negamax or negamax-id spec's values."""
    seed_scoring = values.get("seed_scoring", False)
    rules = ThreatRules(values.get("clearing", "stacked"), seed_scoring,
                        values.get("seed_clearing_bug", False), values.get("seed_live_bug", False))
    terms = terms_array(parse_heuristic(values["heuristic"]), rules)
    return {
        "depth": values["depth"],
        "time": values.get("time"),
        "terms": tuple(tuple(int(v) for v in row) for row in terms.tolist()),
        "tiebreak": values["tiebreak"],
        "move_order": values.get("move_order", "centre-first"),
        "ordering": values["ordering"],
        "tt": values["tt"],
        "win_step": int(values.get("wins", "sooner") == "sooner"),
        "full_board_evaluation": seed_scoring,
        "soonest_win": 2 if seed_scoring else 3,
    }


def template_source() -> str:
    """The source of the template module."""
    return Path(kaggle_agent.__file__).read_text(encoding="utf-8")


def submission_source(settings: Settings) -> str:
    """The text of a submission file that plays with ``settings``."""
    source = template_source()
    lines = source.splitlines(keepends=True)
    statement = _settings_statement(source)
    end = statement.end_lineno or statement.lineno
    fields = "".join(f"    {name}={value!r},\n" for name, value in settings._asdict().items())
    header = (f"# Kaggle ConnectX submission exported by Connect Four Arena {VERSION}:\n"
              f"#   arena export kaggle {shlex.quote(settings.spec)}\n")
    return (header + "".join(lines[:statement.lineno - 1]) + f"SETTINGS = Settings(\n{fields})\n"
            + "".join(lines[end:]))


def _settings_statement(source: str) -> ast.stmt:
    """The module-level ``SETTINGS = ...`` statement of the template."""
    for statement in ast.parse(source).body:
        if isinstance(statement, ast.Assign | ast.AnnAssign):
            targets = (statement.targets if isinstance(statement, ast.Assign)
                       else [statement.target])
            if any(isinstance(t, ast.Name) and t.id == "SETTINGS" for t in targets):
                return statement
    raise AssertionError("the Kaggle template has no SETTINGS statement")


def write_submission(spec_text: str, path: Path = DEFAULT_OUT, force: bool = False) -> Settings:
    """Write the submission file for ``spec_text`` to ``path``; its settings.

    An existing file is kept unless ``force``.
    """
    settings = submission_settings(spec_text)
    if path.is_dir():
        raise SubmissionError(f"{path} is a directory; name the file to write")
    if path.exists() and not force:
        raise SubmissionError(f"{path} exists; use --force to overwrite it")
    try:
        path.write_text(submission_source(settings), encoding="utf-8")
    except OSError as error:
        raise SubmissionError(f"cannot write {path}: {error.strerror or error}") from None
    return settings
