// One table: the waiting room before the start, then the game (hand, pile, players, log,
// score sheet). Every view comes from the server (docs/protocol.md): this code draws it and
// sends back what the person chose; the server holds every rule.
import { h, fill, announce, alertNow } from "./dom.js";
import { t, n, cardName, cardShort, has, lang, spoken, seatName, isComputerName } from "./i18n.js";
import { face, sorted } from "./cards.js";
import { api, savedSeat, saveSeat, forgetSeat, TableSocket } from "./net.js";
import { errorText } from "./lobby.js";
import { openRules, scoreSheet } from "./panels.js";
import { pileNodes, playerNodes } from "./board.js";
import { mountAfterMatch } from "./replay.js";
import { flyTake, pileRects } from "./animate.js";
import { CARD_KEYS, keyOf } from "./keys.js";

const WARN_AT = 10; // seconds left of a turn timer when "hurry" is said
const LOG_LINES = 40;

function capital(text) {
  return text ? text[0].toLocaleUpperCase(lang()) + text.slice(1) : text;
}

function randomHex(bytes) {
  const data = crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(data, (b) => b.toString(16).padStart(2, "0")).join("");
}

export class TableView {
  constructor(id, root, navigate) {
    this.id = id;
    this.root = root;
    this.navigate = navigate;
    this.summary = null;
    this.view = null;
    this.presence = null;
    this.role = null;
    this.log = [];
    this.focus = 0;
    this.played = null; // the card just played, to animate
    this.lastTurn = null;
    this.warned = false;
    this.hintFor = null;
    this.pending = new Map(); // action id → action
    this.onKey = (event) => this.key(event);
    document.addEventListener("keydown", this.onKey);
    this.ticker = setInterval(() => this.tick(), 500);
    this.skeleton();
    this.start();
  }

  destroy() {
    this.after?.destroy();
    document.removeEventListener("keydown", this.onKey);
    clearInterval(this.ticker);
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
    if (since !== null) this.sock.seq = since;
    this.sock.open();
  }

  home(event) {
    event?.preventDefault();
    this.navigate("/");
  }

