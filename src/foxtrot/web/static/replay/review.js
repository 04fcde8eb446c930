// The review of your moves (GET /api/tables/{id}/review?deal=N, web/review.py): the terminal
// game's review — every move of your seat graded against the expert's, the verdict of each deal.
// Each deal is asked for as soon as it has ended (``upTo(n)``, during the match too), so it shows
// while the next deal is played; after a match (``auto``) every deal is asked for in turn.
// The deals are grouped, one heading each, with links between them; within a deal the costliest
// moves come first, each in parts: the move, its grade, what you played, what the coach
// preferred, the cost in points (the summary's measure), why; and a button that opens the
// replay at that move (``onOpen(deal, index)``).
import { h, fill, announce } from "../dom.js";
import { t, n, lang } from "../i18n.js";
import { api } from "../net.js";
import { analysisLink } from "../analysis/analysis.js";

let made = 0;
/** How long to wait before asking again when the server is busy with this seat's other review. */
const BUSY_MS = 800;

/** One reviewed move in parts; ``grade`` and the cost come first, ``why`` on its own line. */
function moveView(move, onOpen, table) {
  const weak = move.grade !== "good";
  const parts = [
    h("strong", { class: "review-n" }, t("review_move_n", { n: move.move })),
    h("span", { class: "review-grade" }, t(`coach_grade_${move.grade}`)),
    h("span", { class: "review-played" }, t("review_played", { played: move.played_text })),
  ];
  if (move.best !== move.played) {
    parts.push(h("span", { class: "review-best" }, t("review_better", { best: move.best_text })));
  }
  if (weak || move.lost > 0) {
    parts.push(h("span", { class: "review-cost" }, n("coach_lost", move.lost)));
  }
  return h(
    "li",
    { class: `review-move review-${move.grade}`, "data-grade": move.grade, "data-loss": String(move.loss),
      "data-move": String(move.move) },
    h("p", { class: "review-line" }, parts.flatMap((part, i) => (i ? [" · ", part] : [part]))),
    h("p", { class: "review-why" }, t("review_why", { reason: move.reason })),
    onOpen
      ? h("button", { type: "button", class: "review-open", onclick: () => onOpen(move.deal, move.move - 1) },
        t("review_open"))
      : null,
    // the analysis board at the same position: try other moves with the coach's values
    h("a", { class: "review-analyse", "data-action": "analyse", target: "_blank", rel: "noopener",
      href: analysisLink({ table, deal: move.deal + 1, move: move.move }) }, t("analysis_open")),
  );
}

/** The moves of one deal to show (the weaker ones, or all), the costliest first. */
export function shownMoves(result, allMoves) {
  return result.moves
    .filter((move) => allMoves || move.grade !== "good")
    .sort((a, b) => b.loss - a.loss || a.move - b.move);
}

/**
 * The review panel in ``root`` for the player whose ``token`` is given. ``auto``: review every
 * deal of a finished match now. ``upTo(n)``: review deals 1 … n (those that have ended), each
 * as soon as asked. ``onResult(result)`` is told of every deal's review as it comes.
 */
