// One table: the waiting room before the start, then the card table (the seats around the felt,
// the pile and the stock in the middle, your hand pinned to the bottom with the message line),
// the pause after each deal, and the end of the match. Every view comes from the server
// (docs/protocol.md): this code draws it and sends back what the person chose; the server holds
// every rule.
import { h, fill, announce, alertNow } from "../dom.js";
import { t, n, cardShort, has, hear, lang, spoken, seatName } from "../i18n.js";
import { sorted } from "../cards.js";
import { api, savedSeat, saveSeat, forgetSeat, TableSocket } from "../net.js";
import { errorText } from "../lobby.js";
import { TableBoard } from "./board.js";
import { Seats } from "./seats.js";
import { renderWaiting } from "./waiting.js";
import { renderScores, pauseHeading } from "./pause.js";
import { askHint, showCount } from "./coachpanels.js";
import { setting, setSetting, signalTurn, chime, bigMoment, celebrate } from "../feedback.js";
import { FairLog } from "./fairlog.js";
import { tableKey } from "./tablekeys.js";
import { Reactions } from "./reactions.js";
import { dailyNote } from "../daily/note.js";

const WARN_AT = 10; // seconds left of a turn timer when "hurry" is said
const ACTION_KINDS = new Set(["action", "deal", "start", "undo"]);

export class TableView {
  constructor(id, root, navigate) {
    this.id = id;
    this.root = root;
    this.navigate = navigate;
    this.summary = null;
    this.view = null;
    this.presence = null;
    this.role = null;
    this.log = new FairLog(); // the last actions, the fair-deal lines folded into one per deal
    this.lastAction = null; // { lines, moment } of the newest action, shown by the pile
    this.focus = 0;
    this.lastTurn = null;
    this.warned = false;
    this.hintFor = null;
    this.countOpen = false;
    this.pending = new Map(); // action id → action
    this.onKey = (event) => tableKey(this, event);
    this.onResize = () => this.fit();
    document.addEventListener("keydown", this.onKey);
    window.addEventListener("resize", this.onResize);
    this.ticker = setInterval(() => this.tick(), 500);
    this.reactions = new Reactions(this); // quick reactions (reactions.js)
    this.skeleton();
    this.start();
  }

  destroy() {
    this.after?.destroy();
    this.reactions.destroy();
    document.removeEventListener("keydown", this.onKey);
    window.removeEventListener("resize", this.onResize);
    clearInterval(this.ticker);
    signalTurn(t("web_title"), false, "");
    if (this.sock) this.sock.close();
  }

  get seat() {
    return this.view && typeof this.view.seat === "number" ? this.view.seat : this.mine?.seat ?? null;
  }

  async start() {
    this.mine = savedSeat(this.id);
    try {
      this.summary = await api(`/api/tables/${this.id}`);
    } catch (error) {
      fill(this.root, h("p", { class: "msg", role: "status" }, errorText(error)),
        h("p", {}, h("a", { href: "/", onclick: (e) => this.home(e) }, t("web_back_lobby"))));
      return;
    }
    this.connect(Math.max(0, (this.summary.seq || 0) - 24));
    this.render();
  }

  /** Open the socket; ``since`` asks for the last events again, to fill the log. */
  connect(since = null) {
    if (this.sock) this.sock.close();
    this.sock = new TableSocket(this.id, {
      token: this.mine?.token,
      lang: lang(),
      onMessage: (msg) => this.receive(msg),
      onState: (state) => this.connection(state),
    });
    if (since !== null) this.sock.replayFrom = since;
    this.sock.open();
  }

  home(event) {
    event?.preventDefault();
    this.navigate("/");
  }

