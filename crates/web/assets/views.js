// The page's views (Play, Watch a search) and the embed mode: a URL such as
// `/#embed&board=8,6,7/2,5,4/3,0,1&algorithm=astar&heuristic=manhattan&pace=5` shows only the
// visualizer with that search, for slides and course pages.

export function showView(name) {
  document.querySelectorAll("section.view").forEach((s) => (s.hidden = s.dataset.view !== name));
  document.querySelectorAll("nav.tabs .tab").forEach((t) => {
    if (t.dataset.view === name) t.setAttribute("aria-current", "page");
    else t.removeAttribute("aria-current");
  });
  document.dispatchEvent(new CustomEvent("view", { detail: name }));
}

document.querySelectorAll("nav.tabs .tab").forEach((t) => t.addEventListener("click", () => showView(t.dataset.view)));
// One view needs no tabs; a second view (a <section class="view"> and its tab) shows them.
document.querySelector("nav.tabs").hidden = document.querySelectorAll("nav.tabs .tab").length < 2;

/** Starts the embed mode when the address asks for it; true when it did. */
export function embed(search) {
  const params = new URLSearchParams(location.hash.slice(1));
  if (!params.has("embed")) return false;
  document.documentElement.classList.add("embed");
  showView("search");
  search.embed({
    board: (params.get("board") || "").replaceAll(",", " "),
    algorithm: params.get("algorithm") || "astar",
    heuristic: params.get("heuristic") || "manhattan",
    weight: params.get("weight") || "2",
    pace: params.get("pace"),
  });
  return true;
}
