"""Whether a run's report is current: a fingerprint of everything the report is drawn from
(the run's tables and transcripts, what meta.json says of the run, the chart options and the
code), kept beside the report, so that the same finished command again rewrites nothing.

Light on purpose: JSON, hashing and file stats only (no pandas, matplotlib or kernels), so
that a finished run's command can skip its report before loading any of them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from arena.runs.planning.charts import ChartOptions
from arena.runs.store.files import RunFiles
from arena.system.files import write_atomically
from arena.system.version import VERSION

__all__ = ["current_report", "left_over", "report_fingerprint", "write_stamp"]

_TABLES = (RunFiles.SUMMARY, RunFiles.RATINGS, RunFiles.SPRT, RunFiles.ANALYSIS,
           RunFiles.BLUNDERS, RunFiles.MOVES, RunFiles.ROUNDS)
"""The tables a report reads besides games.csv and meta.json, fingerprinted by their bytes (a
re-run writes summary.csv again, the same)."""
_VERSIONED = ("matplotlib", "numpy", "pandas")
"""Libraries whose version can change a chart's bytes."""


def _file_state(path: Path) -> list[int] | None:
    """Size and modification time (ns) of a file, None when it is absent."""
    try:
        stat = path.stat()
    except FileNotFoundError:
        return None
    return [stat.st_size, stat.st_mtime_ns]


def _digest(path: Path) -> str | None:
    """The SHA-256 of a file's bytes, None when it is absent."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except FileNotFoundError:
        return None


def _meta_shown(meta: Path) -> Any:
    """What the report shows of meta.json: all of it but each session's bookkeeping (its
    times, versions and options), of which only the distinct commands remain, and the
    run's last end (a re-run that plays no game ends again)."""
    try:
        data = json.loads(meta.read_bytes())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return data
    sessions = data.pop("sessions", [])
    data.pop("ended", None)
    data["commands"] = list(dict.fromkeys(
        s["command"] for s in sessions if isinstance(s, dict) and isinstance(s.get("command"),
                                                                             str)))
    return data


def _code() -> list[Any]:
    """The arena package's sources (name, size, mtime) and the charting libraries' versions."""
    root = Path(__file__).resolve().parent.parent  # the arena package
    sources = sorted((str(p.relative_to(root)), *(_file_state(p) or []))
                     for p in root.rglob("*.py"))
    versions: list[str | None] = []
    for name in _VERSIONED:
        try:
            versions.append(version(name))
        except PackageNotFoundError:
            versions.append(None)
    return [VERSION, versions, sources]


def report_fingerprint(directory: Path, options: ChartOptions) -> str:
    """A digest of everything the report of ``directory`` with ``options`` is made from."""
    files = RunFiles(directory)
    inputs = {"games": _file_state(files.games),  # appended to, never rewritten the same
              "tables": {name: _digest(files.path / name) for name in _TABLES},
              "transcripts": {path.name: _file_state(path)  # the models' figures and answers
                              for path in files.llm_transcripts().values()},
              "meta": _meta_shown(files.meta), "formats": list(options.formats),
              "dpi": options.dpi, "code": _code()}
    text = json.dumps(inputs, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _outputs_state(directory: Path, names: Iterable[str]) -> dict[str, list[int] | None]:
    return {name: _file_state(Path(directory) / name) for name in names}


def write_stamp(directory: Path, options: ChartOptions, fingerprint: str,
                outputs: Iterable[str]) -> None:
    """Record that the files ``outputs`` (names in ``directory``) are the report of the
    inputs whose digest is ``fingerprint``."""
    stamp = {"inputs": fingerprint, "outputs": _outputs_state(directory, outputs)}
    write_atomically(RunFiles(directory).report_stamp, json.dumps(stamp, sort_keys=True) + "\n")


def _recorded_outputs(directory: Path) -> dict[str, Any]:
    """The files the last report wrote, by name, with their state then ({} without a
    readable stamp)."""
    try:
        outputs = json.loads(RunFiles(directory).report_stamp.read_bytes())["outputs"]
    except (OSError, ValueError, TypeError, KeyError):
        return {}
    return outputs if isinstance(outputs, dict) else {}


def left_over(directory: Path, outputs: Iterable[str]) -> list[Path]:
    """The files the last report of ``directory`` wrote that a report writing ``outputs``
    does not (charts of a format no longer asked for, of a kind that no longer applies), each
    still as that report wrote it; read before the new report's stamp is written."""
    kept = set(outputs)
    return [Path(directory) / name for name, state in sorted(_recorded_outputs(directory).items())
            if name not in kept and state is not None and Path(name).name == name
            and _file_state(Path(directory) / name) == state]


def current_report(directory: Path, options: ChartOptions | None = None) -> Path | None:
    """report.md's path when the report of ``directory`` is current for ``options`` (its
    inputs unchanged since it was written, and every file it wrote still as it was written);
    None when it must be written."""
    files = RunFiles(directory)
    try:
        stamp = json.loads(files.report_stamp.read_bytes())
        recorded = stamp["inputs"]
        outputs = stamp["outputs"]
    except (OSError, ValueError, TypeError, KeyError):
        return None
    if not isinstance(outputs, dict) or _outputs_state(directory, outputs) != outputs:
        return None
    if recorded != report_fingerprint(directory, options or ChartOptions()):
        return None
    return files.report
