"""Agents played by a neural network in ONNX format (onnxruntime, the ``onnx`` extra).

The network's contract, for a board of ``rows`` x ``cols``:

- input ``planes``: float32, shape (batch, 2, rows, cols): plane 0 the discs of the side to
  move, plane 1 the other side's, row 0 the top row, 1 where a disc is (the observation of
  ``arena.envs``; ``arena.envs.observation.planes``);
- outputs, in this order: ``policy``, float32 (batch, cols), a logit per column (higher is
  better; full columns are never played, whatever their logit), and ``value``, float32
  (batch, 1), the expected result for the side to move, from -1 (a loss) to 1 (a win).

Without simulations the agent plays the legal column of highest logit. With ``sims=N`` it
runs N simulations of a PUCT search (AlphaZero's): each descends the tree by
``Q + c_puct * P * sqrt(N_parent) / (1 + N)``, evaluates the leaf with the network (a won
or full board is scored exactly instead) and backs the value up; it plays the most visited
column. The search runs in Python around the network's calls, not in the compiled kernels: the
network's evaluation is the cost of a simulation.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from arena.protocol.agent import BaseAgent, Choice
from arena.protocol.registry import AgentSpec, SpecKind, file_fingerprint, model_and_values
from arena.rules.board import Position, Rules
from arena.rules.errors import IllegalMoveError, UnsupportedBoardError
from arena.system.install import needs_extra

PREFIX = "onnx"


def encode(positions: list[Position]) -> np.ndarray:
    """The network's input for ``positions`` (all on one board): float32 planes."""
    from arena.search.kernels.bitboard import board_array
    from arena.search.kernels.vector import observe

    rules = positions[0].rules
    current = np.array([p.current for p in positions], dtype=np.uint64)
    mask = np.array([p.mask for p in positions], dtype=np.uint64)
    out = np.zeros((len(positions), 2, rules.rows, rules.cols), dtype=np.int8)
    legal = np.zeros((len(positions), rules.cols), dtype=np.bool_)
    observe(board_array(rules), current, mask, out, legal)
    return out.astype(np.float32)


class Network:
    """An ONNX policy-value network loaded with onnxruntime, on one thread."""

    def __init__(self, path: Path):
        try:
            import onnxruntime
        except ImportError:
            raise ValueError(needs_extra("onnx agents need onnxruntime", "onnx")) from None
        if not path.is_file():
            raise ValueError(f"no model file {path}")
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = options.inter_op_num_threads = 1
        try:
            self.inference = onnxruntime.InferenceSession(
                str(path), options, providers=["CPUExecutionProvider"])
        except Exception as error:  # noqa: BLE001 - onnxruntime's errors have no common base
            raise ValueError(f"{path} is not an ONNX model onnxruntime can load: "
                             f"{str(error).splitlines()[0]}") from None
        inputs, outputs = self.inference.get_inputs(), self.inference.get_outputs()
        if len(inputs) != 1 or len(outputs) != 2:
            raise ValueError(f"{path}: expected one input (planes) and two outputs (policy, "
                             f"value), got {len(inputs)} and {len(outputs)}")
        self.input = inputs[0].name
        self.shape = tuple(inputs[0].shape[1:])

    def check_rules(self, rules: Rules) -> None:
        """UnsupportedBoardError if the network's input has a fixed shape other than the
        planes of ``rules``' board."""
        expected = (2, rules.rows, rules.cols)
        if all(isinstance(size, int) for size in self.shape) and self.shape != expected:
            raise UnsupportedBoardError(f"the network takes planes of shape {self.shape}, "
                                        f"not {expected} ({rules})")

    def evaluate(self, positions: list[Position]) -> tuple[np.ndarray, np.ndarray]:
        """The policy logits (batch, cols) and values (batch,) of ``positions``."""
        policy, value = self.inference.run(None, {self.input: encode(positions)})
        return np.asarray(policy, dtype=np.float64), np.asarray(value,
                                                                dtype=np.float64).reshape(-1)


class Node:
    """A position of the search tree: its prior, visits and summed values (for the side
    that moved into it), and its children by column."""

    __slots__ = ("children", "position", "prior", "total", "value", "visits")

    def __init__(self, position: Position, prior: float):
        self.position = position
        self.prior = prior
        self.visits = 0
        self.total = 0.0
        self.children: dict[int, Node] = {}
        self.value: float | None = None  # the exact value for the side to move, if over


