//! Blank-aware additive pattern databases of groups of five on 6x6, measured as lower bounds
//! against Manhattan distance + linear conflict (what the near-optimal engine uses there).
//!
//! `cargo run --release -p npuzzle-solver --example blank_aware_pdb -- FILE [COUNT]`
//!
//! FILE holds 6x6 boards, one a line (`#` lines skipped), for the blank-last goal, such as
//! DeepCubeA's `shared/data/deepcubea/puzzle35.txt`; the first COUNT (default 20) are
//! measured. Seven groups of five goal cells, each a 2x2 block and one cell beside it along
//! bands of two rows, cover the 35 tiles. Each group's table is built by breadth-first
//! search over its five tiles' cells and the blank's cell: a move of one of the five costs
//! 1, the blank's moves through the other cells are free (the blank's region is flooded at
//! once), and the table keeps the least cost over the blank's cells, indexed by the five
//! cells directly (36^5 bytes, 60 MB a group; the seven take about 5 minutes on two cores
//! and 2.3 GB while they are built). The sum over the groups is admissible, as Korf &
//! Felner's tables are. Prints each board's Manhattan distance, with linear conflicts, the
//! tables' sum and the means; `engine::near`'s docs quote the result (98.40 against 98.30
//! on DeepCubeA's first 20 35-puzzles).

use std::error::Error;

use npuzzle_core::{Board, Goal, Size};
use npuzzle_solver::heuristic::{HeuristicKind, estimate};

const SIDE: usize = 6;
const CELLS: usize = SIDE * SIDE;
const GROUP: usize = 5;

/// The goal cells of the seven groups, five by five: 2x2 blocks and one cell beside each,
/// along bands of two rows (left to right, right to left, left to right).
const ORDER: [usize; 35] = [
    0, 6, 1, 7, 2, 8, 3, 9, 4, 10, 5, 11, 17, 23, 16, 22, 15, 21, 14, 20, 13, 19, 12, 18, 24, 30,
    25, 31, 26, 32, 27, 33, 28, 34, 29,
];

fn neighbours(c: usize) -> impl Iterator<Item = usize> {
    let (x, y) = (c % SIDE, c / SIDE);
    [
        (x > 0).then(|| c - 1),
        (x + 1 < SIDE).then(|| c + 1),
        (y > 0).then(|| c - SIDE),
        (y + 1 < SIDE).then(|| c + SIDE),
    ]
    .into_iter()
    .flatten()
}

fn index(cells: &[usize; GROUP]) -> usize {
    cells.iter().fold(0, |a, &c| a * CELLS + c)
}

fn cells_of(mut i: usize) -> [usize; GROUP] {
    let mut cells = [0; GROUP];
    for k in (0..GROUP).rev() {
        cells[k] = i % CELLS;
        i /= CELLS;
    }
    cells
}

