// Card stocks: every place a card can be at the table is a stock (a hand, the pile, the stock,
// a seat's taken cards, a seat's foxtrots), a container element that owns its card elements.
// A table is configured with one call, Board.set(contents): the difference between what each
// stock holds and what it should hold becomes moves of card elements between stocks, and
// every move goes through one animator (FLIP: the card's old place is measured, the element
// is moved, a transform takes it from the old place to the new one). Nothing that did not
// change is rebuilt: a card that stays keeps its element, and a card that moves keeps it too.
// The stocks know no rules: what a card looks like in a stock (a face or a back, its marks) is
// given by the one who sets the contents.
import { face } from "../cards.js";

const FLIGHT_MS = 380;

/** Whether cards should move without motion: the system's setting. */
export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** The one animator of the table: every card that changes place is flown by ``fly``. */
export class Animator {
  constructor(counter) {
    this.counter = counter; // an element whose data-flights / data-moves count the moves (tests)
    this.moves = 0;
    this.flights = 0;
  }

  /** ``node`` is in its new place already; ``from`` is where it was (a DOMRect). */
  fly(node, from) {
    this.moves += 1;
    if (this.counter) this.counter.dataset.moves = String(this.moves);
    if (!from || reducedMotion() || !node.isConnected) return;
    const to = node.getBoundingClientRect();
    if (!to.width || !from.width) return;
    const dx = from.left - to.left;
    const dy = from.top - to.top;
    const scale = from.width / to.width;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1 && Math.abs(scale - 1) < 0.02) return;
    this.flights += 1;
    if (this.counter) this.counter.dataset.flights = String(this.flights);
    node.classList.add("flying");
    const flight = node.animate(
      [{ transform: `translate(${dx}px, ${dy}px) scale(${scale})` }, { transform: "none" }],
      { duration: FLIGHT_MS, easing: "cubic-bezier(.2,.7,.3,1)" },
    );
    flight.finished.catch(() => {}).finally(() => node.classList.remove("flying"));
  }
}

/** A new card element: a face (``code``) or a back (``code`` null). */
function cardElement(code) {
  const node = document.createElement("div");
  node.className = "card";
  paint(node, code);
  return node;
}

/** Turn ``node`` into ``code``'s face, or a back; only when it changes. */
function paint(node, code) {
  const shown = node.dataset.card ?? null;
  if (node.dataset.painted === "1" && shown === (code ?? "")) return;
  if (shown) node.was = shown; // a face turned down keeps what it was (a take undone turns it up again)
  node.dataset.painted = "1";
  node.dataset.card = code ?? "";
  node.classList.toggle("back", !code);
  const art = node.querySelector(":scope > .card-svg, :scope > .card-back");
  const fresh = code ? face(code) : backArt();
  if (art) art.replaceWith(fresh);
  else node.prepend(fresh);
}

function backArt() {
  const node = document.createElement("span");
  node.className = "card-back";
  node.setAttribute("aria-hidden", "true");
  return node;
}

/** One place for cards: ``element`` holds the card elements (and nothing else). ``dress``
 * (node, code, index) gives a card its looks and attributes in this stock; ``undress`` (node)
 * takes them away when it leaves. */
export class Stock {
  constructor(name, element, { dress = null, undress = null } = {}) {
    this.name = name;
    this.element = element;
    this.element.dataset.stock = name;
    this.dress = dress;
    this.undress = undress;
  }

  cards() {
    return [...this.element.children].filter((node) => node.classList.contains("card"));
  }
}

/** The stocks of a table, and ``set``: from what they hold to what they should hold. */
export class Board {
  constructor(counter) {
    this.stocks = new Map();
    this.animator = new Animator(counter);
  }

  /** Add (or replace) a stock; its element may be new, its cards are kept if it is not. */
  add(stock) {
    const old = this.stocks.get(stock.name);
    if (old && old.element !== stock.element) {
      for (const node of old.cards()) stock.element.append(node);
    }
    this.stocks.set(stock.name, stock);
    return stock;
  }

  /** Forget the stocks not named in ``names`` (their cards are gone with them). */
  keep(names) {
    for (const name of [...this.stocks.keys()]) if (!names.has(name)) this.stocks.delete(name);
  }

  /** ``contents``: stock name → the cards it holds in order (a code, or null for a back).
   * ``animate``: false places everything without motion (a new deal, a first view). */
  set(contents, { animate = true } = {}) {
    const kept = new Map(); // stock → [node or null per target]
    const departed = []; // { node, from (rect), stock }
    const rects = new Map();
    for (const stock of this.stocks.values()) {
      for (const node of stock.cards()) rects.set(node, node.getBoundingClientRect());
    }
    // what stays where it is: the same code (or a back) in the same stock
    for (const [name, stock] of this.stocks) {
      const want = contents.get(name) || [];
      const pool = stock.cards();
      const used = new Set();
      const slots = want.map((code) => {
        const key = code ?? "";
        const node = pool.find((candidate) => !used.has(candidate) && (candidate.dataset.card ?? "") === key);
        if (node) used.add(node);
        return node || null;
      });
      for (const node of pool) if (!used.has(node)) departed.push({ node, from: rects.get(node), stock });
      kept.set(name, slots);
    }
    // what comes from elsewhere: the same card first (shown, then turned down), then any card
    // that left (a back turns up)
    const arrived = [];
    const take = (test) => {
      const i = departed.findIndex(test);
      return i < 0 ? null : departed.splice(i, 1)[0];
    };
    for (const same of [(node, code) => node.dataset.card === code, (node, code) => node.was === code]) {
      for (const [name, slots] of kept) {
        const want = contents.get(name) || [];
        slots.forEach((node, i) => {
          if (node || !want[i]) return;
          const found = take((d) => same(d.node, want[i]));
          if (found) {
            slots[i] = found.node;
            arrived.push({ ...found, to: name });
          }
        });
      }
    }
    for (const [name, slots] of kept) {
      const want = contents.get(name) || [];
      slots.forEach((node, i) => {
        if (node) return;
        const found = take((d) => !d.node.dataset.card) || take(() => true);
        if (found) {
          slots[i] = found.node;
          arrived.push({ ...found, to: name });
        } else slots[i] = cardElement(want[i]);
      });
    }
    for (const { node, stock } of departed) {
      stock.undress?.(node);
      node.remove();
    }
    for (const { node, stock, to } of arrived) {
      if (stock.name === to) continue;
      stock.undress?.(node);
      node.remove(); // out of its old stock before any is put in order
    }
    // place every card in its stock, in order, moving only what is out of place
    for (const [name, slots] of kept) {
      const stock = this.stocks.get(name);
      const want = contents.get(name) || [];
      slots.forEach((node, i) => {
        paint(node, want[i]);
        const at = stock.cards()[i];
        if (at !== node) stock.element.insertBefore(node, at || null);
        stock.dress?.(node, want[i], i);
      });
    }
    for (const { node, from } of arrived) this.animator.fly(node, animate ? from : null);
    return arrived.length;
  }
}

/** Set ``name`` on ``node`` to ``value`` (null removes it), only when it differs. */
export function attr(node, name, value) {
  if (value === null || value === undefined || value === false) {
    if (node.hasAttribute(name)) node.removeAttribute(name);
  } else if (node.getAttribute(name) !== String(value)) node.setAttribute(name, String(value));
}

/** Set ``node``'s text, only when it differs. */
export function text(node, value) {
  if (node.textContent !== value) node.textContent = value;
}
