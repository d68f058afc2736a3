"""The files of a run directory, every one of them named here and nowhere else."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class RunFiles:
    """Every file of the run directory ``path``: the run's own (meta.json, games.csv,
    summary.csv, agents.log and the lock), those its competition derives (sprt.csv,
    ratings.csv, crosstable.csv; a tournament in rounds' rounds.csv and round folders), the
    analysis's (analysis.csv, blunders.csv) and the report's (report.md and report.html, its
    charts, the replay pages)."""

    path: Path

    def __post_init__(self) -> None:
        object.__setattr__(self, "path", Path(self.path))  # a str too

    META = "meta.json"
    GAMES = "games.csv"
    SUMMARY = "summary.csv"
    AGENTS_LOG = "agents.log"
    LOCK = ".lock"
    SPRT = "sprt.csv"
    RATINGS = "ratings.csv"
    CROSSTABLE = "crosstable.csv"
    ROUNDS = "rounds.csv"
    ANALYSIS = "analysis.csv"
    BLUNDERS = "blunders.csv"
    MOVES = "moves.csv"
    REPORT = "report.md"
    REPORT_HTML = "report.html"
    REPORT_GAMES = "report-games.html"
    REPLAY_PAGE = "replay.html"
    REPORT_STAMP = ".report.json"
    LLM = "llm"

    @property
    def meta(self) -> Path:
        """What the run is: its description, agents and sessions."""
        return self.path / self.META

    @property
    def games(self) -> Path:
        """One row per finished game, appended as games finish."""
        return self.path / self.GAMES

    @property
    def summary(self) -> Path:
        """One row per pairing, derived from games.csv."""
        return self.path / self.SUMMARY

    @property
    def agents_log(self) -> Path:
        """What the agents printed, each line under its game and agent."""
        return self.path / self.AGENTS_LOG

    @property
    def lock(self) -> Path:
        """The file a run (or report) holds locked while it writes."""
        return self.path / self.LOCK

    @property
    def sprt(self) -> Path:
        """An SPRT's looks at the log-likelihood ratio, one row per batch."""
        return self.path / self.SPRT

    @property
    def ratings(self) -> Path:
        """A tournament's Elo ratings, best first."""
        return self.path / self.RATINGS

    @property
    def crosstable(self) -> Path:
        """A tournament's results of each agent against each other."""
        return self.path / self.CROSSTABLE

    @property
    def rounds(self) -> Path:
        """A tournament played in rounds (Swiss, knockout): one row per pairing (or bye) of
        every round."""
        return self.path / self.ROUNDS

    def round(self, number: int) -> Path:
        """The run directory of round ``number`` (from 1) of a tournament played in rounds."""
        return self.path / f"round-{number:02d}"

    @property
    def analysis(self) -> Path:
        """``arena analyze``: one row per game graded by the solver."""
        return self.path / self.ANALYSIS

    @property
    def blunders(self) -> Path:
        """``arena analyze``: every move that changed its game's theoretical result."""
        return self.path / self.BLUNDERS

    @property
    def moves(self) -> Path:
        """``arena analyze --best-moves``: every graded move, its exact score beside the best
        one."""
        return self.path / self.MOVES

    @property
    def report(self) -> Path:
        """The report page."""
        return self.path / self.REPORT

    @property
    def report_html(self) -> Path:
        """The report page as one self-contained HTML file."""
        return self.path / self.REPORT_HTML

    @property
    def report_games(self) -> Path:
        """The page replaying the games report.html links to."""
        return self.path / self.REPORT_GAMES

    @property
    def report_stamp(self) -> Path:
        """What the report was made from (a digest) and what it wrote: when both still hold,
        the report is current and is not written again."""
        return self.path / self.REPORT_STAMP

    @property
    def replay_page(self) -> Path:
        """``arena export html``: the page replaying the run's games."""
        return self.path / self.REPLAY_PAGE

    @property
    def llm(self) -> Path:
        """What language models (``llm:`` agents) said: the answers paid for, kept to replay
        (``llm_cache``), every game's transcript (``llm_transcript``), and the pace of their
        requests (``llm_pace``)."""
        return self.path / self.LLM

    @property
    def llm_cache(self) -> Path:
        """The answers paid for, a file a game (``llm_answers``)."""
        return self.llm / "cache"

    def llm_answers(self, game: int) -> Path:
        """The answers paid for in game ``game``, one JSON line each, under its request's
        digest."""
        return self.llm_cache / f"game-{game:06d}.jsonl"

    def llm_pace(self, key: str) -> Path:
        """When the next request to one model at one server may start (``rpm=``), for every
        playing process of the run; ``key`` names the model and server."""
        return self.llm / f"pace-{key}"

    def llm_transcript(self, game: int) -> Path:
        """Every prompt and answer of game ``game``, as gzip-compressed JSON lines."""
        return self.llm / f"game-{game:06d}.jsonl.gz"

    def llm_transcripts(self) -> dict[int, Path]:
        """The transcripts there are (``llm_transcript``), by game, in game order."""
        if not self.llm.is_dir():
            return {}
        names = (re.fullmatch(r"game-(\d+)\.jsonl\.gz", path.name) for path in self.llm.iterdir())
        games = sorted((int(match[1]), match[0]) for match in names if match)
        return {game: self.llm / name for game, name in games}

    def chart(self, kind: str, file_format: str = "png") -> Path:
        """The report's chart of ``kind`` (``wtl``, ``crosstable``, ``cost``, ...) in
        ``file_format`` (png, svg or pdf)."""
        return self.path / f"{kind}.{file_format}"
