// The page's composition root: builds the model (Game, Stats), the transport, and the
// controllers beside this file, wires them together and starts. Each controller owns its
// controls; nothing here handles an event itself.

import * as puzzle from "./puzzle.js";
import { $, store } from "./helpers.js";
import { Game } from "./game.js";
import { Stats } from "./stats.js";
import { Transport } from "./transport.js";
import { GameController } from "./game-controller.js";
import { PictureController } from "./picture-controller.js";
import { SolverController } from "./solver-controller.js";
import { ResultsController } from "./results-controller.js";
import { ShareController } from "./share-controller.js";
import { SearchController } from "./search-controller.js";
import { showView, embed } from "./views.js";

const game = new Game($("board"));
const stats = new Stats();
const transport = new Transport({
  root: $("player"),
  back: $("step-back"),
  play: $("play"),
  forward: $("step-forward"),
  stop: $("stop"),
  count: $("step-count"),
  bar: $("progress-bar"),
  speed: $("speed"),
  speedOut: $("speed-out"),
  text: $("play-text"),
  icon: $("play-path"),
});
const pictures = new PictureController(game);
const games = new GameController(game, pictures, stats);
const solver = new SolverController(game, transport);
const results = new ResultsController(game, games, solver, stats);
const share = new ShareController(game, games, pictures, solver, results);
const search = new SearchController();
transport.speedChanged(); // the board's slide time follows the playback speed from the start

showView("play");
if (!embed(search) && !share.fromHash()) {
  const [w, h] = String(store.get("size", "4x4")).split("x").map(Number);
  const ok = w >= puzzle.MIN_SIDE && h >= puzzle.MIN_SIDE && w <= puzzle.MAX_SIDE && h <= puzzle.MAX_SIDE;
  games.start(ok ? w : 4, ok ? h : 4, puzzle.goal(ok ? w : 4, ok ? h : 4));
  games.randomize();
}
results.showStats();
document.documentElement.dataset.ready = "true";
