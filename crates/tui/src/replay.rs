//! A playback on a transport: a solution played move by move from its start, with play and
//! pause, a step either way, a speed and the progress.
//!
//! Every playback in the game is a [`Replay`]: the solver's solution after `s`, your own
//! solve at its real speed, and the optimal solution beside it. It owns its position and its
//! timing, and knows nothing of the screen: the caller passes the time in
//! ([`Replay::advance`]) and mirrors the moves it gets back. A replay is only ever made of
//! moves that reach the goal from the start ([`Replay::steady`] and [`Replay::recorded`]
//! check it), so whatever the transport does, the position it shows is one of the
//! solution's.

use std::time::{Duration, Instant};

use npuzzle_core::{Board, Move};

/// Steady playback speeds, in moves per second. The fast ones are for the long, non-optimal
/// solutions of large boards.
pub const SPEEDS: [u32; 13] = [1, 2, 3, 5, 8, 12, 20, 30, 60, 120, 250, 500, 1000];
/// The steady speed a game starts with (an index into [`SPEEDS`]): 5 moves a second.
pub const DEFAULT_SPEED: usize = 3;
/// Rates of a recorded playback, in quarters of the real speed: ¼×, ½×, 1×, 2×, 4×, 8×, 16×.
const RATES: [u32; 7] = [1, 2, 4, 8, 16, 32, 64];
/// The rate a recorded playback starts at: the real speed.
const REAL_SPEED: usize = 2;
/// The pause before the first move of a recorded playback, so the eye finds the board.
const LEAD: Duration = Duration::from_millis(400);
/// The fastest steady playback whose tiles are drawn sliding (moves per second).
pub const MAX_SLIDING_SPEED: u32 = 12;
/// The most moves one call to [`Replay::advance`] makes: a playback that fell far behind
/// (a stalled machine) picks up from now instead of rushing to catch up.
const MAX_STEPS_PER_ADVANCE: usize = 100;

/// What a playback plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// The solver's solution from the position where `s` was pressed, played on the game
    /// itself: its moves count as the game's, and a move of the player's takes over.
    Solver {
        /// Whether the solution is proven shortest.
        optimal: bool,
        /// The algorithm (and heuristic) that found it, for the panel.
        method: String,
    },
    /// The player's own solve, from the game's start, at its real speed.
    Yours,
    /// The solver's solution from the game's start, shown beside the player's.
    Best {
        /// Whether it is proven shortest.
        optimal: bool,
    },
}

impl Source {
    /// Whether the playback's moves are the game's own moves (true only for
    /// [`Source::Solver`]); the others are shown without touching the game.
    pub fn drives_the_game(&self) -> bool {
        matches!(self, Source::Solver { .. })
    }

    /// A few words for the panel.
    pub fn title(&self) -> &'static str {
        match self {
            Source::Solver { .. } => "Solution",
            Source::Yours => "Your solve",
            Source::Best { optimal: true } => "Optimal",
            Source::Best { optimal: false } => "Solver's",
        }
    }
}

/// How fast the moves come.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Pace {
    /// The same time between every two moves: `SPEEDS[i]` moves a second.
    Steady(usize),
    /// At the times the moves were made (`times[i]` is move `i`'s time since the first),
    /// sped up or slowed down by `RATES[rate] / 4`.
    Recorded { times: Vec<Duration>, rate: usize },
}

/// Why moves cannot be played back.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// Move number `at` (from 0) cannot be made from the position before it.
    #[error("move {} of the solution is illegal", at + 1)]
    Illegal {
        /// The move's index.
        at: usize,
    },
    /// Every move is legal, but the last position is not the goal.
    #[error("the solution does not reach the goal")]
    MissesGoal,
    /// A recorded playback needs one time per move.
    #[error("{times} times for {moves} moves")]
    Times {
        /// How many times there are.
        times: usize,
        /// How many moves there are.
        moves: usize,
    },
}

