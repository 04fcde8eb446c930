"""A dataset of searched self-play: G2 records plus a label for every decision.

Why: imitation and value learning need positions labelled by a player stronger than the
learner, and the search's labels (what ``hard`` or ``expert`` thinks every legal move is
worth) are the expensive part: a deal of hard self-play costs tens of seconds of a core.
Written once, they can be trained on again and again, by anyone (docs/research/dataset.md).

A dataset is a directory (format ``foxtrot-dataset/1``):

- ``meta.json``: the format, the table options (G2's ``options``), the bot that searched every
  decision and its budget, ``mover``: who chose the moves played (that bot itself, or a
  learned policy, ``learned`` or ``learned:PATH``: the positions a learner reaches, labelled by
  the search, for expert iteration), the seed, the counts of matches, deals and decisions;
- ``records.jsonl``: one G2 record a line, match by match (``foxtrot check`` reads each);
- ``labels.npz``: one row per decision, in the order they were made: ``obs`` (the mover's
  observation array, ``foxtrot.env.encode``, unscaled), ``mask`` (1 = legal), ``chosen``
  (the action code played: an index of ``foxtrot.core.ACTIONS``), ``values`` (each legal
  move's searched value, its expected deal margin in points; NaN where illegal and where
  the move was forced, so not searched), ``searched`` (the values are the search's),
  ``match``, ``deal`` (within the match), ``turn`` (the action's index within the deal,
  as in the record) and ``seat``.

Every match is played from its own seed (``match_rng``), so a dataset is reproduced match by
match whatever the number of processes.  The bot plays by samples, not by seconds (no time
limit), so the labels do not depend on the machine's load either.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ..bots import BUDGETS, ExpertBot, budget
from ..core import Phase, RecordError, SplitMix64, State, TableOptions, dumps
from ..core.record import replay
from ..env.encoding import N_ACTIONS, encode, observation_size
from .names import policy_file
from .policy import LearnedBot

FORMAT: Final = "foxtrot-dataset/1"
#: The bots a dataset may be played by: the expert's two levels.
LEVELS: Final = tuple(BUDGETS)  # the searching levels: "hard", "expert"
#: The arrays of ``labels.npz``, in the order of the module doc.
ARRAYS: Final = ("obs", "mask", "chosen", "values", "searched", "match", "deal", "turn", "seat")


@dataclasses.dataclass(slots=True)
class Dataset:
    """The decisions of a dataset as numpy arrays (one row each; see the module doc), its
    meta and its records."""

    meta: dict[str, Any]
    obs: npt.NDArray[np.float32]
    mask: npt.NDArray[np.int8]
    chosen: npt.NDArray[np.int16]
    values: npt.NDArray[np.float32]
    searched: npt.NDArray[np.bool_]
    match: npt.NDArray[np.int32]
    deal: npt.NDArray[np.int16]
    turn: npt.NDArray[np.int16]
    seat: npt.NDArray[np.int8]
    records: list[dict[str, Any]]

    def __len__(self) -> int:
        return len(self.chosen)

    @property
    def options(self) -> TableOptions:
        """The table every match was played at."""
        return TableOptions.from_json(self.meta["options"])


def match_rng(seed: int, match: int) -> SplitMix64:
    """The generator of match ``match``: the deck, the lot and the search's samples."""
    return SplitMix64(f"foxtrot-dataset:{seed}:{match}")


def make_player(level: str, iterations: int | None = None) -> ExpertBot:
    """The searching bot of ``level`` with its sample budget and no time limit."""
    if level not in LEVELS:
        raise ValueError(f"level: {level!r} is not one of {', '.join(LEVELS)}")
    samples, _ = budget(level)
    return ExpertBot(iterations if iterations is not None else samples, None)


def make_mover(mover: str, players: int) -> LearnedBot:
    """The learned policy ``mover`` names (``learned``: the shipped one for ``players``;
    ``learned:PATH``: a file), checked for the table's size."""
    try:
        bot = LearnedBot(policy_file(mover))
        bot.check(players)
    except (OSError, ValueError) as error:  # not a policy, or not for this table's size
        raise ValueError(f"mover: {error}") from None
    return bot


@dataclasses.dataclass(frozen=True, slots=True)
class Job:
    """One match to play: what a worker process needs."""

    options: TableOptions
    level: str
    iterations: int | None
    seed: int
    match: int
    deals: int  # at most this many deals of the match
    mover: str | None = None  # who plays the moves (None: the searching bot, its best)


