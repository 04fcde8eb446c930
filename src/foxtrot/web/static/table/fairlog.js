// The last actions: every line the server narrates, numbered from the match's first, with the
// fair deal's lines (the commitment, each player's seed, the shuffle) folded into one line per
// deal whose details open on demand (docs/fair.md).
import { h, fill } from "../dom.js";
import { t, spoken } from "../i18n.js";

const KEEP = 40; // lines kept
const SHOWN = 12; // lines shown
const FAIR_KINDS = new Set(["commit", "seed"]);

export class FairLog {
  constructor() {
    this.items = []; // { text } or { deal, details: [lines], done }
    this.numbered = 0; // lines ever added: the number of the next one
    this.fair = new Map(); // deal → its folded item
  }

  /** Add the lines of event message ``msg``; returns those that are not the fair deal's. */
  add(msg) {
    const text = msg.text || [];
    if (FAIR_KINDS.has(msg.kind) || msg.kind === "deal") {
      const deal = Number(msg.data?.deal);
      let item = this.fair.get(deal);
      if (!item) {
        item = { deal, details: [], done: false };
        this.fair.set(deal, item);
        this.push(item);
      }
      if (msg.kind !== "deal") {
        item.details.push(...text);
        return [];
      }
      item.details.push(...text.slice(0, 1)); // the shuffle's line; the rest is the deal itself
      item.done = true;
      for (const line of text.slice(1)) this.push({ text: line });
      return text.slice(1);
    }
    for (const line of text) this.push({ text: line });
    return text;
  }

  push(item) {
    this.numbered += 1;
    this.items.push(item);
    if (this.items.length > KEEP) this.items.shift();
  }

  /** Whether the deal ``deal`` (0-based) has been dealt, as far as this log has heard. */
  dealt(deal) {
    return !!this.fair.get(deal)?.done;
  }

  render(list) {
    const shown = this.items.slice(-SHOWN);
    list.setAttribute("start", String(this.numbered - shown.length + 1));
    fill(list, shown.map((item) => {
      if (item.text !== undefined) {
        return h("li", {}, h("span", { "aria-hidden": "true" }, item.text), h("span", { class: "sr-only" }, spoken(item.text)));
      }
      return h("li", { class: "fair-line" }, h("details", {},
        h("summary", {}, item.done ? t("web_fair_line", { deal: item.deal + 1 }) : t("web_fair_pending", { deal: item.deal + 1 })),
        h("ul", {}, item.details.map((line) => h("li", {}, line)))));
    }));
    list.scrollTop = list.scrollHeight;
  }
}
