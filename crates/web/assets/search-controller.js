// The visualizer's controller: watch one search or race two on the same board, the
// pseudocode panel, the race table, the batch race (CSV and JSON) and the embed link.

import * as puzzle from "./puzzle.js";
import * as api from "./api.js";
import * as names from "./names.js";
import { $, h, number, seconds } from "./helpers.js";
import { Lane, drawMini } from "./lane.js";
import { Pseudocode } from "./pseudocode.js";

// Speed slider positions: nodes per second, the last one as fast as the server goes.
const SPEEDS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 0];

/**
 * The engine a stream runs on, as the server's docs describe it (search.rs), until the
 * server names it in its answer: the fast engines at full speed up to 4x4 for these.
 */
function engineOf(lane) {
  let engine = lane.engine;
  if (!engine) {
    // Solution only: a plain solve, which takes the fast engines where the stream would.
    const { algorithm, board } = lane.params;
    const b = puzzle.parse(board);
    const fast = b.w <= 4 && b.h <= 4 && ["astar", "dijkstra", "bfs", "iddfs", "idastar"].includes(algorithm);
    engine = fast ? "fast" : "generic";
  }
  return engine === "fast" ? "fast engine" : "generic (every node)";
}

/** A board `depth` random moves from the goal, never undoing the move before. */
function walk(w, hgt, depth, random) {
  const tiles = puzzle.goal(w, hgt);
  let last = "";
  for (let i = 0; i < depth; ) {
    const m = "UDLR"[Math.floor(random() * 4)];
    if (m === puzzle.INVERSE[last] || !puzzle.apply(w, hgt, tiles, m)) continue;
    last = m;
    i++;
  }
  return puzzle.format(w, tiles);
}

export class SearchController {
  constructor() {
    const lane = $("lane-a").cloneNode(true);
    lane.id = "lane-b";
    lane.hidden = true;
    lane.setAttribute("aria-label", "Search B");
    $("lane-a").after(lane);
    const hooks = { end: () => this.laneEnded(), event: (l, e) => l === this.lanes.a && this.code.on(e) };
    this.lanes = { a: new Lane($("lane-a"), hooks), b: new Lane(lane, hooks) };
    this.code = new Pseudocode($("pseudocode"));
    this.racing = false;
    this.paused = false;
    this.randomBoard = null;
    const watch = (x) => x.watch;
    names.fill($("s-algorithm"), names.ALGORITHMS, "astar", watch);
    names.fill($("s-algorithm-b"), names.ALGORITHMS, "greedy", watch);
    document.querySelectorAll(".s-heuristic").forEach((s) => names.fill(s, names.HEURISTICS, "manhattan", watch));
    this.bind();
    this.syncPairs();
    this.setMode();
    $("s-speed").dispatchEvent(new Event("input"));
    this.showChosen();
  }

  bind() {
    document.querySelectorAll(".s-algorithm").forEach((s) => s.addEventListener("change", () => this.syncPairs()));
    $("s-speed").addEventListener("input", () => {
      const pace = this.speed();
      $("s-speed-out").textContent = pace === 0 ? "full speed" : `${number(pace)} node${pace === 1 ? "" : "s"}/s`;
      for (const lane of Object.values(this.lanes)) if (lane.running) lane.control(`pace/${pace}`);
    });
    $("s-source").addEventListener("change", () => {
      if ($("s-source").value === "random" && !this.randomBoard) this.newRandom();
      this.showChosen();
    });
    $("s-new").addEventListener("click", () => this.newRandom());
    $("s-size").addEventListener("change", () => this.newRandom());
    $("s-board").addEventListener("input", () => this.showChosen());
    $("s-mode-watch").addEventListener("change", () => this.setMode());
    $("s-mode-race").addEventListener("change", () => this.setMode());
    $("s-code").addEventListener("change", () => this.syncPairs());
    $("s-start").addEventListener("click", () => this.start());
    $("s-pause").addEventListener("click", () => {
      this.setPaused(!this.paused);
      for (const lane of this.active()) lane.control(this.paused ? "pause" : "resume");
    });
    $("s-step").addEventListener("click", () => {
      const wasPaused = this.paused;
      this.setPaused(true);
      // With the pseudocode open, a paused search first walks the lines of its node.
      if (!$("s-code").checked || !wasPaused || this.racing || !this.code.walk()) for (const lane of this.active()) lane.control("step");
    });
    $("s-stop").addEventListener("click", () => {
      for (const lane of this.active()) lane.control("stop");
    });
    $("b-start").addEventListener("click", () => this.batch());
    $("b-stop").addEventListener("click", () => (this.batchStop = true));
    $("s-embed").addEventListener("click", () => this.copyEmbed());
    // The game's board changes while this view is hidden: show the current one on return.
    document.addEventListener("view", (e) => {
      if (e.detail !== "search") return;
      this.showChosen();
      requestAnimationFrame(() => Object.values(this.lanes).forEach((l) => l.chart.draw()));
    });
    window.addEventListener("resize", () => Object.values(this.lanes).forEach((l) => l.chart.draw()));
  }

