//! The report file (`shapemaze report --html` and the results page's download): the
//! analysis drawn as charts and tables in one self-contained HTML page, and the
//! standard charts the results page shows.

use super::chart::*;
use super::html::escape;
use crate::core::analysis::analyze::Analysis;
use crate::core::analysis::groups::{EmptyAnswers, GroupRow};
use crate::core::analysis::hypotheses::fmt_p;
use crate::core::analysis::observation::{ALL, PHASE_NAMES};
use crate::core::analysis::stats::Proportion;
use crate::core::model::reply::EmptyReason;
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

fn prop_cell(p: &Proportion) -> String {
    if p.n == 0 {
        return "<td>n/a</td>".into();
    }
    format!(
        "<td>{}/{} <b>{:.1}%</b> <small>[{:.1}, {:.1}]</small></td>",
        p.successes,
        p.n,
        100.0 * p.rate,
        100.0 * p.ci_low,
        100.0 * p.ci_high
    )
}

fn group_table(id: &str, caption: &str, rows: &[GroupRow], with_experiment: bool) -> String {
    let mut s = format!(
        "<table data-testid=\"table-{id}\"><caption>{}</caption><thead><tr>{}<th>model</th><th>encoding</th><th>shape</th><th>trials</th><th>API errors</th><th>solve</th><th>recognize</th><th>generate</th></tr></thead><tbody>",
        escape(caption),
        if with_experiment { "<th>experiment</th>" } else { "" }
    );
    for (i, r) in rows.iter().enumerate() {
        if id == "groups" {
            let _ = write!(s, "<tr data-action=\"drill\" data-group=\"{i}\">");
        } else {
            s.push_str("<tr>");
        }
        if with_experiment {
            let _ = write!(s, "<td>{}</td>", escape(&r.experiment));
        }
        let _ = write!(
            s,
            "<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>{}{}{}</tr>",
            escape(&r.model),
            escape(&r.encoding),
            escape(&r.shape),
            r.trials,
            r.api_errors,
            prop_cell(&r.solve),
            prop_cell(&r.recognize),
            prop_cell(&r.generate)
        );
    }
    s.push_str("</tbody></table>");
    s
}

