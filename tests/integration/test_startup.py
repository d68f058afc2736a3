"""What a command imports: a solve pulls in numba and its cached kernels, but not scipy's
linear algebra (numba's BLAS check, about 0.2 s a process), and still solves."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.helpers.cli import checkout_env

PROBE = """
import sys
from arena.cli import main
try:
    main(["solve", "44444433333322222"])
except SystemExit:
    pass
print("imported:", sorted(m for m in ("numba", "scipy.linalg") if m in sys.modules))
"""


@pytest.mark.slow
def test_a_solve_uses_numba_without_scipy_linalg() -> None:
    output = subprocess.run([sys.executable, "-c", PROBE], env=checkout_env(), text=True,
                            capture_output=True, check=True).stdout
    assert "imported: ['numba']" in output
    # columns 3 and 4 are full; every other column loses to a win with player 1's 10th disc
    assert "score       -12  -12    -    -  -12  -12  -12" in output