/// A solution on a transport.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    source: Source,
    start: Board,
    board: Board,
    moves: Vec<Move>,
    next: usize,
    paused: bool,
    pace: Pace,
    /// When the next move is due (meaningful while playing).
    due: Instant,
}

impl Replay {
    /// A playback of `moves` from `start` at `SPEEDS[speed]` moves a second, starting one
    /// interval after `now`.
    ///
    /// # Errors
    /// [`ReplayError`] when a move is illegal or the moves do not end at `goal`.
    pub fn steady(
        source: Source,
        start: &Board,
        moves: Vec<Move>,
        goal: &Board,
        speed: usize,
        now: Instant,
    ) -> Result<Replay, ReplayError> {
        let speed = speed.min(SPEEDS.len() - 1);
        Replay::new(source, start, moves, goal, Pace::Steady(speed), now)
    }

    /// A playback of `moves` from `start` at the times they were made (`times[i]` is when
    /// move `i` was made, counted from any fixed instant), at their real speed, starting a
    /// moment after `now`.
    ///
    /// # Errors
    /// As [`Replay::steady`], and [`ReplayError::Times`] when there is not one time per
    /// move.
    pub fn recorded(
        source: Source,
        start: &Board,
        moves: Vec<Move>,
        times: &[Duration],
        goal: &Board,
        now: Instant,
    ) -> Result<Replay, ReplayError> {
        if times.len() != moves.len() {
            return Err(ReplayError::Times { times: times.len(), moves: moves.len() });
        }
        // From the first move, never backwards (a clock adjusted under the game).
        let first = times.first().copied().unwrap_or_default();
        let mut last = Duration::ZERO;
        let times = times
            .iter()
            .map(|t| {
                last = last.max(t.saturating_sub(first));
                last
            })
            .collect();
        Replay::new(source, start, moves, goal, Pace::Recorded { times, rate: REAL_SPEED }, now)
    }

    fn new(
        source: Source,
        start: &Board,
        moves: Vec<Move>,
        goal: &Board,
        pace: Pace,
        now: Instant,
    ) -> Result<Replay, ReplayError> {
        let mut end = start.clone();
        for (at, &m) in moves.iter().enumerate() {
            end.apply(m).map_err(|_| ReplayError::Illegal { at })?;
        }
        if end != *goal {
            return Err(ReplayError::MissesGoal);
        }
        let mut playback = Replay {
            source,
            start: start.clone(),
            board: start.clone(),
            moves,
            next: 0,
            paused: false,
            pace,
            due: now,
        };
        playback.due = now + playback.gap();
        Ok(playback)
    }

    /// What is played.
    pub fn source(&self) -> &Source {
        &self.source
    }

    /// The position the playback started from.
    pub fn start(&self) -> &Board {
        &self.start
    }

    /// The position after the moves played so far.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Every move of the solution.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The solution's length.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether the solution has no moves.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// Moves played so far.
    pub fn played(&self) -> usize {
        self.next
    }

    /// Moves still to play.
    pub fn left(&self) -> usize {
        self.moves.len() - self.next
    }

    /// Whether every move has been played (the board is at the goal).
    pub fn finished(&self) -> bool {
        self.next == self.moves.len()
    }

    /// Whether the playback is paused.
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// The move the playback makes next.
    pub fn upcoming(&self) -> Option<Move> {
        self.moves.get(self.next).copied()
    }

    /// The speed for people: `5/s` for a steady playback, `1×` (the real speed), `2×`,
    /// `½×`... for a recorded one.
    pub fn speed_label(&self) -> String {
        match &self.pace {
            Pace::Steady(i) => format!("{}/s", SPEEDS[*i]),
            Pace::Recorded { rate, .. } => match RATES[*rate] {
                1 => "¼×".to_string(),
                2 => "½×".to_string(),
                quarters => format!("{}×", quarters / 4),
            },
        }
    }

