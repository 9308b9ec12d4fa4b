//! Benchmark of the core budget (issue 2): from nothing — template construction included —
//! generate all six 30-maze sets for 5x5 and run every verifier on them, natively.
//! Budget: < 50 ms. Run with `scripts/bench.sh` or
//! `cargo run --profile bench-native --example bench_core [ROUNDS]`.
#![allow(clippy::disallowed_methods)] // native only: clocks and threads (clippy.toml)

use shapemaze::core::maze::encoding::Encoding;
use shapemaze::core::maze::generate::{generate_set, DEFAULT_SAMPLES};
use shapemaze::core::maze::shape::{Shape, ShapeSet};
use shapemaze::core::maze::templates::TemplateLibrary;
use shapemaze::core::verify::{verify_generation, verify_move, verify_path, verify_recognition};
use std::time::{Duration, Instant};

/// One full round; returns how many verdicts passed (so nothing is optimised away).
fn round() -> usize {
    let lib = TemplateLibrary::new(5);
    let mut passed = 0;
    for shape in Shape::STANDARD {
        let set = generate_set(shape, DEFAULT_SAMPLES, 0, &lib).expect("30 mazes exist");
        let movement = shape.movement();
        for (i, maze) in set.iter().enumerate() {
            let path = maze.shortest_path(movement).expect("solvable");
            // Every move of the shortest path, as a model would write it.
            let mut at = maze.clone();
            for cell in &path[1..] {
                let v = verify_move(
                    &at,
                    movement,
                    &format!("I will go on. **Move:** ({}, {})", cell.row, cell.col),
                );
                passed += usize::from(v.passed());
                at = at.with_player_at(*cell);
            }
            // The single-shot path.
            let text: Vec<String> = path.iter().map(|p| p.to_string()).collect();
            passed += usize::from(verify_path(maze, movement, &text.join(" -> ")).passed());
            // Recognition, right and wrong.
            passed += usize::from(
                verify_recognition(
                    shape,
                    &format!(
                        "The corridors form a {}. Shape: {}",
                        shape.name(),
                        shape.name()
                    ),
                    ShapeSet::STANDARD,
                )
                .passed(),
            );
            passed += usize::from(
                verify_recognition(
                    shape,
                    "It is not a square; it looks like a zigzag",
                    ShapeSet::STANDARD,
                )
                .passed(),
            );
            // Generation in both encodings: the next maze of the set (valid) and a copy.
            let other = &set[(i + 1) % set.len()];
            for enc in Encoding::ALL {
                let reply = format!("Here is my maze:\n```\n{}\n```", enc.render(other.grid()));
                passed += usize::from(verify_generation(maze, shape, enc, &lib, &reply).passed());
                passed += usize::from(
                    verify_generation(maze, shape, enc, &lib, &enc.render(maze.grid())).passed(),
                );
            }
        }
    }
    passed
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(50);
    let mut times: Vec<Duration> = Vec::with_capacity(rounds);
    let mut passed = 0;
    for _ in 0..rounds {
        let t = Instant::now();
        passed = round();
        times.push(t.elapsed());
    }
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let median = times[times.len() / 2];
    println!(
        "core: 6 x 30 mazes (5x5) generated and verified from nothing: min {:.2} ms, median {:.2} ms, max {:.2} ms over {rounds} rounds ({passed} verdicts passed per round); budget 50 ms",
        ms(times[0]),
        ms(median),
        ms(times[times.len() - 1])
    );
    if ms(median) >= 50.0 {
        eprintln!("core: over budget");
        std::process::exit(1);
    }
}
