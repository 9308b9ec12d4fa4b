//! The report file (`shapemaze report --html` and the results page's download): the
//! analysis drawn as charts and tables in one self-contained HTML page, and the
//! standard charts the results page shows.

use super::contents::{Part, Parts, PARTS_CSS};
use super::document::{html, Cell, Document, Table};
use super::html::escape;
use super::report_sections::{
    generation_section, hypotheses_section, overview_section, rates_sections, recognition_section,
    shapes_section, size_section, solving_sections, stair_section, tokens_section, trials_section,
};
use shapemaze_core::analysis::analyze::Analysis;
use shapemaze_core::analysis::compare::Comparison;
use shapemaze_core::text::Fixed;
use std::fmt::Write as _;

const CSS: &str = "body{font-family:system-ui,sans-serif;font-size:18px;line-height:1.45;max-width:1320px;margin:0 auto;padding:1rem 1.5rem;color:#111;background:#fff}h1{font-size:2rem}h2{margin-top:2.2rem;border-bottom:2px solid #0072B2}h3{margin:1.6rem 0 .4rem}table{border-collapse:collapse;margin:1rem 0;font-size:16px}caption{text-align:left;font-weight:bold;padding:.3rem 0}th,td{border:1px solid #999;padding:.3rem .5rem;text-align:left;vertical-align:top}th{background:#eef3f8}.verdict{font-weight:bold;padding:.1rem .5rem;border:2px solid #000;border-radius:4px}.supported{background:#cfe8dd}.not_supported{background:#f6dccb}.insufficient{background:#eeeeee;border-style:dashed}.warning{color:#8a3b00}pre{background:#f6f6f6;padding:.6rem;overflow:auto;font-size:14px}figure{margin:1.5rem 0}small{color:#444}.results-main{min-width:0}@media print{body{max-width:none;font-size:12pt}h2{break-after:avoid}figure,tr{break-inside:avoid}}";

/// The whole analysis as one self-contained HTML file (inline CSS and SVG, no script, no
/// outside resource): the contents list (in-page links: a sidebar on wide screens, a menu
/// on narrow ones, left out in print), then every part in order ([`report_parts`]), the
/// audit, the data (`csv`, one row per trial, and `items`, the item matrix, each inside a
/// `<details><pre>`) and `settings`
/// (the design and settings, as text). Long tables show their first rows with "show
/// all"; printed, every row shows. It is also well-formed XML, so it opens anywhere.
pub fn report_html(a: &Analysis, audit: &str, settings: &str, csv: &str, items: &str) -> String {
    let mut parts = report_parts(a, "");
    parts.add(Part::Audit, audit);
    parts.add(
        Part::Trials,
        &format!(
            "<h3>Data</h3><details><summary>The data as CSV, one row per trial</summary><pre data-testid=\"table-data\">{}</pre></details><details><summary>The item matrix as CSV (items.csv): one row per maze instance and model, the share of its trials that passed each phase</summary><pre data-testid=\"table-items\">{}</pre></details>",
            escape(csv),
            escape(items)
        ),
    );
    parts.add(Part::Settings, &format!("<pre>{}</pre>", escape(settings)));
    let body = parts.body();
    let mut s = String::with_capacity(body.len() + audit.len() + 16 * 1024);
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/><title>Shapemaze results</title><style>{CSS}{PARTS_CSS}{}</style></head><body><h1>Shapemaze results</h1><div class=\"results-layout\">{}<main class=\"results-main\">{body}</main></div></body></html>",
        if audit.is_empty() { "" } else { super::audit::AUDIT_CSS },
        parts.nav("", false)
    );
    s.push('\n');
    s
}

/// The analysis's parts as HTML, charts included: what the results page shows and the
/// report file holds. Links within the results go to `{page}#{id}` (`page` is the
/// page's own address, or empty in the report file). Rows of the model x encoding x
/// shape table carry `data-action="drill"` and `data-group` (their index in
/// `a.groups`), so a page can list their trials.
pub fn report_parts(a: &Analysis, page: &str) -> Parts {
    html::write_parts(&analysis_document(a, true), page)
}

/// The analysis's parts in order, as the report file shows them ([`report_parts`]).
pub fn report_body(a: &Analysis) -> String {
    report_parts(a, "").body()
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
    )
    .rates(&["a", "b"]);
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

