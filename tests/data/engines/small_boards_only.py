"""Refuses every board with more than 5 columns."""

from engine_base import serve

serve(newgame=lambda game: "ready" if game.cols <= 5 else "unsupported at most 5 columns")
