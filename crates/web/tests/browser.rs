//! The page in a real browser: Debian's Chromium driven through chromedriver (WebDriver),
//! against a real server on a loopback port. `scripts/test` installs `chromium` and
//! `chromium-driver` when they are missing; no browser is ever downloaded.
//!
//! One browser serves every scenario, one after another (starting Chromium is the slow
//! part); a failing scenario saves a screenshot as `target/browser-failures/<name>.png`.
//! With `NPUZZLE_SCREENSHOTS=DIR` set, the test also saves screenshots of the page at 1280
//! and 390 px wide there, for people to look at.

use std::future::Future;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::process::Stdio;
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use npuzzle_core::Board;
use npuzzle_web::{AppState, Config};
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::process::{Child, Command};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

type Error = Box<dyn std::error::Error + Send + Sync>;
type Outcome = Result<(), Error>;

/// The browser, the server's URL and where failure screenshots go.
struct Page {
    client: Client,
    base: String,
}

impl Page {
    async fn open(&self, fragment: &str) -> Outcome {
        // A fragment-only change would not reload; leave the page first.
        self.client.goto("about:blank").await?;
        self.client.goto(&format!("{}/{fragment}", self.base)).await?;
        self.wait("the page to start", "document.documentElement.dataset.ready === 'true'", 10)
            .await
    }

    async fn js(&self, script: &str) -> Result<Value, Error> {
        Ok(self.client.execute(script, vec![]).await?)
    }

    async fn board(&self) -> Result<String, Error> {
        let board = self.client.find(Locator::Id("board")).await?;
        Ok(board.attr("data-board").await?.unwrap_or_default())
    }

    /// Waits up to `secs` for a JavaScript expression to be true.
    async fn wait(&self, what: &str, expression: &str, secs: u64) -> Outcome {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            if self.js(&format!("return Boolean({expression});")).await? == json!(true) {
                return Ok(());
            }
            if Instant::now() > deadline {
                return Err(
                    format!("timed out after {secs} s waiting for {what} ({expression})").into()
                );
            }
            tokio::time::sleep(Duration::from_millis(40)).await;
        }
    }

    async fn wait_board(&self, expected: &str) -> Outcome {
        let script =
            format!("document.getElementById('board').dataset.board === {}", json!(expected));
        self.wait(&format!("the board to be {expected}"), &script, 5)
            .await
            .map_err(|err| format!("{err}").into())
    }

    async fn click_tile(&self, tile: u16) -> Outcome {
        let css = format!("#board button[data-tile='{tile}']");
        self.client.find(Locator::Css(&css)).await?.click().await?;
        Ok(())
    }

    async fn click(&self, id: &str) -> Outcome {
        // As a person would, bring the control to the middle of the screen first: on a phone
        // the search's transport bar covers the bottom edge.
        self.js(&format!(
            "const e = document.getElementById({}); if (e) e.scrollIntoView({{block: 'center'}});",
            json!(id)
        ))
        .await?;
        self.client.find(Locator::Id(id)).await?.click().await?;
        Ok(())
    }

    async fn status(&self) -> Result<String, Error> {
        Ok(self.client.find(Locator::Id("status")).await?.text().await?)
    }

    async fn screenshot(&self, path: &Path) -> Outcome {
        let png = self.client.screenshot().await?;
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(path, png)?;
        Ok(())
    }

    async fn set_width(&self, width: u32, height: u32) -> Outcome {
        self.client.set_window_size(width, height).await?;
        // The window's outer size may include a frame: fix the viewport itself.
        let inner = self.js("return [window.innerWidth, window.innerHeight];").await?;
        let (iw, ih) =
            (inner[0].as_u64().unwrap_or(0) as u32, inner[1].as_u64().unwrap_or(0) as u32);
        if iw != width || ih != height {
            self.client
                .set_window_size(
                    width + (width - iw.min(width)),
                    height + (height - ih.min(height)),
                )
                .await?;
        }
        Ok(())
    }
}

fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target")
}

/// A free loopback port (bound, read, released).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

