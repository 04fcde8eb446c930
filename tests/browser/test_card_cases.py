"""The page puts a card in words in the case its sentence needs (static/i18n.js), as the server.

``cardName(code)`` stays the nominative ("дама пик", a card's label); ``cardName(code, "acc")``
and ``cardSlots(code)`` give the other cases from the catalog's ``card_cases``; ``spoken`` says
a narration line the way the server wrote it in words ("кладёт даму пик"), not the glyphs
replaced by nominatives ("кладёт дама пик"). The counted messages the page fills (the winner,
the replay's start) and the lobby's take rule come out in words of the language.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from foxtrot.core import Card
from foxtrot.i18n import card_slots, catalog

SAY = """async (lang) => {
  const i18n = await import('/static/i18n.js');
  await i18n.load(lang);
  const line = i18n.t('plays', { name: 'Аня', card: 'К♦', card_acc: 'К♦' });
  const before = i18n.spoken(line);
  i18n.hear([line], [i18n.t('plays', { name: 'Аня', ...i18n.cardSlots('KD') })]);
  return {
    nominative: i18n.cardName('KD'),
    accusative: i18n.cardName('KD', 'acc'),
    instrumental: i18n.cardName('JC', 'ins'),
    hint: i18n.t('web_hint_play', i18n.cardSlots('3D')),
    before, after: i18n.spoken(line),
    winner: i18n.n('web_winner', 290, { name: 'Аня' }),
    start: i18n.n('replay_start', 21, { deal: 1 }),
    take: i18n.t('web_table_line', { names: 'Аня', players: 2, target: 200,
                                     take: i18n.t('tui_take_match') }),
  };
}"""


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_the_page_declines_a_card_as_the_server_does(page: Page, lang: str) -> None:
    page.goto("/")
    expect(page.locator("#create")).to_be_visible()
    got: dict[str, Any] = page.evaluate(SAY, lang)
    cat = catalog(lang)
    king = card_slots(Card.parse("KD"), lang, words=True)
    assert got["nominative"] == king["card"]  # the label: «король бубен»
    assert (
        got["accusative"] == king["card_acc"] == {"ru": "короля бубен", "uk": "короля бубон"}[lang]
    )
    assert got["instrumental"] == card_slots(Card.parse("JC"), lang, words=True)["card_ins"]
    assert got["hint"] == cat.text(
        "web_hint_play", **card_slots(Card.parse("3D"), lang, words=True)
    )
    assert got["before"] == cat.text("plays", name="Аня", card_acc=king["card"])  # the fallback
    assert got["after"] == cat.text("plays", name="Аня", **king)
    assert got["winner"] == cat.count("web_winner", 290, name="Аня")
    assert got["start"] == cat.count("replay_start", 21, deal=1)
    assert "match" not in got["take"] and cat.text("tui_take_match") in got["take"]
