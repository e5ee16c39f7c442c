// The frame around both games: the header's buttons, the menu, the body's data-state, and
// the round link. Games call these; they hold no state of their own beyond the DOM.

import { h, fill, flag } from "./dom.js";
import { t, translateStatic } from "./i18n.js";
import { store } from "./store.js";

const q = (selector) => document.querySelector(selector);

/** WEB.md: document.body's data-state is setup, dealing, playing or round-over. */
export function setState(state) {
  document.body.dataset.state = state;
}

let roundCode = null;

/** The round code the menu's «Salin link ronde» shares, or null (none may be shown). */
export function setRoundCode(code) {
  roundCode = code || null;
  const button = q('[data-action="copy-link"]');
  if (button) flag(button, "disabled", !roundCode);
  const shown = q('[data-role="link"]');
  if (shown && !roundCode) {
    shown.hidden = true;
    shown.textContent = "";
  }
}

/** The address that deals this round to whoever opens it. */
function roundLink(code = roundCode) {
  return `${location.origin}/?code=${encodeURIComponent(code)}`;
}

/** Copy the round link; the link is also written in the menu (for when the clipboard is
 * refused). Returns the message to show. */
export async function copyRoundLink() {
  if (!roundCode) return null;
  const link = roundLink();
  const shown = q('[data-role="link"]');
  if (shown) {
    shown.textContent = link;
    shown.hidden = false;
  }
  try {
    await navigator.clipboard.writeText(link);
    return t("copied", { link });
  } catch {
    return t("copyManual", { link });
  }
}

/** Re-label the header and the menu in the page's language. */
export function refreshChrome() {
  translateStatic();
  document.title = t(store.game);
  const lang = q('[data-action="lang"]');
  lang.setAttribute("lang", store.lang === "id" ? "en" : "id");
  const speed = q('[data-action="speed"]');
  speed.textContent = store.speed === "fast" ? t("speedFast") : t("speedNormal");
  speed.setAttribute("aria-pressed", store.speed === "fast" ? "true" : "false");
  fill(q('[data-action="copy-link"]'), t("copyLink"));
  fill(q('[data-action="new-game"]'), t("newGame"));
  for (const button of document.querySelectorAll('[data-action="game"]')) {
    button.setAttribute("aria-pressed", button.dataset.game === store.game ? "true" : "false");
  }
}

export function openMenu(open) {
  const menu = q("#menu");
  const button = q('[data-action="menu"]');
  menu.hidden = !open;
  button.setAttribute("aria-expanded", open ? "true" : "false");
}

/** A line of text that screen readers announce (the status and info lines use it). */
export function liveLine(role, extra = {}) {
  return h("p", { class: `line line-${role}`, dataset: { role }, "aria-live": "polite", ...extra });
}

/** The players an issued round code of a game ("B" Banting, "S" Susun) deals: the letter,
 * 2-4, then 13 characters (or 9, the short form); null for a free code word. */
export function playersOfCode(letter, code) {
  const match = new RegExp(`^${letter}([234])([0-9A-Z]{9}|[0-9A-Z]{13})$`, "i").exec(code);
  return match ? Number(match[1]) : null;
}
