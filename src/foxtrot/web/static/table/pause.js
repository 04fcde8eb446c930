// The score sheet and the pause after a deal: the sheet of the deal just ended over the felt,
// Next deal for every person (the table waits for all of them, or for the table's number of
// seconds: docs/protocol.md), then the end of the match with the review and the replay.
// The review of each deal starts as soon as the deal has ended: its summary and costliest move
// show in the pause, the whole review below the table (review.js).
import { h, fill, announce } from "../dom.js";
import { t, n } from "../i18n.js";
import { scoreSheet } from "./panels.js";
import { mountAfterMatch, mountReplay } from "../replay/replay.js";
import { ratingNote } from "./ratingnote.js";
import { renderMatchEnd } from "./matchend.js";
import { mountReview, shownMoves } from "../replay/review.js";

/** A phone's width: the deal's score sheet has a row per part there (panels.js). */
const NARROW = window.matchMedia("(max-width: 600px)");

/** A seated player's review of every deal that has ended, asked for as each ends; kept on the
 * table view across redraws (``tv.review``). Null for a spectator or before the first deal's end. */
function liveReview(tv) {
  const v = tv.view;
  const token = tv.mine?.token;
  if (!token || typeof v.seat !== "number" || !v.deal_scores.length) return tv.review ?? null;
  if (!tv.review) {
    const reviewBox = h("div", { class: "live-review" });
    tv.liveReplay = h("div", { class: "live-replay" });
    fill(tv.el.review, reviewBox, tv.liveReplay);
    tv.review = mountReview(reviewBox, {
      table: tv.id, token, live: true,
      onOpen: (deal, index) => openReplay(tv, deal, index),
      onResult: () => tv.renderScores(), // the pause shows the deal's summary once it comes
    });
  }
  tv.review.upTo(v.deal_scores.length);
  return tv.review;
}

/** A reviewed move's position: in the replay after the match, in a replay of the match so far
 * (the seat's own view, as the server serves it during play) before. */
async function openReplay(tv, deal, index) {
  if (tv.after) {
    tv.after.open(deal, index);
    return;
  }
  const replay = mountReplay(tv.liveReplay, { table: tv.id, token: tv.mine.token });
  await replay.ready;
  replay.show(deal, index);
  replay.section.scrollIntoView({ block: "start" });
}

/** In the pause: the review of the deal just ended, in one line, and its costliest move. */
function reviewPeek(tv, deal) {
  if (!tv.review) return null;
  const result = tv.review.results[deal];
  if (!result) return h("p", { class: "review-peek note" }, t("review_working", { deal: deal + 1 }));
  const worst = shownMoves(result, false)[0];
  return h("div", { class: "review-peek" },
    h("p", {}, h("button", { type: "button", class: "linkish review-go", onclick: () => tv.review.show(deal) },
      t("review_deal_link", { n: deal + 1 })), ": ", result.summary, /[.!?…]$/.test(result.summary) ? "" : "."),
    worst ? h("p", { class: "note" }, t("review_costliest", { move: worst.move, played: worst.played_text,
      lost: n("coach_lost", worst.lost), best: worst.best_text })) : null);
}

/** What the table waits for in the pause after a deal, in words (null: it waits for nothing):
 * for you to press Next deal, or for the people named; ``short`` for the turn line. */
export function pauseHeading(tv, short = false) {
  const v = tv.view;
  const waits = tv.presence?.next_deal_waits || [];
  const dealt = v?.deal_scores?.length || 0;
  if (!v || v.phase !== "awaiting_deal" || !dealt || !waits.length) return null;
  const pressed = tv.pressedNext === dealt || !waits.includes(v.seat);
  if (!pressed) return short ? t("web_pause_turn_you") : t("web_pause_you", { deal: dealt });
  const others = waits.filter((s) => s !== v.seat).map((s) => tv.name(s)).join(", ");
  return short ? t("web_next_waits", { names: others }) : t("web_pause_others", { deal: dealt, names: others });
}

/** Draw the score sheet of table view ``tv``: over the felt during the pause after a deal,
 * below the table otherwise; and the end of the match. */
export function renderScores(tv) {
  const v = tv.view;
  const e = tv.el;
  NARROW.onchange = () => tv.renderScores(); // a phone turned: the sheet's other shape
  const sheet = scoreSheet(v, NARROW.matches);
  const p = tv.presence;
  const dealt = v.deal_scores.length;
  liveReview(tv);
  const waiting = v.phase === "awaiting_deal" && dealt > 0 && p?.next_deal_waits?.length > 0;
  tv.el.arena.classList.toggle("paused", waiting);
  if (waiting) {
    // the pause after a deal: its score sheet over the felt, until every person is ready
    const pressed = tv.pressedNext === dealt || !p.next_deal_waits.includes(v.seat);
    const focus = e.pause.hidden || e.pause.contains(document.activeElement); // kept across redraws
    // the heading says what the table waits for; the sheet scrolls inside itself, its deal and
    // match rows pinned; Next deal and its countdown stay at the panel's foot
    // on a phone the deal's sheet is on its side: its Deal and Match rows (its foot) leave the
    // scrolling part for a strip of their own below it, always in view
    const byPart = sheet[1].querySelector("table.by-part");
    const foot = byPart?.tFoot ?? null;
    if (foot) foot.remove();
    fill(e.pause, h("h3", { id: "pause-title", class: "pause-title" }, pauseHeading(tv)),
      h("div", { class: "pause-sheet" }, sheet.slice(1), reviewPeek(tv, dealt - 1)),
      foot ? h("table", { class: "sheet by-part pinned-sheet", id: "sheet-pinned",
        "aria-labelledby": "sheet-last-caption" }, foot) : null,
      h("div", { class: "pause-foot" },
        typeof v.seat === "number"
          ? h("button", { type: "button", class: "primary", id: "next-deal", "data-action": "next-deal",
            disabled: pressed, onclick: () => tv.nextDeal() }, pressed ? t("web_next_ready") : t("web_next_deal"))
          : null,
        p.next_deal_at ? h("p", { class: "note" }, h("span", { "data-until": String(p.next_deal_at) })) : null));
    e.pause.hidden = false;
    e.scores.hidden = true;
    if (focus && !pressed) e.pause.querySelector("#next-deal")?.focus();
    tv.tick();
  } else {
    e.pause.hidden = true;
    if (sheet) fill(e.scores, sheet);
    e.scores.hidden = !sheet;
  }
  const announced = `${v.deal}:${dealt}:${v.phase}`;
  if (v.phase !== "over") {
    e.over.hidden = true;
    return;
  }
  const rating = ratingNote(tv.id, tv.mine?.token ?? null, tv.summary?.rated); // a rated match's changes
  renderMatchEnd(tv, e.over, rating);
  e.over.hidden = false;
  if (!tv.after) {
    // the replay, the record, the review and the fair-deal check (W3's replay.js)
    if (tv.liveReplay) fill(tv.liveReplay); // the replay below now has the whole match
    tv.after = mountAfterMatch(e.after, { table: tv.id, token: tv.mine?.token ?? null, review: tv.review });
  }
  if (tv.overSaid !== announced) {
    tv.overSaid = announced;
    announce(`${t("tui_match_over")}. ${e.over.querySelector("#winner")?.textContent ?? ""}`);
    e.over.scrollIntoView({ block: "start" });
  }
}
