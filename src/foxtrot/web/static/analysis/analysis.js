// The analysis board (POST /api/analysis, web/http/analysis.py): a position of a finished match,
// of a deal that has ended, or set up with a position text, as one seat saw it; moves tried for
// every seat forward with the coach's value of each legal move beside its card; back and
// forward through the tried line; a link that opens the same position and line. The table is
// the replay's (TableSurface on card stocks) fed the server's frames: the server sends no card
// the seat could not see before the match is over ("show all hands" only after it).
import { h, fill, announce } from "../dom.js";
import { t, cardName, cardShort, seatName, lang } from "../i18n.js";
import { face } from "../cards.js";
import { TableSurface } from "../table/board.js";
import { api, savedSeat } from "../net.js";

let made = 0;
const uid = (name) => `${name}-${(made += 1)}`;

/** The page's path of an analysis: a table's deal and move, or a position text; a line. */
export function analysisLink({ table = null, deal = null, move = null, seat = null, position = null, line = [], hands = false }) {
  const q = new URLSearchParams();
  if (table) {
    q.set("table", table);
    q.set("deal", String(deal ?? 1));
    if (move && move > 1) q.set("move", String(move));
  } else if (position) q.set("position", position);
  if (seat !== null && seat !== undefined) q.set("seat", String(seat));
  if (line.length) q.set("line", line.join(","));
  if (hands) q.set("hands", "1");
  return `/analysis?${q}`;
}

/** The analysis named by a link's query (``location.search``). */
export function linkParams(search) {
  const q = new URLSearchParams(search);
  const number = (name) => (q.get(name) && /^\d+$/.test(q.get(name)) ? Number(q.get(name)) : null);
  return {
    table: q.get("table"),
    deal: number("deal"),
    move: number("move") ?? 1,
    seat: number("seat"),
    position: q.get("position"),
    line: (q.get("line") || "").split(",").filter(Boolean),
    hands: q.get("hands") === "1",
  };
}

function valueText(value) {
  if (value === null || value === undefined) return "—";
  return `${value > 0 ? "+" : value < 0 ? "−" : "±"}${Math.abs(value).toFixed(1)}`;
}

function moveText(action) {
  return action === "take" ? t("coach_take") : cardShort(action);
}

function moveWords(action) {
  return action === "take" ? t("coach_take") : cardName(action);
}

/**
 * The analysis board in ``root`` for ``params`` (``linkParams``). ``onLine(params)``: told of
 * every change of the line, seat or hands (the page puts it in the address bar).
 * Returns { ready, relang(), destroy() }.
 */
