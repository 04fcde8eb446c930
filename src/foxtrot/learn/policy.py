"""A learned policy as plain arrays, played with numpy only: ``learned:PATH`` in tournaments.

The file is a numpy ``.npz``: the layers of a multilayer perceptron (``w0, b0, w1, b1, ...``;
``tanh`` between them, none after the last), the divisor of every observation index
(``scale``: ``foxtrot.env.encoding.scale``) and a JSON ``meta`` (the format, the number of
players, ``pad_to``, how it was trained).  ``LearnedBot`` is an honest bot: it encodes the
seat's ``Observation`` (``foxtrot.env.encode``, padded as trained), divides by ``scale``,
and plays the legal action with the highest output.  No torch: training needs it
(``foxtrot.learn.ppo``, ``foxtrot.learn.distill``), playing does not.

Format ``foxtrot-learned/2`` (``foxtrot.learn.distill``) is a network shared by every
action: it reads each legal action's features (``foxtrot.learn.features.action_features``)
and gives its logit, to which the default policy's value of the move times the array
``beta`` is added, so that a network of zeros plays the default policy's best move.  Its
value network (``vw0, vb0, ...``: the expected deal margin, in ``meta["value_scale"]``
points) is kept for analysis; play does not need it.
"""

from __future__ import annotations

import json
import random
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ..core import ACTIONS, Action, FoxtrotError, Observation, TableOptions
from ..env.encoding import encode, pad
from .features import ACTION_FEATURES, action_features

FORMAT: Final = "foxtrot-learned/1"
#: The format of a distilled policy, which reads the move values too (see the module doc).
FORMAT_MOVES: Final = "foxtrot-learned/2"
Floats = npt.NDArray[np.float32]


