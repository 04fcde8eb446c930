// The page: the language, the screens (the lobby at /, a table at /t/{id}), the rules dialog.
import * as i18n from "./i18n.js";
import { Lobby } from "./lobby.js";
import { TableView } from "./table/table.js";
import { openRules } from "./rules.js";
import { fourColours, setFourColours } from "./cards.js";
import { ProfileView, LeaderboardView } from "./account/profile.js";
import { AnalysisView } from "./analysis/analysis.js";
import { DailyView } from "./daily/daily.js";

const main = document.getElementById("main");
const picker = document.getElementById("lang-pick");
// On a phone the bar has no room for "Українська": each option shows its short name there
// (an option's label is what the closed picker and a screen reader show).
const SHORT = { en: "Eng", ru: "Рус", uk: "Укр" };
const narrow = window.matchMedia("(max-width: 480px)");
function fitPicker() {
  for (const option of picker.options) {
    if (narrow.matches) option.label = SHORT[option.value] || option.text;
    else option.removeAttribute("label");
  }
}
fitPicker();
narrow.addEventListener("change", fitPicker);
const colours = document.getElementById("colours-pick");
let screen = null;

function chrome() {
  document.getElementById("skip").textContent = i18n.t("web_skip");
  document.getElementById("home-link").textContent = i18n.t("web_title");
  document.getElementById("lang-label").textContent = i18n.t("web_language");
  document.getElementById("rules-open").textContent = i18n.t("web_rules");
  colours.setAttribute("aria-label", i18n.t("web_four_colours"));
  colours.title = i18n.t("web_four_colours");
  document.getElementById("rules-close").textContent = i18n.t("web_close");
  document.getElementById("rules-title").textContent = i18n.t("web_rules");
  picker.value = i18n.lang();
  document.dispatchEvent(new Event("foxtrot:lang")); // accounts: account.js redraws
}

function route() {
  if (screen) screen.destroy();
  const found = location.pathname.match(/^\/t\/([A-Za-z0-9_-]+)\/?$/);
  const player = location.pathname.match(/^\/p\/([^/]+)\/?$/); // profiles, leaderboard
  if (player) screen = new ProfileView(decodeURIComponent(player[1]), main, navigate);
  else if (location.pathname === "/leaderboard") screen = new LeaderboardView(main, navigate);
  else if (location.pathname === "/analysis") screen = new AnalysisView(main);
  else if (location.pathname === "/daily") screen = new DailyView(main, navigate); // daily/daily.js
  else screen = found ? new TableView(found[1], main, navigate) : new Lobby(main, navigate);
}

function navigate(path) {
  if (location.pathname + location.search !== path) history.pushState(null, "", path);
  route();
  main.focus();
}

function showColours(on) {
  setFourColours(on);
  colours.setAttribute("aria-pressed", String(on));
}
showColours(fourColours());
colours.addEventListener("click", () => showColours(colours.getAttribute("aria-pressed") !== "true"));

async function start() {
  await i18n.load(i18n.initialLanguage());
  chrome();
  route();
}

picker.addEventListener("change", async () => {
  await i18n.load(picker.value);
  chrome();
  if (screen) screen.relang();
  if (document.getElementById("rules-dialog").open) openRules();
});
document.getElementById("rules-open").addEventListener("click", () => openRules());
document.getElementById("rules-close").addEventListener("click", () => document.getElementById("rules-dialog").close());
document.getElementById("home-link").addEventListener("click", (event) => {
  event.preventDefault();
  navigate("/");
});
window.addEventListener("popstate", route);
// account.js opens the profile and the leaderboard in this page
document.addEventListener("foxtrot:navigate", (event) => navigate(event.detail));

start().catch((error) => {
  main.textContent = `Foxtrot: ${error.message}`;
});