  /** The page's language changed: draw everything again, and ask the server for the last
   * events again in the new language (the log and the last action are its words). */
  relang() {
    this.skeleton();
    this.render();
    if (!this.sock) return;
    this.log = new FairLog();
    this.lastAction = null;
    this.sock.relang(lang(), Math.max(0, (this.sock.seq || 0) - 24));
    if (this.countOpen) this.counting();
    this.review?.relang(); // each deal's review and the replay, in the new language
    if (this.liveReplay) fill(this.liveReplay);
    this.after?.relang();
  }

  // ------------------------------------------------------------------ messages

  connection(state) {
    this.connState = state;
    const text = { connecting: t("web_connecting"), open: "", lost: t("web_reconnecting") }[state];
    if (this.el.conn) this.el.conn.textContent = text;
  }

  receive(msg) {
    switch (msg.type) {
      case "welcome":
        this.role = msg.role;
        if (msg.role === "player" && this.mine) this.mine.seat = msg.seat;
        this.reactions.render();
        break;
      case "reaction":
        this.reactions.show(msg);
        break;
      case "snapshot":
        this.view = msg.view && msg.view.players ? msg.view : null;
        this.render();
        break;
      case "event":
        this.event(msg);
        break;
      case "presence":
        this.presence = msg;
        this.render();
        break;
      case "error":
        this.refused(msg);
        break;
      case "ack":
        this.pending.delete(msg.id);
        break;
      default:
        break;
    }
  }

  event(msg) {
    hear(msg.text, msg.spoken); // the server's words for each line, for spoken()
    const engine = this.log.add(msg); // the lines that are not the fair deal's
    if (!msg.catchup) for (const line of engine) announce(spoken(line));
    let moment = null;
    for (const item of msg.data?.events || []) moment = moment || bigMoment(item);
    if (ACTION_KINDS.has(msg.kind) && engine.length) this.lastAction = { lines: engine, moment, seq: msg.seq };
    if (["join", "leave", "start", "close", "rematch"].includes(msg.kind)) this.reloadSummary();
    if (msg.kind === "commit" && this.role === "player" && setting("ownSeed")) this.addSeed(msg.data.deal);
    if (msg.view) {
      this.view = msg.view.players ? msg.view : this.view;
      this.render();
      if (moment && !msg.catchup) celebrate(this.el.last, moment);
      if (this.countOpen) this.counting();
    }
  }

  /** Our own random seed for a deal whose server seed is committed (docs/fair.md): the server
   * cannot choose the deck. Sent once per deal; deal 1's too (it may come as a catch-up). */
  addSeed(deal) {
    this.seeded = this.seeded || new Set();
    if (this.seeded.has(deal)) return;
    this.seeded.add(deal);
    const data = crypto.getRandomValues(new Uint8Array(32));
    const seed = Array.from(data, (b) => b.toString(16).padStart(2, "0")).join("");
    // after a catch-up the deal may be dealt already: the server then says seed_closed (ignored)
    setTimeout(() => {
      if (!this.log.dealt(deal)) this.sock.send({ type: "seed", deal, seed });
    }, 0);
  }

  async reloadSummary() {
    try {
      this.summary = await api(`/api/tables/${this.id}`);
      this.render();
    } catch {
      /* the next event tries again */
    }
  }

  refused(msg) {
    if (msg.reason === "reactions") return this.reactions.refused();
    if (msg.code === "bad_token" && !this.role && this.mine) {
      // the server does not know this seat (an old table): forget it and watch instead
      forgetSeat(this.id);
      this.mine = null;
      this.say(t("web_err_bad_token"));
      this.connect();
      return;
    }
    if (msg.code === "seed_closed") return; // our seed came after the deal: nothing to tell
    this.pending.delete(msg.id);
    let text;
    if (msg.code === "illegal") text = this.illegalText(msg);
    else if (msg.code === "no_undo" && has(`tui_undo_${msg.reason}`)) {
      text = t(`tui_undo_${msg.reason}`);
      this.undoRefused = { reason: msg.reason, at: this.undoKey() }; // until the table moves on
      this.renderHand();
    }
    else if (has(`web_err_${msg.code}`)) text = t(`web_err_${msg.code}`);
    else text = t("web_err_other", { message: msg.message });
    this.say(t("web_refused", { reason: text }));
  }

