// The signed-in session's CSRF token: account.js sets it from GET /api/account,
// net.js sends it as X-CSRF-Token with every request that changes something, so a join or a
// new table made with the session cookie (a rated table) is accepted. Kept in memory only.
let token = null;
let markKnown;
// Settled once the page knows whether it is signed in (GET /api/account answered), so that a
// join clicked before that still carries the token; at most KNOWN_MS, for a page without it.
const known = new Promise((resolve) => { markKnown = resolve; });
const KNOWN_MS = 3000;

/** account.js: the session is known (signed in or not). */
export function sessionKnown() {
  markKnown();
}

/** Wait until the session is known (or KNOWN_MS have passed). */
export function whenSessionKnown() {
  return Promise.race([known, new Promise((resolve) => setTimeout(resolve, KNOWN_MS))]);
}

/** account.js: the session's token, or null when signed out; a change is told as
 * "foxtrot:session" (a view drawn before the page knew it was signed in draws again). */
export function setCsrf(value) {
  const was = token;
  token = value || null;
  if (token !== was) document.dispatchEvent(new Event("foxtrot:session"));
}

export function csrf() {
  return token;
}
