// A take in motion: the pile's cards fly to the taker's row of the players' table (a short
// flight, ~0.45 s). Nothing moves when the person asked for less motion
// (prefers-reduced-motion: reduce): the pile just empties and the numbers change.
import { h } from "../dom.js";
import { face } from "../cards.js";

const FLIGHT_MS = 450;
const STAGGER_MS = 25; // each card of the pile leaves a little after the one below it

export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Where the pile's cards are on the screen now (before the view that empties the pile). */
export function pileRects(pileArea) {
  return [...pileArea.querySelectorAll(".pile-card .card-svg")].map((item) => item.getBoundingClientRect());
}

/** Fly ``cards`` (the taken cards, bottom first) from ``from`` (their rects in the pile; a
 * card without one, such as the card the taker played, starts beside the top card) to
 * ``target`` (an element: the taker's row). Returns how many cards flew (0 with less motion). */
export function flyTake(cards, from, target) {
  if (reducedMotion() || !target || !cards.length || !from.length) return 0;
  const goal = target.getBoundingClientRect();
  const last = from[from.length - 1];
  const layer = h("div", { class: "flights", "aria-hidden": "true" });
  document.body.append(layer);
  let left = cards.length;
  cards.forEach((card, i) => {
    const start = from[i] || { left: last.left + last.width * 0.6, top: last.top, width: last.width, height: last.height };
    const node = h("div", { class: "flying", "data-card": card }, face(card));
    Object.assign(node.style, {
      left: `${start.left}px`, top: `${start.top}px`, width: `${start.width}px`, height: `${start.height}px`,
    });
    layer.append(node);
    const dx = goal.left + Math.min(goal.width, 160) / 2 - (start.left + start.width / 2);
    const dy = goal.top + goal.height / 2 - (start.top + start.height / 2);
    const flight = node.animate(
      [
        { transform: "none", opacity: 1 },
        { transform: `translate(${dx}px, ${dy}px) scale(0.35)`, opacity: 0.15 },
      ],
      { duration: FLIGHT_MS, delay: i * STAGGER_MS, easing: "ease-in", fill: "forwards" },
    );
    flight.finished.catch(() => {}).finally(() => {
      node.remove();
      left -= 1;
      if (!left) layer.remove();
    });
  });
  return cards.length;
}

/** The card just played (``node``, the pile's top) slides in from the seat that played it
 * (``from``, an element); still under reduced motion. */
export function slideFrom(node, from) {
  if (!node || !from || reducedMotion()) return;
  const start = from.getBoundingClientRect();
  const end = node.getBoundingClientRect();
  const dx = start.left + start.width / 2 - (end.left + end.width / 2);
  const dy = start.top + start.height / 2 - (end.top + end.height / 2);
  node.classList.remove("arrive"); // this flight instead of the generic slide
  node.animate(
    [{ transform: `translate(${dx}px, ${dy}px) scale(0.5)`, opacity: 0.4 }, { transform: "none", opacity: 1 }],
    { duration: 350, easing: "ease-out" },
  );
}
