"""The ``foxtrot`` command: rules, simulate, check, replay."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from foxtrot import __version__
from foxtrot.cli.console import Console
from foxtrot.cli.main import main
from foxtrot.core import Card, CardPlayed, PlayResult
from foxtrot.core import replay as replay_steps
from foxtrot.i18n import card_slots, card_text, catalog, seat_name


@pytest.mark.parametrize(
    ("lang", "title", "word"),
    [
        ("en", "# Foxtrot", "foxtrot"),
        ("ru", "# Фокстрот", "фокстрот"),
        ("uk", "# Фокстрот", "фокстрот"),
    ],
)
def test_rules_in_each_language(
    lang: str, title: str, word: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["rules", "--lang", lang]) == 0
    text = capsys.readouterr().out
    assert text.startswith(title)
    assert word in text.lower()
    cat = catalog(lang)  # the options in words, as the setup screen and the page name them
    for key in ("tui_setup_take", "tui_setup_forced", "tui_setup_leftover", "tui_setup_tie"):
        assert cat.text(key) in text, key
    for key in ("tui_take_match", "tui_leftover_last_taker"):
        assert cat.text(key) in " ".join(text.split()), key
    # no option as the command line spells it, no card as it is typed, no rule id
    options = ("take =", "forced_foxtrot", "leftover_pile", "most_cards_tie", "last_taker", "10H")
    assert not any(option in text for option in options)
    assert "(T3" not in text and "{#" not in text and "[[" not in text
    assert card_text(Card.parse("QS"), lang) in text  # the cards of the examples, in short


def test_simulate_writes_valid_records_and_statistics(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = tmp_path / "records"
    assert (
        main(
            [
                "simulate",
                "--players",
                "3",
                "--take",
                "match",
                "--matches",
                "4",
                "--seed",
                "9",
                "--records",
                str(records),
                "--json",
            ]
        )
        == 0
    )
    stats = json.loads(capsys.readouterr().out)
    files = sorted(records.glob("*.json"))
    assert len(files) == 4
    assert stats["matches"] == 4 and stats["options"]["take"] == "match"
    assert sum(stats["wins_by_seat"]) == 4
    # take = match with 3 players: 104 - 1 upturned = 103 cards, 1 stays undealt: 102 plays
    assert stats["deal_length"]["min"] == stats["deal_length"]["max"] == 102
    assert main(["check", str(records)]) == 0
    assert "4 valid, 0 invalid" in capsys.readouterr().out
    # the same seed gives the same matches
    again = tmp_path / "again"
    assert (
        main(
            [
                "simulate",
                "--players",
                "3",
                "--take",
                "match",
                "--matches",
                "4",
                "--seed",
                "9",
                "--records",
                str(again),
                "--json",
            ]
        )
        == 0
    )
    assert [f.read_text() for f in files] == [f.read_text() for f in sorted(again.glob("*.json"))]


def test_simulate_table_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--players", "2", "--matches", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "2 random matches, 2 players, take = match" in out  # the default (T2)
    assert "foxtrots (all players)" in out and "deal length" in out


def test_simulate_refuses_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--players", "12", "--matches", "1"]) == 1
    assert "players: 12 is not allowed" in capsys.readouterr().err


def _one_record(tmp_path: Path) -> Path:
    assert (
        main(
            [
                "simulate",
                "--players",
                "2",
                "--matches",
                "1",
                "--seed",
                "3",
                "--records",
                str(tmp_path),
                "--json",
            ]
        )
        == 0
    )
    return next(tmp_path.glob("*.json"))


def test_check_refuses_a_tampered_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _one_record(tmp_path)
    data = json.loads(path.read_text())
    data["deals"][0]["scores"][1]["card_points"] += 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    capsys.readouterr()
    assert main(["check", str(path), str(bad)]) == 1
    out = capsys.readouterr().out
    assert f"INVALID {bad}: deal 0: scores of seat 1: card_points" in out
    assert "(rule P2)" in out and "1 valid, 1 invalid" in out


def test_check_refuses_broken_json_and_missing_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "foxtrot-record/1", ')
    assert main(["check", str(broken), str(tmp_path / "missing.json")]) == 1
    out = capsys.readouterr().out
    assert "not JSON" in out and "cannot read" in out


@pytest.mark.parametrize(
    ("lang", "phrase"), [("en", "Deal 1:"), ("ru", "Раздача 1:"), ("uk", "Роздача 1:")]
)
def test_replay_tells_the_match(
    tmp_path: Path, lang: str, phrase: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _one_record(tmp_path)
    capsys.readouterr()
    assert main(["replay", str(path), "--lang", lang, "--hands"]) == 0
    out = capsys.readouterr().out
    data = json.loads(path.read_text())
    assert phrase in out
    plays = sum(len(deal["actions"]) for deal in data["deals"])
    lines = [line for line in out.splitlines() if line.startswith(("Player 1 ", "Player 2 "))]
    assert len(lines) >= plays  # one line per action, plus score lines
    winner = data["names"][data["winner"]]
    assert winner in out.splitlines()[-1]


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_replay_words_tells_the_cards_in_words_in_their_case(
    tmp_path: Path, lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--print --words``: the narration as a screen reader hears it, every card in words in
    the case its sentence needs ("кладёт даму пик"), the same lines as the short narration."""
    path = _one_record(tmp_path)
    capsys.readouterr()
    assert main(["replay", str(path), "--lang", lang, "--print", "--hands"]) == 0
    short = capsys.readouterr().out.splitlines()
    assert main(["replay", str(path), "--lang", lang, "--print", "--words", "--hands"]) == 0
    words = capsys.readouterr().out.splitlines()
    assert len(words) == len(short)
    assert not any(glyph in line for line in words for glyph in "♠♥♦♣")
    data = json.loads(path.read_text())
    names = [seat_name(name, lang) for name in data["names"]]
    state = replay_steps(data)
    laid = 0
    for step in state:
        for event in step.events:
            if isinstance(event, CardPlayed) and event.result is PlayResult.LAID:
                line = catalog(lang).text(
                    "plays", name=names[event.seat], **card_slots(event.card, lang, words=True)
                )
                assert line in words, line
                laid += 1
    assert laid > 10
    if lang == "ru":  # never the nominative after "кладёт": «кладёт дама пик»
        for rank in ("двойка", "дама", "валет", "король", "туз", "десятка"):
            assert not any(f"кладёт {rank} " in line for line in words), rank


