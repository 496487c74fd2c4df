// Positions in and out: Load (a board, or a scramble and a solution in the speed-solvers'
// notation), paste, Copy position, Export solve, Share link, and the page's address
// (#board=..., #challenge=...&t=...&m=..., #picture=...).

import * as puzzle from "./puzzle.js";
import { $, clock, say } from "./helpers.js";

async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export class ShareController {
  constructor(game, games, pictures, solver, results) {
    this.game = game;
    this.games = games;
    this.pictures = pictures;
    this.solver = solver;
    this.results = results;
    this.lastHash = "";
    this.bind();
  }

  /** Loads "BOARD" or "BOARD | MOVES"; the moves go on the transport. */
  load(text, origin, kind = "loaded") {
    const [boardText, movesText] = String(text).split("|");
    let parsed;
    try {
      parsed = puzzle.parse(boardText);
    } catch (error) {
      say(`That position cannot be read: ${error.message}.`, "error");
      return false;
    }
    if (!puzzle.isSolvable(parsed.w, parsed.h, parsed.tiles)) {
      say(`That ${parsed.w}×${parsed.h} position cannot reach the goal (swap two tiles to fix it).`, "error");
      return false;
    }
    const moves = movesText ? puzzle.parseMoves(movesText) : [];
    if (moves.length) {
      const tiles = parsed.tiles.slice();
      const bad = moves.findIndex((m) => !puzzle.apply(parsed.w, parsed.h, tiles, m));
      if (bad >= 0) {
        say(`Move ${bad + 1} (${moves[bad]}) of that solution is not legal there.`, "error");
        return false;
      }
    }
    this.games.start(parsed.w, parsed.h, parsed.tiles, kind).then(() => {
      if (moves.length) {
        this.solver.playMoves(moves, "solver");
        this.solver.transport.pause();
      }
    });
    say(`Loaded ${origin}: ${parsed.w}×${parsed.h}${moves.length ? `, with ${moves.length} moves to play (press Play)` : ""}.`);
    return true;
  }

  bind() {
    // Pasting a position anywhere on the page (outside a text field) loads it.
    document.addEventListener("paste", (e) => {
      if (e.target.closest && e.target.closest("input, textarea, select")) return;
      const text = e.clipboardData && e.clipboardData.getData("text");
      if (text && /\d/.test(text)) {
        e.preventDefault();
        $("position").value = text.trim();
        this.load(text, "the pasted position");
      }
    });
    $("load").addEventListener("click", () => this.load($("position").value, "the position"));
    $("position").addEventListener("keydown", (e) => {
      if (e.key === "Enter") this.load($("position").value, "the position");
    });
    $("copy").addEventListener("click", async () => {
      const board = this.game.notation;
      $("position").value = board;
      const ok = await copy(board);
      say(ok ? `Copied ${board}` : "Select the position above and copy it.");
      if (!ok) $("position").select();
    });
    $("export").addEventListener("click", async () => {
      const game = this.game;
      const text = `${puzzle.format(game.w, game.start)} | ${puzzle.compact(game.played().moves)}`;
      $("position").value = text;
      const ok = await copy(text);
      say(ok ? "Copied the scramble and your moves." : "The scramble and your moves are in the Position field.");
    });
    $("share").addEventListener("click", async () => {
      const board = puzzle.format(this.game.w, this.game.tiles).replaceAll(" ", ",");
      history.replaceState(null, "", `#board=${board}&picture=${encodeURIComponent(this.pictures.shareable)}`);
      this.lastHash = location.hash;
      const ok = await copy(location.href);
      const note = this.pictures.choice === "own" ? " (your own picture stays on this device)" : "";
      say(ok ? `Link copied${note}.` : `The link is in the address bar${note}.`, "good");
    });
    window.addEventListener("hashchange", () => this.fromHash());
  }

  /** Reads the address: a shared board or a challenge. True when it started a game. */
  fromHash() {
    if (location.hash === this.lastHash) return false;
    this.lastHash = location.hash;
    const params = new URLSearchParams(location.hash.slice(1));
    const picture = params.get("picture");
    if (picture) this.pictures.choice = picture;
    const challenge = params.get("challenge");
    if (challenge) {
      const time = Number(params.get("t")), moves = Number(params.get("m"));
      this.results.challenge = time > 0 && moves > 0 ? { time, moves } : null;
      const ok = this.load(challenge, "a challenge", "challenge");
      if (ok && this.results.challenge) say(`A challenge: beat ${clock(time)} and ${moves} moves. The clock starts at your first move.`);
      return ok;
    }
    this.results.challenge = null;
    const board = params.get("board");
    if (board) return this.load(board, "the shared position");
    if (picture) this.pictures.apply();
    return false;
  }
}
