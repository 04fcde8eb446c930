// The deal of the day (GET /api/daily, web/daily/): the day's decks, one per table size and take
// rule, each with its commitment (and its seed once the day is over); a play of the chosen deck;
// the standing of everyone signed in who finished it, with the hard computer's score on the same
// deck as the benchmark line; after a play, its score, the share text, the deal's biggest swings
// and the review of your moves beside the engine's. A guest's plays are kept on this device.
import { h, fill, announce } from "../dom.js";
import { t, n, lang, seatName, cardShort, points } from "../i18n.js";
import { api, saveSeat } from "../net.js";
import { errorText } from "../lobby.js";
import { mountReview } from "../replay/review.js";
import { analysisLink } from "../analysis/analysis.js";

const PLAYS = "foxtrot.daily.plays"; // day|variant -> [{table, token, ranked, score}]
const VARIANT = "foxtrot.daily.variant";
const NAME = "foxtrot.name";

function loadCss() {
  if (document.getElementById("daily-css")) return;
  document.head.append(h("link", { id: "daily-css", rel: "stylesheet", href: "/static/daily/daily.css" }));
}

function plays() {
  try {
    const found = JSON.parse(localStorage.getItem(PLAYS) || "{}");
    return found && typeof found === "object" ? found : {};
  } catch {
    return {};
  }
}

function keepPlay(day, variant, play) {
  const all = plays();
  const key = `${day}|${variant}`;
  all[key] = [...(all[key] || []).filter((p) => p.table !== play.table), play];
  localStorage.setItem(PLAYS, JSON.stringify(all));
}

/** A score as the standing shows it: +34, −12, 0. */
export function signed(score) {
  return score === null || score === undefined ? "–" : points(score, { sign: true });
}

const capital = (text) => text.charAt(0).toLocaleUpperCase(lang()) + text.slice(1);

/** A day as the reader's language writes it (3 December 2026). */
function dayText(day) {
  const [y, m, d] = day.split("-").map(Number);
  return new Intl.DateTimeFormat(lang(), { dateStyle: "long", timeZone: "UTC" }).format(new Date(Date.UTC(y, m - 1, d)));
}

export class DailyView {
  constructor(root, navigate) {
    loadCss();
    this.root = root;
    this.navigate = navigate;
    const query = new URLSearchParams(location.search);
    this.day = query.get("day");
    this.resultTable = query.get("result");
    this.variant = localStorage.getItem(VARIANT) || "2-match";
    this.data = null;
    this.standing = null;
    this.result = null;
    this.timer = setInterval(() => this.poll(), 4000);
    this.load();
  }

  destroy() {
    clearInterval(this.timer);
  }

  relang() {
    this.render();
  }

  async load() {
    try {
      this.data = await api(`/api/daily${this.day ? `?day=${encodeURIComponent(this.day)}` : ""}`);
    } catch (error) {
      fill(this.root, h("p", { class: "msg", role: "status" }, errorText(error)));
      return;
    }
    this.day = this.data.day;
    if (!this.data.decks.some((d) => d.variant === this.variant)) this.variant = this.data.decks[0].variant;
    if (this.resultTable) {
      const mine = Object.entries(plays()).find(([, list]) => list.some((p) => p.table === this.resultTable));
      if (mine) this.variant = mine[0].split("|")[1];
    }
    this.render();
    await this.poll();
  }

  async poll() {
    if (!this.data) return;
    try {
      this.standing = await api(`/api/daily/standing?variant=${this.variant}&day=${this.day}`);
      const mine = this.myPlays();
      const latest = mine.find((p) => p.table === this.resultTable) || mine[mine.length - 1];
      if (latest && (!this.result || this.result.table !== latest.table)) {
        try {
          this.result = await api(`/api/daily/result/${latest.table}`, { token: latest.token });
          keepPlay(this.day, this.variant, { ...latest, score: this.result.score });
          this.reviewFor = null;
        } catch {
          this.result = null; // not over yet
        }
      }
    } catch {
      return;
    }
    this.renderBoard();
    this.renderResult();
  }

  myPlays() {
    return plays()[`${this.day}|${this.variant}`] || [];
  }

