"""Connect Four Arena: play Connect Four agents against each other and measure them."""

__version__ = "0.1.0"
