// The one list of algorithm and heuristic names on the page: the Solver panel's selects,
// the visualizer's selects, lane titles, race rows and the pseudocode panel are all built
// from it. `id` is the name the server reads (`--algorithm`, `--heuristic`).

/**
 * `informed`: guided by a heuristic. `key`: what its open list sorts by, the f the page shows
 * ("g" | "h" | "g+h" | "g+wh"). `deepening`: keeps a path under a bound, no open list.
 * `watch`: offered in the visualizer (the others are solver strategies, not one search).
 */
export const ALGORITHMS = [
  { id: "auto", name: "auto", informed: true, key: "g+h" },
  { id: "astar", name: "A*", informed: true, key: "g+h", watch: true },
  { id: "idastar", name: "IDA*", informed: true, key: "g+h", deepening: true, watch: true },
  { id: "wastar", name: "weighted A*", informed: true, key: "g+wh", watch: true },
  { id: "greedy", name: "greedy best-first", informed: true, key: "h", watch: true },
  { id: "bfs", name: "BFS", key: "g", watch: true },
  { id: "dijkstra", name: "Dijkstra", key: "g", watch: true },
  { id: "iddfs", name: "IDDFS", key: "g", deepening: true, watch: true },
  { id: "dfs", name: "DFS", key: "g", watch: true },
  { id: "table", name: "exact table (≤ 9 cells)", key: "g" },
  { id: "reduction", name: "reduction (any size)", key: "g" },
  { id: "near", name: "near-optimal (4x5 and up)", key: "g" },
];

/** `watch`: offered in the visualizer; `auto` and `pdb` choose or need tables, not one function. */
export const HEURISTICS = [
  { id: "auto", name: "auto" },
  { id: "manhattan", name: "Manhattan", watch: true },
  { id: "linear-conflict", name: "linear conflict", watch: true },
  { id: "walking-distance", name: "walking distance", watch: true },
  { id: "hamming", name: "Hamming", watch: true },
  { id: "pdb", name: "pattern database" },
];

const byId = (list, id) => list.find((x) => x.id === id);

/** The entry for algorithm `id` (unknown names read as an uninformed search). */
export const algorithm = (id) => byId(ALGORITHMS, id) || { id, name: id, key: "g" };
export const heuristic = (id) => byId(HEURISTICS, id) || { id, name: id };

/** The f a search sorts by, for a node's g and h (and weighted A*'s w). */
export function sortKey(id, g, h, w = 1) {
  const key = algorithm(id).key;
  if (key === "h") return h;
  if (key === "g") return g;
  if (key === "g+wh") return Math.round((g + w * h) * 100) / 100;
  return g + h;
}

/** How the page writes f for `id`: "f = g + h", "f = h" (greedy), "f = g + 2·h". */
export function keyFormula(id, w = 1) {
  const key = algorithm(id).key;
  return { h: "f = h", g: "f = g", "g+h": "f = g + h", "g+wh": `f = g + ${w}·h` }[key];
}

/** A search's title: "A* · Manhattan", "weighted A* w=2 · Manhattan", "BFS". */
export function title(id, heuristicId, weight) {
  const a = algorithm(id);
  const w = id === "wastar" ? ` w=${weight}` : "";
  return a.informed ? `${a.name}${w} · ${heuristic(heuristicId).name}` : a.name;
}

/** Fills a <select> from one of the lists above (`only` filters it) and selects `value`. */
export function fill(select, list, value, only = () => true) {
  select.replaceChildren(
    ...list.filter(only).map((x) => {
      const o = document.createElement("option");
      o.value = x.id;
      o.textContent = x.name;
      return o;
    }),
  );
  select.value = value;
}
