"""Behaviour cloning from the greedy bot: the starting point of PPO (``ppo --clone-minutes``).

Why: PPO from random weights spent 7 to 15 minutes of a shared core climbing from random play
and still lost to greedy in every cell (docs/research/training.md).  Greedy's decisions cost
about half a millisecond each, so a few minutes give a few hundred thousand labelled
positions: the network first learns to play like greedy (cross-entropy on greedy's choice,
illegal actions masked), and its value learns the margin greedy's play earns from each
position (the same ``margin`` rewards, scaled, as PPO's value).  PPO then starts from a
player that is about as good as greedy instead of a random one.

The positions come from deals where every seat plays greedy, except that a seat plays a
random legal action with probability ``explore`` (so that the positions a weaker or
different player reaches are labelled too); the label is always greedy's choice.
Episodes are single deals, each the first of a new match, as in PPO.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from ..bots import GreedyBot, decide
from ..core import SplitMix64, TableOptions
from ..env import BatchedGames
from ..env.encoding import scale

Floats = npt.NDArray[np.float32]


@dataclasses.dataclass(slots=True)
class Positions:
    """Labelled positions: the scaled observation, the mask, greedy's action, the return."""

    obs: Floats
    masks: npt.NDArray[np.int8]
    labels: npt.NDArray[np.int64]
    returns: Floats

    def __len__(self) -> int:
        return len(self.labels)


def collect(
    options: TableOptions,
    seconds: float,
    *,
    tables: int = 64,
    seed: int = 0,
    explore: float = 0.1,
    reward_scale: float = 0.05,
    steps: int | None = None,
) -> Positions:
    """Greedy's decisions in ``seconds`` of play (see the module doc), or in ``steps`` batch
    steps when that comes first.

    ``steps`` bounds the work rather than the time, so that a run (a test, above all) collects
    the same positions on a fast machine and on a busy one.  The return of a position is the
    sum of the seat's ``margin`` rewards from that decision to the end of the deal, times
    ``reward_scale`` (PPO's value target with gamma 1)."""
    if seconds <= 0:
        raise ValueError(f"seconds: {seconds!r} is not a positive time")
    if steps is not None and steps < 1:
        raise ValueError(f"steps: {steps!r} is not a positive count")
    draw = SplitMix64(seed)
    batch = BatchedGames(tables, options, reward="margin", compiled=False)
    batch.reset(seed)
    divisor = scale(options)
    greedy = GreedyBot()
    rngs = [SplitMix64(f"foxtrot-clone:{seed}:{g}") for g in range(tables)]
    n = options.players
    obs: list[Floats] = []
    masks: list[npt.NDArray[np.int8]] = []
    labels: list[int] = []
    returns: list[float] = []
    # per table and seat: the indices of its decisions this deal, and its rewards since each
    pending: list[list[list[int]]] = [[[] for _ in range(n)] for _ in range(tables)]
    start = time.monotonic()
    done = 0
    while time.monotonic() - start < seconds and (steps is None or done < steps):
        done += 1
        actions = np.zeros(tables, dtype=np.int64)
        for g in range(tables):
            state = batch.games[g].state
            label = decide(greedy, state, rngs[g]).code
            seat = int(batch.to_move[g])
            pending[g][seat].append(len(labels))
            obs.append(batch.obs[g] / divisor)
            masks.append(batch.mask[g].copy())
            labels.append(label)
            returns.append(0.0)
            if draw.random() < explore:
                legal = np.flatnonzero(batch.mask[g])
                actions[g] = int(legal[draw.randrange(len(legal))])
            else:
                actions[g] = label
        batch.step(actions)
        ended = batch.deal_ended | batch.done
        for g in range(tables):
            for seat in range(n):
                got = float(batch.rewards[g, seat]) * reward_scale
                if got:
                    for index in pending[g][seat]:
                        returns[index] += got
            if ended[g]:
                pending[g] = [[] for _ in range(n)]
        again = np.flatnonzero(ended & ~batch.done)
        if len(again):
            batch.restart(again)
    # the decisions of unfinished deals have no whole return: they are dropped
    unfinished = {index for table in pending for seat in table for index in seat}
    keep = [i for i in range(len(labels)) if i not in unfinished]
    return Positions(
        np.array(obs, dtype=np.float32)[keep],
        np.array(masks, dtype=np.int8)[keep],
        np.array(labels, dtype=np.int64)[keep],
        np.array(returns, dtype=np.float32)[keep],
    )


def fit(
    pi: nn.Module,
    v: nn.Module,
    data: Positions,
    seconds: float,
    *,
    lr: float = 1e-3,
    minibatch: int = 512,
    seed: int = 0,
    epochs: int | None = None,
) -> dict[str, Any]:
    """Cross-entropy on greedy's choice and the value's squared error, for ``seconds`` or
    ``epochs`` whole passes when they come first; the policy's agreement with greedy on the
    last tenth of the positions (held out).

    ``epochs`` bounds the work rather than the time: the same fit on any machine, however
    busy (a run bounded by ``seconds`` alone learns less when the cores are shared)."""
    if epochs is not None and epochs < 1:
        raise ValueError(f"epochs: {epochs!r} is not a positive count")
    generator = torch.Generator().manual_seed(seed)
    count = len(data)
    if count < 20:
        raise ValueError(f"positions: {count} are too few to learn from")
    held = max(count // 10, 1)
    x = torch.as_tensor(data.obs)
    illegal = torch.as_tensor(data.masks == 0)
    y = torch.as_tensor(data.labels)
    target = torch.as_tensor(data.returns)
    train = count - held
    parameters = [*pi.parameters(), *v.parameters()]
    optimizer = torch.optim.Adam(parameters, lr=lr)
    start = time.monotonic()
    passes = 0
    while time.monotonic() - start < seconds and (epochs is None or passes < epochs):
        order = torch.randperm(train, generator=generator)
        for first in range(0, train, minibatch):
            part = order[first : first + minibatch]
            logits = pi(x[part]).masked_fill(illegal[part], -1e9)
            loss = nn.functional.cross_entropy(logits, y[part])
            loss = loss + 0.5 * (v(x[part]).squeeze(-1) - target[part]).pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if time.monotonic() - start >= seconds:
                break
        passes += 1
    with torch.no_grad():
        logits = pi(x[train:]).masked_fill(illegal[train:], -1e9)
        agree = float((logits.argmax(dim=1) == y[train:]).float().mean())
    return {"positions": count, "epochs": passes, "held_out_agreement": round(agree, 4)}


__all__ = ["Positions", "collect", "fit"]
