// The seat panels both tables draw (WEB.md, "seats"): one element per seat with
// `data-seat` (0 = the player; the player's own panel has the class `self`), its name, its
// card count and its match total, and once filled `data-count` and a spoken label. Each
// game lays the parts out its own way (Banting around the felt with markers and a bubble,
// Susun as chips in a line) and adds its own markers.

import { h, signed } from "./dom.js";
import { seatName, t } from "./i18n.js";

/** The other seats than `me` at a table of `players`, in play order. */
export function otherSeats(players, me) {
  return Array.from({ length: players }, (_, seat) => seat).filter((seat) => seat !== me);
}

/** The parts a seat's panel shows: its name (`short`: the short form), count and total. */
export function seatParts(seat, me, { short = false } = {}) {
  return {
    name: h("span", { class: "seat-name" }, seatName(seat, me, { short })),
    count: h("span", { class: "seat-count" }),
    total: h("span", { class: "seat-total" }),
  };
}

/** A seat's panel: `class="seat <kind>"` (plus `self` for `me`), `data-seat`, a group. */
export function seatPanel(seat, me, kind, ...children) {
  return h("div", { class: `seat ${kind}${seat === me ? " self" : ""}`, dataset: { seat }, role: "group" }, ...children);
}

/**
 * Fill a panel made by seatPanel with seatParts: `data-count`, the count and total, and the
 * label a screen reader says: the name, the count, then `more` (the game's markers).
 */
export function fillSeat(el, { me, count, total, more = [] }) {
  const seat = Number(el.dataset.seat);
  el.dataset.count = String(count);
  el.querySelector(".seat-count").textContent = t("cards", { n: count });
  el.querySelector(".seat-total").textContent = signed(total);
  el.setAttribute("aria-label", [seatName(seat, me), t("cards", { n: count }), ...more].join(", "));
}
