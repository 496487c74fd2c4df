// The puzzle model, as in npuzzle-core: row-major tiles, 0 is the blank, the goal is
// blank-last, and a move letter names the direction the TILE slides (R: the tile left of
// the blank slides right). Pure functions on plain arrays; no DOM.

export const MAX_SIDE = 16;
export const MIN_SIDE = 2;

/** The blank's step for each tile direction: the tile moves one way, the blank the other. */
const BLANK_STEP = { U: [0, 1], D: [0, -1], L: [1, 0], R: [-1, 0] };
export const INVERSE = { U: "D", D: "U", L: "R", R: "L" };

export function goal(w, h) {
  const tiles = [];
  for (let i = 1; i < w * h; i++) tiles.push(i);
  tiles.push(0);
  return tiles;
}

export function isGoal(tiles) {
  const last = tiles.length - 1;
  for (let i = 0; i < last; i++) if (tiles[i] !== i + 1) return false;
  return tiles[last] === 0;
}

/** The standard notation: rows by "/", cells by spaces. */
export function format(w, tiles) {
  const rows = [];
  for (let y = 0; y * w < tiles.length; y++) rows.push(tiles.slice(y * w, (y + 1) * w).join(" "));
  return rows.join("/");
}

/**
 * Reads a board in the notation the command line reads: rows by "/" or newlines, cells by
 * spaces, commas or tabs, or a flat list of N*N numbers. Throws an Error with a one-line
 * reason.
 */