fn num(x: Option<f64>) -> String {
    x.map_or("n/a".into(), |x| format!("{x:.2}"))
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

/// The report's verdicts, charts and tables (what the results page shows and the report
/// file holds between its heading and its settings and data). Rows of the model x encoding
/// x shape table carry `data-action="drill"` and `data-group` (their index in
/// `a.groups`), so a page can list their trials.
pub fn report_body(a: &Analysis) -> String {
    let several = a.experiments.len() > 1;
    let mut s = String::with_capacity(64 * 1024);
    let _ = write!(
        s,
        "<p>{} trials from {}; {} with an API error (left out of every rate). Rates are successes over trials judged, with 95% Wilson intervals in brackets.</p>",
        a.trials,
        escape(&a.experiments.join(", ")),
        a.api_errors
    );
    s.push_str("<h2>Hypotheses</h2><ul data-testid=\"table-hypotheses\">");
    for (k, h, statement) in a.hypotheses.all() {
        let _ = write!(
            s,
            "<li data-testid=\"hypothesis-{k}\" data-verdict=\"{v}\"><b>{k}</b> {} <span class=\"verdict {v}\">{}</span><br/>{}: statistic {}, p {}, n = {}.<br/>{}{}</li>",
            escape(statement),
            h.verdict.name().replace('_', " "),
            escape(&h.test),
            num(h.statistic),
            h.p.map_or("n/a".into(), fmt_p),
            h.n,
            escape(&h.note),
            h.warning
                .as_ref()
                .map_or(String::new(), |w| format!(" <span class=\"warning\">Warning: {}</span>", escape(w))),
            v = h.verdict.name(),
        );
    }
    s.push_str("</ul><h2>Charts</h2>");
    for c in standard_charts(a) {
        let _ = write!(s, "<figure>{}</figure>", c.svg);
    }
    s.push_str("<h2>Overall, by model, encoding and shape</h2>");
    s.push_str(&group_table("pooled", "Pooled rows", &a.pooled, several));
    s.push_str(&group_table(
        "groups",
        "Model x encoding x shape",
        &a.groups,
        several,
    ));

    if a.empty_answers.first().is_some_and(EmptyAnswers::any) {
        s.push_str("<h2>Empty answers</h2><table data-testid=\"table-empty-answers\"><caption>Trials with an empty answer, by why it was empty (judged as the model's answers like any other)</caption><thead><tr><th>model</th>");
        for r in EmptyReason::ALL {
            let _ = write!(s, "<th>{}</th>", r.label());
        }
        s.push_str("</tr></thead><tbody>");
        for e in &a.empty_answers {
            let _ = write!(s, "<tr><td>{}</td>", escape(&e.model));
            for r in EmptyReason::ALL {
                let _ = write!(s, "<td>{} of {}</td>", e.count(r), e.trials);
            }
            s.push_str("</tr>");
        }
        s.push_str("</tbody></table>");
    }

    s.push_str("<h2>Solving details</h2><table data-testid=\"table-solve-details\"><caption>Moves, failure types and move validity (pooled rows)</caption><thead><tr><th>group</th><th>moves per solve (mean, median)</th><th>beyond shortest path (mean)</th><th>invalid move</th><th>move limit</th><th>unparseable</th><th>unknown</th><th>API error</th><th>move validity</th></tr></thead><tbody>");
    for d in a.details.iter().skip(a.groups.len()) {
        let reasons = d
            .failures
            .invalid_by_reason
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join(", ");
        let _ = write!(
            s,
            "<tr><td>{}/{}/{}</td><td>{}, {}</td><td>{}</td><td>{} <small>{}</small></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>{}</tr>",
            escape(&d.model),
            escape(&d.encoding),
            escape(&d.shape),
            num(d.moves_per_success.mean),
            num(d.moves_per_success.median),
            num(d.excess_moves.mean),
            d.failures.invalid_move,
            escape(&reasons),
            d.failures.move_limit,
            d.failures.unparseable_reply,
            d.failures.unknown,
            d.failures.api_error,
            prop_cell(&d.move_validity)
        );
    }
    s.push_str("</tbody></table>");

    s.push_str("<h2>Generation checks</h2><table data-testid=\"table-generation\"><caption>Each check on its own and all four together (pooled rows, trials with records)</caption><thead><tr><th>group</th><th>valid encoding</th><th>shape preserved</th><th>novel</th><th>path valid</th><th>all four</th></tr></thead><tbody>");
    for d in a.details.iter().skip(a.groups.len()) {
        let g = &d.generation;
        let _ = write!(
            s,
            "<tr><td>{}/{}/{}</td>{}{}{}{}{}</tr>",
            escape(&d.model),
            escape(&d.encoding),
            escape(&d.shape),
            prop_cell(&g.valid_encoding),
            prop_cell(&g.shape_preserved),
            prop_cell(&g.novel),
            prop_cell(&g.path_valid),
            prop_cell(&g.all_four)
        );
    }
    s.push_str("</tbody></table>");

    s.push_str("<h2>Matrix vs coordinate list (paired by maze)</h2><table data-testid=\"table-encoding\"><thead><tr><th>model</th><th>phase</th><th>matrix</th><th>coordinate list</th><th>difference [95% CI]</th><th>McNemar</th></tr></thead><tbody>");
    for c in &a.encoding_comparison {
        let (diff, test) = c.test.map_or(("n/a".into(), "n/a".into()), |t| {
            (
                format!(
                    "{:+.1} [{:+.1}, {:+.1}]",
                    100.0 * t.difference,
                    100.0 * t.ci_low,
                    100.0 * t.ci_high
                ),
                format!(
                    "{} {:.2}, p {}",
                    if t.exact { "exact, k =" } else { "chi2 =" },
                    t.statistic,
                    fmt_p(t.p)
                ),
            )
        });
        let _ = write!(
            s,
            "<tr><td>{}</td><td>{}</td>{}{}<td>{diff}</td><td>{test}</td></tr>",
            escape(&c.model),
            escape(&c.phase),
            prop_cell(&c.matrix),
            prop_cell(&c.coord_list)
        );
    }
    s.push_str("</tbody></table>");

    s.push_str("<h2>Shape effects</h2><table data-testid=\"table-shape-effects\"><thead><tr><th>phase</th><th>chi-square (success x shape)</th><th>ANOVA on per-maze scores</th></tr></thead><tbody>");
    for p in &a.shape_effects.phases {
        let chi = p.chi_square.map_or("n/a".into(), |c| {
            format!("chi2({}) = {:.2}, p {}", c.df, c.statistic, fmt_p(c.p))
        });
        let anova = p.anova.map_or("n/a".into(), |x| {
            format!("F({}, {}) = {:.2}, p {}", x.df1, x.df2, x.f, fmt_p(x.p))
        });
        let _ = write!(
            s,
            "<tr><td>{}</td><td>{chi}</td><td>{anova} <small>({} mazes)</small></td></tr>",
            escape(&p.phase),
            p.mazes
        );
    }
    s.push_str("</tbody></table><table data-testid=\"table-ranking\"><caption>Observed difficulty (mean of the three phase rates) beside the predicted ranking</caption><thead><tr><th>shape</th><th>score</th><th>observed rank</th><th>predicted rank</th></tr></thead><tbody>");
    for r in &a.shape_effects.ranking {
        let _ = write!(
            s,
            "<tr><td>{}</td><td>{:.1}%</td><td>{}</td><td>{}</td></tr>",
            escape(&r.shape),
            100.0 * r.score,
            r.observed,
            r.predicted
        );
    }
    let _ = write!(
        s,
        "</tbody></table><p>Spearman's rho between predicted and observed ranks: {}.</p>",
        a.shape_effects.spearman.map_or("n/a".into(), |c| format!(
            "{:.2} (p {}, n = {})",
            c.r,
            fmt_p(c.p),
            c.n
        ))
    );

    s.push_str("<h2>Correlations between phases</h2><table data-testid=\"table-correlations\"><thead><tr><th>model</th><th>phases</th><th>trials</th><th>phi [95% CI]</th></tr></thead><tbody>");
    for c in &a.phase_correlations {
        let _ = write!(
            s,
            "<tr><td>{}</td><td>{} / {}</td><td>{}</td><td>{}</td></tr>",
            escape(&c.model),
            c.first,
            c.second,
            c.counts.n(),
            c.phi.map_or("n/a".into(), |p| format!(
                "{:.2} [{:.2}, {:.2}]",
                p.phi, p.ci_low, p.ci_high
            ))
        );
    }
    s.push_str("</tbody></table>");

    for c in &a.confusion {
        let _ = write!(s, "<table data-testid=\"table-confusion-{}\"><caption>Shape confusion matrix ({}): true shape x shape named</caption><thead><tr><th>true</th>", slug(&c.scope), escape(&c.scope));
        for col in &c.cols {
            let _ = write!(s, "<th>{}</th>", escape(col));
        }
        s.push_str("</tr></thead><tbody>");
        for (r, row) in c.rows.iter().zip(&c.counts) {
            let _ = write!(s, "<tr><th>{}</th>", escape(r));
            for n in row {
                let _ = write!(s, "<td>{n}</td>");
            }
            s.push_str("</tr>");
        }
        s.push_str("</tbody></table>");
    }

    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::analysis::analyze::{analyze, AnalysisOptions};
    use crate::view::chart::tests::{
        assert_no_text_overlaps, sample_analysis, sample_observations, well_formed,
    };

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
