// Capsa Banting at the table, as seed 003 tells it: the deal, selecting cards with the live
// info line, «Keluarkan» / «Lewat» / «Petunjuk», seat markers, the trick sweep, the result
// card, the match totals, the card exchange between rounds (seed 002, exchange: ranked), the
// round link and resuming after the tab was closed.
//
// The server holds the game (api/banting/games.py); this module keeps the seat's last view and
// draws it. Between two views it replays the new moves of the history (the bots' answers
// come inside the move's response) as a short animation that a tap skips; the final
// picture is always drawn from the view itself, so markers never depend on the animation.

import { get, post, ApiError } from "../shared/api.js";
import { cardBack, cardButton, cardFace, cardText } from "../shared/cards.js";
import { flag, h, signed } from "../shared/dom.js";
import { seatName, t } from "../shared/i18n.js";
import { fillSeat, otherSeats, seatPanel, seatParts } from "../shared/seats.js";
import { isAnimating, isSkipping, pause, sequence, skip } from "../shared/motion.js";
import { liveLine, playersOfCode, setRoundCode, setState } from "../shared/shell.js";
import { clearSession, loadSession, saveSession, store } from "../shared/store.js";
import { gameRequest, renderSetup } from "./setup.js";

const GAMES = "/v1/banting/games";
const HAND_SIZE = 13;
const BIG_TWO_RANKS = "3456789TJQKA2";
// Animation steps in ms at normal speed («Cepat» is a quarter of these).
const DEAL_STEP = 32;
const THINK = 380;
const SHOW_PLAY = 520;
const SWEEP = 420;
// Where each seat sits around the table, by the number of players (seat 0 is the player,
// at the bottom); play goes 0 → 1 → 2 → 3, counter-clockwise as at a Capsa table.
const POSITIONS = {
  2: { 1: "top" },
  3: { 1: "right", 2: "left" },
  4: { 1: "right", 2: "top", 3: "left" },
};

let root = null; // the <main> the game draws into
let state = null; // store.banting while a table is on screen
let pendingCode = null; // a round code from /?code=… waiting for «Mulai Main»
let keyboard = false; // the player's last input was a key (then focus follows the turn)

document.addEventListener("keydown", (event) => {
  if (["Tab", "Enter", " "].includes(event.key)) keyboard = true;
}, { capture: true });
document.addEventListener("pointerdown", () => {
  keyboard = false;
}, { capture: true });

function fresh(session) {
  return {
    session,
    view: null,
    selected: new Set(),
    verdict: null,
    verdictSeq: 0,
    busy: false,
    shown: null,
    note: "",
    els: null,
  };
}

// --- entry points (main.js) ----------------------------------------------------------

/** Show Capsa Banting: a round link's setup, else the stored game, else the setup. */
export async function open(container, { code = null } = {}) {
  root = container;
  if (code) {
    pendingCode = code;
    showSetup(t("linkNotice", { code }));
    return;
  }
  const session = loadSession("banting");
  if (session) {
    await resume(session);
    return;
  }
  showSetup();
}

/** Another game takes the screen: stop drawing this one (a running animation ends and
 * finds its table gone). The stored game stays, to be resumed. */
export function close() {
  skip();
  state = null;
  store.banting = null;
}

/** The menu's «Meja baru»: back to the rules, with the stored game resumable. */
export function newTable() {
  showSetup();
}

/** A line for the status (the menu's «Salin link ronde» says what it copied). */
export function announce(text) {
  if (state && state.els) note(text);
}

/** The language changed: the words from the server (combo labels) are fetched again. */
export async function relabel() {
  skip();
  if (!state || !state.view) {
    if (document.body.dataset.state === "setup") showSetup(pendingCode ? t("linkNotice", { code: pendingCode }) : "");
    return;
  }
  state.note = ""; // the last message was in the other language
  await refresh();
}

// --- setup ---------------------------------------------------------------------------

function showSetup(notice = "") {
  state = null;
  store.banting = null;
  setState("setup");
  setRoundCode(null);
  const session = loadSession("banting");
  renderSetup(root, {
    notice,
    onStart: (choices, button) => start(choices, button),
    resume: session && !pendingCode ? () => resume(session) : null,
  });
}

