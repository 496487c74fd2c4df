// One lane of the visualizer: a search streamed from `GET /api/search`, drawn once per
// animation frame (the node being expanded with g, h and the f its list sorts by, the
// counters, the frontier chart, the open and closed lists), its result, and a transport to
// play its solution. The lane element keeps the testing contract: data-role="lane" with
// data-state, data-expanded, data-open, data-closed and, at the end, data-length.

import * as puzzle from "./puzzle.js";
import * as names from "./names.js";
import { h, number, plural, short, seconds } from "./helpers.js";
import { controls, Transport } from "./transport.js";

/** Draws a board into `el` as a small grid of cells coloured by their goal row. */
export function drawMini(el, text) {
  let board;
  try {
    board = puzzle.parse(text);
  } catch {
    return;
  }
  const { w, h: ht, tiles } = board;
  if (el.dataset.size !== `${w}x${ht}`) {
    el.dataset.size = `${w}x${ht}`;
    el.style.setProperty("--w", w);
    el.style.setProperty("--h", ht);
    el.replaceChildren(...tiles.map(() => document.createElement("span")));
  }
  el.dataset.board = text;
  tiles.forEach((t, i) => {
    const cell = el.children[i];
    cell.textContent = t === 0 ? "" : String(t);
    cell.className = t === 0 ? "blank" : "";
    cell.style.setProperty("--row-hue", t === 0 ? 0 : Math.floor((t - 1) / w) / ht);
  });
}

/** The frontier-size chart: a polyline on a canvas, rescaled as it grows. */
class Chart {
  constructor(canvas) {
    this.canvas = canvas;
    this.points = [];
    this.marks = [];
    this.empty = "No nodes yet";
  }

  reset(empty) {
    this.points = [];
    this.marks = [];
    this.empty = empty;
    this.draw();
  }

  /** A labelled moment on the time axis: an iteration's new bound. */
  mark(t, label) {
    this.marks.push([t, label]);
  }

  add(t, v) {
    const last = this.points[this.points.length - 1];
    if (last && t - last[0] < 0.02) last[1] = Math.max(last[1], v);
    else this.points.push([t, v]);
    if (this.points.length > 600) this.points = this.points.filter((_, i) => i % 2 === 0);
  }

  draw() {
    const c = this.canvas;
    // A hidden canvas has no size: drawing it at a guessed one would blur it once shown.
    const cssW = c.clientWidth, cssH = c.clientHeight;
    if (!cssW || !cssH) return;
    const ratio = window.devicePixelRatio || 1;
    if (c.width !== Math.round(cssW * ratio) || c.height !== Math.round(cssH * ratio)) {
      c.width = Math.round(cssW * ratio);
      c.height = Math.round(cssH * ratio);
    }
    const g = c.getContext("2d");
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    g.clearRect(0, 0, cssW, cssH);
    const pts = this.points;
    g.fillStyle = "#93a0bd";
    g.font = "11px system-ui, sans-serif";
    g.textAlign = "left";
    if (pts.length < 2) {
      g.textAlign = "center";
      g.fillText(this.empty, cssW / 2, cssH / 2 + 4);
      return;
    }
    const maxT = Math.max(0.001, ...pts.map((p) => p[0]));
    const maxV = Math.max(10, ...pts.map((p) => p[1]));
    g.fillText(number(maxV), 4, 12);
    g.textAlign = "right";
    g.fillText(maxT < 1 ? `${Math.round(maxT * 1000)} ms` : `${maxT.toFixed(1)} s`, cssW - 6, cssH - 6);
    const x = (t) => 4 + (t / maxT) * (cssW - 8);
    const y = (v) => cssH - 4 - (v / maxV) * (cssH - 20);
    g.beginPath();
    g.moveTo(x(pts[0][0]), y(pts[0][1]));
    for (const [t, v] of pts) g.lineTo(x(t), y(v));
    g.strokeStyle = "#7cc4ff";
    g.lineWidth = 2;
    g.stroke();
    g.lineTo(x(pts[pts.length - 1][0]), cssH - 4);
    g.lineTo(x(pts[0][0]), cssH - 4);
    g.fillStyle = "rgba(124, 196, 255, 0.12)";
    g.fill();
    // Each bound increase: a dashed line where the next iteration starts, with its bound.
    g.strokeStyle = "rgba(255, 180, 84, 0.6)";
    g.fillStyle = "#ffb454";
    g.lineWidth = 1;
    g.setLineDash([3, 3]);
    g.textAlign = "left";
    for (const [t, label] of this.marks.filter(([t]) => t <= maxT)) {
      g.beginPath();
      g.moveTo(Math.round(x(t)) + 0.5, 16);
      g.lineTo(Math.round(x(t)) + 0.5, cssH - 4);
      g.stroke();
      g.fillText(label, Math.round(x(t)) + 3, 24);
    }
    g.setLineDash([]);
  }
}