class OnnxAgent(BaseAgent):
    """Plays an ONNX policy-value network: its best legal column, or a PUCT search of
    ``sims`` simulations guided by its policy and value (``c_puct``: exploration)."""

    def __init__(self, model: str, sims: int = 0, c_puct: float = 1.5):
        if isinstance(sims, bool) or not isinstance(sims, int) or sims < 0:
            raise ValueError(f"sims must be a whole number >= 0, got {sims!r}")
        if not c_puct > 0 or not math.isfinite(c_puct):
            raise ValueError(f"c_puct must be a number > 0, got {c_puct!r}")
        self.network = Network(Path(model))
        self.sims = sims
        self.c_puct = c_puct

    def warm_up(self, rules: Rules) -> None:
        """Load the board-encoding kernel before the first timed move."""
        encode([Position.empty(rules)])

    def check_rules(self, rules: Rules) -> None:
        """UnsupportedBoardError if the network cannot take ``rules``' board."""
        self.network.check_rules(rules)

    def choose(self, position: Position, rng: np.random.Generator) -> Choice:
        """The network's column, searched with ``sims`` simulations when asked."""
        if position.is_terminal:
            raise IllegalMoveError(f"onnx: the game is already over in {position.describe()}")
        if not self.sims:
            policy, value = self.network.evaluate([position])
            legal = position.legal_moves()
            column = max(legal, key=lambda c: policy[0, c])
            return Choice(column, score=float(value[0]))
        root = Node(position, 1.0)
        for _ in range(self.sims):
            self._simulate(root)
        column = max(root.children, key=lambda c: (root.children[c].visits, -c))
        child = root.children[column]
        return Choice(column, nodes=self.sims, score=child.total / max(child.visits, 1))

    def _simulate(self, root: Node) -> None:
        """One simulation: descend, evaluate the leaf, back its value up."""
        path = [root]
        node = root
        while node.children and node.value is None:
            node = self._select(node)
            path.append(node)
        value = self._expand(node)  # for the side to move at ``node``
        for visited in reversed(path):
            visited.visits += 1
            visited.total -= value  # the mover into ``visited`` gains what its opponent loses
            value = -value

    def _select(self, node: Node) -> Node:
        scale = self.c_puct * math.sqrt(node.visits)
        best, best_score = None, -math.inf
        for child in node.children.values():
            mean = child.total / child.visits if child.visits else 0.0
            score = mean + scale * child.prior / (1 + child.visits)
            if score > best_score:
                best, best_score = child, score
        assert best is not None
        return best

    def _expand(self, node: Node) -> float:
        """The value of ``node`` for its side to move: exact if the game is over, else the
        network's, its children added with the policy's priors."""
        position = node.position
        if position.won:
            node.value = -1.0
        elif position.is_full:
            node.value = 0.0
        if node.value is not None:
            return node.value
        policy, value = self.network.evaluate([position])
        legal = position.legal_moves()
        logits = policy[0, legal]
        priors = np.exp(logits - logits.max())
        priors /= priors.sum()
        for column, prior in zip(legal, priors, strict=True):
            node.children[column] = Node(position.play(column), float(prior))
        return float(value[0])


class OnnxSpec(AgentSpec):
    """A parsed ``onnx:`` spec (``onnx:PATH,sims=N``): identified by the model file's
    SHA-256."""

    separator = ","

    def fingerprint(self) -> str:
        """The SHA-256 of the model file."""
        return file_fingerprint(Path(self.values["model"]))


def parse_onnx(text: str, engines: object = None) -> AgentSpec:
    """Parse ``onnx:PATH[,sims=N][,c_puct=X]``; the model is loaded when the agent is
    built."""
    params = onnx_spec.params()
    values = model_and_values(text, params, "onnx:PATH.onnx[,sims=N], e.g. "
                                            "onnx:model.onnx,sims=200")
    return OnnxSpec(text, f"{PREFIX}:{values['model']}", TARGET, values, params)


TARGET = f"{__name__}:OnnxAgent"
onnx_spec = SpecKind(
    (f"{PREFIX}:PATH[,key=value,...]",),
    "A policy-value network in ONNX format (the onnx extra): its best legal column, or a "
    "PUCT search guided by it.", parse_onnx, TARGET)
"""The registry's ``onnx`` kind."""
