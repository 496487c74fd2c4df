//! A measurement, not part of the engine: a learned cost-to-go ranking a beam, against the
//! engine's ranking (see "What did not help" in the module's docs).
//!
//! The network is trained as DeepCubeA trains its own, by approximate value iteration (the
//! target of a board scrambled from the goal is one more than the least value of its
//! children under a frozen copy, the goal's 0), but it is small and evaluated move by move,
//! as chess engines' NNUE are: one 1-of-n input per tile and cell, summed into an
//! accumulator of [`H`] that a move updates with four rows, then two dense layers. It learns
//! what to add to Manhattan + linear conflict, never less than that bound's value.

#![allow(clippy::needless_range_loop, reason = "a measurement: indices read as the maths")]

use std::collections::HashSet;
use std::time::Instant;

use npuzzle_core::{Board, Goal, Move};

use super::beam::{Weights, Zobrist, splitmix};
use super::heuristic::{Evaluator, Neighbours};
use super::*;

/// The accumulator's width.
const H: usize = 128;
/// The second layer's width.
const H2: usize = 32;
/// The most cells of a board here (7x7).
const MAX: usize = 49;

/// The network's parameters.
#[derive(Clone)]
struct Net {
    cells: usize,
    /// Row `tile * cells + cell`, [`H`] wide.
    w1: Vec<f32>,
    b1: Vec<f32>,
    /// Row `i` of [`H`], [`H2`] wide (input-major).
    w2: Vec<f32>,
    b2: Vec<f32>,
    w3: Vec<f32>,
    b3: Vec<f32>,
}

impl Net {
    fn new(cells: usize, seed: u64) -> Net {
        let mut s = seed;
        let mut normal = |scale: f32| {
            // The sum of four uniforms, centred: near enough a normal for an initialisation.
            let u: f32 =
                (0..4).map(|_| (splitmix(&mut s) >> 40) as f32 / (1u64 << 24) as f32).sum();
            (u - 2.0) * scale * 1.7
        };
        let w1 = (0..cells * cells * H).map(|_| normal(1.0 / (cells as f32).sqrt())).collect();
        let w2 = (0..H * H2).map(|_| normal((2.0 / H as f32).sqrt())).collect();
        let w3 = (0..H2).map(|_| normal(0.01)).collect();
        Net { cells, w1, b1: vec![0.0; H], w2, b2: vec![0.0; H2], w3, b3: vec![0.0] }
    }

    fn params(&mut self) -> [&mut Vec<f32>; 6] {
        [&mut self.w1, &mut self.b1, &mut self.w2, &mut self.b2, &mut self.w3, &mut self.b3]
    }

    fn row(&self, tile: u16, cell: usize) -> &[f32] {
        let r = (usize::from(tile) * self.cells + cell) * H;
        &self.w1[r..r + H]
    }

    /// The accumulator of `tiles`.
    fn accumulate(&self, tiles: &[u16], acc: &mut [f32; H]) {
        acc.copy_from_slice(&self.b1);
        for (c, &t) in tiles.iter().enumerate() {
            for (a, w) in acc.iter_mut().zip(self.row(t, c)) {
                *a += w;
            }
        }
    }

    /// The accumulator after the tile `tile` on `from` slides into the blank on `blank`.
    fn slid(&self, acc: &[f32; H], tile: u16, from: usize, blank: usize, out: &mut [f32; H]) {
        let (a, b, c, d) =
            (self.row(tile, from), self.row(tile, blank), self.row(0, blank), self.row(0, from));
        for i in 0..H {
            out[i] = acc[i] - a[i] + b[i] - c[i] + d[i];
        }
    }

