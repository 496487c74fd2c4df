//! Property tests: no text, however malformed, makes a parser panic, and every valid board
//! round-trips through its text form.

use npuzzle_core::{Board, Goal, Moves, Scrambler, Size, parse_board, parse_input};
use proptest::prelude::*;

/// Strings biased towards the characters the parsers care about, plus anything at all.
fn texty() -> impl Strategy<Value = String> {
    prop_oneof![
        "[0-9 ,/#|\\n\\-+xX:a-z]{0,80}",
        any::<String>(),
        "([0-9]{1,3}[ ,/\\n]){0,40}",
        "(# goal: [a-z0-9 /-]{0,20}\\n)?([0-9 ]{0,30}(\\| ?[0-9a-z]{0,4})?\\n){0,6}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn parsers_never_panic(text in texty()) {
        let _ = parse_board(&text);
        let _ = parse_input(&text);
        let _ = text.parse::<Moves>();
        let _ = text.parse::<Size>();
        let _ = text.parse::<Goal>();
    }

    #[test]
    fn boards_round_trip_through_text(w in 2usize..9, h in 2usize..9, seed in any::<u64>()) {
        let goal = Goal::BlankLast.board(Size::new(w, h).unwrap()).unwrap();
        let b = Scrambler::new(seed).solvable(&goal);
        prop_assert_eq!(b.to_string().parse::<Board>().unwrap(), b.clone());
        prop_assert_eq!(parse_board(&b.grid(false)).unwrap(), b);
    }

    #[test]
    fn a_walk_then_its_inverse_is_the_identity(seed in any::<u64>(), k in 0usize..200) {
        let goal = Goal::Snail.board(Size::new(4, 3).unwrap()).unwrap();
        let (mut b, moves) = Scrambler::new(seed).walk(&goal, k);
        b.apply_all(&moves.inverse()).unwrap();
        prop_assert_eq!(b, goal);
    }
}
