"""The bots' client reads a seat's view back into the engine's observation exactly, with the
taken cards it followed from the events; the engine, the bots and the command line never
import it."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from foxtrot.client import TakenCards, observation_of
from foxtrot.core import Phase, State, TableOptions, TakeRule
from foxtrot.web.table.views import event_data, seat_view

ROOT = Path(__file__).resolve().parents[1]


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(min_value=2, max_value=6),
    take=st.sampled_from(list(TakeRule)),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_a_view_reads_back_into_the_same_observation(
    players: int, take: TakeRule, seed: int
) -> None:
    rng = random.Random(seed)
    state = State(TableOptions(players=players, take=take, target=60), dealer=0)
    followed = TakenCards()
    checked = 0
    while state.phase is not Phase.OVER and checked < 400:
        if state.phase is Phase.AWAITING_DEAL:
            events = state.deal(rng)
        else:
            seat = state.to_move
            assert seat is not None
            obs = state.observation(seat)
            view = json.loads(json.dumps(seat_view(obs)))  # as it travels
            assert observation_of(view, followed) == obs
            checked += 1
            events = state.apply(rng.choice(obs.legal_actions))
        followed.follow([event_data(event) for event in events])
    assert checked > 0


def test_the_engine_bots_and_command_line_never_import_the_client() -> None:
    code = (
        "import sys\n"
        "import foxtrot, foxtrot.core, foxtrot.bots, foxtrot.cli.main, foxtrot.research\n"
        "print(sorted(m for m in sys.modules if m.startswith(('foxtrot.client', 'websockets'))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout.strip() == "[]"