  relang() {
    this.after?.destroy();
    this.after = null;
    this.skeleton();
    this.render();
    if (this.sock) this.sock.relang(lang());
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
    for (const line of msg.text || []) {
      this.log.push(line);
      if (!msg.catchup) announce(spoken(line));
    }
    this.log = this.log.slice(-LOG_LINES);
    let take = null; // a take: its cards fly from the pile to the taker (animate.js)
    for (const item of msg.data?.events || []) {
      if (item.event === "card_played" && !msg.catchup) this.played = { card: item.card, seq: msg.seq };
      if (!msg.catchup && item.taken?.length && ["card_played", "pile_taken"].includes(item.event)) {
        take = { seat: item.seat, cards: item.taken };
      }
    }
    const from = take && msg.view ? pileRects(this.el.pile) : null;
    if (["join", "leave", "start", "close"].includes(msg.kind)) this.reloadSummary();
    if (msg.kind === "commit" && this.role === "player" && !msg.catchup) {
      // a seed of our own for the coming deal (docs/fair.md): the server cannot choose the deck
      this.sock.send({ type: "seed", deal: msg.data.deal, seed: randomHex(32) });
    }
    if (msg.view) {
      this.view = msg.view.players ? msg.view : this.view;
      this.render();
      if (from) {
        const row = this.el.players.querySelectorAll("tbody tr")[take.seat];
        const flown = flyTake(take.cards, from, row?.children[2] || row);
        this.el.game.dataset.flights = String(Number(this.el.game.dataset.flights || 0) + (flown ? 1 : 0));
        this.el.game.dataset.takes = String(Number(this.el.game.dataset.takes || 0) + 1);
      }
    }
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
    if (msg.code === "bad_token" && !this.role && this.mine) {
      // the server does not know this seat (an old table): forget it and watch instead
      forgetSeat(this.id);
      this.mine = null;
      this.say(t("web_err_bad_token"));
      this.connect();
      return;
    }
    this.pending.delete(msg.id);
    let text;
    if (msg.code === "illegal") text = this.illegalText(msg);
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

  say(text) {
    this.el.msg.textContent = text;
    announce(text);
  }

  // ------------------------------------------------------------------- actions

  act(action) {
    if (!this.sock) return;
    if (this.role !== "player") {
      this.say(t("web_refused", { reason: t("web_err_spectator") }));
      return;
    }
    this.el.msg.textContent = "";
    const { id, sent } = this.sock.act(action); // resent until answered (net.js)
    this.pending.set(id, action);
    if (!sent) this.say(t("web_reconnecting"));
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

  async hint() {
    if (!this.mine || !this.myTurn()) {
      this.say(t("web_err_not_your_turn"));
      return;
    }
    const seq = this.sock.seq;
    fill(this.el.hint, h("p", {}, t("web_hint_wait")));
    this.el.hint.hidden = false;
    try {
      const found = await api(`/api/tables/${this.id}/hint`, {
        method: "POST", token: this.mine.token, body: { lang: lang() },
      });
      if (this.sock.seq !== seq) return; // the table moved on: the hint is for an old position
      const what = found.card ? t("web_hint_play", { card: cardName(found.card) }) : t("web_hint_take");
      this.hintFor = found.action;
      fill(this.el.hint,
        h("h3", {}, t("tui_hint_title")),
        h("p", { id: "hint-text" }, h("strong", {}, what), " ", capital(found.reason)),
        h("button", { type: "button", id: "hint-play", onclick: () => this.act(found.action) }, t("web_hint_play_it")));
      announce(`${what} ${capital(found.reason)}`);
    } catch (error) {
      fill(this.el.hint, h("p", { class: "msg" }, errorText(error)));
      announce(errorText(error));
    }
  }

  async counting() {
    if (!this.mine || !this.view || this.view.phase !== "playing") {
      this.say(t("web_err_not_started"));
      return;
    }
    try {
      const found = await api(`/api/tables/${this.id}/count?lang=${lang()}`, { token: this.mine.token });
      fill(this.el.count, h("h3", {}, t("web_counting")), h("ul", {}, found.counting.map((line) => h("li", {}, line))));
      this.el.count.hidden = false;
      announce(found.counting.join(" "));
    } catch (error) {
      this.say(errorText(error));
    }
  }

  async join(event) {
    event.preventDefault();
    const name = this.el.joinName.value.trim();
    if (!name) {
      this.say(t("web_name_needed"));
      this.el.joinName.focus();
      return;
    }
    localStorage.setItem("foxtrot.name", name);
    try {
      const joined = await api(`/api/tables/${this.id}/join`, { method: "POST", body: { name } });
      saveSeat(this.id, joined.seat, joined.token);
      this.mine = { seat: joined.seat, token: joined.token };
      this.connect();
      await this.reloadSummary();
    } catch (error) {
      this.say(errorText(error));
    }
  }

  async leave() {
    try {
      await api(`/api/tables/${this.id}/leave`, { method: "POST", token: this.mine.token });
      forgetSeat(this.id);
      this.navigate("/");
    } catch (error) {
      this.say(errorText(error));
    }
  }

  key(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target.closest && target.closest("input, select, textarea, dialog")) return;
    if (document.querySelector("dialog[open]")) return;
    if (target.closest && target.closest("#t-after")) return; // the replay has its own keys
    if (this.view?.phase === "over" && !["r", "s"].includes(keyOf(event))) return;
    const key = keyOf(event);
    const inHand = target.closest && target.closest("#hand");
    if ((key === "ArrowLeft" || key === "ArrowRight" || key === "Home" || key === "End") && this.view?.hand) {
      const size = this.hand().length;
      if (!size) return;
      if (inHand) {
        if (key === "ArrowLeft") this.focus = (this.focus - 1 + size) % size;
        else if (key === "ArrowRight") this.focus = (this.focus + 1) % size;
        else this.focus = key === "Home" ? 0 : size - 1;
      }
      event.preventDefault();
      this.focusHand();
      return;
    }
    const commands = {
      t: () => this.act("take"),
      h: () => this.hint(),
      c: () => this.counting(),
      s: () => this.showScores(),
      r: () => openRules(),
    };
    if (commands[key]) {
      event.preventDefault();
      commands[key]();
      return;
    }
    const index = CARD_KEYS.indexOf(key);
    if (index >= 0 && this.view?.hand) {
      event.preventDefault();
      this.focus = Math.min(index, Math.max(this.hand().length - 1, 0));
      this.playIndex(index);
    }
  }

  focusHand() {
    const buttons = this.el.hand.querySelectorAll("button");
    if (!buttons.length) return;
    this.focus = Math.min(this.focus, buttons.length - 1);
    buttons.forEach((b, i) => b.setAttribute("tabindex", i === this.focus ? "0" : "-1"));
    buttons[this.focus].focus();
  }

  showScores() {
    this.el.scores.hidden = false;
    this.el.scores.focus();
  }

  // ----------------------------------------------------------------- drawing

  skeleton() {
    const e = {};
    e.title = h("h2", { id: "t-title" });
    e.turn = h("p", { id: "t-turn", class: "turn" });
    e.timer = h("span", { id: "t-timer", class: "timer" });
    e.conn = h("p", { id: "t-conn", class: "conn" });
    e.wait = h("section", { id: "t-wait", class: "panel", "aria-labelledby": "t-title" });
    e.players = h("section", { id: "t-players", class: "panel", "aria-label": t("web_players_label") });
    e.pile = h("section", { id: "t-pile", class: "pile-area", "aria-labelledby": "pile-title" });
    e.handTitle = h("h3", { id: "hand-title" });
    e.hand = h("div", { id: "hand", class: "hand", role: "toolbar", "aria-labelledby": "hand-title" });
    e.take = h("button", { type: "button", id: "take", onclick: () => this.act("take") }, t("web_take"));
    e.hintBtn = h("button", { type: "button", id: "hint-btn", onclick: () => this.hint() }, t("web_hint"));
    e.countBtn = h("button", { type: "button", id: "count-btn", onclick: () => this.counting() }, t("web_counting"));
    e.scoresBtn = h("button", { type: "button", id: "scores-btn", onclick: () => this.showScores() }, t("web_scores"));
    e.msg = h("p", { id: "t-msg", class: "msg" });
    e.hint = h("section", { id: "t-hint", class: "panel", hidden: true, "aria-live": "off" });
    e.count = h("section", { id: "t-count", class: "panel", hidden: true });
    e.mine = h("section", { id: "t-mine", class: "mine", "aria-labelledby": "hand-title" },
      e.handTitle, e.hand, h("div", { class: "actions" }, e.take, e.hintBtn, e.countBtn, e.scoresBtn), e.msg);
    e.logList = h("ol", { id: "log-list", class: "log", tabindex: "0", "aria-labelledby": "log-title" });
    e.log = h("section", { id: "t-log", class: "panel", "aria-labelledby": "log-title" },
      h("h3", { id: "log-title" }, t("web_log")), e.logList);
    e.over = h("section", { id: "t-over", class: "panel over", hidden: true, "aria-labelledby": "over-title" });
    e.after = h("div", { id: "t-after" });
    e.scores = h("section", { id: "t-scores", class: "panel", tabindex: "-1", hidden: true, "aria-labelledby": "scores-title" });
    e.keys = h("p", { id: "t-keys", class: "note keys" }, h("strong", {}, `${t("web_keys_title")}: `), t("web_keys_help"));
    e.game = h("div", { id: "t-game", class: "game", hidden: true },
      h("div", { class: "board" }, e.pile, e.players), e.mine, e.hint, e.count, e.over, e.scores, e.after, e.log, e.keys);
    this.el = e;
    fill(this.root,
      h("div", { class: "table-head" }, e.title, h("div", { class: "row" }, e.turn, e.timer), e.conn),
      e.wait, e.game);
    if (this.connState) this.connection(this.connState);
  }

  render() {
    if (!this.summary) return;
    const v = this.view;
    const e = this.el;
    document.title = `${t("web_title")} — ${this.summary.table.slice(0, 6)}`;
    if (!v) {
      this.renderWaiting();
      e.wait.hidden = false;
      e.game.hidden = true;
      return;
    }
    e.wait.hidden = true;
    e.game.hidden = false;
    e.game.dataset.seq = String(this.sock?.seq ?? 0); // for tests: the view's sequence number
    e.game.dataset.phase = v.phase;
    const target = v.options.target;
    e.title.textContent = v.phase === "awaiting_deal" && v.deal < 0
      ? t("web_waiting_deal") : t("web_deal_of", { deal: v.deal + 1, target });
    this.renderTurn();
    this.renderPile();
    this.renderPlayers();
    this.renderHand();
    this.renderLog();
    this.renderScores();
    if (this.hintFor && !this.myTurn()) {
      this.hintFor = null;
      e.hint.hidden = true;
    }
  }

  renderWaiting() {
    const s = this.summary;
    const e = this.el;
    e.title.textContent = this.role === "spectator" && !this.mine ? t("web_you_watch") : t("web_waiting");
    e.turn.textContent = "";
    const link = new URL(s.invite, location.href).href;
    const linkBox = h("input", { id: "invite-link", type: "text", readonly: true, value: link, "aria-labelledby": "invite-label" });
    const copy = h("button", { type: "button", id: "copy-link", onclick: async () => {
      try {
        await navigator.clipboard.writeText(link);
        this.say(t("web_copied"));
      } catch {
        linkBox.select();
        this.say(t("web_copy_failed"));
      }
    } }, t("web_copy"));
    const seats = h("ul", { class: "seat-list" }, s.seats.map((seat) => h("li", {},
      `${t("web_seat_n", { n: seat.seat + 1 })}: `,
      seat.kind !== "person" ? (isComputerName(seat.name) ? seatName(seat.name) : `${seat.name || ""} (${t(`web_kind_${seat.kind}`)})`)
        : seat.taken ? `${seat.name}${this.mine?.seat === seat.seat ? ` (${t("web_you")})` : ""}` : t("web_seat_free"))));
    const free = s.seats.some((seat) => seat.kind === "person" && !seat.taken);
    // the waiting room is drawn anew at every presence change: keep what is being typed
    const typed = e.joinName?.value;
    const typing = e.joinName !== undefined && document.activeElement === e.joinName;
    e.joinName = h("input", { id: "join-name", type: "text", maxlength: 40, value: typed ?? (localStorage.getItem("foxtrot.name") || "") });
    const joinForm = !this.mine && free && s.status === "open"
      ? h("form", { id: "join-form", onsubmit: (ev) => this.join(ev) },
        h("div", { class: "field" }, h("label", { for: "join-name" }, t("web_your_name")), e.joinName),
        h("button", { type: "submit", class: "primary", id: "join-btn" }, t("web_join_this")))
      : null;
    const leave = this.mine && s.status === "open"
      ? h("button", { type: "button", id: "leave-btn", onclick: () => this.leave() }, t("web_leave_table")) : null;
    fill(e.wait,
      h("p", { id: "invite-label" }, t("web_invite")),
      h("div", { class: "row invite" }, linkBox, copy),
      seats, joinForm, leave, e.msg,
      h("p", {}, h("a", { href: "/", onclick: (ev) => this.home(ev) }, t("web_back_lobby"))));
    if (typing && joinForm) e.joinName.focus();
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
    } else if (v.phase === "awaiting_deal") text = t("web_waiting_deal");
    e.turn.textContent = text;
    e.turn.classList.toggle("mine", this.myTurn());
    const turnKey = this.myTurn() ? `${v.deal}:${v.history.length}` : null;
    if (turnKey && turnKey !== this.lastTurn) {
      alertNow(t("web_your_turn"));
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
      if (this.myTurn() && left <= WARN_AT && left > 0 && !this.warned) {
        this.warned = true;
        alertNow(n("web_timer_warn", left));
      }
    } else e.timer.textContent = "";
    for (const cell of this.root.querySelectorAll("[data-away]")) {
      const left = Math.max(0, Math.ceil(Number(cell.dataset.away) - now));
      cell.textContent = n("web_away", left);
    }
  }

