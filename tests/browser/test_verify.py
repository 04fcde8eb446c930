"""The fair-deal check fx/v1 in a real browser (static/verify.js, WebCrypto) and ``foxtrot verify``.

Records the server wrote are checked in the browser and by ``foxtrot verify``
on the same files: both accept the untouched ones with the same report lines,
and both refuse, with the same message, one whose deck, player seed, server
seed, commitment or other fair-deal key was changed.  The shuffle itself is
compared with ``foxtrot.web.fair.shuffle`` on random inputs.
"""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from foxtrot.web import fair
from helpers import fair_vectors

from .browser_support import Api, open_bench

pytestmark = pytest.mark.timeout(180)

Record = dict[str, Any]
SEED = "c0ffee00"


@pytest.fixture(scope="module")
def seeded(api: Api) -> tuple[str, str, Record]:
    """A finished match whose first deal took a player's seed: (table, token, record)."""
    table, token = api.seeded_match(SEED)
    record = api.get(f"/api/tables/{table}/record", token).json()
    assert record["deals"][0]["fair"]["player_seeds"][0] == SEED
    return table, token, record


@pytest.fixture(scope="module")
def several(api: Api) -> Record:
    """The record of a finished match of several deals."""
    table, token = api.finished_match(target=300)
    record: Record = api.get(f"/api/tables/{table}/record", token).json()
    assert len(record["deals"]) >= 2
    return record


def _swap_cards(deal: dict[str, Any]) -> None:
    deck = deal["deck"]
    other = next(i for i, card in enumerate(deck) if card != deck[0])
    deck[0], deck[other] = deck[other], deck[0]


def _flip_hex(text: str) -> str:
    return text[:-1] + ("0" if text[-1] != "0" else "1")


def _fair(record: Record, deal: int = 0) -> dict[str, Any]:
    fair_data: dict[str, Any] = record["deals"][deal]["fair"]
    return fair_data


def _first_action(record: Record) -> dict[str, Any]:
    action: dict[str, Any] = record["deals"][0]["actions"][0]
    return action


def _first_score(record: Record) -> dict[str, Any]:
    score: dict[str, Any] = record["deals"][0]["scores"][0]
    return score


#: How each refused file is made from a good record.
CHANGES: dict[str, Callable[[Record], None]] = {
    "deck": lambda r: _swap_cards(r["deals"][0]),
    "deck_of_a_later_deal": lambda r: _swap_cards(r["deals"][-1]),
    "player_seed": lambda r: _fair(r).update(
        player_seeds=["c0ffee01", *_fair(r)["player_seeds"][1:]]
    ),
    "server_seed": lambda r: _fair(r).update(server_seed=_flip_hex(_fair(r)["server_seed"])),
    "commitment": lambda r: _fair(r).update(commitment=_flip_hex(_fair(r)["commitment"])),
    "algorithm": lambda r: _fair(r).update(algorithm="fx/v2"),
    "seed_count": lambda r: _fair(r).update(player_seeds=_fair(r)["player_seeds"][:1]),
    "unrevealed": lambda r: _fair(r).update(server_seed=None),
    "short_seed": lambda r: _fair(r).update(server_seed=_fair(r)["server_seed"][:-2]),
    "bad_player_seed": lambda r: _fair(r).update(player_seeds=["C0FFEE", ""]),
    "no_fair": lambda r: r["deals"][0].pop("fair"),
    "no_table": lambda r: r.pop("table"),
    # what foxtrot verify refuses by the rules (G3): the page asks the server's engine
    "action": lambda r: _first_action(r).update(seat=1 - _first_action(r)["seat"]),
    "score": lambda r: _first_score(r).update(total=_first_score(r)["total"] + 1),
}
#: Files that are not records at all (G2), made from a good record's JSON text.
TEXTS: dict[str, Callable[[str], str]] = {
    "not_json": lambda text: text[:-1],
    "byte_order_mark": lambda text: "\ufeff" + text,
}