  /** The engine's reason for a refused move (the error's `reason`), in the page's language. */
  illegalText(msg) {
    const v = this.view;
    if (msg.reason === "must_foxtrot" && v?.legal?.length) {
      const cards = v.legal.filter((a) => a !== "take").map(cardShort).join(", ");
      return t("tui_illegal_must_foxtrot", { cards });
    }
    if (msg.reason && has(`tui_illegal_${msg.reason}`)) return t(`tui_illegal_${msg.reason}`);
    return t("web_err_other", { message: msg.message });
  }

  /** Show ``text`` on the message line by the hand (and in the waiting room), and say it.
   * ``tone`` "ok" is good news (a link copied); anything else is a refusal or a warning. */
  say(text, tone = "warn") {
    for (const line of [this.el.msg, this.el.waitMsg]) {
      line.textContent = text;
      line.dataset.tone = tone;
    }
    this.el.game.dataset.said = String(Number(this.el.game.dataset.said || 0) + 1);
    announce(text);
  }

  // ------------------------------------------------------------------- actions

  act(action) {
    if (!this.sock) return;
    if (this.role !== "player") {
      this.say(t("web_refused", { reason: t("web_err_spectator") }));
      return;
    }
    if (!this.myTurn()) {
      this.say(t("web_refused", { reason: t("web_err_not_your_turn") }));
      return;
    }
    this.el.msg.textContent = "";
    const { id, sent } = this.sock.act(action); // resent until answered (net.js)
    this.pending.set(id, action);
    if (!sent) this.say(t("web_reconnecting"));
  }

  /** A key that plays nothing: say so, and which keys do. */
  sayNoKey(key) {
    this.say(t("web_no_key", { key }));
  }

  hand() {
    return sorted(this.view?.hand || []);
  }

  playIndex(index) {
    const hand = this.hand();
    if (index < hand.length) this.act(hand[index]);
    else this.say(t("tui_no_such_card"));
  }

  myTurn() {
    const v = this.view;
    return !!v && v.phase === "playing" && v.to_move === v.seat && typeof v.seat === "number";
  }

  hint() {
    return askHint(this);
  }

  closeHint() {
    this.hintFor = null;
    this.el.hint.hidden = true;
    this.renderHand();
  }

  counting() {
    return showCount(this);
  }

  closeCount() {
    this.countOpen = false;
    this.el.count.hidden = true;
    this.el.countBtn.focus();
  }

  /** Undo is for one person against computers (the terminal game's rule). */
  alone() {
    return (this.summary?.seats || []).filter((seat) => seat.kind === "person").length === 1;
  }

  undo() {
    if (this.role !== "player" || !this.sock) return;
    const refusal = this.view && this.undoRefusal();
    if (refusal) {
      this.say(t("web_refused", { reason: refusal }));
      return;
    }
    this.el.msg.textContent = "";
    this.sock.send({ type: "undo" });
  }

  /** Ask for the rematch (the first asker creates it; the others join their seats in it). */
  async rematch() {
    try {
      const made = await api(`/api/tables/${this.id}/rematch`, { method: "POST", token: this.mine.token });
      saveSeat(made.table, made.seat, made.token);
      this.navigate(`/t/${made.table}`);
    } catch (error) {
      this.say(errorText(error));
    }
  }

  nextDeal() {
    const v = this.view;
    if (!v || !this.sock) return;
    this.sock.send({ type: "next_deal", deal: v.deal_scores.length - 1 });
    this.pressedNext = v.deal_scores.length;
    this.render();
  }

