"""``arena agents``: the listing and the description of one agent."""

from __future__ import annotations

from click.testing import CliRunner

from arena.cli import main
from arena.protocol.registry import registry


def test_listing_names_every_agent_with_its_parameters() -> None:
    result = CliRunner().invoke(main, ["agents"])
    assert result.exit_code == 0, result.output
    names = [line for line in result.output.splitlines() if line and not line.startswith(" ")]
    assert names == list(registry())
    assert "    block=bool  (default False)" in result.output
    assert "    tiebreak=random|first|left|right  (default random)" in result.output


def test_one_agent_is_described_in_full() -> None:
    result = CliRunner().invoke(main, ["agents", "negamax"])
    assert result.exit_code == 0, result.output
    assert "live-threats, stacked-threats" in result.output
    assert result.output.splitlines()[0] == "negamax"


def test_an_unknown_agent_is_one_line_and_exit_2() -> None:
    result = CliRunner().invoke(main, ["agents", "alphazero"])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1
    assert f"unknown agent 'alphazero'; known: {', '.join(registry())}\n" in result.output
