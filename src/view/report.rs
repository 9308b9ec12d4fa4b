//! The report file (`shapemaze report --html` and the results page's download): the
//! analysis drawn as charts and tables in one self-contained HTML page, and the
//! standard charts the results page shows.

use super::chart::*;
use super::document::{html, two_decimals, Block, Cell, Document, Section, Table, Verdict};
use super::html::escape;
use super::report_sections::{repeats_section, size_section, stair_section};
use crate::core::analysis::analyze::Analysis;
use crate::core::analysis::compare::Comparison;
use crate::core::analysis::groups::{EmptyAnswers, GroupDetail, GroupRow};
use crate::core::analysis::hypotheses::fmt_p;
use crate::core::analysis::observation::{ALL, PHASE_NAMES};
use crate::core::analysis::trace::{Place, LOOP_VISITS};
use crate::core::model::price::dollars;
use crate::core::model::reply::EmptyReason;
use crate::core::text::Fixed;
use std::fmt::Write as _;

/// One chart of a report, ready to embed.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    /// Its id (`data-testid="chart-{id}"`).
    pub id: String,
    /// Its title.
    pub title: String,
    /// The SVG.
    pub svg: String,
}

fn phase_series(rows: &[&GroupRow]) -> Vec<BarSeries> {
    PHASE_NAMES
        .iter()
        .enumerate()
        .map(|(i, name)| BarSeries {
            name: name.to_string(),
            values: rows
                .iter()
                .map(|r| Some(Bar::from(r.phases()[i])))
                .collect(),
        })
        .collect()
}

/// The standard charts of an analysis: phases by model, by encoding and by shape (bars
/// with whiskers), the phase progression per model (lines) and the confusion matrix
/// (heatmap). The page, the report file and the command line all draw these.
pub fn standard_charts(a: &Analysis) -> Vec<Chart> {
    let pick = |f: &dyn Fn(&GroupRow) -> bool| -> Vec<&GroupRow> {
        a.pooled.iter().filter(|r| f(r)).collect()
    };
    let by_model = pick(&|r| r.model != ALL && r.encoding == ALL && r.shape == ALL);
    let by_encoding = pick(&|r| r.model == ALL && r.encoding != ALL && r.shape == ALL);
    let by_shape = pick(&|r| r.model == ALL && r.encoding == ALL && r.shape != ALL);
    let several = a.experiments.len() > 1;
    let model_name = |r: &GroupRow| {
        if several {
            format!("{}: {}", r.experiment, r.model)
        } else {
            r.model.clone()
        }
    };
    let mut charts = Vec::new();
    let mut bars =
        |id: &str, title: &str, rows: &[&GroupRow], name: &dyn Fn(&GroupRow) -> String| {
            let cats: Vec<String> = rows.iter().map(|r| name(r)).collect();
            charts.push(Chart {
                id: id.into(),
                title: title.into(),
                svg: bar_chart(id, title, &cats, &phase_series(rows)),
            });
        };
    bars(
        "phases-by-model",
        "Success by model and phase",
        &by_model,
        &model_name,
    );
    bars(
        "phases-by-encoding",
        "Success by encoding and phase",
        &by_encoding,
        &|r| r.encoding.clone(),
    );
    bars(
        "phases-by-shape",
        "Success by shape and phase",
        &by_shape,
        &|r| r.shape.clone(),
    );
    let x: Vec<String> = PHASE_NAMES.iter().map(|s| s.to_string()).collect();
    let lines: Vec<LineSeries> = a
        .phase_progression
        .iter()
        .map(|r| LineSeries {
            name: model_name(r),
            points: r.phases().iter().map(|p| Some(Bar::from(*p))).collect(),
        })
        .collect();
    let title = "Phase progression per model";
    charts.push(Chart {
        id: "progression".into(),
        title: title.into(),
        svg: line_chart("progression", title, &x, &lines),
    });
    let title = "Shape confusion matrix: true shape x shape named";
    let (rows, cols, counts) = a
        .confusion
        .first()
        .map(|c| (c.rows.clone(), c.cols.clone(), c.counts.clone()))
        .unwrap_or_default();
    charts.push(Chart {
        id: "confusion".into(),
        title: title.into(),
        svg: heatmap(
            "confusion",
            title,
            "true shape",
            "shape named",
            &rows,
            &cols,
            &counts,
        ),
    });
    charts
}

const CSS: &str = "body{font-family:system-ui,sans-serif;font-size:18px;line-height:1.45;max-width:1100px;margin:0 auto;padding:1rem 1.5rem;color:#111;background:#fff}h1{font-size:2rem}h2{margin-top:2.2rem;border-bottom:2px solid #0072B2}table{border-collapse:collapse;margin:1rem 0;font-size:16px}caption{text-align:left;font-weight:bold;padding:.3rem 0}th,td{border:1px solid #999;padding:.3rem .5rem;text-align:left;vertical-align:top}th{background:#eef3f8}.verdict{font-weight:bold;padding:.1rem .5rem;border:2px solid #000;border-radius:4px}.supported{background:#cfe8dd}.not_supported{background:#f6dccb}.insufficient{background:#eeeeee;border-style:dashed}.warning{color:#8a3b00}pre{background:#f6f6f6;padding:.6rem;overflow:auto;font-size:14px}figure{margin:1.5rem 0}small{color:#444}";

