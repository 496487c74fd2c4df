// The transport every playback uses: the game's solution, the player's own solve (at its
// real speed), the optimal solution, and each lane's solution in the visualizer. Play/pause,
// step back and forward, stop, speed and progress; the moves are applied by the owner.

import { h, number } from "./helpers.js";

const PLAY = "M6 4l14 8-14 8V4z";
const PAUSE = "M6 4h4v16H6zM14 4h4v16h-4z";
const svg = (d, id) =>
  `<svg class="ico fill" viewBox="0 0 24 24" aria-hidden="true"><path ${id ? `data-part="${id}"` : ""} d="${d}"/></svg>`;

/** The controls for a transport, as markup (used by the lanes; the game's are in index.html). */
export function controls(label) {
  const root = h("div", { class: "player", "aria-label": label, role: "group" });
  root.innerHTML = `<div class="progress" aria-hidden="true"><div class="bar" data-part="bar"></div></div>
<div class="row transport">
<button type="button" data-part="back" aria-label="Step back" title="Step back">${svg("M19 20 9 12l10-8v16zM5 19V5")}</button>
<button type="button" data-part="play" class="play">${svg(PLAY, "icon")}<span data-part="text">Play</span></button>
<button type="button" data-part="forward" aria-label="Step forward" title="Step forward">${svg("M5 4l10 8-10 8V4zM19 5v14")}</button>
<button type="button" data-part="stop" aria-label="Stop" title="Stop">${svg("M6 6h12v12H6z")}</button>
<output data-part="count" class="count">0 / 0</output></div>
<div class="row"><label>Speed <input type="range" data-part="speed" min="1" max="100" value="8" step="1"></label><output data-part="speed-out">8 moves/s</output></div>`;
  return root;
}

export class Transport extends EventTarget {
  /**
   * `parts`: {root, back, play, forward, stop, count, bar, speed, speedOut, text, icon}
   * (elements; missing ones are skipped). `forward(i)` applies move i, `back(i)` undoes it.
   */
  constructor(parts) {
    super();
    this.p = parts;
    this.moves = [];
    this.index = 0;
    this.timer = null;
    this.times = null;
    this.loaded = false;
    this.on(parts.play, () => (this.timer ? this.pause() : this.play()));
    this.on(parts.forward, () => {
      this.pause();
      this.step();
    });
    this.on(parts.back, () => this.back());
    this.on(parts.stop, () => this.stop());
    if (parts.speed) parts.speed.addEventListener("input", () => this.speedChanged());
    this.speedChanged();
  }

  /** From the elements in `root` marked data-part (see `controls`). */
  static in(root) {
    const part = (name) => root.querySelector(`[data-part="${name}"]`);
    return new Transport({
      root,
      ...Object.fromEntries(["back", "play", "forward", "stop", "count", "bar", "speed", "text", "icon"].map((n) => [n, part(n)])),
      speedOut: part("speed-out"),
    });
  }

  on(el, f) {
    if (el) el.addEventListener("click", f);
  }

  get speed() {
    return this.p.speed ? Number(this.p.speed.value) : 8;
  }

  speedChanged() {
    if (this.p.speedOut) this.p.speedOut.textContent = this.times ? "real time" : `${this.speed} moves/s`;
    this.dispatchEvent(new CustomEvent("speed", { detail: this.speed }));
    if (this.timer) {
      this.pause();
      this.play();
    }
    this.show();
  }

  /**
   * Loads `moves` with the owner's `forward(i)` / `back(i)`. `times` (ms since the first
   * move, one per move) plays them at their real speed instead of the slider's.
   */
  load(moves, forward, back, times = null) {
    this.stop(true);
    this.moves = moves;
    this.forward = forward;
    this.backward = back;
    this.times = times;
    this.index = 0;
    this.loaded = true;
    this.speedChanged();
  }

  get done() {
    return this.index >= this.moves.length;
  }

  step() {
    if (!this.loaded || this.done) return false;
    this.forward(this.index);
    this.index++;
    if (this.done) {
      this.pause();
      this.dispatchEvent(new Event("end"));
    }
    this.show();
    return true;
  }

  back() {
    if (!this.loaded || this.index === 0) return;
    this.pause();
    this.index--;
    this.backward(this.index);
    this.show();
  }

  play() {
    if (!this.loaded || this.timer || this.done) return;
    const next = () => {
      const wait = this.times ? Math.max(0, (this.times[this.index] ?? 0) - (this.times[this.index - 1] ?? this.times[0] ?? 0)) : 1000 / this.speed;
      this.timer = setTimeout(() => {
        this.timer = null;
        if (this.step() && !this.done) next();
        else this.show();
      }, wait);
      this.show();
    };
    next();
  }

  pause() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.show();
  }

  /** Unloads; `quiet` skips the "stop" event (a new load, not the user's Stop). */
  stop(quiet = false) {
    const was = this.loaded;
    this.pause();
    this.loaded = false;
    this.moves = [];
    this.index = 0;
    this.times = null;
    this.show();
    if (was && !quiet) this.dispatchEvent(new Event("stop"));
  }

  show() {
    const { p } = this;
    const total = this.moves.length;
    const playing = Boolean(this.timer);
    const set = (el, f) => el && f(el);
    set(p.back, (b) => (b.disabled = !this.loaded || this.index === 0));
    set(p.forward, (b) => (b.disabled = !this.loaded || this.done));
    set(p.stop, (b) => (b.disabled = !this.loaded));
    set(p.play, (b) => (b.disabled = !this.loaded || (this.done && !playing)));
    set(p.text, (t) => (t.textContent = playing ? "Pause" : "Play"));
    set(p.icon, (i) => i.setAttribute("d", playing ? PAUSE : PLAY));
    set(p.count, (c) => (c.textContent = `${number(this.index)} / ${number(total)}`));
    set(p.bar, (b) => (b.style.width = total ? `${(100 * this.index) / total}%` : "0%"));
    set(p.root, (r) => {
      r.classList.toggle("active", this.loaded);
      r.dataset.state = !this.loaded ? "empty" : playing ? "playing" : this.done ? "done" : "paused";
    });
  }
}
