// Capsa Susun at the table: the deal, arranging 13 cards into the top (3), middle (5) and
// bottom (5) rows by tapping a card then a row (or dragging on a desktop), live row names
// and bonus rows («barang») from POST /v1/susun/check, the foul warning and its
// confirmation, «Susun Otomatis» (POST /v1/susun/arrange, strategy ev), declarations,
// corrections until «Siap» at a table that allows them (seed 004), and the reveal with every head-to-head result, points, money, the room fee and match totals.
//
// The server holds the table (POST /v1/susun/games and its routes); the rows being built
// are kept in this browser until they are sent, so a reload keeps them too.

import { get, post, ApiError } from "../shared/api.js";
import { cardButton, cardFace } from "../shared/cards.js";
import { fill, flag, formatNumber, h, signed } from "../shared/dom.js";
import { seatName, t } from "../shared/i18n.js";
import { fillSeat, otherSeats, seatPanel, seatParts } from "../shared/seats.js";
import { isAnimating, isSkipping, pause, sequence, skip } from "../shared/motion.js";
import { liveLine, playersOfCode, setRoundCode, setState } from "../shared/shell.js";
import { clearSession, loadSession, saveSession, store } from "../shared/store.js";
import { renderSetup, tableRequest } from "./setup.js";

const GAMES = "/v1/susun/games";
const ROWS = ["top", "middle", "bottom"];
const SIZE = { top: 3, middle: 5, bottom: 5 };
const RANKS = "23456789TJQKA";
const SUITS = "cdhs";
const DEAL_STEP = 45;
const POLL_MS = 1500;
const DRAFT_KEY = "capsa:susun-rows";

let root = null;
let state = null;
let pendingCode = null;

function fresh(session) {
  return {
    session,
    view: null,
    rows: { top: [], middle: [], bottom: [] },
    selected: new Set(),
    check: null, // {key, ...POST /v1/susun/check answer}
    checkSeq: 0,
    rowWords: {}, // "position:cards" -> {category, label} of a full row (POST /v1/evaluate)
    confirming: false, // the foul confirmation is open
    readyNext: null, // the ready flag of the rows being sent (corrections)
    busy: false,
    dealing: null, // cards shown so far while dealing
    note: "",
    timer: null,
    poll: null,
    els: null,
  };
}

const cardOrder = (card) => RANKS.indexOf(card[0]) * 4 + SUITS.indexOf(card[1]);
const sortCards = (cards) => [...cards].sort((a, b) => cardOrder(a) - cardOrder(b));

// --- entry points (main.js) ----------------------------------------------------------

export async function open(container, { code = null } = {}) {
  root = container;
  if (code) {
    pendingCode = code;
    showSetup(t("linkNotice", { code }));
    return;
  }
  const session = loadSession("susun");
  if (session) {
    await resume(session);
    return;
  }
  showSetup();
}

/** Another game takes the screen: stop this one's clocks and drawing. */
export function close() {
  skip();
  stopClocks();
  state = null;
  store.susun = null;
}

export function newTable() {
  showSetup();
}

export function announce(text) {
  if (state && state.els) note(text);
}

export async function relabel() {
  skip();
  if (!state || !state.view) {
    if (document.body.dataset.state === "setup") showSetup(pendingCode ? t("linkNotice", { code: pendingCode }) : "");
    return;
  }
  state.rowWords = {};
  state.check = null;
  state.note = ""; // the last message was in the other language
  await refresh();
}

// --- setup and sessions ---------------------------------------------------------------

function stopClocks() {
  if (!state) return;
  clearInterval(state.timer);
  clearTimeout(state.poll);
  state.timer = null;
  state.poll = null;
}

function showSetup(notice = "") {
  stopClocks();
  state = null;
  store.susun = null;
  setState("setup");
  setRoundCode(null);
  const session = loadSession("susun");
  renderSetup(root, {
    notice,
    onStart: (choices, button) => start(choices, button),
    resume: session && !pendingCode ? () => resume(session) : null,
    players: pendingCode ? playersOfCode("S", pendingCode) : null,
  });
}

async function start(choices, button) {
  button.disabled = true;
  const code = pendingCode;
  const players = (code && playersOfCode("S", code)) || choices.players;
  try {
    const { data: created } = await post(GAMES, tableRequest(choices, code, players));
    const seat = created.humans[0];
    const session = { id: created.id, token: created.tokens[String(seat)], seat };
    saveSession("susun", session);
    if (code) {
      pendingCode = null;
      history.replaceState(null, "", location.pathname);
    }
    state = fresh(session);
    store.susun = state;
    const view = await fetchView();
    await dealIn(view);
  } catch (error) {
    button.disabled = false;
    showSetup(error instanceof ApiError ? error.message : t("networkError"));
  }
}

