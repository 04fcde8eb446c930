// Accounts without passwords: register, sign in with a passkey, manage passkeys,
// sign out, delete the account. A button in the header opens the account dialog; guests
// never need it. Everything the page sends with the session cookie that changes something
// carries the session's CSRF token (X-CSRF-Token), read from GET /api/account.
import * as i18n from "../i18n.js";
import { h, fill, announce } from "../dom.js";
import { sessionKnown, setCsrf } from "../session.js";
import { botsPart, forgetBots } from "./bots.js";

const slot = document.getElementById("account-slot");
let me = { signed_in: false };
let dialog = null;
let message = "";
let typed = ""; // the name being typed survives a redraw

// ---------------------------------------------------------------- WebAuthn's bytes <-> JSON

function fromB64(text) {
  const base = text.replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(base + "=".repeat((4 - (base.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0)).buffer;
}

function toB64(buffer) {
  let raw = "";
  for (const byte of new Uint8Array(buffer)) raw += String.fromCharCode(byte);
  return btoa(raw).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function creationOptions(o) {
  return {
    ...o,
    challenge: fromB64(o.challenge),
    user: { ...o.user, id: fromB64(o.user.id) },
    excludeCredentials: (o.excludeCredentials || []).map((c) => ({ ...c, id: fromB64(c.id) })),
  };
}

function requestOptions(o) {
  return {
    ...o,
    challenge: fromB64(o.challenge),
    allowCredentials: (o.allowCredentials || []).map((c) => ({ ...c, id: fromB64(c.id) })),
  };
}

function credentialJSON(cred) {
  const r = cred.response;
  const response = { clientDataJSON: toB64(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = toB64(r.attestationObject);
    response.transports = r.getTransports ? r.getTransports() : [];
  } else {
    response.authenticatorData = toB64(r.authenticatorData);
    response.signature = toB64(r.signature);
    if (r.userHandle) response.userHandle = toB64(r.userHandle);
  }
  return { id: cred.id, rawId: toB64(cred.rawId), type: cred.type, response, clientExtensionResults: {} };
}

// ---------------------------------------------------------------- the server

class Refused extends Error {
  constructor(code, text) {
    super(text);
    this.code = code;
  }
}

async function call(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  if (me.signed_in) headers["X-CSRF-Token"] = me.csrf;
  const answer = await fetch(path, {
    method,
    headers,
    credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await answer.json();
  if (!answer.ok) throw new Refused(data.code, data.message);
  return data;
}

/** A ceremony: ask for options, let the browser make the credential, send it back. */
async function ceremony(beginPath, finishPath, body, create) {
  const begun = await call("POST", beginPath, body);
  const cred = create
    ? await navigator.credentials.create({ publicKey: creationOptions(begun.options) })
    : await navigator.credentials.get({ publicKey: requestOptions(begun.options) });
  return call("POST", finishPath, { challenge: begun.challenge, credential: credentialJSON(cred) });
}

function reason(error) {
  if (error instanceof Refused) {
    if (error.code === "name_taken") return i18n.t("account_name_taken");
    if (error.code === "throttled") return i18n.t("account_throttled");
    if (error.code === "bad_schema") return i18n.t("account_name_bad");
    if (error.code === "last_passkey") return i18n.t("account_last_passkey");
  }
  if (error && (error.name === "NotAllowedError" || error.name === "AbortError")) return i18n.t("account_cancelled");
  return i18n.t("account_failed");
}

async function attempt(work) {
  message = "";
  try {
    await work();
  } catch (error) {
    message = reason(error);
  }
  render();
  if (message) announce(message);
}

/** Use the account's language when it differs from the page's (the picker does the rest). */
function followLanguage() {
  const picker = document.getElementById("lang-pick");
  if (me.signed_in && me.lang && me.lang !== i18n.lang() && picker) {
    picker.value = me.lang;
    picker.dispatchEvent(new Event("change"));
  }
}

// ---------------------------------------------------------------- actions

function register() {
  const name = typed.trim();
  if (!name) {
    message = i18n.t("account_name_bad");
    render();
    return;
  }
  attempt(async () => {
    me = await ceremony("/api/account/register", "/api/account/register/finish", { name, lang: i18n.lang() }, true);
    typed = "";
    announce(i18n.t("account_signed_in", { name: me.name }));
  });
}

function signIn() {
  attempt(async () => {
    me = await ceremony("/api/account/sign-in", "/api/account/sign-in/finish", undefined, false);
    announce(i18n.t("account_signed_in", { name: me.name }));
    followLanguage();
  });
}

function addPasskey() {
  attempt(async () => {
    me = await ceremony("/api/account/passkeys", "/api/account/passkeys/finish", undefined, true);
  });
}

function removePasskey(id) {
  attempt(async () => {
    me = await call("DELETE", `/api/account/passkeys/${encodeURIComponent(id)}`);
  });
}

function signOut() {
  attempt(async () => {
    me = await call("POST", "/api/account/sign-out");
  });
}

function deleteAccount() {
  if (!window.confirm(i18n.t("account_delete_confirm", { name: me.name }))) return;
  attempt(async () => {
    me = await call("DELETE", "/api/account");
  });
}

// ---------------------------------------------------------------- drawing

function dateText(seconds) {
  return new Date(seconds * 1000).toLocaleDateString(i18n.lang(), { year: "numeric", month: "short", day: "numeric" });
}

function pageLink(path, text) {
  return h("a", { href: path, text, onclick: (event) => {
    event.preventDefault();
    dialog.close();
    document.dispatchEvent(new CustomEvent("foxtrot:navigate", { detail: path }));
  } });
}

function signedOutBody() {
  const supported = Boolean(window.PublicKeyCredential && navigator.credentials);
  return [
    h("p", { class: "note", text: i18n.t("account_note") }),
    h("p", { class: "account-links" }, pageLink("/leaderboard", i18n.t("leaderboard_title"))),
    supported ? null : h("p", { class: "account-message", text: i18n.t("account_unsupported") }),
    h("section", { class: "account-part" },
      h("h3", { text: i18n.t("account_sign_in_title") }),
      h("button", { type: "button", "data-action": "sign-in", disabled: !supported, onclick: signIn, text: i18n.t("account_sign_in") })),
    h("section", { class: "account-part" },
      h("h3", { text: i18n.t("account_new") }),
      h("label", { for: "account-name", text: i18n.t("account_name") }),
      h("input", { id: "account-name", "data-field": "display-name", maxlength: 24, autocomplete: "username", value: typed, oninput: (e) => { typed = e.target.value; }, onkeydown: (e) => e.key === "Enter" && register() }),
      h("button", { type: "button", "data-action": "register", disabled: !supported, onclick: register, text: i18n.t("account_register") })),
  ];
}

function signedInBody() {
  const keys = me.passkeys.map((key) =>
    h("li", { "data-passkey": key.id },
      h("span", { text: i18n.t("account_passkey_item", { date: dateText(key.created_at) }) }),
      h("button", { type: "button", "data-action": "remove-passkey", disabled: me.passkeys.length < 2, onclick: () => removePasskey(key.id), text: i18n.t("account_remove_passkey") })));
  return [
    h("p", { "data-region": "account-name", text: i18n.t("account_signed_in", { name: me.name }) }),
    h("p", { class: "account-links" },
      pageLink(`/p/${encodeURIComponent(me.name)}`, i18n.t("profile_yours")),
      pageLink("/leaderboard", i18n.t("leaderboard_title"))),
    h("section", { class: "account-part" },
      h("h3", { text: i18n.t("account_passkeys") }),
      h("ul", { class: "account-keys", "data-region": "passkeys" }, keys),
      me.passkeys.length < 2 ? h("p", { class: "note", text: i18n.t("account_last_passkey") }) : null,
      h("button", { type: "button", "data-action": "add-passkey", onclick: addPasskey, text: i18n.t("account_add_passkey") })),
    botsPart(me),
    h("section", { class: "account-part account-actions" },
      h("button", { type: "button", "data-action": "sign-out", onclick: signOut, text: i18n.t("account_sign_out") }),
      h("button", { type: "button", class: "danger", "data-action": "delete-account", onclick: deleteAccount, text: i18n.t("account_delete") })),
  ];
}

function ensureDialog() {
  if (dialog) return dialog;
  dialog = h("dialog", { id: "account-dialog", class: "account-dialog", "aria-labelledby": "account-title" });
  document.body.append(dialog);
  return dialog;
}

/** A person's outline: the account button on a phone, where the bar has no room for words. */
function personIcon() {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 20 20");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", "account-icon");
  const head = document.createElementNS(ns, "circle");
  head.setAttribute("cx", "10");
  head.setAttribute("cy", "6.5");
  head.setAttribute("r", "3.5");
  const body = document.createElementNS(ns, "path");
  body.setAttribute("d", "M3 18c0-4 3-6.5 7-6.5s7 2.5 7 6.5");
  svg.append(head, body);
  return svg;
}

function render() {
  setCsrf(me.signed_in ? me.csrf : null);
  if (!me.signed_in) forgetBots();
  if (!slot || !i18n.has("account_open")) return; // the catalog is not loaded yet
  const label = me.signed_in ? me.name : i18n.t("account_open");
  fill(slot, h("button", { type: "button", id: "account-open", "data-action": "account", "aria-haspopup": "dialog", "aria-label": label, title: label, onclick: open },
    personIcon(), h("span", { class: "account-label", text: label })));
  const box = ensureDialog();
  const wasOpen = box.open;
  // a redraw must not take the field from under a person typing in it (nor from a test)
  const focused = box.contains(document.activeElement) ? document.activeElement.id : "";
  fill(box,
    h("div", { class: "dialog-head" },
      h("h2", { id: "account-title", text: i18n.t("account_title") }),
      h("button", { type: "button", "data-action": "close-account", onclick: () => box.close(), text: i18n.t("web_close") })),
    message ? h("p", { class: "account-message", role: "alert", "data-region": "account-message", text: message }) : null,
    me.signed_in ? signedInBody() : signedOutBody());
  if (wasOpen && !box.open) box.showModal();
  const again = focused && document.getElementById(focused);
  if (again) again.focus();
}

function open() {
  message = "";
  render();
  ensureDialog().showModal();
}

async function refresh() {
  let fresh;
  try {
    const answer = await fetch("/api/account", { credentials: "same-origin" });
    fresh = answer.ok ? await answer.json() : { signed_in: false };
  } catch {
    fresh = { signed_in: false };
  }
  if (JSON.stringify(fresh) !== JSON.stringify(me)) { // else nothing to redraw
    me = fresh;
    render();
  }
  sessionKnown();
}

// The page (main.js) says when its catalog is loaded or its language changes.
document.addEventListener("foxtrot:lang", () => {
  if (me.signed_in && me.lang !== i18n.lang()) {
    me.lang = i18n.lang();
    call("PATCH", "/api/account", { lang: me.lang }).catch(() => {});
  }
  render();
});
render(); // main.js may have announced its catalog before this module ran: draw with it now
refresh();
