//! What must hold for any input to each parser: no panic, and what parses prints back to
//! itself. Shared by the fuzz targets (`fuzz/fuzz_targets/*.rs`) and by the regression test
//! that replays every input that ever failed (`crates/core/tests/fuzz_regressions.rs`).

use npuzzle_core::{
    Board, Goal, Instance, Instances, Moves, Perspective, Size, parse_board, parse_input,
    parse_instances,
};

/// The input as text: the command line refuses bytes that are not UTF-8 before any parser
/// sees them.
fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// Board text in any form: a board that parses prints, in each of its forms, to text that
/// parses back to it.
pub fn board_text(data: &[u8]) {
    let Some(text) = text(data) else { return };
    let parsed = parse_board(text);
    assert_eq!(text.parse::<Board>(), parsed.clone());
    if let Ok(board) = parsed {
        assert_eq!(parse_board(&board.to_string()), Ok(board.clone()), "inline form");
        assert_eq!(parse_board(&board.grid(true)), Ok(board.clone()), "grid with '.'");
        assert_eq!(parse_board(&board.grid(false)), Ok(board.clone()), "grid with 0");
    }
}

/// Whole input files (instance lists, 42-style files, grids): the iterator ends at its first
/// error, `parse_input` agrees with it, every goal fits its board, and the boards read
/// written back as an instance file read back the same.
pub fn input_file(data: &[u8]) {
    let Some(text) = text(data) else { return };
    let _ = parse_instances(text);
    let items: Vec<_> = Instances::new(text).collect();
    if let Some(i) = items.iter().position(Result::is_err) {
        assert_eq!(i, items.len() - 1, "the iterator goes on after an error");
    }
    let collected: Result<Vec<Instance>, _> = items.into_iter().collect();
    assert_eq!(parse_input(text), collected.clone());
    let Ok(instances) = collected else { return };
    assert!(!instances.is_empty());
    let mut again = String::new();
    let mut last_line = 0;
    for inst in &instances {
        assert!(inst.line > last_line, "boards are in line order");
        last_line = inst.line;
        if let Some(goal) = &inst.goal {
            assert!(goal.board(inst.board.size()).is_ok(), "line {}: goal does not fit", inst.line);
            again.push_str(&format!("# goal: {goal}\n"));
        } else {
            again.push_str("# goal: blank-last\n");
        }
        again.push_str(&inst.board.to_string());
        if let Some(n) = inst.optimal {
            again.push_str(&format!(" | {n}"));
        }
        again.push('\n');
    }
    let back = parse_input(&again).expect("printed instances read back");
    assert_eq!(back.len(), instances.len());
    for (a, b) in instances.iter().zip(&back) {
        assert_eq!((&a.board, a.optimal), (&b.board, b.optimal));
        let goal = |i: &Instance| i.goal.as_deref().cloned().unwrap_or_default();
        assert_eq!(goal(a), goal(b));
    }
}

/// Move text, long or compact, tile or blank directions: what parses prints (long and
/// compact) to text that parses back to it, and stays within the length limit.
pub fn moves(data: &[u8]) {
    let Some(text) = text(data) else { return };
    for perspective in [Perspective::Tile, Perspective::Blank] {
        let Ok(moves) = Moves::parse_as(text, perspective) else { continue };
        assert!(moves.len() <= Moves::MAX_LEN);
        assert!(moves.multi_tile_len() <= moves.len());
        for compact in [false, true] {
            let printed = moves.to_text(perspective, compact);
            assert_eq!(Moves::parse_as(&printed, perspective), Ok(moves.clone()), "{printed}");
        }
        assert_eq!(moves.inverse().inverse(), moves);
    }
    assert_eq!(text.parse::<Moves>(), Moves::parse_as(text, Perspective::Tile));
}

/// Sizes and goals: they print back to themselves, and every goal gives a board of any size
/// it fits (the first two bytes choose a size).
pub fn goal_and_size(data: &[u8]) {
    let (size, rest) = match data {
        [w, h, rest @ ..] => (Size::new(2 + usize::from(w % 20), 2 + usize::from(h % 20)), rest),
        _ => return,
    };
    let size = size.expect("2 to 21 is a valid side");
    let Some(text) = text(rest) else { return };
    if let Ok(s) = text.parse::<Size>() {
        assert_eq!(s.to_string().parse::<Size>(), Ok(s));
    }
    let Ok(goal) = text.parse::<Goal>() else { return };
    assert_eq!(goal.to_string().parse::<Goal>().as_ref(), Ok(&goal));
    match &goal {
        Goal::Board(b) => {
            assert_eq!(goal.board(b.size()).as_ref(), Ok(b));
            assert_eq!(goal.board(size).is_ok(), b.size() == size);
        }
        named => {
            let board = named.board(size).expect("a named goal fits every size");
            assert_eq!(board.size(), size);
            assert!(board.is_solvable(&board));
        }
    }
}