async function resume(session) {
  state = fresh(session);
  store.susun = state;
  try {
    const view = await fetchView();
    restoreDraft(view);
    showView(view);
  } catch (error) {
    if (error instanceof ApiError && [401, 403, 404].includes(error.status)) {
      clearSession("susun");
      showSetup(t("gameGone"));
    } else {
      showSetup(t("networkError"));
    }
  }
}

async function fetchView() {
  const { data } = await get(`${GAMES}/${state.session.id}`, { token: state.session.token });
  return data;
}

async function refresh() {
  const mine = state;
  try {
    const view = await fetchView();
    if (state === mine) showView(view);
  } catch (error) {
    if (state === mine) note(error instanceof ApiError ? error.message : t("networkError"));
  }
}

/** Draw a view as it is (no deal animation). */
function showView(view) {
  setView(view);
  if (correcting(view) && !complete() && view.mine.top.length) {
    // Rows sent, none kept here (another browser, or the draft gone): correct what was sent.
    state.rows = { top: sortCards(view.mine.top), middle: sortCards(view.mine.middle), bottom: sortCards(view.mine.bottom) };
  }
  build();
  renderAll();
  setState(view.revealed ? "round-over" : "playing");
  afterChange();
  scheduleClocks();
  focusScreen();
}

/** The frame was drawn anew, so focus went with the old one: it goes to the result once
 * the round is over, else to the table (tabindex -1 on both). */
function focusScreen() {
  const result = state.els.reveal.querySelector('[data-role="result"]');
  (result || state.els.section).focus({ preventScroll: true });
}

function setView(view) {
  const previous = state.view;
  state.view = view;
  setRoundCode(view.code);
  if (previous && previous.round !== view.round) {
    state.rows = { top: [], middle: [], bottom: [] };
    state.selected.clear();
    state.check = null;
    state.confirming = false;
  }
}

async function dealIn(view) {
  const mine = state;
  state.note = ""; // a new deal starts with a clean status line
  setView(view);
  build();
  focusScreen();
  await sequence(async () => {
    if (state !== mine) return;
    setState("dealing");
    state.dealing = [];
    renderAll();
    for (const card of view.hand) {
      if (isSkipping() || state !== mine) break;
      state.dealing.push(card);
      renderTray({ dealing: true });
      renderSeats();
      await pause(DEAL_STEP);
    }
  });
  if (state !== mine) return;
  state.dealing = null;
  showView(view);
}

// --- the arrangement being built (kept in this browser until it is sent) ----------------

function saveDraft() {
  const view = state.view;
  try {
    localStorage.setItem(DRAFT_KEY, JSON.stringify({ id: view.id, round: view.round, rows: state.rows }));
  } catch {
    // no storage: the rows just do not survive a reload
  }
}

function restoreDraft(view) {
  try {
    const draft = JSON.parse(localStorage.getItem(DRAFT_KEY) || "null");
    if (!draft || draft.id !== view.id || draft.round !== view.round) return;
    const hand = new Set(view.hand);
    const seen = new Set();
    for (const row of ROWS) {
      const cards = Array.isArray(draft.rows[row]) ? draft.rows[row] : [];
      if (cards.length > SIZE[row] || cards.some((c) => !hand.has(c) || seen.has(c))) return;
      cards.forEach((c) => seen.add(c));
    }
    state.rows = { top: [...draft.rows.top], middle: [...draft.rows.middle], bottom: [...draft.rows.bottom] };
  } catch {
    // an unreadable draft is dropped
  }
}

function placed() {
  return new Set(ROWS.flatMap((row) => state.rows[row]));
}

function tray() {
  const used = placed();
  return state.view.hand.filter((card) => !used.has(card));
}

function rowOf(card) {
  return ROWS.find((row) => state.rows[row].includes(card)) || null;
}

function complete() {
  return ROWS.every((row) => state.rows[row].length === SIZE[row]);
}

/** Rows sent at a table with corrections and not yet said ready: still open to change. */
function correcting(view) {
  return !!view && !!view.corrections && !!view.mine && !view.revealed && !!view.ready && !view.ready[view.seat];
}

function arranging() {
  const view = state.view;
  return view && !view.revealed && (!view.mine || correcting(view)) && !state.dealing;
}

