// The page: wires the controls to the game, the server's API, pictures, playback of
// solutions, the share link and the best times kept in this browser.

import * as puzzle from "./puzzle.js";
import * as api from "./api.js";
import * as pictures from "./pictures.js";
import { Game } from "./game.js";
import "./search.js";

const $ = (id) => document.getElementById(id);
const game = new Game($("board"));
const store = {
  get(key, fallback) {
    try {
      const v = localStorage.getItem(`npuzzle.${key}`);
      return v === null ? fallback : JSON.parse(v);
    } catch {
      return fallback;
    }
  },
  set(key, value) {
    try {
      localStorage.setItem(`npuzzle.${key}`, JSON.stringify(value));
    } catch {
      // Private mode or full storage: the page works without it.
    }
  },
};

// ---- status line -----------------------------------------------------------------------

function say(text, tone = "") {
  const el = $("status");
  el.textContent = text;
  el.dataset.tone = tone;
}

function clock(ms) {
  const tenths = Math.floor(ms / 100);
  const m = Math.floor(tenths / 600);
  const s = Math.floor((tenths % 600) / 10);
  return `${m}:${String(s).padStart(2, "0")}.${tenths % 10}`;
}

const DIRECTION = { U: "up", D: "down", L: "left", R: "right" };
const plural = (n, word) => `${n.toLocaleString("en")} ${word}${n === 1 ? "" : "s"}`;

// ---- views (tabs) ----------------------------------------------------------------------

function showView(name) {
  document.querySelectorAll("section.view").forEach((s) => (s.hidden = s.dataset.view !== name));
  document.querySelectorAll("nav.tabs .tab").forEach((t) => {
    if (t.dataset.view === name) t.setAttribute("aria-current", "page");
    else t.removeAttribute("aria-current");
  });
}
document.querySelectorAll("nav.tabs .tab").forEach((t) => t.addEventListener("click", () => showView(t.dataset.view)));
// One view needs no tabs; a second view (a <section class="view"> and its tab) shows them.
document.querySelector("nav.tabs").hidden = document.querySelectorAll("nav.tabs .tab").length < 2;

// ---- new games -------------------------------------------------------------------------

function sizeOf() {
  const choice = $("size").value;
  if (choice !== "custom") return choice.split("x").map(Number);
  const clamp = (v) => Math.min(puzzle.MAX_SIDE, Math.max(puzzle.MIN_SIDE, Math.round(Number(v) || 0)));
  return [clamp($("width").value), clamp($("height").value)];
}

function showSize(w, h) {
  const preset = w === h && w >= 3 && w <= 8 ? `${w}x${h}` : "custom";
  $("size").value = preset;
  $("custom-size").hidden = preset !== "custom";
  $("width").value = w;
  $("height").value = h;
}

let scrambleRequest = 0;
async function randomize() {
  const [w, h] = sizeOf();
  const ticket = ++scrambleRequest;
  stopPlayback();
  let tiles;
  try {
    const answer = await api.scramble(w, h);
    tiles = puzzle.parse(answer.board).tiles;
  } catch (error) {
    // The game still works offline: shuffle here, as uniformly as the server would.
    tiles = puzzle.shuffle(w, h);
    say(`Shuffled in the browser (${error.message}).`, "warn");
  }
  if (ticket !== scrambleRequest) return;
  start(w, h, tiles, true);
  say(`New ${w}×${h} game. The clock starts at your first move.`);
}

/** Starts a game; only `ranked` ones (random boards) can set best times. */
let ranked = false;
async function start(w, h, tiles, isRandom = false) {
  stopPlayback();
  clearSolution();
  $("celebrate").hidden = true;
  ranked = isRandom;
  game.newGame(w, h, tiles);
  showSize(w, h);
  store.set("size", `${w}x${h}`);
  await applyPicture();
}

// ---- pictures --------------------------------------------------------------------------

let ownImage = null;
let pictureChoice = store.get("picture", "alpine");

