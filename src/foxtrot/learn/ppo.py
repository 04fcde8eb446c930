"""Self-play training of a Foxtrot player with PPO, bounded in time (extra ``[train]``).

    python -m foxtrot.learn.ppo --minutes 10 --players 2 --take match --out learned-2p.npz
    foxtrot tournament --bots learned:learned-2p.npz,greedy --duplicate --matches 100

Why it is built this way:

- **Episodes of one deal**, every one the first deal of a new match (``BatchedGames`` with
  the Python engine, ``restart`` at each deal's end), rewarded densely with ``margin``:
  the learner's rewards over a deal add up to its deal score minus the others' mean.
  Rewards that come before the learner's first move of a deal are not its doing and are
  dropped; every later one is credited to the learner's last decision.
- **One learning seat per table**, drawn at random for every deal; the other seats are
  one opponent drawn per deal from a pool: the current policy (self-play), a past self
  (a snapshot every few updates, the last five kept), or greedy (the ``medium`` level,
  which reads the table's ``State`` through ``decide``, like any bot).  Greedy needs the
  Python engine; the compiled one keeps no ``State``.
- **PPO** (clipped, GAE with gamma 1 and lambda 0.95, advantages normalised, entropy
  bonus), a policy and a value network of two ``tanh`` layers of 128, masked logits (an
  illegal action has probability 0).  Decisions of an unfinished deal wait for the next
  update, so every advantage is computed on a whole deal.
- **Optionally cloned from greedy first** (``--clone-minutes``, part of ``--minutes``): the
  network learns greedy's choices and the value of greedy's play before PPO starts
  (``foxtrot.learn.clone``), so that PPO improves on a greedy-like player instead of a
  random one.
- **Bounded**: it stops after ``--minutes`` (wall clock), or after ``--updates`` PPO updates
  when that comes first (a bound on work: the same run on a fast machine and a busy one), and
  writes the policy as plain
  arrays (``foxtrot.learn.policy``: numpy plays it, torch is not needed), with what it
  did in the file's meta.  One torch thread.
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from ..bots import GreedyBot, decide
from ..core import SplitMix64, TableOptions, TakeRule
from ..env import BatchedGames
from ..env.encoding import N_ACTIONS, observation_size, scale
from .clone import collect, fit
from .policy import Floats, save

SELF = -2
GREEDY = -1
Layers = list[tuple[Floats, Floats]]


@dataclasses.dataclass(frozen=True, slots=True)
class Config:
    """The knobs of a run (the defaults are the ones the measured run used)."""

    minutes: float = 10.0
    players: int = 2
    take: str = "match"
    tables: int = 64
    seed: int = 0
    rollout: int = 64  # batch steps between two updates
    epochs: int = 4
    minibatch: int = 512
    lr: float = 3e-4
    clip: float = 0.2
    entropy: float = 0.01
    lam: float = 0.95
    reward_scale: float = 0.05
    pool_every: int = 10  # updates between two snapshots of the policy
    pool_size: int = 5
    clone_minutes: float = 0.0  # of ``minutes``: behaviour cloning from greedy first (clone.py)
    explore: float = 0.1  # cloning: the chance that a seat plays a random legal action
    hidden: int = 128
    # Bounds on work, each beside its bound on time (whichever comes first): a run bounded by
    # these does the same work on a fast machine and on a busy one (the tests rely on it).
    updates: int | None = None  # PPO updates
    clone_steps: int | None = None  # cloning: batch steps of greedy play collected
    clone_epochs: int | None = None  # cloning: passes of the fit over the positions


class Net(nn.Module):
    """The policy (to 53 logits) and the value (to 1), two ``tanh`` layers of 128 each."""

    def __init__(self, size: int, hidden: int = 128) -> None:
        super().__init__()
        self.pi = nn.Sequential(
            nn.Linear(size, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh(),
            nn.Linear(hidden, N_ACTIONS),
        )  # fmt: skip
        self.v = nn.Sequential(
            nn.Linear(size, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh(),
            nn.Linear(hidden, 1),
        )  # fmt: skip

    def layers(self) -> Layers:
        """The policy's layers as numpy arrays (``x @ w + b``)."""
        linear = [module for module in self.pi if isinstance(module, nn.Linear)]
        return [
            (m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy()) for m in linear
        ]


