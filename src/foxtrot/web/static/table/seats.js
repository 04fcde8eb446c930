// The seats around the felt: one box per player with the name (a computer with its level), the
// hand as a card back with its count, the cards taken, the foxtrots, the match total, the dealer
// mark, the lit seat whose turn it is (with the turn timer's ring) and, for a person who is away,
// the countdown before a computer plays for him. The other players sit along the far edge of the
// table in the order of play, starting at your left; your own seat sits on your side, above the
// hand. Each box is one sentence for a screen reader; the numbers have their words.
import { h } from "../dom.js";
import { t, n, cardShort, cardNames, seatName, isComputerName } from "../i18n.js";
import { back } from "../cards.js";

/** What a seat's presence says: a computer, played by a computer, away (a countdown), or here.
 * A computer seat's default name says it already ("Computer 2 (medium)"). */
function presenceNode(p, name) {
  if (!p) return null;
  if (p.kind !== "person") {
    if (isComputerName(name)) return null;
    return h("span", { class: "presence" }, `${t("web_computer")} (${t(`tui_level_${p.kind}`)})`);
  }
  if (p.computer_playing) return h("span", { class: "presence" }, t("web_computer_plays"));
  if (p.away_until) return h("span", { class: "presence away", "data-away": String(p.away_until) });
  return p.connected ? h("span", { class: "presence" }, t("web_connected_mark")) : null;
}

/** One number of a seat: shown as ``shown`` (a glyph and the number), read as "label: value". */
function stat(cls, label, value, shown) {
  return h("span", { class: `stat ${cls}`, title: label, "data-value": String(value) },
    h("span", { "aria-hidden": "true" }, shown), h("span", { class: "sr-only" }, `${label}: ${value}`));
}

/** A seat's name; a computer's level in a span of its own, which a compact strip puts on
 * the next line (so that "Computer 2" never breaks in the middle). */
function nameParts(name) {
  const shown = seatName(name);
  const level = isComputerName(name) ? /^(.*\S)\s*(\([^()]*\))$/.exec(shown) : null;
  return level ? [level[1], h("span", { class: "seat-level" }, ` ${level[2]}`)] : shown;
}

/** The seat box of ``seat`` in view ``v``. */
function seatNode(v, seat, presence) {
  const name = v.names[seat];
  const marks = [];
  if (seat === v.seat) marks.push(t(seat === v.dealer ? "tui_you_deal_mark" : "tui_you_mark"));
  else if (seat === v.dealer) marks.push(t("tui_dealer_mark"));
  const toMove = v.phase === "playing" && v.to_move === seat;
  const foxtrots = v.foxtrots[seat] || [];
  const p = presence?.seats?.[seat];
  return h("li", {
    class: `seat${toMove ? " to-move" : ""}${seat === v.seat ? " me" : ""}${p?.away_until ? " away" : ""}`,
    "data-region": "seat", "data-seat": String(seat), "aria-current": toMove ? "true" : null,
  },
  h("span", { class: "seat-name" },
    toMove ? h("span", { class: "sr-only" }, `${t("web_turn_now")}: `) : null,
    nameParts(name), marks.length ? ` (${marks.join(", ")})` : ""),
  presenceNode(p, name),
  h("span", { class: "seat-stats" },
    stat("seat-hand", t("tui_col_hand"), v.hand_sizes[seat], [h("span", { class: "mini-back" }, back()), String(v.hand_sizes[seat])]),
    stat("seat-taken", t("tui_col_taken"), v.taken[seat], `▤ ${v.taken[seat]}`),
    foxtrots.length ? h("span", { class: "stat seat-fox", title: t("tui_col_foxtrots") },
      h("span", { "aria-hidden": "true" }, `✦ ${foxtrots.map(cardShort).join(" ")}`),
      h("span", { class: "sr-only" }, `${t("tui_col_foxtrots")}: ${cardNames(foxtrots)}`)) : null,
    stat("seat-total", t("tui_col_total"), v.totals[seat], `Σ ${v.totals[seat]}`)));
}

/** Where the other players sit: seat numbers in the order of play from the seat after
 * ``me`` (your left) to the one before it (your right). */
export function othersInOrder(v, me) {
  const order = [];
  for (let k = 1; k < v.players; k += 1) order.push((me + k) % v.players);
  return order;
}

/** The seats of view ``v`` (a spectator watches from seat 1's side): the others along the far
 * edge on an arc (``--lift``: how far a seat sits from the far edge), and yours. */
export function seatNodes(v, presence) {
  const me = typeof v.seat === "number" ? v.seat : 0;
  const others = othersInOrder(v, me);
  const ring = h("ul", { class: "seats", "data-count": String(others.length), "aria-label": t("web_players_label") },
    others.map((seat, i) => {
      const node = seatNode(v, seat, presence);
      const angle = Math.PI * (1 - (i + 1) / v.players); // π: your left, 0: your right
      node.style.setProperty("--lift", (1 - Math.sin(angle)).toFixed(3));
      return node;
    }));
  const own = h("ul", { class: "seats own", "aria-label": t("web_players_label") }, seatNode(v, me, presence));
  return { ring, own };
}

/** How many people watch, under the seats (or nothing). */
export function spectatorsNode(presence) {
  return presence?.spectators ? h("p", { class: "note spectators" }, n("web_spectators", presence.spectators)) : null;
}
