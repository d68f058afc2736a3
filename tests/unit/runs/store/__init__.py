"""Tests of the modules of arena.runs.store, one file a module."""