  deck() {
    return this.data.decks.find((d) => d.variant === this.variant);
  }

  variantText(deck) {
    return n("daily_variant", deck.players, { take: t(`tui_take_${deck.take}`) });
  }

  render() {
    if (!this.data) return;
    document.title = `${t("daily_open")} — ${t("web_title")}`;
    const d = this.data;
    const deck = this.deck();
    this.message = h("p", { id: "daily-msg", class: "msg", role: "status" });
    this.board = h("section", { id: "daily-standing", class: "panel", "data-region": "daily-standing", "aria-labelledby": "daily-standing-title" });
    this.resultBox = h("section", { id: "daily-result", class: "panel", hidden: true, "aria-labelledby": "daily-result-title" });
    this.reviewBox = this.reviewBox || h("div", { id: "daily-review" }); // kept: the review's work survives a redraw
    this.reviewSection = h("section", { class: "panel daily-review", hidden: true, "aria-labelledby": "daily-review-title" },
      h("h3", { id: "daily-review-title" }, t("daily_review")), this.reviewBox);
    const calendar = h("input", { id: "daily-day", type: "date", min: d.calendar[0], max: d.calendar[1], value: d.day,
      onchange: (e) => { if (e.target.value) this.navigate(`/daily?day=${e.target.value}`); } });
    const variants = h("div", { class: "daily-variants", role: "radiogroup", "aria-label": t("daily_variants") },
      d.decks.map((x) => h("button", { type: "button", role: "radio", class: "daily-variant", "data-variant": x.variant,
        "aria-checked": String(x.variant === this.variant), title: this.variantText(x), onclick: () => this.choose(x.variant) },
        n("daily_chip", x.players, { take: t(`daily_take_${x.take}_short`) }))));
    const proof = [h("p", { class: "daily-proof", title: deck.commitment }, t("daily_commitment", { commitment: `${deck.commitment.slice(0, 16)}…` }))];
    if (deck.server_seed) {
      proof.push(h("p", { class: "daily-proof", title: deck.server_seed }, t("daily_seed", { seed: `${deck.server_seed.slice(0, 16)}…` })));
      proof.push(h("p", {}, h("a", { href: `/api/daily/record?variant=${deck.variant}&day=${d.day}`, download: `daily-${d.day}-${deck.variant}.json` }, t("daily_record"))));
    }
    const mine = this.myPlays();
    const playLabel = mine.length && !d.ranked ? t("daily_play_again") : t("daily_play");
    fill(this.root,
      h("div", { class: "daily", "data-region": "daily" },
        h("h2", { id: "daily-title" }, t("daily_title", { day: dayText(d.day) })),
        h("p", { class: "note" }, d.ranked ? t("daily_intro") : t("daily_past")),
        h("div", { class: "row daily-pick" },
          h("div", { class: "field" }, h("label", { for: "daily-day" }, t("daily_calendar")), calendar)),
        variants,
        h("section", { class: "panel daily-deck" },
          h("h3", {}, this.variantText(deck)), ...proof,
          h("button", { type: "button", class: "primary big", id: "daily-play", "data-action": "daily-play", onclick: () => this.play() }, playLabel)),
        this.message, this.resultBox, this.board, this.reviewSection));
    this.renderBoard();
    this.renderResult();
  }

  choose(variant) {
    this.variant = variant;
    localStorage.setItem(VARIANT, variant);
    this.standing = null;
    this.result = null;
    this.render();
    this.poll();
  }

  async play() {
    const name = (localStorage.getItem(NAME) || "").trim() || undefined;
    try {
      const answer = await api("/api/daily/play", { method: "POST", body: { variant: this.variant, day: this.day, ...(name ? { name } : {}) } });
      saveSeat(answer.table, answer.seat, answer.token);
      keepPlay(answer.day, answer.variant, { table: answer.table, token: answer.token, ranked: answer.ranked, score: null });
      this.navigate(`/t/${answer.table}`);
    } catch (error) {
      this.message.textContent = error.code === "already_played" ? t("daily_already") : errorText(error);
      announce(this.message.textContent);
    }
  }

