// The replay of a match, step by step (next, previous, start and end of a deal, jump to a deal),
// as the public saw it or — for a player, with his seat token — as his seat saw it, from the
// server's GET /api/tables/{id}/replay (each step carries the table as that seat saw it then and
// its narration in the page's language). mountAfterMatch puts the replay, the record download,
// the review of your moves (review.js) and the fair-deal check (verify.js) in one place.
import { h, fill, announce } from "../dom.js";
import { t, n, cardName, cardShort, cardNames, lang, seatName } from "../i18n.js";
import { TableSurface } from "../table/board.js";
import { api } from "../net.js";
import { mountReview } from "./review.js";
import { mountVerify } from "./verify.js";
import { analysisLink } from "../analysis/analysis.js";

let made = 0;
const uid = (name) => `${name}-${(made += 1)}`;

/** The players at that moment: hand sizes, cards taken, foxtrots, match totals; who moves next. */
function playersView(v, mover) {
  const head = h(
    "tr",
    {},
    [t("tui_col_player"), t("web_col_hand"), t("tui_col_taken"), t("tui_col_foxtrots"), t("tui_col_total")].map(
      (x) => h("th", { scope: "col" }, x),
    ),
  );
  const rows = v.names.map((name, seat) => {
    const marks = [];
    if (seat === v.seat) marks.push(t(seat === v.dealer ? "tui_you_deal_mark" : "tui_you_mark"));
    else if (seat === v.dealer) marks.push(t("tui_dealer_mark"));
    const foxtrots = (v.foxtrots && v.foxtrots[seat]) || [];
    const moved = seat === mover;
    return h(
      "tr",
      { class: moved ? "replay-mover" : "" },
      h("th", { scope: "row" }, moved ? "▶ " : "", seatName(name), marks.length ? ` (${marks.join(", ")})` : ""),
      h("td", { class: "num" }, String(v.hand_sizes[seat])),
      h("td", { class: "num" }, String(v.taken[seat])),
      h(
        "td",
        {},
        foxtrots.length ? h("span", { "aria-label": cardNames(foxtrots) }, foxtrots.map(cardShort).join(" ")) : "—",
      ),
      h("td", { class: "num" }, String(v.totals[seat])),
    );
  });
  return h(
    "table",
    { class: "players replay-players" },
    h("caption", { class: "sr-only" }, t("web_players_label")),
    h("thead", {}, head),
    h("tbody", {}, rows),
  );
}

/** The score sheet of one deal: every part P1–P4 of every player and the match totals after it. */
function sheetView(deal, number, names, totals) {
  const cols = [
    "tui_col_foxtrots_n",
    "tui_col_doubles_n",
    "web_col_p1",
    "tui_col_cards",
    "tui_col_p2",
    "tui_col_p3",
    "tui_col_p4",
    "tui_col_total",
  ];
  const rows = deal.scores.map((line, seat) => {
    const p1 = line.total - line.card_points - line.most_cards;
    return h(
      "tr",
      {},
      h("th", { scope: "row" }, seatName(names[seat])),
      [line.foxtrots, line.double_foxtrots, p1, line.cards, line.card_points, line.most_cards, line.total, totals[seat]].map(
        (x) => h("td", { class: "num" }, String(x)),
      ),
    );
  });
  // a region of its own, focusable: on a narrow screen it scrolls sideways by keyboard too
  return h(
    "div",
    { class: "scroll", role: "region", tabindex: "0", "aria-label": t("web_score_deal", { deal: number }) },
    h(
      "table",
      { class: "sheet replay-sheet" },
      h("caption", {}, t("web_score_deal", { deal: number })),
      h(
        "thead",
        {},
        h("tr", {}, h("th", { scope: "col" }, t("tui_col_player")), cols.map((key) => h("th", { scope: "col" }, t(key).replace(/\n/g, " ")))),
      ),
      h("tbody", {}, rows),
    ),
  );
}