def _cli(paths: list[Path]) -> dict[str, list[str]]:
    """``foxtrot verify`` on every file at once: each file's lines of output."""
    done = subprocess.run(
        [sys.executable, "-m", "foxtrot", "verify", *map(str, paths)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    found: dict[str, list[str]] = {str(path): [] for path in paths}
    pending: list[str] = []
    for line in done.stdout.splitlines():
        if line.startswith("  "):
            pending.append(line.strip())
            continue
        path = next(p for p in found if line.startswith((f"ok {p}:", f"REFUSED {p}:")))
        found[path] = [*pending, line]
        pending = []
    assert not pending, done.stdout
    return found


def _browser(page: Page, texts: list[str]) -> list[dict[str, Any]]:
    """verifyFile of verify.js on the UTF-8 bytes of every text, in the page."""
    result: list[dict[str, Any]] = page.evaluate(
        """async (texts) => {
            const { verifyFile } = await import('/static/replay/verify.js');
            const out = [];
            for (const text of texts) out.push(await verifyFile(new TextEncoder().encode(text)));
            return out;
        }""",
        texts,
    )
    return result


def test_browser_and_cli_agree_on_every_file(
    page: Page, seeded: tuple[str, str, Record], several: Record, tmp_path: Path
) -> None:
    _, _, good = seeded
    texts: dict[str, str] = {"seeded": json.dumps(good), "several": json.dumps(several)}
    for name, change in CHANGES.items():
        record = copy.deepcopy(several if name == "deck_of_a_later_deal" else good)
        change(record)
        texts[name] = json.dumps(record)
    for name, make in TEXTS.items():
        texts[name] = make(json.dumps(good))
    paths = []
    for name, text in texts.items():
        path = tmp_path / f"{name}.json"
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    cli = _cli(paths)
    open_bench(page)
    results = _browser(page, list(texts.values()))
    for name, path, result in zip(texts, paths, results, strict=True):
        lines = cli[str(path)]
        if name in ("seeded", "several"):
            assert result["ok"], (name, result)
            assert result["rules"] == "ok"
            assert lines[-1].startswith(f"ok {path}:"), lines
            assert result["lines"] == lines[:-1], name
        else:
            assert not result["ok"], (name, result)
            assert lines == [f"REFUSED {path}: {result['error']}"], name
    assert cli[str(paths[0])][0] == "deal 0: deck matches its commitment (1 player seeds)"
    assert results[0]["deals"][0] == {"deal": 0, "status": "ok", "seeds": 1}
    codes = {name: result["code"] for name, result in zip(texts, results, strict=True)}
    assert codes["action"] == codes["score"] == "rules"
    assert codes["not_json"] == codes["byte_order_mark"] == "read"
    assert codes["deck"] == "deck"


def test_the_shuffle_gives_the_documented_known_answers(page: Page) -> None:
    """verify.js against the frozen vectors of docs/fair.md, the ones the Python shuffle is
    held to (tests/web/test_web_fair.py): not only against the Python code of the day."""
    open_bench(page)
    vectors = fair_vectors()
    got = page.evaluate(
        """async (vectors) => {
            const { shuffle, commitment } = await import('/static/replay/verify.js');
            const bytes = (hex) => Uint8Array.from(hex.match(/../g), (b) => parseInt(b, 16));
            const out = [];
            for (const v of vectors) {
                const seed = bytes(v.server_seed);
                const deck = await shuffle(seed, v.table, v.deal, v.player_seeds, v.decks);
                out.push({ deck, commitment: await commitment(seed) });
            }
            return out;
        }""",
        vectors,
    )
    assert [(v["deck"], v["commitment"]) for v in vectors] == [
        (g["deck"], g["commitment"]) for g in got
    ]


def test_the_shuffle_is_the_server_shuffle(page: Page) -> None:
    rng = random.Random(2026)
    cases = []
    for _ in range(30):
        seed = rng.randbytes(32)
        table = "".join(rng.choice("abcXYZ019_-") for _ in range(rng.randint(1, 22)))
        seeds = [rng.randbytes(rng.randint(0, 64)).hex() for _ in range(rng.randint(2, 9))]
        decks = rng.choice((2, 3))
        deal = rng.randint(0, 40)
        expected = [str(c) for c in fair.shuffle(seed, table, deal, seeds, decks)]
        cases.append(
            {
                "seed": seed.hex(),
                "table": table,
                "deal": deal,
                "seeds": seeds,
                "decks": decks,
                "expected": expected,
                "commitment": fair.commitment(seed),
            }
        )
    open_bench(page)
    wrong = page.evaluate(
        """async (cases) => {
            const { shuffle, commitment } = await import('/static/replay/verify.js');
            const bytes = (hex) => Uint8Array.from(hex.match(/../g), (b) => parseInt(b, 16));
            const wrong = [];
            for (const c of cases) {
                const deck = await shuffle(bytes(c.seed), c.table, c.deal, c.seeds, c.decks);
                if (JSON.stringify(deck) !== JSON.stringify(c.expected)) wrong.push(c.table);
                if (await commitment(bytes(c.seed)) !== c.commitment) wrong.push(c.seed);
            }
            return wrong;
        }""",
        cases,
    )
    assert wrong == []


def test_the_check_in_the_page(page: Page, seeded: tuple[str, str, Record], tmp_path: Path) -> None:
    table, token, record = seeded
    open_bench(page)
    page.evaluate(
        """async ([table, token]) => {
            const { mountVerify } = await import('/static/replay/verify.js');
            mountVerify(document.getElementById('after'), { table, token });
        }""",
        [table, token],
    )
    page.click(".verify-start")
    page.wait_for_selector(".verify-result")
    deals = len(record["deals"])
    word = "deal is the deck" if deals == 1 else "deals are the decks"
    assert page.inner_text(".verify-verdict") == f"Verified: {deals} {word} committed to."
    assert page.inner_text(".verify-deals li >> nth=0") == (
        "Deal 1: the deck matches its commitment (1 player seed)."
    )
    assert "Verified" in page.inner_text("#live-polite")
    assert page.inner_text(".verify-rules") == (
        "Every move and every score follows the rules (checked by the server's engine)."
    )
    changed = copy.deepcopy(record)
    CHANGES["deck"](changed)
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(changed))
    page.set_input_files(".verify-file input[type=file]", str(path))
    page.wait_for_selector(".verify-refused")
    assert page.inner_text(".verify-refused") == (
        "Refused: deal 1: the deck is not the one the seeds give — it was changed or stacked."
    )
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    page.set_input_files(".verify-file input[type=file]", str(broken))
    page.wait_for_function(
        "document.querySelector('.verify-refused')?.textContent.includes('not a valid record')"
    )


def test_the_rule_check_answers_in_the_commands_words(
    api: Api, seeded: tuple[str, str, Record]
) -> None:
    _, _, record = seeded
    assert api.http.post("/api/records/check", content=json.dumps(record)).json() == {"ok": True}
    broken = copy.deepcopy(record)
    CHANGES["score"](broken)
    answer = api.http.post("/api/records/check", content=json.dumps(broken)).json()
    assert answer["ok"] is False
    assert answer["stage"] == "rules"
    assert "deal 0" in answer["error"]
    unread = api.http.post("/api/records/check", content=b"\xff\xfe{}").json()
    assert unread["stage"] == "read"
    huge = api.http.post("/api/records/check", content=b" " * (4 * 1024 * 1024 + 1))
    assert huge.status_code == 400
    assert huge.json()["code"] == "too_large"


def test_without_webcrypto_the_page_says_so(page: Page, seeded: tuple[str, str, Record]) -> None:
    """On a plain-http address other than localhost browsers give no crypto.subtle."""
    _, _, record = seeded
    open_bench(page)
    page.evaluate("() => Object.defineProperty(globalThis.crypto, 'subtle', { value: undefined })")
    page.evaluate(
        """async (record) => {
            const { mountVerify } = await import('/static/replay/verify.js');
            mountVerify(document.getElementById('after'), { record });
        }""",
        record,
    )
    page.click(".verify-start")
    page.wait_for_selector(".verify-refused")
    assert page.inner_text(".verify-refused") == (
        "The check could not run: this browser offers no WebCrypto here:"
        " open the page over https:// or on localhost."
    )
