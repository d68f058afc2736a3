"""The rules layer: board sizes and the immutable Position (``board``), move strings and other
notations (``notation``), text drawings (``render``), how games end (``results``: Result, Side,
Termination), the project's errors (``errors``) and perft. It imports nothing else of the
arena."""
