"""Declares options, a depth limit and no reproducibility; reports what it was told on stderr."""

import sys

from engine_base import leftmost, serve


def answer(game):
    print(f"options {sorted(game.options.items())} go {' '.join(game.go)}", file=sys.stderr,
          flush=True)
    return f"move {leftmost(game.moves, game.rows, game.cols)}"


serve(answer, hello=("name options", "option hash 16", "option style calm", "limits depth",
                     "reproducible no"))
