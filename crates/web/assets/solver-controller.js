// Hint, Solve and the distance readout: the server's solver, asked by the game.
// The game's transport plays the solutions (and the replays of the result card).

import * as puzzle from "./puzzle.js";
import * as api from "./api.js";
import * as names from "./names.js";
import { $, number, plural, seconds, say, DIRECTION } from "./helpers.js";

/** Boards this small get their exact distance after every move (the exact table answers at once). */
const EXACT_CELLS = 9;
/** How often a running solve is asked what it has found and proved so far. */
const PROGRESS_EVERY_MS = 500;

export class SolverController {
  constructor(game, transport) {
    this.game = game;
    this.transport = transport;
    this.hintAbort = null;
    this.solveAbort = null;
    this.solveId = null; // the name of the solve under way, which the Stop button stops
    this.stopping = false; // whether Stop was pressed for it
    this.exactAbort = null;
    this.exact = new Map(); // board notation -> proven distance
    this.bounds = new Map(); // board notation -> a lower bound the solver proved
    this.uppers = new Map(); // board notation -> the moves a solution the solver found takes
    this.playing = null; // the moves the transport holds, when they are the solver's
    names.fill($("algorithm"), names.ALGORITHMS, "auto");
    names.fill($("heuristic"), names.HEURISTICS, "auto");
    this.bind();
  }

  bind() {
    const game = this.game;
    $("hint").addEventListener("click", () => this.hint());
    $("solve").addEventListener("click", () => this.solve());
    game.addEventListener("newgame", () => {
      this.cancel();
      this.exact.clear();
      this.bounds.clear();
      this.uppers.clear();
      $("solve-note").textContent = "";
      this.showDistance();
    });
    for (const kind of ["move", "undo", "redo"]) {
      game.addEventListener(kind, (e) => {
        if (e.detail.by === "player") {
          const t = this.transport;
          if (t.loaded) {
            t.stop(true);
            say(`You took over at move ${t.index} of ${t.moves.length}.`);
          }
          if (this.solveAbort) this.solveAbort.abort();
          if (this.hintAbort) this.hintAbort.abort();
        }
        this.showDistance();
      });
    }
    this.transport.addEventListener("speed", (e) => {
      game.el.style.setProperty("--slide", `${Math.min(140, Math.round(800 / e.detail))}ms`);
    });
  }

  cancel() {
    for (const a of [this.hintAbort, this.solveAbort, this.exactAbort]) if (a) a.abort();
    this.transport.stop(true);
  }

  // ---- the distance to the goal ------------------------------------------------------

  /** Shows the distance: a lower bound at once, the exact one when it is known or cheap. */
  showDistance() {
    const { game } = this;
    const board = game.notation;
    const el = $("distance");
    const estimate = puzzle.lowerBound(game.w, game.h, game.tiles);
    const proved = this.bounds.get(board) ?? 0;
    const lower = Math.max(estimate, proved);
    const upper = this.uppers.get(board);
    // A solution as short as the bound proves itself optimal.
    const exact = game.solved ? 0 : this.exact.get(board) ?? (upper === lower ? upper : undefined);
    el.dataset.lower = String(exact ?? lower);
    if (exact === undefined && upper !== undefined) el.dataset.upper = String(upper);
    else delete el.dataset.upper;
    if (exact !== undefined) {
      el.dataset.exact = String(exact);
      $("distance-out").textContent = String(exact);
      el.dataset.long = "0";
      el.title = "Moves still needed, proven by the solver";
    } else {
      delete el.dataset.exact;
      const text = upper !== undefined ? `${lower}–${upper}` : `≥ ${lower}`;
      $("distance-out").textContent = text;
      // A range of big numbers gets a smaller font, so that it stays in its box.
      el.dataset.long = text.length > 9 ? "2" : text.length > 6 ? "1" : "0";
      el.title = upper !== undefined
        ? "Moves still needed: at least the first (proven), at most the second (the solver's solution)"
        : proved > estimate
        ? "Moves still needed: at least this many (proven by the solver's search)"
        : "Moves still needed: at least this many (Manhattan distance plus linear conflicts)";
      if (game.w * game.h <= EXACT_CELLS) this.fetchExact(board);
    }
  }