/// The whole analysis as one self-contained HTML file (inline CSS and SVG, no script, no
/// outside resource): the hypothesis verdicts, the charts, the tables, `settings` (the
/// design and settings, as text) and `csv` (the data, one row per trial) inside a
/// `<details><pre>`. It is also well-formed XML, so it opens anywhere.
pub fn report_html(a: &Analysis, audit: &str, settings: &str, csv: &str) -> String {
    let mut s = String::with_capacity(64 * 1024 + audit.len());
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/><title>Shapemaze results</title><style>{CSS}{}</style></head><body><h1>Shapemaze results</h1>",
        if audit.is_empty() { "" } else { super::audit::AUDIT_CSS }
    );
    s.push_str(&report_body(a));
    s.push_str(audit);
    let _ = writeln!(
        s,
        "<h2>Design and settings</h2><pre>{}</pre><h2>Data</h2><details><summary>The data as CSV, one row per trial</summary><pre data-testid=\"table-data\">{}</pre></details></body></html>",
        escape(settings),
        escape(csv)
    );
    s
}

/// The report's verdicts, charts and tables as HTML (what the results page shows and the
/// report file holds between its heading and its settings and data). Rows of the model x
/// encoding x shape table carry `data-action="drill"` and `data-group` (their index in
/// `a.groups`), so a page can list their trials.
pub fn report_body(a: &Analysis) -> String {
    html::write(&analysis_document(a, true))
}

/// Two conditions compared on every phase (`table-comparison`): each side's success
/// rate, the test that fits (McNemar's on trials of the same maze shown the same way,
/// else chi-square) and its p-value. `shapemaze report --compare` prints it; the results
/// page shows it for the two experiments or models chosen.
pub fn comparison_table(c: &Comparison) -> Table {
    let mut t = Table::new(
        "comparison",
        format!(
            "{} against {} ({} and {} trials, {} pairs on the same maze)",
            c.a, c.b, c.trials_a, c.trials_b, c.pairs
        ),
        &[
            ("phase", "phase"),
            ("a", c.a.as_str()),
            ("b", c.b.as_str()),
            ("test", "test"),
            ("p", "p"),
        ],
    );
    for ph in &c.phases {
        t.row(vec![
            Cell::Text(ph.phase.clone()),
            Cell::Rate(ph.a),
            Cell::Rate(ph.b),
            Cell::Text(match ph.test.as_str() {
                "mcnemar" => "McNemar (paired)".into(),
                "chi_square" => "chi-square (unpaired)".into(),
                _ => "none (a side has no judged trial)".into(),
            }),
            Cell::Text(match ph.p {
                Some(p) if p < 0.001 => "<0.001".into(),
                Some(p) => format!("{:.3}", Fixed(p)),
                None => String::new(),
            }),
        ]);
    }
    t
}

/// The results page's side-by-side comparison (`comparison`): two selects of what can be
/// compared (`compare-a`, `compare-b`, the experiments then the models) and the
/// comparison of the two chosen ([`comparison_table`]).
pub fn comparison_section(names: &[String], c: &Comparison) -> String {
    let mut h = String::from(
        "<section class=\"compare\" data-testid=\"comparison\"><h2>Compare side by side</h2><p class=\"muted\">Every phase, A against B, with the test that fits: McNemar's on trials of the same maze shown the same way, chi-square when none pair up.</p>",
    );
    for (side, chosen) in [("a", &c.a), ("b", &c.b)] {
        let _ = write!(
            h,
            "<label class=\"field\"><span>{}</span><select data-action=\"compare\" data-testid=\"compare-{side}\">",
            side.to_ascii_uppercase()
        );
        for n in names {
            let _ = write!(
                h,
                "<option value=\"{0}\"{1}>{0}</option>",
                escape(n),
                if n == chosen { " selected" } else { "" }
            );
        }
        h.push_str("</select></label>");
    }
    html::table(&mut h, &comparison_table(c));
    h.push_str("</section>");
    h
}

