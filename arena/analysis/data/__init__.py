"""Data shipped with the arena: the standard benchmark positions in ``pons/``."""
