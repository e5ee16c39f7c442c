// Capsa Susun setup: number of players, computer level, stake, optional time limit, the
// rules preset and corrections (seed 004); each control's values are the API's values (WEB.md: data-setting).

import { formatNumber, h } from "../shared/dom.js";
import { t } from "../shared/i18n.js";
import { savePrefs, store } from "../shared/store.js";

export const PLAYERS = [2, 3, 4];
export const LEVELS = ["beginner", "standard", "expert", "master"];
export const TIME_LIMITS = ["", "60", "120", "300"]; // seconds; "" is no limit (null)
export const PRESETS = ["capsa-susun", "classic", "two-four", "susun-specials"];
// Seed 004's corrections before the reveal: the API's boolean, as the select's text value.
export const CORRECTIONS = ["false", "true"];
// Stakes offered (WEB.md: a select whose values are the API's); a stake saved from an
// earlier version of the page that is not among them is offered too.
export const STAKES = ["0.5", "1", "2", "2.5", "5", "10", "20", "50", "100", "250", "500", "1000", "5000", "10000"];
const MAX_STAKE = 1e12; // the API's bound on a stake

function currentChoices() {
  const saved = store.setup.susun || {};
  const stake = Number(saved.stake);
  return {
    players: PLAYERS.includes(Number(saved.players)) ? Number(saved.players) : 4,
    level: LEVELS.includes(saved.level) ? saved.level : "standard",
    stake: Number.isFinite(stake) && stake > 0 && stake <= MAX_STAKE ? stake : 1,
    time_limit: TIME_LIMITS.includes(saved.time_limit) ? saved.time_limit : "",
    preset: PRESETS.includes(saved.preset) ? saved.preset : "capsa-susun",
    corrections: CORRECTIONS.includes(saved.corrections) ? saved.corrections : "false",
  };
}

function timeText(value) {
  if (!value) return t("timeNone");
  const seconds = Number(value);
  return seconds % 60 === 0 ? t("timeMinutes", { n: seconds / 60 }) : t("timeSeconds", { n: seconds });
}

/** The setup screen; `onStart(choices, button)` starts a table. */
export function renderSetup(root, { onStart, resume, notice, players = null }) {
  const choices = currentChoices();
  // A round link's code decides the number of players: shown, and not to be changed.
  if (players) choices.players = players;
  const explain = {
    players: h("p", { class: "explain", id: "explain-players", "aria-live": "polite" }),
    level: h("p", { class: "explain", id: "explain-susun-level", "aria-live": "polite" }),
    stake: h("p", { class: "explain", id: "explain-stake" }, t("stakeExplain")),
    time_limit: h("p", { class: "explain", id: "explain-time", "aria-live": "polite" }),
    preset: h("p", { class: "explain", id: "explain-preset", "aria-live": "polite" }),
    corrections: h("p", { class: "explain", id: "explain-corrections", "aria-live": "polite" }),
  };
  const refresh = () => {
    explain.players.textContent = players
      ? `${t("playersExplain", { n: choices.players - 1 })} ${t("playersOfCode")}`
      : t("playersExplain", { n: choices.players - 1 });
    explain.level.textContent = t(`levelExplain_${choices.level}`);
    explain.time_limit.textContent = choices.time_limit ? t("timeExplain") : t("timeExplainNone");
    explain.preset.textContent = t(`presetExplain_${choices.preset}`);
    explain.corrections.textContent = t(`correctionsExplain_${choices.corrections}`);
  };
  const remember = () => {
    store.setup.susun = { ...choices, players: players ? currentChoices().players : choices.players };
    savePrefs();
    refresh();
  };
  const select = (name, id, values, label, text) =>
    h(
      "div",
      { class: "setting-row" },
      h("label", { for: id }, label),
      h(
        "select",
        {
          id,
          dataset: { setting: name },
          "aria-describedby": explain[name].id,
          onchange: (event) => {
            const value = event.target.value;
            choices[name] = name === "players" || name === "stake" ? Number(value) : value;
            remember();
          },
        },
        values.map((value) => h("option", { value, selected: String(choices[name]) === String(value) }, text(value))),
      ),
      explain[name],
    );

  const stakes = STAKES.includes(String(choices.stake))
    ? STAKES
    : [...STAKES, String(choices.stake)].sort((a, b) => Number(a) - Number(b));
  const playersRow = select("players", "susun-players", PLAYERS, t("players"), (n) => t("playersN", { n }));
  if (players) {
    playersRow.querySelector("select").disabled = true;
    explain.players.dataset.locked = "";
  }

  const start = h("button", { type: "button", class: "primary big", dataset: { action: "start" } }, t("start"));
  start.addEventListener("click", () => onStart({ ...choices }, start));

  root.replaceChildren(
    h(
      "section",
      { class: "setup", "aria-labelledby": "setup-title" },
      h("h2", { id: "setup-title" }, t("susunTitle")),
      notice ? h("p", { class: "notice", dataset: { role: "status" }, role: "status" }, notice) : null,
      playersRow,
      select("level", "susun-level", LEVELS, t("level"), (value) => t(`level_${value}`)),
      select("stake", "susun-stake", stakes, t("stake"), formatNumber),
      select("time_limit", "susun-time", TIME_LIMITS, t("time_limit"), timeText),
      select("preset", "susun-preset", PRESETS, t("preset"), (value) => t(`preset_${value}`)),
      select("corrections", "susun-corrections", CORRECTIONS, t("corrections"), (value) => t(`corrections_${value}`)),
      h(
        "div",
        { class: "setup-actions" },
        start,
        resume
          ? h("button", { type: "button", class: "secondary", dataset: { action: "resume" }, onclick: resume }, t("resume"))
          : null,
      ),
    ),
  );
  refresh();
}

/** The create-table body (POST /v1/susun/games) for these choices. */
export function tableRequest(choices, code, players = choices.players) {
  const bots = {};
  for (let seat = 1; seat < players; seat += 1) bots[String(seat)] = choices.level;
  const body = {
    rules: { preset: choices.preset },
    players,
    bots,
    stake: choices.stake,
    time_limit: choices.time_limit ? Number(choices.time_limit) : null,
    corrections: choices.corrections === "true",
  };
  if (code) body.code = code;
  return body;
}