async function start(choices, button) {
  button.disabled = true;
  const code = pendingCode;
  const body = gameRequest(choices, code, (code && playersOfCode("B", code)) || 4);
  try {
    const { data: created } = await post(GAMES, body);
    const seat = created.humans[0];
    const session = { id: created.id, token: created.tokens[String(seat)], seat };
    saveSession("banting", session);
    if (code) {
      pendingCode = null;
      history.replaceState(null, "", location.pathname); // a reload resumes, not re-deals
    }
    state = fresh(session);
    store.banting = state;
    const view = await fetchView();
    setView(view);
    build();
    await playIn(view, { deal: true, from: 0 });
  } catch (error) {
    button.disabled = false;
    showSetupError(error);
  }
}

function showSetupError(error) {
  showSetup(problemText(error));
}

async function resume(session) {
  state = fresh(session);
  store.banting = state;
  try {
    const view = await fetchView();
    setView(view);
    build();
    // Seed 003: the round goes on from the position last seen, then the moves made since
    // play out in order (a tap skips them, as it skips the deal).
    const seen = session.seen;
    const sameRound = seen && seen.round === view.round && Number.isInteger(seen.moves);
    if (seen && !sameRound && Number.isInteger(seen.round) && seen.round < view.round) {
      await playIn(view, { deal: true, from: 0 }); // a new round was dealt since
      return;
    }
    if (sameRound && seen.moves >= 0 && seen.moves < view.history.length) {
      state.els.section.focus({ preventScroll: true });
      await playIn(view, { deal: false, from: seen.moves });
      return;
    }
    renderAll();
    setState(view.over ? "round-over" : "playing");
    updateVerdict();
    // As at a round's start and end: focus on the table, or on the result once it is over.
    if (view.over) focusResult();
    else state.els.section.focus({ preventScroll: true });
  } catch (error) {
    if (error instanceof ApiError && [401, 403, 404].includes(error.status)) {
      clearSession("banting");
      showSetup(t("gameGone"));
    } else {
      showSetup(problemText(error));
    }
  }
}

// --- talking to the server -------------------------------------------------------------

/** What to tell the player about a failed request. A bug (neither a refusal nor a network
 * failure) also goes to the console, where it belongs. */
function problemText(error) {
  if (error instanceof ApiError) return error.message;
  if (!(error instanceof TypeError && /fetch|network/i.test(error.message))) console.error(error);
  return t("networkError");
}

async function fetchView() {
  const { data } = await get(`${GAMES}/${state.session.id}`, { token: state.session.token });
  return data;
}

function setView(view) {
  state.view = view;
  setRoundCode(view.code);
}

/** Keep, with the stored session, how far into the round the screen has shown (its round
 * and the number of moves of its history): a reload resumes there. */
function markSeen(view, moves) {
  if (!state || !state.session) return;
  const seen = state.session.seen;
  if (seen && seen.round === view.round && seen.moves === moves) return;
  state.session.seen = { round: view.round, moves };
  saveSession("banting", state.session);
}

/** Fetch the view again and draw it (after a language switch or a conflict). */
async function refresh() {
  const mine = state;
  try {
    const view = await fetchView();
    if (state !== mine) return;
    setView(view);
    build();
    renderAll();
    markSeen(view, view.history.length);
    setState(view.over ? "round-over" : "playing");
    updateVerdict();
  } catch (error) {
    note(problemText(error));
  }
}

async function send(path, body) {
  const mine = state;
  state.busy = true;
  renderSeats();
  renderActions();
  try {
    const { data } = await post(path, body, { token: state.session.token });
    return data;
  } catch (error) {
    if (state !== mine) return null;
    if (error instanceof ApiError && error.status === 409 && error.code === "CONFLICT") {
      note(t("conflict"));
      await refresh();
    } else if (error instanceof ApiError && error.status === 409) {
      note(t("refused", { message: error.message })); // the engine's words; nothing changed
    } else if (error instanceof ApiError && [401, 403, 404].includes(error.status)) {
      clearSession("banting");
      showSetup(t("gameGone"));
    } else {
      note(problemText(error));
    }
    return null;
  } finally {
    if (state === mine) {
      state.busy = false;
      renderSeats();
      renderActions();
    }
  }
}

async function playSelected() {
  const view = state.view;
  const play = orderedSelection();
  if (!play.length || !verdictFits() || !state.verdict.ok) return;
  const from = view.history.length;
  const next = await send(`${GAMES}/${state.session.id}/moves`, { play, version: view.version });
  if (next) {
    state.selected.clear();
    state.verdict = null;
    state.note = "";
    await playIn(next, { deal: false, from });
  }
}

async function passTurn() {
  const view = state.view;
  const from = view.history.length;
  const next = await send(`${GAMES}/${state.session.id}/moves`, { play: "pass", version: view.version });
  if (next) {
    state.selected.clear();
    state.verdict = null;
    state.note = "";
    await playIn(next, { deal: false, from });
  }
}