export class Lane {
  /** `hooks`: {end(lane), node(lane, event)} */
  constructor(el, hooks) {
    this.el = el;
    this.hooks = hooks;
    el.dataset.role = "lane";
    this.field = (name) => el.querySelector(`[data-field="${name}"]`);
    this.chart = new Chart(this.field("chart"));
    this.source = null;
    this.id = null;
    this.pending = null;
    this.running = false;
    this.result = null;
    this.shown = null; // the last node drawn: {n, open, closed}
    this.params = { algorithm: "astar" };
    this.player = controls("Solution playback");
    this.player.hidden = true;
    this.field("result").after(this.player);
    this.transport = Transport.in(this.player);
    const back = () => this.el.dataset.state === "playing" && this.state("solved");
    this.transport.addEventListener("end", back);
    this.transport.addEventListener("stop", back);
  }

  set(name, text) {
    this.field(name).textContent = text;
  }

  state(text) {
    this.set("state", text);
    this.el.dataset.state = text;
    if (text === "paused") this.set("rate", "paused");
  }

  get deepening() {
    return Boolean(names.algorithm(this.params.algorithm).deepening);
  }

  reset(params, board) {
    this.close();
    this.transport.stop(true);
    this.player.hidden = true;
    this.params = params;
    this.result = null;
    this.shown = null;
    this.lastStats = null;
    this.id = null;
    this.title = names.title(params.algorithm, params.heuristic, params.weight);
    this.set("title", this.title);
    this.state("ready");
    drawMini(this.field("board"), board);
    for (const f of ["g", "h", "f", "rate", "bound"]) this.set(f, "–");
    for (const f of ["expanded", "open", "closed"]) this.set(f, "0");
    Object.assign(this.el.dataset, { expanded: "0", open: "0", closed: "0" });
    delete this.el.dataset.length;
    this.field("expanded").dataset.value = "0";
    this.set("elapsed", "0.0 s");
    this.field("soonest").replaceChildren();
    this.field("recent").replaceChildren();
    this.message("");
    this.field("result").hidden = true;
    this.describe(params);
    this.field("bounds").replaceChildren();
    this.lastBound = null;
    this.lastElapsed = null;
    this.engine = null;
    this.showPath(null);
    this.chart.reset(board ? "Press Start" : "No board");
  }

  /** Labels the lane for `params`: its f, its chart, its lists. */
  describe(params) {
    this.params = params;
    this.set("key", names.keyFormula(params.algorithm, params.weight));
    const deepening = this.deepening;
    this.el.classList.toggle("no-bound", !deepening);
    this.el.classList.toggle("no-list", deepening);
    // Iterative deepening keeps its current path instead of an open list, and no closed one.
    this.field("open").previousElementSibling.textContent = deepening ? "Path" : "Open";
    const caption = deepening ? "Path depth over time" : "Frontier size over time";
    this.field("chart").setAttribute("aria-label", caption);
    this.field("caption").textContent = caption;
  }