/** Move `cards` into `row` (null: back to the hand) when they fit. */
function moveCards(cards, row) {
  if (!arranging() || !cards.length) return false;
  if (row) {
    const staying = state.rows[row].filter((card) => !cards.includes(card));
    if (staying.length + cards.length > SIZE[row]) {
      note(t("rowFull", { row: t(`row_${row}`), size: SIZE[row] }));
      return false;
    }
  }
  for (const r of ROWS) state.rows[r] = state.rows[r].filter((card) => !cards.includes(card));
  if (row) state.rows[row] = sortCards([...state.rows[row], ...cards]);
  state.selected.clear();
  state.confirming = false;
  state.note = "";
  saveDraft();
  renderAll();
  afterChange();
  return true;
}

/** Swap two cards between rows (or a row and the hand): drag one onto the other. */
function swapCards(a, b) {
  if (!arranging() || a === b) return;
  const ra = rowOf(a);
  const rb = rowOf(b);
  if (ra === rb) return;
  if (ra) state.rows[ra] = sortCards(state.rows[ra].map((c) => (c === a ? b : c)));
  if (rb) state.rows[rb] = sortCards(state.rows[rb].map((c) => (c === b ? a : c)));
  state.selected.clear();
  state.confirming = false;
  saveDraft();
  renderAll();
  afterChange();
}

function toggleCard(card) {
  if (!arranging()) return;
  if (state.selected.has(card)) state.selected.delete(card);
  else state.selected.add(card);
  state.note = "";
  renderCardsPressed();
  renderLines();
}

function tapRow(row) {
  if (!arranging()) return;
  const cards = [...state.selected];
  if (!cards.length) {
    note(t("selectFirst"));
    return;
  }
  moveCards(cards, row);
}

function tapTray() {
  if (!arranging()) return;
  const cards = [...state.selected].filter((card) => rowOf(card));
  if (cards.length) moveCards(cards, null);
}

// --- words about the rows: POST /v1/evaluate for a full row, /v1/susun/check for all -------

function arrangementKey() {
  return ROWS.map((row) => state.rows[row].join(" ")).join("|");
}

function checkFits() {
  return state.check !== null && state.check.key === arrangementKey();
}

async function afterChange() {
  if (!state || !state.view || state.view.revealed || (state.view.mine && !correcting(state.view))) {
    renderLines();
    renderActions();
    return;
  }
  const mine = state;
  // Every full row gets its hand name at once, before the other rows are full.
  const words = ROWS.filter((row) => state.rows[row].length === SIZE[row] && !state.rowWords[`${row}:${state.rows[row].join(" ")}`]);
  await Promise.all(words.map(async (row) => {
    const cards = state.rows[row];
    try {
      const { data } = await post("/v1/evaluate", { cards });
      if (state === mine) state.rowWords[`${row}:${cards.join(" ")}`] = { category: data.category, label: data.label };
    } catch {
      // the row keeps its count only
    }
  }));
  if (state !== mine) return;
  if (!complete()) {
    state.check = null;
    renderRows();
    renderLines();
    renderActions();
    return;
  }
  const key = arrangementKey();
  if (checkFits()) return;
  const seq = ++state.checkSeq;
  try {
    const { data } = await post("/v1/susun/check", {
      top: state.rows.top,
      middle: state.rows.middle,
      bottom: state.rows.bottom,
      rules: state.view.rules,
    });
    if (state !== mine || seq !== state.checkSeq) return;
    state.check = { key, ...data };
  } catch (error) {
    if (state !== mine || seq !== state.checkSeq) return;
    state.check = null;
    note(error instanceof ApiError ? error.message : t("networkError"));
  }
  renderRows();
  renderLines();
  renderActions();
}

function rowWords(row) {
  if (checkFits()) {
    const found = state.check.rows.find((r) => r.position === row);
    if (found) return { category: found.category, label: found.label, bonus: found.bonus };
  }
  const cards = state.rows[row];
  if (cards.length !== SIZE[row]) return null;
  const words = state.rowWords[`${row}:${cards.join(" ")}`];
  return words ? { ...words, bonus: null } : null;
}

// --- sending --------------------------------------------------------------------------

async function send(path, body) {
  const mine = state;
  state.busy = true;
  renderActions();
  try {
    const { data } = await post(path, body, { token: state.session.token });
    return data;
  } catch (error) {
    if (state !== mine) return null;
    if (error instanceof ApiError && error.code === "FOULED") {
      state.confirming = true; // the server judged it fouled: ask, as for our own check
      renderAll();
    } else if (error instanceof ApiError && ["CONFLICT", "ALREADY_ARRANGED", "ALREADY_REVEALED", "REVEALED"].includes(error.code)) {
      note(t("conflict"));
      await refresh();
    } else if (error instanceof ApiError && [401, 403, 404].includes(error.status)) {
      clearSession("susun");
      showSetup(t("gameGone"));
    } else {
      note(error instanceof ApiError ? error.message : t("networkError"));
    }
    return null;
  } finally {
    if (state === mine) {
      state.busy = false;
      renderActions();
    }
  }
}

