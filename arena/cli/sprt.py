"""``arena sprt``: is agent A stronger than agent B? Game pairs until an SPRT knows."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import click

from arena.cli.options import (
    apply,
    click_option,
    command_record,
    finish_run,
    name_agents,
    run_options,
    say_if_complete,
)
from arena.cli.printed import LABEL_WIDTH, format_report, repeated_games_warning
from arena.cli.progress import with_progress
from arena.competitions.round_tables import run_names
from arena.competitions.sprt import (
    DEFAULT_SPRT_DIR,
    SPRT_OPTIONS,
    SprtPlayed,
    SprtStep,
    SprtTest,
    default_sprt_dir,
    run_sprt,
    sprt_plan,
)
from arena.runs.planning.request import RunRequest
from arena.runs.playing.progress import ProgressBar
from arena.runs.store.summary import seeds_lines
from arena.stats.elo import LlrMethod, Model
from arena.stats.tally import Tally

__all__ = ["format_sprt", "sprt_command"]

AGENTS = {"a": "AGENT_A", "b": "AGENT_B", "lead": ""}
"""How the help of ``SPRT_OPTIONS`` names the agents here."""
MORE_HELP = {"llr": " A test resumes only with the same choice."}


def sprt_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Add the SPRT's options (``SPRT_OPTIONS``): the hypotheses required, the others with
    their defaults."""
    return apply([click_option(option, context=AGENTS, more_help=MORE_HELP.get(option.name, ""),
                               required=option.name in ("elo0", "elo1") or None)
                  for option in SPRT_OPTIONS], command)


class SprtProgressBar(ProgressBar):
    """The match's progress bar, with the LLR of the last batch checked and its bounds."""

    def __init__(self, enabled: bool):
        super().__init__(enabled)
        self.llr = ""

    def advance(self, games: int, tally: Tally) -> None:
        """Count finished games."""
        super().advance(games, tally)
        self._show()

    def step(self, step: SprtStep) -> None:
        """Show the LLR after a batch."""
        bounds = step.result.bounds
        self.llr = f"LLR {step.result.llr:.2f} [{bounds.lower:.2f}, {bounds.upper:.2f}]"
        self._show()

    def _show(self) -> None:
        if self._bar is not None and self.llr:
            self._bar.set_postfix_str(f"{self.wtl_text()}, {self.llr}")


def format_sprt(run: SprtPlayed, labels: Mapping[str, str] | None = None) -> str:
    """What `arena sprt` prints: the seeds' line, the verdict in words, then a table; the
    agents named by ``labels`` (spec -> name)."""
    last, summary = run.last, run.summary
    report = [line.split(maxsplit=1) for line in
              format_report(last.estimate, last.result).splitlines()]
    rows = [(label, last.verdict if label == "Verdict" else text) for label, text in report]
    rows += [
        ("Batches", f"{last.batch} ({run.test.batch_pairs} pairs each); at most "
                    f"{run.max_games} games"),
        ("Conditions", run.match.description.conditions()),
        ("Output", str(run.directory)),
    ]
    [line] = seeds_lines([summary], labels)
    table = "\n".join(f"{label:<{LABEL_WIDTH}}{text}" for label, text in rows)
    return f"{line}\n{run.conclusion(labels)}\n{table}"


@click.command("sprt")
@click.argument("agent_a")
@click.argument("agent_b")
@sprt_options
@run_options(DEFAULT_SPRT_DIR, kind="sprt")
def sprt_command(agent_a: str, agent_b: str, elo0: float, elo1: float, alpha: float,
                 beta: float, model: Model, llr: LlrMethod, max_games: int, batch_pairs: int,
                 request: RunRequest, labels: tuple[str, ...], no_report: bool) -> None:
    """Test whether AGENT_A is stronger than AGENT_B with the fewest games.

    AGENT_A is the agent under test, AGENT_B the baseline; results are from AGENT_A's point
    of view. Game pairs (one opening, colours swapped) are played in batches; after each
    batch the log-likelihood ratio (LLR) of H1 against H0 over all pairs so far is appended to
    sprt.csv, and the test stops as soon as it reaches a bound: H1 accepted (with ELO0 = 0:
    AGENT_A is stronger), or H0 accepted (AGENT_A is not ELO1 stronger). At --max-games it
    stops with no decision. Running the same command again resumes the test.

    \b
    Examples:
      arena sprt negamax:depth=6 negamax:depth=4 --elo0 0 --elo1 10
      arena sprt minimax:depth=4 minimax:depth=3 --elo0 0 --elo1 5 --model logistic
      arena sprt negamax:depth=5 negamax:depth=4 --elo0 0 --elo1 10 --llr approximate
      arena sprt immediate-win random --elo0 -5 --elo1 0 --max-games 2000 --batch-pairs 20
    """
    test = SprtTest(elo0, elo1, alpha, beta, model, batch_pairs, llr)
    request = name_agents(request, (agent_a, agent_b), labels)
    plan = sprt_plan(agent_a, agent_b, request, max_games=max_games)
    directory = request.out or default_sprt_dir(plan, test, labels=dict(request.labels))
    run = with_progress(plan.total, directory, not request.progress,
                        lambda progress: run_sprt(plan, test, directory, request,
                                                  progress=progress, command=command_record(),
                                                  on_step=progress.step), SprtProgressBar)
    names = run_names(run.directory, (run.summary.agent_a, run.summary.agent_b))
    click.echo(format_sprt(run, names))
    warning = repeated_games_warning(run.summary, names)
    if warning:
        click.echo(f"arena: warning: {warning}", err=True)
    say_if_complete(run.match.played, run.directory,
                    None if run.last.decided else "a larger --max-games")
    finish_run(run.directory, not no_report, request.charts())