  renderBoard() {
    if (!this.board || !this.standing) return;
    const s = this.standing;
    const rows = s.standing.map((r) => ({ ...r, kind: "person" }));
    const guest = this.myPlays().filter((p) => !p.ranked && p.score !== null && p.score !== undefined).pop();
    if (guest) rows.push({ name: t("daily_you_guest", { name: (localStorage.getItem(NAME) || "").trim() || t("daily_guest") }), score: guest.score, kind: "guest" });
    if (s.hard !== null) rows.push({ name: capital(`${t("web_computer")} (${t("tui_level_hard")})`), score: s.hard, kind: "line" });
    rows.sort((a, b) => b.score - a.score || (a.kind === "line") - (b.kind === "line"));
    let place = 0;
    let shown = 0;
    let last = null;
    const body = rows.map((r) => {
      if (r.kind === "person") {
        shown += 1;
        if (r.score !== last) place = shown;
        last = r.score;
      }
      return h("tr", { class: `daily-row daily-${r.kind}`, "data-kind": r.kind },
        h("td", {}, r.kind === "person" ? String(place) : r.kind === "line" ? t("daily_line") : ""),
        h("th", { scope: "row" }, r.name), h("td", { class: "num" }, signed(r.score)));
    });
    fill(this.board,
      h("h3", { id: "daily-standing-title" }, t("daily_standing")),
      h("p", { class: "daily-hard", "data-line": "hard" }, s.hard === null ? t("daily_benchmark_wait") : t("daily_benchmark", { score: signed(s.hard) })),
      s.standing.length || !this.data.ranked ? null : h("p", { class: "note" }, t("daily_nobody")),
      s.playing ? h("p", { class: "note" }, t("daily_playing", { n: s.playing })) : null,
      h("table", { class: "daily-table" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("daily_place")), h("th", { scope: "col" }, t("daily_player")), h("th", { scope: "col", class: "num" }, t("daily_score")))),
        h("tbody", {}, body)));
  }

  renderResult() {
    if (!this.resultBox) return;
    const r = this.result;
    this.resultBox.hidden = !r;
    this.reviewSection.hidden = !r;
    if (!r) return;
    const link = `${location.origin}/daily?day=${r.day}`;
    const share = t("daily_share_text", { score: signed(r.score), day: dayText(r.day), hard: signed(r.hard), link });
    const names = r.names || [];
    // the player is his play's seat 0: "You" in his language (a guest's seat is named "Guest")
    const who = (seat) => (seat === 0 ? t("daily_guest") : seatName(names[seat]) ?? t("web_seat_n", { n: seat + 1 }));
    // each swing opens on the analysis board at the position before it, as the player saw it
    const swings = h("ol", { class: "daily-swings" }, r.swings.map((s) => h("li", {},
      t("daily_swing", { move: s.move, name: who(s.seat), card: cardShort(s.card), points: n("points", s.points) }),
      " ",
      h("a", { class: "daily-analyse", "data-action": "analyse", href: analysisLink({ table: r.table, deal: 1, move: s.move }) }, t("analysis_open")))));
    fill(this.resultBox,
      h("h3", { id: "daily-result-title" }, t("daily_your_score", { score: signed(r.score) })),
      h("p", { class: "daily-hard" }, r.hard === null ? t("daily_benchmark_wait") : t("daily_benchmark", { score: signed(r.hard) })),
      h("p", { class: "daily-share-text", id: "daily-share-text" }, share),
      h("button", { type: "button", id: "daily-share", "data-action": "daily-share", onclick: () => this.share(share) }, t("daily_share")),
      h("h4", {}, t("daily_swings")), swings);
    const mine = this.myPlays().find((p) => p.table === r.table);
    if (mine && this.reviewFor !== `${r.table}|${lang()}`) {
      this.reviewFor = `${r.table}|${lang()}`;
      fill(this.reviewBox);
      mountReview(this.reviewBox, { table: r.table, token: mine.token, auto: true });
    }
  }

  async share(text) {
    try {
      if (navigator.share) await navigator.share({ text });
      else await navigator.clipboard.writeText(text);
      this.message.textContent = t("daily_copied", { text });
    } catch {
      this.message.textContent = text;
    }
    announce(this.message.textContent);
  }
}
