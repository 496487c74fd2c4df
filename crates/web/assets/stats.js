// The player's solves, per board size, kept in this browser: the model behind the
// statistics panel (best time and fewest moves kept apart, ao5, ao12, session mean).

import { store } from "./helpers.js";

const KEEP = 100; // solves per size
const KEEP_TIMES = 20; // of which the newest keep their per-move timestamps (for replays)

/** The mean of `times` without its best and worst (the speed-solvers' "average of N"). */
export function average(times) {
  if (times.length < 3) return null;
  const sorted = times.slice().sort((a, b) => a - b);
  const mid = sorted.slice(1, -1);
  return mid.reduce((a, b) => a + b, 0) / mid.length;
}

export class Stats {
  constructor() {
    this.all = store.get("solves", {});
    this.session = []; // ids of this page's solves
  }

  list(size) {
    return this.all[size] || [];
  }

  /** Records a solve: {size, time (ms), moves, board (the start), solution, times}. */
  add(solve) {
    const list = this.list(solve.size).slice();
    const entry = { ...solve, at: Date.now(), id: `${Date.now()}-${Math.random().toString(36).slice(2, 7)}` };
    list.push(entry);
    while (list.length > KEEP) list.shift();
    list.forEach((s, i) => {
      if (i < list.length - KEEP_TIMES) delete s.times;
    });
    this.all[solve.size] = list;
    store.set("solves", this.all);
    this.session.push(entry.id);
    return entry;
  }

  clear(size) {
    delete this.all[size];
    store.set("solves", this.all);
  }

  /** The figures for `size`: counts, bests, averages (null until there are enough). */
  summary(size) {
    const list = this.list(size);
    const times = list.map((s) => s.time);
    const last = (n) => (list.length >= n ? average(times.slice(-n)) : null);
    const mine = list.filter((s) => this.session.includes(s.id)).map((s) => s.time);
    return {
      count: list.length,
      bestTime: list.length ? Math.min(...times) : null,
      fewestMoves: list.length ? Math.min(...list.map((s) => s.moves)) : null,
      bestTps: list.length ? Math.max(...list.map((s) => s.tps || 0)) : null,
      ao5: last(5),
      ao12: last(12),
      sessionMean: mine.length ? mine.reduce((a, b) => a + b, 0) / mine.length : null,
      sessionCount: mine.length,
    };
  }
}
