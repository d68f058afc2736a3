"""A stand-in for Pascal Pons' c4solver that speaks its line format from a table.

The table (JSON, named by the environment variable FAKE_PONS_TABLE) maps positions to the
7 column scores his solver's ``-a`` mode prints (-1000 for a full column). A position is
named by its columns' discs, bottom first, 1 for the first player's and 2 for the second's:
``12||1||||`` is the position of ``131``. Like his solver it reads any move string that
reaches a position, and echoes each line before the scores (with ``-a``) or the position's
score (without); a position not in the table ends it with status 4 and a message on stderr.
"""

import json
import os
import sys
from pathlib import Path


def position_key(moves):
    """The position ``moves`` reaches, as the table names it."""
    columns = [""] * 7
    for ply, digit in enumerate(moves):
        columns[int(digit) - 1] += "12"[ply % 2]
    return "|".join(columns)


table = json.loads(Path(os.environ["FAKE_PONS_TABLE"]).read_text())
analyze = "-a" in sys.argv[1:]
print("Unable to load opening book: 7x6.book", file=sys.stderr, flush=True)
for line in sys.stdin:
    moves = line.strip()
    if position_key(moves) not in table:
        print(f"unknown position {moves!r}", file=sys.stderr, flush=True)
        sys.exit(4)
    scores = table[position_key(moves)]
    if analyze:
        print(moves + "".join(f" {score}" for score in scores), flush=True)
    else:
        print(f"{moves} {max(score for score in scores if score != -1000)}", flush=True)
