"""The built-in ``net`` agent: the project's own policy-value network (``agents/data/net.onnx``,
trained on solver-labelled positions by ``tools/train_net.py``), played as ``onnx:`` agents
are (``onnx_agent``): its best legal column, or with ``sims=N`` a PUCT search."""

from __future__ import annotations

from pathlib import Path

from arena.rules.board import DEFAULT_RULES, Rules
from arena.rules.errors import UnsupportedBoardError

from .onnx_agent import OnnxAgent

MODEL = Path(__file__).parent / "data" / "net.onnx"


class NetAgent(OnnxAgent):
    """The project's own policy-value network for 6 x 7 connect 4, with optional search.

    Its best legal column, or a PUCT search of ``sims`` simulations guided by its policy and
    value (``c_puct``); 6 x 7 connect 4 is the only board it was trained for and plays."""

    def __init__(self, sims: int = 0, c_puct: float = 1.5):
        super().__init__(str(MODEL), sims=sims, c_puct=c_puct)

    def check_rules(self, rules: Rules) -> None:
        """UnsupportedBoardError on any board but the one it was trained for."""
        if rules != DEFAULT_RULES:
            raise UnsupportedBoardError(f"net plays only on {DEFAULT_RULES}, the board it was "
                                        f"trained for, not on {rules}")
