// The end of a match as a screen of its own (data-region="match-end"), first on the page once
// the match is over: who won and everyone's place, Rematch and New table, the review and the
// replay one tap away, the totals deal by deal as a small chart, the final score by category
// (foxtrots, tens, aces, jacks, most cards, queens of spades) and by deal, and a rated table's
// rating changes. A board game site's final score table: a column per player, a row per part.
import { h, fill } from "../dom.js";
import { t, n, seatName, lang, points } from "../i18n.js";

const SVG = "http://www.w3.org/2000/svg";
/** One colour per seat (Okabe and Ito's palette, told apart with every colour vision). */
const COLOURS = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#8a6d00", "#56b4e9", "#222222", "#882255", "#117733"];

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  for (const child of children.flat()) if (child) node.append(child);
  return node;
}


/** Every seat's place: 1 for the best total, equal totals share a place (1, 1, 3). */
export function places(totals) {
  return totals.map((total) => 1 + totals.filter((other) => other > total).length);
}

/** Each seat's points of the whole match by part; the parts add up to the seat's total. */
export function byCategory(v) {
  const deals = v.deal_scores || [];
  const parts = v.parts || [];
  const sum = (seat, f) => deals.reduce((acc, lines, deal) => acc + f(lines[seat], parts[deal]?.[seat]), 0);
  return v.names.map((_, seat) => {
    const cat = {
      foxtrots: sum(seat, (line) => line.total - line.card_points - line.most_cards),
      tens: sum(seat, (_, p) => 10 * (p?.tens ?? 0)),
      aces: sum(seat, (_, p) => p?.aces ?? 0),
      jacks: sum(seat, (_, p) => p?.jacks ?? 0),
      most: sum(seat, (line) => line.most_cards),
      queens: sum(seat, (_, p) => -20 * (p?.queens ?? 0)),
    };
    // without the parts (an older server): the card points in one row
    if (parts.length !== deals.length) cat.cards = sum(seat, (line) => line.card_points);
    return cat;
  });
}

/** The totals after each deal, deal 0 being the start (every total 0). */
function runningTotals(v) {
  const rows = [v.names.map(() => 0)];
  for (const lines of v.deal_scores || []) rows.push(lines.map((line, seat) => rows[rows.length - 1][seat] + line.total));
  return rows;
}

/** The chart of the totals deal by deal: a line per player, the match's goal dashed. The
 * table by deal below says the same in words for a screen reader. */
function chart(v, names) {
  const rows = runningTotals(v);
  const target = v.options.target;
  const all = rows.flat();
  const lo = Math.min(0, ...all);
  const hi = Math.max(target, ...all);
  const W = 320, H = 150, left = 34, right = 8, top = 8, bottom = 20;
  const x = (i) => left + (i * (W - left - right)) / Math.max(1, rows.length - 1);
  const y = (value) => top + ((hi - value) * (H - top - bottom)) / Math.max(1, hi - lo);
  const grid = [];
  // the start, the goal, and the lowest total when it is far enough below the start to be read
  const ticks = [0, target, ...(lo < 0 && -lo > (hi - lo) / 8 ? [lo] : [])];
  for (const tick of ticks) {
    grid.push(svg("line", { x1: left, x2: W - right, y1: y(tick), y2: y(tick), class: tick === target ? "goal" : "grid" }));
    grid.push(svg("text", { x: left - 4, y: y(tick) + 4, "text-anchor": "end", class: "tick" }, document.createTextNode(points(tick))));
  }
  const step = Math.ceil((rows.length - 1) / 10);
  for (let i = 1; i < rows.length; i += step) {
    grid.push(svg("text", { x: x(i), y: H - 5, "text-anchor": "middle", class: "tick" }, document.createTextNode(String(i))));
  }
  const lines = names.map((_, seat) => {
    const colour = COLOURS[seat % COLOURS.length];
    const at = rows.map((row, i) => `${x(i).toFixed(1)},${y(row[seat]).toFixed(1)}`);
    return svg("g", { class: `line seat-${seat}${seat === v.winner ? " win" : ""}`, stroke: colour, fill: colour },
      svg("polyline", { points: at.join(" "), fill: "none" }),
      rows.slice(1).map((row, i) => svg("circle", { cx: x(i + 1), cy: y(row[seat]), r: seat === v.winner ? 3 : 2.4 })));
  });
  const picture = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "end-chart", "aria-hidden": "true", focusable: "false" },
    grid, lines);
  const legend = h("ul", { class: "legend" }, names.map((name, seat) => h("li", {},
    h("span", { class: "swatch", style: `background:${COLOURS[seat % COLOURS.length]}` }), name)));
  return h("figure", { class: "end-figure" },
    h("figcaption", {}, t("end_chart"), " ", h("span", { class: "note" }, `(${t("end_chart_goal", { target })})`)),
    picture, legend);
}