async function nextRound() {
  if (!state || state.busy) return; // a double click sends one request
  const view = state.view;
  if (view.result) {
    // The places of this round decide who exchanges with whom in the next (kept with the
    // session, so a reload during the exchange still names them).
    state.session.places = view.result.dragon ? null : places(view.result, view.players); // no exchange after a dragon
    saveSession("banting", state.session);
  }
  const next = await send(`${GAMES}/${state.session.id}/rounds`, { version: view.version });
  if (next) {
    state.selected.clear();
    state.verdict = null;
    state.note = "";
    await playIn(next, { deal: true, from: 0 });
  }
}

/** The exchange step: give the one selected card back (POST …/exchange); play starts. */
async function giveBack() {
  if (!state || state.busy || !owesCard(state.view) || state.selected.size !== 1) return;
  const view = state.view;
  const [card] = state.selected;
  const next = await send(`${GAMES}/${state.session.id}/exchange`, { cards: [card], version: view.version });
  if (next) {
    state.selected.clear();
    state.verdict = null;
    state.note = "";
    await playIn(next, { deal: false, from: 0, exchanged: true });
  }
}

function showHint() {
  const hint = state.view && state.view.hint;
  if (!hint) return;
  if (hint.play === "pass") {
    state.selected.clear();
    note(t("hintNothing", { table: state.view.table ? state.view.table.label : "" }));
  } else {
    state.selected = new Set(hint.play);
    note(t(hint.pass_reasonable ? "hintPassToo" : "hintShown", { label: hint.label }));
  }
  renderHand();
  updateVerdict();
}

// --- what the selection is: POST /v1/banting/validate ------------------------------------

function orderedSelection() {
  return state.view.hand.filter((card) => state.selected.has(card));
}

function selectionKey() {
  return `${state.view.version}:${orderedSelection().join(" ")}`;
}

function verdictFits() {
  return state.verdict !== null && state.verdict.key === selectionKey();
}

function toggleCard(card) {
  if (!state || !state.view || state.view.over) return;
  if (state.selected.has(card)) state.selected.delete(card);
  else if (owesCard(state.view)) state.selected = new Set([card]); // one card goes back
  else state.selected.add(card);
  state.note = "";
  renderHand();
  updateVerdict();
}

/** Ask the engine what the selection is and whether it may be played on this table; a
 * newer selection makes an older answer moot (answers are matched by key). */
async function updateVerdict() {
  if (!state || !state.view) return;
  const view = state.view;
  const play = orderedSelection();
  const key = selectionKey();
  const seq = ++state.verdictSeq;
  if (!play.length || view.over || view.phase === "exchange") {
    state.verdict = null;
    renderLines();
    renderActions();
    return;
  }
  const body = {
    hand: view.hand,
    play,
    table: view.table ? view.table.cards : null,
    first_play: view.first_play,
    passed: view.passed.includes(view.seat),
    twos_demoted: view.twos_demoted,
    rules: view.rules,
  };
  const mine = state;
  try {
    const { data } = await post("/v1/banting/validate", body);
    if (state !== mine || seq !== state.verdictSeq) return;
    state.verdict = { key, ...data };
  } catch (error) {
    if (state !== mine || seq !== state.verdictSeq) return;
    state.verdict = { key, ok: false, combo: null, code: "UNCHECKED", message: "" };
    state.note = problemText(error);
  }
  renderLines();
  renderActions();
}

// --- replaying the history: the state after the first n moves --------------------------

function bigTwoKey(card, suitOrder) {
  return BIG_TWO_RANKS.indexOf(card[0]) * 4 + suitOrder.indexOf(card[1]);
}

/** Counts, table, leader and each seat's last word in the trick after `upto` moves. */
function replay(view, upto) {
  const players = view.players;
  const counts = Array(players).fill(HAND_SIZE);
  let table = null;
  let leader = upto > 0 ? view.history[0].seat : null;
  let passes = 0;
  let bubbles = {};
  let sweptTo = null;
  for (let i = 0; i < upto; i += 1) {
    const move = view.history[i];
    sweptTo = null;
    if (move.play === "pass") {
      passes += 1;
      bubbles[move.seat] = { pass: true };
      if (table) {
        const others = counts.filter((count, seat) => seat !== table.seat && count > 0).length;
        if (passes >= others) {
          // Everyone else still in has passed: the trick goes to the last player who played.
          let next = table.seat;
          while (counts[next] === 0) next = (next + 1) % players;
          sweptTo = next;
          leader = next;
          table = null;
          passes = 0;
          bubbles = {};
        }
      }
    } else {
      counts[move.seat] -= move.play.length;
      if (table === null) leader = move.seat;
      table = { seat: move.seat, cards: move.play, label: move.label, kind: move.kind };
      passes = 0;
      bubbles[move.seat] = { label: move.label };
    }
  }
  return { counts, table, leader, bubbles, sweptTo };
}

