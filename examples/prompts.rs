//! Prints every prompt of one trial in each protocol (played by the oracle), as the README
//! shows them: `cargo run --example prompts [shape] [encoding]`.

use shapemaze::core::maze::encoding::Encoding;
use shapemaze::core::maze::generate::generate_one;
use shapemaze::core::maze::shape::Shape;
use shapemaze::core::maze::templates::TemplateLibrary;
use shapemaze::core::play::player::{play_ready, Oracle};
use shapemaze::core::play::transcript::Role;
use shapemaze::core::play::trial::{Protocol, Trial, TrialSetup};
use std::sync::Arc;

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let shape = Shape::parse(&args.next().unwrap_or_else(|| "square".into()))?;
    let encoding = Encoding::parse(&args.next().unwrap_or_else(|| "matrix".into()))?;
    let lib = Arc::new(TemplateLibrary::new(5));
    let maze = generate_one(shape, 0, 0, &lib).map_err(|e| e.to_string())?;
    for protocol in Protocol::ALL {
        let setup = TrialSetup {
            protocol,
            ..TrialSetup::new(shape, encoding, maze.clone())
        };
        let mut trial = Trial::new(setup, lib.clone());
        play_ready(&mut trial, &mut Oracle);
        println!("===== protocol {} =====", protocol.name());
        for m in trial.messages() {
            let who = match m.role {
                Role::User => "PROMPT",
                Role::Assistant => "REPLY",
            };
            println!("--- {who}\n{}\n", m.content);
        }
    }
    Ok(())
}
