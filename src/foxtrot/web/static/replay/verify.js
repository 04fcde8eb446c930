// The fair-deal check fx/v1 (docs/fair.md) done in the browser with WebCrypto: for every deal of
// a record the server wrote, the revealed server seed must hash (SHA-256) to the commitment
// published before the deal, and the deck must be the Fisher–Yates shuffle driven by
// HMAC-SHA256(server seed, "fx/v1|table|deal|seeds" || counter). verifyRecord mirrors
// foxtrot.web.fair.verify_record check by check, in the same order and with the same English
// messages. verifyFile adds what the command checks besides: reading the file (G2) and the
// rules of every move and score (G3), both asked of the server's engine (POST
// /api/records/check) so that no rule is written twice; so the page and `foxtrot verify` give
// the same verdict on the same file (tests/browser/test_verify.py compares them), and the
// fair-deal verdict never depends on the server.
import { h, fill, announce } from "../dom.js";
import { t, n } from "../i18n.js";

export const ALGORITHM = "fx/v1";
const SEED_BYTES = 32;
const PLAYER_SEED_MAX = 64;
const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const SUITS = ["S", "H", "D", "C"];

/** A refusal: ``message`` is verify_record's English text; ``code`` and ``values`` translate it. */
export class FairError extends Error {
  constructor(message, code, values = {}) {
    super(message);
    this.code = code;
    this.values = values;
  }
}

const isMapping = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

/** Python's repr() of a JSON value, for the one message that quotes a value as Python does. */
function pyRepr(value) {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "string") {
    const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
    let out = "";
    for (const ch of value) {
      if (ch === "\\") out += "\\\\";
      else if (ch === quote) out += `\\${ch}`;
      else if (ch === "\n") out += "\\n";
      else if (ch === "\r") out += "\\r";
      else if (ch === "\t") out += "\\t";
      else if (ch < " " || ch === "\x7f") out += `\\x${ch.charCodeAt(0).toString(16).padStart(2, "0")}`;
      else out += ch;
    }
    return quote + out + quote;
  }
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  if (typeof value === "object") {
    return `{${Object.entries(value).map(([k, v]) => `${pyRepr(k)}: ${pyRepr(v)}`).join(", ")}}`;
  }
  return String(value);
}

/** Python's str() of a JSON value (a player's seed is read as ``str(seed)``). */
function pyStr(value) {
  return typeof value === "string" ? value : pyRepr(value);
}

/** bytes.fromhex: pairs of hex digits, any case, ASCII whitespace between pairs; null if bad. */
function fromHex(text) {
  const out = [];
  let i = 0;
  while (i < text.length) {
    if (" \t\n\r\v\f".includes(text[i])) {
      i += 1;
      continue;
    }
    const pair = text.slice(i, i + 2);
    if (!/^[0-9a-fA-F]{2}$/.test(pair)) return null;
    out.push(parseInt(pair, 16));
    i += 2;
  }
  return new Uint8Array(out);
}

const toHex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

function subtle() {
  const found = globalThis.crypto && globalThis.crypto.subtle;
  if (!found) {
    throw new FairError(
      "WebCrypto is not available (the page must be served over https or from localhost)",
      "no_crypto",
    );
  }
  return found;
}

/** SHA-256 of ``bytes`` as lowercase hex: the commitment to a server seed. */
export async function commitment(bytes) {
  return toHex(new Uint8Array(await subtle().digest("SHA-256", bytes)));
}

/** check_player_seed: lowercase hex, an even number of digits, at most 64 bytes. */
function checkPlayerSeed(text) {
  if (typeof text !== "string" || !/^[0-9a-f]*$/.test(text) || text.length % 2) {
    throw new FairError(
      "a player's seed is lowercase hex text with an even number of digits",
      "player_seed",
    );
  }
  if (text.length > 2 * PLAYER_SEED_MAX) {
    throw new FairError(`a player's seed has at most ${PLAYER_SEED_MAX} bytes`, "player_seed");
  }
  return text;
}