  renderPile() {
    const pile = this.view.pile;
    const top = pile.length ? pile[pile.length - 1] : null;
    const animate = !!this.played && top === this.played.card && this.playedShown !== this.played.seq;
    if (animate) this.playedShown = this.played.seq;
    fill(this.el.pile, pileNodes(this.view, animate));
  }

  renderPlayers() {
    fill(this.el.players, playerNodes(this.view, this.presence));
  }

  renderHand() {
    const v = this.view;
    const e = this.el;
    const isPlayer = typeof v.seat === "number";
    e.mine.hidden = !isPlayer;
    if (!isPlayer) return;
    const hand = this.hand();
    const hadFocus = e.hand.contains(document.activeElement);
    e.handTitle.textContent = hand.length ? n("web_hand_label", hand.length) : t("web_hand_empty");
    this.focus = Math.min(this.focus, Math.max(hand.length - 1, 0));
    const mine = this.myTurn();
    const legal = new Set(v.legal || []);
    const buttons = hand.map((card, i) => h("button", {
      type: "button",
      class: `card${mine && !legal.has(card) ? " not-legal" : ""}`,
      "data-card": card,
      tabindex: i === this.focus ? "0" : "-1",
      "aria-label": cardName(card),
      "aria-keyshortcuts": CARD_KEYS[i] || null,
      "aria-disabled": mine ? null : "true",
      onclick: () => { this.focus = i; this.act(card); },
      onfocus: () => { this.focus = i; },
    }, face(card), h("span", { class: "key", "aria-hidden": "true" }, CARD_KEYS[i] || "")));
    fill(e.hand, buttons);
    e.take.hidden = v.options.take !== "any";
    e.take.disabled = false;
    e.hintBtn.disabled = !mine;
    e.countBtn.disabled = v.phase !== "playing";
    if (hadFocus) this.focusHand();
  }

