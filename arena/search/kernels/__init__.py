"""Compiled bitboard kernels, one module per job: numba's, and those already moved to the C++
core (``native``: the extension ``_core``, built from ``arena/search/core/`` by pip).

- ``bitboard``: the per-board tables and the rules (playable cells, threats, lines);
- ``evaluation``: the heuristics evaluated at the depth limit (in numba and C++);
- ``negamax``: the alpha-beta search and its root (``root_scores``: C++; the numba search
  for numba's fused loop);
- ``mcts``: random playouts and the UCT tree search (``set_root``, ``search`` and
  ``playout_results``: C++; the numba search for numba's fused loop);
- ``solver``: the exact solver's search (``solve``, ``column_scores``, ``probe``: C++; the
  numba search for numba's fused loop);
- ``endings``: how move strings end, checked in bulk (the checks of a run's rows), in C++;
- ``row_text``: the fused loop's rows of games.csv as bytes, and their moves' hashes, in C++;
- ``vector``: the vectorized environment's steps and observations, in C++;
- ``streams``: numpy's ``Generator(PCG64(seed))`` rebuilt, draw for draw (in numba and C++);
- ``native``: the compiled core, imported (the board's tables and rules in C++ too);
- ``games``: whole games between two kernel agents, a batch in one call (the fused loop: in
  C++ for random, immediate-win, negamax and MCTS players, in numba when the solver plays).

A position is two uint64 bitboards in the layout of ``arena.rules.board``: ``cur`` (discs of the
side to move) and ``mask`` (all discs). What a kernel needs to know about the board size
comes in a ``Tables`` tuple of scalars (a tuple holding arrays would cost atomic reference
counting at every node), which entry points unpack from the uint64 array of
``board_array``, built once per Rules (a tuple argument costs microseconds to dispatch, an
array does not). Every integer that meets a bitboard is a ``np.uint64``: numba turns mixed
signed and unsigned arithmetic into floats, and shifts are kept below 64 because larger ones
are undefined in LLVM.

Compiled kernels are cached on disk by numba, keyed by the source file of each entry point
only; a kernel that inlines code from another module of this package would go stale when
only that module changes. ``_drop_stale_caches`` therefore clears the package's cache files
whenever any of its sources differ from the ones the cache was built from.

The first compilation of a kernel in a process tells a terminal that the kernels are being
compiled, once per install (``compiling``): until then the first command prints nothing for
about a minute.

numba is imported with the garbage collector held off and its objects then frozen out of
its reach (``arena.system.collector``): they live as long as the process.

numba's array maths asks at import whether BLAS is there by importing ``scipy.linalg`` when
scipy is installed, which costs a process 0.2 s or more; ``_numba_without_blas_check`` answers
that question "no" (it only chooses how numba compiles ``np.correlate`` and ``np.convolve``,
which no kernel uses; numba's linear algebra still finds scipy when it is compiled).

With ``NUMBA_DISABLE_JIT=1`` the kernels run as plain Python on numpy scalars (slowly), for
debugging and testing the search in pure Python. uint64 arithmetic then wraps around as
compiled code does, but numpy warns each time; those warnings are silenced for this
package's modules.
"""

from __future__ import annotations

import hashlib
import sys
import warnings
from pathlib import Path

from arena.system.collector import uncollected


def _numba_without_blas_check() -> None:
    """Import numba's array maths with ``scipy.linalg`` out of its reach, unless something
    imported it already."""
    blas = "scipy.linalg.cython_blas"
    if "numba.np.arraymath" in sys.modules or blas in sys.modules:
        return
    sys.modules[blas] = None  # type: ignore[assignment]  # an import of it raises ImportError
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        del sys.modules[blas]


if "numba.np.arraymath" not in sys.modules:
    with uncollected():
        _numba_without_blas_check()

from numba import config  # noqa: E402

from arena.search.kernels.compiling import tell_the_terminal_when_compiling  # noqa: E402

_HERE = Path(__file__).parent
_STAMP = _HERE / "__pycache__" / "kernels-source.sha256"


def _sources_digest() -> str:
    digest = hashlib.sha256()
    for path in sorted(_HERE.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def _drop_stale_caches() -> None:
    """Remove numba's cache files of this package when its sources changed since they were
    written (best effort: a read-only install keeps whatever it has)."""
    digest = _sources_digest()
    try:
        if _STAMP.read_text() == digest:
            return
    except OSError:
        pass
    try:
        for stale in _STAMP.parent.glob("*.nb[ic]"):
            stale.unlink(missing_ok=True)
        _STAMP.parent.mkdir(exist_ok=True)
        _STAMP.write_text(digest)
    except OSError:
        return


def jit_enabled() -> bool:
    """False when the kernels run as plain Python (``NUMBA_DISABLE_JIT``)."""
    return not getattr(config, "DISABLE_JIT", False)


def _allow_wrap_around() -> None:
    """Without the JIT, let uint64 arithmetic in the kernels wrap around without warnings."""
    if not jit_enabled():
        warnings.filterwarnings("ignore", message="overflow encountered in scalar",
                                category=RuntimeWarning, module=r"arena\.search\.kernels\.")


_drop_stale_caches()
_allow_wrap_around()
tell_the_terminal_when_compiling(__name__)
