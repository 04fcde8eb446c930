// The middle of the table: the stock with its count, and the pile with every card legible and
// the top one marked with who played it.
import { h } from "../dom.js";
import { t, n, cardName, seatName } from "../i18n.js";
import { face, back } from "../cards.js";

/** Who put the top card of view ``v`` on the pile: the last action of the deal when it played
 * that card (a pile only grows by plays); null for the upturned card of a new deal. */
export function topPlayer(v) {
  const top = v.pile.length ? v.pile[v.pile.length - 1] : null;
  const last = v.history.length ? v.history[v.history.length - 1] : null;
  return top && last && last[1] === top ? last[0] : null;
}

/** How far each pile card hides the one below: more as the pile grows, never the corner index. */
function overlap(size) {
  if (size > 14) return 0.78;
  if (size > 7) return 0.68;
  return 0.55;
}

/** The stock and the pile of view ``v``; ``animate``: the top card was just played. */
export function pileNodes(v, animate) {
  const pile = v.pile;
  const top = pile.length ? pile[pile.length - 1] : null;
  const by = topPlayer(v);
  const byName = by === null ? null : seatName(v.names[by]);
  const label = top
    ? `${n("tui_pile", pile.length)}, ${t("web_top_card", { card: cardName(top) })}`
    : t("web_pile_empty");
  const items = pile.map((card, i) => {
    const isTop = i === pile.length - 1;
    return h("li", { class: `pile-card${isTop ? " top" : ""}${isTop && animate ? " arrive" : ""}`, "data-card": card },
      face(card), h("span", { class: "sr-only" }, cardName(card)));
  });
  const stock = h("div", { class: "stock", id: "stock", "data-region": "stock" },
    back(), h("span", { class: "stock-count" }, n("tui_stock", v.stock)));
  return [
    h("h3", { id: "pile-title", class: "sr-only" }, t("web_pile_label")),
    stock,
    h("div", { class: "pile-wrap", "data-region": "pile" },
      h("p", { class: "pile-label", id: "pile-label" }, label,
        byName ? h("span", { class: "top-by" }, ` · ${t("web_top_by", { name: byName })}`) : null),
      pile.length
        ? h("ol", { class: "pile", "aria-labelledby": "pile-label", style: `--overlap: ${overlap(pile.length)}` }, items)
        : null),
  ];
}
