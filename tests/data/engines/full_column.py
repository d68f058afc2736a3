"""Always plays column 1, until it is full."""

from engine_base import serve

serve(lambda game: "move 1")
