//! The audit drawn: one report model ([`audit_document`]) from an [`AuditSummary`],
//! written as text (the tables `score --scoring` prints) and as HTML (the results page's
//! audit section and the report file's, with each cause's trials and what each scorer read).

use super::chart::Chart;
use super::chart::{bar_chart, count_chart, Bar, BarSeries};
use super::document::{html, text, Block, Cell, Document, Section, Table};
use super::html::escape;
use shapemaze_core::original::audit::{
    AuditGroup, AuditSummary, AuditTrial, Scorer, Scoring, PHASES,
};
use shapemaze_core::original::mark::Mark;
use shapemaze_core::original::score::{Cause, Difference, Sureness};
use shapemaze_core::play::phase::Phase;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The scorers `scoring` shows, in their tables' order.
fn scorers(scoring: Scoring) -> &'static [Scorer] {
    match scoring {
        Scoring::Recorded => &[Scorer::Recorded],
        Scoring::Original => &[Scorer::Original],
        Scoring::Strict => &[Scorer::Strict],
        Scoring::All => &Scorer::ALL,
    }
}

/// The audit printed as text (the tables `score --scoring` prints): the report model of
/// [`audit_document`] with the scorers `scoring` names, written by the text writer.
pub fn render_text(r: &AuditSummary, scoring: Scoring) -> String {
    text::write(&audit_document(r, scoring, 0, false))
}

/// How many trials each cause's drill-down lists (the JSON lists every one).
pub const DRILL_LIMIT: usize = 50;

/// The causes of the differences, added over groups: per cause, per phase.
fn causes_by_phase(r: &AuditSummary) -> BTreeMap<Cause, [usize; 3]> {
    let mut by_cause: BTreeMap<Cause, [usize; 3]> = BTreeMap::new();
    for c in &r.causes {
        by_cause.entry(c.cause).or_default()[c.phase.index()] += c.count;
    }
    by_cause
}

/// The two charts of an audit: the rates of every trial three ways, and the differences
/// by cause split by phase.
fn audit_charts(r: &AuditSummary) -> Vec<Chart> {
    let phases: Vec<String> = PHASES.iter().map(|p| p.to_string()).collect();
    let mut charts = Vec::new();
    if let Some(all) = r.groups.first() {
        let series: Vec<BarSeries> = Scorer::ALL
            .iter()
            .map(|&scorer| BarSeries {
                name: scorer.name().to_string(),
                values: Phase::PLAYED
                    .into_iter()
                    .map(|phase| {
                        let p = all.rate(scorer, phase);
                        (p.n > 0).then(|| Bar::from(&p))
                    })
                    .collect(),
            })
            .collect();
        let title = "Success rates of every audited trial, three ways";
        charts.push(Chart {
            id: "audit-rates".into(),
            title: title.into(),
            svg: bar_chart("audit-rates", title, &phases, &series),
        });
    }
    let by_cause = causes_by_phase(r);
    let names: Vec<String> = by_cause
        .keys()
        .map(|c| c.name().replace('_', " "))
        .collect();
    let counts: Vec<Vec<usize>> = by_cause.values().map(|v| v.to_vec()).collect();
    let title = "Differences between strict and original verdicts, by cause";
    charts.push(Chart {
        id: "audit-causes".into(),
        title: title.into(),
        svg: count_chart("audit-causes", title, &names, &phases, &counts),
    });
    charts
}

/// How many of today's readings are not sure, in all and per phase, and per group that has
/// any: the readings worth a person's look (the review queue shows them first).
fn unsure_sentence(r: &AuditSummary) -> String {
    let share = |s: Sureness| {
        if s.read == 0 {
            "none read".to_string()
        } else {
            format!(
                "{} of {} ({:.1}%)",
                s.unsure,
                s.read,
                100.0 * s.unsure as f64 / s.read as f64
            )
        }
    };
    let Some(all) = r.groups.first().map(|g| g.readings) else {
        return String::new();
    };
    let phases: Vec<String> = Phase::PLAYED
        .iter()
        .map(|&p| format!("{} {}", p.name(), share(all.of(p))))
        .collect();
    let by: Vec<String> = r
        .groups
        .iter()
        .skip(1)
        .filter(|g| g.readings.all().unsure > 0)
        .map(|g| format!("{} {}", g.group, share(g.readings.all())))
        .collect();
    let mut s = format!(
        "Today's readers mark {} of their readings unsure ({}): a fall-back, or something in the reply that competes with the answer read (another answer line or conclusion, a cell named after it, a number or shape word no rule reads). Those are the readings worth a person's look; the others are claims a reviewer should never have to check.",
        share(all.all()),
        phases.join(", ")
    );
    if !by.is_empty() {
        s.push_str(&format!(" By group: {}.", by.join("; ")));
    }
    s
}

