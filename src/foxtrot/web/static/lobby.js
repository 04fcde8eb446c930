// The lobby: a name; "Play the computer" in one click (with a level); "Play with friends" (a
// table to share, with the rule options folded under "Table rules" at their defaults); the open
// tables. A learned level is offered only at the table sizes the server has a policy for: a
// size without one turns such a choice back to medium.
import { h, fill, announce } from "./dom.js";
import { t, n, seatName, levelTies, learnedLevels, isLearned, levelName, kindName } from "./i18n.js";
import { api, saveSeat } from "./net.js";

const NAME = "foxtrot.name";
const LEVELS = ["easy", "medium", "hard", "expert"];
const KINDS = ["person", ...LEVELS];
const TARGETS = ["150", "200", "300", "400"];

// What the form holds, kept across re-renders (a language switch redraws the page).
const draft = {
  players: 2,
  seats: ["person", "medium"],
  take: "match",
  forced_foxtrot: false,
  leftover_pile: "discard",
  most_cards_tie: "none",
  target: "200",
  custom: "",
  grace: "60",
  replacement: "medium",
  timer: "",
  bot_delay: "0.8",
  pause: "30", // seconds the table waits after a deal for every person's Next deal
  public: true,
  rated: false,
  level: "medium",
  opponents: 1,
};

function select(id, value, options, onChange) {
  return h(
    "select",
    { id, onchange: (e) => onChange(e.target.value) },
    options.map(([v, label]) => h("option", { value: v, selected: v === String(value) }, label)),
  );
}

/** The levels offered at a table of ``players``: the four, and the learned ones it has. */
function levelsAt(players) {
  return [...LEVELS, ...learnedLevels(players)];
}

/** ``kind`` if it may sit at a table of ``players``, else medium (a learned level the size
 * has no policy for). */
function fitLevel(kind, players) {
  return isLearned(kind) && !learnedLevels(players).includes(kind) ? "medium" : kind;
}

function field(id, label, control, note) {
  return h(
    "div",
    { class: "field" },
    h("label", { for: id }, label),
    control,
    note ? h("p", { class: "note", id: `${id}-note` }, note) : null,
  );
}

export class Lobby {
  constructor(root, navigate) {
    this.root = root;
    this.navigate = navigate;
    this.timer = setInterval(() => this.refresh(), 5000);
    this.render();
  }

  destroy() {
    clearInterval(this.timer);
  }

  relang() {
    this.render();
  }

  name() {
    return (localStorage.getItem(NAME) || "").trim();
  }

  render() {
    document.title = t("web_title");
    const nameInput = h("input", {
      id: "name",
      type: "text",
      maxlength: 40,
      autocomplete: "nickname",
      value: this.name(),
      oninput: (e) => localStorage.setItem(NAME, e.target.value),
    });
    this.message = h("p", { id: "lobby-msg", class: "msg", role: "status" });
    this.form = h("form", { id: "create", onsubmit: (e) => this.create(e) });
    this.list = h("div", { id: "tables" });
    const d = draft;
    const opponents = [];
    for (let i = 1; i <= 8; i += 1) opponents.push([String(i), String(i)]);
    // A level the table's size cannot tell from the one below is said to be so.
    const tie = h("p", { class: "note", id: "quick-level-tie", "aria-live": "polite" });
    const sayTie = () => {
      const players = d.opponents + 1;
      const below = LEVELS[LEVELS.indexOf(d.level) - 1];
      tie.textContent = levelTies(players).includes(d.level) && below
        ? t("web_level_tie", { n: players, level: t(`tui_level_${d.level}`), below: t(`tui_level_${below}`) })
        : "";
    };
    const levelSelect = () => {
      d.level = fitLevel(d.level, d.opponents + 1);
      return select("quick-level", d.level, levelsAt(d.opponents + 1).map((k) => [k, levelName(k)]),
        (v) => { d.level = v; sayTie(); });
    };
    let level = levelSelect();
    sayTie();
    const quick = h("form", { id: "quick", class: "quick", onsubmit: (e) => this.playComputer(e) },
      h("div", { class: "row" },
        field("quick-level", t("web_level"), level),
        field("quick-opponents", t("web_opponents"),
          select("quick-opponents", d.opponents, opponents, (v) => {
            d.opponents = Number(v);
            const fresh = levelSelect(); // the learned levels of the new size
            level.replaceWith(fresh);
            level = fresh;
            sayTie();
          }))),
      tie,
      h("button", { type: "submit", class: "primary big", id: "play-computer", "data-action": "play-computer" },
        t("web_play_computer")));
    fill(
      this.root,
      h("p", { class: "tagline" }, t("web_tagline")),
      h("button", { type: "button", class: "daily-open big", "data-action": "daily", onclick: () => this.navigate("/daily") },
        t("daily_open")), // the deal of the day (daily/daily.js)
      h("section", { class: "panel start", "aria-labelledby": "quick-title" },
        h("div", { class: "field" }, h("label", { for: "name", id: "name-label" }, t("web_your_name")), nameInput),
        h("h2", { id: "quick-title" }, t("web_play_computer_title")), quick),
      this.message,
      h("div", { class: "lobby-cols" },
        h("section", { class: "panel", "aria-labelledby": "create-title" },
          h("h2", { id: "create-title" }, t("web_friends_title")), this.form),
        h("section", { class: "panel", "aria-labelledby": "open-title" },
          h("div", { class: "row" }, h("h2", { id: "open-title" }, t("web_open_tables")),
            h("button", { type: "button", id: "refresh", onclick: () => this.refresh() }, t("web_refresh"))),
          this.list)),
    );
    this.renderForm();
    this.refresh();
  }

