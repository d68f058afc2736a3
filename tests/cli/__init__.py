"""Tests that drive the `arena` command, through click's CliRunner or in a child Python."""