def play_match(job: Job) -> tuple[str, dict[str, npt.NDArray[Any]], int]:
    """Self-play of one match (at most ``job.deals`` deals): its record, its labels, its
    number of deals."""
    rng = match_rng(job.seed, job.match)
    player = make_player(job.level, job.iterations)
    mover = None if job.mover is None else make_mover(job.mover, job.options.players)
    state = State(job.options, rng=rng)
    rows: dict[str, list[Any]] = {name: [] for name in ARRAYS}
    deals = 0
    while not state.is_over and deals < job.deals:
        state.deal(rng)
        turn = 0
        while state.phase is Phase.PLAYING:
            seat = state.to_move
            assert seat is not None
            obs = state.observation(seat)
            legal = obs.legal_actions
            values = np.full(N_ACTIONS, np.nan, dtype=np.float32)
            mask = np.zeros(N_ACTIONS, dtype=np.int8)
            mask[[action.code for action in legal]] = 1
            if len(legal) == 1:
                action, searched = legal[0], False
            else:
                analysis = player.analyse(obs, rng)
                for move, value in analysis.values.items():
                    values[move.code] = value
                action, searched = analysis.best, True
                if mover is not None:  # the learner plays; the search's values are the labels
                    action = mover.choose(obs, legal, rng)
            rows["obs"].append(encode(obs))
            rows["mask"].append(mask)
            rows["chosen"].append(action.code)
            rows["values"].append(values)
            rows["searched"].append(searched)
            rows["match"].append(job.match)
            rows["deal"].append(deals)
            rows["turn"].append(turn)
            rows["seat"].append(seat)
            state.apply(action)
            turn += 1
        deals += 1
    return dumps(state), _stack(rows, job.options), deals


def _stack(rows: dict[str, list[Any]], options: TableOptions) -> dict[str, npt.NDArray[Any]]:
    """The rows of one match as arrays of the dataset's types (empty ones keep their shape)."""
    width = observation_size(options)
    return {
        "obs": np.array(rows["obs"], dtype=np.float32).reshape(-1, width),
        "mask": np.array(rows["mask"], dtype=np.int8).reshape(-1, N_ACTIONS),
        "chosen": np.array(rows["chosen"], dtype=np.int16),
        "values": np.array(rows["values"], dtype=np.float32).reshape(-1, N_ACTIONS),
        "searched": np.array(rows["searched"], dtype=np.bool_),
        "match": np.array(rows["match"], dtype=np.int32),
        "deal": np.array(rows["deal"], dtype=np.int16),
        "turn": np.array(rows["turn"], dtype=np.int16),
        "seat": np.array(rows["seat"], dtype=np.int8),
    }