  focusHand() {
    const buttons = this.board.handCards();
    if (!buttons.length) return;
    this.focus = Math.min(this.focus, buttons.length - 1);
    buttons.forEach((b, i) => b.setAttribute("tabindex", i === this.focus ? "0" : "-1"));
    buttons[this.focus].focus();
  }

  showScores() {
    this.el.scores.hidden = false;
    this.el.scores.scrollIntoView({ block: "start" });
    this.el.scores.focus();
  }

  toggle(name, button) {
    const on = !setting(name);
    setSetting(name, on);
    button.setAttribute("aria-pressed", String(on));
    if (name === "markTakes") this.renderHand();
  }

  // ----------------------------------------------------------------- drawing

  skeleton() {
    const e = {};
    const old = this.el;
    e.title = h("h2", { id: "t-title" });
    e.turn = h("p", { id: "t-turn", class: "turn", "data-region": "turn" });
    e.timer = h("span", { id: "t-timer", class: "timer" });
    e.conn = h("p", { id: "t-conn", class: "conn" });
    e.waitMsg = h("p", { id: "t-wait-msg", class: "msg" });
    e.wait = h("section", { id: "t-wait", class: "panel", "aria-labelledby": "t-title" });
    e.players = h("section", { id: "t-players", class: "ring", "aria-label": t("web_players_label") });
    e.pile = h("section", { id: "t-pile", class: "pile-area", "aria-labelledby": "pile-title" });
    e.last = h("p", { id: "t-last", class: "last-action", "data-region": "last-action" });
    e.count = h("section", { id: "t-count", class: "panel overlay", hidden: true, "aria-live": "off" });
    e.pause = h("section", { id: "t-pause", class: "panel overlay pause", hidden: true, role: "dialog",
      "aria-modal": "false", "aria-labelledby": "pause-title" });
    e.felt = h("div", { id: "t-felt", class: "felt" }, e.players,
      h("div", { class: "center" }, e.pile, e.last), e.count, e.pause);
    e.handTitle = h("h3", { id: "hand-title", class: "hand-title" });
    e.own = h("div", { class: "own-seat" });
    e.hand = h("div", { id: "hand", class: "hand", role: "toolbar", "aria-labelledby": "hand-title", "data-region": "hand",
      onclick: (event) => this.handClick(event), onkeydown: (event) => this.handKey(event),
      onfocusin: (event) => { const i = this.board.handCards().indexOf(event.target); if (i >= 0) this.focus = i; } });
    const button = (id, label, onclick, action) => h("button", { type: "button", id, onclick, "data-action": action }, label);
    e.take = button("take", t("web_take"), () => this.act("take"));
    e.hintBtn = button("hint-btn", t("web_hint"), () => this.hint(), "hint");
    e.countBtn = button("count-btn", t("web_counting"), () => this.counting());
    e.scoresBtn = button("scores-btn", t("web_scores"), () => this.showScores());
    e.undo = button("undo-btn", t("web_undo"), () => this.undo(), "undo");
    const toggle = (id, name, label) => {
      const node = h("button", { type: "button", id, class: "toggle", "aria-pressed": String(setting(name)) }, label);
      node.addEventListener("click", () => this.toggle(name, node));
      return node;
    };
    e.toggles = [toggle("mark-takes", "markTakes", t("web_mark_takes")), toggle("sound-btn", "sound", t("web_sound")),
      toggle("own-seed", "ownSeed", t("web_own_seed"))];
    e.msg = h("p", { id: "t-msg", class: "msg", "data-region": "message" });
    e.hint = h("section", { id: "t-hint", class: "hint-box", hidden: true, "aria-live": "off" });
    e.mine = h("section", { id: "t-mine", class: "dock", "aria-labelledby": "hand-title" },
      h("div", { class: "dock-head" }, e.own, e.handTitle), e.msg, e.hint, e.hand,
      h("div", { class: "actions" }, e.take, e.hintBtn, e.undo, e.countBtn, e.scoresBtn));
    e.logList = h("ol", { id: "log-list", class: "log", tabindex: "0", "aria-labelledby": "log-title" });
    e.log = h("section", { id: "t-log", class: "panel", "aria-labelledby": "log-title" },
      h("h3", { id: "log-title" }, t("web_log")), e.logList);
    e.over = h("section", { id: "t-over", class: "panel over match-end", hidden: true, "data-region": "match-end",
      "aria-labelledby": "over-title" });
    e.review = old?.review || h("div", { id: "t-review" }); // each deal's review (pause.js), kept
    e.after = old?.after || h("div", { id: "t-after" }); // a review keeps its work across a redraw
    e.scores = h("section", { id: "t-scores", class: "panel", tabindex: "-1", hidden: true, "aria-labelledby": "scores-title" });
    e.keys = h("p", { id: "t-keys", class: "note keys" }, h("strong", {}, `${t("web_keys_title")}: `), t("web_keys_help"));
    e.settings = h("div", { class: "row settings", role: "group", "aria-label": t("web_settings") }, e.toggles);
    e.arena = h("div", { class: "arena" }, e.felt, e.mine);
    e.game = h("div", { id: "t-game", class: "game", hidden: true },
      e.arena, e.over, e.review, e.after, e.log, e.scores, e.settings, e.keys);
    this.el = e;
    this.reactions.mount(e.mine.querySelector(".actions"), e.settings);
    this.seats = new Seats(e.players, e.own);
    this.board = new TableBoard(e.hand, e.game, this.seats);
    fill(e.pile, this.board.area);
    fill(this.root,
      h("div", { class: "table-head" }, e.title, h("div", { class: "row" }, e.turn, e.timer), e.conn),
      e.wait, e.game);
    if (this.connState) this.connection(this.connState);
  }

