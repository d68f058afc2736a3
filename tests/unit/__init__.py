"""Tests of one module, or one small group of modules, in this process."""