/** Send the rows. At a table with corrections, «Kirim susunan» sends them open to change
 * (ready: false) and «Siap» sends them final; without, they are final at once. */
async function submit({ confirmFoul = false, ready = null } = {}) {
  if (!arranging() || !complete()) return;
  if (ready === null) ready = state.readyNext ?? !state.view.corrections;
  state.readyNext = ready; // the foul confirmation sends as asked
  if (!confirmFoul && checkFits() && state.check.fouled) {
    state.confirming = true;
    renderAll();
    state.els.confirm.querySelector('[data-action="confirm-foul"]').focus();
    return;
  }
  const body = {
    top: state.rows.top,
    middle: state.rows.middle,
    bottom: state.rows.bottom,
    version: state.view.version,
  };
  if (confirmFoul) body.confirm_foul = true;
  if (state.view.corrections) body.ready = ready;
  const view = await send(`${GAMES}/${state.session.id}/arrangement`, body);
  state.readyNext = null;
  if (view) {
    state.confirming = false;
    state.note = ""; // what was said while arranging (auto-filled, may still change) is over
    showView(view);
  }
}

async function declare(special) {
  if (!arranging()) return;
  const view = await send(`${GAMES}/${state.session.id}/arrangement`, { declare: special, version: state.view.version });
  if (view) {
    state.note = "";
    showView(view);
  }
}

async function autoArrange() {
  if (!arranging()) return;
  const mine = state;
  state.busy = true;
  renderActions();
  try {
    const { data } = await post("/v1/susun/arrange", { hand: state.view.hand, rules: state.view.rules, strategy: "ev" });
    if (state !== mine) return;
    state.rows = { top: sortCards(data.top), middle: sortCards(data.middle), bottom: sortCards(data.bottom) };
    state.selected.clear();
    state.confirming = false;
    saveDraft();
    note(t("autoFilled"));
  } catch (error) {
    if (state === mine) note(error instanceof ApiError ? error.message : t("networkError"));
  } finally {
    if (state === mine) {
      state.busy = false;
      renderAll();
      afterChange();
    }
  }
}

async function nextRound() {
  if (!state || state.busy) return; // a double click sends one request
  const view = await send(`${GAMES}/${state.session.id}/rounds`, { version: state.view.version });
  if (view) await dealIn(view);
}

// --- clocks: the time limit, and waiting for other human seats ---------------------------

function scheduleClocks() {
  clearInterval(state.timer);
  clearTimeout(state.poll);
  const view = state.view;
  if (view.revealed) return;
  if (view.seconds_left !== null && view.seconds_left !== undefined) {
    const ends = performance.now() + view.seconds_left * 1000;
    const mine = state;
    const tick = () => {
      if (state !== mine) return;
      const left = Math.max(0, Math.ceil((ends - performance.now()) / 1000));
      renderTimer(left);
      if (left <= 0) {
        clearInterval(state.timer);
        state.timer = null;
        note(t("timeUp"));
        refresh(); // past the deadline the server arranges the seats that had not
      }
    };
    tick();
    state.timer = setInterval(tick, 1000);
  }
  if (view.mine && !correcting(view)) {
    // Sent; other human seats still arranging (bots answer at once): look again soon.
    const mine = state;
    state.poll = setTimeout(() => {
      if (state === mine) refresh();
    }, POLL_MS);
  }
}

// --- drawing ----------------------------------------------------------------------------