async fn start_chromedriver() -> Result<(Child, u16), Error> {
    for tool in [CHROMIUM, CHROMEDRIVER] {
        if !Path::new(tool).exists() {
            return Err(format!("{tool} is missing: install Debian's chromium and chromium-driver (scripts/test does)").into());
        }
    }
    let port = free_port();
    let child = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()?;
    let deadline = Instant::now() + Duration::from_secs(15);
    while tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_err() {
        if Instant::now() > deadline {
            return Err("chromedriver did not start within 15 s".into());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Ok((child, port))
}

async fn connect(port: u16, profile: &Path) -> Result<Client, Error> {
    let args = vec![
        "--headless=new".to_string(),
        "--no-sandbox".into(),
        "--disable-gpu".into(),
        "--disable-dev-shm-usage".into(),
        "--disable-background-networking".into(),
        "--disable-component-update".into(),
        "--disable-sync".into(),
        "--no-first-run".into(),
        "--hide-scrollbars".into(),
        "--window-size=1280,900".into(),
        format!("--user-data-dir={}", profile.display()),
    ];
    let mut args = args;
    if std::env::var_os("NPUZZLE_SCREENSHOTS").is_some() {
        // Screenshots for people are taken at a phone's and a laptop's density.
        args.push("--force-device-scale-factor=2".into());
    }
    let mut caps = serde_json::Map::new();
    caps.insert("browserName".into(), json!("chrome"));
    caps.insert("goog:chromeOptions".into(), json!({ "binary": CHROMIUM, "args": args }));
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    let client = ClientBuilder::new(connector)
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await?;
    Ok(client)
}

/// A small real PNG: the top half red, the bottom half blue (stored deflate, no library).
fn two_colour_png(width: u32, height: u32) -> Vec<u8> {
    fn crc32(bytes: &[u8]) -> u32 {
        let mut crc = !0u32;
        for &b in bytes {
            crc ^= u32::from(b);
            for _ in 0..8 {
                crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
            }
        }
        !crc
    }
    fn chunk(out: &mut Vec<u8>, kind: &[u8], data: &[u8]) {
        out.extend((data.len() as u32).to_be_bytes());
        let mut body = kind.to_vec();
        body.extend(data);
        out.extend(&body);
        out.extend(crc32(&body).to_be_bytes());
    }
    let mut raw = Vec::new();
    for y in 0..height {
        raw.push(0); // no filter
        for _ in 0..width {
            raw.extend(if y < height / 2 { [230, 30, 40] } else { [30, 60, 220] });
        }
    }
    let mut zlib = vec![0x78, 0x01];
    let blocks: Vec<&[u8]> = raw.chunks(65_535).collect();
    for (i, block) in blocks.iter().enumerate() {
        zlib.push(u8::from(i + 1 == blocks.len()));
        let len = block.len() as u16;
        zlib.extend(len.to_le_bytes());
        zlib.extend((!len).to_le_bytes());
        zlib.extend(*block);
    }
    let (mut a, mut b) = (1u32, 0u32);
    for &byte in &raw {
        a = (a + u32::from(byte)) % 65_521;
        b = (b + a) % 65_521;
    }
    zlib.extend(((b << 16) | a).to_be_bytes());
    let mut png = vec![0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A];
    let mut header = Vec::new();
    header.extend(width.to_be_bytes());
    header.extend(height.to_be_bytes());
    header.extend([8, 2, 0, 0, 0]); // 8-bit RGB
    chunk(&mut png, b"IHDR", &header);
    chunk(&mut png, b"IDAT", &zlib);
    chunk(&mut png, b"IEND", &[]);
    png
}

/// Like `assert!`, but returns the failure so the scenario's screenshot can be saved.
macro_rules! ensure {
    ($cond:expr $(,)?) => {
        let holds: bool = $cond;
        if !holds {
            return Err(format!("failed: {}", stringify!($cond)).into());
        }
    };
    ($cond:expr, $($fmt:tt)+) => {
        let holds: bool = $cond;
        if !holds {
            return Err(format!($($fmt)+).into());
        }
    };
}

/// Like `assert_eq!`, returning the failure.
macro_rules! ensure_eq {
    ($left:expr, $right:expr $(,)?) => {
        ensure_eq!($left, $right, "")
    };
    ($left:expr, $right:expr, $($fmt:tt)+) => {{
        match (&$left, &$right) {
            (left, right) => {
                if left != right {
                    return Err(format!("{:?} != {:?}: {}", left, right, format!($($fmt)+)).into());
                }
            }
        }
    }};
}

// ---- the scenarios -----------------------------------------------------------------------

async fn shows_a_board_of_labelled_tile_buttons(page: &Page) -> Outcome {
    page.open("#board=8,6,7/2,5,4/3,0,1&picture=numbers").await?;
    page.wait_board("8 6 7/2 5 4/3 0 1").await?;
    let tiles = page.client.find_all(Locator::Css("#board button.tile")).await?;
    ensure_eq!(tiles.len(), 8, "a 3x3 board has 8 tile buttons");
    for tile in &tiles {
        ensure_eq!(tile.tag_name().await?.to_lowercase(), "button");
        let number = tile.attr("data-tile").await?.unwrap_or_default();
        let label = tile.attr("aria-label").await?.unwrap_or_default();
        ensure!(
            label.contains(&format!("Tile {number}")),
            "accessible name {label:?} lacks {number}"
        );
        ensure_eq!(tile.text().await?.trim(), number, "the tile shows its number");
    }
    // Every control the contract names is a button with that visible text or label.
    for name in ["Randomize", "Reset", "Undo", "Redo", "Hint", "Solve", "Play", "Next picture"] {
        let found = page
            .js(&format!(
                "return [...document.querySelectorAll('button')].some(b => (b.textContent.trim() === {n} || b.getAttribute('aria-label') === {n}));",
                n = json!(name)
            ))
            .await?;
        ensure_eq!(found, json!(true), "no button {name}");
    }
    Ok(())
}

async fn the_page_weighs_under_200_kb(page: &Page) -> Outcome {
    page.open("#picture=numbers").await?;
    // What the browser fetched for the first view: the document and every file it loaded.
    let loaded = page
        .js("const all = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')];
             return [all.length, all.reduce((n, e) => n + e.decodedBodySize, 0)];")
        .await?;
    let (files, bytes) = (loaded[0].as_u64().unwrap_or(0), loaded[1].as_u64().unwrap_or(0));
    ensure!(files >= 10 && bytes > 50_000, "too little was measured: {loaded}");
    ensure!(bytes < 200 * 1024, "the page weighs {bytes} bytes in {files} files");
    Ok(())
}

async fn clicking_tiles_slides_one_or_a_run(page: &Page) -> Outcome {
    page.open("#board=1,2,3/4,0,6/7,5,8&picture=numbers").await?;
    page.click_tile(6).await?;
    page.wait_board("1 2 3/4 6 0/7 5 8").await?;
    // A tile not in the blank's row or column does not move.
    page.click_tile(7).await?;
    tokio::time::sleep(Duration::from_millis(150)).await;
    ensure_eq!(page.board().await?, "1 2 3/4 6 0/7 5 8");
    // Tile 4 is two to the left of the blank: it slides with 6.
    page.click_tile(4).await?;
    page.wait_board("1 2 3/0 4 6/7 5 8").await?;
    let moves = page.client.find(Locator::Id("moves")).await?.text().await?;
    ensure_eq!(moves, "3", "a run of two counts two moves");
    Ok(())
}

async fn a_swipe_slides_a_tile(page: &Page) -> Outcome {
    use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, PointerAction, TouchActions};
    page.open("#board=1,2,3/4,0,6/7,5,8&picture=numbers").await?;
    let board = page.client.find(Locator::Id("board")).await?;
    // A finger swipes left across the board: the tile right of the blank slides left.
    let swipe = TouchActions::new("finger".into())
        .then(PointerAction::MoveToElement { element: board, duration: None, x: 40.0, y: 0.0 })
        .then(PointerAction::Down { button: MOUSE_BUTTON_LEFT })
        .then(PointerAction::MoveBy {
            duration: Some(Duration::from_millis(150)),
            x: -90.0,
            y: 0.0,
        })
        .then(PointerAction::Up { button: MOUSE_BUTTON_LEFT });
    page.client.perform_actions(swipe).await?;
    page.wait_board("1 2 3/4 6 0/7 5 8").await?;
    page.client.release_actions().await?;
    Ok(())
}

async fn arrow_keys_move_tiles_and_undo_restores(page: &Page) -> Outcome {
    page.open("#board=1,2,3/4,5,6/7,8,0&picture=numbers").await?;
    let body = page.client.find(Locator::Css("body")).await?;
    // Keys move the tile: Right slides the tile left of the blank to the right.
    body.send_keys(&char::from(fantoccini::key::Key::Right).to_string()).await?;
    page.wait_board("1 2 3/4 5 6/7 0 8").await?;
    body.send_keys(&char::from(fantoccini::key::Key::Down).to_string()).await?;
    page.wait_board("1 2 3/4 0 6/7 5 8").await?;
    body.send_keys("a").await?; // WASD: the tile right of the blank slides left
    page.wait_board("1 2 3/4 6 0/7 5 8").await?;
    page.click("undo").await?;
    page.wait_board("1 2 3/4 0 6/7 5 8").await?;
    page.click("undo").await?;
    page.wait_board("1 2 3/4 5 6/7 0 8").await?;
    page.click("redo").await?;
    page.wait_board("1 2 3/4 0 6/7 5 8").await?;
    // With "keys move the blank", Up moves the blank up (tile 2 slides down).
    page.client.find(Locator::Id("keys")).await?.select_by_value("blank").await?;
    body.send_keys(&char::from(fantoccini::key::Key::Up).to_string()).await?;
    page.wait_board("1 0 3/4 2 6/7 5 8").await?;
    page.click("reset").await?;
    page.wait_board("1 2 3/4 5 6/7 8 0").await?;
    page.client.find(Locator::Id("keys")).await?.select_by_value("tile").await?;
    Ok(())
}

async fn randomize_then_solve_animates_to_solved(page: &Page) -> Outcome {
    page.open("#board=1,2,3/4,5,6/7,8,0&picture=alpine").await?;
    page.click("randomize").await?;
    page.wait(
        "a new random board",
        "document.getElementById('board').dataset.solved === 'false'",
        5,
    )
    .await?;
    let start: Board = page.board().await?.parse()?;
    ensure_eq!((start.width(), start.height()), (3, 3));
    page.js("const s = document.getElementById('speed'); s.value = 30; s.dispatchEvent(new Event('input'));").await?;
    // Record every position the board shows while the solution plays.
    page.js(
        "window.seen = []; new MutationObserver(() => window.seen.push(document.getElementById('board').dataset.board))\
         .observe(document.getElementById('board'), {attributes: true, attributeFilter: ['data-board']});",
    )
    .await?;
    page.click("solve").await?;
    page.wait(
        "the solution to play to the goal",
        "document.getElementById('board').dataset.solved === 'true'",
        20,
    )
    .await?;
    let seen: Vec<String> = serde_json::from_value(page.js("return window.seen;").await?)?;
    let status = page.status().await?;
    ensure!(status.contains("Solved by the solver") || status.contains("Solved"), "{status}");
    // Each position shown is one move from the one before: an animation, not a jump.
    let mut previous = start.clone();
    for text in seen.iter().filter(|t| !t.is_empty()) {
        let board: Board = text.parse()?;
        if board == previous {
            continue;
        }
        ensure!(
            previous.legal_moves().any(|m| previous.moved(m).as_ref() == Some(&board)),
            "{previous} -> {board} is not one move"
        );
        previous = board;
    }
    ensure_eq!(previous.to_string(), "1 2 3/4 5 6/7 8 0");
    let count = page.client.find(Locator::Id("step-count")).await?.text().await?;
    let (done, total) = count.split_once(" / ").ok_or("no step count")?;
    ensure_eq!(done, total);
    // Step back goes back one move; the player can take over.
    page.click("step-back").await?;
    page.wait("one step back", "document.getElementById('board').dataset.solved === 'false'", 5)
        .await?;
    Ok(())
}

/// A 5x5 Solve comes from the near-optimal engine: the message says how far from the
/// optimum the answer may be, from the lower bound the engine proved.
async fn a_5x5_solve_says_how_far_from_the_optimum_it_may_be(page: &Page) -> Outcome {
    // DeepCubeA's third 24-puzzle (86 moves at best); the engine's bound without Korf &
    // Felner's tables is well below that.
    page.open(
        "#board=6,7,1,5,9/20,19,22,3,15/0,8,18,21,2/24,13,4,10,14/17,11,16,12,23&picture=numbers",
    )
    .await?;
    page.wait_board("6 7 1 5 9/20 19 22 3 15/0 8 18 21 2/24 13 4 10 14/17 11 16 12 23").await?;
    page.click("solve").await?;
    page.wait(
        "the solve's message",
        "/Solution \\(not proven optimal\\)|Optimal solution/.test(document.getElementById('status').textContent)",
        30,
    )
    .await?;
    let status = page.status().await?;
    if status.contains("Optimal solution") {
        // Proven where Korf & Felner's tables are cached and their IDA* finished.
        ensure!(status.contains("Optimal solution: 86 moves."), "{status}");
    } else {
        // "Solution (not proven optimal): 86 moves, at most 10 more than the optimum (at least 76)."
        let number = |after: &str| -> Option<u32> {
            let rest = &status[status.find(after)? + after.len()..];
            rest.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
        };
        let length = number("(not proven optimal): ").ok_or(format!("no length: {status}"))?;
        let gap = number(", at most ").ok_or(format!("no gap: {status}"))?;
        let bound = number("than the optimum (at least ").ok_or(format!("no bound: {status}"))?;
        ensure!(length >= 86 && bound <= 86 && gap == length - bound, "{status}");
        // Along the path the distance shown is at least the bound less the moves played, and
        // at most the length less them: "lower–upper".
        let seen = page
            .js("const d = document.getElementById('distance'); \
                 return [document.getElementById('step-count').textContent, \
                 Number(d.dataset.lower), Number(d.dataset.upper), \
                 document.getElementById('distance-out').textContent];")
            .await?;
        let played: u32 = seen[0]
            .as_str()
            .and_then(|c| c.split(" / ").next()?.parse().ok())
            .ok_or(format!("no step count: {seen}"))?;
        let lower = seen[1].as_u64().ok_or(format!("no bound shown: {seen}"))?;
        ensure!(lower >= u64::from(bound.saturating_sub(played)), "{seen} with a bound of {bound}");
        ensure_eq!(seen[2].as_u64(), Some(u64::from(length - played)), "{seen}");
        ensure_eq!(seen[3], json!(format!("{lower}–{}", length - played)), "{seen}");
    }
    // A new board stops the playback.
    page.open("#board=1,2,3/4,5,6/7,8,0&picture=numbers").await?;
    page.wait_board("1 2 3/4 5 6/7 8 0").await?;
    Ok(())
}

/// While a long solve runs, the message and the TO GOAL readout say the best answer found
/// and the bound proved so far; Stop, pressed then (the Solve button says so), plays that
/// answer: an 8x8, whose near-optimal engine has a path within half a second and improves it
/// for several seconds more.
async fn stop_plays_the_best_answer_so_far(page: &Page) -> Outcome {
    let goal = npuzzle_core::Goal::BlankLast.board(npuzzle_core::Size::square(8)?)?;
    let board = npuzzle_core::Scrambler::new(3).solvable(&goal);
    let fragment = board.to_string().replace(' ', ",");
    page.open(&format!("#board={fragment}&picture=numbers")).await?;
    page.wait_board(&board.to_string()).await?;
    page.click("solve").await?;
    let label = "return document.getElementById('solve-text').textContent;";
    ensure_eq!(page.js(label).await?, json!("Stop"));
    // While it runs, the message says what it has found and proved so far, and the TO GOAL
    // readout is that range.
    page.wait(
        "the best answer so far, while solving",
        "document.getElementById('status').textContent.includes('best so far')",
        5,
    )
    .await?;
    let status = page.status().await?;
    ensure!(status.contains("the optimum is at least"), "{status}");
    let number_after = |text: &str, key: &str| -> Option<u64> {
        let rest = text.split(key).nth(1)?;
        rest.split(|c: char| !c.is_ascii_digit() && c != ',')
            .find(|w| !w.is_empty())?
            .replace(',', "")
            .parse()
            .ok()
    };
    let best = number_after(&status, "best so far ").ok_or(format!("no best: {status}"))?;
    let lower = number_after(&status, "at least ").ok_or(format!("no bound: {status}"))?;
    ensure!(lower < best, "{status}");
    let upper = page.js("return document.getElementById('distance').dataset.upper;").await?;
    ensure!(upper.as_str().and_then(|u| u.parse::<u64>().ok()).is_some_and(|u| u <= best));
    page.click("solve").await?;
    page.wait(
        "the best answer so far",
        "document.getElementById('status').textContent.startsWith('Stopped early')",
        10,
    )
    .await?;
    let status = page.status().await?;
    ensure!(status.contains("the best found so far. Solution (not proven optimal):"), "{status}");
    ensure_eq!(page.js(label).await?, json!("Solve"));
    // The transport holds that answer: "i / N" with N its length.
    let length = status
        .split("(not proven optimal): ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .ok_or(format!("no length: {status}"))?;
    let count = page.client.find(Locator::Id("step-count")).await?.text().await?;
    ensure!(count.ends_with(&format!("/ {length}")), "{count} against {status}");
    ensure!(length.replace(',', "").parse::<u64>()? <= best, "{status}: longer than {best}");
    // A new board stops the playback.
    page.open("#board=1,2,3/4,5,6/7,8,0&picture=numbers").await?;
    page.wait_board("1 2 3/4 5 6/7 8 0").await?;
    Ok(())
}

/// A hint on an 8x8 is a near-optimal solve of seconds: while it runs, the message says what it
/// has found and proved so far (as a solve's), then the hint names its move, not optimal, with
/// a distance no longer than the best it showed.
async fn a_hint_on_a_big_board_shows_its_best_path_while_it_thinks(page: &Page) -> Outcome {
    let goal = npuzzle_core::Goal::BlankLast.board(npuzzle_core::Size::square(8)?)?;
    let board = npuzzle_core::Scrambler::new(3).solvable(&goal);
    let fragment = board.to_string().replace(' ', ",");
    page.open(&format!("#board={fragment}&picture=numbers")).await?;
    page.wait_board(&board.to_string()).await?;
    page.click("hint").await?;
    page.wait(
        "the hint's best path so far, while it thinks",
        "document.getElementById('status').textContent.includes('best so far')",
        5,
    )
    .await?;
    let status = page.status().await?;
    ensure!(status.starts_with("Looking for the best move… "), "{status}");
    ensure!(status.contains("the optimum is at least"), "{status}");
    let best: u64 = status
        .split("best so far ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .ok_or(format!("no best: {status}"))?
        .replace(',', "")
        .parse()?;
    let upper = page.js("return document.getElementById('distance').dataset.upper;").await?;
    ensure!(upper.as_str().and_then(|u| u.parse::<u64>().ok()).is_some_and(|u| u <= best));
    page.wait(
        "the hint",
        "document.getElementById('status').textContent.includes('to go (not optimal')",
        20,
    )
    .await?;
    let status = page.status().await?;
    let to_go: u64 = status
        .split("about ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .ok_or(format!("no distance: {status}"))?
        .replace(',', "")
        .parse()?;
    ensure!(to_go <= best, "{status}: longer than {best}");
    ensure!(page.js("return document.getElementById('board').dataset.hint;").await?.is_string());
    Ok(())
}

async fn hint_shows_the_optimal_distance(page: &Page) -> Outcome {
    page.open("#board=8,6,7/2,5,4/3,0,1&picture=numbers").await?;
    page.click("hint").await?;
    page.wait(
        "the hint",
        "document.getElementById('status').textContent.includes('Optimal distance')",
        10,
    )
    .await?;
    let status = page.status().await?;
    ensure!(status.contains("Optimal distance 31"), "{status}");
    let hinted = page.js("return document.getElementById('board').dataset.hint;").await?;
    let tile = hinted.as_str().ok_or("no data-hint")?;
    let class = page
        .client
        .find(Locator::Css(&format!("#board button[data-tile='{tile}']")))
        .await?
        .attr("class")
        .await?;
    ensure!(class.unwrap_or_default().contains("hint"));
    // Following the hint brings the distance to 30.
    let start: Board = "8 6 7/2 5 4/3 0 1".parse()?;
    let tile: u16 = tile.parse()?;
    let letter = start.move_for_tile(tile).ok_or("the hinted tile cannot move")?;
    page.click_tile(tile).await?;
    page.wait_board(&start.moved(letter).ok_or("illegal")?.to_string()).await?;
    page.click("hint").await?;
    page.wait(
        "the next hint",
        "document.getElementById('status').textContent.includes('Optimal distance 30')",
        10,
    )
    .await?;
    Ok(())
}

async fn an_uploaded_image_becomes_the_tiles(page: &Page) -> Outcome {
    page.open("#board=1,2,3/4,5,6/7,0,8&picture=numbers").await?;
    let file = std::env::temp_dir().join(format!("npuzzle-upload-{}.png", std::process::id()));
    std::fs::write(&file, two_colour_png(120, 80))?;
    let input = page.client.find(Locator::Id("own-picture")).await?;
    input.send_keys(&file.display().to_string()).await?;
    page.wait("the picture on the tiles", "document.getElementById('board').classList.contains('picture') && document.getElementById('picture').value === 'own'", 10).await?;
    let _ = std::fs::remove_file(&file);
    // The tiles show the picture cropped to the board: sample it where tile 1 and tile 8
    // belong (top rows red, bottom row blue).
    let sample = page
        .client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             const face = document.querySelector('#board button[data-tile=\"1\"] .face');
             const url = getComputedStyle(face).backgroundImage.slice(5, -2);
             const img = new Image();
             img.onload = () => {
               const c = document.createElement('canvas');
               c.width = img.width; c.height = img.height;
               const g = c.getContext('2d');
               g.drawImage(img, 0, 0);
               done({url, top: [...g.getImageData(img.width / 6, img.height / 6, 1, 1).data],
                     bottom: [...g.getImageData(img.width / 6, img.height * 5 / 6, 1, 1).data]});
             };
             img.onerror = () => done({url, error: true});
             img.src = url;",
            vec![],
        )
        .await?;
    ensure!(sample["url"].as_str().unwrap_or_default().starts_with("blob:"), "{sample}");
    let top: Vec<u8> = serde_json::from_value(sample["top"].clone())?;
    let bottom: Vec<u8> = serde_json::from_value(sample["bottom"].clone())?;
    ensure!(top[0] > 180 && top[2] < 90, "top of the picture is not the upload's red: {top:?}");
    ensure!(bottom[2] > 170 && bottom[0] < 90, "bottom is not the upload's blue: {bottom:?}");
    Ok(())
}

async fn the_share_link_restores_position_and_picture(page: &Page) -> Outcome {
    page.open("#board=1,2,3,4/5,6,7,8/9,10,11,12/13,14,0,15&picture=numbers").await?;
    page.client.find(Locator::Id("picture")).await?.select_by_value("reef").await?;
    page.click_tile(14).await?;
    page.wait_board("1 2 3 4/5 6 7 8/9 10 11 12/13 0 14 15").await?;
    page.click("share").await?;
    page.wait("the link in the address bar", "location.hash.includes('board=')", 5).await?;
    let url = page.client.current_url().await?.to_string();
    page.client.goto("about:blank").await?;
    page.client.goto(&url).await?;
    page.wait("the page to start", "document.documentElement.dataset.ready === 'true'", 10).await?;
    page.wait_board("1 2 3 4/5 6 7 8/9 10 11 12/13 0 14 15").await?;
    let picture = page.js("return document.getElementById('picture').value;").await?;
    ensure_eq!(picture, json!("reef"));
    let size = page.js("return document.getElementById('board').dataset.size;").await?;
    ensure_eq!(size, json!("4x4"));
    Ok(())
}

async fn the_board_fits_a_phone(page: &Page) -> Outcome {
    page.set_width(390, 844).await?;
    page.open(
        "#board=1,2,3,4,5/6,7,8,9,10/11,12,13,14,15/16,17,18,19,20/21,22,23,0,24&picture=balloons",
    )
    .await?;
    let fit = page
        .js(
            "const r = document.getElementById('board').getBoundingClientRect();
             return {left: r.left, right: r.right, width: innerWidth, scroll: document.documentElement.scrollWidth,
                     tile: document.querySelector('#board .tile').getBoundingClientRect().width};",
        )
        .await?;
    let f = |k: &str| fit[k].as_f64().unwrap_or(f64::NAN);
    ensure_eq!(f("width"), 390.0, "{fit}");
    ensure!(f("left") >= 0.0 && f("right") <= 390.0, "the board overflows: {fit}");
    ensure!(f("scroll") <= 390.0, "the page scrolls sideways: {fit}");
    ensure!(
        f("tile") >= 44.0 * 5.0 / 5.0 - 1.0 && f("tile") >= 40.0,
        "tiles too small to tap: {fit}"
    );
    // Still playable: a tap slides.
    page.click_tile(24).await?;
    page.wait_board("1 2 3 4 5/6 7 8 9 10/11 12 13 14 15/16 17 18 19 20/21 22 23 24 0").await?;
    page.set_width(1280, 900).await?;
    Ok(())
}

/// `npuzzle scramble --size 4x4 --seed 11`: far beyond BFS within a stream's caps.
const HARD_4X4: &str = "4 5 14 15/2 10 1 9/3 13 0 8/11 6 12 7";
/// The 8-puzzle's hardest family: 31 moves, Manhattan 21.
const HARD_3X3: &str = "8 6 7/2 5 4/3 0 1";

impl Page {
    /// The visualizer view with a typed board, one algorithm/heuristic pair and a speed
    /// (a slider position: 4 is 20 nodes/s, 12 full speed).
    async fn search_setup(
        &self,
        board: &str,
        algorithm: &str,
        heuristic: &str,
        speed: u32,
    ) -> Outcome {
        self.client.find(Locator::Css("nav.tabs .tab[data-view='search']")).await?.click().await?;
        self.wait(
            "the search view",
            "!document.querySelector('section[data-view=search]').hidden",
            5,
        )
        .await?;
        self.client.find(Locator::Id("s-source")).await?.select_by_value("typed").await?;
        let input = self.client.find(Locator::Id("s-board")).await?;
        input.clear().await?;
        input.send_keys(board).await?;
        self.client.find(Locator::Id("s-algorithm")).await?.select_by_value(algorithm).await?;
        self.client.find(Locator::Id("s-heuristic")).await?.select_by_value(heuristic).await?;
        self.js(&format!(
            "const s = document.getElementById('s-speed'); s.value = {speed}; s.dispatchEvent(new Event('input'));"
        ))
        .await?;
        self.wait("Start to be enabled", "!document.getElementById('s-start').disabled", 5).await
    }

    /// The expansions lane `lane` shows.
    async fn expanded(&self, lane: &str) -> Result<u64, Error> {
        let v = self
            .js(&format!(
                "return Number(document.querySelector('#lane-{lane} [data-field=expanded]').dataset.value);"
            ))
            .await?;
        Ok(v.as_u64().unwrap_or(0))
    }
}

async fn the_visualizer_counts_pauses_steps_and_stops(page: &Page) -> Outcome {
    page.open("#picture=numbers").await?;
    page.search_setup(HARD_4X4, "bfs", "manhattan", 5).await?;
    page.click("s-start").await?;
    let count = "Number(document.querySelector('#lane-a [data-field=expanded]').dataset.value)";
    page.wait("nodes to be expanded", &format!("{count} >= 3"), 10).await?;
    let before = page.expanded("a").await?;
    page.wait("the count to rise", &format!("{count} > {before}"), 5).await?;
    // The node being expanded, its g, and the open list's next nodes are drawn.
    let shown = page
        .js("return [document.querySelector('#lane-a [data-field=board]').dataset.board,
                     document.querySelectorAll('#lane-a [data-field=soonest] li').length];")
        .await?;
    ensure!(shown[0].as_str().is_some_and(|b| b.parse::<Board>().is_ok()), "{shown}");
    ensure!(shown[1].as_u64().unwrap_or(0) >= 1, "no open list shown: {shown}");
    page.click("s-pause").await?;
    page.wait("the pause", "document.getElementById('lane-a').dataset.state === 'paused'", 5)
        .await?;
    let paused = page.expanded("a").await?;
    tokio::time::sleep(Duration::from_millis(600)).await;
    ensure_eq!(page.expanded("a").await?, paused, "the count rose while paused");
    page.click("s-step").await?;
    page.wait("one step", &format!("{count} === {}", paused + 1), 5).await?;
    tokio::time::sleep(Duration::from_millis(300)).await;
    ensure_eq!(page.expanded("a").await?, paused + 1, "a step is one node");
    page.click("s-stop").await?;
    page.wait("the stop", "document.getElementById('lane-a').dataset.state === 'stopped'", 5)
        .await?;
    page.wait("Start again", "!document.getElementById('s-start').disabled", 5).await?;
    Ok(())
}

async fn race_mode_finishes_both_sides_and_shows_both_results(page: &Page) -> Outcome {
    page.open("#picture=numbers").await?;
    page.search_setup("8 6 7/2 5 4/3 0 1", "astar", "manhattan", 12).await?;
    page.click("s-mode-race").await?;
    page.client.find(Locator::Id("s-algorithm-b")).await?.select_by_value("greedy").await?;
    page.client.find(Locator::Id("s-heuristic-b")).await?.select_by_value("manhattan").await?;
    page.click("s-start").await?;
    page.wait("the race results", "!document.getElementById('race-results').hidden", 20).await?;
    let rows = page
        .js("return [...document.querySelectorAll('#race-results tbody tr')].map(r => [...r.cells].map(c => c.textContent));")
        .await?;
    let rows = rows.as_array().cloned().unwrap_or_default();
    ensure_eq!(rows.len(), 2, "{rows:?}");
    ensure_eq!(rows[0][1], json!("31"), "A* finds the optimum: {rows:?}");
    ensure_eq!(rows[0][2], json!("yes"), "{rows:?}");
    ensure!(rows[1][0].as_str().is_some_and(|t| t.starts_with("greedy")), "{rows:?}");
    ensure!(
        rows[1][1].as_str().and_then(|m| m.parse::<u32>().ok()).is_some_and(|m| m > 31),
        "{rows:?}"
    );
    ensure_eq!(rows[1][2], json!("no"), "{rows:?}");
    for lane in ["a", "b"] {
        let state = page
            .js(&format!("return document.getElementById('lane-{lane}').dataset.state;"))
            .await?;
        ensure_eq!(state, json!("solved"), "lane {lane}");
    }
    page.click("s-mode-watch").await?;
    Ok(())
}

async fn bfs_on_a_hard_4x4_hits_its_cap_with_a_message(page: &Page) -> Outcome {
    page.open("#picture=numbers").await?;
    page.search_setup(HARD_4X4, "bfs", "manhattan", 12).await?;
    page.click("s-start").await?;
    let message = "document.querySelector('#lane-a [data-field=message]').textContent";
    page.wait("the cap's message", &format!("{message}.includes('BFS stopped at')"), 30).await?;
    let text = page.js(&format!("return {message};")).await?;
    ensure!(text.as_str().is_some_and(|t| t.contains("try A* with linear conflict")), "{text}");
    // A server cap reads "limit" (issue 21's contract); the user's Stop reads "stopped".
    page.wait("the end", "document.getElementById('lane-a').dataset.state === 'limit'", 5).await?;
    Ok(())
}

// ---- issue 17 (one list of names) and issue 21 (players, speed-solvers, teachers) ----------

impl Page {
    /// Solves the game's board by key presses, as a player would type them: the server's
    /// optimal solution, tile directions mapped to WASD.
    async fn solve_by_keys(&self) -> Result<usize, Error> {
        let board = self.board().await?;
        let record = self
            .client
            .execute_async(
                "const done = arguments[arguments.length - 1];
                 fetch('/api/solve', {method: 'POST', headers: {'Content-Type': 'application/json'},
                   body: JSON.stringify({board: arguments[0]})}).then(r => r.json()).then(done);",
                vec![json!(board)],
            )
            .await?;
        let moves = record["moves"].as_str().ok_or("no moves")?.to_string();
        let keys: String = moves
            .chars()
            .map(|m| match m {
                'U' => 'w',
                'D' => 's',
                'L' => 'a',
                _ => 'd',
            })
            .collect();
        self.client.find(Locator::Css("body")).await?.send_keys(&keys).await?;
        self.wait("the solved card", "!document.getElementById('celebrate').hidden", 10).await?;
        Ok(moves.len())
    }

    /// Plays the lane's solution on its transport and pauses it halfway, for a screenshot.
    async fn click_tile_in_lane(&self) -> Outcome {
        self.client.find(Locator::Css("#lane-a .lane-result button")).await?.click().await?;
        self.client.find(Locator::Css("#lane-a .player [data-part=play]")).await?.click().await?;
        for _ in 0..5 {
            self.client
                .find(Locator::Css("#lane-a .player [data-part=forward]"))
                .await?
                .click()
                .await?;
        }
        Ok(())
    }

    async fn lane(&self, lane: &str, key: &str) -> Result<Value, Error> {
        self.js(&format!("return document.getElementById('lane-{lane}').dataset[{}];", json!(key)))
            .await
    }

    async fn field(&self, lane: &str, field: &str) -> Result<String, Error> {
        let v = self
            .js(&format!(
                "return document.querySelector('#lane-{lane} [data-field={field}]').textContent;"
            ))
            .await?;
        Ok(v.as_str().unwrap_or_default().to_string())
    }
}

async fn the_solver_and_the_visualizer_share_one_list_of_names(page: &Page) -> Outcome {
    page.open("#picture=numbers").await?;
    // Every algorithm and heuristic the visualizer offers is offered by the Solver panel under
    // the same name: both selects are built from names.js.
    let mismatch = page
        .js("const opts = (id) => [...document.getElementById(id).options].map(o => [o.value, o.text]);
             const solver = new Map([...opts('algorithm'), ...opts('heuristic')]);
             return [...opts('s-algorithm'), ...opts('s-heuristic'), ...opts('s-algorithm-b')]
               .filter(([v, t]) => solver.get(v) !== t);")
        .await?;
    ensure_eq!(mismatch, json!([]), "names differ between the two panels");
    let count = page.js("return document.getElementById('s-algorithm').options.length;").await?;
    ensure_eq!(count, json!(8), "the visualizer offers the eight searches");
    Ok(())
}

async fn a_finished_lane_shows_the_goal_with_its_final_counts(page: &Page) -> Outcome {
    page.open("#picture=numbers").await?;
    // (BFS on a shallower board: the test server caps streams at 60,000 nodes.)
    for (board, algorithm, length) in [
        ("8 6 7/2 5 4/3 0 1", "astar", 31),
        ("8 6 7/2 5 4/3 0 1", "greedy", 0),
        ("4 1 2/5 8 3/0 7 6", "bfs", 8),
        ("8 6 7/2 5 4/3 0 1", "wastar", 0),
    ] {
        page.search_setup(board, algorithm, "manhattan", 12).await?;
        page.click("s-start").await?;
        page.wait("the end", "document.getElementById('lane-a').dataset.state === 'solved'", 30)
            .await?;
        let shown = page
            .js("return document.querySelector('#lane-a [data-field=board]').dataset.board;")
            .await?;
        ensure_eq!(shown, json!("1 2 3/4 5 6/7 8 0"), "{algorithm} ends on the goal");
        let g: usize = page.field("a", "g").await?.parse()?;
        let lane_length: usize =
            page.lane("a", "length").await?.as_str().unwrap_or_default().parse()?;
        ensure_eq!(g, lane_length, "{algorithm}: g is the solution's length");
        if length > 0 {
            ensure_eq!(g, length, "{algorithm}");
        }
        if algorithm != "bfs" {
            ensure_eq!(page.field("a", "h").await?, "0", "{algorithm}: h is 0 at the goal");
        }
        for key in ["open", "closed"] {
            let text = page.field("a", key).await?;
            ensure!(text != "–" && !text.is_empty(), "{algorithm}: {key} reads {text:?}");
            let data = page.lane("a", key).await?;
            ensure!(
                data.as_str().and_then(|v| v.parse::<u64>().ok()).is_some_and(|v| v > 0),
                "{algorithm}: data-{key} {data}"
            );
        }
        let expanded = page.lane("a", "expanded").await?;
        ensure!(
            expanded.as_str().and_then(|v| v.parse::<u64>().ok()).is_some_and(|v| v > 0),
            "{expanded}"
        );
    }
    Ok(())
}

async fn greedy_and_weighted_astar_show_the_f_they_sort_by(page: &Page) -> Outcome {
    page.open("#picture=numbers").await?;
    for (algorithm, formula) in [("greedy", "f = h"), ("wastar", "f = g + 2·h")] {
        page.search_setup(HARD_4X4, algorithm, "manhattan", 3).await?;
        page.click("s-start").await?;
        page.wait(
            "a few nodes",
            "Number(document.getElementById('lane-a').dataset.expanded) >= 3",
            10,
        )
        .await?;
        page.click("s-pause").await?;
        page.wait("the pause", "document.getElementById('lane-a').dataset.state === 'paused'", 5)
            .await?;
        let (g, h, f): (f64, f64, f64) = (
            page.field("a", "g").await?.parse()?,
            page.field("a", "h").await?.parse()?,
            page.field("a", "f").await?.parse()?,
        );
        let want = if algorithm == "greedy" { h } else { g + 2.0 * h };
        ensure_eq!(f, want, "{algorithm}: g {g} h {h}");
        ensure_eq!(page.field("a", "key").await?, formula);
        // Nodes per second reads "paused" while paused, not a stale rate.
        ensure_eq!(page.field("a", "rate").await?, "paused");
        page.click("s-stop").await?;
        page.wait("the stop", "document.getElementById('lane-a').dataset.state === 'stopped'", 5)
            .await?;
    }
    Ok(())
}

async fn solution_only_plays_on_a_transport_with_pause_step_and_stop(page: &Page) -> Outcome {
    page.open("#picture=numbers").await?;
    page.search_setup("8 6 7/2 5 4/3 0 1", "astar", "manhattan", 12).await?;
    page.click("s-quiet").await?;
    page.click("s-start").await?;
    let player = "document.querySelector('#lane-a .player')";
    page.wait("the playback", &format!("{player}.dataset.state === 'playing'"), 20).await?;
    let part = |name: &str| format!("#lane-a .player [data-part={name}]");
    page.client.find(Locator::Css(&part("play"))).await?.click().await?;
    page.wait("the pause", &format!("{player}.dataset.state === 'paused'"), 5).await?;
    let count = format!("return document.querySelector('{}').textContent;", part("count"));
    let before = page.js(&count).await?;
    page.client.find(Locator::Css(&part("forward"))).await?.click().await?;
    let after = page.js(&count).await?;
    let n = |v: &Value| -> u32 {
        v.as_str().and_then(|s| s.split(" / ").next()).and_then(|s| s.parse().ok()).unwrap_or(0)
    };
    ensure_eq!(n(&after), n(&before) + 1, "{before} -> {after}");
    ensure!(after.as_str().is_some_and(|s| s.ends_with("/ 31")), "{after}");
    page.client.find(Locator::Css(&part("stop"))).await?.click().await?;
    page.wait("the stop", &format!("{player}.dataset.state === 'empty'"), 5).await?;
    ensure_eq!(page.lane("a", "state").await?, json!("solved"));
    page.click("s-quiet").await?;
    Ok(())
}

async fn the_race_table_names_engines_times_and_the_winner(page: &Page) -> Outcome {
    page.open("#picture=numbers").await?;
    page.search_setup("8 6 7/2 5 4/3 0 1", "astar", "manhattan", 12).await?;
    page.click("s-mode-race").await?;
    page.client.find(Locator::Id("s-algorithm-b")).await?.select_by_value("greedy").await?;
    page.click("s-start").await?;
    page.wait("the race results", "!document.getElementById('race-results').hidden", 20).await?;
    let rows = page
        .js("return [...document.querySelectorAll('#race-results tbody tr')].map(r => [r.className, ...[...r.cells].map(c => c.textContent)]);")
        .await?;
    let rows = rows.as_array().cloned().unwrap_or_default();
    ensure_eq!(rows.len(), 2);
    ensure_eq!(rows[0][0], json!("winner"), "A* (31 moves) beats greedy: {rows:?}");
    ensure_eq!(rows[1][0], json!(""), "one winner: {rows:?}");
    ensure!(rows[0][1].as_str().is_some_and(|t| t.ends_with("— winner")), "{rows:?}");
    // A* at full speed runs on the fast engine, greedy on the generic one: the table says so.
    ensure_eq!(rows[0][6], json!("fast engine"), "{rows:?}");
    ensure_eq!(rows[1][6], json!("generic (every node)"), "{rows:?}");
    let note = page.js("return document.getElementById('race-note').textContent;").await?;
    ensure!(note.as_str().is_some_and(|n| n.contains("not times")), "{note}");
    for row in &rows {
        let time = row[5].as_str().unwrap_or_default();
        ensure!(
            time != "0.00 s"
                && (time.ends_with(" s") || time.ends_with("ms") || time.ends_with("µs")),
            "{row:?}"
        );
        ensure!(row[6].as_str().is_some_and(|e| !e.is_empty()), "no engine: {row:?}");
    }
    // A lane the user stops reads "stopped".
    page.search_setup(HARD_4X4, "bfs", "manhattan", 4).await?;
    page.client.find(Locator::Id("s-algorithm-b")).await?.select_by_value("dfs").await?;
    page.click("s-start").await?;
    page.wait("both running", "document.getElementById('lane-b').dataset.state === 'running' && document.getElementById('lane-a').dataset.state === 'running'", 10).await?;
    page.click("s-stop").await?;
    page.wait("the race results", "!document.getElementById('race-results').hidden", 10).await?;
    let moves = page
        .js("return [...document.querySelectorAll('#race-results tbody tr')].map(r => r.cells[1].textContent);")
        .await?;
    ensure_eq!(moves, json!(["stopped", "stopped"]));
    page.click("s-mode-watch").await?;
    Ok(())
}

async fn a_phone_has_big_tap_targets_and_the_transport_by_the_board(page: &Page) -> Outcome {
    page.set_width(390, 844).await?;
    let result = async {
        page.open("#board=8,6,7/2,5,4/3,0,1&picture=numbers").await?;
        let small = page
            .js("return [...document.querySelectorAll('section[data-view=play] button:not(.tile), section[data-view=play] select, section[data-view=play] .check, section[data-view=play] input[type=range], section[data-view=play] .file')]
                   .filter(e => e.offsetParent !== null)
                   .map(e => [e.id || e.textContent.trim().slice(0, 20), e.getBoundingClientRect().height])
                   .filter(([, h]) => h < 44);")
            .await?;
        ensure_eq!(small, json!([]), "tap targets under 44 px");
        page.click("solve").await?;
        page.wait("the playback", "document.getElementById('player').classList.contains('active')", 10).await?;
        let gap = page
            .js("return document.getElementById('player').getBoundingClientRect().top - document.getElementById('board').getBoundingClientRect().bottom;")
            .await?;
        ensure!(gap.as_f64().is_some_and(|g| (0.0..200.0).contains(&g)), "the transport is {gap} px under the board");
        page.click("stop").await?;
        // A race stays side by side.
        page.search_setup("8 6 7/2 5 4/3 0 1", "astar", "manhattan", 12).await?;
        page.click("s-mode-race").await?;
        let tops = page
            .js("return ['a', 'b'].map(k => document.getElementById('lane-' + k).getBoundingClientRect()).map(r => [r.top, r.right]);")
            .await?;
        ensure_eq!(tops[0][0], tops[1][0], "lanes stacked: {tops}");
        ensure!(tops[1][1].as_f64().is_some_and(|r| r <= 390.0), "{tops}");
        page.click("s-mode-watch").await?;
        Ok(())
    }
    .await;
    page.set_width(1280, 900).await?;
    result
}

async fn the_solved_picture_is_one_piece(page: &Page) -> Outcome {
    page.open("#board=1,2,3/4,5,6/7,0,8&picture=reef").await?;
    page.wait("the picture", "document.getElementById('board').classList.contains('picture')", 5)
        .await?;
    let before = page
        .js("return getComputedStyle(document.getElementById('board'), '::after').opacity;")
        .await?;
    ensure_eq!(before, json!("0"));
    page.click_tile(8).await?;
    page.wait(
        "the whole picture on top",
        "getComputedStyle(document.getElementById('board'), '::after').opacity === '1'",
        5,
    )
    .await?;
    Ok(())
}

async fn a_new_game_clears_the_solver_note_and_hello_is_no_board(page: &Page) -> Outcome {
    page.open("#board=8,6,7/2,5,4/3,0,1&picture=numbers").await?;
    page.click("solve").await?;
    page.wait("the note", "document.getElementById('solve-note').textContent.length > 0", 10)
        .await?;
    page.click("randomize").await?;
    page.wait("the note to go", "document.getElementById('solve-note').textContent === ''", 5)
        .await?;
    let input = page.client.find(Locator::Id("position")).await?;
    input.clear().await?;
    input.send_keys("hello").await?;
    page.click("load").await?;
    let status = page.status().await?;
    ensure!(status.contains("\"hello\" is not a tile number"), "{status}");
    // A custom 20x1 says what it became.
    page.client.find(Locator::Id("size")).await?.select_by_value("custom").await?;
    for (id, v) in [("width", "20"), ("height", "1")] {
        let e = page.client.find(Locator::Id(id)).await?;
        e.clear().await?;
        e.send_keys(v).await?;
    }
    page.click("custom-apply").await?;
    page.wait(
        "the note",
        "document.getElementById('status').textContent.includes('20x1 became 16x2')",
        5,
    )
    .await?;
    Ok(())
}

async fn the_hint_has_an_arrow_and_a_ring_unlike_focus(page: &Page) -> Outcome {
    page.open("#board=8,6,7/2,5,4/3,0,1&picture=numbers").await?;
    page.client.find(Locator::Css("body")).await?.send_keys("h").await?; // the Hint key
    page.wait("the hint", "document.getElementById('board').dataset.hint", 10).await?;
    let style = page
        .js("const t = document.querySelector('#board .tile.hint');
             return [t.dataset.dir, getComputedStyle(t.querySelector('.face')).outlineStyle, getComputedStyle(t, '::after').content];")
        .await?;
    let tile: u16 = page
        .js("return document.getElementById('board').dataset.hint;")
        .await?
        .as_str()
        .unwrap_or("0")
        .parse()?;
    let start: Board = "8 6 7/2 5 4/3 0 1".parse()?;
    let letter = start.move_for_tile(tile).ok_or("the hinted tile cannot move")?;
    ensure_eq!(style[0], json!(letter.to_string()), "the arrow points the way the tile slides");
    ensure_eq!(style[1], json!("dashed"), "the focus ring is solid; the hint's is dashed");
    ensure!(style[2] != json!("none"), "no arrow: {style}");
    Ok(())
}

async fn the_distance_is_a_bound_then_exact(page: &Page) -> Outcome {
    page.open("#board=8,6,7/2,5,4/3,0,1&picture=numbers").await?;
    page.wait(
        "the exact distance",
        "document.getElementById('distance').dataset.exact === '31'",
        10,
    )
    .await?;
    let lower =
        page.js("return Number(document.getElementById('distance').dataset.lower);").await?;
    ensure_eq!(lower, json!(31));
    // On a 5x5, a lower bound only.
    page.open(
        "#board=1,2,3,4,5/6,7,8,9,10/11,12,13,14,15/16,17,18,19,20/21,22,0,23,24&picture=numbers",
    )
    .await?;
    page.wait_board("1 2 3 4 5/6 7 8 9 10/11 12 13 14 15/16 17 18 19 20/21 22 0 23 24").await?;
    let d = page.js("const d = document.getElementById('distance'); return [d.dataset.lower, d.dataset.exact || null, document.getElementById('distance-out').textContent];").await?;
    ensure!(d[0].as_str().and_then(|v| v.parse::<u32>().ok()).is_some_and(|v| v >= 2), "{d}");
    ensure_eq!(d[1], Value::Null);
    ensure!(d[2].as_str().is_some_and(|t| t.starts_with('≥')), "{d}");
    Ok(())
}

async fn a_solve_is_measured_against_the_optimum_and_five_give_an_ao5(page: &Page) -> Outcome {
    page.open("#picture=numbers").await?;
    page.js("localStorage.removeItem('npuzzle.solves');").await?;
    page.open("#picture=numbers").await?;
    page.client.find(Locator::Id("size")).await?.select_by_value("3x3").await?;
    for i in 1..=5 {
        page.wait("a random 3x3", "document.getElementById('board').dataset.size === '3x3' && document.getElementById('board').dataset.solved === 'false'", 10).await?;
        let start = page.board().await?;
        let moves = page.solve_by_keys().await?;
        page.wait("the optimum", "document.getElementById('result').dataset.optimal", 10).await?;
        let card = page
            .js("const d = document.getElementById('result').dataset; return [d.moves, d.optimal, d.over, d.seconds, d.tps];")
            .await?;
        let optimal = page
            .client
            .execute_async(
                "const done = arguments[arguments.length - 1];
                 fetch('/api/solve', {method: 'POST', headers: {'Content-Type': 'application/json'},
                   body: JSON.stringify({board: arguments[0]})}).then(r => r.json()).then(r => done(r.length));",
                vec![json!(start)],
            )
            .await?;
        ensure_eq!(card[0], json!(moves.to_string()));
        ensure_eq!(card[1], json!(optimal.to_string()), "data-optimal is the server's length");
        ensure_eq!(card[2], json!("0"), "the optimal solution is 0 over");
        ensure!(card[3].as_str().and_then(|s| s.parse::<f64>().ok()).is_some(), "{card}");
        ensure!(card[4].as_str().and_then(|s| s.parse::<f64>().ok()).is_some(), "{card}");
        let stats = page.js("const d = document.getElementById('stats').dataset; return [d.count, d.ao5 || null];").await?;
        ensure_eq!(stats[0], json!(i.to_string()));
        ensure_eq!(stats[1].is_null(), i < 5, "ao5 after {i} solves: {stats}");
        if i < 5 {
            page.client.find(Locator::Css("body")).await?.send_keys("n").await?; // the New key
        }
    }
    // Fewest moves and best time are kept apart.
    let figures = page.js("return document.getElementById('stats-figures').textContent;").await?;
    ensure!(
        figures.as_str().is_some_and(|f| f.contains("Best time")
            && f.contains("Fewest moves")
            && f.contains("ao5")),
        "{figures}"
    );
    // Your solve replays at its real speed, back to the goal.
    page.click("replay-mine").await?;
    page.wait(
        "the replay to start",
        "document.getElementById('board').dataset.solved === 'false'",
        5,
    )
    .await?;
    page.wait("the replay to end", "document.getElementById('board').dataset.solved === 'true' && !document.getElementById('celebrate').hidden", 20).await?;
    Ok(())
}

async fn twelve_solves_give_an_ao12(page: &Page) -> Outcome {
    page.open("#picture=numbers").await?;
    page.js("localStorage.removeItem('npuzzle.solves');").await?;
    page.open("#picture=numbers").await?;
    page.client.find(Locator::Id("size")).await?.select_by_value("3x3").await?;
    for i in 1..=12 {
        page.wait("a random 3x3", "document.getElementById('board').dataset.size === '3x3' && document.getElementById('board').dataset.solved === 'false'", 10).await?;
        page.solve_by_keys().await?;
        let stats = page
            .js("const d = document.getElementById('stats').dataset; return [d.count, d.ao5 || null, d.ao12 || null];")
            .await?;
        ensure_eq!(stats[0], json!(i.to_string()));
        ensure_eq!(stats[1].is_null(), i < 5, "ao5 after {i} solves: {stats}");
        ensure_eq!(stats[2].is_null(), i < 12, "ao12 after {i} solves: {stats}");
        if i < 12 {
            page.client.find(Locator::Css("body")).await?.send_keys("n").await?; // the New key
        }
    }
    // The ao12 is the mean of the twelve times without the best and the worst.
    let check = page
        .js("const t = JSON.parse(localStorage.getItem('npuzzle.solves'))['3x3'].map(s => s.time).sort((a, b) => a - b);
             const mean = t.slice(1, -1).reduce((a, b) => a + b, 0) / 10;
             return [(mean / 1000).toFixed(2), document.getElementById('stats').dataset.ao12, t.length];")
        .await?;
    ensure_eq!(check[0], check[1], "{check}");
    ensure_eq!(check[2], json!(12));
    Ok(())
}

async fn a_finger_pressed_and_dragged_moves_tiles_on_a_phone(page: &Page) -> Outcome {
    use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, PointerAction, TouchActions};
    page.set_width(390, 844).await?;
    let result = async {
        page.open("#board=1,2,3/4,5,6/7,8,0&picture=numbers").await?;
        page.click("hover").await?;
        page.js("window.scrollTo(0, 0);").await?;
        let centre = |tile: u16| {
            format!("const r = document.querySelector('#board button[data-tile=\"{tile}\"]').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2];")
        };
        let mut at = Vec::new();
        for tile in [8, 7, 4] {
            let c = page.js(&centre(tile)).await?;
            at.push((c[0].as_f64().unwrap_or(0.0), c[1].as_f64().unwrap_or(0.0)));
        }
        // Pressed on 8, dragged left over 7, then up over 4: the blank follows the finger.
        // The finger glides as a finger does, a small step every frame, so it is still over
        // each tile as that tile starts to slide away from under it.
        let mut drag = TouchActions::new("finger".into())
            .then(PointerAction::MoveTo { duration: None, x: at[0].0, y: at[0].1 })
            .then(PointerAction::Down { button: MOUSE_BUTTON_LEFT });
        for leg in at.windows(2) {
            let ((x0, y0), (x1, y1)) = (leg[0], leg[1]);
            for i in 1..=20 {
                let t = f64::from(i) / 20.0;
                drag = drag.then(PointerAction::MoveTo {
                    duration: Some(Duration::from_millis(16)),
                    x: x0 + (x1 - x0) * t,
                    y: y0 + (y1 - y0) * t,
                });
            }
        }
        let drag = drag
            .then(PointerAction::Pause { duration: Duration::from_millis(150) })
            .then(PointerAction::Up { button: MOUSE_BUTTON_LEFT });
        page.client.perform_actions(drag).await?;
        page.client.release_actions().await?;
        page.wait_board("1 2 3/0 5 6/4 7 8").await?;
        let moves = page.client.find(Locator::Id("moves")).await?.text().await?;
        ensure_eq!(moves, "3", "one move per tile dragged over");
        page.click("hover").await?;
        Ok(())
    }
    .await;
    page.set_width(1280, 900).await?;
    result
}

async fn the_result_card_shows_without_scrolling_on_a_phone(page: &Page) -> Outcome {
    page.set_width(390, 844).await?;
    let result = async {
        page.open("#picture=numbers").await?;
        page.client.find(Locator::Id("size")).await?.select_by_value("3x3").await?;
        page.wait("a random 3x3", "document.getElementById('board').dataset.size === '3x3' && document.getElementById('board').dataset.solved === 'false'", 10).await?;
        page.js("window.scrollTo(0, 0);").await?;
        page.solve_by_keys().await?;
        page.wait("the optimum", "document.getElementById('result').dataset.optimal", 10).await?;
        // Whole in the viewport, and on top where it is: nothing covers it.
        let seen = page
            .js("const r = document.getElementById('result').getBoundingClientRect();
                 const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                 return [r.top >= 0, r.bottom <= innerHeight, r.left >= 0, r.right <= innerWidth,
                         Boolean(hit && hit.closest('#result')), Math.round(r.top), Math.round(r.bottom), innerHeight];")
            .await?;
        let whole = seen.as_array().is_some_and(|v| v[..5].iter().all(|b| *b == json!(true)));
        ensure!(whole, "the card at {seen}");
        Ok(())
    }
    .await;
    page.set_width(1280, 900).await?;
    result
}

async fn a_challenge_link_and_the_daily_scramble(page: &Page) -> Outcome {
    page.open("#challenge=8,6,7/2,5,4/3,0,1&t=41200&m=31&picture=numbers").await?;
    page.wait_board("8 6 7/2 5 4/3 0 1").await?;
    let status = page.status().await?;
    ensure!(status.contains("beat 0:41.2 and 31 moves"), "{status}");
    page.click("daily").await?;
    page.wait(
        "the daily board",
        "document.getElementById('board').dataset.board !== '8 6 7/2 5 4/3 0 1'",
        10,
    )
    .await?;
    let first = page.board().await?;
    page.click("randomize").await?;
    page.wait(
        "another board",
        &format!("document.getElementById('board').dataset.board !== {}", json!(first)),
        10,
    )
    .await?;
    page.click("daily").await?;
    page.wait_board(&first).await?;
    Ok(())
}

async fn a_scramble_and_solution_in_the_speedsolvers_notation_play(page: &Page) -> Outcome {
    page.open("#picture=numbers").await?;
    let input = page.client.find(Locator::Id("position")).await?;
    input.clear().await?;
    input.send_keys("1 2 3/4 5 6/0 7 8 | L2").await?;
    page.click("load").await?;
    page.wait_board("1 2 3/4 5 6/0 7 8").await?;
    page.wait(
        "the moves on the transport",
        "document.getElementById('step-count').textContent === '0 / 2'",
        5,
    )
    .await?;
    page.click("play").await?;
    page.wait_board("1 2 3/4 5 6/7 8 0").await?;
    // Export writes the scramble and the moves played.
    page.open("#board=1,2,3/4,5,6/0,7,8&picture=numbers").await?;
    page.click_tile(8).await?;
    page.wait_board("1 2 3/4 5 6/7 8 0").await?;
    page.click("export").await?;
    let text = page.js("return document.getElementById('position').value;").await?;
    ensure_eq!(text, json!("1 2 3/4 5 6/0 7 8 | L2"));
    Ok(())
}

async fn options_mark_tiles_stop_animations_and_follow_the_pointer(page: &Page) -> Outcome {
    use fantoccini::actions::{InputSource, MouseActions, PointerAction};
    page.open("#board=1,2,3/4,0,6/7,5,8&picture=numbers").await?;
    page.click("mark-home").await?;
    page.click("animate").await?;
    let state = page
        .js("return [document.getElementById('board').classList.contains('mark-home'), document.body.classList.contains('no-anim'),
                     getComputedStyle(document.querySelector('#board .tile')).transitionDuration];")
        .await?;
    ensure_eq!(state, json!([true, true, "0s"]));
    page.click("hover").await?;
    let tile = page.client.find(Locator::Css("#board button[data-tile='6']")).await?;
    let over = MouseActions::new("mouse".into()).then(PointerAction::MoveToElement {
        element: tile,
        duration: None,
        x: 0.0,
        y: 0.0,
    });
    page.client.perform_actions(over).await?;
    page.wait_board("1 2 3/4 6 0/7 5 8").await?;
    page.client.release_actions().await?;
    for id in ["mark-home", "animate", "hover"] {
        page.click(id).await?;
    }
    Ok(())
}

async fn the_pseudocode_marks_the_line_and_step_walks_it(page: &Page) -> Outcome {
    page.open("#picture=numbers").await?;
    page.search_setup(HARD_4X4, "bfs", "manhattan", 3).await?;
    page.click("s-code").await?;
    let lines =
        page.js("return document.querySelectorAll('[data-role=pseudocode] li').length;").await?;
    ensure!(lines.as_u64().is_some_and(|n| n >= 6), "{lines}");
    page.click("s-start").await?;
    page.wait("a node", "Number(document.getElementById('lane-a').dataset.expanded) >= 2", 10)
        .await?;
    page.click("s-pause").await?;
    page.wait("the pause", "document.getElementById('lane-a').dataset.state === 'paused'", 5)
        .await?;
    let current = "[...document.querySelectorAll('[data-role=pseudocode] li')].findIndex(li => li.getAttribute('aria-current') === 'step')";
    page.wait("the pop line", &format!("{current} === 2"), 5).await?;
    let count = page.expanded("a").await?;
    page.click("s-step").await?;
    let after = page.js(&format!("return {current};")).await?;
    ensure_eq!(after, json!(3), "Step marks the goal test");
    ensure_eq!(page.expanded("a").await?, count, "walking lines expands nothing");
    // The rest of the body, then the next node.
    for _ in 0..4 {
        page.click("s-step").await?;
    }
    page.wait(
        "the next node",
        &format!(
            "Number(document.getElementById('lane-a').dataset.expanded) === {} && {current} === 2",
            count + 1
        ),
        5,
    )
    .await?;
    page.click("s-stop").await?;
    page.click("s-code").await?;
    Ok(())
}

async fn ida_star_charts_its_path_and_lists_its_bounds(page: &Page) -> Outcome {
    page.open("#picture=numbers").await?;
    page.search_setup("8 6 7/2 5 4/3 0 1", "idastar", "manhattan", 12).await?;
    let caption = page.field("a", "caption").await?;
    ensure_eq!(caption, "Path depth over time");
    // The empty chart is drawn at the screen's resolution, with a word, not blurred.
    let canvas = page.js("const c = document.querySelector('#lane-a canvas'); return [c.width, Math.round(c.clientWidth * devicePixelRatio)];").await?;
    ensure_eq!(canvas[0], canvas[1]);
    page.click("s-start").await?;
    page.wait("the end", "document.getElementById('lane-a').dataset.state === 'solved'", 30)
        .await?;
    let bounds = page.js("return [...document.querySelectorAll('#lane-a [data-field=bounds] li')].map(l => l.textContent);").await?;
    let bounds = bounds.as_array().cloned().unwrap_or_default();
    ensure!(bounds.len() >= 2, "{bounds:?}");
    ensure!(
        bounds.first().and_then(Value::as_str).is_some_and(|b| b == "bound 21 at the start"),
        "{bounds:?}"
    );
    ensure!(
        bounds
            .last()
            .and_then(Value::as_str)
            .is_some_and(|b| b.starts_with("bound 29 → 31 after ")),
        "{bounds:?}"
    );
    // The path box ends on the solution.
    let path = page.js("return document.getElementById('lane-a').dataset.path;").await?;
    ensure_eq!(path.as_str().map(str::len), Some(31), "{path}");
    Ok(())
}

/// The moves of `path` made on `start`: the board they lead to.
fn walked(start: &str, path: &str) -> Result<String, Error> {
    let mut board: Board = start.parse()?;
    board.apply_all(&path.parse()?)?;
    Ok(board.to_string())
}

async fn ida_star_and_iddfs_show_the_current_path_node_by_node(page: &Page) -> Outcome {
    page.open("#picture=numbers").await?;
    for algorithm in ["idastar", "iddfs"] {
        // 50 nodes a second: the generic engine, which shows every node.
        page.search_setup(HARD_3X3, algorithm, "manhattan", 5).await?;
        page.click("s-start").await?;
        page.wait(
            "a few nodes",
            "Number(document.getElementById('lane-a').dataset.expanded) >= 12",
            20,
        )
        .await?;
        page.click("s-pause").await?;
        page.wait("the pause", "document.getElementById('lane-a').dataset.state === 'paused'", 5)
            .await?;
        let mut depths = Vec::new();
        for step in 0..6 {
            if step > 0 {
                let before =
                    page.js("return document.getElementById('lane-a').dataset.expanded;").await?;
                page.click("s-step").await?;
                page.wait(
                    "the next node",
                    &format!("document.getElementById('lane-a').dataset.expanded !== {before}"),
                    5,
                )
                .await?;
            }
            // The node drawn is where the path leads from the start, and g is its length.
            let shown = page
                .js("const l = document.getElementById('lane-a'); return [l.dataset.path, l.querySelector('[data-field=board]').dataset.board, l.querySelector('[data-field=g]').textContent, [...l.querySelectorAll('[data-field=path] span')].map(s => s.textContent).join('')];")
                .await?;
            let path = shown[0].as_str().ok_or("no data-path")?;
            ensure_eq!(
                walked(HARD_3X3, path)?,
                shown[1].as_str().unwrap_or_default(),
                "{algorithm}: {shown}"
            );
            ensure_eq!(
                path.len().to_string(),
                shown[2].as_str().unwrap_or_default(),
                "{algorithm}: {shown}"
            );
            ensure_eq!(shown[3].as_str(), Some(path), "the moves drawn");
            depths.push(path.len());
        }
        ensure!(
            depths.windows(2).any(|w| w[0] != w[1]),
            "{algorithm}: the path never moved: {depths:?}"
        );
        // The bound the search works under is listed from the start.
        let bounds = page.js("return [...document.querySelectorAll('#lane-a [data-field=bounds] li')].map(l => l.textContent);").await?;
        ensure!(bounds[0].as_str().is_some_and(|b| b.ends_with("at the start")), "{bounds}");
        page.click("s-stop").await?;
        page.wait("the stop", "document.getElementById('lane-a').dataset.state === 'stopped'", 5)
            .await?;
    }
    Ok(())
}

async fn mini_boards_are_readable_on_a_4x4(page: &Page) -> Outcome {
    page.open("#picture=numbers").await?;
    page.search_setup(HARD_4X4, "astar", "manhattan", 4).await?;
    page.click("s-start").await?;
    page.wait(
        "the lists",
        "document.querySelectorAll('#lane-a [data-field=soonest] .mini span').length >= 16",
        10,
    )
    .await?;
    page.click("s-pause").await?;
    let size = page.js("return parseFloat(getComputedStyle(document.querySelector('#lane-a [data-field=soonest] .mini span')).fontSize);").await?;
    ensure!(size.as_f64().is_some_and(|s| s >= 9.0), "digits of {size} px");
    page.click("s-stop").await?;
    Ok(())
}

async fn a_picture_change_shows_it_is_busy(page: &Page) -> Outcome {
    page.open("#board=1,2,3,4/5,6,7,8/9,10,11,12/13,14,0,15&picture=numbers").await?;
    page.js("window.busy = []; new MutationObserver(() => window.busy.push(document.getElementById('board-wrap').getAttribute('aria-busy')))
             .observe(document.getElementById('board-wrap'), {attributes: true, attributeFilter: ['aria-busy']});").await?;
    page.client.find(Locator::Id("picture")).await?.select_by_value("city").await?;
    page.wait("the picture", "document.getElementById('board').classList.contains('picture')", 10)
        .await?;
    let busy = page.js("return window.busy;").await?;
    ensure_eq!(busy, json!(["true", null]), "busy while drawing, then not");
    Ok(())
}

async fn a_batch_race_exports_csv_and_json(page: &Page) -> Outcome {
    page.open("#picture=numbers").await?;
    page.search_setup("8 6 7/2 5 4/3 0 1", "astar", "manhattan", 12).await?;
    for (id, v) in [("b-count", "3"), ("b-depth", "12")] {
        let e = page.client.find(Locator::Id(id)).await?;
        e.clear().await?;
        e.send_keys(v).await?;
    }
    page.click("b-start").await?;
    page.wait(
        "the batch",
        "document.getElementById('batch-status').textContent.startsWith('Done')",
        30,
    )
    .await?;
    let rows = page.js("return [...document.querySelectorAll('#batch-table tbody tr')].map(r => [...r.cells].map(c => c.textContent));").await?;
    let rows = rows.as_array().cloned().unwrap_or_default();
    ensure_eq!(rows.len(), 2, "{rows:?}");
    ensure_eq!(rows[0][1], json!("3 / 3"), "{rows:?}");
    let csv = page.js("return document.getElementById('batch-csv-text').textContent;").await?;
    let csv = csv.as_str().unwrap_or_default();
    ensure_eq!(csv.lines().count(), 7, "a header and 6 rows: {csv}");
    let header: Vec<&str> = csv.lines().next().unwrap_or_default().split(',').collect();
    ensure_eq!(header[..3], ["board", "depth", "search"], "{csv}");
    // Each board is a walk of 12 moves from the goal: A* solves it in at most 12, of even
    // parity, and the row says the depth.
    let at = |name: &str| header.iter().position(|h| *h == name).unwrap_or(usize::MAX);
    for row in csv.lines().skip(1).map(|l| l.split(',').collect::<Vec<_>>()) {
        ensure_eq!(row.get(at("depth")).copied(), Some("12"), "{row:?}");
        if row.get(at("algorithm")).copied() == Some("astar") {
            let length: usize = row.get(at("length")).and_then(|l| l.parse().ok()).unwrap_or(99);
            ensure!(length <= 12 && length % 2 == 0, "{row:?}");
        }
    }
    // The downloads are the page's own files (the page's policy lets it fetch none of them).
    let links = page
        .js("return ['batch-csv', 'batch-json'].map(id => document.getElementById(id)).map(a => a.href.startsWith('blob:') && a.hasAttribute('download'));")
        .await?;
    ensure_eq!(links, json!([true, true]));
    Ok(())
}

async fn the_embed_mode_shows_one_search(page: &Page) -> Outcome {
    page.open("#embed&board=8,6,7/2,5,4/3,0,1&algorithm=astar&heuristic=manhattan&pace=0").await?;
    page.wait("the end", "document.getElementById('lane-a').dataset.state === 'solved'", 30)
        .await?;
    let chrome = page
        .js("return [getComputedStyle(document.querySelector('header.top')).display, document.querySelector('section[data-view=play]').hidden, document.getElementById('lane-a').dataset.length];")
        .await?;
    ensure_eq!(chrome, json!(["none", true, "31"]));
    Ok(())
}

/// Screenshots of the page for people to look at (NPUZZLE_SCREENSHOTS=DIR).
async fn screenshots(page: &Page, dir: &Path) -> Outcome {
    let only_search = std::env::var_os("NPUZZLE_SCREENSHOTS_SEARCH").is_some();
    for (width, height, tag) in [(1280, 900, "1280"), (390, 844, "390")] {
        page.set_width(width, height).await?;
        page.open("#picture=numbers").await?;
        page.search_setup(HARD_4X4, "astar", "manhattan", 8).await?;
        page.click("s-start").await?;
        tokio::time::sleep(Duration::from_millis(1500)).await;
        page.click("s-pause").await?;
        page.wait("the pause", "document.getElementById('lane-a').dataset.state === 'paused'", 5)
            .await?;
        page.js("window.scrollTo(0, 0);").await?;
        page.screenshot(&dir.join(format!("search-astar-{tag}.png"))).await?;
        page.click("s-stop").await?;
        page.search_setup(HARD_4X4, "idastar", "linear-conflict", 12).await?;
        page.click("s-start").await?;
        tokio::time::sleep(Duration::from_millis(2500)).await;
        page.js("window.scrollTo(0, 0);").await?;
        page.screenshot(&dir.join(format!("search-idastar-{tag}.png"))).await?;
        page.click("s-stop").await?;
        // Paced, IDA* shows its current path at every node.
        page.search_setup(HARD_3X3, "idastar", "manhattan", 5).await?;
        page.click("s-start").await?;
        page.wait(
            "a deep node",
            "(document.getElementById('lane-a').dataset.path || '').length >= 9",
            30,
        )
        .await?;
        page.click("s-pause").await?;
        page.wait("the pause", "document.getElementById('lane-a').dataset.state === 'paused'", 5)
            .await?;
        page.js("window.scrollTo(0, 0);").await?;
        page.screenshot(&dir.join(format!("idastar-path-{tag}.png"))).await?;
        page.js("document.querySelector('#lane-a .path-box').scrollIntoView({block: 'center'});")
            .await?;
        page.screenshot(&dir.join(format!("idastar-path-box-{tag}.png"))).await?;
        page.click("s-stop").await?;
        page.search_setup("8 6 7/2 5 4/3 0 1", "astar", "manhattan", 12).await?;
        page.click("s-mode-race").await?;
        page.client.find(Locator::Id("s-algorithm-b")).await?.select_by_value("greedy").await?;
        page.click("s-start").await?;
        page.wait("the race results", "!document.getElementById('race-results').hidden", 20)
            .await?;
        page.js("window.scrollTo(0, 0);").await?;
        page.screenshot(&dir.join(format!("race-{tag}.png"))).await?;
        page.js("document.getElementById('race-results').scrollIntoView({block: 'center'});")
            .await?;
        page.screenshot(&dir.join(format!("race-table-{tag}.png"))).await?;
        page.click("s-mode-watch").await?;
        if only_search {
            continue;
        }
        page.open("#board=8,6,7/2,5,4/3,0,1&picture=numbers").await?;
        page.screenshot(&dir.join(format!("numbers-3x3-{tag}.png"))).await?;
        page.open("#board=12,1,10,2/7,11,4,14/5,0,9,15/8,13,6,3&picture=alpine").await?;
        page.wait(
            "the picture",
            "document.getElementById('board').classList.contains('picture')",
            5,
        )
        .await?;
        page.click("hint").await?;
        page.wait("the hint", "document.getElementById('board').dataset.hint", 10).await?;
        page.screenshot(&dir.join(format!("hint-4x4-{tag}.png"))).await?;
        for picture in ["reef", "bauhaus", "city", "balloons"] {
            page.open(&format!("#board=1,2,3,4/5,6,7,8/9,10,11,12/13,14,0,15&picture={picture}"))
                .await?;
            page.wait(
                "the picture",
                "document.getElementById('board').classList.contains('picture')",
                5,
            )
            .await?;
            page.screenshot(&dir.join(format!("{picture}-{tag}.png"))).await?;
        }
        page.click_tile(15).await?;
        page.wait("the solved moment", "!document.getElementById('celebrate').hidden", 5).await?;
        tokio::time::sleep(Duration::from_millis(900)).await;
        page.screenshot(&dir.join(format!("solved-{tag}.png"))).await?;
        page.open("#board=5,1,2,3/9,6,7,4/13,10,11,8/0,14,15,12&picture=numbers").await?;
        page.js("const s = document.getElementById('speed'); s.value = 2; s.dispatchEvent(new Event('input'));").await?;
        page.click("solve").await?;
        page.wait(
            "playback",
            "document.getElementById('step-count').textContent.startsWith('2 /')",
            10,
        )
        .await?;
        page.click("play").await?;
        page.screenshot(&dir.join(format!("playback-{tag}.png"))).await?;
        // Issue 21's views: the result card, statistics, pseudocode, batch, embed.
        page.open("#picture=alpine").await?;
        page.client.find(Locator::Id("size")).await?.select_by_value("3x3").await?;
        page.wait("a random 3x3", "document.getElementById('board').dataset.size === '3x3' && document.getElementById('board').dataset.solved === 'false'", 10).await?;
        page.solve_by_keys().await?;
        page.wait("the optimum", "document.getElementById('result').dataset.optimal", 10).await?;
        tokio::time::sleep(Duration::from_millis(1200)).await;
        page.js("window.scrollTo(0, 0);").await?;
        page.screenshot(&dir.join(format!("result-{tag}.png"))).await?;
        page.js("document.getElementById('stats').scrollIntoView();").await?;
        page.screenshot(&dir.join(format!("stats-{tag}.png"))).await?;
        page.open("#board=8,6,7/2,5,4/3,0,1&picture=numbers").await?;
        page.click("hint").await?;
        page.wait("the hint", "document.getElementById('board').dataset.hint", 10).await?;
        page.screenshot(&dir.join(format!("hint-arrow-{tag}.png"))).await?;
        page.search_setup(HARD_4X4, "astar", "manhattan", 3).await?;
        page.click("s-code").await?;
        page.click("s-start").await?;
        page.wait(
            "a few nodes",
            "Number(document.getElementById('lane-a').dataset.expanded) >= 3",
            10,
        )
        .await?;
        page.click("s-pause").await?;
        page.wait("the pause", "document.getElementById('lane-a').dataset.state === 'paused'", 5)
            .await?;
        page.click("s-step").await?;
        page.click("s-step").await?;
        page.js("document.getElementById('code-panel').scrollIntoView();").await?;
        page.screenshot(&dir.join(format!("pseudocode-{tag}.png"))).await?;
        page.js("window.scrollTo(0, 0);").await?;
        page.screenshot(&dir.join(format!("search-4x4-{tag}.png"))).await?;
        page.click("s-stop").await?;
        page.click("s-code").await?;
        page.search_setup("8 6 7/2 5 4/3 0 1", "idastar", "manhattan", 12).await?;
        page.click("s-start").await?;
        page.wait("the end", "document.getElementById('lane-a').dataset.state === 'solved'", 30)
            .await?;
        page.click_tile_in_lane().await?;
        page.screenshot(&dir.join(format!("idastar-solved-{tag}.png"))).await?;
        page.click("b-start").await?;
        page.wait(
            "the batch",
            "document.getElementById('batch-status').textContent.startsWith('Done')",
            60,
        )
        .await?;
        page.js("document.getElementById('batch').scrollIntoView();").await?;
        page.screenshot(&dir.join(format!("batch-{tag}.png"))).await?;
        page.open("#embed&board=8,6,7/2,5,4/3,0,1&algorithm=astar&heuristic=manhattan&pace=20")
            .await?;
        tokio::time::sleep(Duration::from_millis(1500)).await;
        page.screenshot(&dir.join(format!("embed-{tag}.png"))).await?;
        page.open("#picture=city").await?;
        page.client.find(Locator::Id("size")).await?.select_by_value("6x6").await?;
        page.wait("a 6x6 board", "document.getElementById('board').dataset.size === '6x6' && document.getElementById('board').classList.contains('picture')", 5).await?;
        tokio::time::sleep(Duration::from_millis(300)).await;
        page.screenshot(&dir.join(format!("city-6x6-{tag}.png"))).await?;
    }
    page.set_width(1280, 900).await?;
    Ok(())
}

type Scenario = for<'a> fn(&'a Page) -> Pin<Box<dyn Future<Output = Outcome> + 'a>>;

macro_rules! scenarios {
    ($($name:ident),* $(,)?) => {
        [$((stringify!($name), (|page| Box::pin($name(page))) as Scenario)),*]
    };
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_plays_in_chromium() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    // A low node cap for streams, so BFS on a hard 4x4 meets it in a second or two.
    let state = AppState::new(Config { workers: 2, stream_nodes: 60_000, ..Config::default() });
    let server = tokio::spawn(npuzzle_web::serve(listener, state, std::future::pending()));

    let (mut driver, port) = start_chromedriver().await.unwrap();
    let profile = std::env::temp_dir().join(format!(
        "npuzzle-chromium-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    ));
    let client = connect(port, &profile).await.unwrap();
    let page = Page { client, base };

    let mut failures = Vec::new();
    let only = std::env::var("NPUZZLE_SCENARIO").ok();
    for (name, scenario) in scenarios![
        shows_a_board_of_labelled_tile_buttons,
        the_page_weighs_under_200_kb,
        clicking_tiles_slides_one_or_a_run,
        a_swipe_slides_a_tile,
        arrow_keys_move_tiles_and_undo_restores,
        randomize_then_solve_animates_to_solved,
        a_5x5_solve_says_how_far_from_the_optimum_it_may_be,
        stop_plays_the_best_answer_so_far,
        a_hint_on_a_big_board_shows_its_best_path_while_it_thinks,
        hint_shows_the_optimal_distance,
        an_uploaded_image_becomes_the_tiles,
        the_share_link_restores_position_and_picture,
        the_board_fits_a_phone,
        the_visualizer_counts_pauses_steps_and_stops,
        race_mode_finishes_both_sides_and_shows_both_results,
        bfs_on_a_hard_4x4_hits_its_cap_with_a_message,
        the_solver_and_the_visualizer_share_one_list_of_names,
        a_finished_lane_shows_the_goal_with_its_final_counts,
        greedy_and_weighted_astar_show_the_f_they_sort_by,
        solution_only_plays_on_a_transport_with_pause_step_and_stop,
        the_race_table_names_engines_times_and_the_winner,
        a_phone_has_big_tap_targets_and_the_transport_by_the_board,
        the_solved_picture_is_one_piece,
        a_new_game_clears_the_solver_note_and_hello_is_no_board,
        the_hint_has_an_arrow_and_a_ring_unlike_focus,
        the_distance_is_a_bound_then_exact,
        a_solve_is_measured_against_the_optimum_and_five_give_an_ao5,
        twelve_solves_give_an_ao12,
        a_finger_pressed_and_dragged_moves_tiles_on_a_phone,
        the_result_card_shows_without_scrolling_on_a_phone,
        a_challenge_link_and_the_daily_scramble,
        a_scramble_and_solution_in_the_speedsolvers_notation_play,
        options_mark_tiles_stop_animations_and_follow_the_pointer,
        the_pseudocode_marks_the_line_and_step_walks_it,
        ida_star_charts_its_path_and_lists_its_bounds,
        ida_star_and_iddfs_show_the_current_path_node_by_node,
        mini_boards_are_readable_on_a_4x4,
        a_picture_change_shows_it_is_busy,
        a_batch_race_exports_csv_and_json,
        the_embed_mode_shows_one_search,
    ] {
        if only.as_deref().is_some_and(|o| !name.contains(o)) {
            continue;
        }
        if let Err(err) = scenario(&page).await {
            let shot = target_dir().join("browser-failures").join(format!("{name}.png"));
            let saved = page.screenshot(&shot).await.map_or_else(
                |e| format!("(no screenshot: {e})"),
                |()| format!("screenshot: {}", shot.display()),
            );
            failures.push(format!("{name}: {err} {saved}"));
        }
    }
    if let Some(dir) = std::env::var_os("NPUZZLE_SCREENSHOTS") {
        if let Err(err) = screenshots(&page, Path::new(&dir)).await {
            failures.push(format!("screenshots: {err}"));
        }
    }
    let _ = page.client.close().await;
    let _ = driver.kill().await;
    let _ = std::fs::remove_dir_all(&profile);
    server.abort();
    assert!(failures.is_empty(), "{} scenario(s) failed:\n{}", failures.len(), failures.join("\n"));
}
