"""``foxtrot check`` and record files: regular files only, a size limit, UTF-8 only (G1, G2).

Every bad file gets one line that names it, and the files after it are still
checked; nothing hangs (a FIFO without a writer) and nothing reads forever
(``/dev/zero``).
"""

from __future__ import annotations

import codecs
import json
import os
import random
import signal
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from foxtrot.cli.main import main
from foxtrot.cli.simulate import play_random_match
from foxtrot.core import RecordError, State, TableOptions, dumps
from foxtrot.storage import MAX_RECORD_BYTES, load, read_record, read_text
from foxtrot.tui.session import autosave_dir, newest_autosave


@pytest.fixture
def good(tmp_path: Path) -> Path:
    path = tmp_path / "good.json"
    path.write_text(dumps(play_random_match(TableOptions(target=50), random.Random(4))))
    return path


@pytest.fixture(autouse=True)
def no_hanging() -> Iterator[None]:
    """Fail instead of hanging if a read blocks (a FIFO)."""

    def stop(*_: object) -> None:
        raise TimeoutError("foxtrot check hung")

    old = signal.signal(signal.SIGALRM, stop)
    signal.alarm(20)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


def _record_text(good: Path) -> str:
    return good.read_text(encoding="utf-8")


def _with_extra(good: Path, value: str) -> str:
    """The good record with an added key holding ``value`` (JSON text as it is)."""
    text = _record_text(good).rstrip()
    return text[:-1] + f', "extra": {value}' + "}"


BAD_TEXTS: dict[str, tuple[Callable[[Path], str], str]] = {
    "nested 990 levels in an added key": (
        lambda g: _with_extra(g, "[" * 990 + "]" * 990),
        "nested more than 64 levels deep",
    ),
    "nested 100000 levels": (lambda g: "[" * 100_000, "nested more than 64 levels deep"),
    "an integer of 5000 digits": (
        lambda g: _with_extra(g, "7" * 5000),
        "a whole number of 5000 digits; a record allows at most 100",
    ),
    "NaN": (lambda g: _with_extra(g, "NaN"), "NaN is not a JSON number"),
    "Infinity target": (
        lambda g: _record_text(g).replace('"target": 50', '"target": Infinity'),
        "Infinity is not a JSON number",
    ),
    "1e999 target": (
        lambda g: _record_text(g).replace('"target": 50', '"target": 1e999'),
        "the number 1e999 is too large",
    ),
    "an unterminated string": (
        lambda g: '{"format": "foxtrot-record/1", "names": ["Ann',
        "not JSON: Unterminated string starting at line 1, column 42 (rule G2)",
    ),
}