/// The group rows as a table: the experiment (when `with_experiment`), model, encoding,
/// shape, trials, API errors and the three phases' rates. Its CSV is `report --format
/// csv`'s (docs/CONTRACT.md).
pub fn groups_table(id: &str, caption: &str, rows: &[GroupRow], with_experiment: bool) -> Table {
    let mut columns = vec![
        ("model", "model"),
        ("encoding", "encoding"),
        ("shape", "shape"),
        ("trials", "trials"),
        ("api_errors", "API errors"),
        ("solve", "solve"),
        ("recognize", "recognize"),
        ("generate", "generate"),
    ];
    if with_experiment {
        columns.insert(0, ("experiment", "experiment"));
    }
    let mut t =
        Table::new(id, caption.to_string(), &columns).rates(&["solve", "recognize", "generate"]);
    for (i, r) in rows.iter().enumerate() {
        let mut cells = Vec::with_capacity(9);
        if with_experiment {
            cells.push(Cell::text(&r.experiment));
        }
        cells.extend([
            Cell::text(&r.model),
            Cell::text(&r.encoding),
            Cell::text(&r.shape),
            Cell::Count(r.trials),
            Cell::Count(r.api_errors),
            Cell::Rate(r.solve),
            Cell::Rate(r.recognize),
            Cell::Rate(r.generate),
        ]);
        t.row(cells);
        if id == "groups" {
            if let Some(last) = t.rows.last_mut() {
                last.group = Some(i);
            }
        }
    }
    t
}

pub(crate) fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or(String::new(), |f| {
        f.to_uppercase().collect::<String>() + c.as_str()
    })
}

/// `model/encoding/shape` of a detail row.
fn detail_label(d: &GroupDetail) -> String {
    format!("{}/{}/{}", d.model, d.encoding, d.shape)
}

