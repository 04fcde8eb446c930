// Cards drawn as SVG by this code (no image files): a face with the rank in the corners and
// the suit drawn as a path, and a back for the stock. The SVG is decoration (aria-hidden):
// whatever shows it carries the card's name in words.
import { cardShort } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const SUITS = "SHDC";
// Suits in a 10 × 10 box.
const PIPS = {
  S: "M5 0C5 0 10 3.6 10 6.2A2.4 2.4 0 0 1 5.7 7.6L6.6 10H3.4L4.3 7.6A2.4 2.4 0 0 1 0 6.2C0 3.6 5 0 5 0Z",
  H: "M5 9.6C5 9.6 0 6 0 3A2.6 2.6 0 0 1 5 1.9A2.6 2.6 0 0 1 10 3C10 6 5 9.6 5 9.6Z",
  D: "M5 0L9 5L5 10L1 5Z",
  C:
    "M5 0.2A2.45 2.45 0 0 1 6.9 4.3A2.45 2.45 0 1 1 5.7 7.2L6.6 10H3.4L4.3 7.2A2.45 2.45 0 1 1 " +
    "3.1 4.3A2.45 2.45 0 0 1 5 0.2Z",
};

/** Rank and suit of a card code ("10H" → ["10", "H"]). */
export function parse(code) {
  return [code.slice(0, -1), code.slice(-1)];
}

/** Rank first (2 … A), then suit (♠ ♥ ♦ ♣): the hand's order, as in the terminal game. */
export function sortKey(code) {
  const [rank, suit] = parse(code);
  return RANKS.indexOf(rank) * 4 + SUITS.indexOf(suit);
}

export function sorted(codes) {
  return [...codes].sort((a, b) => sortKey(a) - sortKey(b));
}

export function isRed(code) {
  const suit = code.slice(-1);
  return suit === "H" || suit === "D";
}

function el(name, attrs = {}) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}

function pip(suit, x, y, size) {
  const group = el("g", { transform: `translate(${x} ${y}) scale(${size / 10})` });
  group.append(el("path", { d: PIPS[suit] }));
  return group;
}

/** The face of ``code`` as an <svg> 60 × 84 (the rank in the page's language). */
export function face(code) {
  const [, suit] = parse(code);
  const label = cardShort(code).slice(0, -1) || parse(code)[0];
  const svg = el("svg", {
    viewBox: "0 0 60 84",
    class: `card-svg ${isRed(code) ? "red" : "black"}`,
    "aria-hidden": "true",
    focusable: "false",
  });
  svg.append(el("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "card-bg" }));
  const corner = (x, y, rotate) => {
    const group = el("g", { transform: `rotate(${rotate} 30 42)` });
    const text = el("text", { x, y, class: "card-rank", "text-anchor": "middle" });
    text.textContent = label;
    group.append(text, pip(suit, x - 5, y + 3, 10));
    return group;
  };
  svg.append(corner(10, 17, 0), corner(10, 17, 180));
  svg.append(pip(suit, 17, 29, 26));
  return svg;
}

/** The back of a card (the stock). */
export function back() {
  const svg = el("svg", { viewBox: "0 0 60 84", class: "card-svg back", "aria-hidden": "true" });
  svg.append(el("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "back-bg" }));
  svg.append(el("rect", { x: 6, y: 6, width: 48, height: 72, rx: 4, class: "back-frame" }));
  for (let i = 0; i < 5; i += 1) {
    svg.append(el("path", { d: `M30 ${14 + i * 12}l8 6-8 6-8-6z`, class: "back-mark" }));
  }
  return svg;
}
