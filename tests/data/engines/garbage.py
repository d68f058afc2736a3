"""Answers its first go with a line that is not part of the protocol."""

from engine_base import serve

serve(lambda game: "I think column 4 looks nice")
