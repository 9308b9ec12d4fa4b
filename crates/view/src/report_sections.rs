//! The report's sections, part by part ([`Part`]): each builder turns the analysis into
//! the sections of one part of the results, in the order [`super::report::analysis_document`]
//! puts them.

use super::chart::*;
use super::contents::Part;
use super::document::{two_decimals, Block, Cell, Chip, Section, Table, TestResult, Verdict};
use super::report_charts::{
    by_model, capitalized, confusion_chart, groups_table, model_name, overview_chart, phase_bars,
    progression_chart,
};
use shapemaze_core::analysis::analyze::Analysis;
use shapemaze_core::analysis::groups::{EmptyAnswers, GroupDetail};
use shapemaze_core::analysis::hypotheses::fmt_p;
use shapemaze_core::analysis::observation::{ALL, PHASE_NAMES};
use shapemaze_core::analysis::trace::{Place, LOOP_VISITS};
use shapemaze_core::model::price::dollars;
use shapemaze_core::model::reply::EmptyReason;
use shapemaze_core::text::Fixed;
use std::fmt::Write as _;

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
    )
    .rates(&["solve", "recognize", "generate"]);
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
    )
    .rates(&["move_validity", "looping"]);
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
        .in_part(Part::BySize)
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
    )
    .rates(&["solve_pass_at_k", "solve_pass_all_k", "recognize_pass_at_k", "recognize_pass_all_k", "generate_pass_at_k", "generate_pass_all_k"]);
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
        .in_part(Part::Rates)
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
    Section::new(String::new())
        .in_part(Part::Staircase)
        .paragraph(
            "Each model and encoding walked the design's levels (0 the easiest) one trial at a time: one level up after two successes in a row, one down after a failure, which settles where a trial succeeds about 71% of the time. The threshold is the mean level at the reversals (turns of direction), leaving out the first and keeping the latest even number; a walk with fewer than two such reversals has not settled. API errors keep the level.",
        )
        .table(t)
        .table(key)
}

/// The overview ([`Part::Overview`]): the counts in one line (trials, API errors, mazes,
/// cost where known), then every model's three phase rates with their intervals beside
/// the verdicts on H1-H4 as chips that link to them.
pub(crate) fn overview_section(a: &Analysis) -> Section {
    let chips = a
        .hypotheses
        .all()
        .into_iter()
        .map(|(k, h, statement)| Chip {
            key: k.to_string(),
            label: chip_label(k).to_string(),
            verdict: h.verdict.name().to_string(),
            target: format!("hypothesis-{k}"),
            statement: statement.to_string(),
        })
        .collect();
    let section = Section::new(String::new())
        .in_part(Part::Overview)
        .paragraph(counts_line(a))
        .block(Block::Overview(overview_chart(a), chips));
    match bounds_line(a) {
        Some(line) => section.paragraph(line),
        None => section,
    }
}

/// A rate to one decimal: `41.7%`.
fn pct1(x: f64) -> String {
    format!("{:.1}%", Fixed(100.0 * x))
}

/// Under the overview's chart, when some rate rests on readings the readers are unsure of:
/// each such model's phases with how many, and how far they could move the rate (if every
/// one were wrong, if every one were right); `None` when every reading is sure.
fn bounds_line(a: &Analysis) -> Option<String> {
    let mut parts = Vec::new();
    for r in by_model(a) {
        let phases: Vec<String> = PHASE_NAMES
            .iter()
            .zip(r.bounds.0)
            .filter(|(_, b)| b.unsure > 0)
            .map(|(name, b)| {
                format!(
                    "{name} {} unsure, {}-{}",
                    b.unsure,
                    pct1(b.if_unsure_wrong),
                    pct1(b.if_unsure_right)
                )
            })
            .collect();
        if !phases.is_empty() {
            parts.push(format!("{}: {}", model_name(a, r), phases.join(", ")));
        }
    }
    (!parts.is_empty()).then(|| {
        format!(
            "Readings the readers are unsure of, and the rate if every one were wrong to if every one were right (the review part checks them): {}.",
            parts.join("; ")
        )
    })
}

/// What a hypothesis is about, in a few words (its chip's label).
fn chip_label(key: &str) -> &'static str {
    match key {
        "H1" => "matrix > coordinate list",
        "H2" => "varies by shape",
        "H3" => "scales with model size",
        "H4" => "solve > recognize > generate",
        _ => "",
    }
}

