//! The report's sections for what a design varies beyond its groups: grid sizes, repeats
//! (pass@k) and staircase walks (kept apart from `report.rs` for its length).

use super::chart::*;
use super::document::{Block, Cell, Section, Table};
use super::report::{capitalized, Chart};
use shapemaze_core::analysis::analyze::Analysis;
use shapemaze_core::analysis::observation::{ALL, PHASE_NAMES};

/// The rates at each grid size, all trials and per model, and (with `charts`) success
/// against size per phase, a line per model: `None` when every trial was played at one
/// size.
pub(crate) fn size_section(a: &Analysis, charts: bool) -> Option<Section> {
    let mut sizes: Vec<usize> = a.by_size.iter().map(|r| r.size).collect();
    shapemaze_core::sort::sort_dedup(&mut sizes);
    if sizes.len() < 2 {
        return None;
    }
    let mut t = Table::new(
        "by-size",
        "Success at each grid size, all trials and per model".into(),
        &[
            ("model", "model"),
            ("size", "size"),
            ("trials", "trials"),
            ("api_errors", "API errors"),
            ("solve", "solve"),
            ("recognize", "recognize"),
            ("generate", "generate"),
        ],
    );
    for r in &a.by_size {
        t.row(vec![
            Cell::text(&r.model),
            Cell::Text(format!("{0}x{0}", r.size)),
            Cell::Count(r.trials),
            Cell::Count(r.api_errors),
            Cell::Rate(r.solve),
            Cell::Rate(r.recognize),
            Cell::Rate(r.generate),
        ]);
    }
    // The other measures at each size: how a solve goes and what it costs.
    let tokens = a.by_size.iter().any(|r| r.detail.tokens.trials > 0);
    let mut columns = vec![
        ("model", "model"),
        ("size", "size"),
        ("moves_mean", "moves per solve (mean)"),
        ("excess_mean", "beyond shortest path (mean)"),
        ("move_validity", "move validity"),
        ("revisits_mean", "revisits (mean)"),
        ("looping", "looping"),
        ("invalid_move", "invalid move"),
        ("move_limit", "move limit"),
    ];
    if tokens {
        columns.extend([
            ("tokens_per_trial", "tokens per trial"),
            ("tokens_per_solve", "tokens per solved trial"),
        ]);
    }
    let mut measures = Table::new(
        "by-size-measures",
        "How solves go at each grid size (moves need trials.jsonl)".into(),
        &columns,
    );
    for r in &a.by_size {
        let d = &r.detail;
        let mut cells = vec![
            Cell::text(&r.model),
            Cell::Text(format!("{0}x{0}", r.size)),
            Cell::Number(d.moves_per_success.mean),
            Cell::Number(d.excess_moves.mean),
            Cell::Rate(d.move_validity),
            Cell::Number(d.revisits.mean),
            Cell::Rate(d.looping),
            Cell::Count(d.failures.invalid_move),
            Cell::Count(d.failures.move_limit),
        ];
        if tokens {
            cells.extend([
                Cell::Number(d.tokens.per_trial),
                Cell::Number(d.tokens.per_solve),
            ]);
        }
        measures.row(cells);
    }
    let mut section = Section::new("By grid size: the difficulty curves".into())
        .table(t)
        .table(measures);
    if charts {
        let x: Vec<String> = sizes.iter().map(|n| format!("{n}x{n}")).collect();
        let models: Vec<&str> = {
            let mut m: Vec<&str> = a.by_size.iter().map(|r| r.model.as_str()).collect();
            m.dedup();
            m.into_iter().filter(|m| *m != ALL).collect()
        };
        let list = PHASE_NAMES
            .iter()
            .enumerate()
            .map(|(i, phase)| {
                let lines: Vec<LineSeries> = models
                    .iter()
                    .map(|m| LineSeries {
                        name: m.to_string(),
                        points: sizes
                            .iter()
                            .map(|n| {
                                a.by_size
                                    .iter()
                                    .find(|r| r.model == *m && r.size == *n)
                                    .map(|r| Bar::from(r.phases()[i]))
                            })
                            .collect(),
                    })
                    .collect();
                let id = format!("size-{phase}");
                let title = format!("{} success against grid size", capitalized(phase));
                Chart {
                    svg: line_chart(&id, &title, &x, &lines),
                    id,
                    title,
                }
            })
            .collect();
        section.blocks.push(Block::Charts(list));
    }
    Some(section)
}

