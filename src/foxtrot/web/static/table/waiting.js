// The waiting room of a table before its match starts: the table described, the Sit form first
// for someone who came by an invite link, the invite to share for someone already seated.
import { h, fill } from "../dom.js";
import { t, seatName, isComputerName, kindName } from "../i18n.js";
import { api, saveSeat, forgetSeat } from "../net.js";
import { errorText, optionsText } from "../lobby.js";

function seatText(seat, mine) {
  if (seat.kind !== "person") {
    return isComputerName(seat.name) ? seatName(seat.name) : `${seat.name || ""} (${kindName(seat.kind)})`;
  }
  if (!seat.taken) return t("web_seat_free");
  return `${seat.name}${mine?.seat === seat.seat ? ` (${t("web_you")})` : ""}`;
}

/** Draw the waiting room of table view ``tv`` (a TableView) into ``tv.el.wait``. */
export function renderWaiting(tv) {
  const s = tv.summary;
  const e = tv.el;
  const sitting = !!tv.mine;
  const free = s.seats.some((seat) => seat.kind === "person" && !seat.taken);
  e.title.textContent = sitting ? t("web_waiting") : t("web_invited");
  e.turn.textContent = "";
  const link = new URL(s.invite, location.href).href;
  const linkBox = h("input", { id: "invite-link", type: "text", readonly: true, value: link, "aria-labelledby": "invite-label" });
  const copy = h("button", { type: "button", id: "copy-link", onclick: async () => {
    try {
      await navigator.clipboard.writeText(link);
      tv.say(t("web_copied"), "ok");
    } catch {
      linkBox.select();
      tv.say(t("web_copy_failed"));
    }
  } }, t("web_copy"));
  const seats = h("ul", { class: "seat-list" }, s.seats.map((seat) => h("li", {},
    `${t("web_seat_n", { n: seat.seat + 1 })}: `, seatText(seat, tv.mine))));
  // the waiting room is drawn anew at every presence change: keep what is being typed
  const typed = e.joinName?.value;
  const typing = e.joinName !== undefined && document.activeElement === e.joinName;
  e.joinName = h("input", {
    id: "join-name", type: "text", maxlength: 40, "data-field": "name", autocomplete: "nickname",
    value: typed ?? (localStorage.getItem("foxtrot.name") || ""),
  });
  const joinForm = !sitting && free && s.status === "open"
    ? h("form", { id: "join-form", class: "sit", onsubmit: (ev) => join(tv, ev) },
      h("div", { class: "field" }, h("label", { for: "join-name" }, t("web_your_name")), e.joinName),
      h("button", { type: "submit", class: "primary", id: "join-btn", "data-action": "sit" }, t("web_join_this")))
    : null;
  const invite = sitting
    ? [h("p", { id: "invite-label" }, t("web_invite")), h("div", { class: "row invite" }, linkBox, copy)]
    : null;
  const leave = sitting && s.status === "open"
    ? h("button", { type: "button", id: "leave-btn", onclick: () => leave_(tv) }, t("web_leave_table")) : null;
  fill(e.wait,
    h("p", { class: "table-rules" }, optionsText(s.options)),
    joinForm, seats, invite, leave, e.waitMsg,
    h("p", {}, h("a", { href: "/", onclick: (ev) => tv.home(ev) }, t("web_back_lobby"))));
  if (typing && joinForm) e.joinName.focus();
}

async function join(tv, event) {
  event.preventDefault();
  const name = tv.el.joinName.value.trim();
  if (!name) {
    tv.say(t("web_name_needed"));
    tv.el.joinName.focus();
    return;
  }
  localStorage.setItem("foxtrot.name", name);
  try {
    const joined = await api(`/api/tables/${tv.id}/join`, { method: "POST", body: { name } });
    saveSeat(tv.id, joined.seat, joined.token);
    tv.mine = { seat: joined.seat, token: joined.token };
    tv.connect();
    await tv.reloadSummary();
  } catch (error) {
    tv.say(errorText(error));
  }
}

async function leave_(tv) {
  try {
    await api(`/api/tables/${tv.id}/leave`, { method: "POST", token: tv.mine.token });
    forgetSeat(tv.id);
    tv.navigate("/");
  } catch (error) {
    tv.say(errorText(error));
  }
}
