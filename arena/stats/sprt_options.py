"""The options of a sequential probability ratio test, declared once: the hypotheses (ELO0,
ELO1), the error rates (alpha, beta), the model and the log-likelihood ratio, each with its
flag, help, kind of value and default. ``arena stats`` (an SPRT of counts) and ``arena sprt``
(an SPRT of games, with ``arena.competitions.sprt.SPRT_OPTIONS``) make their options from
them; the help's ``{a}`` and ``{b}`` are the agents as the command names them, ``{lead}``
what it says first of ELO0."""

from __future__ import annotations

from arena.stats.elo import (
    DEFAULT_ALPHA,
    DEFAULT_BETA,
    DEFAULT_LLR,
    DEFAULT_MODEL,
    LLR_METHODS,
    MODELS,
)
from arena.system.options import Option, choice, number

PROBABILITY = number(minimum=0.0, above=True, maximum=1.0, below=True)
"""A chance strictly between 0 and 1."""

SPRT_TEST_OPTIONS: tuple[Option, ...] = (
    Option("elo0", ("--elo0",),
           "{lead}H0: {a} is ELO0 stronger than {b} (negative: weaker), e.g. 0.", number(),
           metavar="ELO0"),
    Option("elo1", ("--elo1",), "H1: {a} is ELO1 stronger than {b}, ELO1 > ELO0, e.g. 10.",
           number(), metavar="ELO1"),
    Option("alpha", ("--alpha",),
           "Chance of accepting H1 when H0 holds (the false-positive rate).", PROBABILITY,
           DEFAULT_ALPHA, show_default=True),
    Option("beta", ("--beta",),
           "Chance of accepting H0 when H1 holds (the false-negative rate).", PROBABILITY,
           DEFAULT_BETA, show_default=True),
    Option("model", ("--model",),
           "normalized: ELO0 and ELO1 are normalized Elo (nElo); logistic: Elo.",
           choice(MODELS), DEFAULT_MODEL, show_default=True),
    Option("llr", ("--llr",),
           "exact: the generalised log-likelihood ratio of fishtest and fastchess; "
           "approximate: its closed form.", choice(LLR_METHODS), DEFAULT_LLR,
           show_default=True),
)
"""The test's options, in the order ``--help`` lists them."""