/** A table with a column per player and a row per line; the last row the match total. */
function columns(id, caption, names, rows, totals, winner) {
  return h("div", { class: "scroll end-scroll", tabindex: "0", "aria-labelledby": `${id}-caption` },
    h("table", { class: "sheet end-sheet", id },
      h("caption", { id: `${id}-caption` }, caption),
      h("thead", {}, h("tr", {}, h("td", {}), names.map((name, seat) =>
        h("th", { scope: "col", class: seat === winner ? "num win" : "num" },
          h("span", { class: "swatch", style: `background:${COLOURS[seat % COLOURS.length]}` }), name)))),
      h("tbody", {}, rows.map(([label, values]) => h("tr", {}, h("th", { scope: "row" }, label),
        values.map((value, seat) => h("td", { class: seat === winner ? "num win" : "num" }, points(value))))),
      h("tr", { class: "total" }, h("th", { scope: "row" }, t("web_match_total")),
        totals.map((value, seat) => h("td", { class: seat === winner ? "num win" : "num" }, points(value)))))));
}

/** Draw the match-end screen of table view ``tv`` into ``box``; ``rating`` is the rating
 * changes' element (ratingnote.js), kept across redraws. */
export function renderMatchEnd(tv, box, rating) {
  const v = tv.view;
  const names = v.names.map((name, seat) => seatName(name) ?? tv.name(seat));
  // drawn again only when something on it changed (not at every presence message): a focused
  // button keeps its focus
  const key = JSON.stringify([lang(), names, v.totals, v.deal_scores?.length, !!v.parts, v.seat,
    !!tv.mine, !!tv.summary?.rematch]);
  if (box.dataset.drawn === key && box.contains(rating)) return;
  box.dataset.drawn = key;
  const you = typeof v.seat === "number" ? v.seat : null;
  const label = (seat) => (seat === you ? `${names[seat]} (${t("web_you")})` : names[seat]);
  const winner = v.winner ?? null;
  const headline = winner !== null ? n("web_winner", v.totals[winner], { name: names[winner] }) : "";
  const place = places(v.totals);
  const order = v.totals.map((_, seat) => seat).sort((a, b) => place[a] - place[b] || a - b);
  const cats = byCategory(v);
  const keys = [["foxtrots", "end_cat_foxtrots"], ["tens", "end_cat_tens"], ["aces", "end_cat_aces"],
    ["jacks", "end_cat_jacks"], ["cards", "tui_col_p2"], ["most", "end_cat_most"], ["queens", "end_cat_queens"]];
  const catRows = keys.filter(([key]) => key in cats[0])
    .map(([key, word]) => [t(word).replace(/\n/g, " "), cats.map((cat) => cat[key])]);
  const dealRows = (v.deal_scores || []).map((lines, i) => [t("web_deal_col", { deal: i + 1 }), lines.map((line) => line.total)]);
  const goTo = (selector) => {
    const target = [...tv.root.querySelectorAll(selector)].find((node) => node.childElementCount);
    if (!target) return;
    target.setAttribute("tabindex", "-1");
    target.scrollIntoView({ block: "start" });
    target.focus({ preventScroll: true });
  };
  const hasReview = !!tv.mine?.token && you !== null;
  fill(box,
    h("div", { class: "end-head" },
      h("h2", { id: "over-title" }, t("tui_match_over")),
      h("p", { id: "winner", class: "winner" }, headline)),
    h("div", { class: "row end-actions" },
      tv.mine ? h("button", { type: "button", class: "primary", id: "rematch", "data-action": "rematch",
        onclick: () => tv.rematch() }, tv.summary?.rematch ? t("web_rematch_join") : t("web_rematch")) : null,
      h("button", { type: "button", id: "new-table", "data-action": "new-table", onclick: () => tv.navigate("/") },
        t("web_new_match")),
      hasReview ? h("button", { type: "button", "data-action": "end-review",
        onclick: () => goTo("#t-review .live-review, .after-review") }, t("end_review")) : null,
      h("button", { type: "button", "data-action": "end-replay", onclick: () => goTo(".after-replay") }, t("end_replay"))),
    h("div", { class: "end-body" },
      h("section", { class: "end-places", "aria-labelledby": "end-places-title" },
        h("h3", { id: "end-places-title" }, t("end_places")),
        h("ol", { class: "places" }, order.map((seat) => h("li", {
          class: seat === winner ? "win" : null, "data-seat": String(seat), "data-place": String(place[seat]) },
        h("span", { class: "place" }, t("end_place", { place: place[seat] })),
        h("span", { class: "who", title: names[seat] }, label(seat)),
        h("span", { class: "pts" }, points(v.totals[seat]))))),
        rating),
      chart(v, names)),
    h("div", { class: "end-sheets" },
      columns("end-by-category", t("end_by_category"), names, catRows, v.totals, winner),
      columns("end-by-deal", t("end_by_deal"), names, dealRows, v.totals, winner)));
}
