// The solved moment and the player's record: the result card (moves, time, TPS, against the
// optimum), replays of your solve at its real speed and of the optimal one, challenge links,
// and the statistics panel (best time and fewest moves apart, ao5, ao12, session mean).

import * as puzzle from "./puzzle.js";
import * as api from "./api.js";
import { $, h, clock, plural, say } from "./helpers.js";

const fix2 = (x) => (Math.round(x * 100) / 100).toFixed(2);
const tpsOf = (moves, ms) => (ms > 0 ? moves / (ms / 1000) : 0);

export class ResultsController {
  constructor(game, gameController, solver, stats) {
    this.game = game;
    this.games = gameController;
    this.solver = solver;
    this.stats = stats;
    this.last = null; // the card's solve: {start, w, h, moves, times, time, optimal}
    this.challenge = null; // {time, moves} from a challenge link
    this.abort = null;
    this.bind();
  }

  bind() {
    const game = this.game;
    game.addEventListener("solved", (e) => this.solved(e.detail));
    game.addEventListener("newgame", () => {
      if (this.replaying) return;
      this.hide();
      if (this.abort) this.abort.abort();
      this.last = null;
      this.showStats();
    });
    for (const kind of ["move", "undo", "redo"]) {
      game.addEventListener(kind, (e) => {
        if (!game.solved) this.hide();
        if (e.detail.by === "player") this.replaying = false;
      });
    }
    $("celebrate-again").addEventListener("click", () => this.games.randomize());
    $("replay-mine").addEventListener("click", () => this.replay(this.last.moves, this.last.times));
    $("replay-optimal").addEventListener("click", () => this.replay(this.last.optimal.moves));
    $("challenge").addEventListener("click", () => this.copyChallenge());
    this.solver.transport.addEventListener("stop", () => {
      if (this.replaying) this.endReplay();
    });
  }

  hide() {
    $("celebrate").hidden = true;
    $("board-wrap").classList.remove("won");
  }

  show() {
    $("celebrate").hidden = false;
    $("board-wrap").classList.add("won");
  }

  solved({ time, moves, assisted, by }) {
    if (by === "replay") {
      this.endReplay();
      return;
    }
    const game = this.game;
    const played = game.played();
    const start = puzzle.format(game.w, game.start);
    const tps = tpsOf(moves, time);
    this.last = { start, w: game.w, h: game.h, moves: played.moves, times: played.times, time, optimal: null, card: true };
    const card = $("result");
    for (const k of ["optimal", "over"]) delete card.dataset[k];
    Object.assign(card.dataset, { moves: String(moves), seconds: (time / 1000).toFixed(3), tps: fix2(tps) });
    $("result-optimal").textContent = "";
    $("replay-optimal").hidden = true;
    $("replay-mine").hidden = assisted;
    $("challenge").hidden = assisted;
    const kept = !assisted && this.games.kind !== "loaded";
    let record = "";
    if (kept) {
      const size = `${game.w}x${game.h}`;
      const before = this.stats.summary(size);
      this.stats.add({ size, time, moves, tps: Number(fix2(tps)), board: start, solution: puzzle.compact(played.moves), times: played.times });
      if (before.bestTime === null || time < before.bestTime) record = " New best time!";
      if (before.fewestMoves !== null && moves < before.fewestMoves) record += " Fewest moves yet!";
      this.showStats();
      this.games.refresh();
    }
    const text = assisted
      ? `${plural(moves, "move")} with help — solve one on your own to keep its time.`
      : `${clock(time)} · ${plural(moves, "move")} · ${fix2(tps)} TPS.${kept ? record : " (Random, daily and challenge boards are kept in your statistics.)"}`;
    let versus = "";
    if (this.challenge && !assisted) {
      const c = this.challenge;
      versus = ` Challenge: ${clock(c.time)} · ${c.moves} moves — ${time < c.time ? "you were faster" : "they were faster"}${moves < c.moves ? ", in fewer moves" : ""}.`;
    }
    $("celebrate-text").textContent = text + versus;
    this.show();
    say(`Solved! ${text}${versus}`, "good");
    this.fetchOptimal(start, moves);
  }

