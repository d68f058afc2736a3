"""Train the built-in ``net`` agent's policy-value network on a solver-labelled dataset and
export it to ONNX (needs the ``train`` extra: torch; never the tests or the main install).

    arena dataset -n 8000 --plies 6-42 --max-nodes 300000 --seed 1 --out train.npz
    python3 tools/train_net.py train.npz --minutes 10 --out agents/data/net.onnx

The targets of a position come from the solver's column scores: the policy, the best columns
shared equally; the value, the sign of the best score (+1 the side to move wins, 0 a draw,
-1 it loses). Every position is also learnt mirrored. Training stops after the last epoch
that fits in ``--minutes`` of one CPU thread, and prints the held-out share of positions
where the net's best legal column is a best column.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

from arena.analysis.dataset_files import read_dataset
from arena.analysis.datasets import NO_SCORE, planes

CHANNELS = 32
BLOCKS = 3


class PolicyValueNet(nn.Module):
    """A small convolutional net: ``BLOCKS`` residual blocks of 3 x 3 convolutions, then a
    policy head (a logit per column) and a value head (tanh)."""

    def __init__(self, rows: int, cols: int):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(2, CHANNELS, 3, padding=1),
                                  nn.BatchNorm2d(CHANNELS), nn.ReLU())
        self.blocks = nn.ModuleList(
            nn.Sequential(nn.Conv2d(CHANNELS, CHANNELS, 3, padding=1), nn.BatchNorm2d(CHANNELS),
                          nn.ReLU(), nn.Conv2d(CHANNELS, CHANNELS, 3, padding=1),
                          nn.BatchNorm2d(CHANNELS))
            for _ in range(BLOCKS))
        self.policy = nn.Sequential(nn.Conv2d(CHANNELS, 4, 1), nn.ReLU(), nn.Flatten(),
                                    nn.Linear(4 * rows * cols, cols))
        self.value = nn.Sequential(nn.Conv2d(CHANNELS, 2, 1), nn.ReLU(), nn.Flatten(),
                                   nn.Linear(2 * rows * cols, 64), nn.ReLU(), nn.Linear(64, 1),
                                   nn.Tanh())

    def forward(self, board: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        x = self.stem(board)
        for block in self.blocks:
            x = torch.relu(x + block(x))
        return self.policy(x), self.value(x)


def targets(scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The policy (best columns shared equally) and value (sign of the best score) targets."""
    legal = scores != NO_SCORE
    masked = np.where(legal, scores.astype(np.int16), -1000)
    best = masked.max(axis=1, keepdims=True)
    policy = (masked == best).astype(np.float32)
    policy /= policy.sum(axis=1, keepdims=True)
    return policy, np.sign(best[:, 0]).astype(np.float32)


def best_move_rate(net: PolicyValueNet, boards: torch.Tensor, scores: np.ndarray) -> float:
    """The share of positions where the net's best legal column is a best column."""
    net.eval()
    with torch.no_grad():
        logits = net(boards)[0].numpy()
    legal = scores != NO_SCORE
    chosen = np.where(legal, logits, -np.inf).argmax(axis=1)
    best = np.where(legal, scores, -1000).max(axis=1)
    return float(np.mean(scores[np.arange(len(scores)), chosen] == best))


def main(argv: list[str] | None = None) -> int:
    """Train, report, export."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", type=Path, help="a labelled dataset (arena dataset)")
    parser.add_argument("--out", type=Path, default=Path("agents/data/net.onnx"))
    parser.add_argument("--minutes", type=float, default=10.0, help="training time budget")
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    data = read_dataset(args.dataset)
    if data.scores is None:
        parser.error(f"{args.dataset} has no solver scores: make it with --solve")
    rules = data.rules
    boards = planes(data).astype(np.float32)
    scores = data.scores
    boards = np.concatenate([boards, boards[..., ::-1]])  # mirrored copies
    scores = np.concatenate([scores, scores[:, ::-1]])
    rng = np.random.default_rng(args.seed)
    order = rng.permutation(len(boards))
    held = order[: len(order) // 20]
    train = order[len(order) // 20:]
    policy, value = targets(scores)
    x = torch.from_numpy(np.ascontiguousarray(boards))
    p, v = torch.from_numpy(policy), torch.from_numpy(value)
    net = PolicyValueNet(rules.rows, rules.cols)
    optimiser = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    start = time.process_time()
    budget = args.minutes * 60
    epoch, epoch_seconds = 0, 0.0
    print(f"{len(data)} positions ({len(train)} training rows with mirrors), "
          f"{sum(t.numel() for t in net.parameters()):,} parameters")
    while time.process_time() - start + epoch_seconds <= budget:
        began = time.process_time()
        net.train()
        shuffled = torch.from_numpy(rng.permutation(train))
        total = 0.0
        for first in range(0, len(shuffled), args.batch):
            batch = shuffled[first:first + args.batch]
            logits, predicted = net(x[batch])
            loss = (-(p[batch] * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()
                    + nn.functional.mse_loss(predicted[:, 0], v[batch]))
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            total += loss.item() * len(batch)
        epoch += 1
        epoch_seconds = time.process_time() - began
        rate = best_move_rate(net, x[held], scores[held.tolist()])
        print(f"epoch {epoch}: loss {total / len(train):.4f}, held-out best-move rate "
              f"{rate:.3f}, {epoch_seconds:.0f} CPU-s")
    print(f"trained {epoch} epochs in {(time.process_time() - start) / 60:.1f} CPU-minutes")
    net.eval()
    torch.onnx.export(net, (x[:1],), str(args.out), input_names=["planes"],
                      output_names=["policy", "value"], dynamo=False,
                      dynamic_axes={"planes": {0: "batch"}, "policy": {0: "batch"},
                                    "value": {0: "batch"}})
    print(f"wrote {args.out} ({args.out.stat().st_size / 1024:.0f} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
