"""Mini-Foxtrot: the pack options, the rules on a shrunk pack, records, OpenSpiel and CFR."""

from __future__ import annotations

import json
import random
from typing import Any

import pyspiel
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from foxtrot.core import (
    CARDS,
    DeckError,
    OptionsError,
    Phase,
    RecordError,
    State,
    TableOptions,
    parse_cards,
)
from foxtrot.core.kernel import CARD_POINTS, is_double
from foxtrot.core.options import ALL_RANKS, LeftoverPile, MostCardsTie, TakeRule
from foxtrot.core.record import dumps, loads
from foxtrot.env.batch import BatchedGames
from foxtrot.openspiel import load
from foxtrot.openspiel.game import options_of, params_of
from foxtrot.openspiel.mini import (
    MINI_GAMES,
    BotPolicy,
    exploitability_of,
    mini_game,
    solve,
    tree_size,
    uniform_policy,
)

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def mini_options(draw: st.DrawFn) -> TableOptions:
    """Any mini table whose pack holds the first deal (D3)."""
    players = draw(st.integers(2, 4))
    packs = draw(st.integers(1, 3))
    ranks = draw(st.lists(st.sampled_from(ALL_RANKS), min_size=1, max_size=13, unique=True))
    suits = draw(st.integers(1, 4))
    size = packs * len(ranks) * suits
    biggest = min(8, (size - 1) // players)
    if biggest < 1:
        ranks = list(ALL_RANKS)
        size = packs * 13 * suits
        biggest = min(8, (size - 1) // players)
    hand = draw(st.integers(1, biggest))
    return TableOptions(
        players=players,
        packs=packs,
        ranks=tuple(ranks),
        suits=suits,
        hand_size=hand,
        take=draw(st.sampled_from(TakeRule)),
        forced_foxtrot=draw(st.booleans()),
        leftover_pile=draw(st.sampled_from(LeftoverPile)),
        most_cards_tie=draw(st.sampled_from(MostCardsTie)),
        target=draw(st.sampled_from([1, 30, 60])),
    )


def play_out(state: State, rng: random.Random, deals: int = 3) -> None:
    """Random legal moves, every one checked by ``State.apply``, until a few deals ended."""
    while not state.is_over and sum(log.scores is not None for log in state.deal_logs()) < deals:
        if state.phase is Phase.AWAITING_DEAL:
            state.deal(rng)
            continue
        state.apply(rng.choice(state.legal_actions()))


# ------------------------------------------------------------------ options


def test_the_default_table_is_the_real_game() -> None:
    options = TableOptions()
    assert not options.is_mini
    assert options.deck_size == 104 and options.decks == 2 and options.hand_size == 8
    assert sum(options.copies) == 104
    assert "pack" not in options.to_json()
    assert TableOptions(players=8).deck_size == 156


@pytest.mark.parametrize(
    ("changes", "start"),
    [
        ({"packs": 0}, "packs: 0 is not allowed"),
        ({"packs": 4}, "packs: 4 is not allowed"),
        ({"packs": True}, "packs: True is not allowed"),
        ({"ranks": ("1",)}, "ranks: '1' is not a rank"),
        ({"ranks": ()}, "ranks: [] keeps no rank"),
        ({"ranks": ("J", "J")}, "ranks: ['J', 'J'] names a rank twice"),
        ({"ranks": "JQ"}, "ranks: 'JQ' is not a list"),
        ({"suits": 0}, "suits: 0 is not allowed"),
        ({"suits": 5}, "suits: 5 is not allowed"),
        ({"hand_size": 0}, "hand_size: 0 is not allowed"),
        ({"hand_size": 9}, "hand_size: 9 is not allowed"),
        ({"packs": 1, "ranks": ("J", "Q"), "suits": 1}, "hand_size: 8 cards to each of 2"),
    ],
)
def test_bad_pack_options_are_refused_naming_the_field(changes: dict[str, Any], start: str) -> None:
    with pytest.raises(OptionsError) as info:
        TableOptions(**changes)
    assert str(info.value).startswith(start)


def test_ranks_are_kept_in_the_order_of_C2() -> None:
    options = TableOptions(ranks=("A", "10", "J"), suits=2, hand_size=2)
    assert options.ranks == ("10", "J", "A")
    assert options.deck_size == 2 * 3 * 2


@given(options=mini_options())
@SETTINGS
def test_options_round_trip_through_json(options: TableOptions) -> None:
    data = json.loads(json.dumps(options.to_json()))
    assert TableOptions.from_json(data) == options
    assert options_of(params_of(options))[0] == options.replace(target=int(options.target))


# ------------------------------------------------------------------ play


@given(options=mini_options(), seed=st.integers(0, 10_000))
@SETTINGS
def test_random_mini_games_play_to_the_end_and_add_up(options: TableOptions, seed: int) -> None:
    """Legal moves only (``apply`` checks each); every card of the pack is somewhere; the
    score sheet follows from the cards taken (P1-P4, X9); only the pack's cards appear."""
    rng = random.Random(seed)
    state = State(options, rng=rng) if len(options.ranks) > 1 else State(options, dealer=0)
    play_out(state, rng)
    copies = options.copies
    for log in state.deal_logs():
        assert log.deck is not None
        assert sorted(log.deck) == sorted(c for c in range(52) for _ in range(copies[c]))
        if log.scores is None:
            continue  # a deal in progress
        for line in log.scores:
            assert line.total == (
                10 * line.foxtrots + 20 * line.double_foxtrots + line.card_points + line.most_cards
            )
        assert sum(line.cards for line in log.scores) <= options.deck_size
    totals = [0] * options.players
    for log in state.deal_logs():
        for seat, line in enumerate(log.scores or ()):
            totals[seat] += line.total
    assert totals == list(state.totals)


def test_D3_R1_a_mini_deal_gives_hand_size_cards_and_redeals_at_most_that() -> None:
    options = TableOptions(packs=2, ranks=("10", "J", "Q", "A"), suits=1, hand_size=2)
    state = State(options, dealer=0)
    state.deal(random.Random(3))
    assert [len(state.hand(seat)) for seat in range(2)] == [2, 2]
    assert len(state.stock) == 8 - 2 * 2 - 1
    for _ in range(4):
        state.apply(state.legal_actions()[0])
    # R1: min(hand_size, floor(3 / 2)) = 1 card each
    assert [len(state.hand(seat)) for seat in range(2)] == [1, 1]
    assert len(state.stock) == 1


TINY = TableOptions(packs=2, ranks=("10", "J", "Q"), suits=1, hand_size=2)


def test_T3b_P1_P2_P3_a_foxtrot_and_a_jack_still_score_in_the_mini_game() -> None:
    """Seat 1 gets 10S QS, seat 0 JS JS, the upturned card is 10S, the stock QS (D4)."""
    state = State(TINY, dealer=0)
    state.deal(deck=parse_cards("10S JS QS JS 10S QS"))
    state.apply("10S")  # a double foxtrot of tens on the upturned ten (T3b, X1)
    state.apply("JS")  # a Jack on an empty pile just lies there (T3e)
    state.apply("QS")
    state.apply("JS")  # a Jack takes the pile (T3a): JS QS JS
    assert state.phase is not Phase.PLAYING  # the stock's one card is never dealt (R2)
    scores = state.deal_logs()[0].scores
    assert scores is not None
    seat0, seat1 = scores
    assert (seat1.double_foxtrots, seat1.card_points, seat1.total) == (1, 20, 40)
    assert (seat0.cards, seat0.card_points, seat0.most_cards, seat0.total) == (3, -18, 5, -13)


def test_P2_a_card_left_out_of_the_pack_scores_nothing() -> None:
    options = TableOptions(packs=1, ranks=("J", "Q", "K"), suits=2, hand_size=2)
    in_pack = [card for card in range(52) if options.copies[card]]
    assert all(not is_double(card) or CARDS[card].rank.symbol == "J" for card in in_pack)
    assert sum(CARD_POINTS[card] for card in in_pack) == 1 + 1 - 20  # JS, JH, QS
    spades_only = TableOptions(packs=1, ranks=("J", "Q", "K"), suits=1, hand_size=1)
    assert [str(CARDS[c]) for c in range(52) if spades_only.copies[c]] == ["JS", "QS", "KS"]


def test_D1_a_pack_of_one_rank_cannot_draw_lots() -> None:
    options = TableOptions(packs=1, ranks=("J",), suits=4, hand_size=1)
    with pytest.raises(OptionsError, match="cannot draw lots"):
        State(options, rng=random.Random(1))
    assert State(options, dealer=1).dealer == 1


def test_C1_a_deck_outside_the_pack_is_refused() -> None:
    state = State(TINY, dealer=0)
    with pytest.raises(DeckError, match="expected 6"):
        state.deal(deck=parse_cards("10S JS QS JS 10S QS KS"))
    with pytest.raises(DeckError, match="holds 10S 3 times, expected 2"):
        state.deal(deck=parse_cards("10S JS QS JS 10S 10S"))


# ------------------------------------------------------------------ records


@given(options=mini_options(), seed=st.integers(0, 10_000))
@SETTINGS
def test_G1_G3_a_mini_record_round_trips_and_is_checked(options: TableOptions, seed: int) -> None:
    rng = random.Random(seed)
    state = State(options, rng=rng) if len(options.ranks) > 1 else State(options, dealer=0)
    play_out(state, rng, deals=2)
    text = dumps(state)
    assert json.loads(text)["options"]["pack"]["hand_size"] == options.hand_size
    again = loads(text)
    assert dumps(again) == text
    assert again.totals == state.totals


def test_G2_the_real_games_record_is_unchanged_and_a_bad_pack_is_refused() -> None:
    real = State(TableOptions(), dealer=0)
    real.deal(random.Random(1))
    assert list(json.loads(dumps(real))["options"]) == [
        "players",
        "decks",
        "take",
        "forced_foxtrot",
        "leftover_pile",
        "most_cards_tie",
        "target",
    ]
    state = State(TINY, dealer=0)
    state.deal(random.Random(1))
    data = json.loads(dumps(state))
    data["options"]["pack"]["suits"] = 2
    with pytest.raises(RecordError, match="expected 12"):
        loads(json.dumps(data))
    data["options"]["pack"]["colour"] = 1
    with pytest.raises(RecordError, match=r"options\.pack: unknown key 'colour'"):
        loads(json.dumps(data))


# ------------------------------------------------------------------ fast paths


def test_the_compiled_batch_refuses_a_mini_game_and_python_plays_it() -> None:
    with pytest.raises(ValueError, match="real game's pack only"):
        BatchedGames(2, TINY, compiled=True)
    games = BatchedGames(2, TINY)
    assert not games.compiled


# ------------------------------------------------------------------ OpenSpiel


@pytest.mark.parametrize("name", list(MINI_GAMES))
def test_openspiel_random_sim_test_on_the_mini_games(name: str) -> None:
    pyspiel.random_sim_test(mini_game(name), num_sims=3, serialize=True, verbose=False)


def test_openspiel_mini_game_round_trips_its_parameters_and_states() -> None:
    game = mini_game("tiny")
    again = pyspiel.load_game(str(game))
    assert again.get_parameters() == game.get_parameters()
    assert game.rules.options.deck_size == 6
    state = game.new_initial_state()
    rng = random.Random(2)
    while not state.is_terminal():
        if state.is_chance_node():
            actions, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, weights)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    restored = game.deserialize_state(state.serialize())
    assert restored.returns() == state.returns()
    assert sum(state.returns()) == 0


def test_openspiel_mini_chance_is_the_pack() -> None:
    state = load(**MINI_GAMES["small"]).new_initial_state()
    outcomes = dict(state.chance_outcomes())
    assert sorted(str(CARDS[card]) for card in outcomes) == ["10H", "10S", "JH", "JS", "QH", "QS"]
    assert sum(outcomes.values()) == pytest.approx(1.0)


def test_the_tiny_tree_is_counted() -> None:
    size = tree_size(mini_game("tiny"))
    assert size.histories == size.chance + size.decisions + size.terminal == 1315
    assert size.infostates == (123, 69)


def test_cfr_plus_brings_the_tiny_games_exploitability_down() -> None:
    """Work-bounded: 5 iterations of CFR+ (0.61 points when measured), far below the
    uniform policy's (about 8) and greedy's (3.2)."""
    game = mini_game("tiny")
    solved = solve(game, below=0.0, max_iterations=5, checks=(5,))
    assert solved.iterations == 5
    assert solved.exploitability < 1.0
    assert exploitability_of(game, uniform_policy(game)) > 1.0


def test_a_bot_is_a_policy_pure_when_deterministic() -> None:
    from foxtrot.bots import GreedyBot  # noqa: PLC0415 - only this test needs it

    game = mini_game("tiny")
    policy = BotPolicy(game, GreedyBot)
    value = exploitability_of(game, policy)
    assert value > 0.0
    assert policy.cache
    for probabilities in policy.cache.values():
        assert sorted(probabilities.values())[-1] == 1.0
        assert sum(probabilities.values()) == 1.0


def test_a_mini_position_has_no_position_text() -> None:
    state = State(TINY, dealer=0)
    state.deal(random.Random(4))
    with pytest.raises(OptionsError, match="has no position text"):
        state.text()
    assert "mini game" in repr(state)


def test_pettingzoo_plays_a_mini_game_full_size_with_masks() -> None:
    from pettingzoo.test import api_test  # noqa: PLC0415 - only this test needs it

    from foxtrot.env.aec import env  # noqa: PLC0415

    api_test(env(TINY), num_cycles=20)
    game = env(TINY)
    game.reset(seed=1)
    outside = [card for card in range(52) if not TINY.copies[card]]
    while game.agents:
        observation, _, done, cut, _ = game.last()
        mask = observation["action_mask"]
        assert len(mask) == 53 and not mask[outside].any()
        game.step(None if done or cut else int(mask.nonzero()[0][0]))


def test_the_expert_searches_a_mini_deal_in_pure_python() -> None:
    from foxtrot.bots import ExpertBot, decide  # noqa: PLC0415 - only this test needs it

    state = State(TINY, dealer=0)
    rng = random.Random(5)
    state.deal(rng)
    bot = ExpertBot(50, None)
    while state.phase is Phase.PLAYING:
        state.apply(decide(bot, state, rng))
    assert state.deal_logs()[0].scores is not None
