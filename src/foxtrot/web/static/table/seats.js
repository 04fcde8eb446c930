// The seats around the felt: one box per player with the name (whole in its title; a computer
// with its level), the dealer mark, the hand (a stock of backs with its count), the cards
// taken (a stock with its count), the foxtrots (a stock of faces), the match total, the lit
// seat whose turn it is (with the turn timer's ring) and, for a person who is away, the
// countdown before a computer plays for him. The boxes are made once per table and seat, and
// each view only changes their words and classes. A player's own seat sits on his side, above
// the hand, and the others along the far edge in the order of play, starting at his left; a
// spectator sees every seat along the far edge, in the order of play from the first.
import { h } from "../dom.js";
import { t, n, cardShort, cardNames, seatName, isComputerName, levelName } from "../i18n.js";
import { attr, text } from "./stocks.js";

/** A seat's name and a computer's level apart ("Computer 2", "(medium)"). */
function nameParts(name) {
  const shown = seatName(name) ?? "";
  const level = isComputerName(name) ? /^(.*\S)\s*(\([^()]*\))$/.exec(shown) : null;
  return level ? [level[1], level[2]] : [shown, ""];
}

/** What a seat's presence says: played by a computer, away (a countdown), or here. */
function presenceText(p, name) {
  if (!p) return { text: "", away: null };
  if (p.kind !== "person") {
    return { text: isComputerName(name) ? "" : `${t("web_computer")} (${levelName(p.kind)})`, away: null };
  }
  if (p.computer_playing) return { text: t("web_computer_plays"), away: null };
  if (p.away_until) return { text: null, away: String(p.away_until) };
  return { text: p.connected ? t("web_connected_mark") : "", away: null };
}

/** One number of a seat, with room for a stock: shown as the stock and the number, read as
 * "label: value". */
function statBox(cls, glyph) {
  const stock = glyph === null ? h("span", { class: "mini-stock", "aria-hidden": "true" }) : null;
  const shown = h("span", { class: "stat-num", "aria-hidden": "true" });
  const said = h("span", { class: "sr-only" });
  const node = h("span", { class: `stat ${cls}` }, stock, glyph ? h("span", { class: "glyph", "aria-hidden": "true" }, glyph) : null, shown, said);
  return { node, stock, shown, said };
}

/** The box of one seat, made once; ``update`` writes a view into it. */
class SeatBox {
  constructor(seat, { own, live }) {
    this.seat = seat;
    this.name = h("span", { class: "seat-name-text" });
    this.level = h("span", { class: "seat-level" });
    this.you = h("span", { class: "seat-you" });
    this.turnNow = h("span", { class: "sr-only" });
    this.dealer = h("span", { class: "chip dealer-chip" });
    this.presence = h("span", { class: "presence" });
    this.hand = own ? null : statBox("seat-hand", null);
    this.taken = statBox("seat-taken", null);
    this.fox = statBox("seat-fox", null);
    this.total = statBox("seat-total", "Σ");
    this.title = h("span", { class: "seat-name" }, this.turnNow, this.name, this.level, this.you);
    this.node = h("li", { class: "seat", "data-region": live ? "seat" : null, "data-seat": String(seat) },
      this.title,
      this.presence,
      h("span", { class: "seat-stats" }, this.hand?.node, this.taken.node, this.fox.node, this.total.node, this.dealer));
  }