function fillPictureChoices() {
  const select = $("picture");
  select.replaceChildren();
  const add = (value, text) => {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = text;
    select.append(o);
  };
  add("numbers", "Numbers only");
  pictures.PICTURES.forEach((p) => add(p.id, p.name));
  if (ownImage) add("own", "Your picture");
  select.value = pictureChoice;
}

async function applyPicture() {
  if (pictureChoice === "own" && !ownImage) pictureChoice = "alpine";
  if (!pictures.PICTURES.some((p) => p.id === pictureChoice) && pictureChoice !== "own") pictureChoice = "numbers";
  $("picture").value = pictureChoice;
  const { w, h } = game;
  let url = null;
  if (pictureChoice === "own") url = await pictures.cropped(ownImage, w, h);
  else if (pictureChoice !== "numbers") url = await pictures.builtIn(pictureChoice, w, h);
  game.setPicture(url, $("numbers").checked);
  const preview = $("preview");
  preview.hidden = !url;
  if (url) {
    preview.src = url;
    preview.style.aspectRatio = `${w} / ${h}`;
  }
  $("numbers").disabled = !url;
}

function choosePicture(choice) {
  pictureChoice = choice;
  if (choice !== "own") store.set("picture", choice);
  applyPicture();
}

$("picture").addEventListener("change", (e) => choosePicture(e.target.value));
$("numbers").addEventListener("change", () => {
  store.set("numbers", $("numbers").checked);
  game.setPicture(game.picture, $("numbers").checked);
});
$("next-picture").addEventListener("click", () => {
  const cycle = pictures.PICTURES.map((p) => p.id).concat(ownImage ? ["own"] : []);
  const at = cycle.indexOf(pictureChoice);
  choosePicture(cycle[(at + 1) % cycle.length]);
});

async function useOwnPicture(file) {
  try {
    ownImage = await pictures.loadImage(file);
    fillPictureChoices();
    choosePicture("own");
    say("Your picture is on the tiles. Randomize to play it.");
  } catch (error) {
    say(`Could not use that picture: ${error.message}.`, "error");
  }
}
$("own-picture").addEventListener("change", (e) => {
  if (e.target.files[0]) useOwnPicture(e.target.files[0]);
  e.target.value = "";
});
const wrap = $("board-wrap");
wrap.addEventListener("dragover", (e) => {
  e.preventDefault();
  wrap.classList.add("dropping");
});
wrap.addEventListener("dragleave", () => wrap.classList.remove("dropping"));
wrap.addEventListener("drop", (e) => {
  e.preventDefault();
  wrap.classList.remove("dropping");
  const file = e.dataTransfer && e.dataTransfer.files[0];
  if (file) useOwnPicture(file);
});

// ---- scoreboard ------------------------------------------------------------------------

function bests() {
  return store.get("best", {});
}

function showBest() {
  const key = `${game.w}x${game.h}`;
  $("best-size").textContent = key;
  const best = bests()[key];
  $("best").textContent = best ? `${clock(best.time)} · ${best.moves}` : "—";
}

function refresh() {
  $("moves").textContent = game.moveCount.toLocaleString("en");
  $("timer").textContent = clock(game.time());
  $("undo").disabled = game.cursor === 0;
  $("redo").disabled = game.cursor >= game.history.length;
  $("position").placeholder = game.notation;
  showBest();
}
setInterval(() => {
  if (game.startedAt) $("timer").textContent = clock(game.time());
}, 100);

function unwin() {
  $("celebrate").hidden = true;
  $("board-wrap").classList.remove("won");
}
game.addEventListener("newgame", () => {
  unwin();
  refresh();
});
for (const kind of ["move", "undo", "redo"]) {
  game.addEventListener(kind, (e) => {
    if (!game.solved) unwin();
    refresh();
    if (e.detail.by === "player") {
      if (playback) stopPlayback(`You took over at move ${playback.index} of ${playback.moves.length}.`);
      clearSolution();
      if (hintAbort) hintAbort.abort();
    }
  });
}
game.addEventListener("blocked", () => say("That tile is not in the blank's row or column.", "warn"));