    /// The output from an accumulator, with the hidden layers kept for a backward pass
    /// (`w2` is stored input-major, so that the layer is a sum of scaled rows, which
    /// vectorises, where dot products' sums in order would not).
    fn forward(&self, acc: &[f32; H], z2: &mut [f32; H2]) -> f32 {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
        {
            // SAFETY: the CPU has just been seen to have both features.
            #[expect(
                unsafe_code,
                reason = "AVX2 chosen at run time: the forward pass is most of a beam's time"
            )]
            return unsafe { self.forward_avx2(acc, z2) };
        }
        self.forward_any::<false>(acc, z2)
    }

    /// [`Net::forward`] compiled for AVX2 and FMA.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    fn forward_avx2(&self, acc: &[f32; H], z2: &mut [f32; H2]) -> f32 {
        self.forward_any::<true>(acc, z2)
    }

    /// [`Net::forward`] in plain code, for the compiler to vectorise: fixed-size rows, and
    /// the rows of inputs the ReLU zeroes skipped (with fused multiply-adds if `FMA`).
    #[inline(always)]
    fn forward_any<const FMA: bool>(&self, acc: &[f32; H], z2: &mut [f32; H2]) -> f32 {
        // Four lanes of eight, each kept in a register across the rows (as one array of
        // [`H2`], the compiler splits it into scalars).
        let mut z: [[f32; 8]; H2 / 8] =
            std::array::from_fn(|k| std::array::from_fn(|l| self.b2[8 * k + l]));
        let w2: &[[[f32; 8]; H2 / 8]] = self.w2.as_chunks::<8>().0.as_chunks::<{ H2 / 8 }>().0;
        // The inputs the ReLU keeps, listed without branches (which the signs would
        // mispredict), then summed in two sets of lanes, so that each waits on half as many
        // multiply-adds.
        let mut active = [0u8; H + 1];
        let mut n = 0;
        for (i, &a) in acc.iter().enumerate() {
            active[n] = i as u8;
            n += usize::from(a > 0.0);
        }
        active[n] = active[n.saturating_sub(1)];
        let mut other = [[0.0f32; 8]; H2 / 8];
        let lanes = |z: &mut [[f32; 8]; H2 / 8], i: u8, a: f32| {
            for (z, w) in z.iter_mut().zip(&w2[usize::from(i)]) {
                for l in 0..8 {
                    z[l] = if FMA { a.mul_add(w[l], z[l]) } else { z[l] + a * w[l] };
                }
            }
        };
        for pair in active[..n + (n & 1)].chunks_exact(2) {
            lanes(&mut z, pair[0], acc[usize::from(pair[0])]);
            // With an odd count the last pair's second input repeats the first, with no
            // weight.
            let second = if pair[1] == pair[0] { 0.0 } else { acc[usize::from(pair[1])] };
            lanes(&mut other, pair[1], second);
        }
        for (z, o) in z.iter_mut().zip(&other) {
            for l in 0..8 {
                z[l] += o[l];
            }
        }
        let z: [f32; H2] = std::array::from_fn(|j| z[j / 8][j % 8]);
        *z2 = z;
        let w3: &[f32; H2] = self.w3.as_slice().try_into().unwrap();
        let mut out = [0.0f32; 8];
        for j in 0..H2 {
            out[j % 8] += w3[j] * z[j].max(0.0);
        }
        self.b3[0] + out.iter().sum::<f32>()
    }

    fn value(&self, acc: &[f32; H]) -> f32 {
        self.forward(acc, &mut [0.0; H2])
    }
}

/// Gradients, shaped as the parameters.
struct Grads {
    g: [Vec<f32>; 6],
}

impl Grads {
    fn new(net: &Net) -> Grads {
        Grads {
            g: [
                vec![0.0; net.w1.len()],
                vec![0.0; H],
                vec![0.0; H2 * H],
                vec![0.0; H2],
                vec![0.0; H2],
                vec![0.0; 1],
            ],
        }
    }

    /// Adds the gradient of `scale * (output - target)^2` for `tiles`.
    fn add(&mut self, net: &Net, tiles: &[u16], acc: &[f32; H], target: f32, scale: f32) -> f32 {
        let mut z2 = [0.0; H2];
        let out = net.forward(acc, &mut z2);
        let d_out = 2.0 * (out - target) * scale;
        self.g[5][0] += d_out;
        let mut dz = [0.0f32; H2];
        for j in 0..H2 {
            if z2[j] > 0.0 {
                self.g[4][j] += d_out * z2[j];
                dz[j] = d_out * net.w3[j];
                self.g[3][j] += dz[j];
            }
        }
        let mut d_acc = [0.0f32; H];
        for i in 0..H {
            let a = acc[i];
            if a <= 0.0 {
                continue;
            }
            let row = &net.w2[i * H2..(i + 1) * H2];
            let grow = &mut self.g[2][i * H2..(i + 1) * H2];
            let mut d = [0.0f32; H2];
            for j in 0..H2 {
                grow[j] += dz[j] * a;
                d[j] = dz[j] * row[j];
            }
            d_acc[i] = d.iter().sum();
        }
        for (g, d) in self.g[1].iter_mut().zip(&d_acc) {
            *g += d;
        }
        for (c, &t) in tiles.iter().enumerate() {
            let r = (usize::from(t) * net.cells + c) * H;
            for (g, d) in self.g[0][r..r + H].iter_mut().zip(&d_acc) {
                *g += d;
            }
        }
        (out - target).powi(2)
    }

