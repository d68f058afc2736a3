"""Plays the leftmost free column: a well-behaved engine with predictable games."""

from engine_base import serve

serve()