def numpy_act(layers: Layers, x: Floats, masks: npt.NDArray[Any]) -> npt.NDArray[np.int64]:
    """A snapshot's most likely legal action in every row (``x`` already scaled)."""
    for w, b in layers[:-1]:
        x = np.tanh(x @ w + b)
    logits = x @ layers[-1][0] + layers[-1][1]
    logits[masks == 0] = -np.inf
    chosen: npt.NDArray[np.int64] = logits.argmax(axis=1).astype(np.int64)
    return chosen


@dataclasses.dataclass(slots=True)
class Table:
    """One table's decisions not yet learned from, and who sits there this deal."""

    learner: int
    opponent: int
    obs: list[Floats] = dataclasses.field(default_factory=list)
    masks: list[npt.NDArray[np.int8]] = dataclasses.field(default_factory=list)
    actions: list[int] = dataclasses.field(default_factory=list)
    logps: list[float] = dataclasses.field(default_factory=list)
    values: list[float] = dataclasses.field(default_factory=list)
    rewards: list[float] = dataclasses.field(default_factory=list)
    dones: list[bool] = dataclasses.field(default_factory=list)
    open: bool = False  # the learner has decided in this deal
    got: float = 0.0  # the learner's reward this deal (for the report)


def train(config: Config, out: str | Path, log: Any = print) -> dict[str, Any]:
    """Train for ``config.minutes`` (or ``config.updates`` updates, whichever comes first) and
    save the policy at ``out``; what it did."""
    torch.set_num_threads(1)
    torch.manual_seed(config.seed)
    draw = SplitMix64(config.seed)
    options = TableOptions(players=config.players, take=TakeRule(config.take))
    batch = BatchedGames(config.tables, options, reward="margin", compiled=False)
    batch.reset(config.seed)
    divisor = scale(options)
    net = Net(observation_size(options), config.hidden)
    begun = time.monotonic()
    cloned: dict[str, Any] = {}
    if config.clone_minutes > 0:
        if config.clone_minutes >= config.minutes:
            raise ValueError("clone_minutes: it is part of minutes, and must leave time for PPO")
        seconds = config.clone_minutes * 60
        data = collect(
            options,
            0.6 * seconds,
            tables=config.tables,
            seed=config.seed,
            explore=config.explore,
            steps=config.clone_steps,
        )
        cloned = fit(
            net.pi, net.v, data, 0.4 * seconds, seed=config.seed, epochs=config.clone_epochs
        )
        log(f"cloned from greedy: {cloned}")
        target = Path(out)
        clone_out = target.with_name(f"{target.stem}-cloned{target.suffix}")
        save(clone_out, net.layers(), divisor, options, trained="foxtrot.learn.clone", **cloned)
        log(f"wrote {clone_out} (the cloned policy, before PPO)")
    optimizer = torch.optim.Adam(net.parameters(), lr=config.lr)
    pool: list[Layers] = []
    greedy = GreedyBot()
    bot_rngs = [SplitMix64(f"foxtrot-learn:{config.seed}:{g}") for g in range(config.tables)]

    def seat(_: int = 0) -> Table:
        kinds = [SELF, GREEDY, *range(len(pool))]
        return Table(draw.randrange(config.players), draw.choice(kinds))

    tables = [seat() for _ in range(config.tables)]
    everyone = np.arange(config.tables)
    start = time.monotonic()
    budget = config.minutes * 60 - (start - begun)
    updates = steps = decisions = deals = 0
    recent: list[tuple[int, float]] = []  # (opponent kind, learner's deal margin)
    while time.monotonic() - start < budget and (
        config.updates is None or updates < config.updates
    ):
        for _ in range(config.rollout):
            x = batch.obs / divisor
            masks = batch.mask.copy()
            learner = np.array([t.learner for t in tables])
            opponent = np.array([t.opponent for t in tables])
            mine = batch.to_move == learner
            actions = np.zeros(config.tables, dtype=np.int64)
            use_net = np.flatnonzero(mine | (opponent == SELF))
            if len(use_net):
                with torch.no_grad():
                    xt = torch.as_tensor(x[use_net])
                    logits = net.pi(xt).masked_fill(torch.as_tensor(masks[use_net] == 0), -1e9)
                    logp_all = torch.log_softmax(logits, dim=-1)
                    chosen = torch.multinomial(logp_all.exp(), 1).squeeze(-1)
                    logps = logp_all.gather(1, chosen[:, None]).squeeze(1).numpy()
                    values = net.v(xt).squeeze(-1).numpy()
                actions[use_net] = chosen.numpy()
                for j, g in enumerate(use_net.tolist()):
                    if mine[g]:
                        t = tables[g]
                        t.obs.append(x[g])
                        t.masks.append(masks[g])
                        t.actions.append(int(actions[g]))
                        t.logps.append(float(logps[j]))
                        t.values.append(float(values[j]))
                        t.rewards.append(0.0)
                        t.dones.append(False)
                        t.open = True
                        decisions += 1
            for k, layers in enumerate(pool):
                rows = np.flatnonzero(~mine & (opponent == k))
                if len(rows):
                    actions[rows] = numpy_act(layers, x[rows], masks[rows])
            for g in np.flatnonzero(~mine & (opponent == GREEDY)).tolist():
                actions[g] = decide(greedy, batch.games[g].state, bot_rngs[g]).code
            batch.step(actions)
            steps += config.tables
            got = batch.rewards[everyone, learner] * config.reward_scale
            ended = batch.deal_ended | batch.done
            for g, t in enumerate(tables):
                if t.open:
                    t.rewards[-1] += float(got[g])
                    t.got += float(batch.rewards[g, t.learner])
                if ended[g]:
                    if t.open:
                        t.dones[-1] = True
                        recent.append((t.opponent, t.got))
                    deals += 1
                    fresh = seat()
                    t.learner, t.opponent, t.open, t.got = fresh.learner, fresh.opponent, False, 0.0
            again = np.flatnonzero(ended & ~batch.done)
            if len(again):
                batch.restart(again)
        _update(net, optimizer, tables, config)
        updates += 1
        if updates % config.pool_every == 0:
            pool.append(net.layers())
            del pool[: -config.pool_size]
        if updates % 20 == 0:
            log(_progress(updates, steps, decisions, deals, recent=recent, start=start))
            recent = recent[-2000:]
    about: dict[str, Any] = {
        "trained": "foxtrot.learn.ppo",
        "take": config.take,
        "minutes": round((time.monotonic() - begun) / 60, 2),
        "clone_minutes": config.clone_minutes,
        "cloned": cloned,
        "hidden": config.hidden,
        "lr": config.lr,
        "updates": updates,
        "steps": steps,
        "decisions": decisions,
        "deals": deals,
        "seed": config.seed,
    }
    save(out, net.layers(), divisor, options, **about)
    log(_progress(updates, steps, decisions, deals, recent=recent, start=start))
    return about


