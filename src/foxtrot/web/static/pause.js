// The score sheet and the pause after a deal: the sheet of the deal just ended over the felt,
// Next deal for every person (the table waits for all of them, or for the table's number of
// seconds: docs/protocol.md), then the end of the match with the review and the replay.
import { h, fill, announce } from "./dom.js";
import { t, n, seatName } from "./i18n.js";
import { scoreSheet } from "./panels.js";
import { mountAfterMatch } from "./replay.js";
import { ratingNote } from "./ratingnote.js"; // issue 25

/** Draw the score sheet of table view ``tv``: over the felt during the pause after a deal,
 * below the table otherwise; and the end of the match. */
export function renderScores(tv) {
  const v = tv.view;
  const e = tv.el;
  const sheet = scoreSheet(v);
  const p = tv.presence;
  const dealt = v.deal_scores.length;
  const waiting = v.phase === "awaiting_deal" && dealt > 0 && p?.next_deal_waits?.length > 0;
  if (waiting) {
    // the pause after a deal: its score sheet over the felt, until every person is ready
    const pressed = tv.pressedNext === dealt || !p.next_deal_waits.includes(v.seat);
    const others = p.next_deal_waits.filter((s) => s !== v.seat).map((s) => tv.name(s)).join(", ");
    const focus = e.pause.hidden || e.pause.contains(document.activeElement); // kept across redraws
    fill(e.pause, sheet,
      h("p", { class: "note" }, others ? t("web_next_waits", { names: others }) : "",
        " ", p.next_deal_at ? h("span", { "data-until": String(p.next_deal_at) }) : null),
      typeof v.seat === "number"
        ? h("button", { type: "button", class: "primary", id: "next-deal", "data-action": "next-deal",
          disabled: pressed, onclick: () => tv.nextDeal() }, pressed ? t("web_next_ready") : t("web_next_deal"))
        : null);
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
  const winner = v.winner !== null && v.winner !== undefined
    ? n("web_winner", v.totals[v.winner], { name: tv.name(v.winner) }) : "";
  const totals = v.names.map((name, i) => `${seatName(name)} ${v.totals[i]}`).join(", ");
  fill(e.over, h("h3", { id: "over-title" }, t("tui_match_over")), h("p", { id: "winner" }, winner),
    h("p", {}, t("web_totals", { totals })),
    h("div", { class: "row" },
      tv.mine ? h("button", { type: "button", class: "primary", id: "rematch", "data-action": "rematch",
        onclick: () => tv.rematch() }, tv.summary?.rematch ? t("web_rematch_join") : t("web_rematch")) : null,
      h("button", { type: "button", id: "new-table", onclick: () => tv.navigate("/") }, t("web_new_match"))),
    ratingNote(tv.id, tv.mine?.token ?? null)); // issue 25: a rated match's rating changes
  e.over.hidden = false;
  if (!tv.after) {
    // the replay, the record, the review and the fair-deal check (W3's replay.js)
    tv.after = mountAfterMatch(e.after, { table: tv.id, token: tv.mine?.token ?? null });
  }
  if (tv.overSaid !== announced) {
    tv.overSaid = announced;
    announce(`${t("tui_match_over")}. ${winner}`);
    e.over.scrollIntoView({ block: "start" });
  }
}