/** The HMAC's message: UTF-8 of ``fx/v1|table|deal|seed0,seed1,…``. */
export function message(table, deal, playerSeeds) {
  if (table.includes("|")) throw new FairError("a table id may not hold '|'", "table_bar");
  const seeds = playerSeeds.map(checkPlayerSeed).join(",");
  return new TextEncoder().encode(`${ALGORITHM}|${table}|${deal}|${seeds}`);
}

/** The unshuffled pack: ranks 2…A, each in suits S H D C, each card ``decks`` times in a row. */
export function unshuffled(decks) {
  const pack = [];
  for (const rank of RANKS) for (const suit of SUITS) for (let k = 0; k < decks; k += 1) pack.push(rank + suit);
  return pack;
}

/** 32-bit big-endian words of HMAC-SHA256(seed, msg || counter as 8 bytes), counter 0, 1, 2… */
async function* words(seed, msg) {
  const key = await subtle().importKey("raw", seed, { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const input = new Uint8Array(msg.length + 8);
  input.set(msg);
  const counter = new DataView(input.buffer, msg.length, 8);
  for (let block = 0; ; block += 1) {
    counter.setBigUint64(0, BigInt(block), false);
    const out = new DataView(await subtle().sign("HMAC", key, input));
    for (let i = 0; i < 32; i += 4) yield out.getUint32(i, false);
  }
}

/** A uniform number below ``n``: words at or above the largest multiple of ``n`` are skipped. */
async function below(stream, n) {
  const limit = 2 ** 32 - (2 ** 32 % n);
  for (;;) {
    const { value } = await stream.next();
    if (value < limit) return value % n;
  }
}

/** The deck of a deal, index 0 the top: Fisher–Yates from the last position down. */
export async function shuffle(seed, table, deal, playerSeeds, decks) {
  if (seed.length !== SEED_BYTES) throw new FairError(`a server seed has ${SEED_BYTES} bytes`, "seed");
  const deck = unshuffled(decks);
  const stream = words(seed, message(table, deal, playerSeeds));
  for (let i = deck.length - 1; i > 0; i -= 1) {
    const j = await below(stream, i + 1);
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

function sameDeck(given, expected) {
  return (
    Array.isArray(given) &&
    given.length === expected.length &&
    given.every((card, i) => card === expected[i])
  );
}

/**
 * Check every deal of a record against its commitment (verify_record, step by step).
 * Resolves to the report's lines, e.g. "deal 0: deck matches its commitment (2 player seeds)",
 * and ``deals``: per deal {deal, status: "ok" | "open", seeds}; rejects with a FairError
 * naming the first deal that fails.
 */
export async function verifyRecord(record) {
  const table = isMapping(record) ? record.table : undefined;
  if (typeof table !== "string") {
    throw new FairError("the record has no 'table' key: it was not written by the server", "no_table");
  }
  const options = record.options;
  const decks = isMapping(options) ? options.decks : undefined;
  if (decks !== 2 && decks !== 3) throw new FairError("options.decks is missing or not 2 or 3", "decks");
  const deals = record.deals;
  if (!Array.isArray(deals)) throw new FairError("deals: expected a list", "deals");
  const players = options.players;
  const lines = [];
  const report = [];
  for (const [index, deal] of deals.entries()) {
    const where = `deal ${index}`;
    const at = { deal: index + 1 };
    const fair = isMapping(deal) ? deal.fair : undefined;
    if (!isMapping(fair)) throw new FairError(`${where}: no 'fair' key`, "no_fair", at);
    if (fair.algorithm !== ALGORITHM) {
      throw new FairError(
        `${where}: algorithm is ${pyRepr(fair.algorithm)}, not '${ALGORITHM}'`,
        "algorithm",
        { ...at, algorithm: pyRepr(fair.algorithm) },
      );
    }
    const commit = fair.commitment;
    const seeds = fair.player_seeds;
    if (typeof commit !== "string" || !Array.isArray(seeds)) {
      throw new FairError(`${where}: commitment and player_seeds are required`, "fields", at);
    }
    if (seeds.length !== players) {
      throw new FairError(
        `${where}: expected ${pyRepr(players)} player seeds, got ${seeds.length}`,
        "seed_count",
        { ...at, expected: pyRepr(players), got: seeds.length },
      );
    }
    const revealed = fair.server_seed;
    if (revealed === null || revealed === undefined) {
      if ("scores" in deal) {
        throw new FairError(
          `${where}: the deal has ended but its server seed is not revealed`,
          "unrevealed",
          at,
        );
      }
      lines.push(`${where}: in progress; its seed is revealed when it ends`);
      report.push({ deal: index, status: "open", seeds: 0 });
      continue;
    }
    const seed = (typeof revealed === "string" && fromHex(revealed)) || new Uint8Array(0);
    if (seed.length !== SEED_BYTES) {
      throw new FairError(`${where}: server_seed is not ${SEED_BYTES} bytes of hex`, "seed", at);
    }
    if ((await commitment(seed)) !== commit) {
      throw new FairError(
        `${where}: the revealed server seed does not match the commitment`,
        "commitment",
        at,
      );
    }
    let expected;
    try {
      expected = await shuffle(seed, table, index, seeds.map(pyStr), decks);
    } catch (error) {
      if (!(error instanceof FairError) || error.code === "no_crypto") throw error;
      throw new FairError(`${where}: ${error.message}`, error.code, at);
    }
    if (!sameDeck(deal.deck, expected)) {
      throw new FairError(
        `${where}: the deck is not the one the seeds give (it was changed or stacked)`,
        "deck",
        at,
      );
    }
    const given = seeds.filter((s) => s !== "" && s !== null && s !== 0 && s !== false).length;
    lines.push(`${where}: deck matches its commitment (${given} player seeds)`);
    report.push({ deal: index, status: "ok", seeds: given });
  }
  return { lines, deals: report };
}

/** The check as a result object (never rejects): {ok, lines, deals, error, code, values}. */
export async function checkRecord(record) {
  try {
    return { ok: true, error: null, code: null, values: {}, ...(await verifyRecord(record)) };
  } catch (error) {
    if (!(error instanceof FairError)) throw error;
    return { ok: false, lines: [], deals: [], error: error.message, code: error.code, values: error.values };
  }
}

/** The server's rule check of a file (POST /api/records/check, web/review.py): G2 then G3. */
async function rulesCheck(bytes) {
  const answer = await fetch("/api/records/check", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: bytes,
  });
  const data = await answer.json().catch(() => ({}));
  if (!answer.ok) throw new Error(data.message || `HTTP ${answer.status}`);
  return data;
}

const refused = (code, detail) => ({
  ok: false,
  lines: [],
  deals: [],
  error: detail,
  code,
  values: { detail },
});

/**
 * What `foxtrot verify FILE` says of a file's bytes, in its order: the record is read (G2, by
 * the server's reader), its fair deal checked (here, with WebCrypto), its moves and scores
 * replayed (G3, by the server's engine). ``error`` is the command's message after
 * "REFUSED FILE: "; ``rules`` is "ok", or "unchecked" (``rulesError``) when the server could
 * not be asked — the fair-deal verdict stands on its own.
 */
export async function verifyFile(bytes) {
  let rules;
  try {
    rules = await rulesCheck(bytes);
  } catch (error) {
    rules = { ok: null, error: error.message };
  }
  if (rules.ok === false && rules.stage === "read") return refused("read", rules.error);
  let record;
  try {
    record = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch (error) {
    return refused("read", error.message);
  }
  const fair = await checkRecord(record);
  if (!fair.ok) return fair;
  if (rules.ok === false) return refused("rules", rules.error);
  return { ...fair, rules: rules.ok ? "ok" : "unchecked", rulesError: rules.error ?? null };
}

// ------------------------------------------------------------------------------ the page

/** The verdict in words: refused (naming the deal and why), or that the check could not run. */
export function refusalText(result) {
  const reason = t(`verify_err_${result.code}`, result.values);
  return result.code === "no_crypto" ? t("verify_failed", { error: reason }) : t("verify_refused", { reason });
}

function resultView(result) {
  if (!result.ok) {
    return h("p", { class: "verify-result verify-refused" }, refusalText(result));
  }
  const items = result.deals.map((deal) =>
    h(
      "li",
      { class: `verify-deal verify-${deal.status}` },
      deal.status === "ok"
        ? t("verify_deal_ok", { deal: deal.deal + 1, seeds: n("verify_seeds", deal.seeds) })
        : t("verify_deal_open", { deal: deal.deal + 1 }),
    ),
  );
  const checked = result.deals.filter((deal) => deal.status === "ok").length;
  const rules =
    result.rules === "ok"
      ? t("verify_rules_ok")
      : t("verify_rules_unchecked", { error: result.rulesError ?? "" });
  return h(
    "div",
    { class: "verify-result verify-ok" },
    h("p", { class: "verify-verdict" }, n("verify_ok", checked)),
    h("ul", { class: "verify-deals" }, items),
    result.rules ? h("p", { class: `verify-rules verify-rules-${result.rules}` }, rules) : null,
  );
}

const encode = (record) => new TextEncoder().encode(JSON.stringify(record));

/** The bytes of the table's record, as the server sends it to a player. */
async function recordBytes(table, token) {
  const answer = await fetch(`/api/tables/${encodeURIComponent(table)}/record`, {
    headers: { Accept: "application/json", Authorization: `Bearer ${token}` },
  });
  if (!answer.ok) {
    const data = await answer.json().catch(() => ({}));
    throw new Error(data.message || `HTTP ${answer.status}`);
  }
  return new Uint8Array(await answer.arrayBuffer());
}

/** A message's `command` parts as code (the catalog marks them with backticks). */
function withCode(text) {
  return text.split("`").map((part, i) => (i % 2 ? h("code", {}, part) : part));
}

/**
 * The check in the page: a button that fetches the table's record (a player's token is needed)
 * and checks every deal, and a file input to check any record file. ``record`` may be given.
 */
export function mountVerify(root, { table = null, token = null, record = null } = {}) {
  const output = h("div", { class: "verify-output" });
  const run = async (getBytes) => {
    fill(output, h("p", { class: "verify-working" }, t("verify_working")));
    let result;
    try {
      result = await verifyFile(await getBytes());
    } catch (error) {
      const text = t("verify_failed", { error: error.message });
      fill(output, h("p", { class: "verify-result verify-refused" }, text));
      announce(text);
      return null;
    }
    fill(output, resultView(result));
    announce(result.ok ? n("verify_ok", result.deals.filter((d) => d.status === "ok").length) : refusalText(result));
    return result;
  };
  const fileId = `verify-file-${Math.random().toString(36).slice(2, 8)}`;
  // The browser's own file input words its button in the browser's language, not the page's:
  // it stays out of sight and a button of the page opens it.
  const chosenName = h("span", { class: "verify-chosen", id: `${fileId}-name` }, t("verify_no_file"));
  const file = h("input", {
    type: "file",
    id: fileId,
    hidden: true,
    accept: ".json,application/json",
    onchange: () => {
      const chosen = file.files && file.files[0];
      if (!chosen) return;
      chosenName.textContent = chosen.name;
      run(async () => new Uint8Array(await chosen.arrayBuffer()));
    },
  });
  const labelId = `${fileId}-label`;
  const choose = h("button", {
    type: "button", class: "verify-choose", "aria-labelledby": `${labelId} ${fileId}-choose`,
    id: `${fileId}-choose`, "aria-describedby": `${fileId}-name`, onclick: () => file.click(),
  }, t("verify_choose"));
  const canFetch = record !== null || (table && token);
  const button = canFetch
    ? h(
        "button",
        {
          type: "button",
          class: "verify-start",
          onclick: () => run(async () => (record ? encode(record) : await recordBytes(table, token))),
        },
        t("verify_start"),
      )
    : null;
  const headingId = `verify-title-${Math.random().toString(36).slice(2, 8)}`;
  const section = h(
    "section",
    { class: "verify panel", "aria-labelledby": headingId },
    h("h3", { id: headingId }, t("verify_title")),
    h("p", { class: "verify-explain" }, t("verify_explain")),
    button,
    h("p", { class: "verify-file" }, h("label", { for: fileId, id: labelId }, t("verify_file")), " ", choose, " ",
      chosenName, file),
    output,
    h("p", { class: "verify-note" }, withCode(t("verify_rules_note"))),
  );
  fill(root, section);
  return { section, run: (rec) => run(async () => encode(rec)) };
}
