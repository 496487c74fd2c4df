// The game: the position, its history (undo/redo), the timer, and the board's DOM.
//
// The board element keeps the testing contract (see the crate docs): `data-board` holds the
// position in the standard notation after every move, and each tile is a <button> whose
// accessible name contains its number.

import * as puzzle from "./puzzle.js";

const SWIPE_PX = 24;

export class Game extends EventTarget {
  constructor(boardEl) {
    super();
    this.el = boardEl;
    this.w = 4;
    this.h = 4;
    this.tiles = puzzle.goal(4, 4);
    this.start = this.tiles.slice();
    this.history = []; // groups of move letters: a run slide is one group
    this.times = []; // ms on the clock when each group was played (replays at real speed)
    this.cursor = 0;
    this.hover = false; // the pointer moves the blank (mouse hover, touch press-and-drag)
    this.startedAt = 0; // performance.now() of the first move, 0 before it
    this.elapsed = 0; // ms, frozen once solved
    this.finished = false;
    this.assisted = false;
    this.picture = null;
    this.buttons = [];
    this.hintTile = 0;
    this.suppressClick = false;
    this.listen();
  }

  // ---- the position ----------------------------------------------------------------

  get notation() {
    return puzzle.format(this.w, this.tiles);
  }

  get moveCount() {
    let n = 0;
    for (let i = 0; i < this.cursor; i++) n += this.history[i].length;
    return n;
  }

  get solved() {
    return puzzle.isGoal(this.tiles);
  }

  /** Starts a game on `tiles` (a solvable position of w x h). */
  newGame(w, h, tiles) {
    const sizeChanged = w !== this.w || h !== this.h || this.buttons.length !== w * h - 1;
    this.w = w;
    this.h = h;
    this.tiles = tiles.slice();
    this.start = tiles.slice();
    this.history = [];
    this.times = [];
    this.cursor = 0;
    this.startedAt = 0;
    this.elapsed = 0;
    this.finished = false;
    this.assisted = false;
    this.hintTile = 0;
    if (sizeChanged) this.build();
    this.render(false);
    this.emit("newgame");
  }

  /** Back to this game's starting position. */
  reset() {
    this.newGame(this.w, this.h, this.start);
  }

  /**
   * Slides tiles: `letters` is one group (a run slide or one move). Returns false, changing
   * nothing, when a move is illegal. `by` is "player" or "solver".
   */
  play(letters, by = "player") {
    const next = this.tiles.slice();
    for (const letter of letters) if (!puzzle.apply(this.w, this.h, next, letter)) return false;
    if (letters.length === 0) return false;
    this.tiles = next;
    this.history.length = this.cursor;
    this.times.length = this.cursor;
    this.history.push(letters.slice());
    if (!this.startedAt && !this.finished && by === "player") this.startedAt = performance.now() - this.elapsed;
    this.times.push(this.time());
    this.cursor++;
    if (by !== "player") this.assisted = true;
    this.afterMove(by);
    return true;
  }

  undo(by = "player") {
    if (this.cursor === 0) return false;
    const group = this.history[this.cursor - 1];
    for (let i = group.length - 1; i >= 0; i--) puzzle.apply(this.w, this.h, this.tiles, puzzle.INVERSE[group[i]]);
    this.cursor--;
    this.afterMove(by, "undo");
    return true;
  }

  redo(by = "player") {
    if (this.cursor >= this.history.length) return false;
    for (const letter of this.history[this.cursor]) puzzle.apply(this.w, this.h, this.tiles, letter);
    this.cursor++;
    this.afterMove(by, "redo");
    return true;
  }

  /** The moves played so far (one letter each) and the clock's ms at each. */
  played() {
    const moves = [], times = [];
    for (let i = 0; i < this.cursor; i++) {
      for (const letter of this.history[i]) {
        moves.push(letter);
        times.push(Math.round(this.times[i] ?? 0));
      }
    }
    return { moves, times };
  }

  /** The run slide that moves the tile at `cell`, played as one group. */
  slideFrom(cell, by = "player") {
    return this.play(puzzle.run(this.w, this.tiles, cell), by);
  }

  afterMove(by, kind = "move") {
    if (!this.startedAt && !this.finished && by === "player") this.startedAt = performance.now() - this.elapsed;
    this.hintTile = 0;
    this.hintMove = "";
    this.render(true);
    this.emit(kind, { by });
    if (this.solved && !this.finished && !puzzle.isGoal(this.start)) {
      this.finished = true;
      this.elapsed = this.time();
      this.startedAt = 0;
      this.emit("solved", { time: this.elapsed, moves: this.moveCount, assisted: this.assisted, by });
    }
  }

  /** Milliseconds on the clock. */
  time() {
    return this.startedAt ? performance.now() - this.startedAt : this.elapsed;
  }