function build() {
  const view = state.view;
  // Every seat as a chip in one line: the player first, then the computers.
  const chips = [view.seat, ...otherSeats(view.players, view.seat)].map((seat) => {
    const parts = seatParts(seat, view.seat, { short: true });
    return seatPanel(
      seat,
      view.seat,
      "chip",
      parts.name,
      h("span", { class: "seat-line" }, parts.count, parts.total, h("span", { class: "seat-done", "aria-hidden": "true" }, "✓")),
    );
  });
  const rows = {};
  for (const row of ROWS) {
    // The row's name is its button: tap it (or anywhere on the row) to put the selected
    // cards there; keyboard users reach it with Tab.
    const place = h(
      "button",
      {
        type: "button",
        class: "place row-name",
        dataset: { place: row },
        "aria-label": t("placeIn", { row: t(`row_${row}`) }),
        onclick: (event) => {
          event.stopPropagation();
          tapRow(row);
        },
      },
      t(`row_${row}`),
    );
    rows[row] = h(
      "div",
      { class: `row row-${row}`, dataset: { row, hand: "" }, role: "group", "aria-label": t(`row_${row}`), onclick: () => tapRow(row) },
      h(
        "div",
        { class: "row-head" },
        place,
        h("span", { class: "row-label" }),
        h("span", { class: "row-bonus" }),
        h("span", { class: "row-count" }),
      ),
      h("div", { class: "row-cards", dataset: { size: SIZE[row] } }),
    );
    wireDrop(rows[row], row);
  }
  const trayEl = h(
    "div",
    { class: "tray", dataset: { role: "hand" }, role: "group", "aria-label": t("trayLabel"), onclick: tapTray },
  );
  wireDrop(trayEl, null);
  const back = h("button", { type: "button", class: "secondary small", dataset: { action: "unplace" }, onclick: (event) => { event.stopPropagation(); tapTray(); } }, t("trayBack"));
  const actions = {
    auto: h("button", { type: "button", class: "secondary", dataset: { action: "auto-arrange" }, onclick: () => autoArrange() }, t("autoArrange")),
    submit: h("button", { type: "button", class: "primary", dataset: { action: "submit" }, onclick: () => submit() }, t("submit")),
    ready: h("button", { type: "button", class: "primary", dataset: { action: "ready" }, onclick: () => submit({ ready: true }) }, t("ready")),
  };
  const confirm = h(
    "div",
    { class: "confirm", role: "alertdialog", "aria-labelledby": "foul-text", hidden: true },
    h("p", { id: "foul-text" }),
    h(
      "div",
      { class: "confirm-actions" },
      h("button", { type: "button", class: "danger", dataset: { action: "confirm-foul" }, onclick: () => submit({ confirmFoul: true }) }, t("confirmFoul")),
      h("button", { type: "button", class: "secondary", dataset: { action: "cancel-foul" }, onclick: () => { state.confirming = false; state.readyNext = null; renderAll(); } }, t("cancelFoul")),
    ),
  );
  const specials = h("div", { class: "specials" });
  const roundLine = h("span", { class: "round-no" });
  const codeLine = h("span", { class: "round-code" });
  const timer = h("span", { class: "timer", dataset: { role: "timer" }, "aria-live": "off" });
  const info = liveLine("info");
  const status = liveLine("status", { role: "status" });
  const reveal = h("div", { class: "reveal-slot" });
  root.replaceChildren(
    h(
      "section",
      { class: `susun table players-${view.players}`, "aria-label": t("susun"), tabindex: "-1" },
      h("div", { class: "roundbar" }, roundLine, codeLine, timer),
      h("div", { class: "seatbar", role: "group", "aria-label": t("seatsLabel") }, chips),
      reveal,
      h("div", { class: "arranging" },
        h("div", { class: "rows" }, ROWS.map((row) => rows[row])),
        info,
        status,
        specials,
        h("div", { class: "tray-wrap" }, trayEl, back),
        confirm,
        h("div", { class: "actions" }, actions.auto, actions.submit, actions.ready),
      ),
    ),
  );
  state.els = { section: root.firstElementChild, chips, rows, tray: trayEl, back, actions, confirm, specials, roundLine, codeLine, timer, info, status, reveal };
}

// Drag and drop (a desktop mouse): drag a card (with the other selected cards, if it is
// selected) onto a row or back to the hand; onto a card of a full row to swap the two.
function wireDrop(target, row) {
  target.addEventListener("dragover", (event) => {
    if (!arranging()) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "move";
    target.classList.add("drop-over");
  });
  target.addEventListener("dragleave", () => target.classList.remove("drop-over"));
  target.addEventListener("drop", (event) => {
    target.classList.remove("drop-over");
    if (!arranging()) return;
    event.preventDefault();
    const cards = (event.dataTransfer.getData("text/plain") || "").split(" ").filter(Boolean);
    const onto = event.target.closest && event.target.closest("[data-card]");
    if (cards.length === 1 && onto && onto.dataset.card !== cards[0] && row && state.rows[row].length === SIZE[row]) {
      swapCards(cards[0], onto.dataset.card);
    } else {
      moveCards(cards, row);
    }
  });
}

function draggableCard(card) {
  const el = cardButton(card, { onclick: (event) => { event.stopPropagation(); toggleCard(card); } });
  el.draggable = true;
  el.addEventListener("dragstart", (event) => {
    const cards = state.selected.has(card) ? [...state.selected] : [card];
    event.dataTransfer.setData("text/plain", cards.join(" "));
    event.dataTransfer.effectAllowed = "move";
  });
  return el;
}

function renderAll() {
  if (!state || !state.els) return;
  renderRound();
  renderSeats();
  renderRows();
  renderTray();
  renderSpecials();
  renderLines();
  renderActions();
  renderConfirm();
  renderReveal();
}

