"""`arena stats`: match statistics and an SPRT check from result counts."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import click

from arena.cli.options import click_option
from arena.cli.printed import PENTA_ORDER, format_report
from arena.stats.elo import (
    MAX_UNITS,
    LlrMethod,
    Model,
    check_hypotheses,
    pentanomial,
    sprt,
    trinomial,
)
from arena.stats.sprt_options import SPRT_TEST_OPTIONS

__all__ = ["format_report", "stats_command"]



def _count(text: str) -> int:
    """A non-negative whole count of at most MAX_UNITS, from its digits (ValueError if not)."""
    text = text.strip()
    if not text.isdigit():
        raise ValueError(f"expected a non-negative whole number, got {text!r}")
    if len(text.lstrip("0")) > len(str(MAX_UNITS)) or int(text) > MAX_UNITS:
        shown = text if len(text) <= 20 else f"a number of {len(text)} digits"
        raise ValueError(f"expected at most 10^15, got {shown}")
    return int(text)


class CountType(click.ParamType):
    """A count of games or pairs: digits, at most 10^15."""

    name = "count"

    def convert(self, value: object, param: click.Parameter | None,
                ctx: click.Context | None) -> int:
        if isinstance(value, int):
            return value
        try:
            return _count(str(value))
        except ValueError as error:
            self.fail(str(error), param, ctx)


def _parse_penta(
    ctx: click.Context, param: click.Parameter, value: str | None
) -> tuple[int, ...] | None:
    """Parse six comma-separated non-negative integers."""
    if value is None:
        return None
    parts = value.split(",")
    if len(parts) != 6:
        raise click.BadParameter(
            f"expected six non-negative integers {PENTA_ORDER}, e.g. 34,54,31,32,64,75; "
            f"got {len(parts)} item{'s' * (len(parts) != 1)}",
            ctx=ctx, param=param,
        )
    try:
        return tuple(_count(p) for p in parts)
    except ValueError as error:
        raise click.BadParameter(
            f"expected six non-negative integers {PENTA_ORDER}, e.g. 34,54,31,32,64,75: {error}",
            ctx=ctx, param=param,
        ) from None


def _parse_sprt(
    ctx: click.Context, param: click.Parameter, value: str | None
) -> tuple[float, float] | None:
    """Parse 'ELO0,ELO1' with ELO0 < ELO1."""
    if value is None:
        return None
    parts = [p.strip() for p in value.split(",")]
    try:
        if len(parts) != 2:
            raise ValueError
        elo0, elo1 = float(parts[0]), float(parts[1])
    except ValueError:
        raise click.BadParameter(
            f"expected two numbers ELO0,ELO1, e.g. 0,2; got {value!r}", ctx=ctx, param=param
        ) from None
    if not (math.isfinite(elo0) and math.isfinite(elo1)) or elo0 >= elo1:
        raise click.BadParameter(
            f"expected finite ELO0 < ELO1, e.g. 0,2; got {value!r}", ctx=ctx, param=param
        )
    return elo0, elo1


_COUNT = CountType()
AGENTS = {"a": "A", "b": "B", "lead": "With --elo1, also run an SPRT: "}
"""How the help of ``SPRT_TEST_OPTIONS`` names the agents here."""


def sprt_option(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The click option of the SPRT's option ``name`` (``SPRT_TEST_OPTIONS``)."""
    [option] = [option for option in SPRT_TEST_OPTIONS if option.name == name]
    return click_option(option, context=AGENTS)

_SPRT_OPTIONS = ("alpha", "beta", "model", "llr")


