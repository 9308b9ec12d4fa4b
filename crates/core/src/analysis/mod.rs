//! The experiment design's measures, analyses and hypothesis verdicts, computed from trial
//! records (or from re-scored transcripts) by pure functions: one [`analyze::Analysis`] serves the
//! `/results` page, the report file and `shapemaze report`, so the three never disagree.
//!
//! The unit is an [`observation::Observation`]: one trial as the analysis sees it. A
//! [`crate::results::record::TrialRecord`] gives every detail (moves, the shape named, the generation checks); a
//! transcript re-scored from its replies gives the three outcomes and their reasons; a
//! transcript of the design's own runs may give only its three closing lines. Measures that
//! need a detail count only the trials that have it, and say how many that was.
//!
//! API errors are never model failures: a phase that ended on one is left out of every
//! denominator and counted apart ([`groups::GroupRow::api_errors`]).
//!
//! The hypotheses (the design's H1 to H4) are tested at [`stats::ALPHA`]; each verdict is
//! `supported`, `not_supported` or `insufficient`, and the choices are:
//! - **H1** (matrix > coordinate list): McNemar's test on solve success, pairing the two
//!   encodings' trials of the same maze, model and repeat; supported when the matrix rate
//!   is higher and p < 0.05. Insufficient below [`hypotheses::MIN_PAIRS`] pairs.
//! - **H2** (recognition and generation vary by shape): chi-square tests of independence of
//!   recognition success x shape and generation success x shape, Bonferroni-corrected over
//!   the two (the reported p is the smaller one doubled); supported when it is below 0.05.
//!   Insufficient when fewer than two shapes have [`hypotheses::MIN_PER_SHAPE`] scored trials.
//! - **H3** (larger models do better, in the given order, default
//!   [`hypotheses::DEFAULT_MODEL_ORDER`], each name matched as a case-insensitive substring of the
//!   model): the Cochran-Armitage trend test on solve success with the models scored
//!   0, 1, 2, ...; supported when the trend is positive and p < 0.05. Insufficient when
//!   fewer than two of the named models have [`hypotheses::MIN_PER_MODEL`] scored trials.
//! - **H4** (solve > recognize > generate, paired within trials): McNemar's test for solve
//!   against recognize and for recognize against generate on the trials with all three
//!   phases scored; supported when both differences point the predicted way with p < 0.05
//!   (an intersection-union test, so no correction is needed; the reported p is the larger
//!   of the two). Cochran's Q over the three phases is the reported statistic.
//!   Insufficient below [`hypotheses::MIN_PAIRS`] trials.
//!
//! A verdict below [`SMALL_SAMPLE`] observations (or with expected counts under 5 for a
//! chi-square) carries a plain warning.
//!
//! Every rate's interval is clustered by maze instance ([`stats::clustered`]): repeats and
//! several players of one maze are correlated trials.
//!
//! Files: [`observation`], [`groups`], [`shapes`], [`hypotheses`], [`people`] (people and
//! models paired on the same mazes), [`modes`] (the answer modes compared, paired by maze;
//! [`forms`] what a record's mode leaves for it), [`analyze`] (the whole analysis) and
//! [`stats`] (the tests and intervals). May import `results` and the
//! domains below it.

pub mod analyze;
pub mod compare;
pub mod forms;
pub mod groups;
pub mod hypotheses;
pub mod modes;
pub mod observation;
pub mod people;
pub mod review;
pub mod second_reader;
pub mod shapes;
pub mod staircase;
pub mod stats;
#[cfg(any(test, feature = "test-support"))]
pub mod test_support;
pub mod trace;
