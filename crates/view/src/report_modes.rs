//! The report's part on the answer modes (`/results#modes`, docs/guides/answer-modes.md):
//! each model in each mode (`table-modes`: the phase rates, the forms not held counted
//! apart, the accuracy among the answers the form read, tokens and dollars per solve and
//! the transcription's apart), each mode against the reference on the same mazes
//! (`table-modes-paired`: McNemar's test, as H1 pairs the encodings), and the readers'
//! agreement with the form's reading (`table-modes-agreement`, Wilson intervals): under
//! `transcribed`, how often our readers read the free reply as its transcription does.

use super::contents::Part;
use super::document::{Cell, Section, Table, TestResult};
use shapemaze_core::analysis::analyze::Analysis;
use shapemaze_core::analysis::modes::ModeComparison;
use shapemaze_core::play::phase::Phase;

/// `model` with its experiment in front when there are several.
fn who(a: &Analysis, experiment: &str, model: &str) -> String {
    if a.experiments.len() > 1 {
        format!("{experiment}: {model}")
    } else {
        model.to_string()
    }
}

/// The replies not held of `replies`, as `k of n`, empty without replies.
fn not_held(k: usize, n: usize) -> Cell {
    if n == 0 {
        Cell::Text(String::new())
    } else {
        Cell::Text(format!("{k} of {n}"))
    }
}

fn rows_table(a: &Analysis, m: &ModeComparison) -> Table {
    let mut t = Table::new(
        "modes",
        "Each model in each answer mode: the phase rates over every scored trial; the replies whose form the endpoint did not hold (read by the free readers instead), counted apart; the rate among the trials whose every reply of the phase held its form; tokens per solved trial, the transcription's apart".into(),
        &[
            ("model", "model"),
            ("mode", "mode"),
            ("trials", "trials"),
            ("solve", "solve"),
            ("recognize", "recognize"),
            ("generate", "generate"),
            ("solve_not_held", "solve: forms not held"),
            ("recognize_not_held", "recognize: forms not held"),
            ("generate_not_held", "generate: forms not held"),
            ("solve_held", "solve, forms held"),
            ("recognize_held", "recognize, forms held"),
            ("generate_held", "generate, forms held"),
            ("step_downs", "step-downs"),
            ("tokens_per_solve", "tokens per solve"),
            ("transcription_tokens_per_solve", "transcription tokens per solve"),
            ("cost_per_solve", "cost per solve"),
            ("transcription_cost_per_solve", "transcription cost per solve"),
        ],
    );
    for r in &m.rows {
        let mut cells = vec![
            Cell::Text(who(a, &r.experiment, &r.model)),
            Cell::text(&r.mode),
            Cell::Count(r.trials),
        ];
        cells.extend(r.rates.iter().map(|p| Cell::Rate(*p)));
        cells.extend((0..3).map(|i| not_held(r.not_held[i], r.replies[i])));
        cells.extend(
            r.held
                .iter()
                .map(|h| h.map_or(Cell::Text(String::new()), Cell::Rate)),
        );
        let money = |v: Option<f64>| {
            Cell::Text(
                v.map(shapemaze_core::model::price::dollars)
                    .unwrap_or_default(),
            )
        };
        cells.extend([
            Cell::Count(r.step_downs),
            Cell::Number(r.tokens_per_solve),
            Cell::Number(r.transcription_tokens_per_solve),
            money(r.cost_per_solve),
            money(r.transcription_cost_per_solve),
        ]);
        t.row(cells);
    }
    t
}

/// `-x`, but no difference reads `0.0`, not `-0.0`.
fn turned(x: f64) -> f64 {
    0.0 - x
}

