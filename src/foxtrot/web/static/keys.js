// The table's keys, as in the terminal game: the keys that play the cards of a hand, left to
// right (tui/view.py CARD_KEYS: letters of other commands are left out).
const RESERVED = new Set("tuhcrsqlnpv");
const LETTERS = [..."abdefgijkmouwxyz"].filter((c) => !RESERVED.has(c));
export const CARD_KEYS = [..."1234567890", ...LETTERS, ...LETTERS.map((c) => c.toUpperCase())];

export function keyOf(event) {
  // The key as on a Latin layout, so that t, h, c… work with a Russian or Ukrainian layout too.
  const code = event.code || "";
  if (code.startsWith("Key")) {
    const letter = code.slice(3).toLowerCase();
    return event.shiftKey ? letter.toUpperCase() : letter;
  }
  if (code.startsWith("Digit")) return code.slice(5);
  return event.key;
}
