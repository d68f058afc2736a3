"""`arena bench`: the table it prints and writes, and one-line errors (the position sets, the plan
and the measures: tests/unit/test_bench.py)."""

from __future__ import annotations

import csv
from pathlib import Path

from arena.analysis.bench import QUICK_POSITIONS
from arena.cli.bench import bench_command
from arena.rules.errors import AgentSpecError
from tests.helpers.cli import invoke
from tests.helpers.paths import DATA

REQUIRED_COLUMNS = {"agent", "depth", "positions", "ms_per_move", "nodes_per_second"}


def test_cli_prints_and_writes_the_table(tmp_path: Path) -> None:
    out = tmp_path / "bench.csv"
    args = ["--agents", "random", "--agent", "negamax:depth=2", "--quick",
            "--no-fresh-process", "--out", str(out)]
    result = invoke(*args, command=bench_command)
    assert result.exit_code == 0, result.output
    assert "nodes_per_second" in result.output and "negamax:depth=2" in result.output
    with out.open() as handle:
        rows = list(csv.DictReader(handle))
    assert set(rows[0]) >= REQUIRED_COLUMNS
    assert [(r["agent"], r["positions"]) for r in rows] == [
        ("random", str(QUICK_POSITIONS)), ("negamax:depth=2", str(QUICK_POSITIONS))]
    assert rows[0]["nodes_per_second"] == "" and float(rows[1]["nodes_per_second"]) > 0

    again = invoke(*args, command=bench_command)
    assert again.exit_code == 2 and "exists" in again.output
    forced = invoke(*args, "--force", command=bench_command)
    assert forced.exit_code == 0, forced.output


def test_cli_refuses_a_bad_spec_before_timing() -> None:
    result = invoke("--agents", "negamax:depth=zero", "--quick", command=bench_command)
    assert isinstance(result.exception, AgentSpecError)
    assert "measuring" not in result.output


def test_an_agent_that_fails_while_measured_is_one_line(tmp_path: Path) -> None:
    agents = DATA / "hosting_agents.py"
    for agent, reason in (("Exits", "(agent_error): SystemExit: 0"),
                          ("HardExits", "(agent_crash): the agent's process exited with status 3")):
        out = tmp_path / f"{agent}.csv"
        result = invoke("bench", "--agents", f"{agents}:{agent}", "--out", str(out))
        assert result.exit_code == 2, result.output
        last = result.output.splitlines()[-1]
        assert last.startswith("arena: error: agent ") and last.endswith(reason), last
        assert not out.exists()
