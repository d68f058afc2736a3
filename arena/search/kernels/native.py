"""The compiled core of the kernels: the C++ extension ``arena.search.kernels._core`` (sources
in ``arena/search/core/``, built by pip through scikit-build-core and nanobind), imported
with an error that says how to build it when it is missing (a checkout that was never
installed, run with PYTHONPATH)."""

from __future__ import annotations

from pathlib import Path

try:
    from arena.search.kernels import _core as core
except ModuleNotFoundError as error:
    if error.name != "arena.search.kernels._core":
        raise
    checkout = Path(__file__).resolve().parents[3]
    raise ModuleNotFoundError(
        "the arena's compiled core (arena.search.kernels._core) is not built for "
        f"{checkout}: build it with python3 -m pip install -e {checkout} (a C++17 compiler "
        "needed)", name=error.name) from None

__all__ = ["core"]
