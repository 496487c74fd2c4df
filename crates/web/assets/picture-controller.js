// The picture on the tiles: the built-in ones, the player's own (picker or drop), the
// numbers on top, and a busy state while a picture is drawn (the first takes about a second).

import * as pictures from "./pictures.js";
import { $, store, say } from "./helpers.js";

export class PictureController {
  constructor(game) {
    this.game = game;
    this.own = null;
    this.choice = store.get("picture", "alpine");
    this.ticket = 0;
    $("numbers").checked = store.get("numbers", true);
    this.fill();
    this.bind();
  }

  fill() {
    const select = $("picture");
    select.replaceChildren();
    const add = (value, text) => select.append(new Option(text, value));
    add("numbers", "Numbers only");
    pictures.PICTURES.forEach((p) => add(p.id, p.name));
    if (this.own) add("own", "Your picture");
    select.value = this.choice;
  }

  /** Draws the chosen picture for the game's shape and puts it on the tiles. */
  async apply() {
    if (this.choice === "own" && !this.own) this.choice = "alpine";
    if (!pictures.PICTURES.some((p) => p.id === this.choice) && this.choice !== "own") this.choice = "numbers";
    $("picture").value = this.choice;
    const { w, h } = this.game;
    const ticket = ++this.ticket;
    const busy = this.choice !== "numbers";
    const wrap = $("board-wrap");
    if (busy) {
      wrap.setAttribute("aria-busy", "true");
      $("next-picture").setAttribute("aria-busy", "true");
    }
    let url = null;
    try {
      if (this.choice === "own") url = await pictures.cropped(this.own, w, h);
      else if (this.choice !== "numbers") url = await pictures.builtIn(this.choice, w, h);
    } finally {
      if (ticket === this.ticket) {
        wrap.removeAttribute("aria-busy");
        $("next-picture").removeAttribute("aria-busy");
      }
    }
    if (ticket !== this.ticket) return;
    this.game.setPicture(url, $("numbers").checked);
    const preview = $("preview");
    preview.hidden = !url;
    if (url) {
      preview.src = url;
      preview.style.aspectRatio = `${w} / ${h}`;
    }
    $("numbers").disabled = !url;
  }

  choose(choice) {
    this.choice = choice;
    if (choice !== "own") store.set("picture", choice);
    return this.apply();
  }

  /** What a share link can carry (the player's own picture stays on this device). */
  get shareable() {
    return this.choice === "own" ? "numbers" : this.choice;
  }

  async useOwn(file) {
    try {
      this.own = await pictures.loadImage(file);
      this.fill();
      await this.choose("own");
      say("Your picture is on the tiles. Randomize to play it.");
    } catch (error) {
      say(`Could not use that picture: ${error.message}.`, "error");
    }
  }

  bind() {
    $("picture").addEventListener("change", (e) => this.choose(e.target.value));
    $("numbers").addEventListener("change", () => {
      store.set("numbers", $("numbers").checked);
      this.game.setPicture(this.game.picture, $("numbers").checked);
    });
    $("next-picture").addEventListener("click", () => {
      const cycle = pictures.PICTURES.map((p) => p.id).concat(this.own ? ["own"] : []);
      this.choose(cycle[(cycle.indexOf(this.choice) + 1) % cycle.length]);
    });
    $("own-picture").addEventListener("change", (e) => {
      if (e.target.files[0]) this.useOwn(e.target.files[0]);
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
      if (file) this.useOwn(file);
    });
  }
}