    /// The steady speed's index in the table of speeds (1 to 1,000 moves a second; `None`
    /// for a recorded playback), so the game can remember the player's choice for the next
    /// one.
    pub fn steady_speed(&self) -> Option<usize> {
        match self.pace {
            Pace::Steady(i) => Some(i),
            Pace::Recorded { .. } => None,
        }
    }

    /// How long a tile that just moved may be drawn sliding: most of the time until the
    /// next move, so it arrives before the next one leaves; `None` when moves come too fast
    /// to see tiles slide.
    pub fn slide_time(&self) -> Option<Duration> {
        let gap = match &self.pace {
            Pace::Steady(i) if SPEEDS[*i] > MAX_SLIDING_SPEED => return None,
            Pace::Steady(i) => Duration::from_secs(1) / SPEEDS[*i],
            // A recorded playback has no steady gap: a quick slide that a burst of moves
            // can keep up with.
            Pace::Recorded { rate, .. } => Duration::from_millis(360) / RATES[*rate],
        };
        let slide = (gap * 2 / 3).min(Duration::from_millis(150));
        (slide >= Duration::from_millis(16)).then_some(slide)
    }

    /// Plays every move due by `now` (at most a hundred, then the playback picks up from
    /// `now`) and returns them in order; nothing while paused.
    pub fn advance(&mut self, now: Instant) -> Vec<Move> {
        let mut made = Vec::new();
        if self.paused {
            return made;
        }
        while made.len() < MAX_STEPS_PER_ADVANCE && now >= self.due {
            let Some(m) = self.forward() else { break };
            made.push(m);
            self.due += self.gap();
        }
        self.due = self.due.max(now);
        made
    }

    /// When the next move is due, while playing (`None` when paused or finished).
    pub fn due(&self) -> Option<Instant> {
        (!self.paused && !self.finished()).then_some(self.due)
    }

    /// Pauses or resumes; a resumed playback makes its next move one interval from `now`.
    pub fn toggle_pause(&mut self, now: Instant) {
        self.paused = !self.paused;
        self.due = now + self.gap();
    }

    /// Pauses and plays one move; returns it (`None` at the end).
    pub fn step_forward(&mut self) -> Option<Move> {
        self.paused = true;
        self.forward()
    }

    /// Pauses and takes one move back; returns the move taken back (`None` at the start).
    pub fn step_back(&mut self) -> Option<Move> {
        self.paused = true;
        let m = *self.moves.get(self.next.checked_sub(1)?)?;
        // The move was made from the position before it, so its inverse is legal here.
        self.board.apply(m.inverse()).ok()?;
        self.next -= 1;
        Some(m)
    }

    /// One speed up; returns false at the fastest.
    pub fn faster(&mut self, now: Instant) -> bool {
        self.change_speed(true, now)
    }

    /// One speed down; returns false at the slowest.
    pub fn slower(&mut self, now: Instant) -> bool {
        self.change_speed(false, now)
    }

    fn change_speed(&mut self, up: bool, now: Instant) -> bool {
        let (index, len) = match &mut self.pace {
            Pace::Steady(i) => (i, SPEEDS.len()),
            Pace::Recorded { rate, .. } => (rate, RATES.len()),
        };
        let new = if up { (*index + 1).min(len - 1) } else { index.saturating_sub(1) };
        if new == *index {
            return false;
        }
        *index = new;
        // A faster speed takes effect at once; a slower one does not hold back a move
        // that was about to come.
        self.due = self.due.min(now + self.gap());
        true
    }

    /// Plays the next move on the playback's own board.
    fn forward(&mut self) -> Option<Move> {
        let m = self.upcoming()?;
        // `new` checked that every move is legal in turn.
        self.board.apply(m).ok()?;
        self.next += 1;
        Some(m)
    }

