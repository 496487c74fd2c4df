//! `GET /api/scramble?size=4x4&seed=...&goal=...`: a uniformly random solvable board.

use std::time::{SystemTime, UNIX_EPOCH};

use axum::Json;
use npuzzle_core::{Goal, Scrambler, Size};
use serde::{Deserialize, Serialize};

use crate::error::{AppError, AppQuery};

/// The query of `GET /api/scramble`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScrambleQuery {
    /// `WxH`, width first (default `4x4`).
    pub size: Option<String>,
    /// The seed; the same seed gives the same board (default: from the clock).
    pub seed: Option<u64>,
    /// `blank-last` (default), `blank-first`, `snail` or a board.
    pub goal: Option<String>,
}

/// The answer of `GET /api/scramble`: the fields of `npuzzle scramble --format json`.
#[derive(Debug, Serialize)]
pub struct Scrambled {
    /// The board, inline form.
    pub board: String,
    /// `WxH`.
    pub size: String,
    /// The goal's name, or its inline form.
    pub goal: String,
    /// The seed that made it.
    pub seed: u64,
    /// Always true: the board can reach the goal.
    pub solvable: bool,
}

/// `GET /api/scramble`.
pub async fn handler(
    AppQuery(query): AppQuery<ScrambleQuery>,
) -> Result<Json<Scrambled>, AppError> {
    let size: Size = query
        .size
        .as_deref()
        .unwrap_or("4x4")
        .parse()
        .map_err(|err| AppError::bad_request(format!("invalid size: {err}")))?;
    let goal_spec = match &query.goal {
        None => Goal::BlankLast,
        Some(text) => text.parse::<Goal>().map_err(|err| AppError::bad_request(err.to_string()))?,
    };
    let goal = goal_spec.board(size).map_err(|err| AppError::bad_request(err.to_string()))?;
    let seed = query.seed.unwrap_or_else(clock_seed);
    let board = Scrambler::new(seed).solvable(&goal);
    Ok(Json(Scrambled {
        solvable: board.is_solvable(&goal),
        board: board.to_string(),
        size: size.to_string(),
        goal: goal_spec.to_string(),
        seed,
    }))
}

/// A seed from the clock, below 2^53 so that JavaScript's numbers keep it exact.
fn clock_seed() -> u64 {
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    // Two requests in the same tick still differ: mix in a counter.
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    ((nanos as u64) ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15)) & ((1 << 53) - 1)
}
