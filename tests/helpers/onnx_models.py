"""Tiny ONNX policy-value networks built with the onnx package's helper API (no torch), and
the same networks computed in numpy, for the tests of ``onnx:`` agents."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import numpy as np


class LinearNet(NamedTuple):
    """policy = flat(planes) @ policy_weights + policy_bias; value = tanh(flat @ value_weights
    + value_bias), where flat is the planes of one board flattened."""

    policy_weights: np.ndarray
    policy_bias: np.ndarray
    value_weights: np.ndarray
    value_bias: np.ndarray

    def numpy(self, planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The policy logits and values of a batch of planes, in numpy."""
        flat = planes.reshape(len(planes), -1).astype(np.float64)
        policy = flat @ self.policy_weights + self.policy_bias
        value = np.tanh(flat @ self.value_weights + self.value_bias)
        return policy, value.reshape(-1)


def random_net(rows: int, cols: int, seed: int) -> LinearNet:
    rng = np.random.default_rng(seed)
    cells = 2 * rows * cols
    return LinearNet(rng.normal(size=(cells, cols)).astype(np.float32),
                     rng.normal(size=cols).astype(np.float32),
                     rng.normal(size=(cells, 1)).astype(np.float32) * 0.3,
                     rng.normal(size=1).astype(np.float32))


def write_model(net: LinearNet, rows: int, cols: int, path: Path) -> Path:
    """Save ``net`` as an ONNX model with the agents' contract (input planes; outputs
    policy, value)."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    nodes = [
        helper.make_node("Flatten", ["planes"], ["flat"], axis=1),
        helper.make_node("Gemm", ["flat", "wp", "bp"], ["policy"]),
        helper.make_node("Gemm", ["flat", "wv", "bv"], ["raw_value"]),
        helper.make_node("Tanh", ["raw_value"], ["value"]),
    ]
    weights = [numpy_helper.from_array(array, name) for array, name in
               zip(net, ("wp", "bp", "wv", "bv"), strict=True)]
    graph = helper.make_graph(
        nodes, "linear",
        [helper.make_tensor_value_info("planes", TensorProto.FLOAT, ["batch", 2, rows, cols])],
        [helper.make_tensor_value_info("policy", TensorProto.FLOAT, ["batch", cols]),
         helper.make_tensor_value_info("value", TensorProto.FLOAT, ["batch", 1])],
        weights)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return path