export function parse(text) {
  const clean = String(text).replace(/#[^\n]*/g, "").trim();
  if (!clean) throw new Error("the position is empty");
  let rows = clean.split(/\s*[\/\n]\s*/).filter((r) => r.length > 0);
  const cells = (row) => row.split(/[\s,]+/).filter((c) => c.length > 0);
  let grid = rows.map(cells);
  // Words first: "hello" is not a 1x1 board.
  const word = grid.flat().find((c) => !/^\d+$/.test(c));
  if (word !== undefined) throw new Error(`"${word.slice(0, 12)}" is not a tile number`);
  if (grid.length === 1) {
    const n = Math.round(Math.sqrt(grid[0].length));
    if (n * n !== grid[0].length) throw new Error(`${grid[0].length} numbers do not make a square board: separate rows with "/"`);
    grid = Array.from({ length: n }, (_, y) => grid[0].slice(y * n, (y + 1) * n));
  }
  const h = grid.length;
  const w = grid[0].length;
  if (grid.some((r) => r.length !== w)) throw new Error("the rows are not all the same length");
  if (w < MIN_SIDE || h < MIN_SIDE || w > MAX_SIDE || h > MAX_SIDE) throw new Error(`a board here is ${MIN_SIDE}x${MIN_SIDE} to ${MAX_SIDE}x${MAX_SIDE}; this one is ${w}x${h}`);
  const tiles = grid.flat().map(Number);
  const seen = new Array(w * h).fill(false);
  for (const t of tiles) {
    if (t >= w * h) throw new Error(`tile ${t} is too large for a ${w}x${h} board`);
    if (seen[t]) throw new Error(`tile ${t} appears twice`);
    seen[t] = true;
  }
  return { w, h, tiles };
}

/** Whether the board can reach the blank-last goal (Wilson 1974; permutation parity plus the blank's distance). */
export function isSolvable(w, h, tiles) {
  const n = tiles.length;
  const target = (t) => (t === 0 ? n - 1 : t - 1);
  const seen = new Array(n).fill(false);
  let cycles = 0;
  for (let s = 0; s < n; s++) {
    if (seen[s]) continue;
    cycles++;
    for (let i = s; !seen[i]; i = target(tiles[i])) seen[i] = true;
  }
  const blank = tiles.indexOf(0);
  const distance = (w - 1 - (blank % w)) + (h - 1 - Math.floor(blank / w));
  return (n - cycles) % 2 === distance % 2;
}

/** The cell the tile moved by `letter` comes from, or -1 when the move is illegal. */
export function source(w, h, tiles, letter) {
  const blank = tiles.indexOf(0);
  const [dx, dy] = BLANK_STEP[letter];
  const x = (blank % w) + dx;
  const y = Math.floor(blank / w) + dy;
  if (x < 0 || y < 0 || x >= w || y >= h) return -1;
  return y * w + x;
}

/** Applies a move in place; returns the tile moved, or 0 when the move is illegal. */
export function apply(w, h, tiles, letter) {
  const from = source(w, h, tiles, letter);
  if (from < 0) return 0;
  const blank = tiles.indexOf(0);
  const tile = tiles[from];
  tiles[blank] = tile;
  tiles[from] = 0;
  return tile;
}

/**
 * The moves that slide the tile at `cell` towards the blank, with every tile between them:
 * empty unless the cell shares the blank's row or column.
 */
export function run(w, tiles, cell) {
  const blank = tiles.indexOf(0);
  const [bx, by, cx, cy] = [blank % w, Math.floor(blank / w), cell % w, Math.floor(cell / w)];
  if (cell === blank || (bx !== cx && by !== cy)) return [];
  let letter;
  if (by === cy) letter = cx > bx ? "L" : "R";
  else letter = cy > by ? "U" : "D";
  return new Array(Math.abs(cx - bx) + Math.abs(cy - by)).fill(letter);
}

/** Reads moves like "RRUL" or "R2U2LD". */
export function parseMoves(text) {
  const out = [];
  for (const [, letter, count] of String(text).toUpperCase().matchAll(/([UDLR])(\d*)/g)) {
    for (let i = 0; i < (count ? Number(count) : 1); i++) out.push(letter);
  }
  return out;
}

/** A uniformly random solvable board, for when the server cannot be reached. */
export function shuffle(w, h, random = Math.random) {
  const tiles = goal(w, h);
  for (let i = tiles.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [tiles[i], tiles[j]] = [tiles[j], tiles[i]];
  }
  if (!isSolvable(w, h, tiles)) {
    // Swapping two tiles (not the blank) flips the parity; as in npuzzle-core, uniform.
    const cells = tiles.map((t, i) => i).filter((i) => tiles[i] !== 0);
    [tiles[cells[0]], tiles[cells[1]]] = [tiles[cells[1]], tiles[cells[0]]];
  }
  if (isGoal(tiles)) return shuffle(w, h, random);
  return tiles;
}

/** Writes moves with runs as counts, as the speed-solvers do: "RRUUL" is "R2U2L". */
export function compact(moves) {
  let out = "";
  for (let i = 0; i < moves.length; ) {
    let j = i;
    while (j < moves.length && moves[j] === moves[i]) j++;
    out += moves[i] + (j - i > 1 ? String(j - i) : "");
    i = j;
  }
  return out;
}

/**
 * A lower bound on the moves to the goal: Manhattan distance plus two moves for each tile
 * that must leave its row or column to let another pass (linear conflict, Hansson et al.
 * 1992, counted greedily per line, so it never overestimates).
 */
export function lowerBound(w, h, tiles) {
  let sum = 0;
  const lineConflicts = (cells) => {
    // cells: goal positions along the line of the tiles that belong to it, in order.
    const xs = cells.slice();
    let extra = 0;
    while (xs.length > 1) {
      const counts = xs.map((a, i) => xs.filter((b, j) => (j < i && b > a) || (j > i && b < a)).length);
      const most = Math.max(...counts);
      if (most === 0) break;
      xs.splice(counts.indexOf(most), 1);
      extra += 2;
    }
    return extra;
  };
  const rows = Array.from({ length: h }, () => []);
  const cols = Array.from({ length: w }, () => []);
  tiles.forEach((t, cell) => {
    if (t === 0) return;
    const [x, y, gx, gy] = [cell % w, Math.floor(cell / w), (t - 1) % w, Math.floor((t - 1) / w)];
    sum += Math.abs(x - gx) + Math.abs(y - gy);
    if (y === gy) rows[y][x] = gx;
    if (x === gx) cols[x][y] = gy;
  });
  for (const line of [...rows, ...cols]) sum += lineConflicts(line.filter((v) => v !== undefined));
  return sum;
}
