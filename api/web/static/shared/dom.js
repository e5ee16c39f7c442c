// Small DOM helpers: build elements from data, never from HTML strings (so nothing a
// server or a player sends can become markup).

/**
 * h("button", {class: "x", dataset: {action: "play"}, disabled: true, onclick: fn}, "text", child)
 * Attributes: `class`, `dataset` (object), `on<event>` (listeners), booleans (present when
 * true, absent when false), `text`; everything else is set with setAttribute. Children may
 * be strings, nodes, arrays, or null/false (skipped).
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "dataset") {
      for (const [name, v] of Object.entries(value)) {
        if (v !== null && v !== undefined && v !== false) el.dataset[name] = v === true ? "" : String(v);
      }
    } else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "text") el.textContent = value;
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : String(child));
  }
}

/** Replace every child of `el` with `children`. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** Set or remove a boolean attribute (`disabled`, `hidden`, `data-turn`, ...). */
export function flag(el, name, on) {
  if (on) el.setAttribute(name, "");
  else el.removeAttribute(name);
}

/** The first element under `root` matching `selector` (throws when missing: a bug). */
export function $(selector, root = document) {
  const el = root.querySelector(selector);
  if (!el) throw new Error(`missing element ${selector}`);
  return el;
}

/** A signed number as the seed writes it: −39 with a real minus sign, +12, 0. */
export function signed(n) {
  if (n > 0) return `+${formatNumber(n)}`;
  if (n < 0) return `\u2212${formatNumber(-n)}`;
  return "0";
}

/** Up to two decimals, no trailing zeros (money at a stake like 0.5 or 1000). */
export function formatNumber(n) {
  const rounded = Math.round(n * 100) / 100;
  return Number.isInteger(rounded) ? String(rounded) : rounded.toFixed(2).replace(/0$/, "");
}