  /** Asks the solver for the start's optimal length: "optimal!" or "+6 over optimal". */
  async fetchOptimal(start, moves) {
    if (this.abort) this.abort.abort();
    const abort = (this.abort = new AbortController());
    const verdict = $("result-optimal");
    verdict.textContent = "Asking the solver for the optimum…";
    try {
      const record = await api.solve({ board: start, algorithm: "auto", heuristic: "auto" }, abort.signal);
      if (!this.last || this.last.start !== start) return;
      if (record.status !== "solved") {
        verdict.textContent = `The solver found no optimum (${record.error || record.status}).`;
        return;
      }
      this.last.optimal = { length: record.length, moves: puzzle.parseMoves(record.moves) };
      $("replay-optimal").hidden = false;
      const card = $("result");
      if (!record.optimal) {
        verdict.textContent = `The solver's answer: ${plural(record.length, "move")} (not proven optimal).`;
        return;
      }
      card.dataset.optimal = String(record.length);
      card.dataset.over = String(moves - record.length);
      verdict.textContent = moves === record.length ? "Optimal!" : `+${moves - record.length} over optimal (${record.length})`;
      verdict.dataset.tone = moves === record.length ? "good" : "";
    } catch (error) {
      if (error.name !== "AbortError") verdict.textContent = `No optimum: ${error.message}.`;
    }
  }

  /** Plays `moves` from the card's start on the game's board (at real speed with `times`). */
  replay(moves, times = null) {
    const last = this.last;
    if (!last) return;
    this.replaying = true;
    this.hide();
    this.game.newGame(last.w, last.h, puzzle.parse(last.start).tiles);
    const game = this.game;
    const base = times ? times.map((t) => t - times[0] + 400) : null;
    this.solver.transport.load(moves, (i) => game.play([moves[i]], "replay"), () => game.undo("replay"), base);
    this.solver.transport.play();
    say(times ? "Your solve, at its real speed." : `The optimal solution: ${plural(moves.length, "move")}.`);
  }

  endReplay() {
    this.replaying = false;
    if (this.last && this.last.card) this.show();
  }

  copyChallenge() {
    const l = this.last;
    if (!l) return;
    const url = `${location.origin}${location.pathname}#challenge=${l.start.replaceAll(" ", ",")}&t=${Math.round(l.time)}&m=${l.moves.length}`;
    history.replaceState(null, "", url);
    navigator.clipboard.writeText(url).then(
      () => say("Challenge link copied: your scramble, time and moves.", "good"),
      () => say("The challenge link is in the address bar.", "good"),
    );
  }

  // ---- statistics ----------------------------------------------------------------------

  showStats() {
    const size = `${this.game.w}x${this.game.h}`;
    const s = this.stats.summary(size);
    const panel = $("stats");
    $("stats-size").textContent = size;
    panel.dataset.count = String(s.count);
    const sec = (ms) => (ms / 1000).toFixed(2);
    for (const [k, v] of [["ao5", s.ao5], ["ao12", s.ao12]]) {
      if (v === null) delete panel.dataset[k];
      else panel.dataset[k] = sec(v);
    }
    const figures = [
      ["Solves", String(s.count)],
      ["Best time", s.bestTime === null ? "—" : clock(s.bestTime)],
      ["Fewest moves", s.fewestMoves === null ? "—" : String(s.fewestMoves)],
      ["Best TPS", s.bestTps ? fix2(s.bestTps) : "—"],
      ["ao5", s.ao5 === null ? "—" : clock(s.ao5)],
      ["ao12", s.ao12 === null ? "—" : clock(s.ao12)],
      ["Session mean", s.sessionMean === null ? "—" : clock(s.sessionMean)],
    ];
    $("stats-figures").replaceChildren(...figures.map(([k, v]) => h("div", {}, h("dt", { text: k }), h("dd", { text: v }))));
    $("stats-empty").hidden = s.count > 0;
    const list = this.stats.list(size).slice(-8).reverse();
    $("history").replaceChildren(
      ...list.map((solve) =>
        h(
          "li",
          {},
          h("span", { text: `${clock(solve.time)} · ${solve.moves} moves · ${fix2(solve.tps || 0)} TPS` }),
          solve.times
            ? h("button", {
                type: "button",
                class: "small",
                text: "Replay",
                "aria-label": `Replay the ${clock(solve.time)} solve`,
                onclick: () => {
                  const moves = puzzle.parseMoves(solve.solution);
                  this.last = { start: solve.board, w: this.game.w, h: this.game.h, moves, times: solve.times, time: solve.time, optimal: null };
                  this.replay(moves, solve.times);
                },
              })
            : null,
        ),
      ),
    );
  }
}
