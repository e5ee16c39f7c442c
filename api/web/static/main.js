// The page's entry: preferences, the header (game switch, language, menu), and which game
// is on screen. `/?code=…` opens a shared round of the game its code belongs to.

import { applySpeed } from "./shared/motion.js";
import { copyRoundLink, openMenu, playersOfCode, refreshChrome } from "./shared/shell.js";
import { loadPrefs, savePrefs, store } from "./shared/store.js";

// Each game's module is loaded when its game is first shown, so the first screen parses
// only what it draws.
const LOADERS = {
  banting: () => import("./banting/table.js"),
  susun: () => import("./susun/table.js"),
};
const GAMES = {}; // the games loaded so far, by name
const screen = document.getElementById("screen");

async function game(name) {
  GAMES[name] ||= await LOADERS[name]();
  return GAMES[name];
}

/** The game a round code deals: an issued Susun code is Susun, anything else Banting
 * (seed 003's links; free code words deal Banting rounds). */
function gameOfCode(code) {
  return playersOfCode("S", code) !== null ? "susun" : "banting";
}

function linkCode() {
  const code = new URLSearchParams(location.search).get("code");
  return code && /^[0-9A-Za-z_-]{1,32}$/.test(code) ? code.toUpperCase() : null;
}

async function show(name, options = {}) {
  for (const [other, module] of Object.entries(GAMES)) if (other !== name) module.close();
  store.game = name;
  savePrefs();
  refreshChrome();
  await (await game(name)).open(screen, options);
}

function wireHeader() {
  for (const button of document.querySelectorAll('[data-action="game"]')) {
    button.addEventListener("click", () => {
      if (button.dataset.game !== store.game) show(button.dataset.game);
    });
  }
  document.querySelector('[data-action="lang"]').addEventListener("click", () => {
    store.lang = store.lang === "id" ? "en" : "id";
    savePrefs();
    refreshChrome();
    game(store.game).then((module) => module.relabel());
  });
  const menuButton = document.querySelector('[data-action="menu"]');
  const menu = document.getElementById("menu");
  menuButton.addEventListener("click", () => openMenu(menu.hidden));
  document.addEventListener("click", (event) => {
    if (!menu.hidden && !menu.contains(event.target) && !menuButton.contains(event.target)) openMenu(false);
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !menu.hidden) {
      openMenu(false);
      menuButton.focus();
    }
  });
  document.querySelector('[data-action="speed"]').addEventListener("click", () => {
    store.speed = store.speed === "fast" ? "normal" : "fast";
    savePrefs();
    applySpeed();
    refreshChrome();
  });
  document.querySelector('[data-action="copy-link"]').addEventListener("click", async () => {
    const message = await copyRoundLink();
    if (message) (await game(store.game)).announce(message);
  });
  document.querySelector('[data-action="new-game"]').addEventListener("click", () => {
    openMenu(false);
    game(store.game).then((module) => module.newTable());
  });
}

async function boot() {
  loadPrefs();
  applySpeed();
  wireHeader();
  const code = linkCode();
  await (code ? show(gameOfCode(code), { code }) : show(store.game));
  // The first screen is drawn and answers input (a resumed game included): the moment
  // "to interactive" is measured from (performance.getEntriesByName("capsa:ready")).
  performance.mark("capsa:ready");
}

boot();