  renderLog() {
    fill(this.el.logList, this.log.slice(-12).map((line) => h("li", {},
      h("span", { "aria-hidden": "true" }, line), h("span", { class: "sr-only" }, spoken(line)))));
    this.el.logList.scrollTop = this.el.logList.scrollHeight;
  }

  renderScores() {
    const v = this.view;
    const e = this.el;
    const sheet = scoreSheet(v);
    if (!sheet) {
      e.scores.hidden = true;
      e.over.hidden = true;
      return;
    }
    fill(e.scores, sheet);
    e.scores.hidden = false;
    const announced = `${v.deal}:${v.deal_scores.length}:${v.phase}`;
    if (v.phase === "over") {
      const winner = v.winner !== null && v.winner !== undefined
        ? t("web_winner", { name: this.name(v.winner), points: v.totals[v.winner] }) : "";
      const totals = v.names.map((name, i) => `${seatName(name)} ${v.totals[i]}`).join(", ");
      fill(e.over, h("h3", { id: "over-title" }, t("tui_match_over")), h("p", { id: "winner" }, winner),
        h("p", {}, t("web_totals", { totals })),
        h("button", { type: "button", id: "new-table", onclick: () => this.navigate("/") }, t("web_new_match")));
      e.over.hidden = false;
      if (!this.after) {
        // the replay, the record, the review and the fair-deal check (W3's replay.js)
        this.after = mountAfterMatch(e.after, { table: this.id, token: this.mine?.token ?? null });
      }
      if (this.overSaid !== announced) {
        this.overSaid = announced;
        announce(`${t("tui_match_over")}. ${winner}`);
      }
    } else e.over.hidden = true;
  }
}