@pytest.mark.parametrize("name", sorted(BAD_TEXTS))
def test_check_refuses_bad_json_in_one_line_and_goes_on(
    name: str, good: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make, message = BAD_TEXTS[name]
    bad = tmp_path / "bad.json"
    bad.write_text(make(good), encoding="utf-8")
    assert main(["check", str(bad), str(good)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3, lines
    assert lines[0].startswith(f"INVALID {bad}: ") and message in lines[0], lines[0]
    assert " at at " not in lines[0]
    assert lines[1].startswith(f"ok {good}: ") and lines[2] == "1 valid, 1 invalid"


ENCODINGS = {
    "UTF-8 with a BOM": (codecs.BOM_UTF8, "utf-8", "byte order mark"),
    "UTF-16 with a BOM": (b"", "utf-16", "UTF-16 or UTF-32"),
    "UTF-16-LE without a BOM": (b"", "utf-16-le", "UTF-16 or UTF-32"),
    "UTF-16-BE without a BOM": (b"", "utf-16-be", "UTF-16 or UTF-32"),
    "UTF-32": (b"", "utf-32", "UTF-16 or UTF-32"),
    "Latin-1 name": (b"", "latin-1", "not UTF-8 text"),
}


@pytest.mark.parametrize("name", sorted(ENCODINGS))
def test_records_are_utf8_without_a_bom(
    name: str, good: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    prefix, encoding, message = ENCODINGS[name]
    data = json.loads(_record_text(good))
    data["names"] = ["Zoë", "Søren"]
    bad = tmp_path / "bad.json"
    bad.write_bytes(prefix + json.dumps(data, ensure_ascii=False).encode(encoding))
    assert main(["check", str(bad), str(good)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"INVALID {bad}: ") and message in lines[0], lines[0]
    assert lines[1].startswith(f"ok {good}")
    # the same record in UTF-8 is fine
    bad.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert main(["check", str(bad)]) == 0


def test_check_reads_only_regular_files_and_never_hangs(
    good: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)  # nobody writes to it: opening it for reading would block
    folder = tmp_path / "folder.json"
    folder.mkdir()
    missing = tmp_path / "missing.json"
    paths = [fifo, Path("/dev/zero"), Path("/dev/null"), missing, good]
    assert main(["check", *map(str, paths)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(paths) + 1, lines
    assert lines[0] == f"INVALID {fifo}: cannot read: a FIFO (named pipe), not a file"
    assert lines[1] == "INVALID /dev/zero: cannot read: a device, not a file"
    assert lines[2] == "INVALID /dev/null: cannot read: a device, not a file"
    assert lines[3].startswith(f"INVALID {missing}: cannot read: ")
    assert lines[4].startswith(f"ok {good}: ")
    assert lines[5] == "1 valid, 4 invalid"
    with pytest.raises(RecordError, match="a folder, not a file"):
        read_text(folder)


def test_a_folder_of_records_is_checked_file_by_file(
    good: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    (folder / "a.json").write_bytes(good.read_bytes())
    os.mkfifo(folder / "b.json")
    (folder / "c.json").write_text("[" * 5000, encoding="utf-8")
    (folder / "d.json").write_bytes(good.read_bytes())
    assert main(["check", str(folder)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines[:4]] == ["ok", "INVALID", "INVALID", "ok"]
    assert lines[4] == "2 valid, 2 invalid"


def test_a_file_over_the_size_limit_is_refused_without_reading_it(tmp_path: Path) -> None:
    assert MAX_RECORD_BYTES == 64 * 1024 * 1024
    big = tmp_path / "big.json"
    with big.open("wb") as out:
        out.truncate(MAX_RECORD_BYTES + 1)  # sparse: nothing is written
    with pytest.raises(RecordError, match=r"^.*big\.json: cannot read: 67108865 bytes, more"):
        read_text(big)


def test_loading_errors_name_the_file(good: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "foxtrot-record/1", ', encoding="utf-8")
    for reader in (read_record, load):
        with pytest.raises(RecordError) as info:
            reader(bad)
        assert str(info.value).startswith(f"{bad}: not JSON: "), info.value
    data = json.loads(_record_text(good))
    data["deals"][0]["deck"][3] = data["deals"][0]["deck"][3].lower()
    bad.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(RecordError) as info:
        load(bad)
    message = str(info.value)
    assert message.startswith(f"{bad}: deal 0: deck[3]: bad card "), message
    assert "(upper case, no spaces) (rule C4)" in message
    assert message.count(str(bad)) == 1


def test_replay_of_a_bad_file_names_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "foxtrot-record/1", "names": ["Ann', encoding="utf-8")
    assert main(["replay", "--print", str(bad)]) == 1
    err = capsys.readouterr().err
    assert f"{bad}: not JSON: Unterminated string starting at line 1" in err


def test_check_also_checks_the_seats_key_of_the_terminal_game(
    good: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(_record_text(good))
    data["seats"] = [{"kind": "human"}, {"kind": "bot", "level": "oracle"}]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    said = f"{bad}: seats[1].level is 'oracle', expected one of easy, medium, hard, random,"
    assert main(["check", str(bad)]) == 1
    line = capsys.readouterr().out.splitlines()[0]
    assert line.startswith(f"INVALID {said}"), line
    # every reader refuses it with the same words: replay (which once printed it) and verify
    assert main(["replay", "--print", str(bad)]) == 1
    assert said in capsys.readouterr().err
    data["seats"] = [{"kind": "human"}, {"kind": "bot", "level": "hard"}]
    bad.write_text(json.dumps(data), encoding="utf-8")
    assert main(["check", str(bad)]) == 0


def test_resume_skips_what_is_not_a_regular_record_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FOXTROT_HOME", str(tmp_path / "home"))
    folder = autosave_dir()
    folder.mkdir(parents=True)
    assert newest_autosave() is None
    unfinished = json.loads(_record_text_of_unfinished())
    (folder / "a.json").write_text(json.dumps(unfinished), encoding="utf-8")
    os.mkfifo(folder / "b.json")
    (folder / "c.json").symlink_to(folder / "gone.json")
    (folder / "d.json").write_bytes(codecs.BOM_UTF8 + b"{}")
    assert newest_autosave() == folder / "a.json"


def _record_text_of_unfinished() -> str:
    rng = random.Random(2)
    state = State(TableOptions(), rng=rng)
    state.deal(rng)
    return dumps(state)
