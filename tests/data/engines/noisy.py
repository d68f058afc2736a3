"""Plays the leftmost column, chatting on stderr and in info lines, with blank lines too."""

import sys

from engine_base import leftmost, say, serve


def answer(game):
    print(f"thinking about {game.moves or 'the empty board'}", file=sys.stderr, flush=True)
    say("")
    say(f"info depth 1 nodes {len(game.moves) + 1} string weighing columns")
    say("")
    column = leftmost(game.moves, game.rows, game.cols)
    return f"move {column} depth 1 nodes {len(game.moves) + 1} score 0.5 pv {column}"


serve(answer, hello=("Noisy engine 1.0 (c) nobody", "name noisy"))
