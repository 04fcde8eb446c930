"""OpenSpiel's tensors of ``python_foxtrot``: the state's methods against the numpy observer.

    python benchmarks/bench_openspiel_tensors.py

``state.information_state_tensor(player)`` (and ``observation_tensor``) go through pyspiel's
C++ bridge, which builds a fresh initial state and copies the tensor into a new list at every
call.  OpenSpiel's Python observation API, ``open_spiel.python.observation.make_observation``,
fills one numpy array in place (``FoxtrotObserver.set_from``; ``observer.tensor`` is a view).
The observer also keeps the last 256 tensors by history and player (``observer.CACHED``), so a
position asked again costs a copy.  For the positions of two random deals (every decision,
the player to move), seven alternating slices (the state's method; a fresh observer over
every position; the same observer over them again) give each one's median time a call and
the median of the slices' ratios; only the ratios of one run are comparable (the machine is
shared).
"""

from __future__ import annotations

import os
import random
import statistics
import time
from typing import Any

import pyspiel
from open_spiel.python.observation import make_observation

import foxtrot.openspiel  # noqa: F401 (registers python_foxtrot)

SLICES = 7


def positions(game: Any, deals: int, seed: int) -> list[Any]:
    """Clones of every decision's state in ``deals`` episodes of random play."""
    rng = random.Random(seed)
    found = []
    for _ in range(deals):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            found.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    return found


def timed(call: Any, states: list[Any]) -> float:
    """Seconds a call of ``call(state, player)`` over every state."""
    start = time.perf_counter()
    for state in states:
        call(state, state.current_player())
    return (time.perf_counter() - start) / len(states)


def main() -> None:
    """Print both tensors' figures (see the module doc)."""
    game = pyspiel.load_game("python_foxtrot", {"deals": 1})
    states = positions(game, 2, 1)
    print(f"load average {os.getloadavg()[0]:.1f}; {len(states)} positions, 2 players, one deal")
    for kind, recall in (("information_state_tensor", True), ("observation_tensor", False)):
        kind_of = pyspiel.IIGObservationType(perfect_recall=recall)

        def method(state: Any, player: int, kind: str = kind) -> Any:
            return getattr(state, kind)(player)

        first = states[0]
        check = make_observation(game, kind_of)
        check.set_from(first, first.current_player())
        assert list(method(first, first.current_player())) == list(check.tensor)
        slow, cold, warm = [], [], []
        for _ in range(SLICES):
            observer = make_observation(game, kind_of)  # a fresh cache every slice

            def numpy_way(state: Any, player: int, observer: Any = observer) -> Any:
                observer.set_from(state, player)
                return observer.tensor

            slow.append(timed(method, states))
            cold.append(timed(numpy_way, states))  # every position new to the observer
            warm.append(timed(numpy_way, states))  # every position asked again
        for name, times in (("first ask", cold), ("asked again", warm)):
            ratio = statistics.median(a / b for a, b in zip(slow, times, strict=True))
            print(
                f"{kind}: state method {statistics.median(slow) * 1e6:.0f} us a call;"
                f" numpy observer, {name}, {statistics.median(times) * 1e6:.0f} us;"
                f" ratio {ratio:.1f}"
            )
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
