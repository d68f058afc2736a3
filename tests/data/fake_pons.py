"""A stand-in for Pascal Pons' c4solver that speaks its line format from a table.

The table (JSON, named by the environment variable FAKE_PONS_TABLE) maps move strings to the
7 column scores his solver's ``-a`` mode prints (-1000 for a full column). Like his solver it
echoes each line before the scores (with ``-a``) or the position's score (without); a line
not in the table ends it with status 4 and a message on stderr.
"""

import json
import os
import sys
from pathlib import Path

table = json.loads(Path(os.environ["FAKE_PONS_TABLE"]).read_text())
analyze = "-a" in sys.argv[1:]
print("Unable to load opening book: 7x6.book", file=sys.stderr, flush=True)
for line in sys.stdin:
    moves = line.strip()
    if moves not in table:
        print(f"unknown position {moves!r}", file=sys.stderr, flush=True)
        sys.exit(4)
    scores = table[moves]
    if analyze:
        print(moves + "".join(f" {score}" for score in scores), flush=True)
    else:
        print(f"{moves} {max(score for score in scores if score != -1000)}", flush=True)