  /** Remembers what a hint answer proves: the board's distance and its neighbours'. */
  learn(answer) {
    if (answer.status === "solved" && !answer.optimal) {
      if (answer.lower_bound != null) this.bound(answer.board, answer.lower_bound);
      if (answer.distance != null) this.upper(answer.board, answer.distance);
    }
    if (answer.status !== "solved" || !answer.optimal) return;
    this.exact.set(answer.board, answer.distance);
    const at = puzzle.parse(answer.board);
    for (const m of answer.moves || []) {
      if (!m.exact || m.distance === null) continue;
      const tiles = at.tiles.slice();
      if (puzzle.apply(at.w, at.h, tiles, m.move)) this.exact.set(puzzle.format(at.w, tiles), m.distance);
    }
  }

  /** Remembers that a solution of `moves` moves from `board` is known (the fewer wins). */
  upper(board, moves) {
    if (moves < (this.uppers.get(board) ?? Infinity)) this.uppers.set(board, moves);
  }

  /** Remembers a lower bound the solver proved for `board` (the larger one wins). */
  bound(board, lower) {
    if (lower > (this.bounds.get(board) ?? 0)) this.bounds.set(board, lower);
  }

  async fetchExact(board) {
    if (this.exactAbort) this.exactAbort.abort();
    const abort = (this.exactAbort = new AbortController());
    try {
      this.learn(await api.hint(board, abort.signal));
      if (board === this.game.notation && this.exact.has(board)) this.showDistance();
    } catch {
      // The lower bound stays: the readout never claims more than it knows.
    }
  }

  // ---- hint ------------------------------------------------------------------------

  async hint() {
    const game = this.game;
    if (game.solved) {
      say("The board is already solved.");
      return;
    }
    if (this.hintAbort) this.hintAbort.abort();
    const abort = (this.hintAbort = new AbortController());
    const board = game.notation;
    const looking = "Looking for the best move…";
    say(looking);
    $("hint").setAttribute("aria-busy", "true");
    // On a big board a hint is a solve of seconds: its best path so far and bound, as a solve's.
    const id = api.solveId();
    const watch = this.watchProgress(id, board, looking, () => this.hintAbort === abort);
    try {
      const answer = await api.hint(board, abort.signal, id);
      if (board !== game.notation) return;
      this.learn(answer);
      if (answer.status !== "solved" || !answer.move) {
        say(`No hint: ${answer.error || answer.status}.`, "warn");
        return;
      }
      game.assisted = true;
      game.showHint(answer.tile, answer.move);
      this.showDistance();
      const move = `slide tile ${answer.tile} ${DIRECTION[answer.move]}`;
      if (answer.optimal) say(`Optimal distance ${answer.distance}: ${move}.`, "good");
      else {
        // How far from the optimum it may be: the lower bound the solver proved.
        const bound = answer.lower_bound != null && answer.lower_bound < answer.distance ? `; the optimum is at least ${answer.lower_bound}` : "";
        say(`${move[0].toUpperCase()}${move.slice(1)} — about ${plural(answer.distance, "move")} to go (not optimal: ${answer.algorithm}${bound}).`);
      }
    } catch (error) {
      if (error.name !== "AbortError") say(`No hint: ${error.message}.`, "error");
      // Aborted by a move (not by a newer hint, which has its own message): clear ours.
      else if (this.hintAbort === abort) say("");
    } finally {
      clearInterval(watch);
      if (this.hintAbort === abort) this.hintAbort = null;
      $("hint").removeAttribute("aria-busy");
    }
  }

  /**
   * While the solve or hint named `id` runs for `board`: asks twice a second what it has found and
   * proved so far, and shows its best answer and bound in the message (after `doing`) and the TO
   * GOAL readout, as long as `current()` says the request is still the one shown (the near-optimal
   * engine has a path long before it ends). Returns the interval, for `clearInterval`.
   */
  watchProgress(id, board, doing, current) {
    return setInterval(async () => {
      let progress;
      try {
        progress = await api.solveProgress(id);
      } catch {
        return; // not started on a worker yet, or just ended
      }
      if (!current()) return;
      const { best, lower_bound: lower } = progress;
      if (lower != null) this.bound(board, lower);
      if (best != null) this.upper(board, best);
      if (board !== this.game.notation) return;
      this.showDistance();
      const parts = [];
      if (best != null) parts.push(`best so far ${plural(best, "move")}`);
      if (lower != null) parts.push(`the optimum is at least ${number(lower)}`);
      if (parts.length) say(`${doing} ${progress.seconds.toFixed(1)} s: ${parts.join(", ")}.`);
    }, PROGRESS_EVERY_MS);
  }