/// The analysis as a report: the verdicts on H1-H4, the standard charts (when `charts`),
/// the rates by group, empty answers, solving details, generation checks, the encodings
/// compared, shape effects, phase correlations and the confusion matrices.
pub fn analysis_document(a: &Analysis, charts: bool) -> Document {
    let several = a.experiments.len() > 1;
    let mut sections = vec![Section::new("".into()).paragraph(format!(
        "{} trials from {}; {} with an API error (left out of every rate). Rates are successes over trials judged, with the distinct mazes they were played on in parentheses and 95% intervals in brackets, clustered by maze instance: a maze played many times (repeats, several models or people) gives correlated trials, so each interval is Wilson's on the trials the design effect of those repeats leaves (at most the trials; as few as the mazes when the trials cannot show how alike a maze's trials are).",
        a.trials,
        a.experiments.join(", "),
        a.api_errors
    ))];
    let verdicts = a
        .hypotheses
        .all()
        .into_iter()
        .map(|(k, h, statement)| Verdict {
            key: k.to_string(),
            statement: statement.to_string(),
            verdict: h.verdict.name().to_string(),
            test: format!(
                "{}: statistic {}, p {}, n = {}",
                h.test,
                two_decimals(h.statistic),
                h.p.map_or("n/a".into(), fmt_p),
                h.n
            ),
            note: h.note.clone(),
            warning: h.warning.clone(),
        })
        .collect();
    sections.push(Section {
        title: "Hypotheses (alpha 0.05)".into(),
        blocks: vec![Block::Verdicts(verdicts)],
        ..Section::default()
    });
    if charts {
        sections.push(Section {
            title: "Charts".into(),
            blocks: vec![Block::Charts(standard_charts(a))],
            ..Section::default()
        });
    }
    sections.push(
        Section::new("Overall, by model, encoding and shape".into())
            .table(groups_table(
                "pooled",
                "Pooled rows (`all` = pooled)",
                &a.pooled,
                several,
            ))
            .table(groups_table(
                "groups",
                "Model x encoding x shape",
                &a.groups,
                several,
            )),
    );
    sections.push(super::report_people::people_section(a, charts));

    if a.empty_answers.first().is_some_and(EmptyAnswers::any) {
        let mut columns = vec![("model", "model")];
        columns.extend(EmptyReason::ALL.map(|r| (r.name(), r.label())));
        let mut t = Table::new(
            "empty-answers",
            "Trials with an empty answer, by why it was empty (judged as the model's answers like any other)".into(),
            &columns,
        );
        for e in &a.empty_answers {
            let mut cells = vec![Cell::text(&e.model)];
            cells.extend(
                EmptyReason::ALL
                    .map(|r| Cell::Text(format!("{} of {} trials", e.count(r), e.trials))),
            );
            t.row(cells);
        }
        sections.push(Section::new("Empty answers".into()).table(t));
    }

    if let Some(section) = size_section(a, charts) {
        sections.push(section);
    }
    if !a.repeats.is_empty() {
        sections.push(repeats_section(a));
    }
    if !a.staircase.is_empty() {
        sections.push(stair_section(a));
    }

    let pooled_details = || a.details.iter().skip(a.groups.len());
    let mut solving = Table::new(
        "solve-details",
        "Moves, failure types and move validity (pooled rows; moves need trials.jsonl)".into(),
        &[
            ("group", "group"),
            ("detailed", "detailed"),
            ("moves_mean", "moves per solve (mean)"),
            ("moves_median", "moves per solve (median)"),
            ("excess_mean", "beyond shortest path (mean)"),
            ("invalid_move", "invalid move"),
            ("move_limit", "move limit"),
            ("unparseable", "unparseable"),
            ("unknown", "unknown"),
            ("api_error", "API error"),
            ("move_validity", "move validity"),
        ],
    );
    for d in pooled_details() {
        let reasons = d
            .failures
            .invalid_by_reason
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join(", ");
        solving.row(vec![
            Cell::Text(detail_label(d)),
            Cell::Count(d.detailed),
            Cell::Number(d.moves_per_success.mean),
            Cell::Number(d.moves_per_success.median),
            Cell::Number(d.excess_moves.mean),
            Cell::noted(Cell::Count(d.failures.invalid_move), reasons),
            Cell::Count(d.failures.move_limit),
            Cell::Count(d.failures.unparseable_reply),
            Cell::Count(d.failures.unknown),
            Cell::Count(d.failures.api_error),
            Cell::Rate(d.move_validity),
        ]);
    }
    let mut columns = vec![
        ("group", "group"),
        ("traced", "solves"),
        ("revisits_mean", "revisits (mean)"),
        ("looping", "looping"),
        ("first_error_junction", "first error at a junction"),
        ("first_error_dead_end", "at a dead end"),
        ("first_error_corridor", "in a corridor"),
    ];
    // The lenient protocol's forgiven moves, when a trial had any.
    let lenient = pooled_details().any(|d| d.retried_moves > 0);
    if lenient {
        columns.push(("retried_moves", "invalid moves forgiven (lenient)"));
    }
    let mut wrong = Table::new(
        "solve-errors",
        format!(
            "How solves went wrong (pooled rows; solves whose path is known, from trials.jsonl): moves onto a cell stood on before, solves that looped (a cell stood on {LOOP_VISITS} times or more), and where the first error was made (the first move that broke the rules or left every shortest path)"
        ),
        &columns,
    );
    for d in pooled_details() {
        let e = &d.first_errors;
        let mut cells = vec![
            Cell::Text(detail_label(d)),
            Cell::Count(e.traced),
            Cell::Number(d.revisits.mean),
            Cell::Rate(d.looping),
        ];
        cells.extend(Place::ALL.map(|p| Cell::Count(e.at(p))));
        if lenient {
            cells.push(Cell::Count(d.retried_moves));
        }
        wrong.row(cells);
    }
    sections.push(
        Section::new("Solving details".into())
            .table(solving)
            .table(wrong),
    );
    if pooled_details().any(|d| d.tokens.trials > 0) {
        // Dollars only when a model had a price.
        let priced = pooled_details().any(|d| d.tokens.cost.is_some());
        let mut columns = vec![
            ("group", "group"),
            ("trials", "trials"),
            ("calls", "calls"),
            ("prompt_tokens", "prompt tokens"),
            ("completion_tokens", "completion tokens"),
            ("reasoning_tokens", "of which reasoning"),
            ("tokens_per_trial", "tokens per trial"),
            ("tokens_per_solve", "tokens per solved trial"),
            ("cut_off_trials", "cut off by the token limit"),
        ];
        if priced {
            columns.extend([
                ("cost", "cost"),
                ("cost_per_trial", "cost per trial"),
                ("cost_per_solve", "cost per solved trial"),
            ]);
        }
        let mut tokens = Table::new(
            "tokens",
            "Tokens the endpoints reported (pooled rows; trials whose replies reported usage): per trial, and per solved trial, what a solve costs; with prices, in dollars too".into(),
            &columns,
        );
        let money = |v: Option<f64>| Cell::Text(v.map(dollars).unwrap_or_default());
        for d in pooled_details() {
            let t = &d.tokens;
            let mut cells = vec![
                Cell::Text(detail_label(d)),
                Cell::Count(t.trials),
                Cell::Count(t.calls),
                Cell::Count(t.prompt as usize),
                Cell::Count(t.completion as usize),
                Cell::Count(t.reasoning as usize),
                Cell::Number(t.per_trial),
                Cell::Number(t.per_solve),
                Cell::Count(t.cut_off_trials),
            ];
            if priced {
                cells.extend([
                    money(t.cost),
                    money(t.cost_per_trial),
                    money(t.cost_per_solve),
                ]);
            }
            tokens.row(cells);
        }
        sections.push(Section::new("Tokens".into()).table(tokens));
    }
    if pooled_details().any(|d| d.retries.retried_trials > 0) {
        let mut retries = Table::new(
            "retries",
            "Trials whose calls failed and were retried before they answered, beside the others (pooled rows): if the solve rates differ, the endpoint's errors were not independent of the task".into(),
            &[
                ("group", "group"),
                ("retried_trials", "retried trials"),
                ("solve_retried", "solve, retried"),
                ("solve_others", "solve, others"),
                ("p", "chi-square p"),
            ],
        );
        for d in pooled_details() {
            let r = &d.retries;
            retries.row(vec![
                Cell::Text(detail_label(d)),
                Cell::Count(r.retried_trials),
                Cell::Rate(r.solve_retried),
                Cell::Rate(r.solve_others),
                Cell::Number(r.p),
            ]);
        }
        sections.push(Section::new("Retried calls".into()).table(retries));
    }

    let mut generation = Table::new(
        "generation",
        "Each check on its own and all four together (pooled rows, trials with records)".into(),
        &[
            ("group", "group"),
            ("valid_encoding", "valid encoding"),
            ("shape_preserved", "shape preserved"),
            ("novel", "novel"),
            ("path_valid", "path valid"),
            ("all_four", "all four"),
        ],
    );
    for d in pooled_details() {
        let g = &d.generation;
        generation.row(vec![
            Cell::Text(detail_label(d)),
            Cell::Rate(g.valid_encoding),
            Cell::Rate(g.shape_preserved),
            Cell::Rate(g.novel),
            Cell::Rate(g.path_valid),
            Cell::Rate(g.all_four),
        ]);
    }
    sections.push(Section::new("Generation checks".into()).table(generation));

    let mut encodings = Table::new(
        "encoding",
        "".into(),
        &[
            ("model", "model"),
            ("phase", "phase"),
            ("matrix", "matrix"),
            ("coord_list", "coordinate list"),
            ("difference", "difference [95% CI]"),
            ("mcnemar", "McNemar"),
        ],
    );
    for c in &a.encoding_comparison {
        let (diff, test) = c.test.map_or(("n/a".into(), "n/a".into()), |t| {
            (
                format!(
                    "{:+.1} [{:+.1}, {:+.1}]",
                    Fixed(100.0 * t.difference),
                    Fixed(100.0 * t.ci_low),
                    Fixed(100.0 * t.ci_high)
                ),
                format!(
                    "{} {:.2}, p {}",
                    if t.exact { "exact, k =" } else { "chi2 =" },
                    Fixed(t.statistic),
                    fmt_p(t.p)
                ),
            )
        });
        encodings.row(vec![
            Cell::text(&c.model),
            Cell::text(&c.phase),
            Cell::Rate(c.matrix),
            Cell::Rate(c.coord_list),
            Cell::Text(diff),
            Cell::Text(test),
        ]);
    }
    sections
        .push(Section::new("Matrix vs coordinate list (paired by maze)".into()).table(encodings));

    let mut effects = Table::new(
        "shape-effects",
        "".into(),
        &[
            ("phase", "phase"),
            ("chi_square", "chi-square (success x shape)"),
            ("anova", "ANOVA on per-maze scores"),
        ],
    );
    for p in &a.shape_effects.phases {
        let chi = p.chi_square.map_or("n/a".into(), |c| {
            format!(
                "chi2({}) = {:.2}, p {}",
                c.df,
                Fixed(c.statistic),
                fmt_p(c.p)
            )
        });
        let anova = p.anova.map_or("n/a".into(), |x| {
            format!(
                "F({}, {}) = {:.2}, p {}",
                x.df1,
                x.df2,
                Fixed(x.f),
                fmt_p(x.p)
            )
        });
        effects.row(vec![
            Cell::text(&p.phase),
            Cell::Text(chi),
            Cell::noted(Cell::Text(anova), format!("{} mazes", p.mazes)),
        ]);
    }
    let mut ranking = Table::new(
        "ranking",
        "Observed difficulty (mean of the three phase rates) beside the predicted ranking".into(),
        &[
            ("shape", "shape"),
            ("score", "score"),
            ("observed_rank", "observed rank"),
            ("predicted_rank", "predicted rank"),
        ],
    );
    for r in &a.shape_effects.ranking {
        ranking.row(vec![
            Cell::text(&r.shape),
            Cell::Text(format!("{:.1}%", Fixed(100.0 * r.score))),
            // Average ranks are whole or halves, which this writes as `f64`'s `Display` does.
            Cell::Text(crate::core::text::format_decimal(r.observed, 1)),
            Cell::Text(r.predicted.to_string()),
        ]);
    }
    sections.push(
        Section::new("Shape effects".into())
            .table(effects)
            .table(ranking)
            .paragraph(format!(
                "Spearman's rho between predicted and observed ranks: {}.",
                a.shape_effects.spearman.map_or("n/a".into(), |c| format!(
                    "{:.2} (p {}, n = {})",
                    Fixed(c.r),
                    fmt_p(c.p),
                    c.n
                ))
            )),
    );

    let mut correlations = Table::new(
        "correlations",
        "".into(),
        &[
            ("model", "model"),
            ("phases", "phases"),
            ("trials", "trials"),
            ("phi", "phi [95% CI]"),
        ],
    );
    for c in &a.phase_correlations {
        correlations.row(vec![
            Cell::text(&c.model),
            Cell::Text(format!("{} / {}", c.first, c.second)),
            Cell::Count(c.counts.n()),
            Cell::Text(c.phi.map_or("n/a".into(), |p| {
                format!(
                    "{:.2} [{:.2}, {:.2}]",
                    Fixed(p.phi),
                    Fixed(p.ci_low),
                    Fixed(p.ci_high)
                )
            })),
        ]);
    }
    sections.push(Section::new("Correlations between phases".into()).table(correlations));

    let mut confusion =
        Section::new("Shape confusion matrix (rows: true shape; columns: shape named)".into());
    if a.confusion.is_empty() {
        confusion = confusion.paragraph("No shape named is known (it needs trials.jsonl).");
    }
    for c in &a.confusion {
        let mut columns = vec![("true".to_string(), "true".to_string())];
        columns.extend(c.cols.iter().map(|col| (col.clone(), col.clone())));
        let columns: Vec<(&str, &str)> = columns
            .iter()
            .map(|(k, l)| (k.as_str(), l.as_str()))
            .collect();
        let mut t = Table::new(
            &format!("confusion-{}", slug(&c.scope)),
            format!(
                "Shape confusion matrix ({}): true shape x shape named",
                c.scope
            ),
            &columns,
        );
        for (r, row) in c.rows.iter().zip(&c.counts) {
            let mut cells = vec![Cell::Heading(r.clone())];
            cells.extend(row.iter().map(|&n| Cell::Count(n)));
            t.row(cells);
        }
        confusion = confusion.table(t);
    }
    sections.push(confusion);
    Document { sections }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::analysis::analyze::{analyze, AnalysisOptions};
    use crate::view::chart::tests::{
        assert_no_text_overlaps, sample_analysis, sample_observations, well_formed,
    };

    #[test]
    fn the_groups_csv_keeps_the_contracts_header_and_quotes_every_field() {
        use crate::core::analysis::test_support::obs;
        use crate::core::maze::encoding::Encoding;
        use crate::core::maze::shape::Shape;
        let a = analyze(
            &[obs(
                "m,1",
                Encoding::Matrix,
                Shape::C,
                0,
                [true, true, false],
            )],
            &AnalysisOptions::default(),
        );
        let csv = super::super::document::csv::write(&groups_table("csv", "", &a.groups, true));
        let mut lines = csv.lines();
        assert_eq!(
            lines.next(),
            Some("experiment,model,encoding,shape,trials,api_errors,solve_successes,solve_n,solve_rate,solve_ci_low,solve_ci_high,solve_mazes,recognize_successes,recognize_n,recognize_rate,recognize_ci_low,recognize_ci_high,recognize_mazes,generate_successes,generate_n,generate_rate,generate_ci_low,generate_ci_high,generate_mazes"),
            "docs/cli.md's header: each phase's five numbers, then the mazes they were played on"
        );
        let row = lines.next().expect("one group");
        // No groups at all: the same header.
        let empty = super::super::document::csv::write(&groups_table("csv", "", &[], true));
        assert_eq!(
            empty.lines().next(),
            csv.lines().next(),
            "the header does not depend on the data"
        );
        assert!(row.contains(",\"m,1\",matrix,C,1,0,1,1,1.000000,"), "{row}");
        assert!(
            row.contains(",0,1,0.000000,0.000000,"),
            "a failed phase keeps its numbers: {row}"
        );
        assert_eq!(lines.next(), None);
    }

    #[test]
    fn every_rate_says_it_is_clustered_by_maze_and_repeats_widen_it() {
        use crate::core::analysis::test_support::obs;
        use crate::core::maze::encoding::Encoding;
        use crate::core::maze::shape::Shape;
        // 30 trials, 15 solved: 30 repeats of maze 0, or one trial on each of 30 mazes.
        let trials = |distinct: bool| -> Vec<_> {
            (0..30)
                .map(|i| {
                    let mut o = obs("m", Encoding::Matrix, Shape::C, 0, [i < 15, true, true]);
                    if distinct {
                        o.sample = i;
                    } else {
                        o.repeat = i;
                    }
                    o
                })
                .collect()
        };
        let (one, many) = (
            analyze(&trials(false), &AnalysisOptions::default()),
            analyze(&trials(true), &AnalysisOptions::default()),
        );
        let (a, b) = (one.pooled[0].solve, many.pooled[0].solve);
        assert_eq!((a.mazes, b.mazes), (Some(1), Some(30)));
        assert!(a.ci_high - a.ci_low > b.ci_high - b.ci_low, "{a:?} {b:?}");
        let text = super::super::document::text::write(&analysis_document(&one, false));
        assert!(text.contains("15/30 (1 maze) 50.0% [5.5, 94.5]"), "{text}");
        let doc = analysis_document(&many, false);
        for t in ["pooled", "groups", "solve-details", "generation"] {
            let t = doc.table(t).expect("the table");
            assert_eq!(
                t.interval_note(),
                Some(super::super::document::CLUSTERED_NOTE)
            );
        }
        let html = report_body(&many);
        assert!(html.contains("15/30 (30 mazes) <b>50.0%</b>"), "{html}");
    }

    #[test]
    fn several_sizes_get_a_difficulty_curve_per_phase_and_one_size_none() {
        use crate::core::analysis::test_support::obs;
        use crate::core::maze::encoding::Encoding;
        use crate::core::maze::shape::Shape;
        // qwen solves 3 of 4 at 5x5 and 1 of 4 at 7x7; every maze is recognised.
        let mut v = Vec::new();
        for (size, solved) in [(5, 3), (7, 1)] {
            for i in 0..4 {
                let mut o = obs(
                    "qwen",
                    Encoding::Matrix,
                    Shape::Square,
                    i,
                    [i < solved, true, false],
                );
                o.size = size;
                // Solves at 5x5 take the shortest path (4 moves); at 7x7, 6 beyond it.
                (o.moves, o.valid_moves, o.shortest_path) = match size {
                    5 => (Some(4), Some(4), Some(4)),
                    _ => (Some(12), Some(12), Some(6)),
                };
                v.push(o);
            }
        }
        let a = analyze(&v, &AnalysisOptions::default());
        let rows: Vec<(String, usize, usize, usize)> = a
            .by_size
            .iter()
            .map(|r| (r.model.clone(), r.size, r.solve.successes, r.solve.n))
            .collect();
        assert_eq!(
            rows,
            [
                ("all".to_string(), 5, 3, 4),
                ("all".to_string(), 7, 1, 4),
                ("qwen".to_string(), 5, 3, 4),
                ("qwen".to_string(), 7, 1, 4)
            ]
        );
        let doc = analysis_document(&a, true);
        let t = doc.table("by-size").expect("a table by size");
        assert_eq!(t.rows.len(), 4);
        // Every other measure by size too: moves and the excess over the shortest path.
        let excess: Vec<(usize, Option<f64>, Option<f64>)> = a
            .by_size
            .iter()
            .map(|r| {
                let d = &r.detail;
                (r.size, d.moves_per_success.mean, d.excess_moves.mean)
            })
            .collect();
        assert_eq!(
            excess,
            [
                (5, Some(4.0), Some(0.0)),
                (7, Some(12.0), Some(6.0)),
                (5, Some(4.0), Some(0.0)),
                (7, Some(12.0), Some(6.0))
            ]
        );
        let m = doc.table("by-size-measures").expect("the measures by size");
        assert_eq!(m.rows.len(), 4);
        let body = report_body(&a);
        for phase in ["solve", "recognize", "generate"] {
            assert!(
                body.contains(&format!("data-testid=\"chart-size-{phase}\"")),
                "a curve for {phase}"
            );
        }
        well_formed(&format!("<div>{body}</div>")).unwrap_or_else(|e| panic!("{e}"));
        let text = super::super::document::text::write(&analysis_document(&a, false));
        assert!(
            text.contains("By grid size") && text.contains("7x7"),
            "{text}"
        );
        // One size: no section.
        let one = analyze(&v[..4], &AnalysisOptions::default());
        assert!(analysis_document(&one, true).table("by-size").is_none());
        assert!(!report_body(&one).contains("chart-size-"));
    }

    #[test]
    fn repeated_mazes_get_pass_at_k_and_pass_all_k_in_every_writer() {
        use crate::core::analysis::test_support::obs;
        use crate::core::maze::encoding::Encoding;
        use crate::core::maze::shape::Shape;
        // One maze, solved in 1 of its 2 repeats.
        let v: Vec<_> = [true, false]
            .into_iter()
            .enumerate()
            .map(|(r, ok)| {
                let mut o = obs("qwen", Encoding::Matrix, Shape::C, 0, [ok, true, true]);
                o.repeat = r;
                o
            })
            .collect();
        let a = analyze(&v, &AnalysisOptions::default());
        let doc = analysis_document(&a, false);
        let t = doc.table("repeats").expect("a repeats table");
        let csv = super::super::document::csv::write(t);
        assert!(
            csv.starts_with("group,k,mazes,solve_pass_at_k_successes,solve_pass_at_k_n,"),
            "{csv}"
        );
        assert!(
            csv.lines()
                .nth(1)
                .expect("the overall row")
                .starts_with("all/all/all,2,1,1,1,1.000000,")
                && csv.contains(",0,1,0.000000,"),
            "pass@2 1 of 1, pass^2 0 of 1: {csv}"
        );
        let text = super::super::document::text::write(&doc);
        assert!(text.contains("Repeats: pass@k and pass^k"), "{text}");
        assert!(report_body(&a).contains("data-testid=\"table-repeats\""));
    }

    #[test]
    fn tokens_are_shown_only_when_an_endpoint_reported_them() {
        use crate::core::results::record::Tokens;
        let (a, _) = sample_analysis("qwen");
        assert!(analysis_document(&a, false).table("tokens").is_none());
        let (_, mut v) = sample_analysis("qwen");
        v[0].tokens = Some(Tokens {
            calls: 3,
            prompt: 900,
            completion: 120,
            reasoning: 80,
            cut_off: 1,
        });
        let a = analyze(&v, &AnalysisOptions::default());
        let doc = analysis_document(&a, false);
        let t = doc.table("tokens").expect("a tokens table");
        let text = super::super::document::text::table(t);
        assert!(
            text.contains("1020.00") && text.contains("cut off"),
            "{text}"
        );
        assert!(text.contains("of which reasoning"), "{text}");
        assert!(report_body(&a).contains("data-testid=\"table-tokens\""));
    }

    #[test]
    fn every_chart_is_well_formed_and_carries_a_title_and_test_id() {
        let (a, _) = sample_analysis("qwen-plus");
        let charts = standard_charts(&a);
        assert_eq!(charts.len(), 5, "three bar charts, a line chart, a heatmap");
        for c in charts {
            let n = well_formed(&c.svg).unwrap_or_else(|e| panic!("{}: {e}", c.id));
            assert!(n > 10, "{} draws something ({n} elements)", c.id);
            assert!(c.svg.contains("<title>"), "{} has a title", c.id);
            assert!(
                c.svg.contains(&format!("data-testid=\"chart-{}\"", c.id)),
                "{} test id",
                c.id
            );
            assert!(c.svg.contains("aria-label="), "{} aria-label", c.id);
        }
    }

    #[test]
    fn hostile_labels_are_escaped_everywhere() {
        let (a, v) = sample_analysis("<script>alert('x')</script>");
        let csv = crate::core::analysis::observation::observations_csv(&v);
        let html = report_html(&a, "", "design <b>&</b>", &csv);
        assert!(!html.contains("<script>"), "no live script tag");
        assert!(
            html.contains("&lt;script&gt;"),
            "the label is shown escaped"
        );
        well_formed(&html).unwrap_or_else(|e| panic!("the report is not well-formed: {e}"));
        let svg = bar_chart(
            "x\"y",
            "a \"quoted\" <title>",
            &["<g>".into()],
            &[BarSeries {
                name: "&".into(),
                values: vec![Some(Bar {
                    value: 0.5,
                    low: 0.2,
                    high: 0.8,
                    n: 4,
                })],
            }],
        );
        well_formed(&svg).unwrap_or_else(|e| panic!("the chart is not well-formed: {e}"));
        assert!(
            svg.contains("data-testid=\"chart-x-y\""),
            "the id is made safe: {svg}"
        );
    }

    #[test]
    fn empty_data_gives_charts_that_say_so_and_a_report_that_opens() {
        let a = analyze(&[], &AnalysisOptions::default());
        for c in standard_charts(&a) {
            well_formed(&c.svg).unwrap_or_else(|e| panic!("{}: {e}", c.id));
            assert!(c.svg.contains("No data"), "{} says there is no data", c.id);
        }
        let html = report_html(&a, "", "", "");
        well_formed(&html).unwrap_or_else(|e| panic!("{e}"));
        for k in ["H1", "H2", "H3", "H4"] {
            assert!(
                html.contains(&format!(
                    "data-testid=\"hypothesis-{k}\" data-verdict=\"insufficient\""
                )),
                "{k} is insufficient"
            );
        }
    }

    #[test]
    fn the_report_is_self_contained_and_holds_the_data() {
        let (a, v) = sample_analysis("qwen");
        let csv = crate::core::analysis::observation::observations_csv(&v);
        let html = report_html(&a, "", "5x5, six shapes", &csv);
        for outside in ["<script", "src=", "href=", "@import", "url(http"] {
            assert!(!html.contains(outside), "no outside resource ({outside})");
        }
        assert!(
            html.contains("<details>"),
            "the data sits in a details element"
        );
        assert!(
            html.contains("exp &lt;1&gt;,qwen,matrix,square"),
            "the CSV rows are inside"
        );
        assert_eq!(html.matches("<svg").count(), 5, "five inline charts");
    }

    #[test]
    fn the_confusion_matrix_is_called_by_the_designs_name() {
        let (a, _) = sample_analysis("qwen");
        let chart = standard_charts(&a)
            .into_iter()
            .find(|c| c.id == "confusion")
            .expect("a confusion chart");
        assert!(
            chart.title.starts_with("Shape confusion matrix"),
            "{}",
            chart.title
        );
        assert!(chart.svg.contains("<title>Shape confusion matrix"));
        let body = report_body(&a);
        assert!(
            body.contains("data-testid=\"table-confusion-all\"><caption>Shape confusion matrix"),
            "the table's caption names it too"
        );
        assert!(!body.contains("Recognition:") && !body.contains("Recognition ("));
    }

    #[test]
    fn two_identical_experiments_draw_a_progression_chart_without_overprinting() {
        let mut v = sample_observations("day one", "oracle");
        v.extend(sample_observations("day two", "oracle"));
        let a = analyze(&v, &AnalysisOptions::default());
        let chart = standard_charts(&a)
            .into_iter()
            .find(|c| c.id == "progression")
            .expect("a progression chart");
        assert!(
            chart.svg.contains(">day one: oracle</text>")
                && chart.svg.contains(">day two: oracle</text>")
        );
        assert_no_text_overlaps(&chart.svg);
    }
}
