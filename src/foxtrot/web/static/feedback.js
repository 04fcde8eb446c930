// What a player notices without looking at the hand: the tab's title and icon say "your turn",
// an optional chime (made here with Web Audio: no sound files), a short celebration of a big
// moment, and the player's remembered settings (sound, marking the cards that take, adding a
// seed of one's own to every deal). Nothing moves under prefers-reduced-motion: reduce.
import { reducedMotion } from "./table/stocks.js";

const SETTINGS = {
  sound: ["foxtrot.sound", false],
  markTakes: ["foxtrot.markTakes", true],
  ownSeed: ["foxtrot.ownSeed", true],
};

/** A remembered setting: ``sound``, ``markTakes`` or ``ownSeed``. */
export function setting(name) {
  const [key, byDefault] = SETTINGS[name];
  const stored = localStorage.getItem(key);
  return stored === null ? byDefault : stored === "1";
}

export function setSetting(name, on) {
  localStorage.setItem(SETTINGS[name][0], on ? "1" : "0");
}

function icon(dot) {
  // the site's icon: a card, with an amber dot while it is your turn
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="6" y="2" width="20" height="28" rx="3" fill="#1d5a36"/>${
    dot ? '<circle cx="24" cy="8" r="7" fill="#ffb000" stroke="#16181d" stroke-width="2"/>' : ""}</svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

/** The tab's title ``title``, marked "● ``turn``" and with the dotted icon while ``mine``. */
export function signalTurn(title, mine, turn) {
  document.title = mine ? `● ${turn} — ${title}` : title;
  const link = document.querySelector("link[rel='icon']");
  if (link) link.href = icon(mine);
}

let audio = null;

/** Two soft notes when your turn comes (only with the sound setting on). */
export function chime() {
  if (!setting("sound")) return;
  try {
    audio = audio || new AudioContext();
    const now = audio.currentTime;
    [660, 880].forEach((freq, i) => {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + i * 0.12);
      gain.gain.exponentialRampToValueAtTime(0.12, now + i * 0.12 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.12 + 0.25);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + i * 0.12);
      osc.stop(now + i * 0.12 + 0.3);
    });
  } catch {
    /* a page without audio stays silent */
  }
}

/** How big the moment of ``item`` (an engine event) is: "foxtrot", "queen", "big" or null. */
export function bigMoment(item) {
  if (item.event === "card_played" && item.result?.includes("foxtrot")) return "foxtrot";
  const taken = item.taken || [];
  if (taken.includes("QS")) return "queen";
  if (taken.length >= 10) return "big";
  return null;
}

/** Let ``node`` (the last-action line) glow for a moment; still under reduced motion. */
export function celebrate(node, kind) {
  node.dataset.moment = kind;
  if (reducedMotion()) return;
  node.classList.remove("celebrate");
  void node.offsetWidth; // restart the animation
  node.classList.add("celebrate");
}