/// pass@k and pass^k of the pooled rows, beside the rates above.
pub(crate) fn repeats_section(a: &Analysis) -> Section {
    let mut t = Table::new(
        "repeats",
        "Mazes solved at least once in their k trials (pass@k) and in every one (pass^k), pooled rows".into(),
        &[
            ("group", "group"),
            ("k", "k"),
            ("mazes", "mazes"),
            ("solve_pass_at_k", "solve pass@k"),
            ("solve_pass_all_k", "solve pass^k"),
            ("recognize_pass_at_k", "recognize pass@k"),
            ("recognize_pass_all_k", "recognize pass^k"),
            ("generate_pass_at_k", "generate pass@k"),
            ("generate_pass_all_k", "generate pass^k"),
        ],
    );
    for r in &a.repeats {
        let mut cells = vec![
            Cell::Text(format!("{}/{}/{}", r.model, r.encoding, r.shape)),
            Cell::Count(r.k),
            Cell::Count(r.mazes),
        ];
        for p in [&r.solve, &r.recognize, &r.generate] {
            cells.push(Cell::Rate(p.pass_at_k));
            cells.push(Cell::Rate(p.pass_all_k));
        }
        t.row(cells);
    }
    Section::new("Repeats: pass@k and pass^k".into())
        .paragraph(
            "With k trials of each maze: pass@k is the share of mazes solved in at least one of their k, pass^k the share solved in all k (tasks a model gets right only sometimes count in the first, not the second). Only trials judged in the phase count.",
        )
        .table(t)
}

/// Staircase walks: where each settled.
pub(crate) fn stair_section(a: &Analysis) -> Section {
    let mut t = Table::new(
        "staircase",
        "Staircase walks (one up after two successes, one down after a failure)".into(),
        &[
            ("walk", "walk"),
            ("trials", "trials"),
            ("solved", "solve successes"),
            ("reversals", "reversals"),
            ("threshold", "threshold (level)"),
            ("threshold_sd", "sd"),
            ("counted", "reversals counted"),
            ("nearest", "nearest level"),
            ("levels", "levels played"),
        ],
    );
    let several = a.experiments.len() > 1;
    for r in &a.staircase {
        let who = match r.walk {
            0 => format!("{}/{}", r.model, r.encoding),
            id => format!("{} {:08x}", r.model, id >> 32),
        };
        let walk = match several {
            true => format!("{}: {who}", r.experiment),
            false => who,
        };
        let levels: Vec<String> = r.levels.iter().map(usize::to_string).collect();
        t.row(vec![
            Cell::Text(walk),
            Cell::Count(r.trials),
            Cell::Count(r.solved),
            Cell::Count(r.reversals.len()),
            Cell::Number(r.threshold),
            Cell::Number(r.threshold_sd),
            Cell::Count(r.counted),
            Cell::Text(r.nearest.clone().unwrap_or_else(|| "not settled".into())),
            Cell::Text(levels.join(" ")),
        ]);
    }
    let mut cols = vec![("level", "level"), ("size", "size"), ("shape", "shape")];
    if several {
        cols.insert(0, ("experiment", "experiment"));
    }
    let mut key = Table::new(
        "staircase-levels",
        "The levels the walks played".into(),
        &cols,
    );
    // Each experiment (or study) has its own ladder.
    let mut named: Vec<(&str, usize, usize, &str)> = Vec::new();
    for r in &a.staircase {
        for &(l, size, shape) in &r.named {
            if !named.iter().any(|n| n.0 == r.experiment && n.1 == l) {
                named.push((&r.experiment, l, size, shape.name()));
            }
        }
    }
    shapemaze_core::sort::sort_by_key(&mut named, |n| (n.0.to_string(), n.1));
    for (experiment, l, size, shape) in named {
        let mut cells = vec![
            Cell::Count(l),
            Cell::Text(format!("{size}x{size}")),
            Cell::text(shape),
        ];
        if several {
            cells.insert(0, Cell::text(experiment));
        }
        key.row(cells);
    }
    Section::new("Staircase".into())
        .paragraph(
            "Each model and encoding walked the design's levels (0 the easiest) one trial at a time: one level up after two successes in a row, one down after a failure, which settles where a trial succeeds about 71% of the time. The threshold is the mean level at the reversals (turns of direction), leaving out the first and keeping the latest even number; a walk with fewer than two such reversals has not settled. API errors keep the level.",
        )
        .table(t)
        .table(key)
}