  // ---- solve and playback ----------------------------------------------------------

  busy(on) {
    $("solve-text").textContent = on ? "Stop" : "Solve";
    $("solve").setAttribute("aria-busy", String(on));
  }

  /** Plays `moves` from the current position on the game's transport. */
  playMoves(moves, by = "solver") {
    const game = this.game;
    this.transport.load(
      moves,
      (i) => game.play([moves[i]], by),
      () => game.undo(by),
    );
    this.transport.play();
  }

  async solve() {
    const game = this.game;
    if (this.solveAbort) {
      // Solving: the first press stops the solve, whose best answer so far then plays; the
      // second (or a solve that cannot be stopped yet) cancels it.
      const abort = this.solveAbort;
      if (this.solveId && !this.stopping) {
        this.stopping = true;
        $("solve-text").textContent = "Cancel";
        say("Stopping: the best answer found so far will play…");
        try {
          await api.stopSolve(this.solveId);
        } catch {
          abort.abort();
        }
        return;
      }
      abort.abort();
      return;
    }
    if (game.solved) {
      say("The board is already solved.");
      return;
    }
    this.transport.stop(true);
    const abort = (this.solveAbort = new AbortController());
    const id = (this.solveId = api.solveId());
    this.stopping = false;
    const board = game.notation;
    const algorithm = $("algorithm").value;
    const heuristic = $("heuristic").value;
    this.busy(true);
    const solving = `Solving with ${names.algorithm(algorithm).name}…`;
    say(solving);
    $("solve-note").textContent = "";
    const watch = this.watchProgress(id, board, solving, () => this.solveId === id && !this.stopping);
    try {
      const record = await api.solve({ board, algorithm, heuristic, id }, abort.signal);
      const stopped = this.stopping;
      if (board !== game.notation) {
        say("The board changed while the solver worked: press Solve again.");
        return;
      }
      const ran = `${names.algorithm(record.algorithm).name}${record.heuristic ? ` + ${names.heuristic(record.heuristic).name}` : ""}`;
      $("solve-note").textContent = `${ran}, ${plural(record.expanded, "node")}, ${seconds(record.seconds)}${record.note ? `. ${record.note}` : ""}`;
      if (record.status !== "solved") {
        if (stopped && record.status === "limit") say("Stopped before the solver had an answer.");
        else say(`${record.status === "limit" ? "Stopped at a limit" : "Unsolvable"}: ${record.error}`, "warn");
        return;
      }
      const moves = puzzle.parseMoves(record.moves);
      if (!record.optimal && record.lower_bound != null) {
        // A move changes the distance by one: i moves along, the board is at least bound - i away, and
        // at most length - i.
        const tiles = game.tiles.slice();
        moves.forEach((m, i) => {
          const at = puzzle.format(game.w, tiles);
          if (record.lower_bound > i) this.bound(at, record.lower_bound - i);
          this.upper(at, moves.length - i);
          puzzle.apply(game.w, game.h, tiles, m);
        });
      }
      if (record.optimal) {
        // Every position on an optimal path is as far from the goal as the moves left.
        const tiles = game.tiles.slice();
        moves.forEach((m, i) => {
          this.exact.set(puzzle.format(game.w, tiles), moves.length - i);
          puzzle.apply(game.w, game.h, tiles, m);
        });
      }
      // How far from the optimum a non-optimal answer may be: the lower bound the solver proved.
      const gap = record.lower_bound != null && record.lower_bound < moves.length ? moves.length - record.lower_bound : null;
      const kind = record.optimal
        ? `Optimal solution: ${plural(moves.length, "move")}`
        : `Solution (not proven optimal): ${plural(moves.length, "move")}${gap ? `, at most ${number(gap)} more than the optimum (at least ${number(record.lower_bound)})` : ""}`;
      const early = stopped ? "Stopped early — the best found so far. " : "";
      say(`${early}${kind}. Playing it back — pause, step or stop below; any move takes over.`, "good");
      this.showDistance();
      this.playMoves(moves);
    } catch (error) {
      if (error.name === "AbortError") say("Solve cancelled.");
      else say(`Could not solve: ${error.message}${error.retryAfter ? ` (try again in ${error.retryAfter} s)` : ""}.`, "error");
    } finally {
      clearInterval(watch);
      if (this.solveAbort === abort) {
        this.solveAbort = null;
        this.solveId = null;
        this.stopping = false;
      }
      this.busy(false);
    }
  }
}
