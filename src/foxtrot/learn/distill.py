"""A distilled player: a small network taught by the search's labels (``foxtrot.learn.dataset``).

Why: the searching bots play well but spend a fraction of a second to seconds a move; a
network that imitates them plays in well under a millisecond with numpy alone.  A few
thousand searched decisions are too few to learn the game from nothing (cloning greedy from
150,000 positions still lost to it: docs/research/training.md), so the network starts from
a sound judgement and learns where to depart from it:

- its policy is one small network shared by every action: it reads the action's features
  (``foxtrot.learn.features.ACTION_FEATURES``: the default policy's value of the move, how
  far below the best move that is, the card's rank and points, the pile, the hands, the
  unseen cards of its rank) and gives the action's logit, so that every decision teaches
  it about every move, and a few thousand decisions are enough to fit its few thousand
  weights;
- that output is added to the default policy's value times a learned ``beta``, and its last
  layer starts at zero, so that before any training it plays the default policy's best move
  (greedy's: a duplicate match of the untrained net against greedy is a tie, move for move);
- it is taught by the search's values, not only its choice: the target of a decision is the
  softmax of every legal move's searched value over ``temperature`` points (the chosen move
  alone where the move was forced), so a near tie between two moves teaches a near tie;
- its value output learns the searched value of the move played (the expected deal margin
  from the position), in ``VALUE_SCALE`` points.

``python -m foxtrot.learn.distill --data DIR [DIR ...] --out learned.npz`` trains and writes
a ``foxtrot-learned/2`` file (``foxtrot.learn.policy``), played as ``learned:PATH``.
Training needs torch (extra ``[train]``); playing does not.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from ..env.encoding import scale
from .dataset import ARRAYS, Dataset, load, soft_targets
from .features import ACTION_FEATURES, action_features
from .policy import FORMAT_MOVES

#: Points that the value output is in.
VALUE_SCALE: Final = 20.0

Floats = npt.NDArray[np.float32]


class Net(nn.Module):
    """The policy (one small network shared by every action, over the default policy's
    values) and the value (see the module doc)."""

    def __init__(self, features: int, observation: int, hidden: int, beta: float = 1.0) -> None:
        super().__init__()
        self.pi = nn.Sequential(nn.Linear(features, hidden), nn.Tanh(), nn.Linear(hidden, 1))
        self.v = nn.Sequential(nn.Linear(observation, hidden), nn.Tanh(), nn.Linear(hidden, 1))
        last = self.pi[-1]
        assert isinstance(last, nn.Linear)
        nn.init.zeros_(last.weight)
        nn.init.zeros_(last.bias)
        self.beta = nn.Parameter(torch.tensor(float(beta)))

    def forward(
        self, features: torch.Tensor, moves: torch.Tensor, obs: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Policy logits (illegal actions not masked) and the value."""
        return self.pi(features).squeeze(-1) + self.beta * moves, self.v(obs).squeeze(-1)


def concat(parts: Sequence[Dataset]) -> Dataset:
    """Several datasets of the same table as one (matches renumbered to stay apart)."""
    if not parts:
        raise ValueError("data: no dataset given")
    options = parts[0].meta["options"]
    if any(part.meta["options"] != options for part in parts):
        raise ValueError("data: the datasets were played at different tables")
    arrays: dict[str, list[Any]] = {}
    offset = 0
    for part in parts:
        for name in ARRAYS:
            array = getattr(part, name)
            arrays.setdefault(name, []).append(array + offset if name == "match" else array)
        offset += int(part.match.max()) + 1 if len(part) else 0
    meta = {**parts[0].meta, "decisions": sum(len(part) for part in parts)}
    records = [record for part in parts for record in part.records]
    return Dataset(meta=meta, records=records, **{k: np.concatenate(v) for k, v in arrays.items()})


def train(
    data: Dataset,
    *,
    hidden: int = 128,
    epochs: int = 30,
    seconds: float = 600.0,
    temperature: float = 2.0,
    lr: float = 1e-3,
    weight_decay: float = 1e-4,
    minibatch: int = 256,
    held_share: float = 0.1,
    seed: int = 0,
) -> tuple[Net, dict[str, Any]]:
    """Fit a ``Net`` to ``data`` for ``epochs`` passes or ``seconds``, whichever comes first;
    the last ``held_share`` of the matches are held out, and the report gives how often the
    net, and the default policy alone, choose the move the search chose on them."""
    torch.manual_seed(seed)
    options = data.options
    x_obs = (data.obs / scale(options)).astype(np.float32)
    feats, moves = action_features(data.obs, data.mask, options)
    target = soft_targets(data, temperature)
    best = np.where(np.isnan(data.values), -np.inf, data.values).max(axis=1)
    value = np.where(data.searched, best, 0.0).astype(np.float32) / VALUE_SCALE
    matches = np.unique(data.match)
    held = matches[len(matches) - max(1, round(len(matches) * held_share)) :]
    test = np.isin(data.match, held)
    if test.all() or not test.any():
        raise ValueError(f"data: {len(matches)} matches are too few to hold some out")
    t = {
        "features": torch.as_tensor(feats),
        "obs": torch.as_tensor(x_obs),
        "moves": torch.as_tensor(moves),
        "illegal": torch.as_tensor(data.mask == 0),
        "target": torch.as_tensor(target),
        "value": torch.as_tensor(value),
        "searched": torch.as_tensor(data.searched),
    }
    net = Net(feats.shape[2], x_obs.shape[1], hidden)
    optimizer = torch.optim.Adam(net.parameters(), lr=lr, weight_decay=weight_decay)
    train_rows = torch.as_tensor(np.flatnonzero(~test))
    test_rows = torch.as_tensor(np.flatnonzero(test))
    start = time.monotonic()
    passes = 0
    history = []
    while passes < epochs and time.monotonic() - start < seconds:
        order = train_rows[torch.randperm(len(train_rows))]
        for first in range(0, len(order), minibatch):
            rows = order[first : first + minibatch]
            loss: Any = _loss(net, t, rows)  # Tensor.backward is untyped in torch
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        passes += 1
        history.append(round(_agreement(net, t, test_rows, data), 4))
    report = {
        "decisions": len(data),
        "train_decisions": len(train_rows),
        "held_out_decisions": len(test_rows),
        "held_out_matches": len(held),
        "epochs": passes,
        "seconds": round(time.monotonic() - start, 1),
        "temperature": temperature,
        "hidden": hidden,
        "beta": round(float(net.beta.detach()), 4),
        "held_out_agreement": history[-1] if history else None,
        "agreement_by_epoch": history,
        "default_policy_agreement": round(_baseline(moves, data, test), 4),
    }
    return net, report


