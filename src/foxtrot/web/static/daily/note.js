// At a deal of the day's table: once its one deal is over, a line that leads to the result
// (the standing, the benchmark line, the swings, the review).
import { h } from "../dom.js";
import { t } from "../i18n.js";

export function dailyNote(table) {
  const day = table.summary?.daily;
  const done = ["closed", "over"].includes(table.summary?.status);
  let note = table.root.querySelector("#daily-note");
  if (!day || !done) {
    note?.remove();
    return;
  }
  if (table.el?.turn) table.el.turn.textContent = t("daily_over"); // no next deal comes
  if (note && note.dataset.lang === document.documentElement.lang) return;
  note?.remove();
  const go = (event) => {
    event.preventDefault();
    table.navigate(`/daily?day=${day}&result=${table.id}`);
  };
  note = h("p", { id: "daily-note", class: "daily-note", role: "status", "data-lang": document.documentElement.lang },
    `${t("daily_over")} `, h("a", { href: `/daily?day=${day}&result=${table.id}`, onclick: go, "data-action": "daily-result" }, t("daily_see_result")));
  table.root.prepend(note);
}