  /** Size the arena to the window below its top: the felt, the hand and the message line are
   * always in view; the log, the score sheet and the review are below. */
  fit() {
    const arena = this.el.arena;
    if (!arena || this.el.game.hidden) return;
    const top = arena.getBoundingClientRect().top + window.scrollY;
    arena.style.height = `${Math.max(340, window.innerHeight - top - 4)}px`;
    this.fitPile();
  }

  /** The pile's cards as large as the felt allows: the room left between the seats and the
   * last action, for the stock and the pile's cards in as few rows as fit. */
  fitPile() {
    const e = this.el;
    const size = this.view?.pile?.length || 1;
    const width = e.felt.clientWidth - 24;
    const room = e.felt.clientHeight - e.players.offsetHeight - e.last.offsetHeight - 44;
    if (width <= 0 || room <= 0) return;
    const label = e.pile.querySelector(".pile-label")?.offsetHeight || 20;
    const countNode = e.pile.querySelector(".stock-count");
    const count = countNode?.offsetHeight || 20;
    const countWide = countNode?.offsetWidth || 0;
    const step = size > 14 ? 0.22 : size > 7 ? 0.32 : 0.45; // the pile's overlap (board.js)
    let w = 150;
    for (; w > 44; w -= 2) {
      const perRow = Math.max(1, Math.floor(((width - Math.max(w * 0.8, countWide) - 16) / w - 1) / step) + 1);
      const rows = Math.ceil(size / perRow);
      if (Math.max(rows * (w * 1.4 + 5) + label, w * 1.4 + count + 4) <= room) break;
    }
    const value = `${w}px`;
    if (e.felt.style.getPropertyValue("--pile-w") !== value) e.felt.style.setProperty("--pile-w", value);
    // the card count stays below the seats, lifted ones (their transform) included
    const feltTop = e.felt.getBoundingClientRect().top;
    let below = e.players.getBoundingClientRect().bottom;
    for (const seat of e.players.querySelectorAll(".seat")) below = Math.max(below, seat.getBoundingClientRect().bottom);
    e.felt.style.setProperty("--ring-h", `${Math.ceil(below - feltTop)}px`);
  }

