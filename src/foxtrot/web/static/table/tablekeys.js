// The table's keys, as in the terminal game: ← → Home End move along the hand, Enter or Space
// plays the focused card, 1–9, 0, a… play a card directly, t take, h hint, c card count,
// s score sheet, r rules, n next deal, Esc closes the hint and the card count.
import { CARD_KEYS, keyOf } from "../keys.js";
import { openRules } from "../rules.js";

/** Handle ``event`` (a keydown) for table view ``tv``. */
export function tableKey(tv, event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target.closest && target.closest("input, select, textarea, dialog")) return;
  if (document.querySelector("dialog[open]")) return;
  if (target.closest && target.closest("#t-after")) return; // the replay has its own keys
  const key = keyOf(event);
  if (target.closest?.("summary, button:not(.card)") && (key === "Enter" || key === " ")) return; // its own click
  if (tv.view?.phase === "over" && !["r", "s"].includes(key)) return;
  const inHand = target.closest && target.closest("#hand");
  if ((key === "ArrowLeft" || key === "ArrowRight" || key === "Home" || key === "End") && tv.view?.hand) {
    const size = tv.hand().length;
    if (!size) return;
    if (inHand) {
      if (key === "ArrowLeft") tv.focus = (tv.focus - 1 + size) % size;
      else if (key === "ArrowRight") tv.focus = (tv.focus + 1) % size;
      else tv.focus = key === "Home" ? 0 : size - 1;
    }
    event.preventDefault();
    tv.focusHand();
    return;
  }
  const commands = {
    t: () => tv.act("take"),
    h: () => tv.hint(),
    c: () => tv.counting(),
    s: () => tv.showScores(),
    r: () => openRules(),
    n: () => { if (!tv.el.pause.hidden) tv.nextDeal(); },
    Escape: () => { tv.closeHint(); if (tv.countOpen) tv.closeCount(); },
  };
  if (commands[key]) {
    event.preventDefault();
    commands[key]();
    return;
  }
  const index = CARD_KEYS.indexOf(key);
  if (index >= 0 && tv.view?.hand) {
    event.preventDefault();
    tv.focus = Math.min(index, Math.max(tv.hand().length - 1, 0));
    tv.playIndex(index);
  } else if (key.length === 1 && /\S/.test(key) && tv.view?.phase === "playing" && tv.role === "player") {
    tv.sayNoKey(key);
  }
}
