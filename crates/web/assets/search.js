// The search visualizer: watch one search node by node, or race two on the same board.
// Each lane opens `GET /api/search` as an EventSource and draws the latest event once per
// animation frame; pause, step, resume and stop are control requests carrying the stream's id.

import * as puzzle from "./puzzle.js";
import * as api from "./api.js";

const $ = (id) => document.getElementById(id);
const number = (n) => Number(n).toLocaleString("en");
/** Short for counters that would not fit: 417,254 is "417k". */
const short = (n) => (n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e5 ? `${Math.round(n / 1e3)}k` : number(n));

const ALGORITHMS = [
  ["astar", "A*", true],
  ["idastar", "IDA*", true],
  ["wastar", "weighted A*", true],
  ["greedy", "greedy best-first", true],
  ["bfs", "BFS", false],
  ["dijkstra", "Dijkstra", false],
  ["iddfs", "IDDFS", false],
  ["dfs", "DFS", false],
];
const HEURISTICS = [
  ["manhattan", "Manhattan"],
  ["linear-conflict", "linear conflict"],
  ["walking-distance", "walking distance"],
  ["hamming", "Hamming"],
];
const NAMES = Object.fromEntries(ALGORITHMS.map(([v, n]) => [v, n]));
const INFORMED = Object.fromEntries(ALGORITHMS.map(([v, , i]) => [v, i]));
// Speed slider positions: nodes per second, the last one as fast as the server goes.
const SPEEDS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 0];

/** Draws a board into `el` as a small grid of cells coloured by their goal row. */
function drawMini(el, text) {
  let board;
  try {
    board = puzzle.parse(text);
  } catch {
    return;
  }
  const { w, h, tiles } = board;
  if (el.dataset.size !== `${w}x${h}`) {
    el.dataset.size = `${w}x${h}`;
    el.style.setProperty("--w", w);
    el.style.setProperty("--h", h);
    el.replaceChildren(...tiles.map(() => document.createElement("span")));
  }
  el.dataset.board = text;
  tiles.forEach((t, i) => {
    const cell = el.children[i];
    cell.textContent = t === 0 ? "" : String(t);
    cell.className = t === 0 ? "blank" : "";
    cell.style.setProperty("--row-hue", t === 0 ? 0 : Math.floor((t - 1) / w) / h);
  });
}

/** A list of small boards with their g, h and f. */
function drawList(ol, items, informed) {
  while (ol.children.length > items.length) ol.lastChild.remove();
  items.forEach((item, i) => {
    let li = ol.children[i];
    if (!li) {
      li = document.createElement("li");
      const mini = document.createElement("div");
      mini.className = "mini";
      const cost = document.createElement("span");
      cost.className = "cost";
      li.append(mini, cost);
      ol.append(li);
    }
    drawMini(li.firstChild, item.board);
    li.lastChild.textContent = informed ? `f ${item.f} = ${item.g}+${item.h}` : `g ${item.g}`;
  });
}

/** The frontier-size chart: a polyline on a canvas, rescaled as it grows. */
class Chart {
  constructor(canvas) {
    this.canvas = canvas;
    this.points = [];
  }

  reset() {
    this.points = [];
    this.draw();
  }

  add(t, v) {
    const last = this.points[this.points.length - 1];
    if (last && t - last[0] < 0.02) {
      last[1] = Math.max(last[1], v);
    } else {
      this.points.push([t, v]);
    }
    if (this.points.length > 600) this.points = this.points.filter((_, i) => i % 2 === 0);
  }

  draw() {
    const c = this.canvas;
    const ratio = window.devicePixelRatio || 1;
    const cssW = c.clientWidth || 300, cssH = c.clientHeight || 90;
    if (c.width !== Math.round(cssW * ratio)) {
      c.width = Math.round(cssW * ratio);
      c.height = Math.round(cssH * ratio);
    }
    const g = c.getContext("2d");
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    g.clearRect(0, 0, cssW, cssH);
    const pts = this.points;
    const maxT = Math.max(0.001, ...pts.map((p) => p[0]));
    const maxV = Math.max(10, ...pts.map((p) => p[1]));
    g.fillStyle = "#93a0bd";
    g.font = "11px system-ui, sans-serif";
    g.fillText(number(maxV), 4, 12);
    const label = maxT < 1 ? `${Math.round(maxT * 1000)} ms` : `${maxT.toFixed(1)} s`;
    g.textAlign = "right";
    g.fillText(label, cssW - 6, cssH - 6);
    g.textAlign = "left";
    if (pts.length < 2) return;
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
  }
}

