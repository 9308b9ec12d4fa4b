//! Records the sample trials the demo page ships (`public/trials/`), played by the
//! built-in players, their index and the bundled races (`races.json`):
//! `cargo run --example record_samples`.
//! Each file is a trial record (README, "Trial records"); the page labels them as played
//! by a built-in player, never as a model.

use shapemaze::core::maze::encoding::Encoding;
use shapemaze::core::maze::generate::generate_one;
use shapemaze::core::maze::shape::Shape;
use shapemaze::core::maze::templates::TemplateLibrary;
use shapemaze::core::play::player::{play_ready, Oracle, RandomWalker};
use shapemaze::core::play::trial::{Protocol, Trial, TrialSetup};
use shapemaze::core::results::record::{Placement, PlayerInfo, TrialRecord};
use std::sync::Arc;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::path::Path::new("public/trials");
    std::fs::create_dir_all(out)?;
    let lib = Arc::new(TemplateLibrary::new(5));
    let samples = [
        (
            "oracle-spiral",
            Shape::Spiral,
            Encoding::Matrix,
            Protocol::Stepwise,
            None,
        ),
        (
            "oracle-cross-coords",
            Shape::Cross,
            Encoding::CoordList,
            Protocol::Stepwise,
            None,
        ),
        (
            "random-square",
            Shape::Square,
            Encoding::Matrix,
            Protocol::Stepwise,
            Some(3),
        ),
        (
            "random-triangle",
            Shape::Triangle,
            Encoding::Matrix,
            Protocol::Combined,
            Some(11),
        ),
        // A race for talks (races.json): the two built-in players on one maze.
        (
            "race-oracle-c",
            Shape::C,
            Encoding::Matrix,
            Protocol::Stepwise,
            None,
        ),
        (
            "race-random-c",
            Shape::C,
            Encoding::Matrix,
            Protocol::Stepwise,
            Some(4),
        ),
    ];
    let mut index = Vec::new();
    for (name, shape, encoding, protocol, random) in samples {
        let (seed, sample) = (2026, 0);
        let maze = generate_one(shape, sample, seed, &lib).map_err(|e| e.to_string())?;
        let setup = TrialSetup {
            protocol,
            ..TrialSetup::new(shape, encoding, maze)
        };
        let mut trial = Trial::new(setup, lib.clone());
        let info = match random {
            Some(s) => {
                let mut p = RandomWalker::new(s);
                play_ready(&mut trial, &mut p);
                ("random", format!("random walker, seed {s}"))
            }
            None => {
                play_ready(&mut trial, &mut Oracle);
                ("oracle", "oracle".to_string())
            }
        };
        let kind = shapemaze::core::play::player::PlayerKind::parse(info.0)?;
        let record = TrialRecord::of(
            &trial,
            PlayerInfo {
                kind,
                model: info.0.into(),
                endpoint: None,
                system_prompt: None,
            },
            Placement {
                seed,
                sample,
                repeat: 0,
            },
            None,
            None,
        );
        std::fs::write(out.join(format!("{name}.json")), record.to_json_pretty()?)?;
        index.push(serde_json::json!({
            "name": name,
            "label": format!("{} · {} · {} — recorded from the built-in {}", shape.name(), encoding.label(), protocol.name(), info.1),
        }));
    }
    std::fs::write(
        out.join("index.json"),
        serde_json::to_string_pretty(&index)?,
    )?;
    // Two bundled trials of one maze that /demo offers as a race (`/demo?race=A,B`).
    let races = serde_json::json!([{
        "race": "race-oracle-c,race-random-c",
        "label": "C · Matrix — the built-in oracle against the random walker, seed 4",
    }]);
    std::fs::write(
        out.join("races.json"),
        serde_json::to_string_pretty(&races)?,
    )?;
    println!("wrote {} sample trials to {}", index.len(), out.display());
    Ok(())
}
