"""Game records: the G2 shape, loading and replaying (G1), refusals (G3), unfinished ones (X10)."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from foxtrot.core import (
    RecordError,
    State,
    TableOptions,
    TakeRule,
    dumps,
    from_record,
    loads,
    replay,
    state_at,
    to_record,
)
from foxtrot.core.outcome import Phase
from helpers import (
    deal_rigged,
    jack_script,
    lay_out,
    new_state,
    play_jack_deal,
    play_tie_deal,
    rigged_deck,
    run_script,
)

SCORE_KEYS = ["foxtrots", "double_foxtrots", "cards", "card_points", "most_cards", "total"]
OPTION_KEYS = [
    "players",
    "decks",
    "take",
    "forced_foxtrot",
    "leftover_pile",
    "most_cards_tie",
    "target",
]


def _won_tie_deal() -> State:
    """The tie deal with target 40: seat 1 scores 45, seat 0 13; seat 1 wins (one deal)."""
    state = State(TableOptions(take=TakeRule.ANY, target=40), dealer=0, names=["Ann", "Bob"])
    play_tie_deal(state)
    assert state.winner == 1
    return state


def _two_jack_deals() -> State:
    state = new_state(0, target=1000)
    play_jack_deal(state)
    play_jack_deal(state)
    return state


def snapshot(state: State) -> tuple[object, ...]:
    """Everything of a state, hidden parts included."""
    n = state.players
    return (
        dumps(state),
        state.phase,
        state.dealer,
        state.to_move,
        tuple(state.totals),
        state.winner,
        state.pile,
        state.stock,
        tuple(state.hand(s) for s in range(n)),
        tuple(state.taken(s) for s in range(n)),
        tuple(state.foxtrots(s) for s in range(n)),
        tuple(state.observation(s) for s in range(n)),
    )


# ------------------------------------------------------------------ G2


def test_G2_record_shape_exactly() -> None:
    state = _won_tie_deal()
    record = json.loads(dumps(state))
    assert record == to_record(state)
    assert {"format", "options", "names", "deals", "totals", "winner"} <= set(record)
    assert record["format"] == "foxtrot-record/1"
    assert record["options"] == {
        "players": 2,
        "decks": 2,
        "take": "any",
        "forced_foxtrot": False,
        "leftover_pile": "discard",
        "most_cards_tie": "none",
        "target": 40,
    }
    assert list(record["options"]) == OPTION_KEYS
    assert record["names"] == ["Ann", "Bob"]
    (deal,) = record["deals"]
    assert {"dealer", "deck", "actions", "scores"} <= set(deal)
    assert deal["dealer"] == 0
    assert len(deal["deck"]) == 104 and all(isinstance(t, str) for t in deal["deck"])
    assert deal["deck"][16] == "2C"  # the upturned card (D4)
    assert deal["actions"][0] == {"seat": 1, "play": "JS"}
    assert deal["actions"][11] == {"seat": 0, "take": True}
    for action in deal["actions"]:
        assert set(action) in ({"seat", "play"}, {"seat", "take"})
        assert action.get("take", True) is True
    assert [list(line) for line in deal["scores"]] == [SCORE_KEYS, SCORE_KEYS]
    assert deal["scores"] == [
        {
            "foxtrots": 0,
            "double_foxtrots": 0,
            "cards": 6,
            "card_points": 13,
            "most_cards": 0,
            "total": 13,
        },
        {
            "foxtrots": 0,
            "double_foxtrots": 2,
            "cards": 6,
            "card_points": 5,
            "most_cards": 0,
            "total": 45,
        },
    ]
    assert record["totals"] == [13, 45]
    assert record["winner"] == 1


def test_G2_unfinished_record_has_no_scores_and_null_winner() -> None:
    state = new_state(0)
    deal_rigged(state)
    lay_out(state, actions=3)
    record = to_record(state)
    (deal,) = record["deals"]
    assert "scores" not in deal and len(deal["actions"]) == 3
    assert record["totals"] == [0, 0] and record["winner"] is None


# ------------------------------------------------------------------ G1


@pytest.mark.parametrize("make", [_won_tie_deal, _two_jack_deals])
def test_G1_save_and_load_reproduce_the_state(make: Callable[[], State]) -> None:
    state = make()
    text = dumps(state)
    again = loads(text)
    assert dumps(again) == text
    assert snapshot(again) == snapshot(state)
    assert again.outcome == state.outcome and again.names == state.names


def test_G1_replay_and_state_at_reproduce_every_intermediate_state() -> None:
    state = new_state(0, target=55)
    captured: list[tuple[int, int | None, tuple[object, ...]]] = []
    for deal in range(3):
        deal_rigged(
            state,
            hands={(deal + 1) % 2: "JS JH JD JC 10H", deal % 2: "JS JH JD JC"},
            upturned="2C",
            stock_bottom="2D",
        )
        captured.append((deal, None, snapshot(state)))
        number = 0
        for seat, text, _ in jack_script((deal + 1) % 2, deal % 2):
            state.apply(text, seat)
            captured.append((deal, number, snapshot(state)))
            number += 1
        while state.to_move is not None:
            lay_out(state, actions=1)
            captured.append((deal, number, snapshot(state)))
            number += 1
    assert state.winner == 1  # 12/50, 62/62 (a tie: M2), 74/112
    record = to_record(state)
    # replay yields its live state: take each snapshot before the next step
    replayed = [(step.deal, step.action, snapshot(step.state)) for step in replay(record)]
    assert len(replayed) == len(captured)
    for got, expected in zip(replayed, captured, strict=True):
        assert got == expected
    for deal, action, snap in captured[::37] + captured[-1:]:
        assert snapshot(state_at(record, deal, action)) == snap
    with pytest.raises(RecordError, match="no action 999 of deal 0"):
        state_at(record, 0, 999)


def test_G1_three_deck_table_round_trip() -> None:
    state = State(TableOptions(players=8, take=TakeRule.MATCH, forced_foxtrot=True), dealer=5)
    rng = random.Random(8)
    state.deal(rng)
    for _ in range(100):
        state.apply(rng.choice(state.legal_actions()))
    record = to_record(state)
    assert record["options"]["decks"] == 3 and len(record["deals"][0]["deck"]) == 156
    assert snapshot(loads(dumps(state))) == snapshot(state)


# ------------------------------------------------------------------ X10


def test_X10_record_with_no_deals_loads() -> None:
    state = new_state(1, players=3)
    again = loads(dumps(state))
    assert again.deal_number == 0 and again.phase is Phase.AWAITING_DEAL
    assert again.dealer == 1 and again.totals == [0, 0, 0]
    deck = rigged_deck(state.options, 1)
    assert state.deal(deck=deck) == again.deal(deck=deck)


def test_X10_record_with_an_unfinished_last_deal_loads_and_play_continues() -> None:
    state = new_state(0, target=1000)
    play_jack_deal(state)
    deal_rigged(state, hands={0: "JS JH JD JC 10H", 1: "JS JH JD JC"}, upturned="2C")
    run_script(state, jack_script(0, 1)[:4])
    again = loads(dumps(state))
    assert snapshot(again) == snapshot(state)
    assert again.to_move == 0 and again.deal_number == 1 and again.totals == [12, 50]
    for seat, text, _ in jack_script(0, 1)[4:]:
        assert again.apply(text, seat) == state.apply(text, seat)
    assert lay_out(again) == lay_out(state)
    assert again.totals == state.totals == [62, 62] and again.winner is None


def test_X10_a_deal_that_has_ended_must_carry_its_scores() -> None:
    record = to_record(_two_jack_deals())
    del record["deals"][0]["scores"]
    with pytest.raises(RecordError, match=r"^deal 0: .*carries no scores \(rule X10\)"):
        from_record(record)
    record = to_record(_unfinished())
    record["deals"][0]["scores"] = [dict.fromkeys(SCORE_KEYS, 0)] * 2
    with pytest.raises(RecordError, match=r"^deal 0: .*has not ended \(rule X10\)"):
        from_record(record)


def _unfinished() -> State:
    state = new_state(0)
    deal_rigged(state)
    lay_out(state, actions=5)
    return state


# ------------------------------------------------------------------ G3: refusals

Edit = Callable[[dict[str, Any]], object]  # what an edit returns is ignored


def _set(path: tuple[Any, ...], value: Any) -> Edit:
    def edit(record: dict[str, Any]) -> None:
        target: Any = record
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return edit


def _delete(path: tuple[Any, ...]) -> Edit:
    def edit(record: dict[str, Any]) -> None:
        target: Any = record
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return edit


def _append(path: tuple[Any, ...], value: Callable[[dict[str, Any]], Any]) -> Edit:
    def edit(record: dict[str, Any]) -> None:
        target: Any = record
        for key in path:
            target = target[key]
        target.append(value(record))

    return edit


def _deck_third_copy(record: dict[str, Any]) -> None:
    deck = record["deals"][0]["deck"]
    deck[deck.index("AC")] = "2S"  # 2S three times, AC once


# The won tie deal (one deal, seat 1 wins with 45; actions: the Jack script, then
# JC 5S 2S, a take by seat 0, then the lay-out).  Each case: an edit, the expected
# beginning of the message ("where"), and text the message must contain (the rule).
LAST = "deal 0, action {last}"
REFUSALS: dict[str, tuple[Edit, str, str]] = {
    "card not in hand": (
        _set(("deals", 0, "actions", 2, "play"), "AS"),
        "deal 0, action 2: seat 1 cannot play AS",
        "(rule T3)",
    ),
    "wrong seat": (
        _set(("deals", 0, "actions", 4, "seat"), 0),
        "deal 0, action 4: seat 0 cannot play JD",
        "(rule T1)",
    ),
    "take on empty pile": (
        _set(("deals", 0, "actions", 1), {"seat": 0, "take": True}),
        "deal 0, action 1: seat 0 cannot take the pile",
        "(rule T4)",
    ),
    "bad card token in an action": (
        _set(("deals", 0, "actions", 3, "play"), "1H"),
        "deal 0, action 3: play: bad card '1H'",
        "(rule C4)",
    ),
    "seat out of range": (
        _set(("deals", 0, "actions", 3, "seat"), 2),
        "deal 0, action 3: seat is 2, not a seat",
        "(rule C3)",
    ),
    "play and take": (
        _set(("deals", 0, "actions", 3, "take"), True),
        "deal 0, action 3: an action has exactly one",
        "(rule G2)",
    ),
    "take false": (
        _set(("deals", 0, "actions", 11, "take"), False),
        "deal 0, action 11: take is false",
        "(rule G2)",
    ),
    "action after the deal ended": (
        _append(("deals", 0, "actions"), lambda r: {"seat": 1, "play": "2S"}),
        "deal 0, action {after}: seat 1 cannot play 2S: the deal has already ended",
        "(rule E1)",
    ),
    "wrong score field": (
        _set(("deals", 0, "scores", 1, "card_points"), 6),
        "deal 0: scores of seat 1: card_points is 6, the actions give 5",
        "(rule P2); the deal ended with action {last} (rule G3)",
    ),
    "wrong score total": (
        _set(("deals", 0, "scores", 0, "total"), 14),
        "deal 0: scores of seat 0: total is 14, the actions give 13",
        "(rule P4, X9)",
    ),
    "wrong most cards": (
        _set(("deals", 0, "scores", 0, "most_cards"), 5),
        "deal 0: scores of seat 0: most_cards is 5, the actions give 0",
        "(rule P3)",
    ),
    "score not a number": (
        _set(("deals", 0, "scores", 0, "cards"), "6"),
        "deal 0: scores of seat 0: cards is '6', not a whole number",
        "(rule G2)",
    ),
    "scores for one seat": (
        _delete(("deals", 0, "scores", 1)),
        "deal 0: scores: expected one entry for each of 2 seats",
        "(rule G2)",
    ),
    "wrong total": (_set(("totals", 1), 46), "totals are [13, 46]", "(rule M2)"),
    "wrong winner": (_set(("winner",), 0), "winner is 0, expected 1", "(rules M2, X8)"),
    "winner missing": (_delete(("winner",)), "winner: missing", "(rule G2)"),
    "deck short": (
        lambda r: r["deals"][0]["deck"].pop(),
        "deal 0: deck has 103 cards, expected 104",
        "(rule C1)",
    ),
    "deck card three times": (_deck_third_copy, "deal 0: deck holds 2S 3 times", "(rule C1)"),
    "deck bad token": (
        _set(("deals", 0, "deck", 5), "XQ"),
        "deal 0: deck[5]: bad card 'XQ'",
        "(rule C4)",
    ),
    "deal after the match was won": (
        _append(("deals",), lambda r: dict(copy.deepcopy(r["deals"][0]), dealer=1)),
        "deal 1: the match was won in deal 0",
        "(rule M2)",
    ),
    "first dealer": (
        _set(("deals", 0, "dealer"), 1),
        "deal 0: dealer is 1, but first_dealer says 0",
        "(rule D1)",
    ),
    "format": (_set(("format",), "foxtrot-record/2"), "format is 'foxtrot-record/2'", "(rule G2)"),
    "decks do not fit the players": (
        _set(("options", "decks"), 3),
        "options: decks is 3",
        "(rule X7)",
    ),
}
for _key in ("format", "options", "names", "deals", "totals"):
    REFUSALS[f"missing {_key}"] = (
        _delete((_key,)),
        "" if _key == "format" else f"{_key}: ",
        "(rule G2)",
    )
for _key in OPTION_KEYS:
    REFUSALS[f"missing options.{_key}"] = (
        _delete(("options", _key)),
        f"options: missing {_key}",
        "(rule G2)",
    )
for _key in ("deck", "actions"):
    REFUSALS[f"missing deal {_key}"] = (
        _delete(("deals", 0, _key)),
        f"deal 0: {_key}: ",
        "(rule G2)",
    )
REFUSALS["missing deal dealer"] = (
    _delete(("deals", 0, "dealer")),
    "deal 0: dealer is nothing (the key is missing), not a seat (0 to 1)",
    "(rule G2)",
)
REFUSALS["missing scores field"] = (
    _delete(("deals", 0, "scores", 1, "total")),
    "deal 0: scores of seat 1: total is nothing (the key is missing), not a whole number",
    "(rule G2)",
)


@pytest.mark.parametrize("name", sorted(REFUSALS))
def test_G3_bad_record_refused_naming_the_deal_the_action_and_the_rule(name: str) -> None:
    edit, where, rule = REFUSALS[name]
    record = to_record(_won_tie_deal())
    last = len(record["deals"][0]["actions"]) - 1
    edit(record)
    where = where.format(last=last, after=last + 1)
    rule = rule.format(last=last)
    with pytest.raises(RecordError) as info:
        from_record(record)
    message = str(info.value)
    assert message.startswith(where), message
    assert rule in message, message
    if where.startswith("deal "):
        assert info.value.deal == int(where.split()[1].rstrip(":,"))
    if ", action " in where:
        assert info.value.action == int(where.split(", action ")[1].split(":")[0])
    with pytest.raises(RecordError):
        loads(json.dumps(record))
    with pytest.raises(RecordError):
        list(replay(record))


def test_G3_wrong_dealer_rotation() -> None:
    record = to_record(_two_jack_deals())
    assert [deal["dealer"] for deal in record["deals"]] == [0, 1]
    record["deals"][1]["dealer"] = 0
    with pytest.raises(RecordError, match=r"^deal 1: dealer is 0, expected 1 \(rule D2\)$"):
        from_record(record)


def test_G3_an_illegal_action_in_a_later_deal() -> None:
    record = to_record(_two_jack_deals())
    record["deals"][1]["actions"][0] = {"seat": 1, "play": "JS"}  # seat 0 plays first now
    with pytest.raises(RecordError) as info:
        from_record(record)
    assert str(info.value) == (
        "deal 1, action 0: seat 1 cannot play JS: it is seat 0's turn (rule T1)"
    )
    assert (info.value.deal, info.value.action) == (1, 0)


def test_G3_forced_foxtrot_is_checked_when_loading() -> None:
    state = new_state(0, forced_foxtrot=True)
    deal_rigged(state, hands={1: "7S 3H"}, upturned="7D")
    record = to_record(state)
    record["deals"][0]["actions"] = [{"seat": 1, "play": "3H"}]
    with pytest.raises(RecordError, match=r"^deal 0, action 0: seat 1 cannot play 3H: .*X4"):
        from_record(record)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"format": "foxtrot-record/1", ', "not JSON: "),
        ("", "not JSON: "),
        ("[1, 2]", "a record is a JSON object, not an array"),
        (b"\xff\xfe{", "the text looks like UTF-16"),
    ],
)
def test_G3_malformed_json_is_refused(text: str | bytes, message: str) -> None:
    with pytest.raises(RecordError) as info:
        loads(text)
    assert str(info.value).startswith(message)
    assert "(rule G2)" in str(info.value)


def test_D1_the_lot_is_kept_in_the_record_and_checked() -> None:
    state = State(TableOptions(players=3), rng=random.Random(12))
    assert state.lot is not None
    record = to_record(state)
    rounds = record["lot"]
    assert [draw["seat"] for draw in rounds[0]] == [0, 1, 2]
    again = from_record(record)
    assert again.lot == state.lot and again.dealer == state.dealer
    # another seat draws an Ace in the first round and every other draw is a two:
    # the record's dealer no longer follows from the lot
    other = (state.dealer + 1) % 3
    record["lot"] = [[{"seat": seat, "card": "AS" if seat == other else "2C"} for seat in range(3)]]
    first = rf"^lot: the draws make seat {other} the first dealer, but first_dealer"
    with pytest.raises(RecordError, match=first):
        from_record(record)


# ------------------------------------------------------------------ strict fields


def _lot_record() -> dict[str, Any]:
    state = State(TableOptions(players=3), rng=random.Random(12), names=["A", "B", "C"])
    state.deal(random.Random(1))
    state.apply(state.legal_actions()[0])
    return to_record(state)


# Each case: an edit of a valid record with a lot, and the exact start of the refusal.
STRICT: dict[str, tuple[Edit, str]] = {
    "card in lower case": (_set(("deals", 0, "deck", 0), "qs"), "deal 0: deck[0]: bad card 'qs'"),
    "card padded": (_set(("deals", 0, "deck", 7), " QS "), "deal 0: deck[7]: bad card ' QS '"),
    "card a number": (_set(("deals", 0, "deck", 7), 10), "deal 0: deck[7]: bad card 10"),
    "play in lower case": (
        lambda r: r["deals"][0]["actions"][0].update(
            play=r["deals"][0]["actions"][0]["play"].lower()
        ),
        "deal 0, action 0: play: bad card",
    ),
    "decks 2.0": (_set(("options", "decks"), 2.0), "options: decks is 2.0, not a whole number"),
    "players 3.0": (
        _set(("options", "players"), 3.0),
        "options.players: 3.0 is not a whole number",
    ),
    "target true": (_set(("options", "target"), True), "options.target: True is not allowed"),
    "target a string": (_set(("options", "target"), "200"), "options.target: '200' is not allowed"),
    "take in upper case": (_set(("options", "take"), "ANY"), "options.take: 'ANY' is not allowed"),
    "totals false": (_set(("totals",), [False, 0, 0]), "totals[0] is false, not a whole number"),
    "totals 0.0": (_set(("totals",), [0, 0.0, 0]), "totals[1] is 0.0, not a whole number"),
    "totals short": (_set(("totals",), [0, 0]), "totals: 2 entries for 3 players"),
    "winner true": (_set(("winner",), True), "winner is true, not a seat"),
    "winner 0.0": (_set(("winner",), 0.0), "winner is 0.0, not a seat"),
    "dealer 0.0": (_set(("deals", 0, "dealer"), 0.0), "deal 0: dealer is 0.0, not a seat"),
    "seat true": (_set(("deals", 0, "actions", 0, "seat"), True), "deal 0, action 0: seat is true"),
    "seat '1'": (_set(("deals", 0, "actions", 0, "seat"), "1"), "deal 0, action 0: seat is '1'"),
    "take 1": (
        _append(("deals", 0, "actions"), lambda r: {"seat": 0, "take": 1}),
        "deal 0, action 1: take is 1",
    ),
    "names with a number": (_set(("names", 1), 2), "names[1]: expected text, got int"),
    "names with an empty name": (_set(("names", 1), ""), "names[1]: '' is empty"),
    "names with a newline": (_set(("names", 1), "B\nC"), "names[1]: 'B\\nC' holds U+000A"),
    "first_dealer 0.9": (_set(("first_dealer",), 0.9), "first_dealer is 0.9, not a seat"),
    "first_dealer '1'": (_set(("first_dealer",), "1"), "first_dealer is '1', not a seat"),
    "first_dealer null": (_set(("first_dealer",), None), "first_dealer is null, not a seat"),
    "first_dealer wrong": (
        lambda r: r.update(first_dealer=(r["first_dealer"] + 1) % 3),
        "deal 0: dealer is {dealer}, but first_dealer says",
    ),
    "lot a number": (_set(("lot",), 5), "lot: expected an array of rounds of draws, got 5"),
    "lot card a number": (_set(("lot", 0, 0, "card"), 5), "lot[0][0]: card: bad card 5"),
    "lot card lower case": (
        lambda r: r["lot"][0][0].update(card=r["lot"][0][0]["card"].lower()),
        "lot[0][0]: card: bad card",
    ),
    "lot seat 0.9": (_set(("lot", 0, 0, "seat"), 0.9), "lot[0][0]: seat is 0.9, not a seat"),
    "lot seat '1'": (_set(("lot", 0, 1, "seat"), "1"), "lot[0][1]: seat is '1', not a seat"),
    "lot draw missing": (lambda r: r["lot"][0].pop(), "lot: the draws do not decide a dealer"),
    "lot round extra": (
        lambda r: r["lot"].append([{"seat": r["first_dealer"], "card": "2C"}]),
        "lot: the draws do not decide a dealer",
    ),
    "lot against deal 0": (
        lambda r: (
            r.pop("first_dealer"),
            r.update(
                lot=[
                    [
                        {
                            "seat": s,
                            "card": "AS" if s == (r["deals"][0]["dealer"] + 1) % 3 else "2C",
                        }
                        for s in range(3)
                    ]
                ]
            ),
        ),
        "deal 0: dealer is {dealer}, but the lot makes seat",
    ),
    "scores on an unfinished deal": (
        _set(("deals", 0, "scores"), [{}]),
        "deal 0: scores are given, but the deal has not ended",
    ),
}


@pytest.mark.parametrize("name", sorted(STRICT))
def test_G2_every_field_is_read_strictly(name: str) -> None:
    record = _lot_record()
    assert from_record(record).lot is not None
    edit, start = STRICT[name]
    edit(record)
    start = start.format(dealer=record["deals"][0].get("dealer"))
    with pytest.raises(RecordError) as info:
        from_record(record)
    assert str(info.value).startswith(start), str(info.value)
    with pytest.raises(RecordError):
        loads(json.dumps(record))


def test_G2_a_record_with_a_custom_decimal_target_loads_as_written() -> None:
    record = _lot_record()
    record["options"]["target"] = 250.5
    state = from_record(record)
    assert state.options.target == 250.5
    assert json.loads(dumps(state))["options"]["target"] == 250.5
