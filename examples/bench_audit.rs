//! Benchmark of the audit of the design's original runs (issue 17 budget: re-scoring the
//! design's 14,391 recorded transcripts three ways in under 5 s on this 2-core machine;
//! they took 11-12 s). Writes N transcripts the way the original code does
//! (ORIGINAL_DATA.md: 5x5 and 7x7, every shape, both encodings, the maze files in
//! `experiment_mazes/`; clean solves, models that wander to the move limit, diagonal
//! moves, a move read differently by strict and original, mazes quoted back, hedged
//! mentions, mazes with other spacing, API failures), each reply worded as chat models
//! word theirs (the position, each neighbour looked at, sometimes the maze copied back,
//! the route planned, then the move), so that the whole command takes on this folder
//! about what it took on the real one. Then times reading every file and scoring it
//! recorded, strict and original on one thread (as the results page does in the browser)
//! and on every core (as `shapemaze score` does), and checks both give the same audit.
//! `cargo run --profile bench-native --example bench_audit [N] [--keep]` (`--keep` leaves
//! the folder for timing `shapemaze score FOLDER --scoring all` on it).
#![allow(clippy::disallowed_methods)] // native only: clocks and threads (clippy.toml)

// The benchmark times the command line's path, which the browser build does not have.
#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> Result<(), String> {
    native::main()
}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use shapemaze::cli::audit::collect;
    use shapemaze::core::maze::encoding::{CoordStyle, Encoding};
    use shapemaze::core::maze::generate::generate_set;
    use shapemaze::core::maze::grid::{Maze, Movement, Pos};
    use shapemaze::core::maze::npy;
    use shapemaze::core::maze::shape::Shape;
    use shapemaze::core::maze::templates::TemplateLibrary;
    use shapemaze::core::original::audit::{audit_transcript, read_maze_file, Scored};
    use shapemaze::core::original::checks::{original_move, OriginalFamily};
    use shapemaze::core::original::mark::Mark;
    use shapemaze::core::original::score::AuditCache;
    use shapemaze::core::original::transcript::{
        COMBINED_LAST, COMBINED_START, FIRST_PROMPT_START, MAZE_INTRO, NEXT_MOVE, UPDATE_INTRO,
    };
    use shapemaze::core::results::layout::maze_file_path;
    use std::collections::{BTreeMap, HashMap};
    use std::path::PathBuf;
    use std::time::Instant;

    fn render(m: &Maze, e: Encoding) -> String {
        e.render_with(m.grid(), CoordStyle::Spaced)
    }

    /// What a chat model writes before its move: where it stands, each neighbour looked at,
    /// sometimes the maze copied back (real replies run to hundreds of characters).
    fn move_reasoning(m: &Maze, e: Encoding, rest: &[Pos], variant: usize, step: usize) -> String {
        let to = rest[0];
        let (p, g) = (m.player(), m.goal());
        let mut out = format!(
        "Let me analyze the current state of the maze.\n\nCurrent position (P): ({}, {})\nGoal (G): ({}, {})\n\nLooking at the possible moves from ({}, {}):\n",
        p.row, p.col, g.row, g.col, p.row, p.col
    );
        for (name, dr, dc) in [
            ("Up", -1, 0),
            ("Down", 1, 0),
            ("Left", 0, -1),
            ("Right", 0, 1),
        ] {
            let what = match p
                .offset(dr, dc)
                .and_then(|q| m.grid().get(q).map(|t| (q, t)))
            {
                Some((q, t)) => format!(
                    "({}, {}) - {}",
                    q.row,
                    q.col,
                    if t.is_open() { "open path" } else { "wall" }
                ),
                None => "out of bounds".to_string(),
            };
            out.push_str(&format!("- {name}: {what}\n"));
        }
        if (variant + step).is_multiple_of(3) {
            out.push_str(&format!("\nThe maze as it stands:\n\n{}\n", render(m, e)));
        }
        if (variant + step).is_multiple_of(2) {
            for r in 0..m.rows() {
                let open: Vec<String> = (0..m.cols())
                    .filter(|&c| m.grid().get(Pos::new(r, c)).is_some_and(|t| t.is_open()))
                    .map(|c| format!("({r}, {c})"))
                    .collect();
                out.push_str(&format!("Row {r}: open cells {}\n", open.join(", ")));
            }
        }
        out.push_str(&format!(
        "\nComparing positions: the goal is in row {} and column {}, I am in row {} and column {}. A move straight towards the goal is not always possible, because the walls (the 1s) block the way in several places; the corridor has to be followed around its turns. I also need to make sure that I do not move back onto a cell I have already visited, since that would waste one of the limited moves, and that every move goes to a cell next to my current position.\n",
        g.row, g.col, p.row, p.col
    ));
        let plan: Vec<String> = rest
            .iter()
            .map(|q| format!("({}, {})", q.row, q.col))
            .collect();
        out.push_str(&format!(
        "\nThe goal lies further along the corridor, so I will keep to the open cells and move closer to it without stepping into a wall or leaving the grid. Planning the route from here: {}, which ends on the goal.\n\n",
        plan.join(" -> ")
    ));
        out.push_str(&format!("My next move is ({}, {}).", to.row, to.col));
        out
    }

    /// What a chat model writes around its recognition and generation answer.
    fn combined_reasoning(rows: usize) -> String {
        format!(
        "Looking at the maze I solved, the empty spaces (the 0s, together with P and G) form a connected corridor inside the grid of {rows} rows, while the 1s are walls around it. Tracing the corridor row by row, the open cells run along its edges and turn where the walls close in, which gives the outline its character.\n\nI will name the outline below, then draw a new maze whose corridor keeps it, with the player and the goal placed elsewhere on the corridor.\n\n"
    )
    }

    /// One transcript written the original way; `variant` picks the player's behaviour.
    fn transcript(shape: Shape, e: Encoding, maze: &Maze, other: &Maze, variant: usize) -> String {
        if variant % 7 == 6 {
            return "Query did not run: experiment_mazes/x.npy\nError: timeout\n\nSOLVE: FAIL\n\nRECOGNIZE: FAIL\n\nGENERATE: FAIL\n".into();
        }
        let movement = if variant % 7 == 1 {
            Movement::Eight
        } else {
            shape.movement()
        };
        let rules = if shape.movement() == Movement::Four {
            "You can move up, down, left, or right."
        } else {
            "You can move either up, down, left, right, or any diagonal."
        };
        let path = maze.shortest_path(movement).unwrap_or_default();
        let mut moves: Vec<_> = path.into_iter().filter(|p| *p != maze.player()).collect();
        if matches!(variant % 7, 0 | 5) && moves.len() > 1 {
            // A model that wanders back and forth until the move limit, as many did.
            let (a, b) = (moves[0], maze.player());
            moves = (0..16).map(|i| if i % 2 == 0 { a } else { b }).collect();
        }
        let mut out = format!(
            "{FIRST_PROMPT_START} {rules}\n{MAZE_INTRO}\n\n{}\n\n{NEXT_MOVE}",
            render(maze, e)
        );
        let mut m = maze.clone();
        let mut solved = false;
        for i in 0..moves.len().min(16) {
            let mut reply = move_reasoning(&m, e, &moves[i..], variant, i);
            if variant % 7 == 4 && i == 1 {
                // Where the player stands, named last: the original reads that as the move.
                let p = m.player();
                reply.push_str(&format!(" Moving from ({}, {}).", p.row, p.col));
            }
            out.push_str(if i % 2 == 0 { "" } else { "\n" });
            out.push_str(&reply);
            match original_move(&m, &reply) {
                Some(t) if t == m.goal() => {
                    solved = true;
                    break;
                }
                Some(t) => {
                    m = m.with_player_at(t);
                    out.push_str(&format!(
                        "\n\n{UPDATE_INTRO}\n\n{}\n\n{NEXT_MOVE}",
                        render(&m, e)
                    ));
                }
                None => break,
            }
        }
        let word = shape.name();
        let reply = match variant % 7 {
            2 => format!("A {word}. Here it is:\n{}", render(maze, e)),
            3 => format!("Not a {word}, rather a blob.\n{}", render(other, e)),
            4 => format!(
                "The grid is 5 x 5, a {word}:\n{}",
                render(other, e).replace(' ', "  ")
            ),
            _ => format!("Shape: {word}\n\n{}", render(other, e)),
        };
        let reply = format!(
        "{}{reply}\n\nIn this maze the player starts on one end of the corridor and the goal waits at the other, so the path runs along the whole corridor.",
        combined_reasoning(maze.rows())
    );
        let (rec, gen) = ("SUCCESS", "SUCCESS");
        out.push_str(&format!(
        "\n\nSOLVE: {}\n{COMBINED_START}\n* A new maze.\n{COMBINED_LAST}\n{reply}\n\nRECOGNIZE: {rec}\n\nGENERATE: {gen}\n",
        if solved { "SUCCESS" } else { "FAIL" }
    ));
        out
    }

    pub fn main() -> Result<(), String> {
        let n: usize = std::env::args()
            .nth(1)
            .and_then(|a| a.parse().ok())
            .unwrap_or(15_000);
        let root =
            std::env::temp_dir().join(format!("shapemaze-bench-audit-{}", std::process::id()));
        let mut sets = Vec::new();
        for size in [5usize, 7] {
            let lib = TemplateLibrary::new(size);
            for shape in Shape::STANDARD {
                let set = generate_set(shape, 5, 7, &lib).map_err(|e| e.to_string())?;
                sets.push((size, shape, set));
            }
        }
        let mut outside = Vec::new();
        for (size, shape, set) in &sets {
            let family = OriginalFamily::new(*shape, *size, *size);
            let out = set.iter().filter(|m| !family.contains(m.grid())).count();
            if out > 0 {
                outside.push(format!("{size}x{size} {shape}: {out}/{}", set.len()));
            }
        }
        println!(
            "generated mazes whose corridor is outside the original families: {}",
            if outside.is_empty() {
                "none".to_string()
            } else {
                outside.join(", ")
            }
        );
        let started = Instant::now();
        // The maze files, as the original runs keep them beside their results folders.
        for (size, shape, set) in &sets {
            for (i, m) in set.iter().enumerate() {
                let path = root.join(maze_file_path(*size, *size, *shape, i));
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
                }
                std::fs::write(&path, npy::write(m.grid())).map_err(|e| e.to_string())?;
            }
        }
        let mut files: Vec<(PathBuf, String, usize)> = Vec::with_capacity(n);
        for i in 0..n {
            let (size, shape, set) = &sets[i % sets.len()];
            let e = Encoding::ALL[(i / sets.len()) % 2];
            let m = (i / (2 * sets.len())) % set.len();
            let k = i / (2 * sets.len() * set.len());
            let dir = root.join(format!(
                "{}_bench_results/{size}x{size}/{}/{size}x{size}_{}_{m}.npy",
                e.name(),
                shape.name(),
                shape.name()
            ));
            std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
            let text = transcript(*shape, e, &set[m], &set[(m + 1) % set.len()], i);
            let path = dir.join(format!("{k}.txt"));
            std::fs::write(&path, text).map_err(|e| e.to_string())?;
            files.push((path, maze_file_path(*size, *size, *shape, m), i));
        }
        println!(
            "wrote {n} original-style transcripts in {:.2} s",
            started.elapsed().as_secs_f64()
        );
        // One thread, as the results page audits in the browser: each file read, its maze
        // read from experiment_mazes/, the transcript read and scored with one cache (what
        // `Auditor::transcript` does for each file).
        let started = Instant::now();
        let mut cache = AuditCache::new();
        let (mut differing, mut diverged, mut reproduced) = (0usize, 0usize, 0usize);
        let mut by_cause: BTreeMap<(usize, &'static str, &'static str), usize> = BTreeMap::new();
        let mut audits = HashMap::with_capacity(n);
        for (path, maze_rel, variant) in &files {
            let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
            let bytes = std::fs::read(root.join(maze_rel)).map_err(|e| e.to_string())?;
            let maze = read_maze_file(maze_rel, &bytes).map_err(|e| e.to_string())?;
            let file = path
                .strip_prefix(&root)
                .map_err(|e| e.to_string())?
                .to_string_lossy()
                .into_owned();
            let Some(Scored::Trial(t)) = audit_transcript(&mut cache, file, &text, Some(maze))
            else {
                return Err(format!("{} was not scored", path.display()));
            };
            let a = t.audit;
            for d in &a.causes {
                *by_cause
                    .entry((variant % 7, d.phase.name(), d.cause.name()))
                    .or_default() += 1;
            }
            differing += usize::from(!a.causes.is_empty());
            diverged += usize::from(a.strict.solve == Some(Mark::Diverged));
            reproduced += usize::from(a.original.solve == a.recorded.solve);
            audits.insert(path.clone(), a);
        }
        let one = started.elapsed().as_secs_f64();
        println!(
        "one thread: read and scored {n} transcripts three ways in {one:.2} s ({:.1} us each): {differing} with a strict/original difference, {diverged} diverged, original solve = recorded solve in {reproduced}",
        one * 1e6 / n as f64
    );
        for ((variant, phase, cause), count) in &by_cause {
            println!("  variant {variant}, {phase}, {cause}: {count}");
        }
        // What `shapemaze score --scoring all` does before printing: the folder's files read
        // and scored on every core, taken in their order.
        let mut paths: Vec<PathBuf> = files.iter().map(|(p, ..)| p.clone()).collect();
        paths.sort();
        let started = Instant::now();
        let audited = collect(&root, &paths, Vec::new());
        let all = started.elapsed().as_secs_f64();
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        println!(
        "every core ({cores}): read and scored {n} transcripts three ways in {all:.2} s ({:.1} us each)",
        all * 1e6 / n as f64
    );
        let same = audited.trials.len() == n
            && audited
                .trials
                .iter()
                .all(|t| audits.get(&root.join(&t.file)) == Some(&t.audit));
        if std::env::args().nth(2).as_deref() == Some("--keep") {
            println!("kept under {}", root.display());
        } else {
            let _ = std::fs::remove_dir_all(&root);
        }
        if !same {
            return Err("the audit on every core differs from the audit on one thread".into());
        }
        // A benchmark reports; it never fails on time (a busy machine is not a regression).
        if all >= 5.0 {
            println!("over the 5 s budget: {all:.2} s (is the machine busy?)");
        }
        Ok(())
    }
}