  /** Streams a search with `params` ({board, algorithm, heuristic, weight, pace}). */
  start(params) {
    const query = new URLSearchParams(params);
    this.running = true;
    this.state("starting");
    this.chart.reset("Waiting for the first nodes");
    const source = new EventSource(`/api/search?${query}`);
    this.source = source;
    const on = (name, f) => source.addEventListener(name, (e) => f(JSON.parse(e.data)));
    on("start", (d) => {
      this.id = d.id;
      this.engine = d.engine;
      this.state("running");
    });
    on("expand", (d) => {
      this.lastElapsed = d.elapsed;
      this.queue({ expand: d });
    });
    on("stats", (d) => {
      this.lastStats = d;
      if (!this.deepening) this.chart.add(d.elapsed, d.frontier);
      this.queue({ stats: d });
    });
    on("bound", (d) => {
      this.set("bound", String(d.bound));
      // Each iteration: the bound it searches under, raised from the last one.
      const text = this.lastBound === null ? `bound ${d.bound} at the start` : `bound ${this.lastBound} → ${d.bound} after ${plural(d.expanded, "node")}`;
      // The chart's clock is the nodes' `elapsed`: the bound starts after the last node seen.
      if (this.lastBound !== null) this.chart.mark(this.lastElapsed ?? 0, String(d.bound));
      this.lastBound = d.bound;
      this.field("bounds").append(h("li", { text }));
      this.hooks.event(this, "bound");
    });
    // A node sent just before a pause waits for the next animation frame: draw it first, so
    // the count shown never rises once the lane says "paused".
    on("state", (d) => {
      this.draw();
      this.state(d.state);
    });
    on("limit", (d) => {
      this.capped = true;
      this.message(d.message, "warn");
    });
    on("done", (d) => this.finish(d));
    on("error", (d) => this.fail(d.error));
    this.capped = false;
    // The server's one-line reason arrives as a JSON body only on a failed opening; an
    // EventSource shows none of it, so ask again with fetch to say why.
    source.onerror = async () => {
      if (!this.running || source !== this.source) return;
      this.close();
      try {
        const r = await fetch(`/api/search?${query}`, { method: "GET" });
        const body = r.ok ? null : await r.json();
        this.fail(body && body.error ? body.error : "the stream was interrupted");
      } catch {
        this.fail("the server cannot be reached");
      }
    };
  }

  /** Keeps the newest event and draws it at the next animation frame. */
  queue(part) {
    const first = !this.pending;
    this.pending = Object.assign(this.pending || {}, part);
    if (first) requestAnimationFrame(() => this.draw());
  }

  /** A node's f as its list sorts it. */
  key(g, hv) {
    return names.sortKey(this.params.algorithm, g, hv, Number(this.params.weight) || 1);
  }

  drawList(ol, items) {
    const informed = names.algorithm(this.params.algorithm).informed;
    while (ol.children.length > items.length) ol.lastChild.remove();
    items.forEach((item, i) => {
      let li = ol.children[i];
      if (!li) {
        li = h("li", {}, h("div", { class: "mini" }), h("span", { class: "cost" }));
        ol.append(li);
      }
      drawMini(li.firstChild, item.board);
      li.lastChild.textContent = informed ? `f ${this.key(item.g, item.h)} · g ${item.g} h ${item.h}` : `g ${item.g}`;
    });
  }

  counts(open, closed) {
    const noList = this.deepening;
    this.set("open", short(open));
    this.set("closed", noList ? "–" : short(closed));
    this.el.dataset.open = String(open);
    this.el.dataset.closed = noList ? "0" : String(closed);
  }

  draw() {
    const p = this.pending;
    this.pending = null;
    if (!p) return;
    if (p.expand) {
      const e = p.expand;
      const informed = names.algorithm(this.params.algorithm).informed;
      drawMini(this.field("board"), e.board);
      this.set("g", e.g);
      this.set("h", informed ? e.h : "–");
      this.set("f", informed ? this.key(e.g, e.h) : e.g);
      this.showCount(e.n);
      this.shown = { n: e.n, open: e.open, closed: e.closed, h: e.h };
      this.counts(e.open, e.closed);
      if (this.deepening) this.showPath(e.path ?? null, e.g);
      if (e.soonest) this.drawList(this.field("soonest"), e.soonest);
      if (e.recent) this.drawList(this.field("recent"), e.recent);
      this.chart.add(e.elapsed, this.deepening ? e.g : e.open);
      this.hooks.event(this, "pop");
    }
    if (p.stats) {
      const s = p.stats;
      this.showCount(s.expanded);
      if (this.el.dataset.state !== "paused") this.set("rate", short(s.nodes_per_second));
      this.set("elapsed", `${s.elapsed.toFixed(1)} s`);
    }
    this.chart.draw();
  }