/** What the screen shows when no animation runs: the view itself. */
function settled(view) {
  const replayed = replay(view, view.history.length);
  return {
    counts: view.counts,
    table: view.table,
    leader: view.leader,
    turn: view.over ? null : view.turn,
    bubbles: replayed.bubbles,
    hand: view.hand,
    sweptTo: null,
  };
}

/** Draw a new view, animating what happened since move `from` (and the deal first).
 * Once a seat has gone out the round is over for everyone at once: data-state is
 * round-over while the last moves still play out, and no seat has the turn. */
async function playIn(view, { deal, from, exchanged = false }) {
  const mine = state;
  const previous = state.view;
  setView(view);
  if (previous && previous.round !== view.round) state.selected.clear();
  if (deal) {
    state.els.section.focus({ preventScroll: true }); // a round starts
    markSeen(view, 0);
  }
  await sequence(async () => {
    if (deal) {
      setState("dealing");
      await animateDeal(view);
    }
    if (state !== mine) return;
    setState(view.over ? "round-over" : "playing");
    await animateMoves(view, from);
  });
  if (state !== mine) return;
  state.shown = null;
  state.note = ""; // what happened on the way is over; the markers show where it led
  // The exchange done (by the bots at the deal, or the player's give-back): say what this
  // seat gave and received, and which computers exchanged between themselves (a seat
  // without a part sees only that), while the round's first plays are on the table.
  const exchanges = view.exchange || (view.rules.exchange === "ranked" && view.round > 1 && state.session.places);
  if ((deal || exchanged) && exchanges && view.phase !== "exchange") state.note = exchangeLines(view).join(" ");
  renderAll();
  markSeen(view, view.history.length);
  setState(view.over ? "round-over" : "playing");
  updateVerdict();
  if (view.over) focusResult();
  else if (keyboard && view.your_turn && (!root.contains(document.activeElement) || document.activeElement.disabled)) {
    // A keyboard player whose button went away (disabled) gets the cards back in focus.
    const first = state.els.hand.querySelector("[data-card]");
    if (first) first.focus({ preventScroll: true });
  }
}

async function animateDeal(view) {
  const suitOrder = view.rules.suit_order;
  const mine = view.history.filter((m) => m.seat === view.seat && m.play !== "pass");
  const dealt = [...view.hand, ...mine.flatMap((m) => m.play)].sort(
    (a, b) => bigTwoKey(a, suitOrder) - bigTwoKey(b, suitOrder),
  );
  const shown = { counts: Array(view.players).fill(0), table: null, leader: null, turn: null, bubbles: {}, hand: [] };
  state.shown = shown;
  renderAll();
  for (let i = 0; i < HAND_SIZE && !isSkipping(); i += 1) {
    for (let seat = 0; seat < view.players && !isSkipping(); seat += 1) {
      shown.counts[seat] += 1;
      if (seat === view.seat) shown.hand = dealt.slice(0, i + 1);
      if (!state) return;
      renderSeats();
      if (seat === view.seat) renderHand({ dealing: true });
      await pause(DEAL_STEP);
    }
  }
  shown.counts = Array(view.players).fill(HAND_SIZE);
  shown.hand = dealt;
  renderAll();
}

async function animateMoves(view, from) {
  const moves = view.history;
  if (from >= moves.length) return;
  // The seat marked as to move while the moves play out: a computer while it thinks and
  // its play shows; never the player (whose buttons wait for the end), nobody once the
  // round is over.
  const marked = (seat) => (view.over || seat === view.seat ? null : seat);
  const start = replay(view, from);
  const shown = { ...start, turn: marked(moves[from].seat), hand: view.hand, sweptTo: null };
  state.shown = shown;
  renderAll();
  for (let i = from; i < moves.length && !isSkipping(); i += 1) {
    const move = moves[i];
    const last = i === moves.length - 1;
    shown.turn = marked(move.seat);
    shown.sweptTo = null;
    renderSeats();
    if (move.seat !== view.seat) await pause(THINK);
    const after = replay(view, i + 1);
    if (after.sweptTo !== null) {
      // Show the last pass, then sweep the trick to its winner.
      shown.bubbles = { ...shown.bubbles, [move.seat]: { pass: true } };
      renderSeats();
      await pause(SHOW_PLAY / 2);
      await sweep(after.sweptTo);
      Object.assign(shown, after, { turn: marked(after.sweptTo), hand: view.hand });
      renderAll();
      markSeen(view, i + 1);
      note(t("sweptTo", { name: seatName(after.sweptTo, view.seat) }), { quiet: true });
      continue;
    }
    Object.assign(shown, after, { turn: marked(move.seat), hand: view.hand, played: move.play !== "pass" });
    renderAll();
    markSeen(view, i + 1);
    // The last move before the player's turn shows on the table as the buttons come on.
    if (last && view.your_turn) break;
    await pause(move.play === "pass" ? SHOW_PLAY / 2 : SHOW_PLAY);
  }
}

