// The page's one store object, and what of it survives closing the tab (localStorage):
// the preferences and, per game, the session (game id, seat and the seat's token). The
// token stays in this browser's storage only: never in an address, never in a log.

const PREFS_KEY = "capsa:prefs";
const SESSION_KEY = { banting: "capsa:banting", susun: "capsa:susun" };

export const store = {
  lang: "id", // "id" (default) or "en"
  speed: "normal", // "normal" or "fast" («Cepat»)
  game: "banting", // the game on screen: "banting" or "susun"
  setup: { banting: {}, susun: {} }, // the last setup chosen per game
  // Set by the game modules while a screen is up: { view, session, ... } per game.
  banting: null,
  susun: null,
};

function read(key) {
  try {
    const text = localStorage.getItem(key);
    return text ? JSON.parse(text) : null;
  } catch {
    return null; // storage disabled or an entry we cannot read: start afresh
  }
}

function write(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Private windows may refuse storage: the page still works, it just cannot resume.
  }
}

export function loadPrefs() {
  const prefs = read(PREFS_KEY) || {};
  if (prefs.lang === "id" || prefs.lang === "en") store.lang = prefs.lang;
  if (prefs.speed === "normal" || prefs.speed === "fast") store.speed = prefs.speed;
  if (prefs.game === "banting" || prefs.game === "susun") store.game = prefs.game;
  if (prefs.setup && typeof prefs.setup === "object") {
    store.setup.banting = { ...(prefs.setup.banting || {}) };
    store.setup.susun = { ...(prefs.setup.susun || {}) };
  }
}

export function savePrefs() {
  write(PREFS_KEY, { lang: store.lang, speed: store.speed, game: store.game, setup: store.setup });
}

/** The stored session of `game` ({id, seat, token, ...}) or null. */
export function loadSession(game) {
  const s = read(SESSION_KEY[game]);
  return s && typeof s.id === "string" && typeof s.token === "string" ? s : null;
}

export function saveSession(game, session) {
  write(SESSION_KEY[game], session);
}

export function clearSession(game) {
  write(SESSION_KEY[game], null);
}