  render() {
    if (!this.summary) return;
    const v = this.view;
    const e = this.el;
    if (!v) {
      signalTurn(`${t("web_title")} — ${this.summary.table.slice(0, 6)}`, false, "");
      renderWaiting(this);
      e.wait.hidden = false;
      e.game.hidden = true;
      return;
    }
    e.wait.hidden = true;
    e.game.hidden = false;
    e.arena.hidden = v.phase === "over"; // the match-end screen takes the felt's place
    e.game.dataset.seq = String(this.sock?.seq ?? 0); // for tests: the view's sequence number
    e.game.dataset.phase = v.phase;
    e.game.dataset.players = String(v.players);
    e.title.textContent = v.phase === "over"
      ? n("web_match_after", v.deal + 1, { target: v.options.target })
      : v.phase === "awaiting_deal" && v.deal < 0
        ? t("web_waiting_deal") : t("web_deal_of", { deal: v.deal + 1, target: v.options.target });
    this.renderTurn();
    this.renderSeats();
    this.renderLast();
    this.renderHand();
    this.renderLog();
    this.renderScores();
    if (this.hintFor && !this.myTurn()) this.closeHint();
    dailyNote(this); // a deal of the day's table leads to its result (daily/note.js)
    this.fit();
  }

  name(seat) {
    return seatName(this.view?.names?.[seat] ?? this.summary?.seats?.[seat]?.name) ?? t("web_seat_n", { n: seat + 1 });
  }

  renderTurn() {
    const v = this.view;
    const e = this.el;
    let text = "";
    if (v.phase === "playing" && v.to_move !== null) {
      text = this.myTurn() ? t("web_your_turn") : t("web_turn_of", { name: this.name(v.to_move) });
    } else if (v.phase === "awaiting_deal") text = pauseHeading(this, true) ?? t("web_waiting_deal");
    // over: the match-end screen says so in its heading
    e.turn.textContent = text;
    e.turn.classList.toggle("mine", this.myTurn());
    signalTurn(`${t("web_title")} — ${this.summary.table.slice(0, 6)}`, this.myTurn(), t("web_your_turn"));
    const turnKey = this.myTurn() ? `${v.deal}:${v.history.length}` : null;
    if (turnKey && turnKey !== this.lastTurn) {
      alertNow(t("web_your_turn"));
      chime();
      this.warned = false;
    }
    this.lastTurn = turnKey;
    this.tick();
  }

  tick() {
    const p = this.presence;
    const e = this.el;
    if (!e || !this.view) return;
    const now = Date.now() / 1000;
    if (p && p.turn_deadline && this.view.phase === "playing") {
      const left = Math.max(0, Math.ceil(p.turn_deadline - now));
      e.timer.textContent = n("web_timer", left);
      const lit = this.root.querySelector(".seat.to-move");
      lit?.style.setProperty("--time-left", String(Math.min(1, left / (this.turnSpan(p) || 1))));
      if (this.myTurn() && left <= WARN_AT && left > 0 && !this.warned) {
        this.warned = true;
        alertNow(n("web_timer_warn", left));
      }
    } else e.timer.textContent = "";
    for (const cell of this.root.querySelectorAll("[data-away]")) {
      const left = Math.max(0, Math.ceil(Number(cell.dataset.away) - now));
      const said = n("web_away", left);
      if (cell.textContent !== said) cell.textContent = said;
    }
    const pauseLeft = e.pause.querySelector("[data-until]");
    if (pauseLeft) pauseLeft.textContent = n("web_next_in", Math.max(0, Math.ceil(Number(pauseLeft.dataset.until) - now)));
  }

  /** The whole length of the running turn timer, for the ring (first seen deadline). */
  turnSpan(p) {
    if (this.spanFor !== p.turn_deadline) {
      this.spanFor = p.turn_deadline;
      this.span = Math.max(1, p.turn_deadline - Date.now() / 1000);
    }
    return this.span;
  }