/** One search on screen: its stream, its drawing and its result. */
class Lane {
  constructor(el, onEnd) {
    this.el = el;
    this.onEnd = onEnd;
    this.field = (name) => el.querySelector(`[data-field="${name}"]`);
    this.chart = new Chart(this.field("chart"));
    this.source = null;
    this.id = null;
    this.pending = null;
    this.running = false;
    this.result = null;
    this.playback = null;
    this.shownNode = null;
  }

  set(name, text) {
    this.field(name).textContent = text;
  }

  state(text) {
    this.set("state", text);
    this.el.dataset.state = text;
  }

  reset(title, board) {
    this.close();
    this.stopPlayback();
    this.result = null;
    this.shownNode = null;
    this.id = null;
    this.title = title;
    this.set("title", title);
    this.state("ready");
    drawMini(this.field("board"), board);
    for (const f of ["g", "h", "f", "rate", "bound"]) this.set(f, "–");
    for (const f of ["expanded", "open", "closed"]) this.set(f, "0");
    this.field("expanded").dataset.value = "0";
    this.set("elapsed", "0.0 s");
    this.field("soonest").replaceChildren();
    this.field("recent").replaceChildren();
    this.set("message", "");
    this.field("message").dataset.tone = "";
    this.field("result").hidden = true;
    this.chart.reset();
  }

