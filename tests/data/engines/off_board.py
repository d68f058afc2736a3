"""Answers go with a column off the board (9 of 7)."""

from engine_base import serve

serve(lambda game: "move 9")