def generate(
    out: str | Path,
    options: TableOptions,
    deals: int,
    *,
    level: str = "hard",
    seed: int = 0,
    jobs: int = 1,
    iterations: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    mover: str | None = None,
) -> Dataset:
    """Write ``deals`` deals of ``level`` self-play at ``options`` into the directory ``out``
    (whole matches but the last, which stops after the deal that completes the count), with
    ``jobs`` processes; ``progress(deals_done, deals)`` after every match.  ``mover``
    (``learned`` or ``learned:PATH``): that policy plays every move instead, and ``level``'s
    search still labels every decision (expert iteration's data)."""
    if deals < 1:
        raise ValueError(f"deals: {deals!r} is not a positive count")
    if jobs < 1:
        raise ValueError(f"jobs: {jobs!r} is not a positive count")
    if iterations is not None and iterations < 1:
        raise ValueError(f"iterations: {iterations!r} is not a positive count")
    make_player(level)  # refuse a bad level or mover before any work
    if mover is not None:
        make_mover(mover, options.players)
    target = Path(out)
    if target.exists() and any(target.iterdir()):
        raise ValueError(f"out: {str(target)!r} exists and is not empty")
    target.mkdir(parents=True, exist_ok=True)
    records: list[str] = []
    parts: list[dict[str, npt.NDArray[Any]]] = []
    done = 0
    for record, labels, count in _matches(
        Job(options, level, iterations, seed, 0, deals, mover), jobs=jobs
    ):
        records.append(record)
        parts.append(labels)
        done += count
        if progress is not None:
            progress(done, deals)
    arrays: dict[str, Any] = {
        name: np.concatenate([part[name] for part in parts]) for name in ARRAYS
    }
    samples = iterations if iterations is not None else budget(level)[0]
    meta = {
        "format": FORMAT,
        "options": options.to_json(),
        "bot": level,
        "mover": mover or level,
        "samples": samples,
        "seconds": None,
        "seed": seed,
        "matches": len(records),
        "deals": done,
        "decisions": len(arrays["chosen"]),
        "searched": int(arrays["searched"].sum()),
    }
    with (target / "labels.npz").open("wb") as file:
        np.savez_compressed(file, **arrays)
    (target / "records.jsonl").write_text("".join(records), encoding="utf-8")
    (target / "meta.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    return load(target)


def _matches(first: Job, *, jobs: int) -> Iterator[tuple[str, dict[str, npt.NDArray[Any]], int]]:
    """The matches in order until ``first.deals`` deals are played (``first`` is match 0 with
    the whole count); the ones beyond are dropped.

    Each match may play up to the deals still wanted when it is submitted, so the last one
    kept stops at the count; matches run ahead of need are computed and thrown away (at most
    ``jobs`` of them)."""
    deals = first.deals
    if jobs == 1:
        done, match = 0, 0
        while done < deals:
            result = play_match(dataclasses.replace(first, match=match, deals=deals - done))
            done += result[2]
            match += 1
            yield result
        return
    # Parallel: a match's deal count is unknown until played, so a match submitted ahead
    # is given the whole remainder as its cap and cut again here, in order.
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        pending = [
            pool.submit(play_match, dataclasses.replace(first, match=match))
            for match in range(jobs)
        ]
        done, match = 0, jobs
        while done < deals:
            record, labels, count = pending.pop(0).result()
            if done + count > deals:
                record, labels, count = _cut(record, labels, deals - done)
            done += count
            yield record, labels, count
            if done < deals:
                pending.append(pool.submit(play_match, dataclasses.replace(first, match=match)))
                match += 1
        for future in pending:
            future.cancel()


def _cut(
    record: str, labels: dict[str, npt.NDArray[Any]], deals: int
) -> tuple[str, dict[str, npt.NDArray[Any]], int]:
    """The first ``deals`` deals of a match: the record replayed to the end of the last one."""
    data = json.loads(record)
    data["deals"] = data["deals"][:deals]
    state: State | None = None
    try:  # the record's totals and winner are the whole match's: only the end check fails
        for step in replay(data):
            state = step.state
    except RecordError:
        pass
    assert state is not None
    keep = labels["deal"] < deals
    return dumps(state), {name: array[keep] for name, array in labels.items()}, deals


def load(path: str | Path) -> Dataset:
    """The dataset in the directory ``path`` (see the module doc), checked."""
    where = Path(path)
    try:
        meta = json.loads((where / "meta.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ValueError(f"dataset: cannot read {str(where / 'meta.json')!r} ({error})") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise ValueError(f"dataset: {str(where)!r} is not a {FORMAT} dataset")
    try:
        with np.load(where / "labels.npz", allow_pickle=False) as data:
            arrays = {name: data[name] for name in ARRAYS}
        lines = (where / "records.jsonl").read_text(encoding="utf-8").splitlines()
        records = [json.loads(line) for line in lines if line]
    except (OSError, ValueError, KeyError) as error:
        raise ValueError(f"dataset: cannot read {str(where)!r} ({error})") from None
    count = len(arrays["chosen"])
    if any(len(array) != count for array in arrays.values()) or count != meta.get("decisions"):
        raise ValueError(f"dataset: {str(where)!r}: the arrays do not have one row a decision")
    if len(records) != meta.get("matches"):
        raise ValueError(f"dataset: {str(where)!r}: records.jsonl does not hold every match")
    return Dataset(meta=meta, records=records, **arrays)


def soft_targets(data: Dataset, temperature: float) -> npt.NDArray[np.float32]:
    """A distribution over the legal moves of every decision: the softmax of the searched
    values over ``temperature`` points (the chosen move alone where nothing was searched)."""
    if not temperature > 0 or math.isinf(temperature):
        raise ValueError(f"temperature: {temperature!r} is not a positive number of points")
    values = np.where(np.isnan(data.values), -np.inf, data.values / temperature)
    values[~data.searched] = 0.0  # no searched value: the chosen move alone, below
    values = values - values.max(axis=1, keepdims=True)
    weights = np.exp(values)
    weights[~data.searched] = 0.0
    rows = np.flatnonzero(~data.searched)
    weights[rows, data.chosen[rows].astype(np.int64)] = 1.0
    out: npt.NDArray[np.float32] = (weights / weights.sum(axis=1, keepdims=True)).astype(np.float32)
    return out


__all__ = [
    "ARRAYS",
    "FORMAT",
    "LEVELS",
    "Dataset",
    "Job",
    "generate",
    "load",
    "make_mover",
    "make_player",
    "match_rng",
    "play_match",
    "soft_targets",
]
