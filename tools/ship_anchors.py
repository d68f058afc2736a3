"""Write the anchors shipped with the arena, arena/competitions/ladder/anchors.csv, from the
committed reference runs, each rated as `arena ladder anchor DIR` fixes a board's anchors:

    python3 tools/ship_anchors.py results/ladder/reference-5x6 results/ladder/reference-6x7

Each run's directory is kept as its anchors' source (give it relative to the repository);
tests/integration/test_ladder_shipped.py checks the shipped table against the runs it names.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

from arena.competitions.ladder import anchors
from arena.competitions.ladder.adding import finished_run
from arena.system.files import write_atomically

TABLE = Path(anchors.__file__).with_name(anchors.SHIPPED)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="+", type=Path, help="finished reference run directories")
    runs = parser.parse_args().runs
    tables = []
    for run in runs:
        board, table = anchors.anchor_table(finished_run(run))
        tables.append(table.assign(board=board, source=run.as_posix()))
    shipped = pd.concat(tables, ignore_index=True)[list(anchors.SHIPPED_COLUMNS)]
    write_atomically(TABLE, shipped.to_csv(index=False))
    print(f"wrote {TABLE}: {len(shipped)} anchors of {shipped['board'].nunique()} boards")


if __name__ == "__main__":
    main()
