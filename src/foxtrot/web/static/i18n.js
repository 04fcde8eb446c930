// Messages from the server's catalog (GET /api/i18n/{lang}): the one set of translations
// shared with the terminal game, the narration and the coach.
export const LANGUAGES = ["en", "ru", "uk"];
const STORE = "foxtrot.lang";

let data = { lang: "en", messages: {}, cards: {} };
let plural = new Intl.PluralRules("en");

/** The language to start with: the one chosen before, else the browser's, else English. */
export function initialLanguage() {
  const saved = localStorage.getItem(STORE);
  if (LANGUAGES.includes(saved)) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const code = String(tag).slice(0, 2).toLowerCase();
    if (LANGUAGES.includes(code)) return code;
  }
  return "en";
}

/** Fetch and use the catalog of ``lang``; remember the choice; the page's lang follows. */
export async function load(lang) {
  const answer = await fetch(`/api/i18n/${lang}`);
  if (!answer.ok) throw new Error(`catalog ${lang}: HTTP ${answer.status}`);
  data = await answer.json();
  plural = new Intl.PluralRules(lang);
  localStorage.setItem(STORE, lang);
  document.documentElement.lang = lang;
  return lang;
}

export function lang() {
  return data.lang;
}

function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, (all, name) => (name in values ? String(values[name]) : all));
}

/** The message ``key`` with ``values`` filled in (the key itself if it is missing). */
export function t(key, values = {}) {
  const message = data.messages[key];
  if (message === undefined) return key;
  if (typeof message !== "string") return n(key, Number(values.n ?? 0), values);
  return fill(message, values);
}

/** The counted message ``key`` in the plural form of ``count`` (CLDR rules, as the server's). */
export function n(key, count, values = {}) {
  const forms = data.messages[key];
  if (forms === undefined) return key;
  if (typeof forms === "string") return fill(forms, { ...values, n: count });
  const form = forms[plural.select(count)] ?? forms.other ?? forms.many ?? Object.values(forms)[0];
  return fill(form, { ...values, n: count });
}

export function has(key) {
  return key in data.messages;
}

/** A score as the score sheets and standings write it: a real minus sign (−20), and with
 * ``sign`` a plus too (+34); 0 plain. */
export function points(value, { sign = false } = {}) {
  if (value < 0) return `−${-value}`;
  return sign && value > 0 ? `+${value}` : String(value);
}

/** A player's name as this language shows it: a computer seat's English default name
 * ("Computer 2 (medium)", as the server stores it and its records keep it) in words of this
 * language ("Компьютер 2 (средний)"); any other name as it is. The same as the server's
 * ``foxtrot.i18n.seat_name``, whose table comes with the catalog. */
export function seatName(name) {
  if (typeof name !== "string") return name;
  return data.seat_names?.[name] ?? name;
}

/** The levels a table of ``players`` cannot tell from the level below (the server's ratings). */
export function levelTies(players) {
  return data.level_ties?.[String(players)] ?? [];
}

const LEARNED_NAMED = "learned:";

/** The learned levels this server offers at a table of ``players``: "learned" (the policy
 * shipped for that size) and its operator's "learned:NAME", each only at the sizes it plays
 * (the server's list comes with the catalog). */
export function learnedLevels(players) {
  return Object.entries(data.learned ?? {})
    .filter(([, sizes]) => sizes.includes(Number(players)))
    .map(([kind]) => kind);
}

/** Whether a seat kind is a learned level ("learned", "learned:NAME"). */
export function isLearned(kind) {
  return kind === "learned" || String(kind).startsWith(LEARNED_NAMED);
}

/** A computer level in words: "medium" -> "средний", "learned:NAME" -> "обученный: NAME". */
export function levelName(kind) {
  return String(kind).startsWith(LEARNED_NAMED)
    ? t("computer_level_learned", { name: kind.slice(LEARNED_NAMED.length) })
    : t(`tui_level_${kind}`);
}

/** A seat's kind in words ("computer, medium"; "computer, learned: NAME"). */
export function kindName(kind) {
  return String(kind).startsWith(LEARNED_NAMED)
    ? t("web_kind_learned_named", { name: kind.slice(LEARNED_NAMED.length) })
    : t(`web_kind_${kind}`);
}

/** Whether ``name`` is a computer seat's default name (a level is part of it). */
export function isComputerName(name) {
  return typeof name === "string" && !!data.seat_names && name in data.seat_names;
}

/** A card's short text for the screen: "10♥", "Д♠". */
export function cardShort(code) {
  return (data.cards[code] || [code])[0];
}

/** A card in words, as a screen reader should say it: "Queen of spades", "дама пик"; in
 * ``grammatical`` case ("nom", "acc", "gen", "ins") for a sentence: cardName("QS", "acc") is
 * "даму пик". A message names the case of its card slot: {card}, {card_acc}, … */
export function cardName(code, grammatical = "nom") {
  return data.card_cases?.[code]?.[grammatical] ?? (data.cards[code] || [code, code])[1];
}

/** The values of every card slot a message may have, the card in words in each case:
 * t("web_hint_play", cardSlots("KD")) is "Тренер советует: сыграйте короля бубен." */
export function cardSlots(code) {
  const slots = { card: cardName(code) };
  for (const grammatical of Object.keys(data.card_cases?.[code] || { nom: 1 })) {
    slots[`card_${grammatical}`] = cardName(code, grammatical);
  }
  return slots;
}

/** Cards in words, joined: "ten of hearts, Jack of clubs". */
export function cardNames(codes) {
  return codes.map(cardName).join(", ");
}

const heard = new Map(); // a narration line for the screen -> the server's words for it

/** Remember the server's spoken lines (cards in words, each in its case) for its lines of text. */
export function hear(lines = [], words = []) {
  lines.forEach((line, i) => { if (words[i]) heard.set(line, words[i]); });
  while (heard.size > 500) heard.delete(heard.keys().next().value);
}

/** A line as a screen reader should say it: the server's words for it if it sent them (the
 * cards in the case the sentence needs), else every card glyph ("10♥", "Д♠") replaced by its
 * name in words. */
export function spoken(text) {
  if (heard.has(text)) return heard.get(text);
  if (!data.spoken) {
    data.spoken = new Map(Object.values(data.cards).map(([short, name]) => [short, name]));
    const shorts = [...data.spoken.keys()].sort((a, b) => b.length - a.length).map((x) => x.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    data.spokenRe = new RegExp(shorts.join("|"), "g");
  }
  return text.replace(data.spokenRe, (found) => data.spoken.get(found) || found);
}