game.addEventListener("solved", (e) => {
  const { time, moves, assisted } = e.detail;
  const key = `${game.w}x${game.h}`;
  const all = bests();
  const old = all[key];
  let record = "";
  if (!assisted && ranked) {
    const best = { time: Math.min(time, old ? old.time : Infinity), moves: Math.min(moves, old ? old.moves : Infinity) };
    if (!old || time < old.time) record = "New best time!";
    else if (moves < old.moves) record = "Fewest moves yet!";
    all[key] = best;
    store.set("best", all);
  }
  const text = assisted
    ? `${plural(moves, "move")} with help — solve one on your own to set a best time.`
    : `${clock(time)} · ${plural(moves, "move")}. ${ranked ? record : "(Best times are kept for random boards.)"}`;
  $("celebrate-text").textContent = text;
  $("celebrate").hidden = false;
  $("board-wrap").classList.add("won");
  say(`Solved! ${text}`, "good");
  refresh();
});
$("celebrate-again").addEventListener("click", () => randomize());

// ---- game controls ---------------------------------------------------------------------

$("randomize").addEventListener("click", randomize);
$("reset").addEventListener("click", () => {
  stopPlayback();
  clearSolution();
  $("celebrate").hidden = true;
  game.reset();
  say("Back to the starting position.");
});
$("undo").addEventListener("click", () => game.undo());
$("redo").addEventListener("click", () => game.redo());
$("size").addEventListener("change", () => {
  const custom = $("size").value === "custom";
  $("custom-size").hidden = !custom;
  if (!custom) randomize();
});
$("custom-apply").addEventListener("click", randomize);

const KEYS = { ArrowUp: "U", ArrowDown: "D", ArrowLeft: "L", ArrowRight: "R", w: "U", s: "D", a: "L", d: "R", W: "U", S: "D", A: "L", D: "R" };
document.addEventListener("keydown", (e) => {
  const target = e.target;
  const typing = target.closest && target.closest("input:not([type=checkbox]):not([type=range]), select, textarea");
  if ((e.ctrlKey || e.metaKey) && !typing) {
    if (e.key === "z" && !e.shiftKey) {
      game.undo();
      e.preventDefault();
    } else if (e.key === "y" || (e.key.toLowerCase() === "z" && e.shiftKey)) {
      game.redo();
      e.preventDefault();
    }
    return;
  }
  if (typing || e.altKey || e.ctrlKey || e.metaKey || $("celebrate").hidden === false && e.key === "Enter") return;
  if (target.type === "range" && e.key.startsWith("Arrow")) return;
  let letter = KEYS[e.key];
  if (!letter) return;
  if ($("keys").value === "blank") letter = puzzle.INVERSE[letter];
  e.preventDefault();
  if (!game.play([letter])) say("The blank is at the edge: no tile can move that way.", "warn");
});

// ---- hint ------------------------------------------------------------------------------

let hintAbort = null;
$("hint").addEventListener("click", async () => {
  if (game.solved) {
    say("The board is already solved.");
    return;
  }
  if (hintAbort) hintAbort.abort();
  const abort = (hintAbort = new AbortController());
  const board = game.notation;
  say("Looking for the best move…");
  $("hint").setAttribute("aria-busy", "true");
  try {
    const answer = await api.hint(board, abort.signal);
    if (board !== game.notation) return;
    if (answer.status !== "solved" || !answer.move) {
      say(`No hint: ${answer.error || answer.status}.`, "warn");
      return;
    }
    game.assisted = true;
    game.showHint(answer.tile);
    const move = `slide tile ${answer.tile} ${DIRECTION[answer.move]}`;
    if (answer.optimal) say(`Optimal distance ${answer.distance}: ${move}.`, "good");
    else say(`${move[0].toUpperCase()}${move.slice(1)} — about ${plural(answer.distance, "move")} to go (not optimal: ${answer.algorithm}).`);
  } catch (error) {
    if (error.name !== "AbortError") say(`No hint: ${error.message}.`, "error");
    // Aborted by a move (not by a newer hint, which has its own message): clear ours.
    else if (hintAbort === abort) say("");
  } finally {
    if (hintAbort === abort) hintAbort = null;
    $("hint").removeAttribute("aria-busy");
  }
});

