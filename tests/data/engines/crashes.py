"""Dies (exit status 3, a message on stderr) when asked for its second move."""

import sys

from engine_base import leftmost, serve


def answer(game):
    if game.moves_asked == 2:
        print("engine trouble: giving up", file=sys.stderr, flush=True)
        sys.exit(3)
    return f"move {leftmost(game.moves, game.rows, game.cols)}"


serve(answer)