  renderSeats() {
    this.seats.set(this.view, this.presence);
  }

  renderLast() {
    const e = this.el;
    const last = this.lastAction;
    e.last.textContent = last ? last.lines.join(" ") : "";
    e.last.hidden = !last;
    if (!last?.moment) delete e.last.dataset.moment;
  }

  /** The cards (every stock, the player's hand with its marks) and the buttons by the hand. */
  renderHand() {
    const v = this.view;
    const e = this.el;
    const isPlayer = typeof v.seat === "number";
    e.mine.hidden = !isPlayer;
    e.arena.classList.toggle("watching", !isPlayer);
    const hand = isPlayer ? this.hand() : [];
    const hadFocus = e.hand.contains(document.activeElement);
    const mine = this.myTurn();
    this.focus = Math.min(this.focus, Math.max(hand.length - 1, 0));
    this.board.set(v, {
      mine,
      legal: new Set(v.legal || []),
      marks: mine && setting("markTakes") ? v.effects || {} : {},
      hinted: this.hintFor,
      focus: this.focus,
    });
    if (!isPlayer) return;
    const title = hand.length ? n("web_hand_label", hand.length) : t("web_hand_empty");
    if (e.handTitle.textContent !== title) e.handTitle.textContent = title;
    e.hand.style.setProperty("--n", String(Math.max(hand.length, 2)));
    e.take.hidden = v.options.take !== "any";
    e.undo.hidden = !this.alone() || v.phase !== "playing";
    const refusal = this.undoRefusal();
    // refused: marked disabled but still focusable, so the reason is heard and seen on focus
    // (its title) as on hover; pressed anyway, it says the reason and sends nothing
    if (refusal) {
      e.undo.setAttribute("aria-disabled", "true");
      e.undo.title = refusal;
    } else {
      e.undo.removeAttribute("aria-disabled");
      e.undo.removeAttribute("title");
    }
    e.hintBtn.disabled = !mine;
    e.countBtn.disabled = v.phase !== "playing";
    if (hadFocus) this.focusHand();
  }

  /** Where the deal is: an undo refused here stays refused until it moves on. */
  undoKey() {
    const v = this.view;
    return v ? `${v.deal}:${v.history.length}:${v.stock}` : "";
  }

  /** Why an undo would be refused now, in words (null: it may be allowed): no move of yours in
   * this deal's history, the rules' refusal your view carries (``undo_refused``), or the
   * server's refusal of an undo at this very point of the deal. */
  undoRefusal() {
    const v = this.view;
    if (!v.history.some(([seat]) => seat === v.seat)) return t("tui_undo_none");
    // the server's word on the rules (a redeal since your move: too late), sent in your view
    if (v.undo_refused && has(`tui_undo_${v.undo_refused}`)) return t(`tui_undo_${v.undo_refused}`);
    const refused = this.undoRefused;
    if (refused && refused.at === this.undoKey() && has(`tui_undo_${refused.reason}`)) return t(`tui_undo_${refused.reason}`);
    return null;
  }

  /** A card of the hand chosen by a click or a tap. */
  handClick(event) {
    const card = event.target.closest?.(".card");
    if (!card || !this.el.hand.contains(card)) return;
    this.focus = this.board.handCards().indexOf(card);
    this.act(card.dataset.card);
  }

  /** Enter or Space on a card of the hand plays it. */
  handKey(event) {
    if (event.key !== "Enter" && event.key !== " ") return;
    const card = event.target.closest?.(".card");
    if (!card || !this.el.hand.contains(card)) return;
    event.preventDefault();
    event.stopPropagation();
    this.focus = this.board.handCards().indexOf(card);
    this.act(card.dataset.card);
  }

  renderLog() {
    this.log.render(this.el.logList);
  }

  renderScores() {
    renderScores(this);
  }
}
