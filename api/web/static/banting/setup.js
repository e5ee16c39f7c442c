// Capsa Banting setup, seed 003's «Aturan meja»: its four rows and seed 002's card
// exchange and bomb ending, each a choice with an explanation that changes with it, then the computer level
// and «Mulai Main».
// Every control's values are the API's values (WEB.md: data-setting).

import { cardText, SUIT_SYMBOL } from "../shared/cards.js";
import { h } from "../shared/dom.js";
import { t } from "../shared/i18n.js";
import { store, savePrefs } from "../shared/store.js";

// The rows in the seed's order; the first value of each is the default table (capsa-banting).
export const RULE_ROWS = [
  { name: "suit_order", values: ["dchs", "cdhs"] },
  { name: "straights", values: ["two-high", "no-two"] },
  { name: "flush_compare", values: ["suit-first", "rank-first"] },
  { name: "first_lead", values: ["lowest-card", "previous-winner"] },
  // Seed 002's card exchange between the rounds of a match (RULES.md 3.2 exchange).
  { name: "exchange", values: ["none", "ranked"] },
  // Seed 002's «Bom dapat mengakhiri permainan» (RULES.md 3.2 bomb_ends): the API's boolean
  // as text. It needs bombs and the last-standing ending, which come with it (BOMB_TABLE).
  { name: "bomb_ends", values: ["false", "true"] },
];
// What «Bom mengakhiri ronde» turns on beside bomb_ends: bombs exist, and the round plays on
// after the first player is out, unless a bomb ends it.
const BOMB_TABLE = { bombs: "quads-and-straight-flush", ending: "last-standing", bomb_ends: true };
export const LEVELS = ["beginner", "standard", "expert", "master"];
const DEFAULT_LEVEL = "standard";

/** The choices stored from last time, checked against what the rows offer. */
export function currentChoices() {
  const saved = store.setup.banting || {};
  const choices = {};
  for (const row of RULE_ROWS) {
    choices[row.name] = row.values.includes(saved[row.name]) ? saved[row.name] : row.values[0];
  }
  choices.level = LEVELS.includes(saved.level) ? saved.level : DEFAULT_LEVEL;
  return choices;
}

/** The explanation of a row under the current choices (some name the opening card). */
function explanation(name, choices) {
  const order = choices.suit_order; // low to high
  return t(`explain_${name}_${choices[name]}`, {
    lowest: cardText(`3${order[0]}`), // the opening card with four players
    high: SUIT_SYMBOL[order[3]],
    low: SUIT_SYMBOL[order[0]],
  });
}

/**
 * The setup screen. `onStart(choices)` starts a game; `resume` (optional) resumes the stored
 * one; `notice` is a line shown above the rows (a round link being opened, an error).
 */
export function renderSetup(root, { onStart, resume, notice }) {
  const choices = currentChoices();
  const explains = {};

  const refreshExplanations = () => {
    for (const row of RULE_ROWS) explains[row.name].textContent = explanation(row.name, choices);
    levelExplain.textContent = t(`levelExplain_${choices.level}`);
  };
  const remember = () => {
    store.setup.banting = { ...choices };
    savePrefs();
  };

  const rows = RULE_ROWS.map((row) => {
    const explainId = `explain-${row.name}`;
    explains[row.name] = h("p", { class: "explain", id: explainId, "aria-live": "polite" });
    return h(
      "fieldset",
      { class: "rule-row", dataset: { setting: row.name }, "aria-describedby": explainId },
      h("legend", {}, t(row.name)),
      h(
        "div",
        { class: "segmented" },
        row.values.map((value) =>
          h(
            "label",
            { class: "segment" },
            h("input", {
              type: "radio",
              name: row.name,
              value,
              checked: choices[row.name] === value,
              onchange: () => {
                choices[row.name] = value;
                remember();
                refreshExplanations();
              },
            }),
            h("span", {}, t(`${row.name}_${value}`)),
          ),
        ),
      ),
      explains[row.name],
    );
  });

  const levelExplain = h("p", { class: "explain", id: "explain-level", "aria-live": "polite" });
  const level = h(
    "select",
    {
      id: "banting-level",
      dataset: { setting: "level" },
      "aria-describedby": "explain-level",
      onchange: (event) => {
        choices.level = event.target.value;
        remember();
        refreshExplanations();
      },
    },
    LEVELS.map((value) =>
      h("option", { value, selected: choices.level === value }, t(`level_${value}`)),
    ),
  );

  const start = h(
    "button",
    { type: "button", class: "primary big", dataset: { action: "start" } },
    t("start"),
  );
  start.addEventListener("click", () => onStart({ ...choices }, start));

  root.replaceChildren(
    h(
      "section",
      { class: "setup", "aria-labelledby": "setup-title" },
      h("h2", { id: "setup-title" }, t("rulesTitle")),
      notice ? h("p", { class: "notice", dataset: { role: "status" }, role: "status" }, notice) : null,
      rows,
      h(
        "div",
        { class: "setting-row" },
        h("label", { for: "banting-level" }, t("level")),
        level,
        levelExplain,
      ),
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
  refreshExplanations();
}

/** The create-game body for these choices: the default table with the rows set, the
 * player at seat 0 and computers at the level chosen in the other seats. */
export function gameRequest(choices, code, players = 4) {
  const rules = { preset: "capsa-banting" };
  for (const row of RULE_ROWS) rules[row.name] = choices[row.name];
  delete rules.bomb_ends;
  if (choices.bomb_ends === "true") Object.assign(rules, BOMB_TABLE);
  const bots = {};
  for (let seat = 1; seat < players; seat += 1) bots[String(seat)] = choices.level;
  const body = { rules, bots, players };
  if (code) body.code = code;
  return body;
}
