// A player's profile (/p/{name}) and the leaderboard (/leaderboard): public
// information only (GET /api/players/{name}, GET /api/leaderboard); no hand, no token.
import * as i18n from "../i18n.js";
import { h, fill } from "../dom.js";

const FORMER = "a former player"; // what deleted accounts' seats are called (web/account_store.py)

function link(href, text, navigate) {
  return h("a", { href, text, onclick: (event) => { event.preventDefault(); navigate(href); } });
}

function playerName(name) {
  if (name === FORMER) return i18n.t("profile_former");
  return name ? i18n.seatName(name) : "—";
}

function dateText(seconds) {
  return new Date(seconds * 1000).toLocaleDateString(i18n.lang(), { year: "numeric", month: "short", day: "numeric" });
}

function signed(value) {
  const text = Math.abs(value).toLocaleString(i18n.lang(), { maximumFractionDigits: 1 });
  return value > 0 ? `+${text}` : value < 0 ? `−${text}` : text;
}

function number(value) {
  const text = Math.abs(value).toLocaleString(i18n.lang(), { maximumFractionDigits: 1 });
  return value < 0 ? `−${text}` : text;
}

/** The rating over time as a line (SVG); its points are the ratings after each rated match. */
function chart(points) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 300 100");
  svg.setAttribute("class", "profile-chart");
  svg.setAttribute("role", "img");
  const values = points.map((p) => p.rating);
  svg.setAttribute("aria-label", `${i18n.t("profile_chart")}: ${values.map(number).join(", ")}`);
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = high - low || 1;
  const step = points.length > 1 ? 290 / (points.length - 1) : 0;
  const xy = values.map((v, i) => [5 + i * step, 95 - ((v - low) / span) * 90]);
  const line = document.createElementNS(ns, "polyline");
  line.setAttribute("points", xy.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" "));
  svg.append(line);
  for (const [x, y] of xy) {
    const dot = document.createElementNS(ns, "circle");
    dot.setAttribute("cx", x.toFixed(1));
    dot.setAttribute("cy", y.toFixed(1));
    dot.setAttribute("r", "2.5");
    svg.append(dot);
  }
  return svg;
}

function table(heads, rows, label) {
  return h("div", { class: "profile-scroll" },
    h("table", { class: "profile-table", "aria-label": label },
      h("thead", {}, h("tr", {}, heads.map((text) => h("th", { scope: "col", text })))),
      h("tbody", {}, rows)));
}

export class ProfileView {
  constructor(name, root, navigate) {
    this.name = name;
    this.root = root;
    this.navigate = navigate;
    this.data = null;
    this.missing = false;
    this.load();
  }

  async load() {
    const answer = await fetch(`/api/players/${encodeURIComponent(this.name)}`);
    if (answer.ok) this.data = await answer.json();
    else this.missing = true;
    this.render();
  }

  destroy() {
    this.root = null;
  }

  relang() {
    this.render();
  }

  render() {
    if (!this.root) return;
    if (this.missing) {
      fill(this.root, h("section", { class: "panel profile", "data-region": "profile" },
        h("p", { text: i18n.t("profile_missing", { name: this.name }) }),
        link("/leaderboard", i18n.t("leaderboard_title"), this.navigate)));
      return;
    }
    if (!this.data) return;
    const d = this.data;
    const rating = d.rating
      ? h("p", { class: "profile-rating", "data-region": "rating", text: i18n.t("profile_rating", { rating: number(d.rating.rating), uncertainty: number(d.rating.uncertainty) }) })
      : h("p", { "data-region": "rating", text: i18n.t("profile_unrated") });
    const sizes = d.by_size.map((s) => h("tr", {}, h("td", { text: String(s.players) }), h("td", { text: String(s.played) }), h("td", { text: String(s.won) })));
    const matches = d.matches.map((m) => h("tr", { "data-table": m.table },
      h("td", { text: dateText(m.at) }),
      h("td", { text: String(m.players) }),
      h("td", { text: m.abandoned ? `${m.place} (${i18n.t("profile_abandoned_mark")})` : String(m.place) }),
      h("td", { text: String(m.points) }),
      h("td", { class: "nowrap", text: signed(m.change) }),
      h("td", {}, m.others.flatMap((o, i) => [i ? ", " : "", o.kind === "person" && o.name !== FORMER ? link(`/p/${encodeURIComponent(o.name)}`, o.name, this.navigate) : playerName(o.name)])),
      h("td", {}, link(m.links.table, i18n.t("profile_open"), this.navigate))));
    fill(this.root, h("section", { class: "panel profile", "data-region": "profile" },
      h("h2", { text: d.name }),
      rating,
      d.chart.length > 1 ? h("figure", {}, chart(d.chart), h("figcaption", { text: i18n.t("profile_chart") })) : null,
      h("p", { text: i18n.t("profile_foxtrots", { count: d.foxtrots }) }),
      d.abandoned ? h("p", { "data-region": "abandoned", text: i18n.t("profile_abandoned", { count: d.abandoned }) }) : null,
      sizes.length ? [h("h3", { text: i18n.t("profile_by_size") }),
        table([i18n.t("leaderboard_size"), i18n.t("profile_played"), i18n.t("profile_won")], sizes, i18n.t("profile_by_size"))] : null,
      matches.length ? [h("h3", { text: i18n.t("profile_matches") }),
        table([i18n.t("profile_date"), i18n.t("leaderboard_size"), i18n.t("profile_place"), i18n.t("profile_points"), i18n.t("profile_change"), i18n.t("profile_others"), ""], matches, i18n.t("profile_matches"))] : null,
      h("p", {}, link("/leaderboard", i18n.t("leaderboard_title"), this.navigate))));
  }
}

