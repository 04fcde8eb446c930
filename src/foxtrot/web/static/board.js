// The middle of the table (the stock, the pile with every card and the top one marked) and the
// players' table (cards in hand, taken, foxtrots, match total, dealer, turn, presence).
import { h } from "./dom.js";
import { t, n, cardName, cardShort, cardNames, seatName, isComputerName } from "./i18n.js";
import { face, back } from "./cards.js";

/** The stock and the pile of view ``v``; ``animate``: the top card was just played. */
export function pileNodes(v, animate) {
  const pile = v.pile;
  const top = pile.length ? pile[pile.length - 1] : null;
  const label = top
    ? `${n("tui_pile", pile.length)}, ${t("web_top_card", { card: cardName(top) })}`
    : t("web_pile_empty");
  const items = pile.map((card, i) => {
    const isTop = i === pile.length - 1;
    return h("li", { class: `pile-card${isTop ? " top" : ""}${isTop && animate ? " arrive" : ""}` },
      face(card), h("span", { class: "sr-only" }, cardName(card)),
      isTop ? h("span", { class: "top-mark", "aria-hidden": "true" }, t("tui_top")) : null);
  });
  return [
    h("h3", { id: "pile-title", class: "sr-only" }, t("web_pile_label")),
    h("div", { class: "stock", id: "stock" }, back(), h("span", { class: "stock-count" }, n("tui_stock", v.stock))),
    h("div", { class: "pile-wrap" },
      h("p", { class: "pile-label", id: "pile-label" }, label),
      pile.length ? h("ol", { class: "pile", "aria-labelledby": "pile-label" }, items) : null),
  ];
}

/** What a seat's presence says: here, a computer, played by a computer, or away (a countdown).
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

/** The players' table of view ``v`` with the presence message ``presence`` (may be null). */
export function playerNodes(v, presence) {
  const seats = presence?.seats || [];
  const head = h("tr", {}, [t("tui_col_player"), t("tui_col_hand"), t("tui_col_taken"), t("tui_col_foxtrots"),
    t("tui_col_total")].map((x) => h("th", { scope: "col" }, x)));
  const rows = v.names.map((name, seat) => {
    const marks = [];
    if (seat === v.seat) marks.push(t("tui_you_mark"));
    if (seat === v.dealer) marks.push(t("tui_dealer_mark"));
    const foxtrots = v.foxtrots[seat] || [];
    const toMove = v.phase === "playing" && v.to_move === seat;
    return h("tr", { class: toMove ? "to-move" : "", "aria-current": toMove ? "true" : null },
      h("th", { scope: "row" }, toMove ? "▶ " : "", seatName(name), marks.length ? ` (${marks.join(", ")})` : "",
        presenceNode(seats[seat], name)),
      h("td", {}, String(v.hand_sizes[seat])),
      h("td", {}, String(v.taken[seat])),
      h("td", {}, foxtrots.length
        ? [h("span", { "aria-hidden": "true" }, foxtrots.map(cardShort).join(" ")),
          h("span", { class: "sr-only" }, cardNames(foxtrots))]
        : "—"),
      h("td", { class: "num" }, String(v.totals[seat])));
  });
  return [
    h("div", { class: "scroll", tabindex: "0", "aria-label": t("web_players_label") },
      h("table", { class: "players" }, h("caption", { class: "sr-only" }, t("web_players_label")),
        h("thead", {}, head), h("tbody", {}, rows))),
    presence?.spectators ? h("p", { class: "note" }, n("web_spectators", presence.spectators)) : null,
  ];
}
