"""The server's own events are narrated in the connection's language, like the moves.

Joining, leaving, the start, the fair deal's commitment, a player's seed, the
shuffle and the reveal of the server seed each come with words from the
catalogs (en, ru, uk): a player never sees an event without a line of text.
"""

from __future__ import annotations

from typing import Any

import pytest

from foxtrot.core import Card
from foxtrot.i18n import card_slots, catalog, messages

from .web_support import Message, Player, create, join, player, server

pytestmark = pytest.mark.timeout(60)
CYRILLIC = range(0x0400, 0x0500)


def cyrillic(lines: list[str]) -> bool:
    return any(ord(ch) in CYRILLIC for ch in "".join(lines))


def events_by_kind(p: Player) -> dict[str, list[Message]]:
    found: dict[str, list[Message]] = {}
    for message in p.received:
        if message["type"] == "event":
            found.setdefault(message["kind"], []).append(message)
    return found


def play_first_deal(client: Any, tmp: str) -> dict[str, Player]:
    """Ann (ru) against Bob, who never connects (a computer plays for him at once), and two
    spectators (en, uk): to the end of the first deal."""
    del tmp
    table = create(
        client,
        seats=[{}, {}],
        first_dealer=1,
        seed_seconds=30,
        grace_seconds=0,
        replacement="easy",
    )
    listening: dict[str, Player] = {}
    with (
        player(client, table["table"], None, lang="en") as en,
        player(client, table["table"], None, lang="uk") as uk,
    ):
        listening |= {"en": en, "uk": uk}
        ann_join = join(client, table["table"], "Ann")
        with player(client, table["table"], ann_join["token"], lang="ru", last_seq=0) as ru:
            listening["ru"] = ru
            join(client, table["table"], "Bob")
            commits = [m for m in ru.received if m["type"] == "event" and m["kind"] == "commit"]
            commit = commits[0] if commits else ru.until(lambda m: m.get("kind") == "commit")
            ru.send(type="seed", deal=commit["data"]["deal"], seed="ab" * 16)
            number = 0
            while not any(m["type"] == "event" and "reveal" in m["data"] for m in ru.received):
                if ru.view and ru.view.get("legal"):
                    ack = ru.act(ru.view["legal"][0], f"a{number}")
                    assert ack["type"] == "ack", ack
                    number += 1
                else:
                    ru.recv()
            last = ru.seq
            for spectator in (en, uk):
                spectator.until(lambda m: m.get("seq") == last and m["type"] == "event")
    return listening


def test_every_server_event_is_narrated_in_each_language(tmp_path: Any) -> None:
    with server(f"sqlite:///{tmp_path}/n.db") as client:
        listening = play_first_deal(client, str(tmp_path))
    kinds = {lang: events_by_kind(p) for lang, p in listening.items()}
    for kind in ("join", "start", "commit", "seed", "deal"):
        texts = {lang: kinds[lang][kind][0]["text"] for lang in listening}
        assert all(texts.values()), (kind, texts)
        assert len({tuple(t) for t in texts.values()}) == 3, (kind, texts)  # three catalogs
        assert cyrillic(texts["ru"]) and cyrillic(texts["uk"]) and not cyrillic(texts["en"])
    reveals = {
        lang: [m for m in kinds[lang]["action"] if "reveal" in m["data"]] for lang in listening
    }
    for lang, found in reveals.items():
        assert found, lang
        assert catalog(lang).text("web_reveal", deal=1) in found[0]["text"]
    seed_line = kinds["en"]["seed"][0]["text"]
    assert seed_line == [catalog("en").text("web_seed", name="Ann", deal=1)]
    deal_line = kinds["en"]["deal"][0]["text"][0]
    assert "1 player's seed" in deal_line  # Ann's seed counted, the computer gave none
    assert "ab" * 16 not in " ".join(deal_line)  # the seed itself is in data, not in words
    # the same lines as a screen reader says them: the cards in words, in their sentence's case
    laid = 0
    for message in kinds["ru"]["action"]:
        assert len(message["spoken"]) == len(message["text"]), message
        for event in message["data"].get("events", []):
            if event["event"] == "card_played" and event["result"] == "laid":
                name = ["Ann", "Bob"][event["seat"]]
                card = Card.parse(event["card"])
                words = card_slots(card, "ru", words=True)
                assert catalog("ru").text("plays", name=name, **words) in message["spoken"]
                assert (
                    catalog("ru").text("plays", name=name, **card_slots(card, "ru"))
                    in (message["text"])
                )
                laid += 1
    assert laid > 3


def test_leaving_before_the_start_is_narrated(tmp_path: Any) -> None:
    with server(f"sqlite:///{tmp_path}/l.db") as client:
        table = create(client, seats=[{}, {}])["table"]
        ann = join(client, table, "Ann")
        with player(client, table, None, lang="uk") as watcher:
            response = client.post(
                f"/api/tables/{table}/leave", headers={"Authorization": f"Bearer {ann['token']}"}
            )
            assert response.status_code == 200, response.text
            left = watcher.until(lambda m: m["type"] == "event" and m["kind"] == "leave")
    assert left["text"] == [catalog("uk").text("web_leave", name="Ann", seat=1)]
    assert ann["token"] not in str(left)


def test_every_language_has_every_server_message() -> None:
    keys = {key for key in messages("en") if key.startswith("web_")}
    assert len(keys) >= 10
    for lang in ("ru", "uk"):
        assert keys <= set(messages(lang)), lang
