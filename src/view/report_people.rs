//! The report's section on people and models on the same mazes (anchor `people-models`):
//! the paired table (`table-people-models`), the solves against the people's
//! (`table-people-models-efficiency`) and a chart of each model's rate against the
//! people's distribution (`chart-people-models`).

use super::chart::{open_svg, percent, PALETTE};
use super::document::{Block, Cell, Section, Table};
use super::html::escape;
use super::report::Chart;
use crate::core::analysis::analyze::Analysis;
use crate::core::analysis::hypotheses::fmt_p;
use crate::core::analysis::people::{PeopleModelRow, PeopleVsModels};
use crate::core::text::Fixed;
use std::fmt::Write as _;

/// The section's anchor.
pub const ANCHOR: &str = "people-models";

/// What a paired test is called in the tables.
fn test_name(test: &str) -> &'static str {
    match test {
        "mcnemar_exact" => "McNemar (exact)",
        "mcnemar_chi_square" => "McNemar (chi-square)",
        "wilcoxon_signed_rank" => "Wilcoxon signed-rank on per-maze rates",
        _ => "none",
    }
}

fn signed_percent(x: f64) -> String {
    format!("{:+.1}", Fixed(100.0 * x))
}

/// The paired table: one row per model and phase.
fn paired_table(p: &PeopleVsModels) -> Table {
    let mut t = Table::new(
        ANCHOR,
        format!(
            "Each model against the people ({} participants, {} trials) on the maze instances both played (shape, size, encoding, seed, sample)",
            p.people, p.people_trials
        ),
        &[
            ("model", "model"),
            ("phase", "phase"),
            ("mazes", "mazes paired"),
            ("model_rate", "model"),
            ("people_rate", "people"),
            ("difference", "model - people [95% CI], points"),
            ("test", "paired test"),
            ("p", "p"),
            ("participants", "participants"),
            ("percentile", "model's percentile among the people"),
        ],
    )
    .rates(&["model_rate", "people_rate"]);
    if let Some(note) = &p.note {
        t.empty = Some(note.clone());
    }
    for r in &p.rows {
        let ci = match (r.ci_low, r.ci_high) {
            (Some(low), Some(high)) => {
                format!(" [{}, {}]", signed_percent(low), signed_percent(high))
            }
            _ => String::new(),
        };
        t.row(vec![
            Cell::text(&r.model),
            Cell::text(&r.phase),
            Cell::Count(r.mazes),
            Cell::Rate(r.model_rate),
            Cell::Rate(r.people_rate),
            Cell::Text(format!("{}{ci}", signed_percent(r.difference))),
            Cell::Text(test_name(&r.test).into()),
            Cell::Text(fmt_p(r.p)),
            Cell::Count(r.participants),
            Cell::Number(r.percentile),
        ]);
    }
    t
}

/// Moves, seconds and tokens per solve against the people's.
fn efficiency_table(p: &PeopleVsModels) -> Table {
    let mut t = Table::new(
        "people-models-efficiency",
        "Solves of the mazes both solved: the model's moves against the median and the best person's on the same maze (averaged over the mazes), and the time and tokens a move took".into(),
        &[
            ("model", "model"),
            ("mazes", "mazes solved by both"),
            ("model_moves", "model moves per solve"),
            ("median_person_moves", "median person's moves"),
            ("best_person_moves", "best person's moves"),
            ("people_seconds_per_move", "people's seconds per move"),
            ("model_seconds_per_move", "model's seconds per move"),
            ("model_tokens_per_move", "model's tokens per move"),
        ],
    );
    t.empty = Some("No maze was solved by a model and by a person.".into());
    for e in &p.efficiency {
        t.row(vec![
            Cell::text(&e.model),
            Cell::Count(e.mazes),
            Cell::Number(Some(e.model_moves)),
            Cell::Number(Some(e.median_person_moves)),
            Cell::Number(Some(e.best_person_moves)),
            Cell::Number(e.people_seconds_per_move),
            Cell::Number(e.model_seconds_per_move),
            Cell::Number(e.model_tokens_per_move),
        ]);
    }
    t
}