async function sweep(toSeat) {
  if (!state || !state.els) return;
  const trick = state.els.trick;
  const pos = toSeat === state.view.seat ? "bottom" : POSITIONS[state.view.players][toSeat];
  trick.dataset.sweep = pos;
  await pause(SWEEP);
  delete trick.dataset.sweep;
}

// --- drawing ----------------------------------------------------------------------------

function presented() {
  return state.shown || settled(state.view);
}

function seatPosition(seat) {
  return seat === state.view.seat ? "bottom" : POSITIONS[state.view.players][seat];
}

/** Build the table's frame once per view shape; the render* functions fill it in. */
function build() {
  const view = state.view;
  const seats = {};
  for (let seat = 0; seat < view.players; seat += 1) {
    const parts = seatParts(seat, view.seat);
    seats[seat] = seatPanel(
      seat,
      view.seat,
      `pos-${seatPosition(seat)}`,
      h("div", { class: "seat-head" }, parts.name, parts.total),
      h(
        "div",
        { class: "seat-body" },
        seat === view.seat ? null : h("span", { class: "stack", "aria-hidden": "true" }, cardBack("mini")),
        parts.count,
      ),
      h(
        "div",
        { class: "markers", "aria-hidden": "true" },
        h("span", { class: "marker m-lead" }, t("leads")),
        h("span", { class: "marker m-one" }, t("oneCard")),
        h("span", { class: "marker m-turn" }, t("turn")),
      ),
      h("div", { class: "bubble", "aria-hidden": "true" }),
    );
  }
  const trick = h("div", { class: "trick" });
  const trickLabel = h("p", { class: "trick-label" });
  const table = h(
    "div",
    { class: "table-area", dataset: { role: "table" }, role: "region", "aria-label": t("tableLabel"), "aria-live": "polite" },
    trick,
    trickLabel,
  );
  const info = liveLine("info");
  const status = liveLine("status", { role: "status" });
  const hand = h("div", { class: "hand", dataset: { role: "hand" }, role: "group", "aria-label": t("handLabel") });
  const actions = {
    hint: h("button", { type: "button", class: "secondary", dataset: { action: "hint" }, onclick: showHint }, t("hint")),
    pass: h("button", { type: "button", class: "secondary", dataset: { action: "pass" }, onclick: passTurn }, t("pass")),
    play: h("button", { type: "button", class: "primary", dataset: { action: "play" }, onclick: playSelected }, t("play")),
  };
  const roundLine = h("span", { class: "round-no" });
  const codeLine = h("span", { class: "round-code" });
  const result = h("div", { class: "result-slot" });
  const exchange = h("div", { class: "exchange-slot" });
  const others = otherSeats(view.players, view.seat).map((seat) => seats[seat]);

  // tabindex -1: focus lands on the table when a round starts (the start button is gone).
  const section = h(
    "section",
    { class: `banting table players-${view.players}`, "aria-label": t("banting"), tabindex: "-1" },
    h("div", { class: "roundbar" }, roundLine, codeLine),
    h("div", { class: "felt", role: "group", "aria-label": t("seatsLabel") }, others, table, result),
    seats[view.seat],
    info,
    status,
    exchange,
    hand,
    h("div", { class: "actions" }, actions.hint, actions.pass, actions.play),
  );
  root.replaceChildren(section);
  state.els = { section, seats, trick, trickLabel, table, info, status, exchange, hand, actions, roundLine, codeLine, result };
}

function renderAll() {
  if (!state || !state.els) return;
  renderRound();
  renderSeats();
  renderTable();
  renderHand();
  renderLines();
  renderActions();
  renderResult();
  renderExchange();
}