  pairOf(key) {
    const root = document.querySelector(`.pair[data-pair="${key}"]`);
    return {
      algorithm: root.querySelector(".s-algorithm").value,
      heuristic: root.querySelector(".s-heuristic").value,
      weight: root.querySelector(".s-weight").value,
      root,
    };
  }

  syncPairs() {
    for (const key of ["a", "b"]) {
      const { algorithm, root } = this.pairOf(key);
      root.querySelector(".s-weight-row").hidden = algorithm !== "wastar";
      root.querySelector(".s-heuristic").disabled = !names.algorithm(algorithm).informed;
    }
    $("code-panel").hidden = !$("s-code").checked;
    for (const key of ["a", "b"]) {
      const lane = this.lanes[key];
      if (!lane.running && !lane.result) lane.describe(this.params(key, ""));
    }
    if (!this.lanes.a.running) this.code.show(this.pairOf("a").algorithm);
  }

  speed() {
    return SPEEDS[Number($("s-speed").value)] ?? 0;
  }

  /** The board to search, in the standard notation, or throws with a reason. */
  chosenBoard() {
    const source = $("s-source").value;
    if (source === "game") return $("board").dataset.board;
    if (source === "typed") {
      const b = puzzle.parse($("s-board").value);
      return puzzle.format(b.w, b.tiles);
    }
    if (!this.randomBoard) throw new Error("press New board for a random one");
    return this.randomBoard;
  }

  showChosen() {
    const source = $("s-source").value;
    $("s-random-row").hidden = source !== "random";
    $("s-typed-row").hidden = source !== "typed";
    let text = "";
    try {
      text = this.chosenBoard();
    } catch (error) {
      $("s-board-shown").textContent = error.message;
      return;
    }
    $("s-board-shown").textContent = text;
    for (const lane of Object.values(this.lanes)) if (!lane.running && !lane.result) drawMini(lane.field("board"), text);
  }

  async newRandom() {
    const [w, hgt] = $("s-size").value.split("x").map(Number);
    try {
      this.randomBoard = (await api.scramble(w, hgt)).board;
    } catch {
      this.randomBoard = puzzle.format(w, puzzle.shuffle(w, hgt));
    }
    this.showChosen();
  }

  setMode() {
    this.racing = $("s-mode-race").checked;
    document.querySelector('.pair[data-pair="b"]').hidden = !this.racing;
    $("lane-b").hidden = !this.racing;
    $("arena").classList.toggle("racing", this.racing);
    $("race-results").hidden = true;
    requestAnimationFrame(() => Object.values(this.lanes).forEach((l) => l.chart.draw()));
  }

  active() {
    return this.racing ? [this.lanes.a, this.lanes.b] : [this.lanes.a];
  }

  setPaused(on) {
    this.paused = on;
    $("s-pause-text").textContent = on ? "Resume" : "Pause";
  }

  setRunning(on) {
    $("s-start").disabled = on;
    $("s-pause").disabled = !on;
    $("s-step").disabled = !on;
    $("s-stop").disabled = !on;
    this.setPaused(false);
  }

  laneEnded() {
    if (this.active().some((l) => l.running)) return;
    this.setRunning(false);
    if (this.racing) this.showRace();
  }

  params(key, board) {
    const pair = this.pairOf(key);
    const params = { board, algorithm: pair.algorithm, heuristic: pair.heuristic };
    if (pair.algorithm === "wastar") params.weight = pair.weight;
    return params;
  }

