"""A trained policy as a bot: ``foxtrot tournament --bots policy:agent.zip,random``.

``save_policy(model, path, options)`` writes sb3-contrib's ``MaskablePPO`` zip and
a small JSON beside it (``agent.zip.json``: the format, the number of players
and the observation scaling it was trained with).  ``PolicyBot(path)`` is an
honest bot: it encodes the seat's ``Observation`` (``encode``), scales it,
and asks the network for the most likely *legal* action (the mask comes from
the observation's legal actions).  The model is loaded on the first move, once
per process (extra ``[train]``: torch on the CPU, one thread).
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from ..core import ACTIONS, Action, Observation, TableOptions
from .encoding import action_mask, encode, scale

FORMAT: Final = "foxtrot-policy/1"

_LOADED: dict[str, Any] = {}


def meta_path(path: str | Path) -> Path:
    """The JSON beside a saved policy: ``agent.zip`` -> ``agent.zip.json``."""
    return Path(f"{path}.json")


def save_policy(model: Any, path: str | Path, options: TableOptions) -> Path:
    """Save ``model`` (a ``MaskablePPO``) at ``path`` with the JSON the bot reads."""
    target = Path(path)
    model.save(target)
    if not target.exists() and target.with_suffix(".zip").exists():
        target = target.with_suffix(".zip")  # stable-baselines adds .zip when it is missing
    meta = {"format": FORMAT, "players": options.players, "scaled": True}
    meta_path(target).write_text(json.dumps(meta) + "\n", encoding="utf-8")
    return target


def _load(path: str) -> Any:
    """The model at ``path``, loaded once per process (again if the file was rewritten)."""
    stat = os.stat(path)
    key = f"{path}:{stat.st_mtime_ns}:{stat.st_size}"
    model = _LOADED.get(key)
    if model is None:
        import torch  # noqa: PLC0415 (torch only when a policy plays)
        from sb3_contrib import MaskablePPO  # noqa: PLC0415

        torch.set_num_threads(1)
        model = MaskablePPO.load(path, device="cpu")
        _LOADED[key] = model
    return model


class PolicyBot:
    """A saved ``MaskablePPO`` policy playing from its observation (see the module doc)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self.name = f"policy:{self.path}"
        meta_file = meta_path(self.path)
        if not Path(self.path).is_file():
            raise ValueError(f"policy: no file {self.path!r}")
        try:
            meta = json.loads(meta_file.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise ValueError(f"policy: cannot read {meta_file} ({error})") from None
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            raise ValueError(f"policy: {meta_file} is not a {FORMAT} file")
        self.players = int(meta["players"])
        self.scaled = bool(meta.get("scaled", True))

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        """The network's most likely legal action (deterministic)."""
        if obs.players != self.players:
            raise ValueError(
                f"policy {self.path!r} was trained for {self.players} players, not {obs.players}"
            )
        array = encode(obs)
        if self.scaled:
            array = array / scale(obs.options)
        mask = action_mask(obs).astype(bool)
        policy = _load(self.path).policy
        import torch  # noqa: PLC0415 (loaded by _load already)

        with torch.no_grad():  # the network directly: predict() costs ten times as much
            tensor = torch.as_tensor(array, dtype=torch.float32).unsqueeze(0)
            features = policy.extract_features(tensor, policy.pi_features_extractor)
            logits = policy.action_net(policy.mlp_extractor.forward_actor(features))[0]
            logits[~torch.as_tensor(mask)] = -torch.inf  # the mode of the masked distribution
            code = int(logits.argmax().item())
        chosen = ACTIONS[code]
        if chosen not in legal:  # a masked distribution cannot pick it: a broken model file
            raise ValueError(f"policy {self.path!r} chose {chosen}, which is not legal")
        return chosen


__all__ = ["FORMAT", "PolicyBot", "meta_path", "save_policy"]