/// `24 trials from exp; 0 with an API error (left out of every rate); 12 mazes`, and
/// what the priced trials cost when a model had a price.
fn counts_line(a: &Analysis) -> String {
    let mut line = format!(
        "{} trials from {}; {} with an API error (left out of every rate); {} maze{}",
        a.trials,
        a.experiments.join(", "),
        a.api_errors,
        a.mazes,
        if a.mazes == 1 { "" } else { "s" }
    );
    let overall = a.details.get(a.groups.len()).map(|d| &d.tokens);
    if let Some(cost) = overall.and_then(|t| t.cost) {
        let _ = write!(line, "; {} spent on the priced trials", dollars(cost));
    }
    line.push('.');
    line
}

/// H1-H4 with their tests ([`Part::Hypotheses`]).
pub(crate) fn hypotheses_section(a: &Analysis) -> Section {
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
    Section::new(String::new())
        .in_part(Part::Hypotheses)
        .paragraph("Each tested at alpha 0.05, with its test, statistic, p and n.")
        .block(Block::Verdicts(verdicts))
}

/// The rates by group ([`Part::Rates`]): the pooled rows (with `charts`, by encoding and
/// the progression per model), the encodings compared, the correlations between phases,
/// empty answers and, with repeated mazes, pass@k.
pub(crate) fn rates_sections(a: &Analysis, charts: bool) -> Vec<Section> {
    let mut pooled = Section::new(String::new()).in_part(Part::Rates).paragraph(
        "Rates are successes over trials judged, with the distinct mazes they were played on in parentheses and 95% intervals in brackets, clustered by maze instance: a maze played many times (repeats, several models or people) gives correlated trials, so each interval is Wilson's on the trials the design effect of those repeats leaves (at most the trials; as few as the mazes when the trials cannot show how alike a maze's trials are).",
    );
    if charts {
        pooled = pooled.block(Block::Charts(vec![
            phase_bars(a, false),
            progression_chart(a),
        ]));
    }
    let several = a.experiments.len() > 1;
    let mut sections = vec![
        pooled.table(groups_table(
            "pooled",
            "Pooled rows (`all` = pooled)",
            &a.pooled,
            several,
        )),
        Section::new("Matrix vs coordinate list (paired by maze)".into())
            .in_part(Part::Rates)
            .table(encodings_table(a)),
        Section::new("Correlations between phases".into())
            .in_part(Part::Rates)
            .table(correlations_table(a)),
    ];
    if a.empty_answers.first().is_some_and(EmptyAnswers::any) {
        sections.push(
            Section::new("Empty answers".into())
                .in_part(Part::Rates)
                .table(empty_answers_table(a)),
        );
    }
    if !a.repeats.is_empty() {
        sections.push(repeats_section(a));
    }
    sections
}

/// Trials with empty answers, by why they were empty: all trials, then per model.
fn empty_answers_table(a: &Analysis) -> Table {
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
            EmptyReason::ALL.map(|r| Cell::Text(format!("{} of {} trials", e.count(r), e.trials))),
        );
        t.row(cells);
    }
    t
}

/// Matrix against coordinate list per model and phase, paired by maze.
fn encodings_table(a: &Analysis) -> Table {
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
    )
    .rates(&["matrix", "coord_list"])
    .intervals(&["difference"])
    .tests(&["mcnemar"]);
    for c in &a.encoding_comparison {
        let (diff, test) = c
            .test
            .map_or((Cell::Number(None), Cell::Number(None)), |t| {
                (
                    Cell::Interval {
                        value: t.difference,
                        low: Some(t.ci_low),
                        high: Some(t.ci_high),
                        points: true,
                    },
                    Cell::Test(TestResult {
                        statistic_name: if t.exact { "exact, k" } else { "chi2" }.into(),
                        statistic: Some(t.statistic),
                        p: t.p,
                    }),
                )
            });
        encodings.row(vec![
            Cell::text(&c.model),
            Cell::text(&c.phase),
            Cell::Rate(c.matrix),
            Cell::Rate(c.coord_list),
            diff,
            test,
        ]);
    }
    encodings
}

/// Phi between each two phases, per model and pooled.
fn correlations_table(a: &Analysis) -> Table {
    let mut correlations = Table::new(
        "correlations",
        "".into(),
        &[
            ("model", "model"),
            ("phases", "phases"),
            ("trials", "trials"),
            ("phi", "phi [95% CI]"),
        ],
    )
    .intervals(&["phi"]);
    for c in &a.phase_correlations {
        correlations.row(vec![
            Cell::text(&c.model),
            Cell::Text(format!("{} / {}", c.first, c.second)),
            Cell::Count(c.counts.n()),
            c.phi.map_or(Cell::Number(None), |p| Cell::Interval {
                value: p.phi,
                low: Some(p.ci_low),
                high: Some(p.ci_high),
                points: false,
            }),
        ]);
    }
    correlations
}

