//! The report's section on people and models on the same mazes (anchor `people-models`):
//! the paired table (`table-people-models`), the solves against the people's
//! (`table-people-models-efficiency`) and a chart of each model's rate against the
//! people's distribution (`chart-people-models`).

use super::chart::Chart;
use super::chart::{open_svg, percent, PALETTE};
use super::contents::Part;
use super::document::{Block, Cell, Section, Table};
use super::html::escape;
use shapemaze_core::analysis::analyze::Analysis;
use shapemaze_core::analysis::people::{PeopleModelRow, PeopleVsModels};
use shapemaze_core::text::Fixed;
use std::fmt::Write as _;

/// The section's anchor.
pub const ANCHOR: &str = "people-models";

/// What a paired test is called in the tables.
fn test_name(test: &str) -> &'static str {
    match test {
        "mcnemar_exact" => "McNemar (exact)",
        "mcnemar_chi_square" => "McNemar (chi-square)",
        "wilcoxon_signed_rank" => "Wilcoxon (per-maze rates)",
        _ => "none",
    }
}

/// What a row pairs, in words: "oracle, matrix vs people, grid".
pub fn pair_name(model: &str, encoding: &str, people: &str) -> String {
    format!("{model}, {encoding} vs people, {people}")
}

/// The headline: how many participants and trials were paired, of how many took part.
pub fn headline(p: &PeopleVsModels) -> String {
    format!(
        "{} of {} participants and {} of their {} trials paired with a model on the same maze (shape, size, seed, sample)",
        p.paired_people, p.people, p.paired_trials, p.people_trials
    )
}