  renderForm() {
    const d = draft;
    const redraw = (key, value) => {
      d[key] = value;
      this.renderForm();
      document.getElementById(key === "target" ? "target" : key)?.focus();
    };
    while (d.seats.length < d.players) d.seats.push("medium");
    d.seats.length = d.players;
    d.seats = d.seats.map((kind) => fitLevel(kind, d.players));
    const players = [];
    for (let i = 2; i <= 9; i += 1) players.push([String(i), String(i)]);
    const kinds = [...KINDS, ...learnedLevels(d.players)].map((k) => [k, kindName(k)]);
    const seats = d.seats.map((kind, i) =>
      field(`seat-${i}`, i === 0 ? t("web_seat_you", { n: i + 1 }) : t("web_seat_n", { n: i + 1 }),
        select(`seat-${i}`, kind, kinds, (v) => { d.seats[i] = v; })));
    const target = select("target", d.target,
      [...TARGETS.map((x) => [x, x]), ["custom", t("web_target_custom")]], (v) => redraw("target", v));
    const custom = d.target === "custom"
      ? h("input", { id: "target-custom", type: "number", min: 1, step: 1, required: true, value: d.custom,
          "aria-label": `${t("tui_setup_target")}: ${t("tui_target_placeholder")}`,
          oninput: (e) => { d.custom = e.target.value; } })
      : null;
    const check = (id, key, label) => h("div", { class: "field check" },
      h("input", { type: "checkbox", id, checked: d[key], onchange: (e) => { d[key] = e.target.checked; } }),
      h("label", { for: id }, label));
    const number = (id, key, attrs) => h("input", { id, type: "number", value: d[key], ...attrs,
      oninput: (e) => { d[key] = e.target.value; } });
    const open = this.form.querySelector("#rules-more")?.open || false;
    fill(
      this.form,
      field("players", t("web_players"), select("players", d.players, players, (v) => redraw("players", Number(v)))),
      h("fieldset", { class: "seats" }, h("legend", {}, t("web_players_label")), seats),
      h("button", { type: "submit", class: "primary", id: "create-btn", "data-action": "create-table" }, t("web_create")),
      h("details", { id: "rules-more", class: "rules-more", open }, h("summary", {}, t("web_table_rules_title"),
        h("span", { class: "note" }, ` — ${optionsText({ ...d, target: d.target === "custom" ? d.custom || "?" : d.target })}`)),
      field("take", t("tui_setup_take"),
        select("take", d.take, [["match", t("tui_take_match")], ["any", t("tui_take_any")]], (v) => redraw("take", v)),
        t(`tui_explain_take_${d.take}`)),
      check("forced", "forced_foxtrot", t("tui_setup_forced")),
      field("leftover", t("tui_setup_leftover"),
        select("leftover", d.leftover_pile, [["discard", t("tui_leftover_discard")], ["last_taker", t("tui_leftover_last_taker")]],
          (v) => { d.leftover_pile = v; })),
      field("tie", t("tui_setup_tie"),
        select("tie", d.most_cards_tie, [["none", t("tui_tie_none")], ["all", t("tui_tie_all")]], (v) => { d.most_cards_tie = v; })),
      h("div", { class: "field" }, h("label", { for: "target" }, t("tui_setup_target")), h("div", { class: "row" }, target, custom),
        h("p", { class: "note" }, t("tui_explain_target"))),
      field("grace", t("web_grace"), number("grace", "grace", { min: 0, max: 86400, step: 1 })),
      field("replacement", t("web_replacement"),
        select("replacement", d.replacement, LEVELS.map((k) => [k, t(`tui_level_${k}`)]), (v) => { d.replacement = v; })),
      field("timer", t("web_turn_timer"), number("timer", "timer", { min: 1, max: 86400, step: 1 })),
      field("bot-delay", t("web_bot_delay"), number("bot-delay", "bot_delay", { min: 0, max: 10, step: 0.1 })),
      field("deal-pause", t("web_deal_pause"), number("deal-pause", "pause", { min: 0, max: 600, step: 1 })),
      check("public", "public", t("web_public")),
      check("rated", "rated", t("web_rated"))), // a rated table (docs/guide/accounts.md)
    );
  }