  /** A name cut short is focusable (a tap or Tab): the whole name then shows above the seat
   * (table.css) as its title does on hover. */
  markCut() {
    const over = (el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1;
    const cut = [this.title, this.name, this.level].some((el) => el.clientWidth > 0 && over(el));
    if (cut !== (this.title.getAttribute("tabindex") === "0")) attr(this.title, "tabindex", cut ? "0" : null);
    if (!cut) return;
    const box = this.node.getBoundingClientRect(); // the whole name opens toward the middle
    attr(this.node, "data-side", box.left + box.width / 2 > window.innerWidth / 2 ? "end" : "start");
  }

  update(v, presence) {
    const seat = this.seat;
    const full = v.names[seat];
    const [name, level] = nameParts(full);
    const me = seat === v.seat;
    const toMove = v.phase === "playing" && v.to_move === seat;
    text(this.name, name);
    text(this.level, level ? ` ${level}` : "");
    text(this.you, me ? ` (${t("tui_you_mark")})` : "");
    text(this.turnNow, toMove ? `${t("web_turn_now")}: ` : "");
    text(this.dealer, seat === v.dealer ? t("tui_dealer_mark") : "");
    this.dealer.hidden = seat !== v.dealer;
    const whole = `${seatName(full) ?? ""}${me ? ` (${t("tui_you_mark")})` : ""}`;
    attr(this.title, "title", whole);
    attr(this.node, "data-full", whole);
    const p = presence?.seats?.[seat];
    const said = presenceText(p, full);
    attr(this.presence, "data-away", said.away);
    if (said.text !== null) text(this.presence, said.text);
    this.presence.hidden = said.text === "";
    this.presence.classList.toggle("away", !!said.away);
    const cls = this.node.classList;
    cls.toggle("to-move", toMove);
    cls.toggle("me", me);
    cls.toggle("away", !!p?.away_until);
    cls.toggle("dealer", seat === v.dealer);
    attr(this.node, "aria-current", toMove ? "true" : null);
    const count = (box, label, value, shownValue = String(value)) => {
      attr(box.node, "title", `${label}: ${shownValue}`);
      attr(box.node, "data-value", String(value));
      text(box.shown, shownValue);
      text(box.said, `${label}: ${shownValue}`);
    };
    if (this.hand) {
      count(this.hand, t("tui_col_hand"), v.hand_sizes[seat]);
      if (this.hand.stock.style.getPropertyValue("--n") !== String(v.hand_sizes[seat])) {
        this.hand.stock.style.setProperty("--n", String(v.hand_sizes[seat]));
      }
    }
    count(this.taken, t("tui_col_taken"), v.taken[seat]);
    const foxtrots = v.foxtrots[seat] || [];
    this.fox.node.hidden = !foxtrots.length;
    attr(this.fox.node, "title", foxtrots.length ? `${t("tui_col_foxtrots")}: ${cardNames(foxtrots)}` : null);
    text(this.fox.shown, foxtrots.length ? `✦ ${foxtrots.map(cardShort).join(" ")}` : "");
    text(this.fox.said, foxtrots.length ? `${t("tui_col_foxtrots")}: ${cardNames(foxtrots)}` : "");
    count(this.total, t("tui_col_total"), v.totals[seat]);
  }
}

/** Where the other players sit: seat numbers in the order of play from the seat after
 * ``me`` (your left) to the one before it (your right). */
export function othersInOrder(v, me) {
  const order = [];
  for (let k = 1; k < v.players; k += 1) order.push((me + k) % v.players);
  return order;
}

/** The seats of one table: the far edge (``ring``) and the player's own seat (``own``). */
export class Seats {
  constructor(ringHost, ownHost, { live = true } = {}) {
    this.live = live; // the live table's seats carry data-region="seat"; a replay's do not
    this.ringHost = ringHost;
    this.ownHost = ownHost;
    this.ring = h("ul", { class: "seats", "aria-label": t("web_players_label") });
    this.spectators = h("p", { class: "note spectators", hidden: true });
    this.ownList = h("ul", { class: "seats own", "aria-label": t("web_players_label") });
    this.boxes = new Map();
    this.shape = null;
  }

  /** The seat numbers along the far edge and the player's own (null for a spectator). */
  layout(v) {
    if (typeof v.seat === "number") return { far: othersInOrder(v, v.seat), own: v.seat };
    return { far: Array.from({ length: v.players }, (_, i) => i), own: null };
  }

  set(v, presence) {
    const { far, own } = this.layout(v);
    const shape = `${v.players}:${own}`;
    if (shape !== this.shape) {
      this.shape = shape;
      this.boxes.clear();
      const boxes = far.map((seat) => this.box(seat, false));
      this.ring.replaceChildren(...boxes.map((box) => box.node));
      attr(this.ring, "data-count", String(far.length));
      boxes.forEach((box, i) => {
        const angle = Math.PI * (1 - (i + 1) / (far.length + 1)); // π: your left, 0: your right
        box.node.style.setProperty("--lift", (1 - Math.sin(angle)).toFixed(3));
      });
      this.ownList.replaceChildren(...(own === null ? [] : [this.box(own, true).node]));
    }
    if (this.ring.parentNode !== this.ringHost) this.ringHost.replaceChildren(this.ring, this.spectators);
    if (this.ownList.parentNode !== this.ownHost) this.ownHost.replaceChildren(this.ownList);
    this.ownHost.hidden = own === null;
    for (const box of this.boxes.values()) box.update(v, presence);
    for (const box of this.boxes.values()) box.markCut();
    this.ring.classList.toggle("timed", !!presence?.turn_deadline);
    const watching = presence?.spectators || 0;
    this.spectators.hidden = !watching;
    text(this.spectators, watching ? n("web_spectators", watching) : "");
  }

  box(seat, own) {
    const box = new SeatBox(seat, { own, live: this.live });
    this.boxes.set(seat, box);
    return box;
  }

  /** The stock elements of ``seat``: its hand (null for one's own), taken, foxtrots. */
  stocks(seat) {
    const box = this.boxes.get(seat);
    return box ? { hand: box.hand?.stock ?? null, taken: box.taken.stock, foxtrots: box.fox.stock } : null;
  }

  node(seat) {
    return this.boxes.get(seat)?.node ?? null;
  }

  seatNumbers() {
    return [...this.boxes.keys()];
  }
}