    /// The time from the move just played (or the start) to the next one.
    fn gap(&self) -> Duration {
        match &self.pace {
            Pace::Steady(i) => Duration::from_secs(1) / SPEEDS[*i],
            Pace::Recorded { times, rate } => {
                let real = match self.next {
                    0 => LEAD,
                    n => match (times.get(n), times.get(n - 1)) {
                        (Some(t), Some(before)) => t.saturating_sub(*before),
                        _ => Duration::ZERO,
                    },
                };
                real * 4 / RATES[*rate]
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle_core::Goal;

    fn moves(letters: &str) -> Vec<Move> {
        letters.chars().map(|c| Move::from_letter(c).unwrap()).collect()
    }

    fn board(text: &str) -> Board {
        text.parse().unwrap()
    }

    fn goal(b: &Board) -> Board {
        Goal::BlankLast.board(b.size()).unwrap()
    }

    /// "4 1 3/0 2 5/7 8 6", five moves from the goal.
    fn five() -> (Board, Vec<Move>) {
        let start = board("4 1 3/0 2 5/7 8 6");
        let solution = npuzzle_solver::solve(&start, &goal(&start), &Default::default()).unwrap();
        (start, solution.moves.as_slice().to_vec())
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn only_solutions_that_reach_the_goal_are_played() {
        let start = board("1 2 3/4 5 6/0 7 8");
        let g = goal(&start);
        let t = Instant::now();
        let source = || Source::Yours;
        assert!(Replay::steady(source(), &start, moves("LL"), &g, 0, t).is_ok());
        assert_eq!(
            Replay::steady(source(), &start, moves("L"), &g, 0, t),
            Err(ReplayError::MissesGoal)
        );
        assert_eq!(
            Replay::steady(source(), &start, moves("LLL"), &g, 0, t),
            Err(ReplayError::Illegal { at: 2 })
        );
        assert_eq!(
            Replay::recorded(source(), &start, moves("LL"), &[ms(0)], &g, t),
            Err(ReplayError::Times { times: 1, moves: 2 })
        );
    }

    #[test]
    fn a_playback_ends_at_the_goal_whatever_the_transport_does() {
        let (start, solution) = five();
        let g = goal(&start);
        let t0 = Instant::now();
        let mut p =
            Replay::steady(Source::Yours, &start, solution.clone(), &g, DEFAULT_SPEED, t0).unwrap();
        assert_eq!(p.step_back(), None, "nothing to take back at the start");
        assert!(p.step_forward().is_some());
        assert!(p.step_forward().is_some());
        assert_eq!(p.step_back(), Some(solution[1]));
        assert_eq!(p.played(), 1);
        let mut after_one = start.clone();
        after_one.apply(solution[0]).unwrap();
        assert_eq!(*p.board(), after_one);
        p.toggle_pause(t0);
        // Far in the future: everything left is played at once, and nothing more.
        let made = p.advance(t0 + Duration::from_secs(60));
        assert_eq!(made, solution[1..]);
        assert!(p.finished());
        assert_eq!(*p.board(), g);
        assert_eq!(p.step_forward(), None);
        assert_eq!(p.due(), None);
    }

    #[test]
    fn steady_moves_come_one_interval_apart() {
        let (start, solution) = five();
        let t0 = Instant::now();
        let mut p = Replay::steady(Source::Yours, &start, solution, &goal(&start), 3, t0).unwrap();
        assert_eq!(p.speed_label(), "5/s");
        assert!(p.advance(t0 + ms(199)).is_empty());
        assert_eq!(p.advance(t0 + ms(200)).len(), 1);
        assert_eq!(p.advance(t0 + ms(450)).len(), 1);
        assert_eq!(p.due(), Some(t0 + ms(600)));
        p.toggle_pause(t0 + ms(500));
        assert!(p.advance(t0 + ms(10_000)).is_empty(), "paused");
        p.toggle_pause(t0 + ms(10_000));
        assert_eq!(p.due(), Some(t0 + ms(10_200)));
        // Faster takes effect at once.
        assert!(p.faster(t0 + ms(10_000)));
        assert_eq!(p.speed_label(), "8/s");
        assert_eq!(p.due(), Some(t0 + ms(10_125)));
        assert_eq!(p.steady_speed(), Some(4));
    }

    #[test]
    fn a_fast_playback_makes_many_moves_per_call_and_never_rushes_to_catch_up() {
        let start = board("1 2 3/4 5 6/7 8 0");
        // Three hundred moves there and back (L R ...), ending at the goal.
        let solution: Vec<Move> = (0..150).flat_map(|_| moves("RL")).collect();
        let t0 = Instant::now();
        let fastest = SPEEDS.len() - 1;
        let mut p = Replay::steady(Source::Yours, &start, solution, &start, fastest, t0).unwrap();
        assert_eq!(p.advance(t0 + ms(33)).len(), 33);
        // Ten seconds late: a hundred moves, then on from now (the moves due at 10,000,
        // 10,001... 10,005 ms).
        assert_eq!(p.advance(t0 + ms(10_000)).len(), MAX_STEPS_PER_ADVANCE);
        assert_eq!(p.advance(t0 + ms(10_005)).len(), 6);
        assert_eq!(p.slide_time(), None, "too fast to slide");
    }

    #[test]
    fn a_recorded_playback_keeps_the_real_gaps() {
        let start = board("1 2 3/4 5 6/0 7 8");
        let t0 = Instant::now();
        // The player's clock: moves at 5.0 s and 5.3 s.
        let times = [Duration::from_secs(5), ms(5300)];
        let mut p = Replay::recorded(Source::Yours, &start, moves("LL"), &times, &goal(&start), t0)
            .unwrap();
        assert_eq!(p.speed_label(), "1×");
        assert!(p.advance(t0 + ms(399)).is_empty(), "a moment before the first move");
        assert_eq!(p.advance(t0 + ms(400)).len(), 1);
        assert!(p.advance(t0 + ms(699)).is_empty());
        assert_eq!(p.advance(t0 + ms(700)).len(), 1);
        assert!(p.finished());

        let mut p = Replay::recorded(Source::Yours, &start, moves("LL"), &times, &goal(&start), t0)
            .unwrap();
        assert!(p.faster(t0));
        assert_eq!(p.speed_label(), "2×");
        assert_eq!(p.advance(t0 + ms(200)).len(), 1);
        assert_eq!(p.advance(t0 + ms(350)).len(), 1);
        for _ in 0..10 {
            p.slower(t0);
        }
        assert_eq!(p.speed_label(), "¼×");
        assert!(!p.slower(t0));
    }

    #[test]
    fn solutions_of_every_kind_replay_to_the_goal() {
        // The solver's answers, optimal (3x3, 4x3) and not (5x5), all play to the goal.
        let mut scrambler = npuzzle_core::Scrambler::new(11);
        for (size, count) in [("3x3", 20), ("4x3", 3), ("5x5", 3)] {
            let g = Goal::BlankLast.board(size.parse().unwrap()).unwrap();
            for _ in 0..count {
                let start = scrambler.solvable(&g);
                let solution = npuzzle_solver::solve(&start, &g, &Default::default()).unwrap();
                let t0 = Instant::now();
                let mut p = Replay::steady(
                    Source::Best { optimal: solution.optimal },
                    &start,
                    solution.moves.as_slice().to_vec(),
                    &g,
                    SPEEDS.len() - 1,
                    t0,
                )
                .unwrap();
                let mut shown = start.clone();
                let mut t = t0;
                while !p.finished() {
                    t += ms(33);
                    for m in p.advance(t) {
                        shown.apply(m).unwrap();
                    }
                    assert_eq!(shown, *p.board());
                }
                assert_eq!(shown, g, "{size} {start}");
            }
        }
    }
}
