// The table's WebSocket (docs/protocol.md): hello with the seat token and the last sequence
// number seen, so that a reload or a lost connection comes back to the seat invisibly.
import { csrf, whenSessionKnown } from "./session.js"; // the session's CSRF token

const SEATS = "foxtrot.seat.";

/** The seat token of this browser at table ``table`` (kept for that table only). */
export function savedSeat(table) {
  try {
    const found = JSON.parse(localStorage.getItem(SEATS + table) || "null");
    return found && typeof found.token === "string" ? found : null;
  } catch {
    return null;
  }
}

export function saveSeat(table, seat, token) {
  localStorage.setItem(SEATS + table, JSON.stringify({ seat, token }));
}

export function forgetSeat(table) {
  localStorage.removeItem(SEATS + table);
}

/** JSON over HTTP; a refusal becomes an Error with the server's code and message. */
export async function api(path, { method = "GET", body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  if (method !== "GET") {
    await whenSessionKnown(); // a click before GET /api/account answered waits for its token
    if (csrf()) headers["X-CSRF-Token"] = csrf(); // signed in
  }
  const answer = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await answer.json().catch(() => ({}));
  if (!answer.ok) {
    const detail = Array.isArray(data.detail)
      ? data.detail.map((d) => `${(d.loc || []).slice(1).join(".")}: ${d.msg}`).join("; ")
      : data.message || `HTTP ${answer.status}`;
    const error = new Error(detail);
    error.code = data.code || `http_${answer.status}`;
    throw error;
  }
  return data;
}

let counter = 0;
// An action with no answer (ack or error) after RESEND_MS is sent again, with the same id: the
// server answers a resent id with its original result and never applies it twice
// (docs/protocol.md). After RESENDS unanswered resends the connection is taken for dead and
// opened again; every unanswered action is resent after the hello of each new connection.
export const RESEND_MS = 4000;
const RESENDS = 2;
// Errors that mean "not applied, send it again" (the table changed owner, no owner yet, too fast).
const AGAIN = new Set(["moved", "unavailable", "throttled"]);

export class TableSocket {
  /** ``handlers``: onMessage(msg), onState("connecting" | "open" | "lost"). */
  constructor(table, { token, lang, onMessage, onState }) {
    this.table = table;
    this.token = token;
    this.lang = lang;
    this.onMessage = onMessage;
    this.onState = onState;
    this.seq = null; // the last sequence number seen
    this.replayFrom = null; // the next hello asks for the events after this one (else after seq)
    this.ws = null;
    this.closed = false;
    this.retry = 300;
    this.pinger = null;
    this.unanswered = new Map(); // action id → { msg, sent: ms, tries }
    this.resender = setInterval(() => this.resendLate(), 1000);
  }

  open() {
    this.closed = false;
    this.onState("connecting");
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/tables/${this.table}`);
    this.ws = ws;
    ws.onopen = () => {
      const hello = { type: "hello", lang: this.lang };
      if (this.token) hello.token = this.token;
      // the events since ``replayFrom`` once (a change of language asks for the last ones again
      // in the new words); ``seq`` stays the newest seen, so an action is never sent as stale
      const since = this.replayFrom ?? this.seq;
      this.replayFrom = null;
      if (since !== null) hello.last_seq = since;
      ws.send(JSON.stringify(hello));
      for (const entry of this.unanswered.values()) this.transmit(entry); // after a reconnect
      this.retry = 300;
      this.onState("open");
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: "ping" }), 25000);
    };
    ws.onmessage = (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      if (typeof msg.seq === "number" && (msg.type === "event" || msg.type === "snapshot")) {
        this.seq = Math.max(this.seq ?? 0, msg.seq);
      }
      if ((msg.type === "ack" || msg.type === "error") && this.unanswered.has(msg.id)) {
        if (msg.type === "error" && AGAIN.has(msg.code)) {
          const entry = this.unanswered.get(msg.id);
          entry.sent = Date.now() - RESEND_MS + 500; // again in half a second
          return;
        }
        this.unanswered.delete(msg.id);
      }
      this.onMessage(msg);
    };
    ws.onclose = () => {
      clearInterval(this.pinger);
      if (this.ws !== ws || this.closed) return;
      this.onState("lost");
      setTimeout(() => {
        if (!this.closed && this.ws === ws) this.open();
      }, this.retry);
      this.retry = Math.min(this.retry * 2, 5000);
    };
  }

  /** Reconnect in another language (the server narrates in the language of the hello), and
   * ask again for the events after ``since`` (their words, for the log). */
  relang(lang, since = null) {
    this.lang = lang;
    this.replayFrom = since;
    const old = this.ws;
    this.ws = null;
    if (old) {
      old.onclose = null;
      old.close();
    }
    this.open();
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  /** Play ``action`` ("QS", "take") against the last seen sequence number; returns its id.
   * Until it is answered it is resent (same id, same seq) after a timeout and after a
   * reconnect; ``sent`` says whether it went out now (false: it waits for the connection). */
  act(action) {
    counter += 1;
    const id = `${Date.now().toString(36)}-${counter}`;
    const entry = { msg: { type: "action", id, seq: this.seq ?? 0, action }, sent: 0, tries: 0 };
    this.unanswered.set(id, entry);
    return { id, sent: this.transmit(entry) };
  }

  transmit(entry) {
    entry.sent = Date.now();
    entry.tries += 1;
    return this.send(entry.msg);
  }

  resendLate() {
    const now = Date.now();
    let dead = false;
    for (const entry of this.unanswered.values()) {
      if (now - entry.sent < RESEND_MS) continue;
      if (entry.tries > RESENDS) dead = true;
      this.transmit(entry);
    }
    if (dead && this.ws && this.ws.readyState === WebSocket.OPEN) {
      for (const entry of this.unanswered.values()) entry.tries = 1;
      this.ws.close(); // silent for too long: open a new connection (onclose reconnects)
    }
  }

  close() {
    this.closed = true;
    clearInterval(this.pinger);
    clearInterval(this.resender);
    if (this.ws) {
      this.ws.onclose = null;
      this.ws.close();
    }
    this.ws = null;
  }
}
