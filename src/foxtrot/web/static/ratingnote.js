// The rating changes of a rated match, under "Match over" (issue 25): GET
// /api/tables/{id}/ratings, asked again until the server's sweep has rated the match.
// An unrated table (404) shows nothing. One element per table, reused by every redraw.
import { t } from "./i18n.js";
import { h, fill } from "./dom.js";

const notes = new Map();
const TRIES = 30;

function signed(value) {
  return value > 0 ? `+${value}` : value < 0 ? `−${Math.abs(value)}` : "0";
}

async function load(table, node, tries) {
  let data = null;
  try {
    const answer = await fetch(`/api/tables/${encodeURIComponent(table)}/ratings`);
    if (answer.status === 404) return; // not a rated table
    if (answer.ok) data = await answer.json();
  } catch {
    data = null;
  }
  if (!data || !data.rated) {
    if (data && tries > 0) {
      fill(node, h("p", { class: "note", text: t("rating_waiting") }));
      setTimeout(() => load(table, node, tries - 1), 2000);
    }
    return;
  }
  fill(node,
    h("h4", { text: t("rating_changes_title") }),
    h("ul", {}, data.changes.map((c) => h("li", { "data-seat": c.seat,
      text: t("rating_change_line", { name: c.name, rating: c.after, change: signed(c.change) }) }))));
}

/** The element that shows ``table``'s rating changes (empty for an unrated table). */
export function ratingNote(table) {
  let node = notes.get(table);
  if (!node) {
    node = h("div", { class: "rating-note", "data-region": "rating-changes", "aria-live": "polite" });
    notes.set(table, node);
    load(table, node, TRIES);
  }
  return node;
}
