//! Benchmark of the audit of the design's original runs (issue 11 budget: reading and
//! scoring 15,000 recorded transcripts three ways natively in under 10 s). Writes N
//! transcripts the way the original code does (ORIGINAL_DATA.md: 5x5 and 7x7, every shape,
//! both encodings; clean solves, diagonal moves, mazes quoted back, hedged mentions,
//! mazes with other spacing, API failures) under a temporary folder, then times reading
//! every file and scoring it recorded, strict and original. `cargo run --profile
//! bench-native --example bench_audit [N] [--keep]` (`--keep` leaves the folder
//! for timing `shapemaze score` on it).

use shapemaze::core::encoding::{CoordStyle, Encoding};
use shapemaze::core::generate::generate_set;
use shapemaze::core::grid::{Maze, Movement};
use shapemaze::core::original::{
    audit, original_move, AuditCache, Mark, OriginalFamily, COMBINED_LAST, COMBINED_START,
    FIRST_PROMPT_START, MAZE_INTRO, NEXT_MOVE, UPDATE_INTRO,
};
use shapemaze::core::rescore::Hints;
use shapemaze::core::shape::Shape;
use shapemaze::core::templates::TemplateLibrary;
use std::path::PathBuf;
use std::time::Instant;

fn render(m: &Maze, e: Encoding) -> String {
    e.render_with(m.grid(), CoordStyle::Spaced)
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
    let moves: Vec<_> = path.into_iter().filter(|p| *p != maze.player()).collect();
    let mut out = format!(
        "{FIRST_PROMPT_START} {rules}\n{MAZE_INTRO}\n\n{}\n\n{NEXT_MOVE}",
        render(maze, e)
    );
    let mut m = maze.clone();
    let mut solved = false;
    for (i, to) in moves.iter().enumerate().take(16) {
        let reply = format!("My next move is ({}, {}).", to.row, to.col);
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
    let (rec, gen) = ("SUCCESS", "SUCCESS");
    out.push_str(&format!(
        "\n\nSOLVE: {}\n{COMBINED_START}\n* A new maze.\n{COMBINED_LAST}\n{reply}\n\nRECOGNIZE: {rec}\n\nGENERATE: {gen}\n",
        if solved { "SUCCESS" } else { "FAIL" }
    ));
    out
}

fn main() -> Result<(), String> {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(15_000);
    let root = std::env::temp_dir().join(format!("shapemaze-bench-audit-{}", std::process::id()));
    let mut sets = Vec::new();
    for size in [5usize, 7] {
        let lib = TemplateLibrary::new(size);
        for shape in Shape::ALL {
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
    let mut files: Vec<(PathBuf, Hints, usize)> = Vec::with_capacity(n);
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
        files.push((
            path,
            Hints {
                encoding: Some(e),
                shape: Some(*shape),
                size: Some((*size, *size)),
            },
            i,
        ));
    }
    println!(
        "wrote {n} original-style transcripts in {:.2} s",
        started.elapsed().as_secs_f64()
    );
    let started = Instant::now();
    let mut cache = AuditCache::new();
    let (mut differing, mut diverged, mut reproduced) = (0usize, 0usize, 0usize);
    let mut by_cause: std::collections::BTreeMap<(usize, &'static str, &'static str), usize> =
        std::collections::BTreeMap::new();
    for (path, hints, variant) in &files {
        let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
        let a = audit(&text, hints, &mut cache);
        for d in &a.causes {
            *by_cause
                .entry((variant % 7, d.phase.name(), d.cause.name()))
                .or_default() += 1;
        }
        differing += usize::from(!a.causes.is_empty());
        diverged += usize::from(a.strict.solve == Some(Mark::Diverged));
        reproduced += usize::from(a.original.solve == a.recorded.solve);
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "read and scored {n} transcripts three ways in {secs:.2} s ({:.1} us each): {differing} with a strict/original difference, {diverged} diverged, original solve = recorded solve in {reproduced}",
        secs * 1e6 / n as f64
    );
    for ((variant, phase, cause), count) in &by_cause {
        println!("  variant {variant}, {phase}, {cause}: {count}");
    }
    if std::env::args().nth(2).as_deref() == Some("--keep") {
        println!("kept under {}", root.display());
    } else {
        let _ = std::fs::remove_dir_all(&root);
    }
    if secs >= 10.0 {
        return Err(format!("budget missed: {secs:.2} s >= 10 s"));
    }
    Ok(())
}