/// `model/encoding/shape` of a detail row, after its experiment (`exp: model/all/all`)
/// when the analysis holds several (two experiments may share a model's name).
fn detail_label(a: &Analysis, d: &GroupDetail) -> String {
    let group = format!("{}/{}/{}", d.model, d.encoding, d.shape);
    if a.experiments.len() > 1 && d.experiment != ALL {
        format!("{}: {group}", d.experiment)
    } else {
        group
    }
}

/// The detailed measures of the pooled rows (the groups' own come first).
fn pooled_details(a: &Analysis) -> impl Iterator<Item = &GroupDetail> {
    a.details.iter().skip(a.groups.len())
}

/// How solves went ([`Part::Solving`]): moves and failure types, how they went wrong,
/// and (when calls were retried) whether retried trials did worse.
pub(crate) fn solving_sections(a: &Analysis) -> Vec<Section> {
    let mut sections = vec![Section::new(String::new())
        .in_part(Part::Solving)
        .table(solve_details_table(a))
        .table(solve_errors_table(a))];
    if pooled_details(a).any(|d| d.retries.retried_trials > 0) {
        sections.push(
            Section::new("Retried calls".into())
                .in_part(Part::Solving)
                .table(retries_table(a)),
        );
    }
    sections
}

/// Moves, failure types and move validity of the pooled rows.
fn solve_details_table(a: &Analysis) -> Table {
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
    )
    .rates(&["move_validity"]);
    for d in pooled_details(a) {
        let reasons = d
            .failures
            .invalid_by_reason
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join(", ");
        solving.row(vec![
            Cell::Text(detail_label(a, d)),
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
    solving
}

/// How solves went wrong: revisits, looping and where the first error was made.
fn solve_errors_table(a: &Analysis) -> Table {
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
    let lenient = pooled_details(a).any(|d| d.retried_moves > 0);
    if lenient {
        columns.push(("retried_moves", "invalid moves forgiven (lenient)"));
    }
    let mut wrong = Table::new(
        "solve-errors",
        format!(
            "How solves went wrong (pooled rows; solves whose path is known, from trials.jsonl): moves onto a cell stood on before, solves that looped (a cell stood on {LOOP_VISITS} times or more), and where the first error was made (the first move that broke the rules or left every shortest path)"
        ),
        &columns,
    )
    .rates(&["looping"]);
    for d in pooled_details(a) {
        let e = &d.first_errors;
        let mut cells = vec![
            Cell::Text(detail_label(a, d)),
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
    wrong
}

/// Retried trials' solve rates beside the others'.
fn retries_table(a: &Analysis) -> Table {
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
    )
    .rates(&["solve_retried", "solve_others"]);
    for d in pooled_details(a) {
        let r = &d.retries;
        retries.row(vec![
            Cell::Text(detail_label(a, d)),
            Cell::Count(r.retried_trials),
            Cell::Rate(r.solve_retried),
            Cell::Rate(r.solve_others),
            Cell::Number(r.p),
        ]);
    }
    retries
}

/// The shape confusion matrices ([`Part::Recognition`]): all trials (with `charts`, as a
/// heatmap too), by encoding and by model.
pub(crate) fn recognition_section(a: &Analysis, charts: bool) -> Section {
    let mut confusion =
        Section::new("Shape confusion matrix (rows: true shape; columns: shape named)".into())
            .in_part(Part::Recognition);
    if charts {
        confusion = confusion.block(Block::Charts(vec![confusion_chart(a)]));
    }

    if a.confusion.is_empty() {
        confusion = confusion.paragraph("No shape named is known (it needs trials.jsonl).");
    }
    if let Some(note) = a.shown_recognitions.note() {
        confusion = confusion.paragraph(note);
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
    confusion
}

/// The four generation checks of the pooled rows ([`Part::Generation`]).
pub(crate) fn generation_section(a: &Analysis) -> Section {
    let mut generation = Table::new(
        "generation",
        "The four generation checks, each on its own and all together (pooled rows, trials with records)".into(),
        &[
            ("group", "group"),
            ("valid_encoding", "valid encoding"),
            ("shape_preserved", "shape preserved"),
            ("novel", "novel"),
            ("path_valid", "path valid"),
            ("all_four", "all four"),
        ],
    )
    .rates(&["valid_encoding", "shape_preserved", "novel", "path_valid", "all_four"]);
    for d in pooled_details(a) {
        let g = &d.generation;
        generation.row(vec![
            Cell::Text(detail_label(a, d)),
            Cell::Rate(g.valid_encoding),
            Cell::Rate(g.shape_preserved),
            Cell::Rate(g.novel),
            Cell::Rate(g.path_valid),
            Cell::Rate(g.all_four),
        ]);
    }
    Section::new(String::new())
        .in_part(Part::Generation)
        .table(generation)
}

/// Shapes ([`Part::Shapes`]): with `charts`, success by shape; the shape effects, the
/// observed difficulty beside the predicted ranking, and Spearman's rho between them.
pub(crate) fn shapes_section(a: &Analysis, charts: bool) -> Section {
    let mut effects = Table::new(
        "shape-effects",
        "".into(),
        &[
            ("phase", "phase"),
            ("chi_square", "chi-square (success x shape)"),
            ("anova", "ANOVA on per-maze scores"),
        ],
    )
    .tests(&["chi_square", "anova"]);
    for p in &a.shape_effects.phases {
        let chi = p.chi_square.map_or(Cell::Number(None), |c| {
            Cell::Test(TestResult {
                statistic_name: format!("chi2({})", c.df),
                statistic: Some(c.statistic),
                p: c.p,
            })
        });
        let anova = p.anova.map_or(Cell::Number(None), |x| {
            Cell::Test(TestResult {
                statistic_name: format!("F({}, {})", x.df1, x.df2),
                statistic: Some(x.f),
                p: x.p,
            })
        });
        effects.row(vec![
            Cell::text(&p.phase),
            chi,
            Cell::noted(anova, format!("{} mazes", p.mazes)),
        ]);
    }
    let mut ranking = Table::new(
        "ranking",
        "Observed difficulty (mean of the three phase rates) beside the predicted ranking".into(),
        &[
            ("shape", "shape"),
            ("score", "score (%)"),
            ("observed_rank", "observed rank"),
            ("predicted_rank", "predicted rank"),
        ],
    );
    for r in &a.shape_effects.ranking {
        ranking.row(vec![
            Cell::text(&r.shape),
            Cell::Number(Some(100.0 * r.score)),
            // Average ranks are whole or halves.
            Cell::Number(Some(r.observed)),
            Cell::Count(r.predicted),
        ]);
    }
    let mut section = Section::new("Shape effects".into()).in_part(Part::Shapes);
    if charts {
        section = section.block(Block::Charts(vec![phase_bars(a, true)]));
    }
    section.table(effects).table(ranking).paragraph(format!(
        "Spearman's rho between predicted and observed ranks: {}.",
        a.shape_effects.spearman.map_or("n/a".into(), |c| format!(
            "{:.2} (p {}, n = {})",
            Fixed(c.r),
            fmt_p(c.p),
            c.n
        ))
    ))
}

/// Tokens and dollars of the pooled rows ([`Part::Tokens`]): `None` unless an endpoint
/// reported usage.
pub(crate) fn tokens_section(a: &Analysis) -> Option<Section> {
    if !pooled_details(a).any(|d| d.tokens.trials > 0) {
        return None;
    }

    // Dollars only when a model had a price.
    let priced = pooled_details(a).any(|d| d.tokens.cost.is_some());
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
    for d in pooled_details(a) {
        let t = &d.tokens;
        let mut cells = vec![
            Cell::Text(detail_label(a, d)),
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
    Some(
        Section::new(String::new())
            .in_part(Part::Tokens)
            .table(tokens),
    )
}

/// The model x encoding x shape table ([`Part::Trials`]), whose rows a page follows to
/// their trials.
pub(crate) fn trials_section(a: &Analysis) -> Section {
    Section::new(String::new())
        .in_part(Part::Trials)
        .table(groups_table(
            "groups",
            "Model x encoding x shape",
            &a.groups,
            a.experiments.len() > 1,
        ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_overview_says_which_rates_rest_on_unsure_readings_and_how_far_they_could_move() {
        use shapemaze_core::analysis::analyze::{analyze, AnalysisOptions};
        use shapemaze_core::analysis::test_support::obs;
        use shapemaze_core::maze::encoding::Encoding;
        use shapemaze_core::maze::shape::Shape;
        use shapemaze_core::results::bounds::PhaseDoubt;
        let mut v: Vec<_> = (0..4)
            .map(|i| {
                obs(
                    "reader-test",
                    Encoding::Matrix,
                    Shape::C,
                    i,
                    [i > 0, true, true],
                )
            })
            .collect();
        assert_eq!(
            bounds_line(&analyze(&v, &AnalysisOptions::default())),
            None,
            "every reading sure: no line"
        );
        // The first trial's solve failed on a reading the reader was unsure of, with the goal
        // still in reach: if it was misread the phase could have passed.
        v[0].doubts[0] = PhaseDoubt {
            unsure: true,
            could_pass: true,
        };
        let line = bounds_line(&analyze(&v, &AnalysisOptions::default())).expect("a line");
        assert!(
            line.contains("reader-test: solve 1 unsure, 75.0%-100.0%"),
            "{line}"
        );
        assert!(
            !line.contains("recognize"),
            "a phase read surely is not named: {line}"
        );
    }
}