fn pairs_table(a: &Analysis, m: &ModeComparison) -> Table {
    let mut t = Table::new(
        "modes-paired",
        "Each mode against the reference (free text when it was played) on the same mazes, paired by maze and repeat: McNemar's test, exact below 25 discordant pairs".into(),
        &[
            ("model", "model"),
            ("phase", "phase"),
            ("a", "reference"),
            ("b", "mode"),
            ("a_rate", "reference's rate"),
            ("b_rate", "mode's rate"),
            ("pairs", "pairs"),
            ("difference", "mode minus reference [95% CI]"),
            ("mcnemar", "McNemar"),
        ],
    );
    for p in &m.pairs {
        let (n, diff, test) = p
            .test
            .map_or((0, Cell::Number(None), Cell::Number(None)), |t| {
                (
                    t.counts.n(),
                    // McNemar's difference is the reference's minus the mode's.
                    Cell::Interval {
                        value: turned(t.difference),
                        low: Some(turned(t.ci_high)),
                        high: Some(turned(t.ci_low)),
                        points: true,
                    },
                    Cell::Test(TestResult {
                        statistic_name: if t.exact { "exact, k" } else { "chi2" }.into(),
                        statistic: Some(t.statistic),
                        p: t.p,
                    }),
                )
            });
        t.row(vec![
            Cell::Text(who(a, &p.experiment, &p.model)),
            Cell::text(p.phase.name()),
            Cell::text(&p.a),
            Cell::text(&p.b),
            Cell::Rate(p.a_rate),
            Cell::Rate(p.b_rate),
            Cell::Count(n),
            diff,
            test,
        ]);
    }
    t
}

fn agreement_table(a: &Analysis, m: &ModeComparison) -> Table {
    let mut t = Table::new(
        "modes-agreement",
        "Our readers' agreement with the form's reading, over the replies with text whose form held: under transcribed, with the transcription of the same free reply (a disagreement joins the review queue); under schema, with the JSON the endpoint held".into(),
        &[
            ("model", "model"),
            ("mode", "mode"),
            ("phase", "phase"),
            ("agreement", "readers agree [95% Wilson]"),
        ],
    );
    for g in &m.agreement {
        t.row(vec![
            Cell::Text(who(a, &g.experiment, &g.model)),
            Cell::text(&g.mode),
            Cell::text(g.phase.name()),
            Cell::Rate(g.agreement),
        ]);
    }
    t
}

/// One sentence per transcribed model and phase: "In solve, our readers agree with the
/// transcription on A of N replies (R%, L-H%)."
pub fn agreement_sentences(m: &ModeComparison) -> Vec<String> {
    m.agreement
        .iter()
        .filter(|g| g.mode.starts_with("transcribed"))
        .map(|g| {
            let p = &g.agreement;
            format!(
                "{} in {}: our readers agree with the transcription on {} of {} replies ({:.1}%, {:.1}-{:.1}%).",
                g.model,
                phase_words(g.phase),
                p.successes,
                p.n,
                100.0 * p.rate,
                100.0 * p.ci_low,
                100.0 * p.ci_high
            )
        })
        .collect()
}

fn phase_words(p: Phase) -> &'static str {
    match p {
        Phase::Solve => "solve",
        Phase::Recognize => "recognize",
        _ => "generate",
    }
}

/// The answer modes' part ([`Part::Modes`]): `None` when every trial answered freely.
pub(crate) fn modes_section(a: &Analysis) -> Option<Section> {
    let m = &a.modes;
    if m.is_empty() {
        return None;
    }
    let mut s = Section::new(String::new())
        .in_part(Part::Modes)
        .table(rows_table(a, m));
    if !m.pairs.is_empty() {
        s = s.table(pairs_table(a, m));
    }
    if !m.agreement.is_empty() {
        s = s.table(agreement_table(a, m));
        for line in agreement_sentences(m) {
            s = s.paragraph(line);
        }
    }
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::turned;

    #[test]
    fn a_difference_turned_around_reads_no_minus_sign_on_zero() {
        assert_eq!(format!("{:.1}", turned(0.0)), "0.0", "no -0.0");
        assert_eq!(format!("{:.1}", turned(0.25)), "-0.2");
        assert_eq!(turned(-0.125), 0.125);
    }
}