@click.command("stats")
@click.option("--wins", type=_COUNT, metavar="W", help="Games agent A won, e.g. --wins 136.")
@click.option("--draws", type=_COUNT, metavar="D", help="Games drawn, e.g. --draws 111.")
@click.option("--losses", type=_COUNT, metavar="L", help="Games agent A lost, e.g. --losses 96.")
@click.option(
    "--penta",
    callback=_parse_penta,
    metavar=PENTA_ORDER,
    help="Game-pair counts for paired openings (colours swapped), in the order "
    "loss-loss, loss-draw, win-loss, draw-draw, win-draw, win-win; "
    "e.g. --penta 34,54,31,32,64,75. Use instead of --wins/--draws/--losses.",
)
@sprt_option("elo0")
@sprt_option("elo1")
@click.option(
    "--sprt",
    "bounds",
    callback=_parse_sprt,
    metavar="ELO0,ELO1",
    help="The same as --elo0 ELO0 --elo1 ELO1, e.g. --sprt 0,2.",
)
@sprt_option("alpha")
@sprt_option("beta")
@sprt_option("model")
@sprt_option("llr")
@click.pass_context
def stats_command(
    ctx: click.Context,
    wins: int | None,
    draws: int | None,
    losses: int | None,
    penta: tuple[int, ...] | None,
    elo0: float | None,
    elo1: float | None,
    bounds: tuple[float, float] | None,
    alpha: float,
    beta: float,
    model: Model,
    llr: LlrMethod,
) -> None:
    """Score, Elo, normalized Elo and LOS of agent A against agent B, from result counts.

    Give either --wins/--draws/--losses (independent games; a missing count is 0) or
    --penta (game pairs). Intervals are 95%: the normal approximation with the sample's
    variance (of games, or of pairs with --penta), or, when that fails (no variance, or an
    interval passing 0% or 100%), the Wilson score interval; the Intervals row says which.
    The Elo interval is always the score interval's bounds mapped to Elo.

    \b
    Examples:
      arena stats --wins 136 --draws 111 --losses 96
      arena stats --penta 34,54,31,32,64,75
      arena stats --penta 8,3,43,1,6,39 --elo0 0 --elo1 20
      arena stats --wins 36433 --draws 68692 --losses 36027 --sprt 0,2 --llr approximate
      arena stats --penta 871,26175,55003,980,26678,821 --sprt 0,2 --model logistic
    """
    trinomial_given = any(x is not None for x in (wins, draws, losses))
    if penta is not None and trinomial_given:
        raise click.UsageError("give either --penta or --wins/--draws/--losses, not both", ctx=ctx)
    if penta is None and not trinomial_given:
        raise click.UsageError(
            "no results: expected --wins/--draws/--losses or --penta LL,LD,WL,DD,WD,WW", ctx=ctx
        )
    hypotheses = _hypotheses(ctx, elo0, elo1, bounds)
    if hypotheses is None:
        for name in _SPRT_OPTIONS:
            if ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE:
                raise click.UsageError(
                    f"--{name} only applies to an SPRT: give --elo0 and --elo1", ctx=ctx)
    if alpha + beta >= 1.0:
        raise click.BadParameter(
            f"expected alpha + beta < 1, got {alpha} + {beta}", ctx=ctx, param_hint="--alpha/--beta"
        )
    if penta is not None:
        if sum(penta) == 0:
            raise click.BadParameter(
                "expected at least one game pair, got all zero counts",
                ctx=ctx,
                param_hint="--penta",
            )
    elif (wins or 0) + (draws or 0) + (losses or 0) == 0:
        raise click.UsageError(
            "no games: expected --wins + --draws + --losses to be positive", ctx=ctx
        )
    try:
        estimate = pentanomial(penta) if penta is not None else \
            trinomial(wins or 0, draws or 0, losses or 0)
    except ValueError as error:
        raise click.UsageError(str(error), ctx=ctx) from None
    test = None
    if hypotheses is not None:
        try:
            check_hypotheses(*hypotheses, model, llr)
        except ValueError as error:
            raise click.BadParameter(str(error), ctx=ctx, param_hint="--elo0/--elo1") from None
        test = sprt(estimate, *hypotheses, alpha=alpha, beta=beta, model=model, method=llr)
    click.echo(format_report(estimate, test))


def _hypotheses(ctx: click.Context, elo0: float | None, elo1: float | None,
                bounds: tuple[float, float] | None) -> tuple[float, float] | None:
    """The SPRT's (ELO0, ELO1) from --elo0/--elo1 or --sprt, or None without an SPRT."""
    if bounds is not None:
        if elo0 is not None or elo1 is not None:
            raise click.UsageError("give either --sprt ELO0,ELO1 or --elo0/--elo1, not both",
                                   ctx=ctx)
        return bounds
    if elo0 is None and elo1 is None:
        return None
    if elo0 is None or elo1 is None:
        missing = "--elo1" if elo1 is None else "--elo0"
        raise click.UsageError(f"an SPRT needs both --elo0 and --elo1: {missing} is missing",
                               ctx=ctx)
    if not (math.isfinite(elo0) and math.isfinite(elo1)) or elo0 >= elo1:
        raise click.BadParameter(f"expected finite ELO0 < ELO1, got {elo0:g} and {elo1:g}",
                                 ctx=ctx, param_hint="--elo0/--elo1")
    return elo0, elo1