    fn merge(&mut self, other: &Grads) {
        for (a, b) in self.g.iter_mut().zip(&other.g) {
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
    }
}

/// Adam's moments.
struct Adam {
    m: [Vec<f32>; 6],
    v: [Vec<f32>; 6],
    t: i32,
}

impl Adam {
    fn new(net: &Net) -> Adam {
        let z = Grads::new(net).g;
        Adam { m: z.clone(), v: z, t: 0 }
    }

    fn step(&mut self, net: &mut Net, grads: &Grads, lr: f32) {
        self.t += 1;
        let (b1, b2) = (0.9f32, 0.999f32);
        let c1 = 1.0 - b1.powi(self.t);
        let c2 = 1.0 - b2.powi(self.t);
        for (k, p) in net.params().into_iter().enumerate() {
            let (m, v, g) = (&mut self.m[k], &mut self.v[k], &grads.g[k]);
            for i in 0..p.len() {
                m[i] = b1 * m[i] + (1.0 - b1) * g[i];
                v[i] = b2 * v[i] + (1.0 - b2) * g[i] * g[i];
                p[i] -= lr * (m[i] / c1) / ((v[i] / c2).sqrt() + 1e-8);
            }
        }
    }
}

/// A board of at most [`MAX`] cells as the network and the evaluator see it.
#[derive(Clone, Copy)]
struct State {
    tiles: [u16; MAX],
    blank: usize,
}

/// Everything a training thread and a beam need about the board's shape.
struct Shape {
    cells: usize,
    eval: Evaluator,
    next: Neighbours,
    goal: State,
}

impl Shape {
    fn new(goal: &Board) -> Shape {
        let cells = goal.tiles().len();
        let mut tiles = [0; MAX];
        tiles[..cells].copy_from_slice(goal.tiles());
        Shape {
            cells,
            eval: Evaluator::new(goal),
            next: Neighbours::new(goal.width(), goal.height()),
            goal: State { tiles, blank: goal.blank() },
        }
    }

    /// A walk of `steps` random moves from the goal, never straight back.
    fn scramble(&self, steps: usize, rng: &mut u64) -> State {
        let mut s = self.goal;
        let mut last = usize::MAX;
        for _ in 0..steps {
            loop {
                let m = (splitmix(rng) % 4) as usize;
                let Some(to) = self.next.of(s.blank, m) else { continue };
                if to == last {
                    continue;
                }
                last = s.blank;
                s.tiles.swap(s.blank, to);
                s.blank = to;
                break;
            }
        }
        s
    }

    /// The neighbours' cells of the blank of `s`.
    fn moves(&self, s: &State) -> impl Iterator<Item = usize> + '_ {
        let blank = s.blank;
        (0..4).filter_map(move |m| self.next.of(blank, m))
    }

    /// The training target of `s`: one more than the least value of its children under
    /// `target` (Manhattan + linear conflict + what it adds, at least 0), 0 at the goal,
    /// never below the bound of `s`; as what to add to that bound.
    fn target(&self, target: &Net, s: &State, bound: u32) -> f32 {
        if bound == 0 {
            return 0.0;
        }
        let mut acc = [0.0; H];
        target.accumulate(&s.tiles[..self.cells], &mut acc);
        let mut best = f32::MAX;
        let mut child = [0.0; H];
        for from in self.moves(s) {
            let mut t = s.tiles;
            let tile = t[from];
            let h = self.eval.slide(&mut t[..self.cells], s.blank, from, bound);
            let v = if h == 0 {
                0.0
            } else {
                target.slid(&acc, tile, from, s.blank, &mut child);
                h as f32 + target.value(&child).max(0.0)
            };
            best = best.min(1.0 + v);
        }
        (best - bound as f32).max(0.0)
    }
}