/// The table of the group whose tiles' goal cells are `home`, the goal's blank at `blank`.
fn build(home: [usize; GROUP], blank: usize) -> Vec<u8> {
    let size = CELLS.pow(GROUP as u32);
    let mut dist = vec![u8::MAX; size];
    // One bit per (the five cells, the blank's cell): flooded already.
    let mut seen = vec![0u64; (size * CELLS).div_ceil(64)];
    let test = |seen: &[u64], i: usize| seen[i >> 6] >> (i & 63) & 1 == 1;
    let mark = |seen: &mut [u64], i: usize| seen[i >> 6] |= 1 << (i & 63);
    let mut layer: Vec<(u32, u8)> = vec![(index(&home) as u32, blank as u8)];
    let mut depth = 0u8;
    let mut region = Vec::with_capacity(CELLS);
    while !layer.is_empty() {
        let mut next = Vec::new();
        for &(at, b) in &layer {
            let at = at as usize;
            if test(&seen, at * CELLS + usize::from(b)) {
                continue;
            }
            let cells = cells_of(at);
            let mut holder = [u8::MAX; CELLS];
            for (k, &c) in cells.iter().enumerate() {
                holder[c] = k as u8;
            }
            // The blank's region: every cell it reaches without moving one of the five.
            region.clear();
            region.push(usize::from(b));
            mark(&mut seen, at * CELLS + usize::from(b));
            let mut head = 0;
            while head < region.len() {
                let c = region[head];
                head += 1;
                for n in neighbours(c) {
                    if holder[n] == u8::MAX && !test(&seen, at * CELLS + n) {
                        mark(&mut seen, at * CELLS + n);
                        region.push(n);
                    }
                }
            }
            dist[at] = dist[at].min(depth);
            // One of the five moves into the region: cost 1.
            for &c in &region {
                for n in neighbours(c) {
                    if let Some(k) = holder.get(n).copied().filter(|&k| k != u8::MAX) {
                        let mut moved = cells;
                        moved[usize::from(k)] = c;
                        let to = index(&moved);
                        if !test(&seen, to * CELLS + n) {
                            next.push((to as u32, n as u8));
                        }
                    }
                }
            }
        }
        layer = next;
        depth += 1;
    }
    dist
}

fn main() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let file = args.next().ok_or("usage: blank_aware_pdb FILE [COUNT]")?;
    let count: usize = args.next().map_or(Ok(20), |s| s.parse())?;
    let size = Size::square(SIDE)?;
    let goal = Goal::BlankLast.board(size)?;
    let text = std::fs::read_to_string(&file)?;
    let boards: Vec<Board> = text
        .lines()
        .map(|l| l.split('|').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .take(count)
        .map(str::parse)
        .collect::<Result<_, _>>()?;
    if let Some(b) = boards.iter().find(|b| b.size() != size) {
        return Err(format!("not a 6x6 board: {}", b.grid(false)).into());
    }
    let groups: Vec<[usize; GROUP]> = ORDER
        .chunks(GROUP)
        .map(|c| {
            let mut home = [0; GROUP];
            home.copy_from_slice(c);
            home
        })
        .collect();
    let started = std::time::Instant::now();
    let blank = goal.blank();
    let tables: Vec<Vec<u8>> = std::thread::scope(|scope| {
        let handles: Vec<_> =
            groups.iter().map(|&home| scope.spawn(move || build(home, blank))).collect();
        handles.into_iter().map(|h| h.join().unwrap_or_default()).collect()
    });
    if tables.iter().any(Vec::is_empty) {
        return Err("a table's build failed".into());
    }
    eprintln!("seven tables built in {:.1} s", started.elapsed().as_secs_f64());
    let (mut md_sum, mut lc_sum, mut pdb_sum, mut max_sum) = (0u64, 0u64, 0u64, 0u64);
    for board in &boards {
        let md = estimate(HeuristicKind::Manhattan, board, &goal);
        let lc = estimate(HeuristicKind::LinearConflict, board, &goal);
        let positions = board.positions();
        let pdb: u32 = groups
            .iter()
            .zip(&tables)
            .map(|(home, table)| {
                let mut cells = [0; GROUP];
                for (k, &h) in home.iter().enumerate() {
                    cells[k] = positions[usize::from(goal.tiles()[h])];
                }
                u32::from(table[index(&cells)])
            })
            .sum();
        println!("manhattan {md:4}  +conflicts {lc:4}  groups of five {pdb:4}");
        md_sum += u64::from(md);
        lc_sum += u64::from(lc);
        pdb_sum += u64::from(pdb);
        max_sum += u64::from(pdb.max(lc));
    }
    let n = boards.len().max(1) as f64;
    println!(
        "means over {} boards: manhattan {:.2}, +conflicts {:.2}, groups of five {:.2}, larger of the last two {:.2}",
        boards.len(),
        md_sum as f64 / n,
        lc_sum as f64 / n,
        pdb_sum as f64 / n,
        max_sum as f64 / n
    );
    Ok(())
}
