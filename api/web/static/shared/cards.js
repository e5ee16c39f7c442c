// Cards as the API spells them ("3d", "Ts": rank 2-9TJQKA, suit cdhs) and their faces,
// drawn with CSS and the suit characters: no image is fetched.

import { h } from "./dom.js";
import { store } from "./store.js";

export const SUIT_SYMBOL = { c: "♣", d: "♦", h: "♥", s: "♠" };
const SUIT_NAME = {
  id: { c: "keriting", d: "wajik", h: "hati", s: "sekop" },
  en: { c: "clubs", d: "diamonds", h: "hearts", s: "spades" },
};
const RANK_NAME = {
  id: { J: "jack", Q: "queen", K: "king", A: "as" },
  en: { J: "jack", Q: "queen", K: "king", A: "ace" },
};

const rankOf = (card) => card[0];
const suitOf = (card) => card[1];
/** "10" for T, else the rank letter or digit. */
const rankText = (card) => (card[0] === "T" ? "10" : card[0]);

/** A card as written in a sentence: «♦3» in Indonesian (the seed's way), "3♦" in English. */
export function cardText(card) {
  const suit = SUIT_SYMBOL[suitOf(card)];
  return store.lang === "id" ? `${suit}${rankText(card)}` : `${rankText(card)}${suit}`;
}

/** What a screen reader says: "3 wajik", "queen of hearts". */
function cardSpoken(card) {
  const lang = store.lang === "en" ? "en" : "id";
  const rank = RANK_NAME[lang][rankOf(card)] || rankText(card);
  const suit = SUIT_NAME[lang][suitOf(card)];
  return lang === "id" ? `${rank} ${suit}` : `${rank} of ${suit}`;
}

function faceParts(card) {
  const suit = SUIT_SYMBOL[suitOf(card)];
  return [
    h("span", { class: "corner", "aria-hidden": "true" },
      h("span", { class: "rank" }, rankText(card)),
      h("span", { class: "suit" }, suit)),
    h("span", { class: "pip", "aria-hidden": "true" }, suit),
  ];
}

function faceClass(card, extra) {
  const suit = suitOf(card);
  const red = suit === "d" || suit === "h" ? " red" : "";
  return `card suit-${suit}${red}${extra ? ` ${extra}` : ""}`;
}

/** A selectable card: a real button with aria-pressed (WEB.md: data-card, aria-pressed). */
export function cardButton(card, { pressed = false, extra = "", onclick } = {}) {
  return h(
    "button",
    {
      type: "button",
      class: faceClass(card, extra),
      dataset: { card },
      "aria-pressed": pressed ? "true" : "false",
      "aria-label": cardSpoken(card),
      onclick,
    },
    faceParts(card),
  );
}

/** A card shown face up that is not a control (the table, the reveal). */
export function cardFace(card, extra = "") {
  return h(
    "span",
    { class: faceClass(card, extra), dataset: { card }, role: "img", "aria-label": cardSpoken(card) },
    faceParts(card),
  );
}

/** A card face down (another seat's hand, the deal). */
export function cardBack(extra = "") {
  return h("span", { class: `card back${extra ? ` ${extra}` : ""}`, "aria-hidden": "true" });
}
