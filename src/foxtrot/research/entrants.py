"""The entrants of a tournament: who plays, as a ``BotSpec``, read from text by ``parse_bots``.

``"hard,greedy,random"`` names three entrants; a level (``hard``) keeps its own search
budget unless one is given; ``policy:PATH``, ``learned:PATH`` and ``openspiel:...`` are
trained or OpenSpiel players, imported only when built.

>>> [spec.label for spec in parse_bots("hard,greedy,hard")]
['hard', 'greedy', 'hard#2']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from ..bots import (
    BOT_NAMES,
    LEVELS,
    ORACLE,
    READING_LEVELS,
    Bot,
    CheatingBot,
    budget,
    make_bot,
    make_oracle,
)
from ..bots.expert import ExpertBot, OracleBot
from ..learn.names import LEARNED, policy_file

__all__ = ["LEARNED", "OPENSPIEL", "POLICY", "SEARCH_BOTS", "BotSpec", "parse_bots"]

#: A saved policy as an entrant: ``policy:PATH`` (``foxtrot.env.policy``, extra ``[train]``).
POLICY = "policy"
#: An OpenSpiel search bot as an entrant: ``openspiel:ismcts`` or ``openspiel:mcts:200``
#: (``foxtrot.openspiel.bots``, extra ``[openspiel]``).
OPENSPIEL = "openspiel"
#: The bots whose search budget ``--expert-iterations`` and ``--expert-seconds`` set.
SEARCH_BOTS = ("expert", "oracle")


@dataclasses.dataclass(frozen=True, slots=True)
class BotSpec:
    """An entrant: its label in the results, the kind of bot, and a search budget.

    ``iterations`` and ``seconds`` are ``None`` for the bot's own default; ``seconds=0``
    means no time limit (the search stops after ``iterations`` only: repeatable).  They
    are used only by the search bots (expert, oracle).
    """

    label: str
    kind: str
    iterations: int | None = None
    seconds: float | None = None
    path: str | None = None  # the saved policy of ``policy:PATH``; ``openspiel:...`` as given

    def build(self) -> Bot | CheatingBot:
        """A fresh bot of this kind and budget."""
        if self.kind == POLICY:
            from ..env.policy import PolicyBot  # noqa: PLC0415 (numpy, torch: only when used)

            assert self.path is not None
            return PolicyBot(self.path)
        if self.kind == LEARNED:
            from ..learn.policy import LearnedBot  # noqa: PLC0415 (numpy: only when used)

            return LearnedBot(self.path)  # no path: the shipped policy of the table's size
        if self.kind == OPENSPIEL:
            from ..openspiel.bots import parse  # noqa: PLC0415 (pyspiel: only when used)

            assert self.path is not None
            return parse(self.path)
        name = self.label.split("#")[0]  # a level (hard, expert) has its own budget
        level = name if LEVELS.get(name) == self.kind else self.kind
        if self.kind not in SEARCH_BOTS or (self.iterations is None and self.seconds is None):
            return make_oracle() if self.kind == ORACLE else make_bot(level)
        # Only the budget that was chosen is passed: the rest stays the level's (or bot's) own.
        if self.kind == "expert":
            iterations, seconds = budget(level)
            if self.iterations is not None:
                iterations = self.iterations
            if self.seconds is not None:
                seconds = self.seconds or None
            return ExpertBot(iterations, seconds, reads=level in READING_LEVELS)
        if self.iterations is None:
            return OracleBot(seconds=self.seconds or None)
        if self.seconds is None:
            return OracleBot(iterations=self.iterations)
        return OracleBot(iterations=self.iterations, seconds=self.seconds or None)

    def budget(self) -> str:
        """The search budget in words, if one was chosen: ``expert: 200 iterations``."""
        if self.kind not in SEARCH_BOTS or (self.iterations is None and self.seconds is None):
            return ""
        parts = []
        if self.iterations is not None:
            parts.append(f"{self.iterations} iterations")
        if self.seconds is not None:
            parts.append(f"{self.seconds:g} s a move" if self.seconds else "no time limit")
        return f"{self.kind}: {', '.join(parts)}"


def parse_bots(
    text: str | Sequence[str], *, iterations: int | None = None, seconds: float | None = None
) -> tuple[BotSpec, ...]:
    """Entrants from ``"hard,greedy,random"`` (names or levels); a repeated name gets ``#2``.

    Raises ``ValueError`` naming the unknown bot and the known names.
    """
    names = [name.strip() for name in (text.split(",") if isinstance(text, str) else text)]
    if not names or any(not name for name in names):
        raise ValueError(
            f"no bot named in {text!r} (expected a comma-separated list of "
            f"{', '.join((*BOT_NAMES, ORACLE))} or {', '.join(LEVELS)})"
        )
    specs = []
    seen: dict[str, int] = {}
    for name in names:
        policy = name.startswith(POLICY + ":")
        if policy and name == POLICY + ":":
            raise ValueError(f"{name!r}: name the saved policy file, e.g. policy:agent.zip")
        if name.startswith(OPENSPIEL + ":") or name.startswith(LEARNED + ":"):
            kind = OPENSPIEL if name.startswith(OPENSPIEL + ":") else LEARNED
            if kind == OPENSPIEL:
                _check_openspiel(name)
            path = name if kind == OPENSPIEL else policy_file(name)
            seen[name] = seen.get(name, 0) + 1
            label = name if seen[name] == 1 else f"{name}#{seen[name]}"
            specs.append(BotSpec(label, kind, path=path))
            continue
        if name == LEARNED:  # the level: the policy shipped for the table's size
            seen[name] = seen.get(name, 0) + 1
            label = name if seen[name] == 1 else f"{name}#{seen[name]}"
            specs.append(BotSpec(label, LEARNED))
            continue
        if not policy and name != ORACLE and LEVELS.get(name, name) not in BOT_NAMES:
            levels = [level for level in LEVELS if level not in BOT_NAMES]
            raise ValueError(
                f"unknown bot {name!r} (expected {', '.join((*BOT_NAMES, ORACLE))}"
                f" or {', '.join(levels)}, or learned, policy:PATH, learned:PATH,"
                " or openspiel:ismcts|mcts[:SIMULATIONS])"
            )
        seen[name] = seen.get(name, 0) + 1
        label = name if seen[name] == 1 else f"{name}#{seen[name]}"
        if policy:
            specs.append(BotSpec(label, POLICY, path=name[len(POLICY) + 1 :]))
        else:
            specs.append(BotSpec(label, LEVELS.get(name, name), iterations, seconds))
    return tuple(specs)


def _check_openspiel(name: str) -> None:
    """Refuse a malformed ``openspiel:`` entrant early, before any match is played."""
    parts = name.split(":")
    if len(parts) not in (2, 3) or parts[1] not in ("ismcts", "mcts"):
        raise ValueError(
            f"{name!r}: expected openspiel:ismcts or openspiel:mcts (then :SIMULATIONS)"
        )
    if len(parts) == 3 and (not parts[2].isdigit() or int(parts[2]) < 1):
        raise ValueError(f"{name!r}: the simulations must be a positive whole number")
