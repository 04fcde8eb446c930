// The score sheet (every P1–P4 part of every player, every deal, the match totals).
import { h } from "./dom.js";
import { t, seatName } from "./i18n.js";

const label = (key) => t(key).replace(/\n/g, " ");

/** The score sheet of a view: the last deal in every part, then every deal and the totals. */
export function scoreSheet(v) {
  const deals = v.deal_scores || [];
  if (!deals.length) return null;
  const last = deals[deals.length - 1];
  const number = deals.length;
  const cols = ["tui_col_foxtrots_n", "tui_col_doubles_n", "web_col_p1", "tui_col_cards", "tui_col_p2",
    "tui_col_p3", "tui_col_p4", "tui_col_total"];
  const partRows = last.map((line, seat) => {
    const p1 = line.total - line.card_points - line.most_cards;
    return h("tr", {}, h("th", { scope: "row" }, seatName(v.names[seat])),
      [line.foxtrots, line.double_foxtrots, p1, line.cards, line.card_points, line.most_cards, line.total,
        v.totals[seat]].map((x) => h("td", { class: "num" }, String(x))));
  });
  const parts = h("table", { class: "sheet", id: "sheet-last" },
    h("caption", { id: "sheet-last-caption" }, t("web_score_deal", { deal: number })),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("tui_col_player")),
      cols.map((key) => h("th", { scope: "col" }, label(key))))),
    h("tbody", {}, partRows));
  const history = h("table", { class: "sheet", id: "sheet-all" },
    h("caption", { id: "sheet-all-caption" }, t("tui_scores_title")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("tui_col_player")),
      deals.map((_, i) => h("th", { scope: "col" }, t("web_deal_col", { deal: i + 1 }))),
      h("th", { scope: "col" }, t("web_match_total")))),
    h("tbody", {}, v.names.map((name, seat) => h("tr", {}, h("th", { scope: "row" }, seatName(name)),
      deals.map((lines) => h("td", { class: "num" }, String(lines[seat].total))),
      h("td", { class: "num total" }, String(v.totals[seat]))))));
  return [
    h("h3", { id: "scores-title" }, t("web_scores")),
    h("div", { class: "scroll", tabindex: "0", "aria-labelledby": "sheet-last-caption" }, parts),
    h("p", { class: "note" }, t("tui_score_note", { target: v.options.target })),
    h("div", { class: "scroll", tabindex: "0", "aria-labelledby": "sheet-all-caption" }, history),
  ];
}
