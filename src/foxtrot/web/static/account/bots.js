// The account's bots in the account dialog: create one (its token shown once, to copy),
// see each with its rating in the bots' pool, revoke one. The section keeps its own state
// and draws itself; account.js places it in the signed-in dialog.
import * as i18n from "../i18n.js";
import { h, fill, announce } from "../dom.js";

let section = null;
let bots = null; // null until the list is loaded
let token = null; // the token of the bot just made: shown until "Done"
let note = "";
let typed = "";
let csrf = "";
let owner = null; // whose bots these are: another account signed in starts afresh

async function call(method, path, body) {
  const answer = await fetch(path, {
    method,
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
    credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await answer.json();
  if (!answer.ok) {
    const error = new Error(data.message);
    error.code = data.code;
    throw error;
  }
  return data;
}

function reason(error) {
  if (error.code === "name_taken") return i18n.t("account_name_taken");
  if (error.code === "bad_schema") return i18n.t("account_name_bad");
  if (error.code === "too_many_bots") return i18n.t("account_bot_too_many");
  return i18n.t("account_failed");
}

async function load() {
  try {
    bots = (await call("GET", "/api/account/bots")).bots;
  } catch (error) {
    bots = [];
    note = reason(error);
  }
  draw();
}

async function create() {
  const name = typed.trim();
  if (!name) {
    note = i18n.t("account_name_bad");
    draw();
    return;
  }
  note = "";
  try {
    const made = await call("POST", "/api/account/bots", { name });
    token = made.token;
    typed = "";
    announce(i18n.t("account_bot_made", { name: made.name }));
    await load();
    return;
  } catch (error) {
    note = reason(error);
  }
  draw();
  announce(note);
}

async function revoke(bot) {
  if (!window.confirm(i18n.t("account_bot_revoke_confirm", { name: bot.name }))) return;
  try {
    await call("DELETE", `/api/account/bots/${encodeURIComponent(bot.id)}`);
    announce(i18n.t("account_bot_revoked", { name: bot.name }));
  } catch (error) {
    note = reason(error);
  }
  await load();
}

function item(bot) {
  const rating = bot.rating ? i18n.t("account_bot_rating", { rating: bot.rating.rating.toFixed(1) }) : "";
  const state = bot.revoked_at ? i18n.t("account_bot_revoked_state") : "";
  return h("li", { "data-bot": bot.id },
    h("span", { text: [bot.name, rating, state].filter(Boolean).join(" · ") }),
    bot.revoked_at ? null : h("button", { type: "button", "data-action": "revoke-bot", onclick: () => revoke(bot), text: i18n.t("account_bot_revoke") }));
}

function tokenBox() {
  const field = h("input", { id: "bot-token", readonly: true, value: token, "data-field": "bot-token", onfocus: (e) => e.target.select() });
  return h("div", { class: "bot-token", "data-region": "bot-token" },
    h("label", { for: "bot-token", text: i18n.t("account_bot_token") }),
    field,
    h("div", { class: "bot-token-actions" },
      h("button", { type: "button", "data-action": "copy-bot-token", onclick: () => {
        navigator.clipboard?.writeText(token).then(() => announce(i18n.t("account_bot_copied")), () => field.select());
      }, text: i18n.t("account_bot_copy") }),
      h("button", { type: "button", "data-action": "bot-token-done", onclick: () => { token = null; draw(); }, text: i18n.t("account_bot_done") })));
}

function draw() {
  if (!section) return;
  fill(section,
    h("h3", { text: i18n.t("account_bots") }),
    h("p", { class: "note", text: i18n.t("account_bots_note", { prefix: "BOT" }) }),
    note ? h("p", { class: "account-message", role: "alert", text: note }) : null,
    token ? tokenBox() : null,
    h("ul", { class: "account-keys", "data-region": "bots" }, (bots || []).map(item)),
    h("label", { for: "bot-name", text: i18n.t("account_bot_name") }),
    h("input", { id: "bot-name", "data-field": "bot-name", maxlength: 24, value: typed, oninput: (e) => { typed = e.target.value; }, onkeydown: (e) => e.key === "Enter" && create() }),
    h("button", { type: "button", "data-action": "create-bot", onclick: create, text: i18n.t("account_bot_create") }));
}

/** The bots' section of the signed-in dialog (``me``: GET /api/account). */
export function botsPart(me) {
  if (owner !== me.name) forgetBots();
  owner = me.name;
  csrf = me.csrf;
  if (!section) section = h("section", { class: "account-part", "data-region": "account-bots" });
  draw();
  if (bots === null) load();
  return section;
}

/** Forget the bots (signed out, or another account signed in). */
export function forgetBots() {
  owner = null;
  bots = null;
  token = null;
  note = "";
}
