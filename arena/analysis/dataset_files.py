"""A dataset (``arena.analysis.datasets``) written to and read from a file: Parquet (needs
pyarrow, the ``datasets`` extra) or numpy's npz.

Parquet has one column per field, the scores as ``score_0`` ... ``score_{cols-1}`` (null for a
full column) and the board in the schema's metadata (``rules``: ``ROWSxCOLSxCONNECT``); npz
has one array per field, ``scores`` as a (rows, cols) int8 array with ``NO_SCORE`` for a full
column, and ``rules`` as the array [rows, cols, connect]. Both load in pandas
(``pandas.read_parquet``, or ``read_dataset(path).frame()``).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pandas as pd

from arena.analysis.datasets import COLUMNS, NO_SCORE, Dataset, DatasetError
from arena.rules.board import Rules
from arena.system.files import check_writable, replaced_atomically
from arena.system.install import needs_extra

SUFFIXES = (".parquet", ".npz")


def check_out(path: Path, force: bool = False) -> None:
    """DatasetError unless ``path`` is a file name this module writes, and new (or ``force``);
    UnwritableError unless its directory takes new files (checked before any work)."""
    if path.suffix not in SUFFIXES:
        raise DatasetError(f"{path}: a dataset is written as FILE.parquet or FILE.npz")
    if path.suffix == ".parquet" and importlib.util.find_spec("pyarrow") is None:
        raise DatasetError(needs_extra(f"{path}: FILE.npz needs nothing more, Parquet needs "
                                       "pyarrow", "datasets"))
    if path.exists() and not force:
        raise DatasetError(f"{path} exists; use --force to overwrite it")
    if not path.parent.is_dir():
        raise DatasetError(f"{path}: the directory {path.parent} does not exist")
    check_writable(path.parent, f"the dataset {path.name}")


def frame(dataset: Dataset) -> pd.DataFrame:
    """The dataset as a pandas DataFrame (scores as nullable int8 ``score_C`` columns)."""
    table = pd.DataFrame({name: getattr(dataset, name) for name in COLUMNS})
    if dataset.scores is not None:
        for column in range(dataset.rules.cols):
            values = dataset.scores[:, column]
            table[f"score_{column}"] = pd.array(
                np.where(values == NO_SCORE, 0, values), dtype="Int8")
            table.loc[values == NO_SCORE, f"score_{column}"] = pd.NA
    return table


def write_dataset(dataset: Dataset, path: Path, force: bool = False) -> None:
    """Write ``dataset`` to ``path`` (.parquet or .npz), all at once: a file already there is
    replaced only with ``force``, and only when the new one is complete."""
    check_out(path, force)
    rules = dataset.rules
    with replaced_atomically(path) as temporary:
        if path.suffix == ".npz":
            arrays = {column: getattr(dataset, column) for column in COLUMNS}
            arrays["moves"] = arrays["moves"].astype(str)
            if dataset.scores is not None:
                arrays["scores"] = dataset.scores
            with temporary.open("wb") as file:
                np.savez_compressed(file, rules=np.array([rules.rows, rules.cols,
                                                          rules.connect]), **arrays)
        else:
            import pyarrow as pa
            import pyarrow.parquet as pq

            table = pa.Table.from_pandas(frame(dataset), preserve_index=False)
            table = table.replace_schema_metadata(
                {**(table.schema.metadata or {}),
                 b"rules": f"{rules.rows}x{rules.cols}x{rules.connect}".encode()})
            pq.write_table(table, temporary)


def read_dataset(path: Path | str) -> Dataset:
    """The dataset in ``path`` (as ``write_dataset`` wrote it)."""
    path = Path(path)
    if path.suffix == ".npz":
        with np.load(path, allow_pickle=False) as arrays:
            rows, cols, connect = (int(v) for v in arrays["rules"])
            columns = {name: arrays[name] for name in COLUMNS}
            columns["moves"] = columns["moves"].astype(object)
            scores = arrays.get("scores")
        return Dataset(Rules(rows, cols, connect), **columns, scores=scores)
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    rows, cols, connect = (int(v) for v in table.schema.metadata[b"rules"].split(b"x"))
    data = table.to_pandas()
    columns = {name: data[name].to_numpy() for name in COLUMNS}
    names = [f"score_{c}" for c in range(cols)]
    scores = None
    if names[0] in data:
        scores = data[names].fillna(NO_SCORE).to_numpy(dtype=np.int8)
    return Dataset(Rules(rows, cols, connect), **columns, scores=scores)
