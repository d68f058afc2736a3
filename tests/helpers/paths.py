"""Where the checkout and the tests' data files are, whichever layer a test lives in."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
"""The checkout: the directory that holds ``arena/``, ``agents/``, ``examples/`` and ``tests/``."""

DATA = ROOT / "tests" / "data"
"""Agents, engines and a fake solver that tests load by path."""

ENGINES = DATA / "engines"
"""Tiny engines, each misbehaving in one way."""

PONS = ROOT / "arena" / "analysis" / "data" / "pons"
"""Pascal Pons' benchmark sets, as the package ships them."""