/// The paired table: one row per model, encoding, people's condition and phase.
fn paired_table(p: &PeopleVsModels) -> Table {
    let mut t = Table::new(
        ANCHOR,
        format!(
            "Each model against the people, per encoding the model saw and how the people saw the mazes: {}",
            headline(p)
        ),
        &[
            ("pair", "model vs people"),
            ("model", "model"),
            ("encoding", "model's encoding"),
            ("people", "people's condition"),
            ("phase", "phase"),
            ("mazes", "mazes paired"),
            ("model_rate", "model's rate"),
            ("people_rate", "people's rate"),
            ("difference", "model - people [95% CI], points"),
            ("test", "test"),
            ("test_name", "paired test"),
            ("statistic", "statistic"),
            ("p", "p"),
            ("participants", "participants"),
            ("people_trials", "people's trials"),
            ("percentile", "model's percentile among the people"),
        ],
    )
    .rates(&["model_rate", "people_rate"])
    .intervals(&["difference"])
    .csv_only(&["pair", "test", "statistic", "people_trials"]);
    if let Some(note) = &p.note {
        t.empty = Some(note.clone());
    }
    for r in &p.rows {
        t.row(vec![
            Cell::text(pair_name(&r.model, &r.encoding, &r.people)),
            Cell::text(&r.model),
            Cell::text(&r.encoding),
            Cell::text(&r.people),
            Cell::text(&r.phase),
            Cell::Count(r.mazes),
            Cell::Rate(r.model_rate),
            Cell::Rate(r.people_rate),
            Cell::Interval {
                value: r.difference,
                low: r.ci_low,
                high: r.ci_high,
                points: true,
            },
            Cell::text(&r.test),
            Cell::Text(test_name(&r.test).into()),
            Cell::Number(Some(r.statistic)),
            Cell::P(r.p),
            Cell::Count(r.participants),
            Cell::Count(r.people_trials),
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
            ("pair", "model vs people"),
            ("model", "model"),
            ("encoding", "model's encoding"),
            ("people", "people's condition"),
            ("mazes", "mazes solved by both"),
            ("model_moves", "model moves per solve"),
            ("median_person_moves", "median person's moves"),
            ("best_person_moves", "best person's moves"),
            ("people_seconds_per_move", "people's seconds per move"),
            ("model_seconds_per_move", "model's seconds per move"),
            ("model_tokens_per_move", "model's tokens per move"),
        ],
    )
    .csv_only(&["pair"]);
    t.empty = Some("No maze was solved by a model and by a person.".into());
    for e in &p.efficiency {
        t.row(vec![
            Cell::text(pair_name(&e.model, &e.encoding, &e.people)),
            Cell::text(&e.model),
            Cell::text(&e.encoding),
            Cell::text(&e.people),
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
/// rates on the same mazes (grey circles, their median a black bar): what a row pairs
/// ("oracle, matrix vs people, grid") over its lines, one line per phase, on a 0-100% axis.
pub fn people_chart(rows: &[PeopleModelRow]) -> String {
    let title = "Each model's rate against the people's, per phase";
    let (left, right, top, step, heading) = (170.0, 880.0, 80.0, 40.0, 34.0);
    let names: Vec<String> = rows
        .iter()
        .map(|r| pair_name(&r.model, &r.encoding, &r.people))
        .collect();
    let mut models: Vec<&str> = Vec::new();
    for n in &names {
        if !models.contains(&n.as_str()) {
            models.push(n);
        }
    }
    let bottom = top + heading * models.len() as f64 + step * rows.len().max(1) as f64;
    let mut s = open_svg(
        ANCHOR,
        title,
        bottom + 40.0,
        "Under each model's name, a line per phase. Grey circles: each participant's success rate on the mazes the model also played; black bar: their median; diamond: the model's rate, printed at the right.",
    );
    legend(&mut s, 16.0, 54.0);
    let x = |v: f64| left + v * (right - left);
    for k in 0..=4 {
        let v = k as f64 / 4.0;
        let _ = write!(
            s,
            "<line x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"{1:.1}\" y2=\"{2:.1}\" stroke=\"#bbbbbb\"/><text x=\"{0:.1}\" y=\"{3:.1}\" text-anchor=\"middle\">{4}</text>",
            Fixed(x(v)),
            Fixed(top - 10.0),
            Fixed(bottom - step / 2.0),
            Fixed(bottom + 2.0),
            percent(v)
        );
    }
    if rows.is_empty() {
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\">No data: no maze in common</text>",
            Fixed(left),
            Fixed(top + step / 2.0)
        );
    }
    let mut y = top;
    let mut current: Option<&str> = None;
    for (r, name) in rows.iter().zip(&names) {
        if current != Some(name.as_str()) {
            current = Some(name);
            let _ = write!(
                s,
                "<text x=\"16\" y=\"{:.1}\" font-weight=\"bold\">{}</text>",
                Fixed(y + 6.0),
                escape(name)
            );
            y += heading;
        }
        let i = models.iter().position(|m| *m == name).unwrap_or(0);
        people_line(&mut s, r, y, (left, right), PALETTE[i % PALETTE.len()]);
        y += step;
    }
    s.push_str("</svg>");
    s
}

/// The chart's legend on one line from (`x`, `y`): a participant's rate, their median, the
/// model's rate.
fn legend(s: &mut String, x: f64, y: f64) {
    let _ = write!(
        s,
        "<g data-testid=\"chart-legend\"><circle cx=\"{c:.1}\" cy=\"{m:.1}\" r=\"5\" fill=\"#999999\" stroke=\"#444444\"/><text x=\"{t1:.1}\" y=\"{b:.1}\">each participant's rate</text><line x1=\"{l:.1}\" x2=\"{l:.1}\" y1=\"{lt:.1}\" y2=\"{lb:.1}\" stroke=\"#000000\" stroke-width=\"3\"/><text x=\"{t2:.1}\" y=\"{b:.1}\">their median</text><path d=\"M{d:.1} {dt:.1} L{dr:.1} {m:.1} L{d:.1} {db:.1} L{dl:.1} {m:.1} Z\" fill=\"{colour}\" stroke=\"#000000\"/><text x=\"{t3:.1}\" y=\"{b:.1}\">the model's rate</text></g>",
        c = Fixed(x + 5.0),
        m = Fixed(y - 4.0),
        b = Fixed(y + 1.0),
        t1 = Fixed(x + 16.0),
        l = Fixed(x + 240.0),
        lt = Fixed(y - 12.0),
        lb = Fixed(y + 4.0),
        t2 = Fixed(x + 252.0),
        d = Fixed(x + 400.0),
        dt = Fixed(y - 13.0),
        db = Fixed(y + 5.0),
        dr = Fixed(x + 409.0),
        dl = Fixed(x + 391.0),
        colour = PALETTE[0],
        t3 = Fixed(x + 416.0),
    );
}

/// One model and phase at height `y` between `left` and `right`: the phase's name, each
/// participant's rate, their median and the model's rate in `colour`.
fn people_line(
    s: &mut String,
    r: &PeopleModelRow,
    y: f64,
    (left, right): (f64, f64),
    colour: &str,
) {
    let x = |v: f64| left + v * (right - left);
    let _ = write!(
        s,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text><line x1=\"{left:.1}\" x2=\"{right:.1}\" y1=\"{y:.1}\" y2=\"{y:.1}\" stroke=\"#dddddd\"/>",
        Fixed(left - 12.0),
        Fixed(y + 5.0),
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
    if let Some(m) = shapemaze_core::analysis::stats::median(&r.people_rates) {
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
        Fixed(right + 14.0),
        Fixed(y + 5.0),
        percent(v)
    );
}

/// The section on people and models (anchor [`ANCHOR`]): the paired table, the solves
/// against the people's (each with a line in place of rows when nothing pairs, so both
/// tables are always there to ask for) and, when something was paired and with `charts`,
/// the chart.
pub fn people_section(a: &Analysis, charts: bool) -> Section {
    let p = &a.people_vs_models;
    let mut section = Section::new("People and models on the same mazes".into())
        .in_part(Part::PeopleModels)
        .paragraph("For each model and phase, on the maze instances both the model and people played: the rates, their paired difference with a paired test (McNemar's when every maze has one play a side, else the Wilcoxon signed-rank test on the per-maze differences of success proportions, whose mean is the difference, with a Student-t interval), and where the model stands among the participants' own rates on those mazes (the share of participants below it plus half the share equal).")
        .table(paired_table(p))
        .table(efficiency_table(p));
    if let Some(note) = a.shown_recognitions.note() {
        section = section.paragraph(note);
    }
    if p.rows.is_empty() {
        return section;
    }
    if charts {
        section.blocks.push(Block::Charts(vec![Chart {
            id: ANCHOR.into(),
            title: "Each model's rate against the people's, per phase".into(),
            svg: people_chart(&p.rows),
        }]));
    }
    section
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::tests::{assert_no_text_overlaps, well_formed};
    use shapemaze_core::analysis::analyze::{analyze, AnalysisOptions};
    use shapemaze_core::analysis::observation::PlayedBy;
    use shapemaze_core::analysis::test_support::obs;
    use shapemaze_core::maze::encoding::Encoding;
    use shapemaze_core::maze::shape::Shape;

    #[test]
    fn the_section_draws_a_well_formed_chart_or_says_in_one_line_why_not() {
        // A model and two people on three mazes.
        let mut v = Vec::new();
        for i in 0..3 {
            v.push(obs(
                "model <x>",
                Encoding::Matrix,
                Shape::C,
                i,
                [true, i > 0, true],
            ));
            for who in ["a", "b"] {
                let mut o = obs(
                    "human",
                    Encoding::Matrix,
                    Shape::C,
                    i,
                    [i != 1, true, false],
                );
                o.who = PlayedBy::Person(who.into());
                v.push(o);
            }
        }
        let a = analyze(&v, &AnalysisOptions::default());
        let section = people_section(&a, true);
        assert_eq!(section.part, Some(Part::PeopleModels));
        let Some(Block::Charts(charts)) = section.blocks.last() else {
            panic!("a chart")
        };
        let svg = &charts[0].svg;
        well_formed(svg).unwrap_or_else(|e| panic!("{e}\n{svg}"));
        assert_no_text_overlaps(svg);
        assert!(svg.contains("data-testid=\"chart-people-models\""));
        assert_eq!(
            svg.matches("<circle").count(),
            7,
            "two people, three phases, and the legend's"
        );
        assert!(svg.contains("model &lt;x&gt;"), "the name escaped");
        assert!(
            svg.contains("data-testid=\"chart-legend\"") && svg.contains("their median"),
            "the legend is drawn in the chart, not only described"
        );
        let table = paired_table(&a.people_vs_models);
        let people = table.for_people();
        let shown: Vec<&str> = people.columns.iter().map(|c| c.key.as_str()).collect();
        assert_eq!(
            &shown[..4],
            ["model", "encoding", "people", "phase"],
            "the row's name is split into columns for people (the CSV keeps the pair too)"
        );
        // Models alone: the table says why, in one line, and nothing else is drawn.
        let alone = analyze(&v[..1], &AnalysisOptions::default());
        let section = people_section(&alone, true);
        let text = crate::document::text::write(&crate::document::Document {
            sections: vec![section.clone()],
        });
        assert!(text.contains("No people's trials"), "{text}");
        assert!(!section.blocks.iter().any(|b| matches!(b, Block::Charts(_))));
    }
}
