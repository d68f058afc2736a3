"""Train the built-in ``net`` agent's policy-value network on solver-labelled datasets and
export it to ONNX (needs the ``train`` extra: torch; never the tests or the main install).

    arena dataset -n 8000 -j 2 --seed 1 --out random.npz
    arena dataset -n 2500 --agents mcts mcts -j 2 --seed 2 --out mcts.npz
    python3 tools/train_net.py random.npz mcts.npz --epochs 12 --out agents/data/net.onnx

The targets of a position come from the solver's column scores: the policy, the best columns
shared equally; the value, the sign of the best score (+1 the side to move wins, 0 a draw,
-1 it loses). Each distinct position is learnt once, whatever its duplicates in the data, and
again mirrored (unless it is its own mirror image). A share of the distinct positions, a
position and its mirror image counted as one, is held out: neither they nor their mirror
images are trained on. The learning rate rises then falls over the epochs (one cycle); after
each epoch the script prints the held-out share of positions where the net's best legal
column is a best column, and at the end that share by number of discs.
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
from arena.analysis.datasets import NO_SCORE, Dataset, planes
from arena.rules.board import Rules

PHASES = ((0, 11), (12, 16), (17, 24), (25, 41))  # disc counts of the held-out report


class PolicyValueNet(nn.Module):
    """A small convolutional net: ``blocks`` residual blocks of 3 x 3 convolutions of
    ``channels`` channels, then a policy head (a logit per column) and a value head (tanh)."""

    def __init__(self, rules: Rules, channels: int, blocks: int):
        super().__init__()
        cells = rules.rows * rules.cols
        self.stem = nn.Sequential(nn.Conv2d(2, channels, 3, padding=1),
                                  nn.BatchNorm2d(channels), nn.ReLU())
        self.blocks = nn.ModuleList(
            nn.Sequential(nn.Conv2d(channels, channels, 3, padding=1), nn.BatchNorm2d(channels),
                          nn.ReLU(), nn.Conv2d(channels, channels, 3, padding=1),
                          nn.BatchNorm2d(channels))
            for _ in range(blocks))
        self.policy = nn.Sequential(nn.Conv2d(channels, 4, 1), nn.ReLU(), nn.Flatten(),
                                    nn.Linear(4 * cells, rules.cols))
        self.value = nn.Sequential(nn.Conv2d(channels, 2, 1), nn.ReLU(), nn.Flatten(),
                                   nn.Linear(2 * cells, 64), nn.ReLU(), nn.Linear(64, 1),
                                   nn.Tanh())

    def forward(self, board: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        x = self.stem(board)
        for block in self.blocks:
            x = torch.relu(x + block(x))
        return self.policy(x), self.value(x)


def load(paths: list[Path]) -> Dataset:
    """The labelled datasets in ``paths``, one after the other (all on one board)."""
    parts = [read_dataset(path) for path in paths]
    for path, part in zip(paths, parts, strict=True):
        if part.scores is None:
            sys.exit(f"{path} has no solver scores: make it with --solve")
        if part.rules != parts[0].rules:
            sys.exit(f"{path} is on {part.rules}, {paths[0]} on {parts[0].rules}")
    if len(parts) == 1:
        return parts[0]
    fields = {name: np.concatenate([getattr(p, name) for p in parts])
              for name in ("game", "ply", "side_to_move", "current", "mask", "moves", "move",
                           "result", "duplicate", "scores")}
    return Dataset(parts[0].rules, **fields)


def mirrored(bits: np.ndarray, rules: Rules) -> np.ndarray:
    """Bitboards (uint64, the layout of ``arena.rules.board``) reflected left to right."""
    height = rules.rows + 1
    column = np.uint64((1 << height) - 1)
    out = np.zeros_like(bits)
    for c in range(rules.cols):
        out |= ((bits >> np.uint64(c * height)) & column) << np.uint64((rules.cols - 1 - c)
                                                                       * height)
    return out


def split(data: Dataset, share: float,
          rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Row indices of the distinct training and held-out positions (one row each, a position
    and its mirror image one position), and whether each training row is its own mirror."""
    key = data.current + data.mask
    mirror_key = mirrored(key, data.rules)
    _, first = np.unique(np.minimum(key, mirror_key), return_index=True)
    order = first[rng.permutation(len(first))]
    held = round(len(order) * share)
    train, held_out = np.sort(order[held:]), np.sort(order[:held])
    return train, held_out, key[train] == mirror_key[train]