export function mountReview(root, { table, token, onOpen = null, auto = false, live = false, onResult = null } = {}) {
  made += 1;
  const ids = `review-${made}`;
  const results = []; // by deal
  let wanted = 0; // deals that have ended (and so may be reviewed)
  let running = false;
  let failed = false;
  let open = onOpen;
  let status, nav, list, all, start, section;
  /** The panel's elements, in the page's language (again after a switch). */
  function build() {
    status = h("p", { class: "review-status note" });
    nav = h("nav", { class: "review-nav", "aria-label": t("review_deals_nav"), hidden: true });
    list = h("ol", { class: "review-deals", hidden: true });
    all = h("input", { type: "checkbox", id: `${ids}-all`, checked: all?.checked || undefined, onchange: () => render() });
    start = h("button", { type: "button", class: "review-start", hidden: auto || live, onclick: () => run() },
      t("review_start"));
    section = h(
      "section",
      { class: "review panel", "aria-labelledby": `${ids}-title`, "aria-busy": "false" },
      h("h3", { id: `${ids}-title` }, t("review_title")),
      h("p", { class: "note" }, t("review_explain")),
      start,
      h("p", { class: "field check review-filter" }, all, h("label", { for: `${ids}-all` }, t("review_show_all"))),
      nav,
      status,
      list,
    );
    fill(root, section);
  }
  build();

  const anchor = (deal) => `${ids}-deal-${deal + 1}`;
  const done = () => results.filter(Boolean);

  function dealView(result) {
    const moves = shownMoves(result, all.checked);
    return h(
      "li",
      { class: "review-deal", id: anchor(result.deal), tabindex: "-1", "data-deal": String(result.deal) },
      h("h4", {}, t("replay_deal_n", { n: result.deal + 1 })),
      h("p", { class: "review-summary" }, result.summary),
      result.verdicts.map((line) => h("p", { class: "review-verdict" }, line)),
      moves.length
        ? h("ol", { class: "review-moves" }, moves.map((move) => moveView(move, open, table)))
        : h("p", { class: "note" }, all.checked ? t("review_no_moves") : t("review_none_weak")),
    );
  }

  function render() {
    const shown = done();
    fill(list, shown.map(dealView));
    list.hidden = !shown.length;
    fill(nav, shown.length > 1
      ? shown.map((r) => h("a", { href: `#${anchor(r.deal)}`, onclick: (event) => { event.preventDefault(); show(r.deal); } },
        t("replay_deal_n", { n: r.deal + 1 })))
      : []);
    nav.hidden = shown.length < 2;
  }

  /** Scroll to deal ``deal``'s review (and move the focus there). */
  function show(deal) {
    const node = section.querySelector(`#${anchor(deal)}`);
    if (!node) return;
    node.scrollIntoView({ block: "start" });
    node.focus({ preventScroll: true });
  }

  async function pump() {
    if (running) return;
    running = true;
    section.setAttribute("aria-busy", "true");
    start.setAttribute("aria-disabled", "true");
    const path = (deal) => `/api/tables/${encodeURIComponent(table)}/review?lang=${lang()}&deal=${deal}`;
    const asked = lang();
    try {
      for (let deal = 0; deal < wanted; deal += 1) {
        if (results[deal]) continue;
        status.textContent = t("review_working", { deal: deal + 1 });
        let result;
        for (;;) {
          try {
            result = await api(path(deal), { token });
            break;
          } catch (error) {
            if (error.code !== "busy") throw error;
            await new Promise((resolve) => setTimeout(resolve, BUSY_MS));
          }
        }
        if (asked !== lang()) return; // the language changed meanwhile: relang() asks again
        if (auto) wanted = Math.max(wanted, result.deals);
        results[deal] = result;
        render();
        onResult?.(result);
      }
      status.textContent = live && !auto ? "" : t("review_done");
      if (!live || auto) announce(t("review_done"));
    } catch (error) {
      failed = true;
      status.textContent = t("review_failed", { error: error.message });
      announce(status.textContent);
    } finally {
      running = false;
      section.setAttribute("aria-busy", "false");
      start.setAttribute("aria-disabled", "false");
      if (!failed && done().length < wanted) pump(); // asked for meanwhile, or in a new language
    }
  }

  /** Review every deal of the finished match (the button; ``auto`` at once). */
  function run() {
    auto = true;
    failed = false;
    wanted = Math.max(wanted, 1);
    return pump();
  }

  /** Deals 1 … ``count`` have ended: review those not reviewed yet, in order. */
  function upTo(count) {
    if (count <= wanted) return;
    wanted = count;
    failed = false;
    pump();
  }

  if (auto) run();
  return {
    get section() {
      return section;
    },
    results,
    run,
    upTo,
    show,
    /** Where a move's button leads (the replay after the match, the live one before). */
    setOpen(fn) {
      open = fn;
      render();
    },
    /** The language changed: the panel and the deals again, in the new language. */
    relang() {
      results.length = 0;
      build();
      render();
      failed = false;
      pump();
    },
  };
}
