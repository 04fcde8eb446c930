// The table's cards on stocks (stocks.js): the stock and the pile in the middle of the felt,
// each seat's hand, taken cards and foxtrots in its box (seats.js), and the player's own hand
// at the bottom. ``set(view, looks)`` configures all of them from a view of the server
// (docs/protocol.md): what the view says each stock holds, and how the cards look (the marks,
// what may be played, the hint's card). A player's view and a spectator's are drawn alike.
import { h } from "../dom.js";
import { t, n, cardName, seatName } from "../i18n.js";
import { Seats } from "./seats.js";
import { sorted } from "../cards.js";
import { CARD_KEYS } from "../keys.js";
import { Board, Stock, attr, text } from "./stocks.js";

/** Who put the top card of view ``v`` on the pile: the last action of the deal when it played
 * that card (a pile only grows by plays); null for the upturned card of a new deal. */
export function topPlayer(v) {
  const top = v.pile.length ? v.pile[v.pile.length - 1] : null;
  const last = v.history?.length ? v.history[v.history.length - 1] : null;
  return top && last && last[1] === top ? last[0] : null;
}

/** How far each pile card hides the one below: more as the pile grows, never the corner index. */
function overlap(size) {
  if (size > 14) return 0.78;
  if (size > 7) return 0.68;
  return 0.55;
}

function setVar(node, name, value) {
  if (node.style.getPropertyValue(name) !== value) node.style.setProperty(name, value);
}

/** A child of ``node`` with class ``cls`` (made when missing), or none when ``content`` is null. */
function part(node, cls, content, attrs = {}) {
  let found = node.querySelector(`:scope > .${cls}`);
  if (content === null) {
    found?.remove();
    return;
  }
  if (!found) {
    found = h("span", { class: cls, ...attrs });
    node.append(found);
  }
  text(found, content);
}

/** A stacked stock's card: its place in the stack. */
function stacked(node, code, i) {
  setVar(node, "--i", String(i));
  attr(node, "aria-hidden", "true");
}

function unstack(node) {
  node.style.removeProperty("--i");
  attr(node, "aria-hidden", null);
}

const HAND_ATTRS = ["role", "tabindex", "aria-label", "aria-keyshortcuts", "aria-disabled", "data-effect"];

let boards = 0;

/** A card of a stock that is only looked at (the pile, a replay's hand): a list item named. */
function listed(node, code) {
  attr(node, "role", "listitem");
  part(node, "sr-only", cardName(code));
}

function unlisted(node) {
  attr(node, "role", null);
  part(node, "sr-only", null);
}

export class TableBoard {
  /** ``hand``: the element of the player's hand; ``counter``: where the moves are counted;
   * ``live``: the table being played (its hand's cards are buttons; its parts have ids and
   * ``data-region`` names), not a replay's board. */
  constructor(hand, counter, seats, { live = true } = {}) {
    this.seats = seats;
    this.hand = hand;
    this.live = live;
    boards += 1;
    const id = (name) => (live ? name : `${name}-${boards}`);
    const region = (name) => (live ? name : null);
    this.board = new Board(counter);
    this.looks = {};
    this.deal = null;
    this.stockCards = h("div", { class: "stock-cards" });
    this.stockCount = h("span", { class: "stock-count" });
    this.pileWords = h("span");
    this.topBy = h("span", { class: "top-by" });
    this.pileLabel = h("p", { class: "pile-label", id: id("pile-label") }, this.pileWords, this.topBy);
    this.pile = h("div", { class: "pile", role: "list", "aria-labelledby": id("pile-label") });
    this.area = [
      h(live ? "h3" : "p", { id: id("pile-title"), class: "sr-only" }, t("web_pile_label")),
      h("div", { class: "stock", id: live ? "stock" : null, "data-region": region("stock") }, this.stockCards, this.stockCount),
      h("div", { class: "pile-wrap", "data-region": region("pile") }, this.pileLabel, this.pile),
    ];
    this.board.add(new Stock("stock", this.stockCards, { dress: stacked, undress: unstack }));
    this.board.add(new Stock("pile", this.pile, {
      dress: (node, code, i) => {
        node.classList.toggle("pile-card", true);
        node.classList.toggle("top", i === this.pileSize - 1);
        listed(node, code);
      },
      undress: (node) => {
        node.classList.remove("pile-card", "top");
        unlisted(node);
      },
    }));
  }