def targets(scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The policy (best columns shared equally) and value (sign of the best score) targets."""
    legal = scores != NO_SCORE
    masked = np.where(legal, scores.astype(np.int16), -1000)
    best = masked.max(axis=1, keepdims=True)
    policy = (masked == best).astype(np.float32)
    policy /= policy.sum(axis=1, keepdims=True)
    return policy, np.sign(best[:, 0]).astype(np.float32)


def best_moves(net: PolicyValueNet, boards: torch.Tensor, scores: np.ndarray) -> np.ndarray:
    """Whether the net's best legal column is a best column, position by position."""
    net.eval()
    with torch.no_grad():
        logits = torch.cat([net(boards[i:i + 4096])[0] for i in range(0, len(boards), 4096)])
    legal = scores != NO_SCORE
    chosen = np.where(legal, logits.numpy(), -np.inf).argmax(axis=1)
    best = np.where(legal, scores.astype(np.int16), -1000).max(axis=1)
    return scores[np.arange(len(scores)), chosen] == best


def main(argv: list[str] | None = None) -> int:
    """Train, report, export."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("datasets", type=Path, nargs="+",
                        help="labelled datasets (arena dataset), all on one board")
    parser.add_argument("--out", type=Path, default=Path("agents/data/net.onnx"))
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--lr", type=float, default=3e-3, help="the highest learning rate")
    parser.add_argument("--held-out", type=float, default=0.05,
                        help="share of distinct positions held out")
    parser.add_argument("--channels", type=int, default=32)
    parser.add_argument("--blocks", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1, help="torch's CPU threads")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    data = load(args.datasets)
    train, held, symmetric = split(data, args.held_out, rng)
    boards = planes(data).astype(np.float32)
    assert data.scores is not None
    scores = data.scores
    flip = train[~symmetric]
    rows = np.concatenate([boards[train], boards[flip][..., ::-1]])
    policy, value = targets(np.concatenate([scores[train], scores[flip][:, ::-1]]))
    x = torch.from_numpy(np.ascontiguousarray(rows))
    p, v = torch.from_numpy(policy), torch.from_numpy(value)
    held_boards = torch.from_numpy(boards[held])
    net = PolicyValueNet(data.rules, args.channels, args.blocks)
    steps = -(-len(x) // args.batch)
    optimiser = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, args.lr,
                                                   total_steps=args.epochs * steps)
    print(f"{len(data)} rows, {len(train) + len(held)} distinct positions (a mirror image "
          f"the same): {len(train)} trained on ({len(x)} rows with mirror images), "
          f"{len(held)} held out; {sum(t.numel() for t in net.parameters()):,} parameters")
    start = time.process_time()
    for epoch in range(1, args.epochs + 1):
        began = time.process_time()
        net.train()
        shuffled = torch.from_numpy(rng.permutation(len(x)))
        total = 0.0
        for first in range(0, len(shuffled), args.batch):
            batch = shuffled[first:first + args.batch]
            logits, predicted = net(x[batch])
            loss = (-(p[batch] * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()
                    + nn.functional.mse_loss(predicted[:, 0], v[batch]))
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += loss.item() * len(batch)
        rate = best_moves(net, held_boards, scores[held]).mean()
        print(f"epoch {epoch}: loss {total / len(x):.4f}, held-out best-move rate "
              f"{rate:.3f}, {time.process_time() - began:.0f} CPU-s", flush=True)
    print(f"trained {args.epochs} epochs in {(time.process_time() - start) / 60:.1f} "
          f"CPU-minutes")
    hits, plies = best_moves(net, held_boards, scores[held]), data.ply[held]
    for low, high in PHASES:
        phase = (plies >= low) & (plies <= high)
        print(f"held out, {low}-{high} discs: {int(phase.sum())} positions, best-move rate "
              f"{hits[phase].mean():.3f}")
    net.eval()
    torch.onnx.export(net, (x[:1],), str(args.out), input_names=["planes"],
                      output_names=["policy", "value"], dynamo=False,
                      dynamic_axes={"planes": {0: "batch"}, "policy": {0: "batch"},
                                    "value": {0: "batch"}})
    print(f"wrote {args.out} ({args.out.stat().st_size / 1024:.0f} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
