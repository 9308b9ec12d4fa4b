//! Benchmark of the endpoint client's own work per call (issue 6 budget: < 5 ms beyond the
//! network): building the request body from a whole trial's conversation, and reading a
//! reply, both plain JSON and streamed in 40 server-sent events, through the scripted
//! transport (which answers at once). `cargo run --profile bench-native --example
//! bench_client [ROUNDS]`.
#![allow(clippy::disallowed_methods)] // native only: clocks and threads (clippy.toml)

use shapemaze::core::maze::encoding::Encoding;
use shapemaze::core::maze::generate::generate_one;
use shapemaze::core::maze::shape::Shape;
use shapemaze::core::maze::templates::TemplateLibrary;
use shapemaze::core::model::call::complete;
use shapemaze::core::model::preset::Preset;
use shapemaze::core::model::request::ChatMessage;
use shapemaze::core::model::scripted::{Scripted, ScriptedTransport};
use shapemaze::core::model::settings::EndpointSettings;
use shapemaze::core::model::transport::block_on;
use shapemaze::core::play::player::{play_ready, Oracle};
use shapemaze::core::play::transcript::Role;
use shapemaze::core::play::trial::{Trial, TrialSetup};
use std::time::Instant;

fn main() -> Result<(), String> {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(2000);
    let lib = TemplateLibrary::new(5);
    let maze = generate_one(Shape::Spiral, 0, 0, &lib).map_err(|e| e.to_string())?;
    let mut trial = Trial::start(TrialSetup::new(Shape::Spiral, Encoding::CoordList, maze));
    play_ready(&mut trial, &mut Oracle);
    // The longest conversation of the trial: everything but the last reply.
    let messages: Vec<ChatMessage> = trial.messages()[..trial.messages().len() - 1]
        .iter()
        .map(|m| {
            if m.role == Role::User {
                ChatMessage::user(m.content.clone())
            } else {
                ChatMessage::assistant(m.content.clone())
            }
        })
        .collect();
    let reply = "I look at the grid: the open cells wind inward. Shape: spiral";
    let settings = EndpointSettings {
        base_url: "http://127.0.0.1:9/v1".into(),
        model: "bench".into(),
        ..EndpointSettings::for_preset(Preset::Custom)
    };
    let chunk = |text: &str| {
        format!(
            "data: {}\n\n",
            serde_json::json!({"choices": [{"index": 0, "delta": {"content": text}}]})
        )
    };
    let mut sse: Vec<String> = reply
        .as_bytes()
        .chunks(reply.len().div_ceil(40))
        .map(|c| chunk(&String::from_utf8_lossy(c)))
        .collect();
    sse.push("data: [DONE]\n\n".into());
    for (label, stream) in [("plain JSON", false), ("streamed, 40 events", true)] {
        let settings = EndpointSettings {
            stream,
            ..settings.clone()
        };
        let mut times = Vec::with_capacity(rounds);
        for _ in 0..rounds {
            let answer = if stream {
                let refs: Vec<&str> = sse.iter().map(String::as_str).collect();
                Scripted::chunks(&refs)
            } else {
                Scripted::answer(reply)
            };
            let transport = ScriptedTransport::new(vec![answer]);
            let t0 = Instant::now();
            let out = block_on(complete(
                &transport,
                &settings,
                "sk-bench",
                &messages,
                &mut |_| {},
            ));
            times.push(t0.elapsed().as_secs_f64() * 1e6);
            if out.map(|r| r.content) != Ok(reply.to_string()) {
                return Err(format!("{label}: the reply did not read back"));
            }
        }
        times.sort_by(f64::total_cmp);
        println!(
            "client work per call, {label}, {} messages ({} KB sent): median {:.0} µs, p99 {:.0} µs",
            messages.len(),
            messages.iter().map(|m| m.content.len()).sum::<usize>() / 1024,
            times[rounds / 2],
            times[rounds * 99 / 100]
        );
    }
    Ok(())
}