  async start() {
    let board;
    try {
      board = this.chosenBoard();
      puzzle.parse(board);
    } catch (error) {
      this.lanes.a.reset(this.params("a", ""), "");
      this.lanes.a.message(`Cannot search: ${error.message}`, "error");
      return;
    }
    $("race-results").hidden = true;
    const quiet = $("s-quiet").checked;
    const pace = this.speed();
    this.setRunning(!quiet);
    this.code.show(this.pairOf("a").algorithm);
    const runs = this.active().map((lane, i) => {
      const params = this.params(i === 0 ? "a" : "b", board);
      if (!quiet && pace) params.pace = pace;
      lane.reset(params, board);
      if (!quiet) {
        lane.start(params);
        return null;
      }
      // Solution only: one plain solve, then the solution plays on the lane's transport.
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
  }

  showRace() {
    const body = $("race-results").tBodies[0];
    body.replaceChildren();
    const lanes = this.active();
    const solved = lanes.filter((l) => l.result && l.result.status === "solved");
    // The winner: the shortest solution, then the fewest nodes, then the least time.
    const rank = (l) => [l.result.length, l.result.expanded, l.result.seconds];
    const winner = solved.slice().sort((x, y) => {
      const [a, b] = [rank(x), rank(y)];
      return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
    })[0];
    for (const lane of lanes) {
      const r = lane.result;
      const ok = r && r.status === "solved";
      const state = lane.el.dataset.state;
      const cells = [
        lane.title + (lane === winner && solved.length > 1 ? " — winner" : ""),
        ok ? String(r.length) : state === "stopped" ? "stopped" : r ? r.status : "failed",
        ok ? (r.optimal ? "yes" : "no") : "–",
        r ? number(r.expanded) : "–",
        r ? seconds(r.seconds) : "–",
        engineOf(lane),
      ];
      const tr = h("tr", { class: lane === winner && solved.length > 1 ? "winner" : "" });
      cells.forEach((text, i) => tr.append(h(i === 0 ? "th" : "td", { scope: i === 0 ? "row" : null, text })));
      body.append(tr);
    }
    const engines = new Set(lanes.map(engineOf));
    $("race-note").textContent = engines.size > 1 ? "different engines: compare nodes and moves, not times" : "";
    $("race-results").hidden = false;
  }

  // ---- batch race ------------------------------------------------------------------------

  async batch() {
    const count = Math.min(100, Math.max(1, Number($("b-count").value) || 1));
    const depth = Math.min(200, Math.max(1, Number($("b-depth").value) || 1));
    const [w, hgt] = (() => {
      try {
        const b = puzzle.parse(this.chosenBoard());
        return [b.w, b.h];
      } catch {
        return [3, 3];
      }
    })();
    let seed = depth * 7919 + count;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const boards = Array.from({ length: count }, () => walk(w, hgt, depth, random));
    const pairs = ["a", "b"].map((k) => this.params(k, ""));
    const rows = [];
    $("batch").hidden = false;
    $("b-start").disabled = true;
    $("b-stop").disabled = false;
    this.batchStop = false;
    for (let i = 0; i < boards.length && !this.batchStop; i++) {
      $("batch-status").textContent = `Board ${i + 1} of ${count} (${w}x${hgt}, depth ${depth})…`;
      for (const p of pairs) {
        let r;
        try {
          r = await api.solve({ ...p, board: boards[i] });
        } catch (error) {
          r = { status: "error", error: error.message, expanded: 0, seconds: 0 };
        }
        rows.push({ board: boards[i], depth, search: names.title(p.algorithm, p.heuristic, p.weight), algorithm: r.algorithm || p.algorithm, heuristic: r.heuristic || null, status: r.status, length: r.length ?? null, optimal: Boolean(r.optimal), expanded: r.expanded, seconds: r.seconds });
      }
      this.showBatch(rows);
    }
    $("batch-status").textContent = `${this.batchStop ? "Stopped" : "Done"}: ${rows.length / 2} boards of ${w}x${hgt}, each ${depth} random moves from the goal.`;
    $("b-start").disabled = false;
    $("b-stop").disabled = true;
  }

  showBatch(rows) {
    const body = $("batch-table").tBodies[0];
    body.replaceChildren();
    const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
    for (const search of [...new Set(rows.map((r) => r.search))]) {
      const mine = rows.filter((r) => r.search === search);
      const ok = mine.filter((r) => r.status === "solved");
      const tr = h("tr", {}, h("th", { scope: "row", text: search }));
      for (const text of [`${ok.length} / ${mine.length}`, mean(ok.map((r) => r.length)).toFixed(1), number(Math.round(mean(mine.map((r) => r.expanded)))), seconds(mean(mine.map((r) => r.seconds)))]) tr.append(h("td", { text }));
      body.append(tr);
    }
    const keys = Object.keys(rows[0]);
    // RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled.
    const cell = (v) => {
      const text = String(v ?? "");
      return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
    };
    const csv = [keys.join(","), ...rows.map((r) => keys.map((k) => cell(r[k])).join(","))].join("\n");
    const link = (id, text, type) => {
      const a = $(id);
      if (a.href) URL.revokeObjectURL(a.href);
      a.href = URL.createObjectURL(new Blob([text], { type }));
    };
    link("batch-csv", csv, "text/csv");
    $("batch-csv-text").textContent = csv;
    link("batch-json", JSON.stringify(rows, null, 1), "application/json");
  }

  // ---- embed ---------------------------------------------------------------------------

  embedUrl() {
    const p = this.params("a", this.chosenBoard());
    const q = new URLSearchParams({ board: p.board.replaceAll(" ", ","), algorithm: p.algorithm, heuristic: p.heuristic, pace: String(this.speed()) });
    if (p.weight) q.set("weight", p.weight);
    return `${location.origin}${location.pathname}#embed&${q}`;
  }

  async copyEmbed() {
    let url;
    try {
      url = this.embedUrl();
    } catch (error) {
      this.lanes.a.message(`No embed link: ${error.message}`, "error");
      return;
    }
    try {
      await navigator.clipboard.writeText(url);
      this.lanes.a.message("Embed link copied.");
    } catch {
      this.lanes.a.message(url);
    }
  }

  /** The embed mode: this search alone, started at once. */
  embed({ board, algorithm, heuristic, weight, pace }) {
    $("s-source").value = "typed";
    $("s-board").value = board;
    $("s-algorithm").value = algorithm;
    $("s-heuristic").value = heuristic;
    $("s-weight").value = weight;
    const at = SPEEDS.indexOf(Number(pace));
    $("s-speed").value = String(at >= 0 ? at : 5);
    $("s-speed").dispatchEvent(new Event("input"));
    this.syncPairs();
    this.showChosen();
    this.start();
  }
}