/// The audit as a report: what the three scorings are, the charts (when `charts`), the
/// rates per group with the scorers `scoring` names, the causes of the differences per
/// group (each a link to its trials, `section` telling apart several audits on one page),
/// the human files played twice and the files skipped.
pub fn audit_document(
    r: &AuditSummary,
    scoring: Scoring,
    section: usize,
    charts: bool,
) -> Document {
    let mut audit = Section::new(format!(
        "Audit of {}: the original scoring beside today's",
        r.dir
    ))
    .paragraph(format!(
        "{} trials scored three ways ({} API errors, never counted as model failures): recorded is the verdict lines as the files have them, strict is today's verifiers, original is the original code's checks as docs/ORIGINAL_DATA.md states them. Rates are successes over phases scored; ~N counts strict replays that left the original conversation (a reply read as another move than the one the original took), which are not scored.",
        r.transcripts, r.api_errors
    ))
    .paragraph(unsure_sentence(r));
    if charts {
        audit.blocks.push(Block::Charts(audit_charts(r)));
    }
    let scorers = scorers(scoring);
    let mut columns = vec![
        ("group".to_string(), "group".to_string()),
        ("trials".into(), "trials".into()),
        ("mazes".into(), "mazes".into()),
        ("api_errors".into(), "API errors".into()),
    ];
    for phase in PHASES {
        for scorer in scorers {
            columns.push((
                format!("{phase}_{}", scorer.name()),
                scorer.name().to_string(),
            ));
        }
    }
    let columns: Vec<(&str, &str)> = columns
        .iter()
        .map(|(k, l)| (k.as_str(), l.as_str()))
        .collect();
    let rate_keys: Vec<&str> = columns[4..].iter().map(|(k, _)| *k).collect();
    let mut rates = Table::new(
        "audit-rates",
        "Successes over phases scored, per model x encoding x shape, phase and scorer".into(),
        &columns,
    )
    .rates(&rate_keys);
    rates.dense = true;
    rates.spans = std::iter::once((String::new(), 4))
        .chain(PHASES.iter().map(|p| (p.to_string(), scorers.len())))
        .collect();
    let mut by_size = Table::new(
        "audit-sizes",
        "The same by folder and size: each model x encoding at 5x5 and 7x7 side by side".into(),
        &columns,
    )
    .rates(&rate_keys);
    by_size.dense = true;
    by_size.spans = rates.spans.clone();
    for (table, groups) in [(&mut rates, &r.groups), (&mut by_size, &r.sizes)] {
        for g in groups {
            table.row(rate_cells(g, scorers));
        }
    }
    let mut causes = Table::new(
        "audit-causes",
        format!(
            "Causes of the differences between strict and original, per model x encoding x shape: {}",
            r.causes.iter().map(|c| c.count).sum::<usize>()
        ),
        &[
            ("group", "group"),
            ("phase", "phase"),
            ("cause", "cause"),
            ("trials", "trials"),
        ],
    );
    causes.empty =
        Some("No differences: strict and original agree on every phase both scored.".into());
    for c in &r.causes {
        let n = c.cause.name();
        let target = format!("audit-{section}-{n}");
        causes.row(vec![
            Cell::text(&c.group),
            Cell::text(c.phase.name()),
            Cell::Link {
                text: n.replace('_', " "),
                target: target.clone(),
                data: vec![
                    (
                        "action",
                        crate::actions::ResultsAction::AuditCause.name().into(),
                    ),
                    ("cause", n.into()),
                    ("target", target),
                    ("section", section.to_string()),
                    ("group", c.group.clone()),
                    ("phase", c.phase.name().to_string()),
                ],
            },
            Cell::Count(c.count),
        ]);
    }
    audit = audit.table(rates).table(by_size).table(causes);
    let duplicates: Vec<&AuditTrial> = r.trials.iter().filter(|t| t.duplicate).collect();
    if !duplicates.is_empty() {
        let mut t = Table::new(
            "audit-duplicates",
            format!(
                "Human files for a participant's maze played twice (all kept): {}",
                duplicates.len()
            ),
            &[("file", "file")],
        );
        for d in duplicates {
            t.row(vec![Cell::text(&d.file)]);
        }
        audit = audit.table(t);
    }
    if !r.skipped_files.is_empty() {
        let mut t = Table::new(
            "audit-skipped",
            format!("Skipped: {}", r.skipped_files.len()),
            &[("file", "file"), ("why", "why")],
        );
        for k in &r.skipped_files {
            t.row(vec![Cell::text(&k.file), Cell::text(&k.why)]);
        }
        audit = audit.table(t);
    }
    Document {
        sections: vec![audit],
    }
}

