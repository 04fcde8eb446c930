"""The review of your moves after a match: the endpoint (web/http/review.py) and its panel
(replay/review.js).

The endpoint runs the terminal game's review (``bots.coach.review``) for the
seat whose token comes with the request, in a worker process; these tests
check who may ask, what comes back, that the server keeps answering while a
review runs, and that the page shows it deal by deal.
"""

from __future__ import annotations

import threading

import httpx
import pytest
from playwright.sync_api import Page, expect

from .browser_support import Api, open_after_match

pytestmark = pytest.mark.timeout(240)

Match = tuple[str, str]


@pytest.fixture(scope="module")
def one_deal(api: Api) -> Match:
    """A finished one-deal match: (table, the person's token)."""
    return api.finished_match(target=1)


def _review(api: Api, table: str, token: str | None, query: str = "") -> httpx.Response:
    return api.get(f"/api/tables/{table}/review{query}", token, timeout=180)


def test_only_a_seat_of_a_finished_match_gets_a_review(api: Api, one_deal: Match) -> None:
    table, token = one_deal
    assert _review(api, table, None).json()["code"] == "no_token"
    assert _review(api, table, "x" * 43).json()["code"] == "bad_token"
    assert _review(api, table, token, "?lang=xx").status_code == 400
    wrong_deal = _review(api, table, token, "?deal=7")
    assert wrong_deal.status_code == 400
    assert "deal 7" in wrong_deal.json()["message"]
    open_table = api.create(options={"players": 2}, public=False)["table"]
    waiting = api.join(open_table, "Cy")["token"]
    refused = _review(api, open_table, waiting)
    assert refused.status_code == 409
    assert refused.json()["code"] == "not_finished"


def test_the_review_grades_the_seats_moves(api: Api, one_deal: Match) -> None:
    table, token = one_deal
    response = _review(api, table, token, "?deal=0&lang=uk")
    assert response.status_code == 200, response.text
    review = response.json()
    record = api.get(f"/api/tables/{table}/record", token).json()
    played = [a for a in record["deals"][0]["actions"] if a["seat"] == 0]
    assert review["seat"] == 0
    assert review["deals"] == len(record["deals"]) == 1
    assert 0 < len(review["moves"]) <= len(played)
    for move in review["moves"]:
        action = record["deals"][0]["actions"][move["move"] - 1]
        assert action["seat"] == 0, "only the asking seat's moves are reviewed"
        assert move["played"] == action.get("play", "take")
        assert move["grade"] in ("good", "inaccuracy", "mistake")
        assert move["loss"] >= 0
    assert "Роздачу 1" in review["verdicts"][0]  # the verdict speaks the language asked for
    assert review == _review(api, table, token, "?deal=0&lang=uk").json(), "kept and the same"


def _review_into(api: Api, table: str, token: str, done: list[int]) -> None:
    done.append(_review(api, table, token, "?deal=0").status_code)


def test_the_server_answers_while_a_review_runs(api: Api) -> None:
    # On a busy machine a review can end before the first /healthz is even sent: a fresh
    # match is reviewed again then.  A server whose loop the review blocks never answers
    # during one, however many are tried.
    answered_during = 0
    with httpx.Client(base_url=api.base_url, timeout=5) as client:
        for _attempt in range(3):
            table, token = api.finished_match(target=1)
            done: list[int] = []
            worker = threading.Thread(target=_review_into, args=(api, table, token, done))
            worker.start()
            while worker.is_alive():
                if client.get("/healthz").status_code == 200:
                    answered_during += int(worker.is_alive())
            worker.join()
            assert done == [200]
            if answered_during:
                break
    assert answered_during > 0, "the event loop answered /healthz while the review was running"


def test_the_review_panel(page: Page, api: Api, one_deal: Match) -> None:
    table, token = one_deal
    open_after_match(page, table, token, "uk")  # the review starts by itself
    page.wait_for_function(
        "document.querySelector('.review-status').textContent.includes('готовий')",
        timeout=180_000,
    )
    review = _review(api, table, token, "?deal=0&lang=uk").json()  # kept by the server: free
    assert page.inner_text(".review-summary") == review["summary"]
    assert page.inner_text(".review-verdict") == review["verdicts"][0]
    weak = [m for m in review["moves"] if m["grade"] != "good"]
    shown = page.locator(".review-move")
    assert shown.count() == len(weak)
    page.check(".review-filter input")
    assert shown.count() == len(review["moves"])
    costliest = max(review["moves"], key=lambda m: (m["loss"], -m["move"]))
    first = shown.nth(0)
    assert first.get_attribute("data-move") == str(costliest["move"])
    assert costliest["played_text"] in first.locator(".review-played").inner_text()
    assert first.locator(".review-why").inner_text() == f"Чому: {costliest['reason']}"
    # a reviewed move opens the replay at the position before it
    shown.nth(0).locator(".review-open").click()
    before = costliest["move"] - 1  # the actions of the deal before that move
    position = page.locator(".replay-position")
    expect(position).to_contain_text(f"хід {before} з" if before else "Роздача 1")
    assert "Розбір ваших ходів готовий." in page.inner_text("#live-polite")