/// Trains a network for `goal` for `secs` seconds on `threads` threads: batches of `batch`
/// boards scrambled by 1 to `back` random moves, the frozen copy renewed every `every`
/// batches.
fn train(goal: &Board, secs: f64, threads: usize, batch: usize, back: usize, every: usize) -> Net {
    let shape = Shape::new(goal);
    let mut net = Net::new(shape.cells, 7);
    let mut frozen = net.clone();
    let mut adam = Adam::new(&net);
    let start = Instant::now();
    let mut lap = Instant::now();
    let (mut round, mut loss_sum, mut seen) = (0usize, 0.0f64, 0usize);
    let lr0: f32 = std::env::var("LEARN_LR").map_or(1e-3, |s| s.parse().unwrap());
    while start.elapsed().as_secs_f64() < secs {
        let per = batch / threads;
        let results: Vec<(Grads, f64)> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|k| {
                    let (net, frozen, shape) = (&net, &frozen, &shape);
                    scope.spawn(move || {
                        let mut rng = (round as u64) << 8 | k as u64;
                        splitmix(&mut rng);
                        let mut grads = Grads::new(net);
                        let mut loss = 0.0f64;
                        let mut acc = [0.0; H];
                        for _ in 0..per {
                            let steps = 1 + (splitmix(&mut rng) % back as u64) as usize;
                            let s = shape.scramble(steps, &mut rng);
                            let bound = shape.eval.value(&s.tiles[..shape.cells]);
                            let y = shape.target(frozen, &s, bound);
                            net.accumulate(&s.tiles[..shape.cells], &mut acc);
                            let scale = 1.0 / (per * threads) as f32;
                            loss +=
                                f64::from(grads.add(net, &s.tiles[..shape.cells], &acc, y, scale));
                        }
                        (grads, loss)
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let mut it = results.into_iter();
        let (mut grads, mut loss) = it.next().unwrap();
        for (g, l) in it {
            grads.merge(&g);
            loss += l;
        }
        let progress = start.elapsed().as_secs_f64() / secs;
        let lr = lr0 * (1.0 - 0.9 * progress as f32);
        adam.step(&mut net, &grads, lr);
        loss_sum += loss;
        seen += batch;
        round += 1;
        if round % every == 0 {
            frozen = net.clone();
            eprintln!(
                "  {:.0} s, round {round}: loss {:.3}, {:.1} k boards a second",
                start.elapsed().as_secs_f64(),
                loss_sum / seen as f64,
                seen as f64 / 1000.0 / lap.elapsed().as_secs_f64()
            );
            lap = Instant::now();
            loss_sum = 0.0;
            seen = 0;
        }
    }
    net
}

/// A beam of `width` from `board` to the goal, ranked by the learned value over Manhattan +
/// linear conflict (`net`), or else by the engine's ranking `weights`; the path found, if any
/// within `max_depth` layers.
fn beam(
    shape: &Shape,
    board: &Board,
    width: usize,
    net: Option<&Net>,
    weights: Weights,
) -> Option<Vec<Move>> {
    struct Node {
        s: State,
        h: u32,
        md: u32,
        sq: u32,
        hash: u64,
        acc: usize,
    }
    let cells = shape.cells;
    // A weight for the squared distances added to the learned value (`LEARN_SQ`, 0).
    let squares: f32 = std::env::var("LEARN_SQ").map_or(0.0, |s| s.parse().unwrap());
    let zobrist = Zobrist::new(cells);
    let mut tiles = [0; MAX];
    tiles[..cells].copy_from_slice(board.tiles());
    let s = State { tiles, blank: board.blank() };
    let (h, md, sq) = (
        shape.eval.value(&tiles[..cells]),
        shape.eval.manhattan(&tiles[..cells]),
        shape.eval.squares(&tiles[..cells]),
    );
    let hash = zobrist.hash(&tiles[..cells]);
    let mut accs: Vec<[f32; H]> = vec![[0.0; H]];
    if let Some(net) = net {
        net.accumulate(&tiles[..cells], &mut accs[0]);
    }
    let mut layer = vec![Node { s, h, md, sq, hash, acc: 0 }];
    let mut seen: HashSet<u64> = HashSet::from([hash]);
    let mut trail: Vec<Vec<(u32, u8)>> = Vec::new();
    let mut child_acc = [0.0; H];
    for _ in 0..3000 {
        if let Some(i) = layer.iter().position(|n| n.h == 0) {
            let mut cells_path = Vec::new();
            let mut i = i;
            for step in trail.iter().rev() {
                let (parent, from) = step[i];
                cells_path.push(usize::from(from));
                i = parent as usize;
            }
            cells_path.reverse();
            let mut b = board.clone();
            let mut moves = Vec::new();
            for c in cells_path {
                let m = Move::ALL.into_iter().find(|&m| b.target(m) == Some(c)).unwrap();
                b.apply(m).unwrap();
                moves.push(m);
            }
            return Some(moves);
        }
        let mut children: Vec<(f32, Node, u32, u8)> = Vec::new();
        let mut new_accs: Vec<[f32; H]> = Vec::new();
        for (pi, n) in layer.iter().enumerate() {
            for from in shape.moves(&n.s) {
                let tile = n.s.tiles[from];
                let hash = zobrist.moved(n.hash, tile, from, n.s.blank);
                if seen.contains(&hash) {
                    continue;
                }
                let mut s = n.s;
                let before = shape.eval.distance(tile, from);
                let (dmd, dlc) = shape.eval.slide_parts(&mut s.tiles[..cells], n.s.blank, from);
                s.blank = from;
                let h = (n.h as i32 + dmd + dlc) as u32;
                let md = (n.md as i32 + dmd) as u32;
                let after = shape.eval.distance(tile, n.s.blank);
                let sq = n.sq + after * after - before * before;
                let (score, acc) = match net {
                    Some(net) => {
                        net.slid(&accs[n.acc], tile, from, n.s.blank, &mut child_acc);
                        new_accs.push(child_acc);
                        let v = h as f32 + net.value(&child_acc).max(0.0);
                        (v + squares * sq as f32, new_accs.len() - 1)
                    }
                    None => {
                        let lc = h - md;
                        ((weights.md * md + weights.lc * lc + weights.squares * sq) as f32, 0)
                    }
                };
                children.push((score, Node { s, h, md, sq, hash, acc }, pi as u32, from as u8));
            }
        }
        // Repeats within the layer: keep the first.
        let mut unique = HashSet::new();
        children.retain(|c| unique.insert(c.1.hash));
        if children.len() > width {
            children.select_nth_unstable_by(width, |a, b| a.0.total_cmp(&b.0));
            children.truncate(width);
        }
        if children.is_empty() {
            return None;
        }
        let mut step = Vec::with_capacity(children.len());
        let mut next_accs = Vec::new();
        layer = children
            .into_iter()
            .map(|(_, mut n, p, f)| {
                seen.insert(n.hash);
                step.push((p, f));
                if net.is_some() {
                    next_accs.push(new_accs[n.acc]);
                    n.acc = next_accs.len() - 1;
                }
                n
            })
            .collect();
        if net.is_some() {
            accs = next_accs;
        }
        trail.push(step);
    }
    None
}

fn save(net: &Net, path: &str) {
    let mut bytes = Vec::new();
    bytes.extend((net.cells as u32).to_le_bytes());
    for p in [&net.w1, &net.b1, &net.w2, &net.b2, &net.w3, &net.b3] {
        for x in p {
            bytes.extend(x.to_le_bytes());
        }
    }
    std::fs::write(path, bytes).unwrap();
}

fn load(path: &str) -> Net {
    let bytes = std::fs::read(path).unwrap();
    let cells = u32::from_le_bytes(bytes[..4].try_into().unwrap()) as usize;
    let mut net = Net::new(cells, 0);
    let mut at = 4;
    for p in net.params() {
        for x in p.iter_mut() {
            *x = f32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
            at += 4;
        }
    }
    net
}

/// Trains a network: `LEARN_SIZE=6x6 LEARN_SECS=600 LEARN_OUT=/tmp/n6.bin LEARN_BACK=500
/// LEARN_BATCH=2000 LEARN_EVERY=200 cargo test --release -p npuzzle-solver --lib
/// learned::learn -- --ignored --nocapture`
#[test]
#[ignore = "a measurement, not a test"]
fn learn() {
    let env = |k: &str, d: &str| std::env::var(k).unwrap_or_else(|_| d.to_owned());
    let size = env("LEARN_SIZE", "6x6").parse().unwrap();
    let goal = Goal::BlankLast.board(size).unwrap();
    let net = train(
        &goal,
        env("LEARN_SECS", "60").parse().unwrap(),
        2,
        env("LEARN_BATCH", "2000").parse().unwrap(),
        env("LEARN_BACK", "500").parse().unwrap(),
        env("LEARN_EVERY", "200").parse().unwrap(),
    );
    save(&net, &env("LEARN_OUT", "/tmp/learned.bin"));
}

/// The learned ranking against the engine's (`4:5:1`) in the same plain beam, both followed
/// by the plain windows, on a file's first boards: `NEAR_FILE=... LEARN_NET=/tmp/n6.bin
/// NEAR_WIDTHS=5000 LIMIT=20 cargo test --release -p npuzzle-solver --lib
/// learned::experiment -- --ignored --nocapture` (`LEARN_SQ` adds the squared distances at
/// that weight to the learned value; `LEARN_ONLY` leaves out the engine's ranking)
#[test]
#[ignore = "a measurement, not a test"]
fn experiment() {
    let rows = super::tables_beam::rows();
    let goal = Goal::BlankLast.board(rows[0].0.size()).unwrap();
    let shape = Shape::new(&goal);
    let net = load(&std::env::var("LEARN_NET").unwrap());
    let meter = Meter::unlimited();
    for w in std::env::var("NEAR_WIDTHS").unwrap().split(',') {
        let width: usize = w.parse().unwrap();
        let (mut total, mut secs) = ([0usize; 2], [0.0f64; 2]);
        let mut raw = [0usize; 2];
        for (board, _) in &rows {
            let mut row = Vec::new();
            // `LEARN_ONLY` set: the learned ranking alone.
            let only = std::env::var("LEARN_ONLY").is_ok();
            for (k, n) in [Some(&net), None].into_iter().enumerate().take(2 - usize::from(only)) {
                let t = Instant::now();
                let mut moves = beam(&shape, board, width, n, Weights::BEST).unwrap();
                raw[k] += moves.len();
                super::tables_beam::shorten(board, &mut moves, &meter);
                assert!(replays(board, &goal, &moves));
                secs[k] += t.elapsed().as_secs_f64();
                total[k] += moves.len();
                row.push(moves.len());
            }
            let mut acc = [0.0; H];
            let mut tiles = board.tiles().to_vec();
            tiles.resize(shape.cells, 0);
            net.accumulate(&tiles, &mut acc);
            let h = shape.eval.value(&tiles);
            eprintln!("  {row:?} (bound {h}, learned {:.1})", h as f32 + net.value(&acc).max(0.0));
        }
        let n = rows.len() as f64;
        eprintln!(
            "width {width}: learned {:.2} ({:.2} before the windows, {:.2} s), 4:5:1 {:.2} ({:.2}, {:.2} s)",
            total[0] as f64 / n,
            raw[0] as f64 / n,
            secs[0] / n,
            total[1] as f64 / n,
            raw[1] as f64 / n,
            secs[1] / n
        );
    }
}

/// The backward pass agrees with differences of the loss.
#[test]
fn gradients_match_differences() {
    let goal = Goal::BlankLast.board("3x3".parse().unwrap()).unwrap();
    let shape = Shape::new(&goal);
    let mut net = Net::new(shape.cells, 3);
    for x in net.w3.iter_mut() {
        *x *= 50.0;
    }
    let mut rng = 5;
    let s = shape.scramble(20, &mut rng);
    let tiles = &s.tiles[..shape.cells];
    let loss = |net: &Net| {
        let mut acc = [0.0; H];
        net.accumulate(tiles, &mut acc);
        (net.value(&acc) - 3.0).powi(2)
    };
    let mut grads = Grads::new(&net);
    let mut acc = [0.0; H];
    net.accumulate(tiles, &mut acc);
    grads.add(&net, tiles, &acc, 3.0, 1.0);
    for (k, i) in [
        (0, (usize::from(tiles[2]) * shape.cells + 2) * H + 5),
        (1, 7),
        (2, 40),
        (3, 3),
        (4, 9),
        (5, 0),
    ] {
        let eps = 1e-2;
        let mut up = net.clone();
        up.params()[k][i] += eps;
        let mut down = net.clone();
        down.params()[k][i] -= eps;
        let numeric = (loss(&up) - loss(&down)) / (2.0 * eps);
        let analytic = grads.g[k][i];
        assert!(
            (numeric - analytic).abs() <= 1e-2 * (1.0 + analytic.abs()),
            "{k} {i}: {numeric} {analytic}"
        );
    }
}