function renderRound() {
  if (!state || !state.els) return;
  const { roundLine, codeLine } = state.els;
  const view = state.view;
  roundLine.textContent = t("round", { n: view.round });
  codeLine.replaceChildren();
  if (view.code) {
    const [before, after] = t("roundCode", { code: "\u0000" }).split("\u0000");
    codeLine.append(before, h("span", { class: "code", dataset: { role: "code" } }, view.code), after);
  }
}

function renderSeats() {
  if (!state || !state.els) return;
  const view = state.view;
  const shown = presented();
  // The player has moved and waits for the answer: the turn is no longer theirs to take.
  const turn = state.busy && !state.shown ? null : shown.turn;
  for (const [key, el] of Object.entries(state.els.seats)) {
    const seat = Number(key);
    const count = shown.counts[seat];
    flag(el, "data-turn", turn === seat);
    flag(el, "data-leader", shown.leader === seat);
    flag(el, "data-one-card", count === 1);
    const bubble = shown.bubbles[seat];
    const bubbleEl = el.querySelector(".bubble");
    bubbleEl.textContent = bubble ? (bubble.pass ? t("passedBubble") : bubble.label) : "";
    bubbleEl.dataset.kind = bubble ? (bubble.pass ? "pass" : "play") : "";
    const more = [];
    if (shown.leader === seat) more.push(t("leads"));
    if (count === 1) more.push(t("oneCard"));
    if (turn === seat) more.push(t("turn"));
    fillSeat(el, { me: view.seat, count, total: view.totals[seat], more });
  }
}

function renderTable() {
  if (!state || !state.els) return;
  const view = state.view;
  const shown = presented();
  const { trick, trickLabel } = state.els;
  const combo = shown.table;
  const key = combo ? `${combo.seat}:${combo.cards.join(" ")}` : "";
  if (trick.dataset.key !== key) {
    trick.dataset.key = key;
    const from = combo ? seatPosition(combo.seat) : "";
    trick.replaceChildren(...(combo ? combo.cards.map((card) => cardFace(card, `played from-${from}`)) : []));
  }
  if (combo) {
    trickLabel.textContent = `${combo.label} · ${t("playedBy", { name: seatName(combo.seat, view.seat) })}`;
  } else if (shown.leader !== null && shown.leader !== undefined) {
    const opening = state.shown ? shown.counts.every((c) => c === HAND_SIZE) : view.history.length === 0;
    trickLabel.textContent = `${t("tableEmpty")} · ${t(opening ? "opens" : "leadsNext", { name: seatName(shown.leader, view.seat) })}`;
  } else if (shown.turn !== null && shown.turn !== undefined) {
    trickLabel.textContent = `${t("tableEmpty")} · ${t("opens", { name: seatName(shown.turn, view.seat) })}`;
  } else {
    trickLabel.textContent = t("tableEmpty");
  }
}

function renderHand({ dealing = false } = {}) {
  if (!state || !state.els) return;
  const container = state.els.hand;
  const cards = presented().hand;
  const existing = new Map([...container.children].map((el) => [el.dataset.card, el]));
  const wanted = cards.map((card) => {
    let el = existing.get(card);
    if (!el) {
      el = cardButton(card, { onclick: () => toggleCard(card), extra: dealing ? "dealt" : "" });
    }
    el.setAttribute("aria-pressed", state.selected.has(card) ? "true" : "false");
    return el;
  });
  const same = wanted.length === container.children.length && wanted.every((el, i) => container.children[i] === el);
  if (!same) container.replaceChildren(...wanted);
  container.dataset.count = String(cards.length);
}

/** «Kamu menang» / "You win", or «Komputer 2 menang» / "Computer 2 wins". */
function winnerText(seat) {
  const view = state.view;
  return seat === view.seat ? t("winnerYou") : t("winnerLine", { name: seatName(seat, view.seat) });
}

function selectionText() {
  const view = state.view;
  if (view.over && view.result) {
    return bombEnder(view) ? `${winnerText(view.result.winner)} · ${bombText(view)}` : winnerText(view.result.winner);
  }
  if (document.body.dataset.state === "dealing") return t("dealing");
  if (view.phase === "exchange") {
    const [card] = state.selected;
    if (!owesCard(view) || !card) return owesCard(view) ? t("exchangePick") : "";
    return t("exchangeChosen", { card: cardText(card), name: partnerName(view) });
  }
  if (!state.selected.size) return view.your_turn && !state.shown ? t("pickCards") : "";
  if (!verdictFits()) return null; // the answer is on its way: keep the line as it is
  const verdict = state.verdict;
  const combo = verdict.combo ? verdict.combo.label : null;
  const table = view.table ? view.table.label : null;
  // A run the straights setting leaves out is a combo the table forbids (RULES.md 3.1).
  if (verdict.code === "UNCHECKED") return t("selUnchecked"); // the check failed (offline)
  if (!combo) return t(verdict.code === "RULE_FORBIDS" ? "selForbidden" : "selNoCombo");
  if (verdict.ok) return table ? t("selBeats", { combo, table }) : t("selLeads", { combo });
  if (verdict.code === "DOES_NOT_BEAT" && table) return t("selNotBeats", { combo, table });
  return t("selCannot", { combo });
}