/// The results page's side-by-side comparison (`comparison`, the part
/// [`Part::Compare`], which heads it): two selects of what can be
/// compared (`compare-a`, `compare-b`, the experiments then the models) and the
/// comparison of the two chosen ([`comparison_table`]).
pub fn comparison_section(names: &[String], c: &Comparison) -> String {
    let mut h = String::from(
        "<section class=\"compare\" data-testid=\"comparison\"><p class=\"muted\">Every phase, A against B, with the test that fits: McNemar's on trials of the same maze shown the same way, chi-square when none pair up.</p>",
    );
    for (side, chosen) in [("a", &c.a), ("b", &c.b)] {
        let _ = write!(
            h,
            "<label class=\"field\"><span>{}</span><select data-action=\"{}\" data-testid=\"compare-{side}\">",
            side.to_ascii_uppercase(),
            crate::actions::ResultsAction::Compare.name()
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

/// The analysis as a report, part by part in the contents' order
/// ([`crate::contents::Part`]): the overview (counts, every model's phase rates,
/// the verdicts as chips), the verdicts on H1-H4, the rates by group, solving,
/// recognition and the confusion matrices, generation, shapes, grid sizes, tokens,
/// staircase walks, and the model x encoding x shape table. Charts only with `charts`.
pub fn analysis_document(a: &Analysis, charts: bool) -> Document {
    let mut sections = vec![overview_section(a), hypotheses_section(a)];
    sections.extend(rates_sections(a, charts));
    sections.extend(crate::report_modes::modes_section(a));
    sections.extend(solving_sections(a));
    sections.push(recognition_section(a, charts));
    sections.push(generation_section(a));
    sections.push(shapes_section(a, charts));
    sections.extend(size_section(a, charts));
    sections.extend(tokens_section(a));
    if !a.staircase.is_empty() {
        sections.push(stair_section(a));
    }
    // People and models: present once people played (with models, or a line saying
    // there is nothing to pair); the JSON report's `people_vs_models` always says why.
    if a.people_vs_models.people_trials > 0 {
        sections.push(crate::report_people::people_section(a, charts));
    }
    sections.push(trials_section(a));
    Document { sections }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::tests::{
        assert_no_text_overlaps, sample_analysis, sample_observations, well_formed,
    };
    use crate::chart::*;
    use crate::report_charts::{groups_table, standard_charts};
    use shapemaze_core::analysis::analyze::{analyze, AnalysisOptions};

    #[test]
    fn every_table_s_csv_header_is_the_same_with_rows_and_without() {
        use shapemaze_core::analysis::observation::PlayedBy;
        let mut v = sample_observations("e", "m");
        let people: Vec<_> = v
            .iter()
            .take(24)
            .map(|o| {
                let mut p = o.clone();
                p.model = "human".into();
                p.who = PlayedBy::Person(format!("p{}", o.sample % 3));
                p
            })
            .collect();
        v.extend(people);
        let full = analyze(&v, &AnalysisOptions::default());
        let empty = analyze(&[], &AnalysisOptions::default());
        assert!(!full.people_vs_models.rows.is_empty(), "people pair");
        let headers = |a: &Analysis| {
            let mut doc = analysis_document(a, false);
            doc.sections
                .push(crate::report_people::people_section(a, false));
            let mut out = std::collections::BTreeMap::new();
            for t in doc
                .sections
                .iter()
                .flat_map(|s| &s.blocks)
                .filter_map(|b| match b {
                    crate::document::Block::Table(t) => Some(t),
                    _ => None,
                })
            {
                let csv = crate::document::csv::write(t);
                out.insert(
                    t.id.clone(),
                    (csv.lines().next().unwrap_or("").to_string(), t.rows.len()),
                );
            }
            out
        };
        let (with, without) = (headers(&full), headers(&empty));
        let mut compared = 0;
        for (id, (header, rows)) in &without {
            let Some((full_header, full_rows)) = with.get(id) else {
                continue;
            };
            if *rows > 0 || *full_rows == 0 {
                continue;
            }
            assert_eq!(header, full_header, "table {id}: the header without rows");
            compared += 1;
        }
        assert!(compared >= 3, "tables compared: {compared}");
        assert!(without.contains_key("people-models"));
    }

    #[test]
    fn the_groups_csv_keeps_the_contracts_header_and_quotes_every_field() {
        use shapemaze_core::analysis::test_support::obs;
        use shapemaze_core::maze::encoding::Encoding;
        use shapemaze_core::maze::shape::Shape;
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
            Some("experiment,model,encoding,shape,trials,api_errors,solve_successes,solve_n,solve_rate,solve_ci_low,solve_ci_high,solve_mazes,solve_unsure,solve_if_unsure_wrong,solve_if_unsure_right,recognize_successes,recognize_n,recognize_rate,recognize_ci_low,recognize_ci_high,recognize_mazes,recognize_unsure,recognize_if_unsure_wrong,recognize_if_unsure_right,generate_successes,generate_n,generate_rate,generate_ci_low,generate_ci_high,generate_mazes,generate_unsure,generate_if_unsure_wrong,generate_if_unsure_right"),
            "docs/cli.md's header: each phase's five numbers, the mazes they were played on, then its reading bounds"
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
        use shapemaze_core::analysis::test_support::obs;
        use shapemaze_core::maze::encoding::Encoding;
        use shapemaze_core::maze::shape::Shape;
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
        let text = crate::document::text::write(&analysis_document(&one, false));
        assert!(text.contains("15/30 (1 maze) 50.0% [5.5, 94.5]"), "{text}");
        let doc = analysis_document(&many, false);
        for t in ["pooled", "groups", "solve-details", "generation"] {
            let t = doc.table(t).expect("the table");
            assert_eq!(t.interval_note(), Some(crate::document::CLUSTERED_NOTE));
        }
        let html = report_body(&many);
        assert!(html.contains("15/30 (30 mazes) <b>50.0%</b>"), "{html}");
    }

    #[test]
    fn several_sizes_get_a_difficulty_curve_per_phase_and_one_size_none() {
        use shapemaze_core::analysis::test_support::obs;
        use shapemaze_core::maze::encoding::Encoding;
        use shapemaze_core::maze::shape::Shape;
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
        use shapemaze_core::analysis::test_support::obs;
        use shapemaze_core::maze::encoding::Encoding;
        use shapemaze_core::maze::shape::Shape;
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
        use shapemaze_core::results::record::Tokens;
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
        assert_eq!(
            charts.len(),
            5,
            "the overview, two bar charts, a line chart, a heatmap"
        );
        let encodings = &charts[1].svg;
        assert!(
            encodings.contains("for matrix, coord_list;"),
            "one bar group per encoding: {encodings}"
        );
        assert!(
            charts[3]
                .svg
                .contains("for square, cross, spiral, triangle, C, Z, U, N;"),
            "one bar group per shape"
        );
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
        let csv = shapemaze_core::analysis::observation::observations_csv(&v);
        let items = shapemaze_core::results::items::item_matrix_csv(v.iter().map(|o| o.item()));
        let html = report_html(&a, "", "design <b>&</b>", &csv, &items);
        assert!(html.contains("data-testid=\"table-items\">shape,size,seed,sample,encoding,model,trials,solve,recognize,generate,condition\n"), "the item matrix is in the file");
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
        let html = report_html(&a, "", "", "", "");
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
        let csv = shapemaze_core::analysis::observation::observations_csv(&v);
        let html = report_html(&a, "", "5x5, six shapes", &csv, "");
        for outside in ["<script", "src=", "@import", "url(http"] {
            assert!(!html.contains(outside), "no outside resource ({outside})");
        }
        assert_eq!(
            html.matches("href=\"").count(),
            html.matches("href=\"#").count(),
            "every link stays in the file"
        );
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

    /// The values of `attr="..."` in `html`, in order.
    fn attributes<'h>(html: &'h str, attr: &str) -> Vec<&'h str> {
        let key = format!(" {attr}=\"");
        html.split(key.as_str())
            .skip(1)
            .map(|rest| &rest[..rest.find('"').expect("a closed attribute")])
            .collect()
    }

    #[test]
    fn every_link_of_the_report_file_has_its_target_in_the_file() {
        let mut v = sample_observations("day one", "oracle");
        v.extend(sample_observations("day two", "qwen"));
        let a = analyze(&v, &AnalysisOptions::default());
        let html = report_html(&a, "<section class=\"audit\"></section>", "s", "c", "");
        well_formed(&html).unwrap_or_else(|e| panic!("{e}"));
        let ids = attributes(&html, "id");
        let hrefs = attributes(&html, "href");
        assert!(
            hrefs.len() >= 4 + 10,
            "the chips and the contents: {hrefs:?}"
        );
        for href in &hrefs {
            let target = href.strip_prefix('#').expect("an in-page link");
            assert_eq!(
                ids.iter().filter(|id| *id == &target).count(),
                1,
                "{href} has exactly one target"
            );
        }
        // The contents list every part present, in order, and nothing else.
        let nav = &html[html
            .find("data-testid=\"results-nav\"")
            .expect("a contents list")..];
        let nav = &nav[..nav.find("</nav>").expect("a closed nav")];
        let listed: Vec<&str> = attributes(nav, "data-part");
        let parts: Vec<&str> = ids
            .iter()
            .copied()
            .filter(|id| Part::from_id(id).is_some())
            .collect();
        assert_eq!(listed, parts, "the nav lists the parts in the file's order");
        let absent = [
            Part::Modes,
            Part::BySize,
            Part::Tokens,
            Part::Staircase,
            Part::PeopleModels,
            Part::Compare,
            Part::Review,
        ];
        let want: Vec<&str> = Part::ALL
            .into_iter()
            .filter(|p| !absent.contains(p))
            .map(Part::id)
            .collect();
        assert_eq!(
            listed, want,
            "no modes, sizes, tokens, staircase, people, comparison or review in this file"
        );
    }

    #[test]
    fn the_overview_opens_the_report_with_the_counts_the_phase_chart_and_four_chips() {
        let (a, _) = sample_analysis("qwen");
        let body = report_body(&a);
        assert!(
            body.starts_with("<section id=\"overview\" class=\"part\" data-testid=\"results-overview\"><h2 class=\"part-title\">Overview</h2>"),
            "{}",
            &body[..200]
        );
        let overview = &body[..body.find("</section>").expect("a closed part")];
        assert!(overview.contains(&format!(
            "{} trials from exp &lt;1&gt;; 0 with an API error",
            a.trials
        )));
        assert!(
            overview.contains(&format!("; {} mazes.", a.mazes)),
            "{overview}"
        );
        assert!(overview.contains("data-testid=\"chart-overview\""));
        for k in ["H1", "H2", "H3", "H4"] {
            let verdict = attributes(overview, "data-verdict");
            assert_eq!(verdict.len(), 4);
            assert!(
                overview.contains(&format!("href=\"#hypothesis-{k}\"")),
                "{k}'s chip links to it"
            );
            assert!(body.contains(&format!("<li id=\"hypothesis-{k}\"")));
        }
        // On the page the same links carry the page's address.
        let page = report_parts(&a, "/results").body();
        assert!(page.contains("href=\"/results#hypothesis-H2\""));
        // The text report gives the verdicts in one line under the counts.
        let text = super::super::document::text::write(&analysis_document(&a, false));
        assert!(text.starts_with("Overview\n========\n"), "{text}");
        assert!(text.contains("Verdicts: H1 "), "{text}");
    }

    #[test]
    fn a_long_table_shows_its_first_rows_and_the_rest_behind_show_all_while_its_csv_keeps_every_row(
    ) {
        let mut v = sample_observations("day one", "oracle");
        v.extend(sample_observations("day two", "oracle"));
        let a = analyze(&v, &AnalysisOptions::default());
        assert!(a.groups.len() > html::LONG, "{} groups", a.groups.len());
        let body = report_body(&a);
        let start = body
            .find("<div class=\"table-wrap long-table\"><table data-testid=\"table-groups\"")
            .expect("a long groups table");
        let table = &body[start..];
        let table = &table[..table.find("</div>").expect("closed")];
        assert_eq!(
            table.matches("<tr class=\"more\"").count(),
            a.groups.len() - html::SHOWN,
            "all but the first rows wait behind show all"
        );
        assert!(table.contains(&format!("Show all {} rows", a.groups.len())));
        let csv = super::super::document::csv::write(
            analysis_document(&a, false)
                .table("groups")
                .expect("the groups table"),
        );
        assert_eq!(
            csv.lines().count(),
            1 + a.groups.len(),
            "the CSV has every row"
        );
        // A short table stays whole.
        let (one, _) = sample_analysis("qwen");
        let pooled = one.pooled.len();
        assert!(
            pooled <= html::LONG
                && !report_body(&one).contains(
                    "<div class=\"table-wrap long-table\"><table data-testid=\"table-pooled\""
                ),
            "no row of a short table ({pooled} rows) is folded away"
        );
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