function renderRound() {
  const view = state.view;
  state.els.roundLine.textContent = t("round", { n: view.round });
  const line = state.els.codeLine;
  line.replaceChildren();
  if (view.code) {
    const [before, after] = t("roundCode", { code: "\u0000" }).split("\u0000");
    line.append(before, h("span", { class: "code", dataset: { role: "code" } }, view.code), after);
  }
  if (view.seconds_left === null || view.seconds_left === undefined || view.revealed) state.els.timer.textContent = "";
}

function renderTimer(seconds) {
  const m = Math.floor(seconds / 60);
  const s = String(seconds % 60).padStart(2, "0");
  state.els.timer.textContent = t("timeLeft", { t: `${m}:${s}` });
}

function renderSeats() {
  const view = state.view;
  for (const el of state.els.chips) {
    const seat = Number(el.dataset.seat);
    const count = seat === view.seat ? (state.dealing ? state.dealing.length : view.hand.length) : state.dealing ? state.dealing.length : 13;
    flag(el, "data-arranged", !!(view.arranged && view.arranged[seat]));
    flag(el, "data-ready", !!(view.corrections && view.ready && view.ready[seat]));
    fillSeat(el, { me: view.seat, count, total: view.totals ? view.totals.points[seat] : 0 });
  }
}

function renderRows() {
  const view = state.view;
  const mineSent = view.mine && !view.revealed && !correcting(view);
  for (const row of ROWS) {
    const el = state.els.rows[row];
    const cards = mineSent ? view.mine[row] : state.rows[row];
    const words = mineSent ? null : rowWords(row);
    el.dataset.hand = words ? words.category : "";
    el.querySelector(".row-label").textContent = words ? words.label : "";
    const bonus = words && words.bonus ? t("bonus", { n: words.bonus }) : "";
    el.querySelector(".row-bonus").textContent = bonus;
    el.querySelector(".row-count").textContent = t("rowCount", { n: cards.length, size: SIZE[row] });
    const fouledRows = checkFits() && state.check.fouled ? state.check.out_of_order.join(" ") : "";
    flag(el, "data-fouled", fouledRows.split(/[ >]/).includes(row));
    flag(el, "data-bonus", !!bonus);
    const holder = el.querySelector(".row-cards");
    const existing = new Map([...holder.children].map((c) => [c.dataset.card, c]));
    holder.replaceChildren(...cards.map((card) => existing.get(card) || (arranging() ? draggableCard(card) : cardFace(card))));
    flag(el.querySelector(".place"), "disabled", !arranging());
  }
  renderCardsPressed();
}

function renderTray({ dealing = false } = {}) {
  const el = state.els.tray;
  const cards = state.dealing ? state.dealing : arranging() ? tray() : [];
  const existing = new Map([...el.children].map((c) => [c.dataset.card, c]));
  el.replaceChildren(...cards.map((card) => {
    const found = existing.get(card);
    if (found) return found;
    const made = draggableCard(card);
    if (dealing) made.classList.add("dealt");
    return made;
  }));
  el.dataset.count = String(cards.length);
  renderCardsPressed();
}

function renderCardsPressed() {
  for (const el of root.querySelectorAll(".susun .rows [data-card], .susun .tray [data-card]")) {
    if (el.tagName === "BUTTON") el.setAttribute("aria-pressed", state.selected.has(el.dataset.card) ? "true" : "false");
  }
  // «Kembalikan ke tangan» is there when a selected card sits in a row.
  state.els.back.hidden = !(arranging() && [...state.selected].some((card) => rowOf(card)));
}

function renderSpecials() {
  const view = state.view;
  const el = state.els.specials;
  const offered = arranging() ? view.specials || [] : [];
  if (!offered.length) {
    el.replaceChildren();
    el.hidden = true;
    return;
  }
  el.hidden = false;
  fill(
    el,
    h("p", {}, t("specialsOffer")),
    offered.map((special) =>
      h("button", { type: "button", class: "special", dataset: { action: "declare", special }, onclick: () => declare(special) },
        t("declare", { special: t(`special_${special}`) })),
    ),
  );
}

