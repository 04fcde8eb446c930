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

function pip(suit, x, y, size, turned = false) {
  const spin = turned ? ` rotate(180 ${size / 2} ${size / 2})` : "";
  const group = el("g", { transform: `translate(${x} ${y})${spin} scale(${size / 10})` });
  group.append(el("path", { d: PIPS[suit] }));
  return group;
}

// Where the pips of 2 … 10 stand (centres, in the 60 × 84 face): three columns, rows from the
// top; a pip below the middle is drawn upside down, as on a printed card.
const L = 21;
const C = 30;
const R = 39;
const LAYOUT = {
  2: [[C, 18], [C, 66]],
  3: [[C, 18], [C, 42], [C, 66]],
  4: [[L, 18], [R, 18], [L, 66], [R, 66]],
  5: [[L, 18], [R, 18], [C, 42], [L, 66], [R, 66]],
  6: [[L, 18], [R, 18], [L, 42], [R, 42], [L, 66], [R, 66]],
  7: [[L, 18], [R, 18], [C, 30], [L, 42], [R, 42], [L, 66], [R, 66]],
  8: [[L, 18], [R, 18], [C, 30], [L, 42], [R, 42], [C, 54], [L, 66], [R, 66]],
  9: [[L, 18], [R, 18], [L, 34], [R, 34], [C, 42], [L, 50], [R, 50], [L, 66], [R, 66]],
  10: [[L, 18], [R, 18], [C, 26], [L, 34], [R, 34], [L, 50], [R, 50], [C, 58], [L, 66], [R, 66]],
};
const PIP = 9; // a number card's pip, in face units

// The court cards' emblems (our own design), drawn in a 24 × 16 box above the court's pip:
// the King's crown, the Queen's coronet of pearls, the Jack's plumed cap.
const EMBLEMS = {
  K: "M0 16L0 3L6 9L12 0L18 9L24 3L24 16Z",
  Q: "M0 16L2 6A2 2 0 1 1 4 6L8 10L10 3A2 2 0 1 1 14 3L16 10L20 6A2 2 0 1 1 22 6L24 16Z",
  J: "M2 16C2 8 7 5 14 5C18 5 21 2 22 0C24 4 23 8 20 10C22 12 22 14 22 16Z",
};
const COURT = { J: "J", Q: "Q", K: "K" };

/** The corner index: the rank (squeezed to the corner's width when it has two glyphs, as 10
 *  does) over a small pip. */
function corner(label, suit, turned) {
  const group = el("g", turned ? { transform: "rotate(180 30 42)" } : {});
  const attrs = { x: 8.5, y: 15, class: "card-rank", "text-anchor": "middle" };
  if ([...label].length > 1) Object.assign(attrs, { textLength: 12, lengthAdjust: "spacingAndGlyphs" });
  const text = el("text", attrs);
  text.textContent = label;
  group.append(text, pip(suit, 4, 18, 9));
  return group;
}

/** The middle of a court card: a frame, the emblem, the suit, the rank's letter. */
function court(rank, suit, label) {
  const group = el("g", { class: "court" });
  group.append(el("rect", { x: 15, y: 12, width: 30, height: 60, rx: 3, class: "court-frame" }));
  const emblem = el("g", { transform: "translate(18 17)", class: "court-emblem" });
  emblem.append(el("path", { d: EMBLEMS[rank] }));
  group.append(emblem, pip(suit, 21, 38, 18));
  const letter = el("text", { x: 30, y: 68, class: "court-letter", "text-anchor": "middle" });
  letter.textContent = label;
  group.append(letter);
  return group;
}

/** The face of ``code`` as an <svg> 60 × 84 (the rank in the page's language). Every look is
 *  a CSS class: ``suit-S`` … ``suit-C`` for the four-colour deck, ``red``/``black`` for two. */
export function face(code) {
  const [rank, suit] = parse(code);
  const label = cardShort(code).slice(0, -1) || rank;
  const svg = el("svg", {
    viewBox: "0 0 60 84",
    class: `card-svg ${isRed(code) ? "red" : "black"} suit-${suit}`,
    "aria-hidden": "true",
    focusable: "false",
  });
  svg.append(el("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "card-bg" }));
  svg.append(corner(label, suit, false), corner(label, suit, true));
  if (LAYOUT[rank]) {
    for (const [x, y] of LAYOUT[rank]) svg.append(pip(suit, x - PIP / 2, y - PIP / 2, PIP, y > 42));
  } else if (COURT[rank]) svg.append(court(rank, suit, label));
  else svg.append(pip(suit, 16, 28, 28)); // the ace: one large pip
  return svg;
}

const FOUR_COLOURS = "foxtrot.fourColours";

/** Whether the player chose the four-colour deck (♦ blue, ♣ green); remembered in the browser. */
export function fourColours() {
  return localStorage.getItem(FOUR_COLOURS) === "1";
}

/** Choose the two- or four-colour deck: one class on the document, remembered. */
export function setFourColours(on) {
  localStorage.setItem(FOUR_COLOURS, on ? "1" : "0");
  document.documentElement.classList.toggle("four-colours", on);
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
