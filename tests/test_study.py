"""Rule-variant studies (research.study, ``foxtrot study``): variants, figures, determinism."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from foxtrot.cli.main import main
from foxtrot.core import OptionsError, TableOptions, TakeRule
from foxtrot.research.study import (
    DealFacts,
    MatchFacts,
    StudyConfig,
    mean_interval,
    parse_variants,
    play_one,
    run_study,
    share,
    summarize,
)


def test_parse_variants_changes_the_base_options() -> None:
    base = TableOptions(players=3, target=150)
    found = parse_variants("take=any, take=match+forced_foxtrot=true,target=300", base)
    assert [label for label, _ in found] == [
        "take=any",
        "take=match+forced_foxtrot=true",
        "target=300",
    ]
    assert found[0][1] == base.replace(take=TakeRule.ANY)
    assert found[1][1].forced_foxtrot and found[1][1].take is TakeRule.MATCH
    assert found[2][1].target == 300 and found[2][1].players == 3


@pytest.mark.parametrize(
    ("text", "error", "match"),
    [
        ("take", ValueError, "not key=value"),
        ("take=any,,take=match", ValueError, "empty variant"),
        ("take=any,take=any", ValueError, "named twice"),
        ("forced_foxtrot=maybe", ValueError, "not true or false"),
        ("players=two", ValueError, "not a whole number"),
        ("take=sometimes", OptionsError, "take"),
        ("colour=red", OptionsError, "unknown colour"),
    ],
)
def test_parse_variants_refuses_bad_text(text: str, error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        parse_variants(text)


def test_intervals_by_hand() -> None:
    est = mean_interval([1.0, 2.0, 3.0, 4.0])
    sd = math.sqrt(5 / 3)
    assert est.value == 2.5 and est.n == 4
    assert est.high - est.value == pytest.approx(1.96 * sd / 2)
    low, high = share(8, 10).low, share(8, 10).high
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)  # the Wilson interval


def test_summarize_by_hand() -> None:
    deals = (
        DealFacts(100, (30, -10), 3, first=1, dealer=0, queen_decided=True),
        DealFacts(120, (0, 20), 1, first=0, dealer=1, queen_decided=False),
    )
    facts = [MatchFacts(deals, winner=1, first=1, seats=("greedy", "greedy"))]
    skill = [
        MatchFacts(deals[:1], winner=0, first=1, seats=("greedy", "random")),
        MatchFacts(deals[1:], winner=0, first=0, seats=("random", "greedy")),
    ]
    figures = summarize(facts, skill)
    assert figures["deal_length"].value == 110
    assert figures["deals_per_match"].value == 2
    assert figures["score_spread"].value == 30  # 40 and 20
    assert figures["foxtrots_per_deal"].value == 2
    assert figures["first_player_edge"].value == pytest.approx((-20 + -10) / 2)
    assert figures["dealer_edge"].value == pytest.approx((20 + 10) / 2)
    assert figures["first_player_deal_wins"].value == 0  # seat 0 won deal 1, seat 1 deal 2
    assert figures["first_mover_match_wins"].value == 1
    assert figures["queen_decides"].value == 0.5
    assert figures["skill_win_rate"].value == 0.5  # greedy won the first, random the second
    assert figures["skill_margin"].value == pytest.approx((40 + 20) / 2)


def test_play_one_uses_the_same_decks_under_every_variant() -> None:
    a = play_one(TableOptions(players=2, target=60), ("greedy", "random"), seed=3, match=1)
    b = play_one(
        TableOptions(players=2, target=60, forced_foxtrot=True), ("random", "random"), 3, 1
    )
    assert a.first == b.first  # the same lot, from the same deck generator
    assert a.deals[0].first == b.deals[0].first and a.deals[0].dealer == b.deals[0].dealer
    again = play_one(TableOptions(players=2, target=60), ("greedy", "random"), seed=3, match=1)
    assert again == a


def test_queen_decides_when_removing_its_points_changes_the_winner() -> None:
    found = [
        play_one(TableOptions(players=2, target=200), ("random", "random"), seed=s, match=0)
        for s in range(6)
    ]
    deals = [deal for match in found for deal in match.deals]
    assert any(deal.queen_decided for deal in deals)
    assert not all(deal.queen_decided for deal in deals)


def test_run_study_is_reproducible_with_any_jobs() -> None:
    config = StudyConfig(parse_variants("take=any,take=match"), ("greedy", "random"), 4, 2, 9)
    one = run_study(config, jobs=1)
    two = run_study(config, jobs=2)
    assert one.to_json() == two.to_json()
    assert len(one.figures) == 2 and one.figures[0]["deals_per_match"].n == 4
    assert one.figures[1]["skill_win_rate"].n == 2


def test_study_config_refuses_the_oracle_and_no_matches() -> None:
    with pytest.raises(ValueError, match="oracle"):
        StudyConfig(parse_variants("take=any"), ("oracle",))
    with pytest.raises(ValueError, match="matches"):
        StudyConfig(parse_variants("take=any"), matches=0)


def test_cli_study_writes_json_and_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "study.json"
    picture = tmp_path / "study.png"
    files = ["--json", str(report), "--plot", str(picture)]
    flags = ["--matches", "2", "--skill-matches", "1", "--target", "60", *files]
    status = main(["study", "--variants", "take=any,forced_foxtrot=true", *flags])
    out = capsys.readouterr().out
    assert status == 0
    assert "deals decided by the Q♠" in out and "forced_foxtrot=true" in out
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["format"] == "foxtrot-study/1"
    assert [v["variant"] for v in data["variants"]] == ["take=any", "forced_foxtrot=true"]
    assert set(data["variants"][0]["figures"]) >= {"deal_length", "queen_decides", "skill_margin"}
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_study_usage_mistakes_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["study", "--variants", "take"]) == 2
    assert "not key=value" in capsys.readouterr().err
    assert main(["study", "--variants", "take=any", "--matches", "0"]) == 2
    assert main(["study", "--variants", "take=any", "--bots", "champion"]) == 2
    assert "unknown bot 'champion'" in capsys.readouterr().err