/// Each model's rate (a coloured diamond, per phase) against the people's per-person
/// rates on the same mazes (grey circles, their median a black bar), one line per model
/// and phase on a 0-100% axis.
pub fn people_chart(rows: &[PeopleModelRow]) -> String {
    let title = "Each model's rate against the people's, per phase";
    let (left, right, top, step) = (250.0, 900.0, 90.0, 46.0);
    let height = top + step * rows.len().max(1) as f64 + 40.0;
    let mut s = open_svg(
        ANCHOR,
        title,
        height,
        "Each row: a model and a phase. Grey circles: each participant's success rate on the mazes the model also played; black bar: their median; diamond: the model's rate, printed at the right.",
    );
    let x = |v: f64| left + v * (right - left);
    let bottom = top + step * rows.len().max(1) as f64 - step / 2.0;
    for k in 0..=4 {
        let v = k as f64 / 4.0;
        let _ = write!(
            s,
            "<line x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"{1:.1}\" y2=\"{2:.1}\" stroke=\"#bbbbbb\"/><text x=\"{0:.1}\" y=\"{3:.1}\" text-anchor=\"middle\">{4}</text>",
            Fixed(x(v)),
            Fixed(top - step / 2.0),
            Fixed(bottom),
            Fixed(bottom + 22.0),
            percent(v)
        );
    }
    if rows.is_empty() {
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\">No data: no maze in common</text>",
            Fixed(left),
            Fixed(top)
        );
    }
    let mut models: Vec<&str> = Vec::new();
    for (i, r) in rows.iter().enumerate() {
        if !models.contains(&r.model.as_str()) {
            models.push(&r.model);
        }
        let colour = PALETTE[(models.len() - 1) % PALETTE.len()];
        let y = top + step * i as f64;
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{} / {}</text><line x1=\"{left:.1}\" x2=\"{right:.1}\" y1=\"{y:.1}\" y2=\"{y:.1}\" stroke=\"#dddddd\"/>",
            Fixed(left - 12.0),
            Fixed(y + 5.0),
            escape(&r.model),
            escape(&r.phase),
            left = Fixed(left),
            right = Fixed(right),
            y = Fixed(y)
        );
        // Equal rates stack upwards, so every person shows.
        let mut seen: Vec<f64> = Vec::new();
        for &v in &r.people_rates {
            let above = seen.iter().filter(|&&w| w == v).count() as f64;
            seen.push(v);
            let _ = write!(
                s,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"5\" fill=\"#999999\" stroke=\"#444444\"/>",
                Fixed(x(v)),
                Fixed(y - 6.0 * above)
            );
        }
        if let Some(m) = crate::core::analysis::stats::median(&r.people_rates) {
            let _ = write!(
                s,
                "<line x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"{1:.1}\" y2=\"{2:.1}\" stroke=\"#000000\" stroke-width=\"3\"/>",
                Fixed(x(m)),
                Fixed(y - 14.0),
                Fixed(y + 14.0)
            );
        }
        let (mx, v) = (x(r.model_rate.rate), r.model_rate.rate);
        let _ = write!(
            s,
            "<path d=\"M{0:.1} {1:.1} L{2:.1} {3:.1} L{0:.1} {4:.1} L{5:.1} {3:.1} Z\" fill=\"{colour}\" stroke=\"#000000\"/><text x=\"{6:.1}\" y=\"{7:.1}\">{8}</text>",
            Fixed(mx),
            Fixed(y - 9.0),
            Fixed(mx + 9.0),
            Fixed(y),
            Fixed(y + 9.0),
            Fixed(mx - 9.0),
            Fixed(right + 10.0),
            Fixed(y + 5.0),
            percent(v)
        );
    }
    s.push_str("</svg>");
    s
}

/// The section on people and models (anchor [`ANCHOR`]): the paired table and, when
/// something was paired, the solves against the people's and (with `charts`) the chart;
/// one line when there is nothing to pair.
pub(crate) fn people_section(a: &Analysis, charts: bool) -> Section {
    let p = &a.people_vs_models;
    let mut section = Section::new("People and models on the same mazes".into())
        .anchored(ANCHOR)
        .paragraph("For each model and phase, on the maze instances both the model and people played: the rates, their paired difference with a paired test (McNemar's when every maze has one play a side, else the Wilcoxon signed-rank test on the per-maze differences of success proportions, whose mean is the difference, with a Student-t interval), and where the model stands among the participants' own rates on those mazes (the share of participants below it plus half the share equal).")
        .table(paired_table(p));
    if p.rows.is_empty() {
        return section;
    }
    section = section.table(efficiency_table(p));
    if charts {
        section.blocks.push(Block::Charts(vec![Chart {
            id: ANCHOR.into(),
            title: "Each model's rate against the people's, per phase".into(),
            svg: people_chart(&p.rows),
        }]));
    }
    section
}