// ---- solve and playback ----------------------------------------------------------------

let solveAbort = null;
let playback = null; // {moves, index, timer}

function speed() {
  return Number($("speed").value);
}
$("speed").addEventListener("input", () => {
  $("speed-out").textContent = `${speed()} moves/s`;
  $("board").style.setProperty("--slide", `${Math.min(140, Math.round(800 / speed()))}ms`);
  if (playback && playback.timer) {
    pause();
    play();
  }
});

function clearSolution() {
  if (solveAbort) solveAbort.abort();
  playback = null;
  showPlayback();
}

function showPlayback() {
  const has = Boolean(playback);
  const index = has ? playback.index : 0;
  const total = has ? playback.moves.length : 0;
  $("step-back").disabled = !has || index === 0;
  $("step-forward").disabled = !has || index >= total;
  $("play").disabled = !has || (index >= total && !playback.timer);
  const playing = has && Boolean(playback.timer);
  $("play-text").textContent = playing ? "Pause" : "Play";
  $("play-path").setAttribute("d", playing ? "M6 4h4v16H6zM14 4h4v16h-4z" : "M6 4l14 8-14 8V4z");
  $("step-count").textContent = `${index} / ${total}`;
  $("progress-bar").style.width = total ? `${(100 * index) / total}%` : "0%";
  $("player").classList.toggle("active", has);
}

function stepForward() {
  if (!playback || playback.index >= playback.moves.length) return false;
  game.play([playback.moves[playback.index]], "solver");
  playback.index++;
  if (playback.index >= playback.moves.length) {
    pause();
    say(`Solved by the solver in ${plural(playback.moves.length, "move")}.`, "good");
  }
  showPlayback();
  return true;
}

function stepBack() {
  if (!playback || playback.index === 0) return;
  pause();
  game.undo("solver");
  playback.index--;
  showPlayback();
}

function play() {
  if (!playback || playback.timer) return;
  if (playback.index >= playback.moves.length) return;
  playback.timer = setInterval(stepForward, 1000 / speed());
  showPlayback();
}

function pause() {
  if (playback && playback.timer) {
    clearInterval(playback.timer);
    playback.timer = null;
  }
  showPlayback();
}

function stopPlayback(message) {
  if (!playback) return;
  pause();
  playback = null;
  showPlayback();
  if (message) say(message);
}

$("play").addEventListener("click", () => (playback && playback.timer ? pause() : play()));
$("step-forward").addEventListener("click", () => {
  pause();
  stepForward();
});
$("step-back").addEventListener("click", stepBack);

function solveLabel(busy) {
  $("solve-text").textContent = busy ? "Cancel" : "Solve";
  $("solve").setAttribute("aria-busy", String(busy));
}

$("solve").addEventListener("click", async () => {
  if (solveAbort) {
    solveAbort.abort();
    return;
  }
  if (game.solved) {
    say("The board is already solved.");
    return;
  }
  stopPlayback();
  const abort = (solveAbort = new AbortController());
  const board = game.notation;
  const algorithm = $("algorithm").value;
  const heuristic = $("heuristic").value;
  solveLabel(true);
  say(`Solving with ${$("algorithm").selectedOptions[0].text}…`);
  $("solve-note").textContent = "";
  try {
    const record = await api.solve({ board, algorithm, heuristic }, abort.signal);
    if (board !== game.notation) {
      say("The board changed while the solver worked: press Solve again.");
      return;
    }
    const effort = `${record.algorithm}${record.heuristic ? ` + ${record.heuristic}` : ""}, ${plural(record.expanded, "node")}, ${formatSeconds(record.seconds)}`;
    $("solve-note").textContent = effort;
    if (record.status !== "solved") {
      say(`${record.status === "limit" ? "Stopped at a limit" : "Unsolvable"}: ${record.error}`, "warn");
      return;
    }
    const moves = puzzle.parseMoves(record.moves);
    const kind = record.optimal ? "Optimal solution" : "Solution (not proven optimal)";
    say(`${kind}: ${plural(moves.length, "move")}. Playing it back — make any move to take over.`, "good");
    playback = { moves, index: 0, timer: null };
    showPlayback();
    play();
  } catch (error) {
    if (error.name === "AbortError") say("Solve cancelled.");
    else say(`Could not solve: ${error.message}${error.retryAfter ? ` (try again in ${error.retryAfter} s)` : ""}.`, "error");
  } finally {
    if (solveAbort === abort) solveAbort = null;
    solveLabel(false);
  }
});