class ArrayPolicy:
    """The arrays of a saved policy and its forward pass (see the module doc)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if Path(self.path).is_file() and not zipfile.is_zipfile(self.path):
            # np.load would read it as a pickle and say so: not the reason a person needs
            raise ValueError(f"learned: {self.path!r} is not a numpy .npz file")
        try:
            with np.load(self.path, allow_pickle=False) as data:
                arrays = {name: data[name] for name in data.files}
        except (OSError, ValueError) as error:
            raise ValueError(f"learned: cannot read {self.path!r} ({error})") from None
        try:
            meta = json.loads(str(arrays.pop("meta")))
        except (KeyError, ValueError):
            raise ValueError(f"learned: {self.path!r} holds no meta") from None
        if not isinstance(meta, dict) or meta.get("format") not in (FORMAT, FORMAT_MOVES):
            raise ValueError(f"learned: {self.path!r} is not a {FORMAT} file")
        self.meta: dict[str, Any] = meta
        try:
            self.players = int(meta["players"])
            self.pad_to: int | None = meta.get("pad_to")
            self.scale: Floats = arrays.pop("scale").astype(np.float32)
            self.moves = meta["format"] == FORMAT_MOVES
            self.beta = float(arrays.pop("beta")) if self.moves else 0.0
            self.options = (
                TableOptions.from_json(meta["options"])
                if "options" in meta
                else TableOptions(players=self.players)
            )
            count = sum(1 for name in arrays if name.startswith("w"))
            self.layers = [
                (arrays[f"w{i}"].astype(np.float32), arrays[f"b{i}"].astype(np.float32))
                for i in range(count)
            ]
        except (KeyError, TypeError, ValueError, FoxtrotError):
            raise ValueError(f"learned: {self.path!r}: the arrays or meta are incomplete") from None
        width = len(ACTION_FEATURES) if self.moves else self.scale.shape[0]
        if not self.layers or self.layers[0][0].shape[0] != width:
            raise ValueError(f"learned: {self.path!r}: the layers do not fit the observation")

    def logits(
        self,
        observations: Floats,
        options: TableOptions | None = None,
        masks: npt.NDArray[Any] | None = None,
    ) -> Floats:
        """The outputs for a batch of (unscaled) observation arrays, one row each, at
        ``options`` (by default the table it was trained at); ``masks`` (1 = legal) are read
        by the per-action features of format 2 (all actions legal when not given)."""
        if self.moves:
            table = options if options is not None else self.options
            if masks is None:
                masks = np.ones((len(np.atleast_2d(observations)), len(ACTIONS)), np.int8)
            x, moves = action_features(observations, masks, table)
        else:
            x, moves = observations / self.scale, None
        for w, b in self.layers[:-1]:
            x = np.tanh(x @ w + b)
        w, b = self.layers[-1]
        out: Floats = x @ w + b
        if moves is not None:
            out = out[..., 0] + self.beta * moves
        return out

    def act(
        self, observations: Floats, masks: npt.NDArray[Any], options: TableOptions | None = None
    ) -> npt.NDArray[np.int64]:
        """The legal action with the highest output in every row (``masks``: 1 = legal)."""
        logits = self.logits(observations, options, masks)
        logits[np.asarray(masks) == 0] = -np.inf
        chosen: npt.NDArray[np.int64] = logits.argmax(axis=1).astype(np.int64)
        return chosen


def save(
    path: str | Path,
    layers: Sequence[tuple[Floats, Floats]],
    scale: Floats,
    options: TableOptions,
    pad_to: int | None = None,
    **about: Any,
) -> Path:
    """Write a policy file (see the module doc); ``about``: how it was trained, kept in meta."""
    target = Path(path)
    meta = {"format": FORMAT, "players": options.players, "pad_to": pad_to, **about}
    arrays: dict[str, Any] = {"meta": np.array(json.dumps(meta)), "scale": scale}
    for i, (w, b) in enumerate(layers):
        arrays[f"w{i}"], arrays[f"b{i}"] = w, b
    with target.open("wb") as file:
        np.savez(file, **arrays)
    return target


#: The policies shipped with the package (``learned``: the one for the table's size).
SHIPPED: Final = Path(__file__).resolve().parent.parent / "data" / "learned"


def shipped_players() -> list[int]:
    """The table sizes a policy is shipped for (``learned-2p.npz`` is for 2 players).

    >>> shipped_players()
    [2, 4]
    """
    return sorted(int(path.stem[len("learned-") : -1]) for path in SHIPPED.glob("learned-*p.npz"))


def shipped(players: int) -> Path:
    """The shipped policy for ``players`` seats; ``ValueError`` naming the sizes there are."""
    path = SHIPPED / f"learned-{players}p.npz"
    if not path.is_file():
        sizes = ", ".join(str(n) for n in shipped_players()) or "none"
        raise ValueError(f"learned: no policy is shipped for {players} players (shipped: {sizes})")
    return path


class LearnedBot:
    """A saved ``ArrayPolicy`` playing from its observation (see the module doc); without a
    path, the shipped policy of the table's size (the level ``learned``)."""

    def __init__(self, path: str | Path | None = None) -> None:
        self._policies: dict[int, ArrayPolicy] = {}
        if path is None:
            self.name = "learned"
            self.policy: ArrayPolicy | None = None
        else:
            self.policy = ArrayPolicy(path)
            self.name = f"learned:{self.policy.path}"

    def _policy_for(self, players: int) -> ArrayPolicy:
        if self.policy is not None:
            return self.policy
        if players not in self._policies:
            self._policies[players] = ArrayPolicy(shipped(players))
        return self._policies[players]

    def check(self, players: int) -> None:
        """Refuse, with a ``ValueError`` naming the policy, a table it cannot play."""
        policy = self._policy_for(players)
        if policy.players != players:
            raise ValueError(f"{self.name} was trained for {policy.players} players, not {players}")

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        """The policy's highest legal output (deterministic)."""
        policy = self._policy_for(obs.players)
        if obs.players != policy.players:
            raise ValueError(
                f"{self.name} was trained for {policy.players} players, not {obs.players}"
            )
        array = pad(encode(obs), obs.options, policy.pad_to)[None, :]
        mask = np.zeros((1, len(ACTIONS)), dtype=np.int8)
        mask[0, [action.code for action in legal]] = 1
        return ACTIONS[int(policy.act(array, mask, obs.options)[0])]


__all__ = [
    "FORMAT",
    "FORMAT_MOVES",
    "SHIPPED",
    "ArrayPolicy",
    "LearnedBot",
    "save",
    "shipped",
    "shipped_players",
]
