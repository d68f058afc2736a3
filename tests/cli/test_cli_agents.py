"""``arena agents``: the listing and the description of one agent."""

from __future__ import annotations

from arena.protocol.registry import registry
from tests.helpers.cli import invoke


def test_listing_names_every_agent_with_its_parameters() -> None:
    result = invoke("agents")
    assert result.exit_code == 0, result.output
    names = [line for line in result.output.splitlines() if line and not line.startswith(" ")]
    assert names == list(registry())
    assert "    block=bool  (default False)" in result.output
    assert "    tiebreak=random|first|left|right  (default random)" in result.output


def test_one_agent_is_described_in_full() -> None:
    result = invoke("agents", "negamax")
    assert result.exit_code == 0, result.output
    assert "live-threats, stacked-threats" in result.output
    assert result.output.splitlines()[0] == "negamax"


def test_an_unknown_agent_is_one_line_and_exit_2() -> None:
    result = invoke("agents", "alphazero")
    assert result.exit_code == 2
    assert result.output.count("\n") == 1
    assert f"unknown agent 'alphazero'; known: {', '.join(registry())}\n" in result.output