  say(text) {
    this.message.textContent = text;
    announce(text);
  }

  needName() {
    const name = this.name();
    if (!name) {
      this.say(t("web_name_needed"));
      document.getElementById("name").focus();
    }
    return name;
  }

  /** One click: a table of you and ``d.opponents`` computers of the chosen level, the rule
   * options as they are under Table rules. */
  async playComputer(event) {
    event.preventDefault();
    const d = draft;
    await this.create(null, { players: d.opponents + 1, seats: ["person", ...Array(d.opponents).fill(d.level)] });
  }

  async create(event, plan = null) {
    event?.preventDefault();
    const name = this.needName();
    if (!name) return;
    const d = { ...draft, ...(plan || {}) };
    const target = d.target === "custom" ? Number(d.custom) : Number(d.target);
    const body = {
      options: {
        players: d.players, take: d.take, forced_foxtrot: d.forced_foxtrot,
        leftover_pile: d.leftover_pile, most_cards_tie: d.most_cards_tie, target,
      },
      seats: d.seats.map((kind) => ({ kind })),
      grace_seconds: Number(d.grace || 0),
      turn_seconds: d.timer ? Number(d.timer) : null,
      replacement: d.replacement,
      public: d.public,
      bot_delay: Number(d.bot_delay || 0),
      deal_pause_seconds: Number(d.pause || 0),
      rated: Boolean(d.rated),
    };
    try {
      const table = await api("/api/tables", { method: "POST", body });
      const mine = d.seats.indexOf("person");
      if (mine >= 0) {
        const joined = await api(`/api/tables/${table.table}/join`, { method: "POST", body: { name, seat: mine } });
        saveSeat(table.table, joined.seat, joined.token);
      }
      this.navigate(`/t/${table.table}`);
    } catch (error) {
      this.say(errorText(error));
    }
  }

  async join(table, seat) {
    const name = this.needName();
    if (!name) return;
    try {
      const joined = await api(`/api/tables/${table}/join`, { method: "POST", body: { name, seat } });
      saveSeat(table, joined.seat, joined.token);
      this.navigate(`/t/${table}`);
    } catch (error) {
      this.say(errorText(error));
      this.refresh();
    }
  }

  async refresh() {
    let tables;
    try {
      tables = (await api("/api/tables")).tables;
    } catch (error) {
      fill(this.list, h("p", { class: "msg" }, errorText(error)));
      return;
    }
    if (!document.body.contains(this.list)) return;
    if (!tables.length) {
      fill(this.list, h("p", {}, t("web_no_tables")));
      return;
    }
    fill(this.list, h("ul", { class: "tables" }, tables.map((table) => {
      const names = table.seats.map((s) => (s.kind !== "person" ? seatName(s.name) || kindName(s.kind)
        : s.taken ? s.name : t("web_seat_free"))).join(", ");
      const line = `${names} · ${optionsText(table.options)}`;
      return h("li", { class: "table-item" },
        h("span", {}, line, " · ", n("web_free_seats", table.free.length)),
        h("span", { class: "row" },
          h("button", { type: "button", onclick: () => this.join(table.table, table.free[0]) }, t("web_join_button")),
          h("button", { type: "button", onclick: () => this.navigate(`/t/${table.table}`) }, t("web_watch"))));
    })));
  }
}

/** A table's rules in words: "2 players, a match to 200 points; the pile is taken by …". */
export function optionsText(options) {
  return n("web_table_rules", Number(options.players), { target: options.target, take: t(`tui_take_${options.take}`) });
}

/** A refusal in words, in the page's language. */
export function errorText(error) {
  const key = `web_err_${error.code}`;
  const known = t(key);
  if (known !== key) return known;
  if (error.code === undefined) return t("web_err_network", { message: error.message });
  return t("web_err_other", { message: error.message });
}
