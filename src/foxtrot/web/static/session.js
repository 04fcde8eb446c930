// The signed-in session's CSRF token (issue 25): account.js sets it from GET /api/account,
// net.js sends it as X-CSRF-Token with every request that changes something, so a join or a
// new table made with the session cookie (a rated table) is accepted. Kept in memory only.
let token = null;

export function setCsrf(value) {
  token = value || null;
}

export function csrf() {
  return token;
}