  /** The player's hand as a stock: each card a button of the toolbar, with its marks. */
  handStock(seat) {
    if (!this.live) return new Stock(`hand:${seat}`, this.hand, { dress: listed, undress: unlisted });
    return new Stock(`hand:${seat}`, this.hand, {
      dress: (node, code, i) => {
        const l = this.looks;
        const effect = l.marks?.[code] || null;
        attr(node, "role", "button");
        attr(node, "tabindex", i === l.focus ? "0" : "-1");
        attr(node, "aria-label", effect ? `${cardName(code)} (${t(`web_effect_${effect}`)})` : cardName(code));
        attr(node, "aria-keyshortcuts", CARD_KEYS[i] || null);
        attr(node, "aria-disabled", l.mine ? null : "true");
        attr(node, "data-effect", effect);
        node.classList.toggle("not-legal", !!l.mine && !l.legal.has(code));
        node.classList.toggle("hinted", l.hinted === code);
        part(node, "effect", effect ? (effect === "took" ? "⤓" : "✦") : null, { "aria-hidden": "true" });
        part(node, "key", CARD_KEYS[i] || "", { "aria-hidden": "true" });
      },
      undress: (node) => {
        for (const name of HAND_ATTRS) attr(node, name, null);
        node.classList.remove("not-legal", "hinted");
        part(node, "effect", null);
        part(node, "key", null);
      },
    });
  }

  /** Draw view ``v``; ``looks``: { mine, legal (a Set), marks, hinted, focus }. */
  set(v, looks) {
    this.looks = looks;
    this.pileSize = v.pile.length;
    const contents = new Map();
    const names = new Set(["stock", "pile"]);
    const backs = (count) => Array.from({ length: count }, () => null);
    for (let seat = 0; seat < v.players; seat += 1) {
      const parts = this.seats.stocks(seat);
      if (!parts) continue;
      const handName = `hand:${seat}`;
      if (seat === v.seat && this.hand) {
        if (this.board.stocks.get(handName)?.element !== this.hand) this.board.add(this.handStock(seat));
        contents.set(handName, sorted(v.hand || []));
      } else if (parts.hand) {
        this.board.add(new Stock(handName, parts.hand, { dress: stacked, undress: unstack }));
        // the analysis board of a finished match may show every hand (v.hands)
        contents.set(handName, v.hands?.[seat] ? sorted(v.hands[seat]) : backs(v.hand_sizes[seat]));
      }
      names.add(handName);
      this.board.add(new Stock(`taken:${seat}`, parts.taken, { dress: stacked, undress: unstack }));
      this.board.add(new Stock(`foxtrots:${seat}`, parts.foxtrots, { dress: stacked, undress: unstack }));
      // a foxtrot's card is one of the cards taken: it lies face up in the foxtrots' stock
      contents.set(`taken:${seat}`, backs(Math.max(0, v.taken[seat] - (v.foxtrots[seat] || []).length)));
      contents.set(`foxtrots:${seat}`, [...(v.foxtrots[seat] || [])]);
      names.add(`taken:${seat}`).add(`foxtrots:${seat}`);
    }
    this.board.keep(names);
    contents.set("stock", backs(v.stock));
    contents.set("pile", [...v.pile]);
    const animate = this.deal === v.deal; // a new deal (or the first view) is laid, not flown
    this.deal = v.deal;
    this.board.set(contents, { animate });
    this.label(v);
  }

  label(v) {
    const pile = v.pile;
    const top = pile.length ? pile[pile.length - 1] : null;
    const by = topPlayer(v);
    const words = top ? `${n("tui_pile", pile.length)}, ${t("web_top_card", { card: cardName(top) })}` : t("web_pile_empty");
    text(this.pileWords, words);
    text(this.topBy, by === null ? "" : ` · ${t("web_top_by", { name: seatName(v.names[by]) })}`);
    setVar(this.pile, "--overlap", String(overlap(pile.length)));
    text(this.stockCount, n("tui_stock", v.stock));
    this.stockCards.parentNode.classList.toggle("empty", !v.stock);
  }

  /** Every card element of the hand, in order. */
  handCards() {
    return [...this.hand.children].filter((node) => node.classList.contains("card"));
  }

}

/** A table to look at, not to play at (a replay's step): the seats, the stock and the pile on
 * a felt, and a seat's own hand below when ``withHand``; ``set(view)`` as for the live table. */
export class TableSurface {
  constructor({ withHand = false } = {}) {
    this.withHand = withHand;
    const ring = h("div", { class: "ring" });
    const own = h("div", { class: "own-seat" });
    const pile = h("div", { class: "pile-area" });
    this.hand = withHand ? h("div", { class: "hand replay-hand", role: "list", "aria-label": t("web_hand_empty") }) : null;
    this.seats = new Seats(ring, own, { live: false });
    this.board = new TableBoard(this.hand, null, this.seats, { live: false });
    pile.append(...this.board.area);
    this.element = h("div", { class: "felt surface" }, ring, h("div", { class: "center" }, pile), own, this.hand);
  }

  set(v) {
    this.seats.set(v, null);
    this.board.set(v, { mine: false, legal: new Set(), marks: {}, hinted: null, focus: -1 });
    if (this.hand) {
      const size = (v.hand || []).length;
      attr(this.hand, "aria-label", size ? n("web_hand_label", size) : t("web_hand_empty"));
      this.hand.style.setProperty("--n", String(Math.max(size, 2)));
    }
  }
}