  /** Streams a search with `params` ({board, algorithm, heuristic, weight, pace}). */
  start(params) {
    this.informed = INFORMED[params.algorithm];
    this.el.classList.toggle("no-bound", !["idastar", "iddfs"].includes(params.algorithm));
    const deepening = ["idastar", "iddfs"].includes(params.algorithm);
    this.el.classList.toggle("no-list", deepening);
    // Iterative deepening keeps its current path instead of an open list, and no closed one.
    this.field("open").previousElementSibling.textContent = deepening ? "Path" : "Open";
    const query = new URLSearchParams(params);
    this.running = true;
    this.state("starting");
    const source = new EventSource(`/api/search?${query}`);
    this.source = source;
    const on = (name, f) => source.addEventListener(name, (e) => f(JSON.parse(e.data)));
    on("start", (d) => {
      this.id = d.id;
      this.state("running");
    });
    on("expand", (d) => this.queue({ expand: d }));
    on("stats", (d) => {
      this.chart.add(d.elapsed, d.frontier);
      this.queue({ stats: d });
    });
    on("bound", (d) => this.set("bound", String(d.bound)));
    // A node sent just before a pause waits for the next animation frame: draw it first, so
    // the count shown never rises once the lane says "paused".
    on("state", (d) => {
      this.draw();
      this.state(d.state);
    });
    on("limit", (d) => this.message(d.message, "warn"));
    on("done", (d) => this.finish(d));
    on("error", (d) => this.fail(d.error));
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

  draw() {
    const p = this.pending;
    this.pending = null;
    if (!p) return;
    if (p.expand) {
      const e = p.expand;
      drawMini(this.field("board"), e.board);
      this.set("g", e.g);
      this.set("h", this.informed ? e.h : "–");
      this.set("f", this.informed ? e.f : "–");
      this.showCount(e.n);
      this.shownNode = e.n;
      this.set("open", short(e.open));
      this.set("closed", this.el.classList.contains("no-list") ? "–" : short(e.closed));
      if (e.soonest) drawList(this.field("soonest"), e.soonest, this.informed);
      if (e.recent) drawList(this.field("recent"), e.recent, this.informed);
      this.chart.add(e.elapsed, e.open);
    }
    if (p.stats) {
      const s = p.stats;
      this.showCount(s.expanded);
      this.set("rate", short(s.nodes_per_second));
      this.set("elapsed", `${s.elapsed.toFixed(1)} s`);
    }
    this.chart.draw();
  }

  showCount(n) {
    this.field("expanded").dataset.value = String(n);
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
    this.onEnd(this);
  }

  finish(record) {
    this.close();
    this.draw();
    this.running = false;
    // A fast search can end between two frames: then the board shown is an earlier node.
    // The last node a solved search takes is the goal; the lists shown would be stale.
    if (record.status === "solved" && this.shownNode !== record.expanded) {
      drawMini(this.field("board"), record.goal);
      this.set("g", record.length);
      this.set("h", this.informed ? 0 : "–");
      this.set("f", this.informed ? record.length : "–");
      this.set("open", "–");
      this.set("closed", "–");
      this.field("soonest").replaceChildren();
      this.field("recent").replaceChildren();
    }
    this.showResult(record);
  }

  showResult(record) {
    this.result = record;
    this.showCount(record.expanded);
    this.set("elapsed", `${record.seconds.toFixed(2)} s`);
    const box = this.field("result");
    box.hidden = false;
    if (record.status === "solved") {
      this.state("solved");
      box.replaceChildren();
      const line = document.createElement("p");
      const opt = record.optimal ? "optimal" : "not proven optimal";
      line.innerHTML = `<b>${record.length} moves</b>, ${opt}, ${number(record.expanded)} nodes in ${record.seconds.toFixed(2)} s`;
      const play = document.createElement("button");
      play.type = "button";
      play.textContent = "Play solution";
      play.addEventListener("click", () => this.play());
      box.append(line, play);
      if (!this.field("message").textContent) this.message("");
    } else {
      this.state(record.status === "limit" ? "stopped" : record.status);
      box.replaceChildren();
      const line = document.createElement("p");
      line.textContent = record.error || record.status;
      box.append(line);
      // A cap's message says it better.
      box.hidden = Boolean(this.field("message").textContent);
    }
    this.onEnd(this);
  }

  /** Plays the solution on the lane's board, eight moves a second. */
  play() {
    const r = this.result;
    if (!r || r.status !== "solved") return;
    this.stopPlayback();
    const start = puzzle.parse(r.board);
    let tiles = start.tiles.slice();
    const moves = puzzle.parseMoves(r.moves);
    let i = 0;
    const board = this.field("board");
    drawMini(board, puzzle.format(start.w, tiles));
    this.state("playing");
    this.playback = setInterval(() => {
      if (i >= moves.length) {
        this.stopPlayback();
        this.state("solved");
        return;
      }
      puzzle.apply(start.w, start.h, tiles, moves[i++]);
      drawMini(board, puzzle.format(start.w, tiles));
      this.set("g", i);
    }, 125);
  }

  stopPlayback() {
    if (this.playback) clearInterval(this.playback);
    this.playback = null;
  }
}

// ---- the view's controls ----------------------------------------------------------------

function fill(select, options, value) {
  select.replaceChildren(
    ...options.map(([v, text]) => {
      const o = document.createElement("option");
      o.value = v;
      o.textContent = text;
      return o;
    }),
  );
  select.value = value;
}

// The race's second lane: the first one's markup, renamed.
function secondLane() {
  const lane = $("lane-a").cloneNode(true);
  lane.id = "lane-b";
  lane.hidden = true;
  lane.setAttribute("aria-label", "Search B");
  lane.querySelector('[data-field="title"]').textContent = "Search B";
  $("lane-a").after(lane);
  return lane;
}

const lanes = { a: new Lane($("lane-a"), laneEnded), b: new Lane(secondLane(), laneEnded) };
let racing = false;
let randomBoard = null;
let paused = false;

fill($("s-algorithm"), ALGORITHMS, "astar");
fill($("s-algorithm-b"), ALGORITHMS, "greedy");
document.querySelectorAll(".s-heuristic").forEach((s) => fill(s, HEURISTICS, "manhattan"));

function pairOf(key) {
  const root = document.querySelector(`.pair[data-pair="${key}"]`);
  return {
    algorithm: root.querySelector(".s-algorithm").value,
    heuristic: root.querySelector(".s-heuristic").value,
    weight: root.querySelector(".s-weight").value,
    root,
  };
}

function syncPairs() {
  for (const key of ["a", "b"]) {
    const { algorithm, root } = pairOf(key);
    root.querySelector(".s-weight-row").hidden = algorithm !== "wastar";
    root.querySelector(".s-heuristic").disabled = !INFORMED[algorithm];
  }
}
document.querySelectorAll(".s-algorithm").forEach((s) => s.addEventListener("change", syncPairs));

function speed() {
  return SPEEDS[Number($("s-speed").value)] ?? 0;
}
$("s-speed").addEventListener("input", () => {
  const pace = speed();
  $("s-speed-out").textContent = pace === 0 ? "full speed" : `${number(pace)} node${pace === 1 ? "" : "s"}/s`;
  for (const lane of Object.values(lanes)) if (lane.running) lane.control(`pace/${pace}`);
});

/** The board to search, in the standard notation, or throws with a reason. */
function chosenBoard() {
  const source = $("s-source").value;
  if (source === "game") return $("board").dataset.board;
  if (source === "typed") return puzzle.format(...formatArgs(puzzle.parse($("s-board").value)));
  if (!randomBoard) throw new Error("press New board for a random one");
  return randomBoard;
}
const formatArgs = (b) => [b.w, b.tiles];

function showChosen() {
  const source = $("s-source").value;
  $("s-random-row").hidden = source !== "random";
  $("s-typed-row").hidden = source !== "typed";
  let text = "";
  try {
    text = chosenBoard();
  } catch (error) {
    $("s-board-shown").textContent = error.message;
    return;
  }
  $("s-board-shown").textContent = text;
  for (const lane of Object.values(lanes)) if (!lane.running && !lane.result) drawMini(lane.field("board"), text);
}

async function newRandom() {
  const [w, h] = $("s-size").value.split("x").map(Number);
  try {
    randomBoard = (await api.scramble(w, h)).board;
  } catch {
    randomBoard = puzzle.format(w, puzzle.shuffle(w, h));
  }
  showChosen();
}
$("s-source").addEventListener("change", () => {
  if ($("s-source").value === "random" && !randomBoard) newRandom();
  showChosen();
});
$("s-new").addEventListener("click", newRandom);
$("s-size").addEventListener("change", newRandom);
$("s-board").addEventListener("input", showChosen);

function setMode() {
  racing = $("s-mode-race").checked;
  document.querySelector('.pair[data-pair="b"]').hidden = !racing;
  $("lane-b").hidden = !racing;
  $("arena").classList.toggle("racing", racing);
  $("race-results").hidden = true;
}
$("s-mode-watch").addEventListener("change", setMode);
$("s-mode-race").addEventListener("change", setMode);

function active() {
  return racing ? [lanes.a, lanes.b] : [lanes.a];
}

function setRunning(on) {
  $("s-start").disabled = on;
  $("s-pause").disabled = !on;
  $("s-step").disabled = !on;
  $("s-stop").disabled = !on;
  paused = false;
  $("s-pause-text").textContent = "Pause";
}

function laneEnded() {
  if (active().some((l) => l.running)) return;
  setRunning(false);
  if (racing) showRace();
}

function title(pair) {
  const name = NAMES[pair.algorithm];
  const w = pair.algorithm === "wastar" ? ` w=${pair.weight}` : "";
  return INFORMED[pair.algorithm] ? `${name}${w} · ${pair.heuristic}` : name;
}

$("s-start").addEventListener("click", async () => {
  let board;
  try {
    board = chosenBoard();
    puzzle.parse(board);
  } catch (error) {
    lanes.a.reset("Search", "");
    lanes.a.message(`Cannot search: ${error.message}`, "error");
    return;
  }
  $("race-results").hidden = true;
  const quiet = $("s-quiet").checked;
  const pace = speed();
  setRunning(!quiet);
  const runs = active().map((lane, i) => {
    const pair = pairOf(i === 0 ? "a" : "b");
    lane.reset(title(pair), board);
    const params = { board, algorithm: pair.algorithm, heuristic: pair.heuristic };
    if (pair.algorithm === "wastar") params.weight = pair.weight;
    if (!quiet) {
      if (pace) params.pace = pace;
      lane.start(params);
      return null;
    }
    // Solution only: one plain solve, then the solution plays back.
    lane.state("searching");
    lane.running = true;
    return api
      .solve(params)
      .then((record) => {
        lane.running = false;
        lane.showResult(record);
        lane.play();
      })
      .catch((error) => lane.fail(error.message));
  });
  if (quiet) {
    $("s-start").disabled = true;
    await Promise.all(runs);
    $("s-start").disabled = false;
  }
});

$("s-pause").addEventListener("click", () => {
  paused = !paused;
  $("s-pause-text").textContent = paused ? "Resume" : "Pause";
  for (const lane of active()) lane.control(paused ? "pause" : "resume");
});
$("s-step").addEventListener("click", () => {
  paused = true;
  $("s-pause-text").textContent = "Resume";
  for (const lane of active()) lane.control("step");
});
$("s-stop").addEventListener("click", () => {
  for (const lane of active()) lane.control("stop");
});

function showRace() {
  const body = $("race-results").tBodies[0];
  body.replaceChildren();
  for (const lane of active()) {
    const r = lane.result;
    const tr = document.createElement("tr");
    const cells = [
      lane.title,
      r && r.status === "solved" ? String(r.length) : r ? r.status : "failed",
      r && r.status === "solved" ? (r.optimal ? "yes" : "no") : "–",
      r ? number(r.expanded) : "–",
      r ? `${r.seconds.toFixed(2)} s` : "–",
    ];
    cells.forEach((text, i) => {
      const td = document.createElement(i === 0 ? "th" : "td");
      if (i === 0) td.scope = "row";
      td.textContent = text;
      tr.append(td);
    });
    body.append(tr);
  }
  $("race-results").hidden = false;
}

// The game's board changes while this view is hidden: show the current one on return.
document.querySelector('nav.tabs .tab[data-view="search"]').addEventListener("click", () => {
  showChosen();
  for (const lane of Object.values(lanes)) lane.chart.draw();
});
window.addEventListener("resize", () => Object.values(lanes).forEach((l) => l.chart.draw()));

syncPairs();
setMode();
$("s-speed").dispatchEvent(new Event("input"));
showChosen();
