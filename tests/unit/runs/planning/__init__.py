"""Tests of the modules of arena.runs.planning, one file a module."""