export function mountAnalysis(root, params, { onLine = null } = {}) {
  const state = {
    ...params,
    tried: [...params.line], // the whole tried line (forward goes back along it)
    at: params.line.length, // how many of its moves are on the table
    frames: new Map(),
    frame: null,
    busy: false,
  };
  const token = params.table ? savedSeat(params.table)?.token || null : null;
  const titleId = uid("analysis-title");
  const e = {};
  e.where = h("p", { class: "analysis-where" });
  e.seatPick = h("select", { id: uid("analysis-seat"), onchange: () => reseat(Number(e.seatPick.value)) });
  e.hands = h("input", { type: "checkbox", id: uid("analysis-hands"), onchange: () => rehand(e.hands.checked) });
  e.handsBox = h("p", { class: "field check analysis-hands-box" }, e.hands, h("label", { for: e.hands.id }, t("analysis_hands")));
  e.handsNote = h("p", { class: "note analysis-hidden-note" }, t("analysis_hands_hidden"));
  const button = (key, action, fn) =>
    h("button", { type: "button", class: `analysis-btn analysis-${action}`, "data-action": action, onclick: () => fn() }, t(key));
  e.start = button("analysis_start", "start", () => step(0));
  e.back = button("analysis_back", "back", () => step(state.at - 1));
  e.forward = button("analysis_forward", "forward", () => step(state.at + 1));
  e.controls = h("div", { class: "analysis-controls", role: "group", "aria-label": t("replay_controls") }, e.start, e.back, e.forward);
  e.line = h("p", { class: "analysis-line" });
  e.board = h("div", { class: "analysis-board" });
  e.turn = h("p", { class: "analysis-turn" });
  e.moves = h("ol", { class: "analysis-moves", "aria-label": t("analysis_moves") });
  e.movesNote = h("p", { class: "note analysis-moves-note" }, t("analysis_moves"));
  e.follow = button("analysis_follow", "follow", () => tryMove("played"));
  e.status = h("p", { class: "analysis-status", role: "status" });
  e.copy = button("analysis_link", "copy-link", () => copyLink());
  e.positionText = h("textarea", { id: uid("analysis-position"), class: "analysis-position", rows: "3", spellcheck: "false" });
  e.openPosition = button("analysis_open_position", "open-position", () => openPosition());
  e.share = h(
    "div",
    { class: "analysis-share" },
    e.copy,
    h("details", { class: "analysis-text" }, h("summary", {}, t("analysis_position")),
      h("label", { for: e.positionText.id, class: "sr-only" }, t("analysis_position")), e.positionText, e.openPosition),
  );
  e.section = h(
    "section",
    { class: "analysis panel", "data-region": "analysis", "aria-labelledby": titleId, onkeydown: (event) => keys(event) },
    h("h2", { id: titleId }, t("analysis_title")),
    e.where,
    h("p", { class: "analysis-seat-box" }, h("label", { for: e.seatPick.id }, t("analysis_seat")), " ", e.seatPick),
    e.handsBox,
    e.handsNote,
    e.controls,
    e.line,
    e.board,
    h("div", { class: "analysis-side" }, e.turn, e.movesNote, e.moves, e.follow, e.status),
    h("p", { class: "note analysis-keys" }, t("analysis_keys")),
    e.share,
  );
  fill(root, e.section);

  const body = (line) => ({
    table: state.table || null,
    deal: state.table ? state.deal ?? 1 : null,
    move: state.move || 1,
    position: state.table ? null : state.position,
    seat: state.seat,
    line,
    hands: state.hands,
    lang: lang(),
  });

  async function frameAt(line) {
    const ask = body(line);
    const key = JSON.stringify(ask);
    if (!state.frames.has(key)) {
      state.frames.set(key, api("/api/analysis", { method: "POST", body: ask, token }));
    }
    try {
      return await state.frames.get(key);
    } catch (error) {
      state.frames.delete(key);
      throw error;
    }
  }

  async function show(at, { quiet = false } = {}) {
    at = Math.max(0, Math.min(at, state.tried.length));
    state.busy = true;
    e.section.setAttribute("aria-busy", "true");
    fill(e.status, t("analysis_loading"));
    let frame;
    try {
      frame = await frameAt(state.tried.slice(0, at));
    } catch (error) {
      fill(e.status, t("analysis_failed", { error: error.message }));
      state.busy = false;
      e.section.setAttribute("aria-busy", "false");
      if (!quiet) announce(e.status.textContent);
      return;
    }
    state.busy = false;
    e.section.setAttribute("aria-busy", "false");
    fill(e.status);
    state.at = at;
    state.frame = frame;
    if (state.seat === null || state.seat === undefined) state.seat = frame.seat;
    draw(frame);
    if (onLine) onLine({ ...params, seat: state.seat, hands: state.hands, line: state.tried.slice(0, at) });
    if (!quiet) announce(`${e.line.textContent} ${e.turn.textContent}`);
  }

  function draw(frame) {
    const v = frame.view;
    const names = v.names.map(seatName);
    e.where.textContent = frame.where ? t("analysis_where", { deal: frame.where[0], move: frame.where[1] }) : t("analysis_from_text");
    fill(e.seatPick, names.map((name, seat) => h("option", { value: String(seat), selected: seat === frame.seat }, name)));
    e.seatPick.value = String(frame.seat);
    e.seatPick.disabled = !frame.open; // before the end: your own seat only
    e.handsBox.hidden = !frame.open;
    e.handsNote.hidden = frame.open;
    e.hands.checked = state.hands;
    e.line.textContent = frame.line.length ? t("analysis_line", { moves: frame.line.map(moveText).join(" ") }) : t("analysis_line_empty");
    if (!state.surface) {
      state.surface = new TableSurface({ withHand: true });
      fill(e.board, state.surface.element);
    }
    state.surface.set(v);
    for (const [el, off] of [
      [e.start, state.at === 0],
      [e.back, state.at === 0],
      [e.forward, state.at >= state.tried.length],
    ]) {
      el.setAttribute("aria-disabled", off ? "true" : "false");
    }
    const mover = frame.mover;
    if (mover === null) e.turn.textContent = t("analysis_deal_over");
    else e.turn.textContent = t("analysis_to_move", { name: names[mover] });
    e.movesNote.hidden = !frame.moves.length;
    fill(
      e.moves,
      frame.moves.map((move) => {
        const value = move.value === null ? t("analysis_only_move") : valueText(move.value);
        const label = `${t("analysis_move_label", { move: moveWords(move.action), value })}${move.best && move.value !== null ? `, ${t("analysis_best")}` : ""}`;
        return h(
          "li",
          { class: `analysis-move${move.best ? " best" : ""}`, "data-move": move.action, "data-value": move.value === null ? "" : String(move.value) },
          h(
            "button",
            { type: "button", class: "analysis-try", "data-action": "try", "aria-label": label, title: move.reason, onclick: () => tryMove(move.action) },
            move.card ? h("span", { class: "analysis-card" }, face(move.card)) : h("span", { class: "analysis-card take" }, "⤓"),
            h("span", { class: "analysis-name" }, moveText(move.action)),
            h("span", { class: "analysis-value" }, value),
            move.best && move.value !== null ? h("span", { class: "analysis-best" }, t("analysis_best")) : null,
          ),
          h("span", { class: "analysis-why" }, move.reason),
        );
      }),
    );
    e.follow.hidden = !frame.follow;
    e.follow.textContent = frame.recorded ? t("analysis_played", { move: moveText(frame.recorded) }) : t("analysis_follow");
    if (mover !== null && !frame.moves.length) {
      let key = "analysis_left_record"; // the line has left the match, and the cards are hidden
      if (frame.open) key = "analysis_show_hands"; // after the end: every hand may be shown
      else if (frame.follow) key = "analysis_hidden_turn";
      fill(e.status, t(key, { name: names[mover] }));
    } else if (frame.solved === 1) fill(e.status, t("analysis_exact"));
    if (frame.position) e.positionText.value = frame.position;
  }

  function tryMove(action) {
    if (state.busy) return;
    const next = state.tried[state.at];
    const resolved = action === "played" ? state.frame?.recorded || action : action;
    if (next !== resolved) state.tried = [...state.tried.slice(0, state.at), action];
    show(state.at + 1).then(() => {
      // a followed move is kept as the card it was (when the seat may see it), so the link
      // and the line read as moves
      const line = state.frame?.line;
      if (line && line.length === state.at) state.tried.splice(0, line.length, ...line);
    });
  }

  function step(at) {
    if (state.busy || at < 0 || at > state.tried.length || at === state.at) return;
    show(at);
  }

  function reseat(seat) {
    state.seat = seat;
    state.frames.clear();
    show(state.at);
  }

  function rehand(on) {
    state.hands = on;
    show(state.at);
  }

  function link() {
    const line = state.tried.slice(0, state.at);
    return new URL(analysisLink({ ...params, seat: state.seat, hands: state.hands, line }), location.origin).href;
  }

  async function copyLink() {
    const href = link();
    try {
      await navigator.clipboard.writeText(href);
      fill(e.status, t("analysis_copied"));
    } catch {
      fill(e.status, href);
    }
    announce(e.status.textContent);
  }

  function openPosition() {
    const text = e.positionText.value.trim();
    if (!text) return;
    Object.assign(params, { table: null, deal: null, move: 1, position: text, line: [], seat: null });
    Object.assign(state, { table: null, deal: null, move: 1, position: text, seat: null, tried: [], at: 0, hands: false });
    state.frames.clear();
    show(0);
  }

  function keys(event) {
    if (event.target instanceof HTMLSelectElement || event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement) return;
    const moves = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
    if (moves) {
      step(state.at + moves);
      event.preventDefault();
    } else if (event.key === "Home") {
      step(0);
      event.preventDefault();
    }
  }

  const ready = show(state.at, { quiet: true });
  return {
    ready,
    section: e.section,
    get frame() {
      return state.frame;
    },
    destroy() {
      e.section.remove();
    },
  };
}

/** The page at /analysis?...: the board of the position its link names. */
export class AnalysisView {
  constructor(root) {
    this.root = root;
    this.params = linkParams(location.search);
    if (!document.querySelector('link[href="/static/analysis/analysis.css"]')) {
      document.head.append(h("link", { rel: "stylesheet", href: "/static/analysis/analysis.css" }));
    }
    this.mount();
  }

  mount() {
    const onLine = (params) => {
      this.params = params;
      const path = analysisLink(params);
      if (`${location.pathname}${location.search}` !== path) history.replaceState(null, "", path);
    };
    this.board = mountAnalysis(this.root, this.params, { onLine });
  }

  relang() {
    this.board.destroy();
    this.mount();
  }

  destroy() {
    this.board?.destroy();
    this.root = null;
  }
}
