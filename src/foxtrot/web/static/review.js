// The review of your moves after a match (GET /api/tables/{id}/review, web/review.py): the
// terminal game's review — every move of your seat graded against the expert's, the verdict of
// each deal — asked deal by deal so each deal shows as soon as it is reviewed. It starts by
// itself when the match is over; within a deal the costliest moves come first, and each one
// opens the replay at that move (``onOpen(deal, index)``).
import { h, fill, announce } from "./dom.js";
import { t, lang } from "./i18n.js";
import { api } from "./net.js";

let made = 0;

/** One deal's review: its summary, its verdict, and its moves (the weaker ones, or all), the
 * costliest first; each with a button that shows the position in the replay. */
function dealView(result, allMoves, onOpen) {
  const moves = result.moves
    .filter((move) => allMoves || move.grade !== "good")
    .sort((a, b) => b.loss - a.loss || a.move - b.move);
  return h(
    "li",
    { class: "review-deal" },
    h("h4", {}, t("replay_deal_n", { n: result.deal + 1 })),
    h("p", { class: "review-summary" }, result.summary),
    result.verdicts.map((line) => h("p", { class: "review-verdict" }, line)),
    moves.length
      ? h(
          "ol",
          { class: "review-moves" },
          moves.map((move) =>
            h("li", { class: `review-move review-${move.grade}`, "data-grade": move.grade, "data-loss": String(move.loss) },
              h("span", { class: "review-text" }, move.text), " ",
              onOpen ? h("button", { type: "button", class: "review-open", onclick: () => onOpen(move.deal, move.move - 1) },
                t("review_open")) : null),
          ),
        )
      : h("p", { class: "note" }, allMoves ? t("review_no_moves") : t("review_none_weak")),
  );
}

/**
 * The review panel in ``root`` for the player whose ``token`` is given: a button starts the
 * review (seconds of the server's CPU per deal, in its worker), deals appear as they are done.
 */
export function mountReview(root, { table, token, onOpen = null, auto = false } = {}) {
  made += 1;
  const titleId = `review-title-${made}`;
  const allId = `review-all-${made}`;
  const results = [];
  let running = false;
  const status = h("p", { class: "review-status note" });
  const list = h("ol", { class: "review-deals", hidden: true });
  const all = h("input", { type: "checkbox", id: allId, onchange: () => render() });
  const start = h(
    "button",
    { type: "button", class: "review-start", onclick: () => run() },
    t("review_start"),
  );
  const section = h(
    "section",
    { class: "review panel", "aria-labelledby": titleId, "aria-busy": "false" },
    h("h3", { id: titleId }, t("review_title")),
    h("p", { class: "note" }, t("review_explain")),
    start,
    h("p", { class: "field check review-filter" }, all, h("label", { for: allId }, t("review_show_all"))),
    status,
    list,
  );
  fill(root, section);

  function render() {
    fill(list, results.map((result) => dealView(result, all.checked, onOpen)));
    list.hidden = !results.length;
  }

  async function run() {
    if (running) return;
    running = true;
    results.length = 0;
    render();
    section.setAttribute("aria-busy", "true");
    start.setAttribute("aria-disabled", "true");
    const path = (deal) =>
      `/api/tables/${encodeURIComponent(table)}/review?lang=${lang()}&deal=${deal}`;
    try {
      let deals = 1;
      for (let deal = 0; deal < deals; deal += 1) {
        status.textContent = t("review_working", { deal: deal + 1 });
        const result = await api(path(deal), { token });
        deals = result.deals;
        results.push(result);
        render();
      }
      status.textContent = t("review_done");
      announce(t("review_done"));
    } catch (error) {
      status.textContent = t("review_failed", { error: error.message });
      announce(status.textContent);
    } finally {
      running = false;
      section.setAttribute("aria-busy", "false");
      start.setAttribute("aria-disabled", "false");
    }
  }

  if (auto) run();
  return { section, run, results };
}
