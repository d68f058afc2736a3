"""Tests of the modules of arena.runs, in its rooms (planning, store), one file a module."""