/// The audit as HTML (the results page's audit section and the report file's): the report
/// model of [`audit_document`] with its charts, then per cause a drill-down to its trials
/// with the reply and the part of it each scorer read highlighted. Test ids: `audit`,
/// `chart-audit-rates`, `chart-audit-causes`, `table-audit-rates`, `table-audit-causes`,
/// `audit-cause-{cause}` (one `details` per cause) holding `audit-trial` items.
/// `section` tells apart the element ids of several audits on one page.
pub fn audit_html(r: &AuditSummary, section: usize) -> String {
    let mut s = String::with_capacity(32 * 1024);
    let _ = write!(
        s,
        "<section class=\"audit\" data-testid=\"audit\" data-section=\"{section}\">"
    );
    s.push_str(&html::write(&audit_document(
        r,
        Scoring::All,
        section,
        true,
    )));
    let by_cause = causes_by_phase(r);
    // The drill-down: per cause, its trials with what each scorer read.
    if !by_cause.is_empty() {
        s.push_str("<h3>The trials behind each cause</h3><p class=\"audit-legend\">In each reply, <mark class=\"read-strict\">marked like this</mark> is what today's verifier read, <mark class=\"read-original\">like this</mark> what the original code read, and <mark class=\"read-both\">like this</mark> what both read.</p>");
    }
    for (cause, per_phase) in &by_cause {
        let total: usize = per_phase.iter().sum();
        let _ = write!(
            s,
            "<details id=\"audit-{section}-{n}\" data-testid=\"audit-cause-{n}\"><summary><b>{}</b>: {total} difference{}. {}</summary><ol>",
            cause.name().replace('_', " "),
            if total == 1 { "" } else { "s" },
            escape(cause.describe()),
            n = cause.name()
        );
        let mut shown = 0;
        for t in &r.trials {
            for d in t.audit.causes.iter().filter(|d| d.cause == *cause) {
                if shown == DRILL_LIMIT {
                    break;
                }
                shown += 1;
                drill_item(&mut s, t, d);
            }
        }
        s.push_str("</ol>");
        if total > shown {
            let _ = write!(
                s,
                "<p class=\"muted\">The first {shown} of {total}; <code>shapemaze score DIR --scoring all --format json</code> lists every one.</p>"
            );
        }
        s.push_str("</details>");
    }
    s.push_str("</section>");
    s
}

/// Every trial behind one row of the causes table: one group's cause in one phase, each
/// with the reply and what each scorer read highlighted (the results page's drill-down;
/// test ids `audit-drill` and `audit-trial`).
pub fn audit_drill_html(r: &AuditSummary, group: &str, phase: &str, cause: Cause) -> String {
    let mut s = String::new();
    let mut items = String::new();
    let mut n = 0;
    for t in r.trials.iter().filter(|t| t.group() == group) {
        for d in t
            .audit
            .causes
            .iter()
            .filter(|d| d.cause == cause && d.phase.name() == phase)
        {
            n += 1;
            drill_item(&mut items, t, d);
        }
    }
    let _ = write!(
        s,
        "<section class=\"audit\" id=\"drill\" data-testid=\"audit-drill\"><h3>{}: {} in {}, {phase} ({n} trial{})</h3><p>{} In each reply, <mark class=\"read-strict\">marked like this</mark> is what today's verifier read, <mark class=\"read-original\">like this</mark> what the original code read, and <mark class=\"read-both\">like this</mark> what both read.</p><ol>{items}</ol></section>",
        escape(&r.dir),
        cause.name().replace('_', " "),
        escape(group),
        if n == 1 { "" } else { "s" },
        escape(cause.describe()),
    );
    s
}

