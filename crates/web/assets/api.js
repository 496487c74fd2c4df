// The server's API (see the crate docs): scramble, solve and hint. Every call returns the
// parsed JSON or throws an Error carrying the server's one-line reason.

async function call(path, init) {
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new Error("the server cannot be reached");
  }
  let body = null;
  try {
    body = await response.json();
  } catch {
    // A proxy's HTML error page, say: fall through to the status.
  }
  if (!response.ok) {
    const retry = response.headers.get("Retry-After");
    const reason = body && body.error ? body.error : `the server answered ${response.status}`;
    const error = new Error(reason);
    error.status = response.status;
    if (retry) error.retryAfter = Number(retry);
    throw error;
  }
  return body;
}

/** A uniformly random solvable board of `w`x`h`: `{board, size, goal, seed, solvable}`. */
export function scramble(w, h, seed) {
  const query = new URLSearchParams({ size: `${w}x${h}` });
  if (seed !== undefined) query.set("seed", String(seed));
  return call(`/api/scramble?${query}`);
}

/** The record of `npuzzle solve --format json` for `request` ({board, algorithm, ...}). */
export function solve(request, signal) {
  return call("/api/solve", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(request),
    signal,
  });
}

/** Stops the solve named `id`: its own request then answers with the best solution so far. */
export function stopSolve(id) {
  return call(`/api/solve/${encodeURIComponent(id)}/stop`, { method: "POST" });
}

/**
 * What the solve named `id` has found and proved so far: `{running, seconds, lower_bound, best,
 * expanded}` (`best`: the length of its shortest answer yet, or null). Throws (404) when no solve
 * of that name runs: it ended, or waits for a worker still.
 */
export function solveProgress(id) {
  return call(`/api/solve/${encodeURIComponent(id)}`);
}

/** A fresh name for a solve (128 random bits in hex; works on plain http too). */
export function solveId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The next move and the distance: `{move, tile, distance, optimal, ...}`. Given an `id` (see
 * `solveId`), `solveProgress(id)` tells what the hint's solve has found so far while it runs.
 */
export function hint(board, signal, id) {
  return solve(id ? { board, mode: "hint", id } : { board, mode: "hint" }, signal);
}
