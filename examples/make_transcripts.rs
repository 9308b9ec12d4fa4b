//! Writes an export of scripted trials for benchmarking `shapemaze score`:
//! both encodings x six shapes x MAZES mazes x TRIALS trials (default 30 x 3 = 1,080
//! transcripts), in the export layout, played by the core's own `Trial`.
//!
//! Usage: cargo run --release --example make_transcripts -- OUT_DIR [MAZES] [TRIALS]

#[cfg(not(target_arch = "wasm32"))]
#[path = "../tests/support/mod.rs"]
mod support;

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number =
        |i: usize, default: usize| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(default);
    let Some(out) = args.first() else {
        eprintln!("usage: make_transcripts OUT_DIR [MAZES] [TRIALS]");
        std::process::exit(2);
    };
    let written = support::write_export(
        std::path::Path::new(out),
        "qwen",
        5,
        number(1, 30),
        number(2, 3),
        0,
    );
    println!("wrote {} transcripts under {out}", written.trials.len());
}

#[cfg(target_arch = "wasm32")]
fn main() {}