function renderLines() {
  if (!state || !state.els) return;
  const view = state.view;
  const { info, status } = state.els;
  // Info: what the selection is, then always «Sisa N · kalau selesai sekarang −X».
  const selection = selectionText();
  const left = t("info", { n: view.hand.length, x: signed(view.if_ended_now) });
  let sel = info.querySelector(".sel");
  if (!sel) {
    sel = h("span", { class: "sel" });
    info.replaceChildren(sel, h("span", { class: "sep", "aria-hidden": "true" }, " · "), h("span", { class: "left" }));
  }
  if (selection !== null) sel.textContent = selection;
  const sep = info.querySelector(".sep");
  sep.hidden = !sel.textContent;
  sep.textContent = sel.textContent ? " · " : ""; // the line's text starts with «Sisa» then
  info.querySelector(".left").textContent = left;
  // Status: the engine's reason when the selection cannot be played, else the last note,
  // else whose turn it is.
  status.textContent = statusText();
  status.dataset.kind = refusal() ? "refusal" : "";
}

function refusal() {
  return state.selected.size && verdictFits() && !state.verdict.ok ? state.verdict.message : "";
}

function statusText() {
  const view = state.view;
  const reason = refusal();
  if (reason) return reason;
  if (state.note) return state.note;
  if (state.shown) return t("skip"); // the deal or the computers' moves are playing out
  if (view.over) return "";
  if (view.your_turn) {
    if (view.first_play) return t("yourTurnFirst");
    if (!view.table) return t("yourTurnLead");
    return t("yourTurnBeat", { table: view.table.label });
  }
  return view.turn === null ? "" : t("waitingFor", { name: seatName(view.turn, view.seat) });
}

function note(text, { quiet = false } = {}) {
  if (!state) return;
  state.note = text;
  if (!quiet || !refusal()) renderLines();
}

function renderActions() {
  if (!state || !state.els) return;
  const view = state.view;
  const { actions } = state.els;
  const canAct = !!view && !view.over && view.your_turn && !state.busy && !isAnimating() && !state.shown;
  const playable = canAct && state.selected.size > 0 && verdictFits() && state.verdict.ok;
  flag(actions.play, "disabled", !playable);
  flag(actions.pass, "disabled", !(canAct && view.can_pass));
  flag(actions.hint, "disabled", !(canAct && view.hint));
  const next = state.els.result.querySelector('[data-action="next-round"]');
  if (next) flag(next, "disabled", state.busy);
  const give = state.els.exchange.querySelector('[data-action="give-back"]');
  if (give) flag(give, "disabled", !(owesCard(view) && state.selected.size === 1 && !state.busy && !state.shown));
  // Why «Lewat» is off when the player leads (seed 003: it is refused then).
  if (canAct && !view.can_pass) actions.pass.title = t("yourTurnLead");
  else actions.pass.removeAttribute("title");
}

function renderResult() {
  if (!state || !state.els) return;
  const view = state.view;
  const slot = state.els.result;
  if (!view.over || !view.result || state.shown) {
    slot.replaceChildren();
    return;
  }
  const result = view.result;
  const order = [result.winner, ...result.lines.map((_, seat) => seat).filter((seat) => seat !== result.winner)];
  const lines = order.map((seat) => {
    const line = result.lines[seat];
    const name = seatName(seat, view.seat);
    const text =
      seat === result.winner
        ? `${winnerText(seat)} · ${t("winnerTotal", { points: signed(line.points) })}`
        : `${name}: ${t("loserLine", { cards: line.cards_left, mult: line.multiplier, points: signed(line.points) })}`;
    return h(
      "li",
      { class: seat === result.winner ? "winner" : "loser", dataset: { seat, points: line.points } },
      text,
    );
  });
  const totals = h(
    "table",
    { class: "totals" },
    h("caption", {}, t("matchAfter", { n: view.round })),
    h("tbody", {}, view.totals.map((total, seat) =>
      h("tr", { dataset: { totalSeat: seat } }, h("th", { scope: "row" }, seatName(seat, view.seat)), h("td", {}, signed(total))),
    )),
  );
  const next = h(
    "button",
    { type: "button", class: "primary", dataset: { action: "next-round" }, onclick: nextRound },
    t("nextRound"),
  );
  flag(next, "disabled", state.busy);
  slot.replaceChildren(
    h(
      "section",
      { class: "result-card", dataset: { role: "result" }, "aria-labelledby": "result-title", tabindex: "-1" },
      h("h2", { id: "result-title" }, t("roundOver", { n: view.round })),
      result.dragon ? h("p", { class: "dragon" }, t("dragonWin", { name: seatName(result.winner, view.seat) })) : null,
      bombEnder(view) ? h("p", { class: "dragon", dataset: { role: "bomb-ended" } }, bombText(view)) : null,
      h("ol", { class: "lines" }, lines),
      totals,
      next,
    ),
  );
}