def test_replay_refuses_a_bad_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _one_record(tmp_path)
    data = json.loads(path.read_text())
    data["deals"][0]["actions"][3]["seat"] = (data["deals"][0]["actions"][3]["seat"] + 1) % 2
    path.write_text(json.dumps(data))
    capsys.readouterr()
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert "deal 0, action 3: seat" in err and "turn" in err


def test_console_script_is_installed() -> None:
    # the script pip puts beside this interpreter, not whatever is first on PATH
    exe = Path(sys.executable).parent / "foxtrot"
    assert exe.is_file(), f"no console script at {exe}: is the project installed?"
    for cmd in ([str(exe)], [sys.executable, "-m", "foxtrot"]):
        done = subprocess.run(
            [*cmd, "rules", "--lang", "uk"], capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("# Фокстрот")


def test_foxtrot_alone_prints_a_short_help_and_version_prints_the_version(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main([]) == 0
    text = capsys.readouterr().out
    assert "foxtrot play" in text and "foxtrot rules" in text and len(text.splitlines()) < 10
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"foxtrot {__version__}"


def test_the_plain_console_prints_tables_and_markdown_without_rich(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = Console(rich=False)
    out.table(("bot", "wins"), [["greedy", "12"], ["random", "3"]], title="t", right=(1,))
    out.markdown("# Rules\n")  # not a terminal: the text as it is
    with out.progress(3, "matches") as advance:
        advance()
    lines = capsys.readouterr().out.splitlines()
    assert lines == ["t", "bot     wins", "------  ----", "greedy    12", "random     3", "# Rules"]
