// Animations that a tap skips. A game runs a sequence of steps (deal a card, show a bot's
// play, sweep a trick) with pause(ms) between them; skip() ends every pause at once, so the
// rest of the sequence runs straight to the final state. What the screen shows at the end
// never depends on the animation: the game renders its final state from the server's view.

import { store } from "./store.js";

const SPEED = { normal: 1, fast: 0.25 };
const reduced = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

let skipping = false;
let running = null; // the promise of the sequence in progress
const sleepers = new Set();

/** How much slower or faster than normal: 1, 0.25 («Cepat»), less with reduced motion. */
function speedFactor() {
  const factor = SPEED[store.speed] ?? 1;
  return reduced && reduced.matches ? Math.min(factor, 0.1) : factor;
}

/** Tell the stylesheet the speed (its transitions scale with --speed). */
export function applySpeed() {
  document.body.style.setProperty("--speed", String(speedFactor()));
}

/** Wait `ms` (scaled by the speed), or less once the sequence is skipped. */
export function pause(ms) {
  const wait = ms * speedFactor();
  if (skipping || wait <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const wake = () => {
      clearTimeout(timer);
      sleepers.delete(wake);
      resolve();
    };
    const timer = setTimeout(wake, wait);
    sleepers.add(wake);
  });
}

export const isSkipping = () => skipping;
export const isAnimating = () => running !== null;

/** End the running sequence's pauses now. */
export function skip() {
  if (!running) return;
  skipping = true;
  document.body.classList.add("skipping");
  for (const wake of [...sleepers]) wake();
}

/** Run `steps` (an async function) as the one sequence on screen; a running one is skipped
 * to its end first. Resolves when `steps` is done. */
export async function sequence(steps) {
  if (running) {
    skip();
    await running.catch(() => {});
  }
  skipping = false;
  document.body.classList.remove("skipping");
  document.body.classList.add("animating");
  const current = (async () => steps())();
  running = current;
  try {
    await current;
  } finally {
    if (running === current) {
      running = null;
      skipping = false;
      document.body.classList.remove("animating", "skipping");
    }
  }
}

// A tap, click or Escape anywhere skips the animation in progress (WEB.md: "a tap skips it").
document.addEventListener("pointerdown", () => skip(), { capture: true });
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape") skip();
}, { capture: true });