  /**
   * IDDFS and IDA*: the current path, the moves from the start to the node being expanded
   * (`null`: not known, as at full speed, where the fast engine is seen only in glimpses).
   */
  showPath(moves, depth = 0, label = "Current path") {
    const box = this.field("path");
    box.previousElementSibling.firstChild.textContent = `${label} `;
    if (moves === null) {
      delete this.el.dataset.path;
      this.set("path-len", depth ? `(depth ${depth})` : "");
      box.textContent = depth ? "Set a speed to follow the path node by node: at full speed the search is seen only in glimpses." : "–";
      box.classList.add("unknown");
      return;
    }
    this.el.dataset.path = moves;
    // The Path counter counts the boards on the stack, the start included: one more.
    this.set("path-len", moves ? `(${plural(moves.length, "move")}, ${moves.length + 1} boards)` : "");
    box.classList.toggle("unknown", !moves);
    box.replaceChildren(...[...moves].map((m, i) => h("span", { class: i === moves.length - 1 ? "last" : null, text: m })));
    if (!moves) box.textContent = "At the start: no move yet.";
  }

  showCount(n) {
    this.field("expanded").dataset.value = String(n);
    this.el.dataset.expanded = String(n);
    this.set("expanded", number(n));
  }

  message(text, tone = "") {
    const m = this.field("message");
    m.textContent = text;
    m.dataset.tone = tone;
  }

  close() {
    if (this.source) this.source.close();
    this.source = null;
  }

  control(action) {
    if (!this.id || !this.running) return Promise.resolve();
    return fetch(`/api/search/${this.id}/${action}`, { method: "POST" }).catch(() => {});
  }

  fail(text) {
    this.close();
    this.running = false;
    this.state("failed");
    this.message(text, "error");
    this.hooks.end(this);
  }

  finish(record) {
    this.close();
    this.draw();
    this.running = false;
    this.showResult(record);
  }

  /** The end: a solved search shows the goal (g = length, h = 0) with its final counts. */
  showResult(record) {
    this.result = record;
    this.showCount(record.expanded);
    this.set("elapsed", seconds(record.seconds));
    this.set("rate", record.seconds > 0 ? short(Math.round(record.expanded / record.seconds)) : "–");
    if (this.chart.points.length < 2) this.chart.empty = "Done before the first frame";
    this.chart.draw();
    const box = this.field("result");
    box.hidden = false;
    box.replaceChildren();
    if (record.status === "solved") {
      const informed = names.algorithm(this.params.algorithm).informed;
      drawMini(this.field("board"), record.goal);
      this.set("g", record.length);
      this.set("h", informed ? 0 : "–");
      this.set("f", informed ? this.key(record.length, 0) : record.length);
      // The lists stay as the last frame showed them: the search's memory at the end. A fast
      // search may end before its last node was drawn: then its last statistics and the
      // record give the counts (every expanded node is closed).
      const last = this.shown && this.shown.n === record.expanded;
      this.counts(last ? this.shown.open : this.lastStats ? this.lastStats.frontier : record.max_frontier, last ? this.shown.closed : record.expanded);
      this.el.dataset.length = String(record.length);
      if (this.deepening) this.showPath(record.moves, record.length, "Solution");
      this.state("solved");
      const opt = record.optimal ? "optimal" : "not proven optimal";
      box.append(h("p", {}, h("b", { text: `${number(record.length)} moves` }), `, ${opt}, ${number(record.expanded)} nodes in ${seconds(record.seconds)}`));
      box.append(h("button", { type: "button", text: "Play solution", onclick: () => this.play() }));
      this.hooks.event(this, "found");
    } else {
      const stopped = record.status === "limit" && !this.capped;
      this.state(stopped ? "stopped" : record.status);
      box.append(h("p", { text: stopped ? "Stopped." : record.error || record.status }));
      // A cap's message says it better.
      box.hidden = Boolean(this.field("message").textContent);
      if (record.status === "unsolvable") this.hooks.event(this, "fail");
    }
    this.hooks.end(this);
  }

  /** Plays the solution on the lane's board with the transport (pause, step, stop, speed). */
  play() {
    const r = this.result;
    if (!r || r.status !== "solved") return;
    const start = puzzle.parse(r.board);
    const tiles = start.tiles.slice();
    const moves = puzzle.parseMoves(r.moves);
    const board = this.field("board");
    const show = (i) => {
      drawMini(board, puzzle.format(start.w, tiles));
      this.set("g", i);
    };
    this.player.hidden = false;
    this.transport.load(
      moves,
      (i) => {
        puzzle.apply(start.w, start.h, tiles, moves[i]);
        show(i + 1);
      },
      (i) => {
        puzzle.apply(start.w, start.h, tiles, puzzle.INVERSE[moves[i]]);
        show(i);
      },
    );
    show(0);
    this.state("playing");
    this.transport.play();
  }
}
