// The score sheet (every P1–P4 part of every player, every deal, the match totals).
import { h } from "../dom.js";
import { t, seatName, points } from "../i18n.js";

const label = (key) => t(key).replace(/\n/g, " ");

/** The deal's parts turned on their side: a row per part, a column per player (a phone's
 * narrow screen shows the players' sheets without scrolling sideways). The deal's and the
 * match's rows are the table's foot, pinned in view while the sheet scrolls (table.css). */
function sheetByPart(v, cols, values, number) {
  const row = (key, i) => h("tr", { class: key === "tui_col_total" ? "total" : key === "tui_col_p4" ? "deal" : null },
    h("th", { scope: "row" }, label(key)),
    values.map((line) => h("td", { class: "num" }, points(line[i]))));
  const foot = ["tui_col_p4", "tui_col_total"];
  return h("table", { class: "sheet by-part", id: "sheet-last" },
    h("caption", { id: "sheet-last-caption" }, t("web_score_deal", { deal: number })),
    h("thead", {}, h("tr", {}, h("td", {}), v.names.map((name) => h("th", { scope: "col", class: "num" }, seatName(name))))),
    h("tbody", {}, cols.map((key, i) => (foot.includes(key) ? null : row(key, i)))),
    h("tfoot", {}, cols.map((key, i) => (foot.includes(key) ? row(key, i) : null))));
}

/** Every deal's totals with a row per deal and a column per player (a phone's shape). */
function historyByDeal(v, deals) {
  return h("table", { class: "sheet by-deal", id: "sheet-all" },
    h("caption", { id: "sheet-all-caption" }, t("tui_scores_title")),
    h("thead", {}, h("tr", {}, h("td", {}), v.names.map((name) => h("th", { scope: "col", class: "num" }, seatName(name))))),
    h("tbody", {}, deals.map((lines, i) => h("tr", {}, h("th", { scope: "row" }, t("web_deal_col", { deal: i + 1 })),
      lines.map((line) => h("td", { class: "num" }, points(line.total)))))),
    h("tfoot", {}, h("tr", { class: "total" }, h("th", { scope: "row" }, t("web_match_total")),
      v.totals.map((total) => h("td", { class: "num total" }, points(total))))));
}

/** The score sheet of a view: the last deal in every part, then every deal and the totals;
 * on a phone (``narrow``) both turned on their side, a column per player. */
export function scoreSheet(v, narrow = false) {
  const deals = v.deal_scores || [];
  if (!deals.length) return null;
  const last = deals[deals.length - 1];
  const number = deals.length;
  const cols = ["tui_col_foxtrots_n", "tui_col_doubles_n", "web_col_p1", "tui_col_cards", "tui_col_p2",
    "tui_col_p3", "tui_col_p4", "tui_col_total"];
  const values = last.map((line, seat) => [line.foxtrots, line.double_foxtrots,
    line.total - line.card_points - line.most_cards, line.cards, line.card_points, line.most_cards, line.total,
    v.totals[seat]]);
  const partRows = values.map((row, seat) => h("tr", {}, h("th", { scope: "row" }, seatName(v.names[seat])),
    row.map((x) => h("td", { class: "num" }, points(x)))));
  const parts = narrow ? sheetByPart(v, cols, values, number) : h("table", { class: "sheet", id: "sheet-last" },
    h("caption", { id: "sheet-last-caption" }, t("web_score_deal", { deal: number })),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("tui_col_player")),
      cols.map((key) => h("th", { scope: "col", class: "num" }, label(key))))),
    h("tbody", {}, partRows));
  const history = narrow ? historyByDeal(v, deals) : h("table", { class: "sheet", id: "sheet-all" },
    h("caption", { id: "sheet-all-caption" }, t("tui_scores_title")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("tui_col_player")),
      deals.map((_, i) => h("th", { scope: "col", class: "num" }, t("web_deal_col", { deal: i + 1 }))),
      h("th", { scope: "col", class: "num" }, t("web_match_total")))),
    h("tbody", {}, v.names.map((name, seat) => h("tr", {}, h("th", { scope: "row" }, seatName(name)),
      deals.map((lines) => h("td", { class: "num" }, points(lines[seat].total))),
      h("td", { class: "num total" }, points(v.totals[seat]))))));
  return [
    h("h3", { id: "scores-title" }, t("web_scores")),
    h("div", { class: "scroll", tabindex: "0", "aria-labelledby": "sheet-last-caption" }, parts),
    h("p", { class: "note" }, t("tui_score_note", { target: v.options.target })),
    h("div", { class: "scroll", tabindex: "0", "aria-labelledby": "sheet-all-caption" }, history),
  ];
}
