// Small helpers shared by the controllers: element lookup, number and time formats, and the
// browser's storage (the page works without it).

export const $ = (id) => document.getElementById(id);

export const number = (n) => Number(n).toLocaleString("en");

/** Short for counters that would not fit: 417,254 is "417k". */
export const short = (n) => (n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e5 ? `${Math.round(n / 1e3)}k` : number(n));

export const plural = (n, word) => `${number(n)} ${word}${n === 1 ? "" : "s"}`;

/** A stopwatch reading: 1:07.3. */
export function clock(ms) {
  const tenths = Math.floor(ms / 100);
  const m = Math.floor(tenths / 600);
  const s = Math.floor((tenths % 600) / 10);
  return `${m}:${String(s).padStart(2, "0")}.${tenths % 10}`;
}

/** A duration that never rounds to zero: "38 µs", "4.2 ms", "1.25 s". */
export function seconds(s) {
  if (s < 0.001) return `${Math.max(1, Math.round(s * 1e6))} µs`;
  if (s < 1) return `${(s * 1000).toFixed(1)} ms`;
  return `${s.toFixed(2)} s`;
}

/** Creates an element with attributes and children: h("p", {class: "x"}, "text"). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  el.append(...children.filter((c) => c !== null && c !== undefined));
  return el;
}

/** localStorage under "npuzzle.", as JSON. */
export const store = {
  get(key, fallback) {
    try {
      const v = localStorage.getItem(`npuzzle.${key}`);
      return v === null ? fallback : JSON.parse(v);
    } catch {
      return fallback;
    }
  },
  set(key, value) {
    try {
      localStorage.setItem(`npuzzle.${key}`, JSON.stringify(value));
    } catch {
      // Private mode or full storage: the page works without it.
    }
  },
};

export const DIRECTION = { U: "up", D: "down", L: "left", R: "right" };

/** The game's status line. */
export function say(text, tone = "") {
  const el = $("status");
  el.textContent = text;
  el.dataset.tone = tone;
}