function renderLines() {
  const view = state.view;
  const { info, status } = state.els;
  if (view.revealed) {
    info.textContent = "";
    status.textContent = state.note;
    return;
  }
  if (view.mine && !correcting(view)) {
    info.textContent = readyLine(view);
    status.textContent = state.note || t("waitingOthers");
    return;
  }
  if (state.dealing) {
    info.textContent = t("dealing");
    status.textContent = t("skip");
    return;
  }
  const left = tray().length;
  const parts = [left ? t("placedLeft", { n: left }) : t("allPlaced"), t("rowRule")];
  if (checkFits()) {
    const bonus = Object.values(state.check.bonus || {}).reduce((a, b) => a + b, 0);
    if (bonus) parts.push(t("bonus", { n: bonus }));
  }
  if (view.corrections) parts.push(readyLine(view));
  info.textContent = parts.join(" · ");
  let text = state.note || (correcting(view) ? t("correcting") : "");
  if (!text && checkFits() && state.check.fouled) {
    text = t("foulWarning", { rows: state.check.out_of_order.map((pair) => t(`out_${pair}`)).join("; ") });
  }
  if (!text && state.selected.size) text = "";
  status.textContent = text || (left === 13 ? t("arrangeHelp") : "");
  status.dataset.kind = checkFits() && state.check.fouled ? "refusal" : "";
}

/** Who has said their rows are final, at a table with corrections («Siap: Komputer 1, …»). */
function readyLine(view) {
  if (!view.corrections || !view.ready) return "";
  const names = view.ready.flatMap((ready, seat) => (ready ? [seatName(seat, view.seat)] : []));
  return names.length ? t("readySeats", { names: names.join(", ") }) : t("readyNone");
}

function note(text) {
  if (!state) return;
  state.note = text;
  if (state.els) renderLines();
}

function renderActions() {
  if (!state || !state.els) return;
  const can = arranging() && !state.busy && !isAnimating();
  flag(state.els.actions.auto, "disabled", !can);
  flag(state.els.actions.submit, "disabled", !(can && complete() && checkFits()));
  flag(state.els.actions.ready, "disabled", !(can && complete() && checkFits()));
  for (const button of state.els.specials.querySelectorAll("button")) flag(button, "disabled", !can);
  for (const button of state.els.confirm.querySelectorAll("button")) flag(button, "disabled", !can);
  const next = state.els.reveal.querySelector('[data-action="next-round"]');
  if (next) flag(next, "disabled", state.busy);
  state.els.actions.auto.hidden = !arranging();
  state.els.actions.submit.hidden = !arranging();
  state.els.actions.ready.hidden = !(arranging() && state.view.corrections);
}

function renderConfirm() {
  const el = state.els.confirm;
  el.hidden = !(state.confirming && arranging());
  if (!el.hidden) {
    const points = state.view.rules && state.view.rules.foul_points;
    el.querySelector("#foul-text").textContent = t("foulConfirm", { points: points ?? "" });
  }
}

// --- the reveal ---------------------------------------------------------------------------

function sweptIn(pair, k) {
  if (Array.isArray(pair.sweep)) return pair.sweep[k];
  // Older answers without 'sweep': all three rows won against that opponent.
  const sign = k === 0 ? 1 : -1;
  return ROWS.every((row) => pair.rows[row] === sign) && !pair.fouled[0] && !pair.fouled[1];
}

