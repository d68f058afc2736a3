"""The optional extras and system programs that some tests need, one pytest marker each
(registered in pyproject.toml; conftest.py skips a marked test when its need is missing)."""

from __future__ import annotations

import importlib.util
import shutil
from collections.abc import Callable
from functools import cache


def chromium() -> str | None:
    """The Chromium browser on PATH (Debian's ``chromium``, elsewhere ``chromium-browser``)."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


def _module(name: str) -> Callable[[], bool]:
    return lambda: importlib.util.find_spec(name) is not None


NEEDS: dict[str, tuple[Callable[[], bool], str]] = {
    "dask": (_module("distributed"), "needs dask.distributed: pip install -e '.[dask]'"),
    "kaggle": (_module("kaggle_environments"),
               "needs kaggle-environments: pip install -e '.[kaggle]'"),
    "gui": (_module("pygame"), "needs pygame: pip install -e '.[gui]'"),
    "rl": (lambda: all(_module(name)() for name in ("pettingzoo", "gymnasium", "pygame")),
           "needs pettingzoo, gymnasium and pygame: pip install -e '.[rl]'"),
    "datasets": (_module("pyarrow"), "needs pyarrow: pip install -e '.[datasets]'"),
    "onnx": (lambda: _module("onnxruntime")() and _module("onnx")(),
             "needs onnxruntime and onnx: pip install -e '.[dev,onnx]'"),
    "llm": (_module("openai"), "needs the openai client: pip install -e '.[llm]'"),
    "bitbully": (_module("bitbully"), "needs bitbully (dev extra): pip install -e '.[dev]'"),
    "chromium": (lambda: chromium() is not None, "needs Chromium: apt-get install chromium"),
    "pdftoppm": (lambda: shutil.which("pdftoppm") is not None,
                 "needs pdftoppm: apt-get install poppler-utils"),
    "docs": (lambda: all(_module(name)() for name in ("mkdocs", "material", "mkdocstrings")),
             "needs MkDocs, Material and mkdocstrings: pip install -e '.[docs]'"),
}
"""Marker -> (whether what it needs is here, what to install)."""


@cache
def missing(marker: str) -> str | None:
    """What to install for tests marked ``marker``, or None when nothing is missing."""
    present, reason = NEEDS[marker]
    return None if present() else reason
