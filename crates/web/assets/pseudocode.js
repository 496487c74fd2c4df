// Pseudocode for every algorithm the visualizer runs, and the panel that marks the line
// being executed. The server reports nodes, bounds and the end; the panel maps each to its
// line. With the panel open, Step on a paused search walks the loop's lines for the node at
// hand one by one, and asks the server for the next node only after the last of them.

import * as names from "./names.js";
import { h } from "./helpers.js";

// Each program: its lines, and the line of each event: `init` (start), `pop` (a node
// arrives), `body` (the lines Step walks after `pop`), `found`, `fail`, `bound`.
const BEST_FIRST = (open, pop, push) => ({
  lines: [
    `open ← {start}; closed ← {}`,
    `while open is not empty:`,
    `  n ← ${pop}`,
    `  if n is the goal: return the path to n`,
    `  add n to closed`,
    `  for each neighbour m of n not in closed:`,
    `    g(m) ← g(n) + 1`,
    `    ${push}`,
    `return failure (${open})`,
  ],
  init: 0, pop: 2, body: [3, 4, 5, 6, 7], found: 3, fail: 8,
});

const FIFO = {
  lines: [
    "queue ← [start]; seen ← {start}",
    "while queue is not empty:",
    "  n ← take the oldest node from the queue",
    "  if n is the goal: return the path to n",
    "  for each neighbour m of n:",
    "    if m is not in seen:",
    "      add m to seen and to the back of the queue",
    "return failure",
  ],
  init: 0, pop: 2, body: [3, 4, 5, 6], found: 3, fail: 7,
};

const LIFO = {
  lines: [
    "stack ← [start]; seen ← {start}",
    "while stack is not empty:",
    "  n ← take the newest node from the stack",
    "  if n is the goal: return the path to n",
    "  for each neighbour m of n:",
    "    if m is not in seen:",
    "      add m to seen and push it on the stack",
    "return failure",
  ],
  init: 0, pop: 2, body: [3, 4, 5, 6], found: 3, fail: 7,
};

const DEEPENING = (limit, cut, next) => ({
  lines: [
    `bound ← ${limit}`,
    "loop:",
    "  t ← search(start, 0, bound)",
    "  if t = FOUND: return the path",
    "  if t = ∞: return failure",
    `  bound ← t   (${next})`,
    "search(n, g, bound):",
    `  ${cut}`,
    "  if n is the goal: return FOUND",
    "  for each neighbour m of n, not on the path:",
    "    t ← search(m, g + 1, bound)",
    "    if t = FOUND: return FOUND",
    "  return the smallest t",
  ],
  init: 0, pop: 7, body: [8, 9, 10, 11], found: 3, fail: 4, bound: 5,
});

export const CODE = {
  astar: BEST_FIRST("A*", "the node with the lowest f = g + h from open", "f(m) ← g(m) + h(m); put m in open (or lower its g)"),
  wastar: BEST_FIRST("weighted A*", "the node with the lowest f = g + w·h from open", "f(m) ← g(m) + w·h(m); put m in open (or lower its g)"),
  greedy: BEST_FIRST("greedy", "the node with the lowest h from open", "f(m) ← h(m); put m in open"),
  dijkstra: BEST_FIRST("Dijkstra", "the node with the lowest g from open", "put m in open (or lower its g)"),
  bfs: FIFO,
  dfs: LIFO,
  idastar: DEEPENING("h(start)", "f ← g + h(n); if f > bound: return f", "the smallest f that exceeded the bound"),
  iddfs: DEEPENING("0", "if g > bound: return g", "one deeper"),
};

export class Pseudocode {
  constructor(root) {
    this.root = root;
    this.program = null;
    this.current = -1;
    this.walking = -1; // index into body while Step walks it; -1 otherwise
  }

  /** Shows the program of `algorithm`. */
  show(algorithm) {
    this.program = CODE[algorithm] || null;
    this.root.dataset.algorithm = algorithm;
    this.root.setAttribute("aria-label", `Pseudocode of ${names.algorithm(algorithm).name}`);
    this.root.replaceChildren(...(this.program ? this.program.lines : []).map((text, i) => h("li", { "data-line": String(i + 1) }, h("code", { text }))));
    this.current = -1;
    this.walking = -1;
    if (this.program) this.mark(this.program.init);
  }

  mark(i) {
    this.current = i;
    [...this.root.children].forEach((li, j) => {
      if (j === i) li.setAttribute("aria-current", "step");
      else li.removeAttribute("aria-current");
    });
  }

  /** An event from the search: "pop", "found", "fail" or "bound". */
  on(event) {
    const p = this.program;
    if (!p || p[event] === undefined) return;
    this.walking = -1;
    this.mark(p[event]);
  }

  /** Step with the panel open: the next line of the loop's body, or false at its end. */
  walk() {
    const p = this.program;
    if (!p || (this.walking < 0 && this.current !== p.pop)) return false;
    if (this.walking + 1 >= p.body.length) return false;
    this.walking++;
    this.mark(p.body[this.walking]);
    return true;
  }
}