const BOMBS = ["four_of_a_kind", "straight_flush"];

/** Under bomb_ends (RULES.md 3.2), the round's last move when it was a bomb that took its
 * player out: that ended the round for every seat still holding cards. */
function bombEnder(view) {
  if (!view.over || !view.rules || !view.rules.bomb_ends) return null;
  const last = view.history[view.history.length - 1];
  if (!last || last.play === "pass" || !BOMBS.includes(last.kind)) return null;
  return view.counts[last.seat] === 0 ? last : null;
}

function bombText(view) {
  const last = bombEnder(view);
  return t("bombEnded", { name: seatName(last.seat, view.seat), label: last.label });
}

function focusResult() {
  const card = state && state.els && state.els.result.querySelector('[data-role="result"]');
  if (card) card.focus({ preventScroll: true });
}

// --- the card exchange (RULES.md 3.2 exchange: ranked) ------------------------------------

/** The seats of a finished round by place: fewer cards left first, ties in turn order from
 * the winner. The first and the last exchange, and with four players the second and third. */
function places(result, players) {
  const after = (seat) => (seat - result.winner + players) % players;
  return [...Array(players).keys()].sort(
    (a, b) => result.cards_left[a] - result.cards_left[b] || after(a) - after(b),
  );
}

function exchangePairs(order) {
  if (!order) return [];
  const pairs = [[order[0], order[order.length - 1]]];
  if (order.length === 4) pairs.push([order[1], order[2]]);
  return pairs;
}

/** The seat this seat exchanges with, named; null when the places are not known. */
function partnerName(view) {
  const pair = exchangePairs(state.session.places).find((p) => p.includes(view.seat));
  return pair ? seatName(pair[0] === view.seat ? pair[1] : pair[0], view.seat) : t("exchangeSomeone");
}

function owesCard(view) {
  return !!view && view.phase === "exchange" && !!view.exchange && view.exchange.give > 0;
}

/** What this seat received and gave, and which other seats exchange between themselves. */
function exchangeLines(view) {
  const part = view.exchange;
  const name = partnerName(view);
  const cards = (list) => list.map(cardText).join(" ");
  const lines = [];
  if (part && part.received.length) lines.push(t("exchangeReceived", { cards: cards(part.received), name }));
  if (part && part.gave.length) lines.push(t("exchangeGave", { cards: cards(part.gave), name }));
  for (const [a, b] of exchangePairs(state.session.places)) {
    if (a === view.seat || b === view.seat) continue;
    lines.push(t("exchangeOthers", { a: seatName(a, view.seat), b: seatName(b, view.seat) }));
  }
  return lines;
}

/** The exchange step: shown while the exchange is open, with «Kembalikan kartu» while this
 * seat owes a card (the card is chosen in the hand, by tap, click or keyboard). */
function renderExchange() {
  if (!state || !state.els) return;
  const view = state.view;
  const slot = state.els.exchange;
  if (view.phase !== "exchange" || !view.exchange || state.shown) {
    slot.replaceChildren();
    return;
  }
  const give = owesCard(view)
    ? h("button", { type: "button", class: "primary", dataset: { action: "give-back" }, onclick: giveBack }, t("giveBack"))
    : null;
  slot.replaceChildren(
    h(
      "section",
      { class: "exchange-card", dataset: { role: "exchange", give: view.exchange.give }, "aria-labelledby": "exchange-title" },
      h("h2", { id: "exchange-title" }, t("exchangeTitle")),
      exchangeLines(view).map((line) => h("p", {}, line)),
      owesCard(view) ? h("p", { class: "exchange-ask" }, t("exchangeGive", { name: partnerName(view) })) : null,
      give,
    ),
  );
  renderActions();
}
