"""`arena stats`: match statistics and an SPRT check from result counts."""

from __future__ import annotations

import math

import click

from arena.stats import (
    EloEstimate,
    Model,
    SprtResult,
    elo_from_score,
    pentanomial,
    sprt,
    trinomial,
)

__all__ = ["format_report", "stats_command"]

_PENTA_HELP = "LL,LD,WL,DD,WD,WW"


def _parse_penta(
    ctx: click.Context, param: click.Parameter, value: str | None
) -> tuple[int, ...] | None:
    """Parse six comma-separated non-negative integers."""
    if value is None:
        return None
    parts = [p.strip() for p in value.split(",")]
    if len(parts) != 6 or not all(p.isdigit() for p in parts):
        raise click.BadParameter(
            f"expected six non-negative integers {_PENTA_HELP}, e.g. 34,54,31,32,64,75; "
            f"got {value!r}",
            ctx=ctx,
            param=param,
        )
    return tuple(int(p) for p in parts)


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


def _num(x: float) -> str:
    return f"{x:.2f}"


def _pct(x: float) -> str:
    return f"{100.0 * x:.2f}%"


def _elo_text(estimate: EloEstimate) -> str:
    """Elo ± error; for a one-sided result, the bound from the score's Wilson interval."""
    if math.isfinite(estimate.elo):
        return f"{_num(estimate.elo)} ± {_num(estimate.error)}"
    if estimate.elo > 0:
        bound = elo_from_score(estimate.score_interval.low)
        return f"+inf (A won every game; 95% lower bound {_num(bound)})"
    bound = elo_from_score(estimate.score_interval.high)
    return f"-inf (A lost every game; 95% upper bound {_num(bound)})"


def format_report(estimate: EloEstimate, test: SprtResult | None = None) -> str:
    """The plain-text table printed by `arena stats`."""
    if estimate.kind == "trinomial":
        w, d, lo = estimate.counts
        detail = f"(W {w}, D {d}, L {lo})"
    else:
        labels = _PENTA_HELP.split(",")
        pairs = ", ".join(f"{k} {v}" for k, v in zip(labels, estimate.counts, strict=True))
        detail = f"({estimate.n} pairs: {pairs})"
    ci = estimate.score_interval
    rows = [
        ("Games", f"{estimate.games}  {detail}"),
        ("Score", f"{_pct(estimate.score)}  [{_pct(ci.low)}, {_pct(ci.high)}]"),
        ("Elo", _elo_text(estimate)),
        ("nElo", f"{_num(estimate.nelo)} ± {_num(estimate.nelo_error)}"
                 if math.isfinite(estimate.nelo_error) else _num(estimate.nelo)),
        ("LOS", _pct(estimate.los)),
    ]
    if test is not None:
        unit = "nElo" if test.model == "normalized" else "Elo"
        rows += [
            (
                "SPRT",
                f"H0 {unit} {_num(test.elo0)}, H1 {unit} {_num(test.elo1)} ({test.model} model)",
            ),
            ("LLR", _num(test.llr)),
            ("Bounds", f"{_num(test.bounds.lower)}, {_num(test.bounds.upper)}"),
            ("Verdict", str(test.verdict)),
        ]
    width = max(len(label) for label, _ in rows) + 2
    return "\n".join(f"{label:<{width}}{text}" for label, text in rows)


_COUNT = click.IntRange(min=0)
_PROB = click.FloatRange(0.0, 1.0, min_open=True, max_open=True)


@click.command("stats")
@click.option("--wins", type=_COUNT, metavar="W", help="Games agent A won, e.g. --wins 136.")
@click.option("--draws", type=_COUNT, metavar="D", help="Games drawn, e.g. --draws 111.")
@click.option("--losses", type=_COUNT, metavar="L", help="Games agent A lost, e.g. --losses 96.")
@click.option(
    "--penta",
    callback=_parse_penta,
    metavar=_PENTA_HELP,
    help="Game-pair counts for paired openings (colours swapped), in the order "
    "loss-loss, loss-draw, win-loss, draw-draw, win-draw, win-win; "
    "e.g. --penta 34,54,31,32,64,75. Use instead of --wins/--draws/--losses.",
)
@click.option(
    "--sprt",
    "bounds",
    callback=_parse_sprt,
    metavar="ELO0,ELO1",
    help="Also run an SPRT of H0: Elo = ELO0 against H1: Elo = ELO1 (ELO0 < ELO1), e.g. "
    "--sprt 0,2. Normalized Elo for the normalized model, logistic Elo for the logistic one.",
)
@click.option(
    "--alpha",
    type=_PROB,
    default=0.05,
    show_default=True,
    help="SPRT false-positive rate (accepting H1 when H0 holds), e.g. --alpha 0.05.",
)
@click.option(
    "--beta",
    type=_PROB,
    default=0.05,
    show_default=True,
    help="SPRT false-negative rate (accepting H0 when H1 holds), e.g. --beta 0.05.",
)
@click.option(
    "--model",
    type=click.Choice(["normalized", "logistic"]),
    default="normalized",
    show_default=True,
    help="SPRT log-likelihood-ratio model, e.g. --model logistic.",
)
@click.pass_context
def stats_command(
    ctx: click.Context,
    wins: int | None,
    draws: int | None,
    losses: int | None,
    penta: tuple[int, ...] | None,
    bounds: tuple[float, float] | None,
    alpha: float,
    beta: float,
    model: Model,
) -> None:
    """Score, Elo, normalized Elo and LOS of agent A against agent B, from result counts.

    Give either --wins/--draws/--losses (independent games; a missing count is 0) or
    --penta (game pairs). Intervals are 95%.

    \b
    Examples:
      arena stats --wins 136 --draws 111 --losses 96
      arena stats --penta 34,54,31,32,64,75
      arena stats --wins 36433 --draws 68692 --losses 36027 --sprt 0,2
      arena stats --penta 871,26175,55003,980,26678,821 --sprt 0,2 --model logistic
    """
    trinomial_given = any(x is not None for x in (wins, draws, losses))
    if penta is not None and trinomial_given:
        raise click.UsageError("give either --penta or --wins/--draws/--losses, not both", ctx=ctx)
    if penta is None and not trinomial_given:
        raise click.UsageError(
            "no results: expected --wins/--draws/--losses or --penta LL,LD,WL,DD,WD,WW", ctx=ctx
        )
    if bounds is None:
        for name in ("alpha", "beta", "model"):
            if ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE:
                raise click.UsageError(f"--{name} only applies with --sprt ELO0,ELO1", ctx=ctx)
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
        estimate = pentanomial(penta)
    else:
        w, d, lo = wins or 0, draws or 0, losses or 0
        if w + d + lo == 0:
            raise click.UsageError(
                "no games: expected --wins + --draws + --losses to be positive", ctx=ctx
            )
        estimate = trinomial(w, d, lo)
    test = None
    if bounds is not None:
        test = sprt(estimate, bounds[0], bounds[1], alpha=alpha, beta=beta, model=model)
    click.echo(format_report(estimate, test))
