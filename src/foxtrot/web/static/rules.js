// The rules dialog: the players' rules of `foxtrot rules` in the page's language, read from
// their Markdown with the marks of foxtrot.i18n.rules: [[7H]] or [[4C 9D QH]] is drawn as
// small cards (cards.js) named in words for a screen reader, "## Scoring {#scoring}" gives the
// heading its id.
import { h, fill } from "./dom.js";
import { t, lang, cardName } from "./i18n.js";
import { face } from "./cards.js";

const CARDS = /\[\[([^[\]\n]*)\]\]/g;

/** A row of cards as pictures: one image for a screen reader, the cards in words. */
export function cardRow(codes) {
  return h("span", { class: "rule-cards", role: "img", "aria-label": codes.map((code) => cardName(code)).join(", ") },
    codes.map((code) => face(code)));
}

/** Inline marks: **bold**, *emphasis*, `code` and the card marks. */
function inline(line) {
  const parts = [];
  const re = /(\*\*[^*]+\*\*|\*[^*]+\*|`[^`]+`|\[\[[^[\]\n]*\]\][.,:;!?)»]*)/g;
  let last = 0;
  for (const match of line.matchAll(re)) {
    parts.push(line.slice(last, match.index));
    const token = match[0];
    if (token.startsWith("**")) parts.push(h("strong", {}, inline(token.slice(2, -2))));
    else if (token.startsWith("`")) parts.push(h("code", {}, token.slice(1, -1)));
    else if (token.startsWith("[[")) {
      // the punctuation after the cards stays on their line
      const end = token.lastIndexOf("]]");
      const row = cardRow(token.slice(2, end).trim().split(/\s+/));
      parts.push(end + 2 < token.length ? h("span", { class: "nowrap" }, row, token.slice(end + 2)) : row);
    }
    else parts.push(h("em", {}, inline(token.slice(1, -1))));
    last = match.index + token.length;
  }
  parts.push(line.slice(last));
  return parts;
}

const cells = (line) => line.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((cell) => cell.trim());

/** A table's lines (a header, a |---| line, the rows) as a <table> that scrolls on a phone. */
function table(lines) {
  const [head, , ...rows] = lines;
  const numeric = (text) => /^[−+-]?\d/.test(text);
  return h("div", { class: "scroll", tabindex: "0" },
    h("table", { class: "sheet rules-table" },
      h("thead", {}, h("tr", {}, cells(head).map((cell) => h("th", { scope: "col" }, inline(cell))))),
      h("tbody", {}, rows.map((row) => h("tr", {}, cells(row).map((cell, i) => (i === 0
        ? h("th", { scope: "row" }, inline(cell))
        : h("td", { class: numeric(cell) ? "num" : null }, inline(cell)))))))));
}

/** A small Markdown reader for the rules: headings (with {#id}), lists, numbered lists,
 * tables, paragraphs, *emphasis*, **bold** and the card marks. */
export function markdown(text) {
  const out = [];
  let list = null;
  let item = null; // the text of the list item being read (its lines joined)
  let para = [];
  let rows = [];
  const flush = () => {
    if (item !== null) list.append(h("li", {}, inline(item)));
    item = null;
    if (para.length) out.push(h("p", {}, inline(para.join(" "))));
    para = [];
    if (rows.length) out.push(table(rows));
    rows = [];
  };
  for (const raw of text.split("\n")) {
    const line = raw.trimEnd();
    const heading = line.match(/^(#{1,4})\s+(.*?)(?:\s*\{#([a-z0-9-]+)\})?$/);
    const bullet = line.match(/^\s*(?:[-*]|(\d+)\.)\s+(.*)$/);
    if (heading) {
      flush();
      list = null;
      const id = heading[3] ? `rules-${heading[3]}` : null;
      out.push(h(`h${Math.min(heading[1].length + 2, 6)}`, { id }, inline(heading[2])));
    } else if (line.trim().startsWith("|")) {
      if (para.length || item !== null) flush();
      list = null;
      rows.push(line);
    } else if (bullet) {
      flush();
      const tag = bullet[1] ? "ol" : "ul";
      if (!list || list.tagName.toLowerCase() !== tag) {
        list = h(tag);
        out.push(list);
      }
      item = bullet[2];
    } else if (!line.trim()) {
      flush();
      list = null;
    } else if (item !== null && /^\s+/.test(raw)) {
      item += ` ${line.trim()}`;
    } else {
      if (item !== null) flush();
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
