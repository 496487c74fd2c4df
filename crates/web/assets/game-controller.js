// The game's controller: new games (random, daily, loaded), the size, the buttons and keys
// that move tiles, the clock and the scoreboard, and the board's options.

import * as puzzle from "./puzzle.js";
import * as api from "./api.js";
import { $, clock, store, say } from "./helpers.js";

const KEYS = { ArrowUp: "U", ArrowDown: "D", ArrowLeft: "L", ArrowRight: "R", w: "U", s: "D", a: "L", d: "R", W: "U", S: "D", A: "L", D: "R" };

/** Today's seed (UTC): the same for everyone, a new one each day. */
export const dailySeed = () => Number(new Date().toISOString().slice(0, 10).replaceAll("-", ""));

export class GameController {
  /** `game`: the Game; `pictures`: re-applies the picture after a new board. */
  constructor(game, pictures, stats) {
    this.game = game;
    this.pictures = pictures;
    this.stats = stats;
    this.kind = "loaded"; // random | daily | challenge | loaded: only the first three are kept as solves
    this.ticket = 0;
    this.actions = {}; // hint, solve: set by the composition root
    this.bind();
  }

  bind() {
    const game = this.game;
    $("randomize").addEventListener("click", () => this.randomize());
    $("daily").addEventListener("click", () => this.randomize(dailySeed()));
    $("reset").addEventListener("click", () => {
      game.reset();
      say("Back to the starting position.");
    });
    $("undo").addEventListener("click", () => game.undo());
    $("redo").addEventListener("click", () => game.redo());
    $("size").addEventListener("change", () => {
      const custom = $("size").value === "custom";
      $("custom-size").hidden = !custom;
      if (!custom) this.randomize();
    });
    $("custom-apply").addEventListener("click", () => this.randomize());
    document.addEventListener("keydown", (e) => this.key(e));
    game.addEventListener("newgame", () => this.refresh());
    for (const kind of ["move", "undo", "redo"]) game.addEventListener(kind, () => this.refresh());
    game.addEventListener("blocked", () => say("That tile is not in the blank's row or column.", "warn"));
    setInterval(() => {
      if (game.startedAt) $("timer").textContent = clock(game.time());
    }, 100);
    // Options, kept in this browser.
    const option = (id, apply, fallback) => {
      const box = $(id);
      box.checked = store.get(id, fallback);
      const set = () => {
        store.set(id, box.checked);
        apply(box.checked);
      };
      box.addEventListener("change", set);
      apply(box.checked);
    };
    option("mark-home", (on) => game.el.classList.toggle("mark-home", on), false);
    option("animate", (on) => document.body.classList.toggle("no-anim", !on), true);
    option("hover", (on) => (game.hover = on), false);
  }

  /** The size chosen, clamped to what the page plays, and a note when it was clamped. */
  size() {
    const choice = $("size").value;
    if (choice !== "custom") return { w: +choice[0], h: +choice[2], note: "" };
    const want = [$("width").value, $("height").value].map((v) => Math.round(Number(v) || 0));
    const [w, h] = want.map((v) => Math.min(puzzle.MAX_SIDE, Math.max(puzzle.MIN_SIDE, v)));
    const note = w !== want[0] || h !== want[1] ? `A side here is ${puzzle.MIN_SIDE} to ${puzzle.MAX_SIDE} tiles: ${want[0]}x${want[1]} became ${w}x${h}. ` : "";
    return { w, h, note };
  }

  showSize(w, h) {
    const preset = w === h && w >= 3 && w <= 8 ? `${w}x${h}` : "custom";
    $("size").value = preset;
    $("custom-size").hidden = preset !== "custom";
    $("width").value = w;
    $("height").value = h;
  }

  /** A new random game of the chosen size; with `seed`, the daily scramble. */
  async randomize(seed) {
    const { w, h, note } = this.size();
    const ticket = ++this.ticket;
    let tiles;
    let offline = "";
    try {
      tiles = puzzle.parse((await api.scramble(w, h, seed)).board).tiles;
    } catch (error) {
      // The game still works offline: shuffle here, as uniformly as the server would.
      tiles = puzzle.shuffle(w, h);
      offline = ` Shuffled in the browser (${error.message}).`;
      seed = undefined;
    }
    if (ticket !== this.ticket) return;
    // Said before the picture is drawn, so a fast player's "Solved!" is never overwritten.
    const started = this.start(w, h, tiles, seed === undefined ? "random" : "daily");
    const what = seed === undefined ? `New ${w}×${h} game.` : `Today's ${w}×${h} scramble, the same for everyone.`;
    say(`${note}${what} The clock starts at your first move.${offline}`, note || offline ? "warn" : "");
    await started;
  }

  /** Starts a game; `kind` says whether its solve is kept (random, daily, challenge). */
  async start(w, h, tiles, kind = "loaded") {
    this.kind = kind;
    this.game.newGame(w, h, tiles);
    this.showSize(w, h);
    store.set("size", `${w}x${h}`);
    await this.pictures.apply();
  }

  refresh() {
    const game = this.game;
    $("moves").textContent = game.moveCount.toLocaleString("en");
    $("timer").textContent = clock(game.time());
    $("undo").disabled = game.cursor === 0;
    $("redo").disabled = game.cursor >= game.history.length;
    const size = `${game.w}x${game.h}`;
    $("best-size").textContent = size;
    const best = this.stats.summary(size).bestTime;
    $("best").textContent = best === null ? "—" : clock(best);
  }

  key(e) {
    const target = e.target;
    const typing = target.closest && target.closest("input:not([type=checkbox]):not([type=range]), select, textarea");
    if ((e.ctrlKey || e.metaKey) && !typing) {
      if (e.key === "z" && !e.shiftKey) {
        this.game.undo();
        e.preventDefault();
      } else if (e.key === "y" || (e.key.toLowerCase() === "z" && e.shiftKey)) {
        this.game.redo();
        e.preventDefault();
      }
      return;
    }
    if (typing || e.altKey || e.ctrlKey || e.metaKey) return;
    if (target.type === "range" && e.key.startsWith("Arrow")) return;
    if (document.querySelector('section.view[data-view="play"]').hidden) return;
    const action = { h: "hint", g: "solve", n: "randomize" }[e.key.toLowerCase()];
    if (action) {
      e.preventDefault();
      $(action).click();
      return;
    }
    let letter = KEYS[e.key];
    if (!letter) return;
    if ($("keys").value === "blank") letter = puzzle.INVERSE[letter];
    e.preventDefault();
    if (!this.game.play([letter])) say("The blank is at the edge: no tile can move that way.", "warn");
  }
}