function formatSeconds(s) {
  if (s < 0.001) return `${(s * 1e6).toFixed(0)} µs`;
  if (s < 1) return `${(s * 1000).toFixed(1)} ms`;
  return `${s.toFixed(2)} s`;
}

// ---- positions and the share link ------------------------------------------------------

function loadPosition(text, origin) {
  let parsed;
  try {
    parsed = puzzle.parse(text);
  } catch (error) {
    say(`That position cannot be read: ${error.message}.`, "error");
    return false;
  }
  if (!puzzle.isSolvable(parsed.w, parsed.h, parsed.tiles)) {
    say(`That ${parsed.w}×${parsed.h} position cannot reach the goal (swap two tiles to fix it).`, "error");
    return false;
  }
  start(parsed.w, parsed.h, parsed.tiles);
  say(`Loaded ${origin}: ${parsed.w}×${parsed.h}.`);
  return true;
}

// Pasting a position anywhere on the page (outside a text field) loads it.
document.addEventListener("paste", (e) => {
  if (e.target.closest && e.target.closest("input, textarea, select")) return;
  const text = e.clipboardData && e.clipboardData.getData("text");
  if (text && /\d/.test(text)) {
    e.preventDefault();
    $("position").value = text.trim();
    loadPosition(text, "the pasted position");
  }
});

$("load").addEventListener("click", () => loadPosition($("position").value, "the position"));
$("position").addEventListener("keydown", (e) => {
  if (e.key === "Enter") loadPosition($("position").value, "the position");
});

async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

$("copy").addEventListener("click", async () => {
  $("position").value = game.notation;
  const ok = await copy(game.notation);
  say(ok ? `Copied ${game.notation}` : "Select the position above and copy it.");
  if (!ok) $("position").select();
});

function shareHash() {
  const board = puzzle.format(game.w, game.tiles).replaceAll(" ", ",");
  const picture = pictureChoice === "own" ? "numbers" : pictureChoice;
  return `#board=${board}&picture=${encodeURIComponent(picture)}`;
}

$("share").addEventListener("click", async () => {
  const hash = shareHash();
  history.replaceState(null, "", hash);
  lastHash = location.hash;
  const ok = await copy(location.href);
  const note = pictureChoice === "own" ? " (your own picture stays on this device)" : "";
  say(ok ? `Link copied${note}.` : `The link is in the address bar${note}.`, "good");
});

let lastHash = "";
function fromHash() {
  if (location.hash === lastHash) return false;
  lastHash = location.hash;
  const params = new URLSearchParams(location.hash.slice(1));
  const picture = params.get("picture");
  if (picture) pictureChoice = picture;
  const board = params.get("board");
  if (board) return loadPosition(board, "the shared position");
  if (picture) applyPicture();
  return false;
}
window.addEventListener("hashchange", fromHash);

// ---- start -----------------------------------------------------------------------------

$("numbers").checked = store.get("numbers", true);
fillPictureChoices();
$("speed").dispatchEvent(new Event("input"));
showPlayback();
showView("play");
if (!fromHash()) {
  const [w, h] = String(store.get("size", "4x4")).split("x").map(Number);
  const ok = w >= puzzle.MIN_SIDE && h >= puzzle.MIN_SIDE && w <= puzzle.MAX_SIDE && h <= puzzle.MAX_SIDE;
  showSize(ok ? w : 4, ok ? h : 4);
  game.newGame(ok ? w : 4, ok ? h : 4, puzzle.goal(ok ? w : 4, ok ? h : 4));
  applyPicture();
  randomize();
}
document.documentElement.dataset.ready = "true";