def _loss(net: Net, t: dict[str, torch.Tensor], rows: torch.Tensor) -> torch.Tensor:
    out: tuple[torch.Tensor, torch.Tensor] = net(
        t["features"][rows], t["moves"][rows], t["obs"][rows]
    )
    logits, value = out
    logits = logits.masked_fill(t["illegal"][rows], -1e9)
    policy = -(t["target"][rows] * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()
    searched = t["searched"][rows].float()
    squared = ((value - t["value"][rows]) ** 2 * searched).sum() / searched.sum().clamp(min=1)
    total: torch.Tensor = policy + 0.5 * squared
    return total


def _agreement(net: Net, t: dict[str, torch.Tensor], rows: torch.Tensor, data: Dataset) -> float:
    """How often the net's best legal move is the search's choice, on searched decisions."""
    with torch.no_grad():
        logits, _ = net(t["features"][rows], t["moves"][rows], t["obs"][rows])
        logits = logits.masked_fill(t["illegal"][rows], -1e9)
    picked = logits.argmax(dim=1).numpy()
    chosen = data.chosen[rows.numpy()]
    searched = data.searched[rows.numpy()]
    return float((picked == chosen)[searched].mean())


def _baseline(moves: Floats, data: Dataset, test: npt.NDArray[np.bool_]) -> float:
    """How often the default policy's best move is the search's choice (held out, searched)."""
    values = np.where(data.mask == 1, moves, -np.inf)
    picked = values.argmax(axis=1)
    keep = test & data.searched
    return float((picked == data.chosen)[keep].mean())


def save(path: str | Path, net: Net, data: Dataset, **about: Any) -> Path:
    """Write ``net`` as a ``foxtrot-learned/2`` file (``foxtrot.learn.policy``)."""
    options = data.options
    meta = {
        "format": FORMAT_MOVES,
        "players": options.players,
        "pad_to": None,
        "options": options.to_json(),
        "features": list(ACTION_FEATURES),
        "value_scale": VALUE_SCALE,
        **about,
    }
    arrays: dict[str, Any] = {
        "meta": np.array(json.dumps(meta)),
        "scale": scale(options),
        "beta": np.array(float(net.beta.detach()), dtype=np.float32),
    }
    linear = [layer for layer in net.pi if isinstance(layer, nn.Linear)]
    for i, layer in enumerate(linear):
        arrays[f"w{i}"] = layer.weight.detach().numpy().T.astype(np.float32)
        arrays[f"b{i}"] = layer.bias.detach().numpy().astype(np.float32)
    for i, layer in enumerate(layer for layer in net.v if isinstance(layer, nn.Linear)):
        arrays[f"vw{i}"] = layer.weight.detach().numpy().T.astype(np.float32)
        arrays[f"vb{i}"] = layer.bias.detach().numpy().astype(np.float32)
    target = Path(path)
    with target.open("wb") as file:
        np.savez_compressed(file, **arrays)
    return target


def main(argv: Sequence[str] | None = None) -> int:
    """Train on the datasets given and write the policy file; print the report as JSON."""
    parser = argparse.ArgumentParser(prog="python -m foxtrot.learn.distill", description=__doc__)
    parser.add_argument("--data", nargs="+", type=Path, required=True, metavar="DIR")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--temperature", type=float, default=2.0)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    data = concat([load(path) for path in args.data])
    net, report = train(
        data,
        hidden=args.hidden,
        epochs=args.epochs,
        seconds=args.minutes * 60,
        temperature=args.temperature,
        lr=args.lr,
        seed=args.seed,
    )
    save(args.out, net, data, trained=report, datasets=[str(path) for path in args.data])
    print(json.dumps(report))
    return 0


__all__ = ["VALUE_SCALE", "Net", "concat", "main", "save", "train"]

if __name__ == "__main__":
    raise SystemExit(main())