const PER_PAGE = 50;

export class LeaderboardView {
  constructor(root, navigate) {
    this.root = root;
    this.navigate = navigate;
    this.players = "";
    this.min = 1;
    this.page = 1;
    this.data = null;
    this.load();
  }

  async load() {
    const query = new URLSearchParams({ min_matches: String(this.min), page: String(this.page), per_page: String(PER_PAGE) });
    if (this.players) query.set("players", this.players);
    const answer = await fetch(`/api/leaderboard?${query}`);
    this.data = answer.ok ? await answer.json() : null;
    this.render();
  }

  destroy() {
    this.root = null;
  }

  relang() {
    this.render();
  }

  render() {
    if (!this.root || !this.data) return;
    const d = this.data;
    const pages = Math.max(1, Math.ceil(d.total / d.per_page));
    const size = h("select", { id: "board-size", "data-field": "table-size", onchange: (e) => { this.players = e.target.value; this.page = 1; this.load(); } },
      h("option", { value: "", text: i18n.t("leaderboard_all") }),
      [2, 3, 4, 5, 6, 7, 8, 9].map((n) => h("option", { value: String(n), text: String(n) })));
    size.value = this.players;
    const min = h("input", { id: "board-min", type: "number", min: 0, max: 1000, value: String(this.min), "data-field": "min-matches", onchange: (e) => { this.min = Math.max(0, Number(e.target.value) || 0); this.page = 1; this.load(); } });
    const rows = d.entries.map((e) => h("tr", {},
      h("td", { text: String(e.rank) }),
      h("td", {}, link(`/p/${encodeURIComponent(e.name)}`, e.name, this.navigate)),
      h("td", { class: "nowrap", text: `${number(e.rating)} ± ${number(e.uncertainty)}` }),
      h("td", { text: String(e.matches) })));
    fill(this.root, h("section", { class: "panel leaderboard", "data-region": "leaderboard" },
      h("h2", { text: i18n.t("leaderboard_title") }),
      h("div", { class: "board-filters" },
        h("label", { for: "board-size", text: i18n.t("leaderboard_size") }), size,
        h("label", { for: "board-min", text: i18n.t("leaderboard_min") }), min),
      rows.length
        ? table([i18n.t("profile_place"), i18n.t("leaderboard_name"), i18n.t("leaderboard_rating"), i18n.t("leaderboard_matches")], rows, i18n.t("leaderboard_title"))
        : h("p", { text: i18n.t("leaderboard_empty") }),
      h("nav", { class: "board-pages" },
        h("button", { type: "button", "data-action": "previous-page", disabled: this.page <= 1, onclick: () => { this.page -= 1; this.load(); }, text: i18n.t("leaderboard_previous") }),
        h("span", { text: i18n.t("leaderboard_page", { page: this.page, pages }) }),
        h("button", { type: "button", "data-action": "next-page", disabled: this.page >= pages, onclick: () => { this.page += 1; this.load(); }, text: i18n.t("leaderboard_next") }))));
  }
}
