// The coach's two panels at the table: the hint (a move, its reason, the card lit in the hand)
// and the card count (what this seat has not seen; redrawn at every event while it is open).
import { h, fill, announce } from "../dom.js";
import { t, cardSlots, lang } from "../i18n.js";
import { api } from "../net.js";
import { errorText } from "../lobby.js";

function capital(text) {
  return text ? text[0].toLocaleUpperCase(lang()) + text.slice(1) : text;
}

/** Ask the coach for a hint for table view ``tv``'s seat, and show it by the hand. */
export async function askHint(tv) {
  if (!tv.mine || !tv.myTurn()) {
    tv.say(t("web_err_not_your_turn"));
    return;
  }
  const seq = tv.sock.seq;
  fill(tv.el.hint, h("p", {}, t("web_hint_wait")));
  tv.el.hint.hidden = false;
  try {
    const found = await api(`/api/tables/${tv.id}/hint`, {
      method: "POST", token: tv.mine.token, body: { lang: lang() },
    });
    if (tv.sock.seq !== seq) return; // the table moved on: the hint is for an old position
    const what = found.card ? t("web_hint_play", cardSlots(found.card)) : t("web_hint_take");
    const why = capital(found.reason).replace(/[^.!?…]$/, "$&.");
    tv.hintFor = found.action;
    fill(tv.el.hint,
      h("p", { id: "hint-text" }, h("strong", {}, what), " ", why),
      h("button", { type: "button", id: "hint-play", onclick: () => tv.act(found.action) }, t("web_hint_play_it")),
      h("button", { type: "button", class: "quiet", onclick: () => tv.closeHint() }, t("web_close")));
    tv.renderHand();
    announce(`${what} ${why}`);
  } catch (error) {
    fill(tv.el.hint, h("p", { class: "msg" }, errorText(error)));
    announce(errorText(error));
  }
}

/** Open (or redraw) the card count of table view ``tv``'s seat over the felt. */
export async function showCount(tv) {
  if (!tv.mine || !tv.view || tv.view.phase !== "playing") {
    if (!tv.countOpen) tv.say(t("web_err_not_started"));
    return;
  }
  tv.countOpen = true;
  const seq = tv.sock.seq;
  try {
    const found = await api(`/api/tables/${tv.id}/count?lang=${lang()}`, { token: tv.mine.token });
    if (!tv.countOpen || tv.sock.seq !== seq) return; // closed, or a newer count is coming
    fill(tv.el.count,
      h("div", { class: "row count-head" }, h("h3", {}, t("web_counting")),
        h("button", { type: "button", id: "count-close", onclick: () => tv.closeCount() }, t("web_close"))),
      h("ul", {}, found.counting.map((line) => h("li", {}, line))));
    tv.el.count.hidden = false;
    tv.el.count.dataset.seq = String(seq);
  } catch (error) {
    tv.say(errorText(error));
  }
}
