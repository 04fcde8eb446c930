// The rating changes of a rated match, under "Match over": GET /api/tables/{id}/ratings,
// asked again until the server's sweep has rated the match; never asked of a table the
// summary says is unrated.
// An unrated table (404) offers a signed-in guest to keep the match in his account (POST
// /api/tables/{id}/claim with the seat token): the offer follows the session, since the page
// may learn that it is signed in (or sign in) after the match-over screen is drawn. One
// element per table, reused by every redraw.
import { t, lang } from "../i18n.js";
import { h, fill, announce } from "../dom.js";
import { api } from "../net.js";
import { csrf } from "../session.js";

const notes = new Map();
const offers = new Map(); // table -> [node, seat token]: unrated, not yet kept
const TRIES = 30;

function number(value, sign = false) {
  const text = Math.abs(value).toLocaleString(lang(), { maximumFractionDigits: 1 });
  if (value < 0) return `−${text}`;
  return sign && value > 0 ? `+${text}` : text;
}

function claimButton(table, token, node) {
  const claim = async () => {
    offers.delete(table);
    try {
      await api(`/api/tables/${encodeURIComponent(table)}/claim`, { method: "POST", token });
      fill(node, h("p", { text: t("rating_claimed") }));
    } catch (error) {
      fill(node, h("p", { text: error.code === "seat_taken" ? t("rating_claim_taken") : t("account_failed") }));
    }
    announce(node.textContent);
  };
  return h("button", { type: "button", "data-action": "claim-seat", onclick: claim, text: t("rating_claim") });
}

function offer(table, token, node) {
  if (!token) return;
  offers.set(table, [node, token]);
  fill(node, csrf() ? claimButton(table, token, node) : null);
}

document.addEventListener("foxtrot:session", () => {
  for (const [table, [node, token]] of offers) offer(table, token, node);
});

async function load(table, node, tries, token) {
  let data = null;
  try {
    const answer = await fetch(`/api/tables/${encodeURIComponent(table)}/ratings`);
    if (answer.status === 404) { // not a rated table: a signed-in player may keep it
      offer(table, token, node);
      return;
    }
    if (answer.ok) data = await answer.json();
  } catch {
    data = null;
  }
  if (data && !data.rated && data.outcome === "repeated") { // the same pair within the window
    fill(node, h("p", { class: "note", text: t("rating_not_moved") }));
    return;
  }
  if (!data || !data.rated) {
    if (data && tries > 0) {
      fill(node, h("p", { class: "note", text: t("rating_waiting") }));
      setTimeout(() => load(table, node, tries - 1, token), 2000);
    }
    return;
  }
  fill(node,
    h("h4", { text: t("rating_changes_title") }),
    h("ul", {}, data.changes.map((c) => h("li", { "data-seat": c.seat,
      text: t("rating_change_line", { name: c.name, rating: number(c.after), change: number(c.change, true) })
        + (c.abandoned ? ` (${t("profile_abandoned_mark")})` : "") }))));
}

/** The element that shows ``table``'s rating changes; at an unrated table, for a signed-in
 * player with his seat's ``token``, the button that keeps the match in his account. */
export function ratingNote(table, token = null, rated = undefined) {
  let node = notes.get(table);
  if (!node) {
    node = h("div", { class: "rating-note", "data-region": "rating-changes", "aria-live": "polite" });
    notes.set(table, node);
    if (rated !== false) load(table, node, TRIES, token);
    else offer(table, token, node); // unrated: no request
  }
  return node;
}
