// Quick reactions: a player picks one of a fixed set of words and emoji (no free text), the
// server sends it to everyone at the table (docs/protocol.md, "react"), and it shows for a few
// seconds in a bubble by the sender's seat, said once to a screen reader (the polite live
// region). Spectators cannot send; anyone may mute a person or the whole table on this device.
import { h, fill, announce } from "../dom.js";
import { t } from "../i18n.js";

export const REACTIONS = ["well_played", "good_game", "thanks", "oops", "sorry", "good_luck", "clap", "sweat", "wow", "thinking"];
const EMOJI = { clap: "👏", sweat: "😅", wow: "😮", thinking: "🤔" };
const SHOWN_MS = 4000;
const MUTED_PEOPLE = "foxtrot.reactions.muted"; // names muted everywhere (JSON list)
const mutedTable = (id) => `foxtrot.reactions.table.${id}`;

function loadCss() {
  if (document.getElementById("reactions-css")) return;
  document.head.append(h("link", { id: "reactions-css", rel: "stylesheet", href: "/static/table/reactions.css" }));
}

/** What a reaction shows: its emoji, or its words in the reader's language. */
export function reactionText(id) {
  return EMOJI[id] ?? t(`react_${id}`);
}

function mutedPeople() {
  try {
    const list = JSON.parse(localStorage.getItem(MUTED_PEOPLE) || "[]");
    return new Set(Array.isArray(list) ? list : []);
  } catch {
    return new Set();
  }
}

export class Reactions {
  /** ``table``: the TableView (its id, role, seat, names, socket and message line). */
  constructor(table) {
    loadCss();
    this.table = table;
    this.open = false;
    this.timers = new Set();
  }

  /** Build the button and its menu (after each skeleton): a player's under his hand, a
   * spectator's (to mute, not to send) in the settings row. */
  mount(dock, settings) {
    this.homes = { player: dock, spectator: settings };
    this.button = h("button", {
      type: "button", id: "react-btn", class: "react-btn", "data-action": "react",
      "aria-expanded": "false", "aria-controls": "react-menu", onclick: () => this.toggle(),
    }, t("react_button"));
    this.menu = h("div", { id: "react-menu", class: "react-menu", role: "group", "aria-label": t("react_menu"), hidden: true });
    this.node = h("div", { class: "reactions" }, this.button, this.menu);
    this.render();
  }

  toggle(force) {
    this.open = force ?? !this.open;
    this.render();
    if (this.open) this.menu.querySelector("button")?.focus();
  }

  render() {
    if (!this.node) return;
    const player = this.table.role === "player";
    const home = this.homes[player ? "player" : "spectator"];
    if (this.node.parentNode !== home) home.append(this.node);
    this.button.setAttribute("aria-expanded", String(this.open));
    this.menu.hidden = !this.open;
    if (!this.open) return;
    const muted = mutedPeople();
    const send = player
      ? h("div", { class: "react-choices" }, REACTIONS.map((id) => h("button", {
        type: "button", class: `react-choice${EMOJI[id] ? " emoji" : ""}`, "data-reaction": id,
        "aria-label": t(`react_${id}`), title: t(`react_${id}`), onclick: () => this.send(id),
      }, reactionText(id))))
      : null;
    const tableMuted = localStorage.getItem(mutedTable(this.table.id)) === "1";
    const toggle = (label, on, flip, extra = {}) => h("button", {
      type: "button", class: "toggle", "aria-pressed": String(on), onclick: flip, ...extra,
    }, label);
    const people = (this.table.view?.names || []).map((name, seat) => ({ name, seat }))
      .filter((p) => p.seat !== this.table.seat && this.table.summary?.seats?.[p.seat]?.kind === "person");
    fill(this.menu, send,
      h("div", { class: "react-mutes" },
        toggle(t("react_mute_table"), tableMuted, () => this.muteTable(!tableMuted), { "data-mute": "table" }),
        people.map((p) => toggle(t("react_mute_person", { name: this.table.name(p.seat) }), muted.has(p.name),
          () => this.mutePerson(p.name), { "data-mute": String(p.seat) }))));
  }

  send(id) {
    this.table.sock?.send({ type: "react", reaction: id });
    this.toggle(false);
    this.button.focus();
  }

  muteTable(on) {
    if (on) localStorage.setItem(mutedTable(this.table.id), "1");
    else localStorage.removeItem(mutedTable(this.table.id));
    if (on) this.clear();
    this.render();
  }

  mutePerson(name) {
    const muted = mutedPeople();
    if (muted.has(name)) muted.delete(name);
    else muted.add(name);
    localStorage.setItem(MUTED_PEOPLE, JSON.stringify([...muted]));
    this.render();
  }

  /** A reaction from the server: shown by the sender's seat and said once, unless muted. */
  show(msg) {
    if (localStorage.getItem(mutedTable(this.table.id)) === "1") return;
    const raw = this.table.view?.names?.[msg.seat] ?? this.table.summary?.seats?.[msg.seat]?.name;
    if (raw && mutedPeople().has(raw)) return;
    const text = reactionText(msg.reaction);
    announce(t("react_said", { name: this.table.name(msg.seat), reaction: t(`react_${msg.reaction}`) }));
    for (const seat of this.table.root.querySelectorAll(`.seat[data-seat="${Number(msg.seat)}"]`)) {
      seat.querySelector(".reaction-bubble")?.remove();
      const bubble = h("span", { class: `reaction-bubble${EMOJI[msg.reaction] ? " emoji" : ""}`, "aria-hidden": "true",
        "data-reaction": msg.reaction }, text);
      seat.append(bubble);
      const timer = setTimeout(() => { bubble.remove(); this.timers.delete(timer); }, SHOWN_MS);
      this.timers.add(timer);
    }
  }

  clear() {
    for (const bubble of this.table.root.querySelectorAll(".reaction-bubble")) bubble.remove();
  }

  /** The server refused a reaction (too many): say so on the message line. */
  refused() {
    this.table.say(t("react_throttled"));
  }

  destroy() {
    for (const timer of this.timers) clearTimeout(timer);
  }
}