  emit(type, detail = {}) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }

  // ---- the DOM --------------------------------------------------------------------

  build() {
    this.el.replaceChildren();
    this.buttons = [];
    this.el.style.setProperty("--w", this.w);
    this.el.style.setProperty("--h", this.h);
    this.el.dataset.size = `${this.w}x${this.h}`;
    const n = this.w * this.h;
    // Smaller numbers on bigger boards.
    this.el.classList.toggle("dense", Math.max(this.w, this.h) >= 7);
    this.el.classList.toggle("tiny", Math.max(this.w, this.h) >= 11);
    for (let t = 1; t <= n; t++) {
      const last = t === n;
      const b = document.createElement(last ? "div" : "button");
      const goalCell = t - 1;
      b.className = last ? "tile final" : "tile";
      if (!last) {
        b.type = "button";
        b.dataset.tile = String(t);
      } else {
        b.setAttribute("aria-hidden", "true");
      }
      b.style.setProperty("--gx", goalCell % this.w);
      b.style.setProperty("--gy", Math.floor(goalCell / this.w));
      // Rows of the goal get their own hue: it helps to see where a tile belongs.
      b.style.setProperty("--row-hue", Math.floor(goalCell / this.w) / this.h);
      const face = document.createElement("span");
      face.className = "face";
      const num = document.createElement("span");
      num.className = "num";
      num.textContent = last ? "" : String(t);
      face.append(num);
      b.append(face);
      this.el.append(b);
      if (!last) this.buttons[t] = b;
      else this.finalPiece = b;
    }
  }

  render(animate) {
    this.el.classList.toggle("still", !animate);
    this.tiles.forEach((t, cell) => {
      if (t === 0) return;
      const b = this.buttons[t];
      const x = cell % this.w, y = Math.floor(cell / this.w);
      b.style.setProperty("--x", x);
      b.style.setProperty("--y", y);
      const home = t - 1 === cell;
      b.classList.toggle("home", home);
      b.classList.toggle("hint", t === this.hintTile);
      if (t === this.hintTile && this.hintMove) b.dataset.dir = this.hintMove;
      else delete b.dataset.dir;
      b.setAttribute("aria-label", `Tile ${t}, row ${y + 1}, column ${x + 1}${home ? ", in place" : ""}`);
    });
    if (this.finalPiece) {
      const goalCell = this.w * this.h - 1;
      this.finalPiece.style.setProperty("--x", goalCell % this.w);
      this.finalPiece.style.setProperty("--y", Math.floor(goalCell / this.w));
    }
    this.el.dataset.board = this.notation;
    this.el.dataset.solved = String(this.solved);
    if (this.hintTile) this.el.dataset.hint = String(this.hintTile);
    else delete this.el.dataset.hint;
    if (!animate) {
      // Let the jump happen without a transition, then turn transitions back on.
      requestAnimationFrame(() => requestAnimationFrame(() => this.el.classList.remove("still")));
    }
  }

  /** Highlights a tile as the hint, with an arrow for `move` (its letter); 0 clears it. */
  showHint(tile, move = "") {
    this.hintTile = tile;
    this.hintMove = move;
    this.buttons.forEach((b, t) => {
      if (!b) return;
      b.classList.toggle("hint", t === tile);
      if (t === tile && move) b.dataset.dir = move;
      else delete b.dataset.dir;
    });
    if (tile) this.el.dataset.hint = String(tile);
    else delete this.el.dataset.hint;
  }

  /** Shows `url` on the tiles (null: numbers only); `numbers` keeps numbers on pictures. */
  setPicture(url, numbers) {
    this.picture = url;
    this.el.classList.toggle("picture", Boolean(url));
    this.el.classList.toggle("numbers", !url || numbers);
    if (url) this.el.style.setProperty("--picture", `url("${url}")`);
    else this.el.style.removeProperty("--picture");
  }

  // ---- input ----------------------------------------------------------------------

  /** The cell (row-major index) at the viewport point `x`, `y`, or -1 off the grid. */
  cellAt(x, y) {
    const r = this.el.getBoundingClientRect();
    const s = getComputedStyle(this.el);
    const [left, top, right, bottom] = ["Left", "Top", "Right", "Bottom"].map((k) => parseFloat(s[`padding${k}`]) || 0);
    const cx = Math.floor(((x - r.left - left) * this.w) / (r.width - left - right));
    const cy = Math.floor(((y - r.top - top) * this.h) / (r.height - top - bottom));
    return cx < 0 || cy < 0 || cx >= this.w || cy >= this.h ? -1 : cy * this.w + cx;
  }

  listen() {
    this.el.addEventListener("click", (event) => {
      const b = event.target.closest("button.tile");
      if (!b || this.suppressClick) return;
      const cell = this.tiles.indexOf(Number(b.dataset.tile));
      if (!this.slideFrom(cell)) this.emit("blocked", { tile: Number(b.dataset.tile) });
    });
    let down = null;
    // Hover input: the blank follows the pointer (a mouse over a tile, a finger pressed and
    // dragged across them); each tile entered in the blank's row or column slides.
    // The cell under the pointer is found from the grid, not from the tile drawn there: a
    // tile still sliding away from under a dragging finger was taken for the next one to
    // move, and slid back.
    const follow = (event) => {
      if (!this.hover || (event.pointerType !== "mouse" && !down)) return;
      const cell = this.cellAt(event.clientX, event.clientY);
      if (cell < 0) return;
      if (puzzle.run(this.w, this.tiles, cell).length > 0) {
        this.slideFrom(cell);
        this.suppressClick = true;
      }
    };
    this.el.addEventListener("pointermove", follow);
    this.el.addEventListener("pointerdown", (event) => {
      down = { x: event.clientX, y: event.clientY };
      this.suppressClick = false;
      if (this.hover && event.pointerType !== "mouse") this.el.releasePointerCapture?.(event.pointerId);
    });
    this.el.addEventListener("pointerup", (event) => {
      if (!down) return;
      if (this.hover) {
        down = null;
        setTimeout(() => (this.suppressClick = false), 0);
        return;
      }
      const dx = event.clientX - down.x, dy = event.clientY - down.y;
      down = null;
      if (Math.max(Math.abs(dx), Math.abs(dy)) < SWIPE_PX) return;
      // A swipe moves the tile that can go in the swipe's direction.
      this.suppressClick = true;
      setTimeout(() => (this.suppressClick = false), 0);
      const letter = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "R" : "L") : dy > 0 ? "D" : "U";
      this.play([letter]);
    });
    this.el.addEventListener("pointercancel", () => (down = null));
  }
}
