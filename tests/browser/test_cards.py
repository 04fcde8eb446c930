"""The card faces (cards.js): every rank's index fits its corner, court cards have a face, and
the four-colour deck is one remembered choice."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .conftest import NewContext

# Draw all 52 faces at the phone's card width and measure each corner index against the face.
MEASURE = """async () => {
  const m = await import('/static/cards.js');
  const box = document.createElement('div');
  document.body.append(box);
  const out = [];
  for (const s of 'SHDC') for (const r of ['2','3','4','5','6','7','8','9','10','J','Q','K','A']) {
    const svg = m.face(r + s);
    svg.style.width = '42px';
    box.append(svg);
    const face = svg.getBoundingClientRect();
    const rank = svg.querySelector('.card-rank').getBoundingClientRect();
    out.push({card: r + s, faceWidth: face.width, rankLeft: rank.left - face.left,
              rankRight: rank.right - face.left, pips: svg.querySelectorAll('path').length,
              court: svg.querySelectorAll('.court').length,
              suitClass: svg.classList.contains('suit-' + s)});
  }
  box.remove();
  return out;
}"""


def test_every_index_fits_its_corner_and_every_face_is_drawn(page: Page) -> None:
    """The 10 is squeezed into the corner like one glyph; 2 … 10 show as many pips; J Q K a face."""
    page.goto("/")
    expect(page.locator("#create")).to_be_visible()
    faces = page.evaluate(MEASURE)
    assert len(faces) == 52
    for face in faces:
        corner = face["faceWidth"] * 15 / 60  # the index stays left of the pips (x < 15 of 60)
        assert face["rankLeft"] >= 0, face
        assert face["rankRight"] <= corner, face
        rank = face["card"][:-1]
        corners = 2  # a small pip under each corner index
        if rank.isdigit():
            assert face["pips"] == corners + int(rank), face
        elif rank == "A":
            assert face["pips"] == corners + 1, face
        else:
            assert face["court"] == 1 and face["pips"] == corners + 2, face  # pip and emblem
        assert face["suitClass"], face


def test_four_colours_is_one_remembered_choice(new_context: NewContext, artifacts: Path) -> None:
    """Ticking the box colours diamonds blue and clubs green, on every page, after a reload too."""
    page = new_context(viewport={"width": 375, "height": 667}).new_page()
    page.goto("/")
    expect(page.locator("#create")).to_be_visible()
    colour = (
        "async (code) => { const m = await import('/static/cards.js'); const s = m.face(code);"
        " document.body.append(s); const c = getComputedStyle(s).fill; s.remove(); return c; }"
    )
    assert page.evaluate(colour, "2D") == page.evaluate(colour, "2H")
    switch = page.get_by_role("button", name="Four-colour deck")
    expect(switch).to_have_attribute("aria-pressed", "false")
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "true")
    assert page.evaluate(colour, "2D") == "rgb(11, 87, 181)"
    assert page.evaluate(colour, "2C") == "rgb(27, 110, 42)"
    assert page.evaluate(colour, "2H") != page.evaluate(colour, "2D")
    page.reload()
    expect(switch).to_have_attribute("aria-pressed", "true")
    assert page.evaluate(colour, "2C") == "rgb(27, 110, 42)"
    page.screenshot(path=str(artifacts / "page-lobby-phone-four-colours.png"))
    no_scroll = "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    assert page.evaluate(no_scroll)
    bar = page.locator("header.bar").bounding_box()
    assert bar is not None and bar["height"] <= 64, bar  # one line on a phone


#: Every face in the page's language at ``width`` px: each drawn element's box against the face's.
INSIDE = """async ([lang, width]) => {
  const i18n = await import('/static/i18n.js');
  await i18n.load(lang);
  const m = await import('/static/cards.js');
  const box = document.createElement('div');
  document.body.append(box);
  const out = [];
  for (const s of 'SHDC') for (const r of ['2','3','4','5','6','7','8','9','10','J','Q','K','A']) {
    const svg = m.face(r + s);
    svg.style.width = `${width}px`;
    box.append(svg);
    const face = svg.getBoundingClientRect();
    for (const part of svg.querySelectorAll('path, text, rect')) {
      const b = part.getBoundingClientRect();
      const over = Math.max(face.left - b.left, b.right - face.right, face.top - b.top,
                            b.bottom - face.bottom);
      if (over > 0.01 * width) out.push({card: r + s, part: part.outerHTML.slice(0, 60), over});
    }
  }
  box.remove();
  return out;
}"""
#: The smallest a face is drawn: the replay's cards and the phone's pile (0.8 × 42 px).
SMALLEST = 33


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_every_face_stays_inside_its_card_at_the_smallest_size(page: Page, lang: str) -> None:
    """Every pip, index (the 10 included) and court drawing lies inside the card's edge, at the
    smallest size the page draws a face and at the largest, with each language's rank letters."""
    page.goto("/")
    expect(page.locator("#create")).to_be_visible()
    for width in (SMALLEST, 110):
        outside = page.evaluate(INSIDE, [lang, width])
        assert not outside, f"{lang}, {width} px: drawn over the card's edge: {outside[:5]}"