def _progress(
    updates: int, steps: int, decisions: int, deals: int, *, recent: list[tuple[int, float]],
    start: float,
) -> str:  # fmt: skip
    """One line of progress: the learner's mean deal margin by opponent, lately."""
    lately = recent[-2000:]
    parts = []
    for kind, name in ((SELF, "self"), (GREEDY, "greedy")):
        got = [margin for opponent, margin in lately if opponent == kind]
        if got:
            parts.append(f"{name} {np.mean(got):+.1f} ({len(got)})")
    past = [margin for opponent, margin in lately if opponent >= 0]
    if past:
        parts.append(f"past {np.mean(past):+.1f} ({len(past)})")
    seconds = time.monotonic() - start
    return (
        f"{seconds:6.0f} s  update {updates}  steps {steps:,}  decisions {decisions:,}"
        f"  deals {deals:,}  margin vs " + ", ".join(parts)
    )


def _update(net: Net, optimizer: torch.optim.Optimizer, tables: list[Table], c: Config) -> None:
    """PPO on every finished deal's decisions; an unfinished deal's wait for the next."""
    obs, masks, actions, logps, advantages, targets = [], [], [], [], [], []
    for t in tables:
        if True not in t.dones:
            continue
        cut = len(t.dones) - t.dones[::-1].index(True)  # through the last finished deal
        values = t.values[:cut]
        advantage = 0.0
        adv = [0.0] * cut
        for i in range(cut - 1, -1, -1):
            following = 0.0 if t.dones[i] else values[i + 1]
            delta = t.rewards[i] + following - values[i]
            advantage = delta + c.lam * (0.0 if t.dones[i] else advantage)
            adv[i] = advantage
        obs += t.obs[:cut]
        masks += t.masks[:cut]
        actions += t.actions[:cut]
        logps += t.logps[:cut]
        advantages += adv
        targets += [a + v for a, v in zip(adv, values, strict=True)]
        for name in ("obs", "masks", "actions", "logps", "values", "rewards", "dones"):
            del getattr(t, name)[:cut]
    if not obs:
        return
    x = torch.as_tensor(np.array(obs))
    illegal = torch.as_tensor(np.array(masks) == 0)
    chosen = torch.as_tensor(actions)
    old = torch.as_tensor(logps, dtype=torch.float32)
    adv_t = torch.as_tensor(advantages, dtype=torch.float32)
    adv_t = (adv_t - adv_t.mean()) / (adv_t.std() + 1e-8)
    target = torch.as_tensor(targets, dtype=torch.float32)
    count = len(obs)
    for _ in range(c.epochs):
        order = torch.randperm(count)
        for first in range(0, count, c.minibatch):
            part = order[first : first + c.minibatch]
            logits = net.pi(x[part]).masked_fill(illegal[part], -1e9)
            logp_all = torch.log_softmax(logits, dim=-1)
            logp = logp_all.gather(1, chosen[part][:, None]).squeeze(1)
            ratio = torch.exp(logp - old[part])
            gain = torch.min(
                ratio * adv_t[part], torch.clamp(ratio, 1 - c.clip, 1 + c.clip) * adv_t[part]
            )
            value_loss = (net.v(x[part]).squeeze(-1) - target[part]).pow(2).mean()
            entropy = -(logp_all.exp() * logp_all).sum(dim=-1).mean()
            loss = -gain.mean() + 0.5 * value_loss - c.entropy * entropy
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), 0.5)
            optimizer.step()


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module doc)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="wall-clock budget")
    parser.add_argument(
        "--updates", type=int, default=None,
        help="stop after this many PPO updates if --minutes has not run out first",
    )  # fmt: skip
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--take", choices=["match", "any"], default="match")
    parser.add_argument("--tables", type=int, default=64, help="tables stepped at once")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--clone-minutes", type=float, default=0.0,
        help="of --minutes: behaviour cloning from greedy before PPO (default 0: none)",
    )  # fmt: skip
    parser.add_argument("--hidden", type=int, default=128, help="units of each hidden layer")
    parser.add_argument("--lr", type=float, default=3e-4, help="PPO's learning rate")
    parser.add_argument("--out", default="learned.npz", help="the policy file to write")
    args = parser.parse_args(argv)
    if args.minutes <= 0 or args.tables < 1 or args.hidden < 1 or args.lr <= 0:
        parser.error("--minutes and --lr must be positive, --tables and --hidden at least 1")
    if args.updates is not None and args.updates < 1:
        parser.error("--updates must be at least 1")
    if not 0 <= args.clone_minutes < args.minutes:
        parser.error("--clone-minutes must be 0 or more and leave some of --minutes for PPO")
    config = Config(
        minutes=args.minutes,
        players=args.players,
        take=args.take,
        tables=args.tables,
        seed=args.seed,
        clone_minutes=args.clone_minutes,
        hidden=args.hidden,
        lr=args.lr,
        updates=args.updates,
    )
    about = train(config, args.out, log=lambda line: print(line, flush=True))
    print(f"wrote {args.out}: {about}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