function renderReveal() {
  const view = state.view;
  const slot = state.els.reveal;
  const arrangingEl = root.querySelector(".susun .arranging");
  if (!view.revealed || !view.result) {
    slot.replaceChildren();
    arrangingEl.hidden = false;
    return;
  }
  arrangingEl.hidden = true;
  const result = view.result;
  const me = view.seat;
  const name = (seat) => seatName(seat, me);
  const superSeats = new Set();
  const sweeps = {};
  for (const pair of result.pairs) {
    pair.players.forEach((seat, k) => {
      if (pair.super && pair.super[k]) superSeats.add(seat);
      if (sweptIn(pair, k)) (sweeps[seat] ||= []).push(pair.players[1 - k]);
    });
  }

  const panels = result.seats.map((s) =>
    h(
      "section",
      { class: `reveal-seat${s.seat === me ? " self" : ""}`, dataset: { seat: s.seat }, "aria-label": name(s.seat) },
      h(
        "h3",
        {},
        name(s.seat),
        s.fouled ? h("span", { class: "mark pao" }, t("pao")) : null,
        superSeats.has(s.seat) ? h("span", { class: "mark super" }, t("superMark")) : null,
        (sweeps[s.seat] || []).length ? h("span", { class: "mark tembus" }, t("sweptSeats", { n: sweeps[s.seat].length })) : null,
        s.special ? h("span", { class: "mark special" }, t(`special_${s.special}`)) : null,
      ),
      s.by && s.by !== "player" ? h("p", { class: "by" }, t(s.by === "time" ? "byTime" : "byBot")) : null,
      (s.rows || []).map((r) =>
        h(
          "div",
          { class: `reveal-row${r.bonus ? " bonus" : ""}`, dataset: { revealRow: r.position, hand: r.category } },
          h("span", { class: "row-name" }, r.name),
          h("span", { class: "row-cards small" }, r.cards.map((card) => cardFace(card, "small"))),
          h("span", { class: "row-label" }, r.label, r.bonus ? [" ", h("span", { class: "row-bonus" }, t("bonus", { n: r.bonus }))] : null),
        ),
      ),
    ),
  );

  const mark = (v) => (v > 0 ? "✓" : v < 0 ? "✗" : "=");
  const word = (v) => (v > 0 ? t("rowWon") : v < 0 ? t("rowLost") : t("rowTie"));
  const short = (seat) => seatName(seat, me, { short: true });
  const duels = result.pairs.map((pair) => {
    const [a, b] = pair.players;
    const cells = ROWS.map((row) =>
      h("td", { dataset: { duelRow: row, result: pair.rows[row] }, "aria-label": `${t(`row_${row}`)}: ${name(a)} ${word(pair.rows[row])}` }, mark(pair.rows[row])),
    );
    const notes = [];
    pair.players.forEach((seat, k) => {
      if (pair.fouled[k]) notes.push(`${short(seat)}: ${t("pao")}`);
      if (pair.special && pair.special[k]) notes.push(`${short(seat)}: ${t(`special_${pair.special[k]}`)}`);
      if (sweptIn(pair, k)) notes.push(`${short(seat)}: ${t("tembus")} ${t("multiplier", { n: pair.multiplier[k] })}`);
      if (pair.super && pair.super[k]) notes.push(`${short(seat)}: ${t("superMark")}`);
    });
    // The notes (pao, tembus ×2, super) get a line of their own under the pair: as a
    // fifth column they were squeezed a word a line and pushed the table past a phone.
    return [
      h(
        "tr",
        { dataset: { pair: `${a}-${b}` }, class: notes.length ? "has-notes" : "" },
        h("th", { scope: "row" }, t("vs", { a: short(a), b: short(b) })),
        cells,
        h("td", { class: "pair-points" }, `${signed(pair.points[0])} / ${signed(pair.points[1])}`),
      ),
      notes.length ? h("tr", { class: "pair-notes-row" }, h("td", { class: "pair-notes", colspan: ROWS.length + 2 }, notes.join(" · "))) : null,
    ];
  });
  const duelTable = h(
    "table",
    { class: "duels" },
    h("caption", {}, t("headToHead")),
    h("thead", {}, h("tr", {}, h("th", {}, ""), ROWS.map((row) => h("th", { scope: "col" }, t(`row_${row}`))), h("th", { scope: "col" }, t("resultPoints")))),
    h("tbody", {}, duels),
  );

  const lines = result.seats.map((s) =>
    h(
      "li",
      { dataset: { seat: s.seat, points: s.points, money: s.money }, class: s.points > 0 ? "winner" : s.points < 0 ? "loser" : "" },
      h("span", { class: "name" }, name(s.seat)),
      h("span", { class: "pts" }, t("pointsN", { n: signed(s.points) })),
      h("span", { class: "money" }, t("money", { m: signed(s.money) })),
      s.fee ? h("span", { class: "fee" }, t("fee", { f: formatNumber(s.fee) })) : null,
    ),
  );
  const totals = view.totals;
  const totalsTable = h(
    "table",
    { class: "totals" },
    h("caption", {}, t("matchAfter", { n: view.round })),
    h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", { scope: "col" }, t("resultPoints")), h("th", { scope: "col" }, t("resultMoney")), h("th", { scope: "col" }, t("resultFee")))),
    h("tbody", {}, result.seats.map((s) =>
      h("tr", { dataset: { totalSeat: s.seat } },
        h("th", { scope: "row" }, name(s.seat)),
        h("td", {}, signed(totals.points[s.seat])),
        h("td", {}, signed(totals.money[s.seat])),
        h("td", {}, formatNumber((totals.fee || [])[s.seat] || 0))),
    )),
  );
  const next = h("button", { type: "button", class: "primary", dataset: { action: "next-round" }, onclick: nextRound }, t("nextRound"));
  flag(next, "disabled", state.busy);

  slot.replaceChildren(
    h("h2", { class: "reveal-title" }, t("revealTitle", { n: view.round })),
    h("div", { class: "reveal-seats", dataset: { role: "reveal" } }, panels),
    duelTable,
    h(
      "section",
      { class: "result-card susun-result", dataset: { role: "result" }, "aria-labelledby": "susun-result-title", tabindex: "-1" },
      h("h2", { id: "susun-result-title" }, t("roundOver", { n: view.round })),
      h("ol", { class: "lines" }, lines),
      h("p", { class: "fee-total" }, t("feeTotal", { f: formatNumber(result.fee_total || 0) })),
      totalsTable,
      next,
    ),
  );
}