/// One trial of a cause's drill-down.
fn drill_item(s: &mut String, t: &AuditTrial, d: &Difference) {
    let i = d.phase.index();
    let mark = |m: Option<Mark>| m.map_or("n/a", Mark::name);
    let _ = write!(
        s,
        "<li data-testid=\"audit-trial\"><b>{}</b> ({}), {}{}: recorded {}, strict {}, original {}.",
        escape(&t.file),
        escape(&t.group()),
        d.phase.name(),
        d.read
            .as_ref()
            .and_then(|r| r.step)
            .map_or(String::new(), |k| format!(" at step {}", k + 1)),
        mark(t.audit.recorded.as_array()[i]),
        mark(t.audit.strict.as_array()[i]),
        mark(t.audit.original.as_array()[i]),
    );
    match &d.read {
        Some(r) => {
            let _ = write!(
                s,
                "<pre class=\"audit-reply\" tabindex=\"0\">{}</pre>",
                highlighted(&r.reply, &r.strict, &r.original)
            );
        }
        None => s.push_str(" <span class=\"muted\">No reply: the endpoint failed.</span>"),
    }
    s.push_str("</li>");
}

/// The reply escaped, the ranges each scorer read marked (`read-strict`, `read-original`,
/// `read-both` where they overlap). Ranges are clamped to the reply and its characters.
pub fn highlighted(reply: &str, strict: &[[usize; 2]], original: &[[usize; 2]]) -> String {
    let fit = |mut i: usize| {
        i = i.min(reply.len());
        while !reply.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let mut cuts = vec![0, reply.len()];
    for r in strict.iter().chain(original) {
        cuts.push(fit(r[0]));
        cuts.push(fit(r[1]));
    }
    shapemaze_core::sort::sort_dedup(&mut cuts);
    let inside =
        |ranges: &[[usize; 2]], at: usize| ranges.iter().any(|r| fit(r[0]) <= at && at < fit(r[1]));
    let mut out = String::with_capacity(reply.len() + 64);
    for w in cuts.windows(2) {
        let part = escape(&reply[w[0]..w[1]]);
        let class = match (inside(strict, w[0]), inside(original, w[0])) {
            (true, true) => Some("read-both"),
            (true, false) => Some("read-strict"),
            (false, true) => Some("read-original"),
            (false, false) => None,
        };
        match class {
            Some(c) => {
                let _ = write!(out, "<mark class=\"{c}\">{part}</mark>");
            }
            None => out.push_str(&part),
        }
    }
    out
}

/// The audit section's styles (the results page and the report file).
pub const AUDIT_CSS: &str = ".audit pre.audit-reply{white-space:pre-wrap;max-height:16rem;overflow:auto;background:#f6f8fa;border:1px solid #ccd;padding:.5rem;font-size:.85rem}.audit mark.read-strict{background:#bfe3ff;outline:2px solid #0072B2}.audit mark.read-original{background:#ffe0a8;outline:2px dashed #E69F00}.audit mark.read-both{background:#c8efc8;outline:2px solid #009E73}.audit details{margin:.6rem 0}.audit summary{cursor:pointer}.audit li{margin:.6rem 0}";

/// One audit row: the group, its trials, distinct mazes and API errors, then each phase's
/// rate by scorer, clustered by maze (with the strict replays that diverged).
fn rate_cells(g: &AuditGroup, scorers: &[Scorer]) -> Vec<Cell> {
    let mut cells = vec![
        Cell::text(&g.group),
        Cell::Count(g.trials),
        Cell::Count(g.mazes),
        Cell::Count(g.api_errors),
    ];
    for phase in Phase::PLAYED {
        for &scorer in scorers {
            let t = g.tallies(scorer)[phase.index()];
            let diverged = if t.diverged > 0 {
                format!("~{}", t.diverged)
            } else {
                String::new()
            };
            cells.push(Cell::noted(Cell::Rate(g.rate(scorer, phase)), diverged));
        }
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text_table::column_starts;
    use shapemaze_core::original::audit::{Auditor, Tally};

    #[test]
    fn the_audit_table_keeps_wide_cells_in_their_columns() {
        let wide = Tally {
            success: 5704,
            fail: 4949,
            diverged: 2_526_193,
            unavailable: 0,
        };
        let group = |name: &str, t: Tally| AuditGroup::uniform(name, 1, t);
        let summary = AuditSummary {
            dir: "runs".into(),
            scoring: "all",
            transcripts: 0,
            api_errors: 0,
            groups: vec![
                group("all", wide),
                group("claude matrix square", Tally::default()),
            ],
            sizes: vec![group("claude matrix 5x5", wide)],
            causes: Vec::new(),
            skipped: 0,
            skipped_files: Vec::new(),
            trials: Vec::new(),
        };
        for scoring in [Scoring::All, Scoring::Strict] {
            let text = render_text(&summary, scoring);
            assert!(
                text.contains("The same by folder and size") && text.contains("claude matrix 5x5"),
                "the sizes side by side: {text}"
            );
            let lines: Vec<&str> = text.lines().collect();
            let names = lines
                .iter()
                .position(|l| l.starts_with("group  "))
                .expect("the columns' line");
            let rates = 3 * scorers(scoring).len();
            let starts = |line: &str| {
                let all = column_starts(line);
                all[all.len().saturating_sub(rates)..].to_vec()
            };
            let header = starts(lines[names]);
            assert_eq!(header.len(), rates, "{text}");
            for row in &lines[names + 1..names + 3] {
                assert_eq!(
                    starts(row),
                    header,
                    "every rate column starts where its header does:\n{text}"
                );
            }
            let phases: Vec<usize> = header
                .iter()
                .step_by(scorers(scoring).len())
                .copied()
                .collect();
            assert_eq!(
                column_starts(lines[names - 1]),
                phases,
                "each phase heads its first scorer:\n{text}"
            );
            assert!(
                text.contains("5704/10653 (~2526193)"),
                "the wide cell:\n{text}"
            );
        }
    }

    #[test]
    fn the_audit_counts_each_row_s_mazes_once_and_says_its_intervals_are_clustered() {
        // Ten solves of one maze, four of them successes (the same maze replayed).
        let mut auditor = Auditor::new();
        let maze = "P 1 1 1 0\n1 0 1 0 1\n1 1 0 1 1\n1 0 1 0 1\n0 1 1 1 G";
        for k in 0..10 {
            let verdict = if k < 4 { "SUCCESS" } else { "FAIL" };
            let text = format!(
                "You are tasked with solving a maze. You can move up, down, left, right, or any diagonal.\nHere is the maze you should solve:\n\n{maze}\n\nPlease provide the coordinates of your next move.\nI go to (1, 1).\n\nSOLVE: {verdict}\n"
            );
            auditor.transcript(
                format!("matrix_qwen_results/5x5/cross/5x5_cross_0.npy/{k}.txt"),
                &text,
                None,
            );
        }
        let summary = auditor.finish().summarize("runs", Scoring::All);
        let all = &summary.groups[0];
        assert_eq!((all.trials, all.mazes), (10, 1));
        let recorded = all.rate(Scorer::Recorded, Phase::Solve);
        assert_eq!(
            (recorded.successes, recorded.n, recorded.mazes),
            (4, 10, Some(1))
        );
        let html = audit_html(&summary, 0);
        assert!(html.contains("<th>mazes</th>"), "{html}");
        assert!(
            html.contains(crate::document::DENSE_CLUSTERED_NOTE),
            "{html}"
        );
        // One maze: every solve is alike as far as the data can show, so the interval is
        // Wilson's on one unit, not on ten: p = 0.4, z^2 = 3.8415, centre (0.4 + 1.9207) /
        // 4.8415 = 0.4793, half 1.96 * sqrt(0.24 + 0.9604) / 4.8415 = 0.4435.
        let plain = wilson_cell(4, 10);
        assert!(
            !html.contains(&plain),
            "not the unclustered {plain}: {html}"
        );
        assert!(
            html.contains("4/10 <b>40.0%</b> <small>[3.6, 92.3]</small>"),
            "{html}"
        );
        let text = render_text(&summary, Scoring::All);
        assert!(
            text.contains(crate::document::DENSE_CLUSTERED_NOTE),
            "{text}"
        );
        assert!(
            !text.contains("mazes)"),
            "a dense table counts the mazes in their column only:\n{text}"
        );
    }

    /// How a plain Wilson rate of `k` in `n` reads in the HTML.
    fn wilson_cell(k: usize, n: usize) -> String {
        let p = shapemaze_core::analysis::stats::wilson(k, n);
        format!("[{:.1}, {:.1}]", 100.0 * p.ci_low, 100.0 * p.ci_high)
    }

    #[test]
    fn highlighting_marks_each_scorers_reading_and_their_overlap() {
        let reply = "From (0, 0) I go to (1, 1). Move: (0, 1)";
        // Strict read "(0, 1)" after the label; the original read the last "(0, 1)" too,
        // and also looked at "(1, 1)".
        let h = highlighted(reply, &[[34, 40]], &[[20, 26], [34, 40]]);
        assert_eq!(
            h,
            "From (0, 0) I go to <mark class=\"read-original\">(1, 1)</mark>. Move: <mark class=\"read-both\">(0, 1)</mark>"
        );
        let partial = highlighted("a <b> c", &[[0, 5]], &[[2, 99]]);
        assert_eq!(
            partial,
            "<mark class=\"read-strict\">a </mark><mark class=\"read-both\">&lt;b&gt;</mark><mark class=\"read-original\"> c</mark>",
            "escaped, overlapping, and clamped to the reply"
        );
        assert_eq!(
            highlighted("é!", &[[1, 2]], &[]),
            "<mark class=\"read-strict\">é</mark>!",
            "a range starting inside a character starts at the character"
        );
    }

    #[test]
    fn a_row_of_the_causes_table_drills_down_to_its_own_trials_only() {
        let small = "0 P 0 1 1\nG 1 0 1 1\n0 0 0 1 1\n1 1 1 1 1\n1 1 1 1 1";
        let diagonal = format!(
            "You are tasked with solving a maze. You can move up, down, left, or right.\nHere is the maze you should solve:\n\n{small}\n\nPlease provide the coordinates of your next move.\nI go to (1, 0).\n\nSOLVE: SUCCESS\nFor the maze you were tasked to solve, please provide:\n* The general shape formed by its empty spaces (corridors) is recognizable as \"{{shape}}\".\nA square.\n\nRECOGNIZE: SUCCESS\n\nGENERATE: FAIL\n"
        );
        let mut auditor = Auditor::new();
        for (model, i) in [("claude", 1), ("claude", 2), ("llama", 1)] {
            auditor.transcript(
                format!("matrix_{model}_results/5x5/square/5x5_square_{i}.npy/0.txt"),
                &diagonal,
                None,
            );
        }
        let summary = auditor.finish().summarize("runs", Scoring::All);
        let cause = Cause::DiagonalOnFourDirectionShape;
        let claude = audit_drill_html(&summary, "claude matrix square", "solve", cause);
        assert_eq!(
            claude.matches("data-testid=\"audit-trial\"").count(),
            2,
            "{claude}"
        );
        assert!(!claude.contains("llama"), "only the row's group");
        assert!(claude.contains("I go to <mark class=\"read-both\">(1, 0)</mark>."));
        let other_phase = audit_drill_html(&summary, "claude matrix square", "recognize", cause);
        assert_eq!(
            other_phase.matches("data-testid=\"audit-trial\"").count(),
            0
        );
        let html = audit_html(&summary, 3);
        assert!(
            html.contains(
                "data-section=\"3\" data-group=\"llama matrix square\" data-phase=\"solve\""
            ),
            "the table's rows say which drill-down they open"
        );
    }
}
