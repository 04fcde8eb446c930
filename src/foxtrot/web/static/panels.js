// The rules dialog (the players' rules of `foxtrot rules`, in the page's language) and the
// score sheet (every P1–P4 part of every player, every deal, the match totals).
import { h, fill } from "./dom.js";
import { t, lang, seatName } from "./i18n.js";

/** A small Markdown reader for the rules: headings, lists, paragraphs, *emphasis*, **bold**. */
export function markdown(text) {
  const out = [];
  let list = null;
  let para = [];
  const inline = (line) => {
    const parts = [];
    const re = /(\*\*[^*]+\*\*|\*[^*]+\*|`[^`]+`)/g;
    let last = 0;
    for (const match of line.matchAll(re)) {
      parts.push(line.slice(last, match.index));
      const token = match[0];
      if (token.startsWith("**")) parts.push(h("strong", {}, token.slice(2, -2)));
      else if (token.startsWith("`")) parts.push(h("code", {}, token.slice(1, -1)));
      else parts.push(h("em", {}, token.slice(1, -1)));
      last = match.index + token.length;
    }
    parts.push(line.slice(last));
    return parts;
  };
  const flush = () => {
    if (para.length) out.push(h("p", {}, inline(para.join(" "))));
    para = [];
  };
  for (const raw of text.split("\n")) {
    const line = raw.trimEnd();
    const heading = line.match(/^(#{1,4})\s+(.*)$/);
    const item = line.match(/^\s*[-*]\s+(.*)$/);
    if (heading) {
      flush();
      list = null;
      out.push(h(`h${Math.min(heading[1].length + 2, 6)}`, {}, inline(heading[2])));
    } else if (item) {
      flush();
      if (!list) {
        list = h("ul");
        out.push(list);
      }
      list.append(h("li", {}, inline(item[1])));
    } else if (!line.trim()) {
      flush();
      list = null;
    } else if (list && /^\s+/.test(raw)) {
      list.lastElementChild.append(" ", ...inline(line.trim()));
    } else {
      list = null;
      para.push(line.trim());
    }
  }
  flush();
  return out;
}

let rulesLang = null;

/** Open the rules in the page's language (fetched once per language). */
export async function openRules() {
  const dialog = document.getElementById("rules-dialog");
  const body = document.getElementById("rules-body");
  if (rulesLang !== lang()) {
    const answer = await fetch(`/api/rules/${lang()}`);
    fill(body, markdown(await answer.text()));
    rulesLang = lang();
  }
  document.getElementById("rules-title").textContent = t("web_rules");
  document.getElementById("rules-note").textContent = t("web_rules_note");
  document.getElementById("rules-close").textContent = t("web_close");
  if (!dialog.open) dialog.showModal();
  document.getElementById("rules-close").focus();
}

const label = (key) => t(key).replace(/\n/g, " ");

/** The score sheet of a view: the last deal in every part, then every deal and the totals. */
/** The deal's parts turned on their side: a row per part, a column per player (a phone's
 * narrow screen shows up to four players' sheets without scrolling sideways). */
function sheetByPart(v, cols, values, number) {
  return h("table", { class: "sheet by-part", id: "sheet-last" },
    h("caption", { id: "sheet-last-caption" }, t("web_score_deal", { deal: number })),
    h("thead", {}, h("tr", {}, h("td", {}), v.names.map((name) => h("th", { scope: "col" }, seatName(name))))),
    h("tbody", {}, cols.map((key, i) => h("tr", { class: key === "tui_col_total" ? "total" : null },
      h("th", { scope: "row" }, label(key)),
      values.map((row) => h("td", { class: "num" }, String(row[i])))))));
}

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
    row.map((x) => h("td", { class: "num" }, String(x)))));
  const parts = narrow && v.players <= 4 ? sheetByPart(v, cols, values, number) : h("table", { class: "sheet", id: "sheet-last" },
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