/** Save ``data`` as a JSON file called ``name`` (the browser's download). */
export function saveJson(data, name) {
  const blob = new Blob([`${JSON.stringify(data, null, 1)}\n`], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const link = h("a", { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

/**
 * The replay of ``table`` in ``root``. With ``token`` (a player's), it starts as his seat saw it
 * and offers the public view too; without, it is the public replay. Returns a controller:
 * relang() (fetch the narration again in the page's language), show(deal, step), destroy().
 */
export function mountReplay(root, { table, token = null } = {}) {
  const state = { mode: token ? "seat" : "public", data: {}, deal: 0, step: 0, lang: null };
  const titleId = uid("replay-title");
  const e = {};
  e.status = h("p", { class: "replay-status" }, t("replay_loading"));
  e.dealPick = h("select", { id: uid("replay-deal"), onchange: () => show(Number(e.dealPick.value), 0) });
  const button = (key, cls, fn) =>
    h("button", { type: "button", class: `replay-btn ${cls}`, onclick: () => fn() }, t(key));
  e.first = button("replay_first", "replay-first", () => show(state.deal, 0));
  e.prev = button("replay_prev", "replay-prev", () => show(state.deal, state.step - 1));
  e.next = button("replay_next", "replay-next", () => show(state.deal, state.step + 1));
  e.last = button("replay_last", "replay-last", () => show(state.deal, stepsOf(state.deal)));
  e.analyse = h("a", { class: "replay-analyse", "data-action": "analyse", target: "_blank", rel: "noopener" }, t("analysis_open"));
  e.position = h("p", { class: "replay-position" });
  e.text = h("div", { class: "replay-text" });
  e.upturned = h("p", { class: "replay-upturned" });
  e.players = h("div", { class: "replay-players-box" });
  e.board = h("div", { class: "replay-board" });
  e.sheet = h("div", { class: "replay-sheet-box" });
  e.controls = h(
    "div",
    { class: "replay-controls", role: "group", "aria-label": t("replay_controls") },
    h("label", { for: e.dealPick.id, class: "replay-deal-label" }, t("replay_deal")),
    e.dealPick,
    e.first,
    e.prev,
    e.next,
    e.last,
    e.analyse,
  );
  e.modes = null;
  if (token) {
    const name = uid("replay-mode");
    const radio = (mode, key) => {
      const id = `${name}-${mode}`;
      return h(
        "span",
        { class: "replay-mode" },
        h("input", {
          type: "radio",
          name,
          id,
          value: mode,
          checked: state.mode === mode,
          onchange: () => {
            state.mode = mode;
            load().then(() => show(state.deal, state.step));
          },
        }),
        h("label", { for: id }, t(key)),
      );
    };
    e.modes = h(
      "fieldset",
      { class: "replay-modes" },
      h("legend", {}, t("replay_view")),
      radio("seat", "replay_as_seat"),
      radio("public", "replay_as_public"),
    );
  }
  e.keys = h("p", { class: "note replay-keys" }, t("replay_keys"));
  e.body = h(
    "div",
    { class: "replay-body", hidden: true },
    e.modes,
    e.controls,
    e.keys,
    e.position,
    e.text,
    e.board,
    e.sheet,
  );
  e.section = h(
    "section",
    {
      class: "replay panel",
      "aria-labelledby": titleId,
      onkeydown: (event) => keys(event),
    },
    h("h3", { id: titleId }, t("replay_title")),
    e.status,
    e.body,
  );
  fill(root, e.section);

  const deals = () => state.data[state.mode]?.deals || [];
  function stepsOf(deal) {
    return deals()[deal]?.steps.length ?? 0;
  }

  async function load() {
    const key = `${state.mode}:${lang()}`;
    if (state.data[state.mode] && state.lang === key) return;
    fill(e.status, t("replay_loading"));
    e.status.hidden = false;
    try {
      const path = `/api/tables/${encodeURIComponent(table)}/replay?lang=${lang()}`;
      state.data[state.mode] = await api(path, { token: state.mode === "seat" ? token : null });
      state.lang = key;
    } catch (error) {
      fill(e.status, t("replay_failed", { error: error.message }));
      throw error;
    }
    if (!deals().length) {
      fill(e.status, t("replay_empty"));
      e.body.hidden = true;
      return;
    }
    e.status.hidden = true;
    e.body.hidden = false;
    fill(
      e.dealPick,
      deals().map((_, i) => h("option", { value: String(i) }, t("replay_deal_n", { n: i + 1 }))),
    );
  }

  function show(deal, step, { quiet = false } = {}) {
    const all = deals();
    if (!all.length) return;
    deal = Math.max(0, Math.min(deal, all.length - 1));
    const entry = all[deal];
    step = Math.max(0, Math.min(step, entry.steps.length));
    const moved = state.deal !== deal || state.step !== step;
    state.deal = deal;
    state.step = step;
    e.dealPick.value = String(deal);
    const at = step === 0 ? entry : entry.steps[step - 1];
    const v = at.view;
    const moves = entry.steps.length;
    e.position.textContent =
      step === 0
        ? n("replay_start", moves, { deal: deal + 1 })
        : t("replay_position", { deal: deal + 1, move: step, moves });
    for (const [el, off] of [
      [e.first, step === 0],
      [e.prev, step === 0],
      [e.next, step === moves],
      [e.last, step === moves],
    ]) {
      el.setAttribute("aria-disabled", off ? "true" : "false");
    }
    fill(e.text, (at.text || []).map((line) => h("p", {}, line)));
    const seat = state.mode === "seat" && Number.isInteger(v.seat) ? v.seat : null;
    e.analyse.href = analysisLink({ table, deal: deal + 1, move: step + 1, seat });
    // the same table as the live one, on stocks: a step forward or back moves its cards
    const withHand = state.mode === "seat" && Array.isArray(v.hand);
    const key = `${state.mode}:${withHand}:${lang()}`;
    if (!state.surface || state.surfaceKey !== key) {
      state.surface = new TableSurface({ withHand });
      state.surfaceKey = key;
      fill(e.board, state.surface.element, e.upturned, e.players);
    }
    state.surface.set(v);
    e.upturned.textContent = v.upturned ? t("replay_upturned", { card: cardName(v.upturned) }) : "";
    e.upturned.hidden = !v.upturned;
    fill(e.players, playersView(v, step === 0 ? null : at.seat));
    const ended = step === moves && entry.scores;
    fill(e.sheet, ended ? sheetView(entry, deal + 1, v.names, v.totals) : null);
    if (moved && !quiet) announce(`${e.position.textContent} ${(at.spoken || at.text || []).join(" ")}`);
  }

  function keys(event) {
    if (event.target instanceof HTMLSelectElement || event.target instanceof HTMLInputElement) return;
    const moves = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
    if (moves) {
      show(state.deal, state.step + moves);
      event.preventDefault();
    } else if (event.key === "Home" || event.key === "End") {
      show(state.deal, event.key === "Home" ? 0 : stepsOf(state.deal));
      event.preventDefault();
    }
  }

  const ready = load()
    .then(() => show(0, 0, { quiet: true }))
    .catch(() => {});
  return {
    ready,
    section: e.section,
    show,
    async relang() {
      await load().catch(() => {});
      show(state.deal, state.step, { quiet: true });
    },
    destroy() {
      e.section.remove();
    },
  };
}

/** The download of the G2 record (a player's token is needed: the server serves it to players). */
export function downloadButton(table, token) {
  const msg = h("p", { class: "msg replay-download-msg" });
  const btn = h(
    "button",
    {
      type: "button",
      class: "replay-download",
      onclick: async () => {
        msg.textContent = "";
        try {
          const record = await api(`/api/tables/${encodeURIComponent(table)}/record`, { token });
          saveJson(record, `foxtrot-${table}.json`);
          msg.textContent = t("replay_downloaded");
          announce(msg.textContent);
        } catch (error) {
          msg.textContent = t("replay_download_failed", { error: error.message });
          announce(msg.textContent);
        }
      },
    },
    t("replay_download"),
  );
  return h("div", { class: "replay-download-box" }, btn, msg);
}

/**
 * Everything after a match in ``root``: the replay, the record download, the review of your
 * moves and the fair-deal check (the last three need a player's ``token``; a spectator gets the
 * public replay and can check a record file). ``review``: the table's own review panel (it
 * reviewed each deal as it ended), whose moves now open this replay; none is mounted here then.
 * Returns {open(deal, index), relang(), destroy()}.
 */
export function mountAfterMatch(root, { table, token = null, review = null } = {}) {
  const titleId = uid("after-title");
  const parts = {
    replay: h("div", { class: "after-replay" }),
    review: h("div", { class: "after-review" }),
    verify: h("div", { class: "after-verify" }),
    download: h("div", { class: "after-download" }),
  };
  const box = h(
    "section",
    { class: "after-match", "aria-labelledby": titleId },
    h("h2", { id: titleId }, t("replay_after")),
    parts.download,
    parts.replay,
    parts.review,
    parts.verify,
  );
  fill(root, box);
  const mount = () => {
    fill(parts.download, token ? downloadButton(table, token) : h("p", { class: "note" }, t("replay_record_players")));
    const replay = mountReplay(parts.replay, { table, token });
    // each reviewed move opens the replay at the position before it
    const onOpen = (deal, index) => {
      replay.show(deal, index);
      replay.section.scrollIntoView({ block: "start" });
    };
    // it starts by itself, and again in the new language after a switch
    if (review) review.setOpen(onOpen);
    else if (token) mountReview(parts.review, { table, token, onOpen, auto: true });
    else fill(parts.review);
    mountVerify(parts.verify, { table, token });
    return replay;
  };
  let replay = mount();
  return {
    box,
    get ready() {
      return replay.ready;
    },
    /** Show the replay at action ``index`` of deal ``deal`` (a reviewed move's position). */
    async open(deal, index) {
      await replay.ready;
      replay.show(deal, index);
      replay.section.scrollIntoView({ block: "start" });
    },
    relang() {
      const titled = box.querySelector(`#${titleId}`);
      if (titled) titled.textContent = t("replay_after");
      replay = mount();
      return replay.ready;
    },
    destroy() {
      box.remove();
    },
  };
}
